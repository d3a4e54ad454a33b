"""`tf.contrib.layers.embed_sequence`, as in TF 1.15 (variable `EmbedSequence/embeddings`).

Place in the data flow (DESIGN.md): contrib.framework.model_variable <- contrib.layers (this
module) <- compat <- cli. The lookup is `tf.nn.embedding_lookup`, so the embedding's gradient is
a `tf.IndexedSlices` and stays sparse through tf1clip's clipping and wrappers.
"""

import tensorflow as tf

from tf1clip.contrib import framework


def _embedding_lookup_unique(params, ids):
  """Looks each distinct id up once, then repeats the rows (contrib's embedding_lookup_unique)."""
  with tf.compat.v1.name_scope(None, "EmbeddingLookupUnique", [params, ids]):
    ids = tf.convert_to_tensor(ids)
    shape = tf.shape(ids)
    ids_flat = tf.reshape(ids, tf.reduce_prod(shape, keepdims=True))
    unique_ids, idx = tf.unique(ids_flat)
    unique_embeddings = tf.nn.embedding_lookup(params, unique_ids)
    embeds_flat = tf.gather(unique_embeddings, idx)
    embed_shape = tf.concat([shape, tf.shape(unique_embeddings)[1:]], 0)
    embeds = tf.reshape(embeds_flat, embed_shape)
    embeds.set_shape(ids.shape.concatenate(unique_embeddings.shape[1:]))
    return embeds


def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None,
                   regularizer=None, trainable=True, scope=None, reuse=None):
  """Maps a [batch, length] tensor of symbol ids to [batch, length, embed_dim] embeddings.

  Args:
    ids: an int32/int64 Tensor of symbol ids.
    vocab_size: number of symbols (rows of the embedding matrix).
    embed_dim: embedding size (columns).
    unique: look each distinct id up once and repeat the rows.
    initializer: for the embeddings; None uses the variable scope's default.
    regularizer: optional regularizer for the embeddings.
    trainable: add the variable to TRAINABLE_VARIABLES.
    scope: the variable scope (default "EmbedSequence", made unique); required to reuse.
    reuse: reuse the embeddings of `scope` (then the sizes may be omitted).

  Returns:
    The embedded sequences, a Tensor of shape ids.shape + [embed_dim].

  Raises:
    ValueError: if `vocab_size` or `embed_dim` is missing when not reusing.
  """
  if not (reuse or (vocab_size and embed_dim)):
    raise ValueError("embed_sequence needs vocab_size and embed_dim when not reusing; got "
                     "vocab_size=%s and embed_dim=%s" % (vocab_size, embed_dim))
  with tf.compat.v1.variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
    shape = [vocab_size, embed_dim]
    if reuse and (vocab_size is None or embed_dim is None):
      shape = None
    embeddings = framework.model_variable("embeddings", shape=shape, initializer=initializer,
                                          regularizer=regularizer, trainable=trainable)
    if unique:
      return _embedding_lookup_unique(embeddings, ids)
    return tf.nn.embedding_lookup(embeddings, ids)
