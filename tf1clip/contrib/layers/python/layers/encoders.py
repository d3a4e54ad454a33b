"""`tf.contrib.layers.embed_sequence` and `bow_encoder`, as in TF 1.15 (variables `EmbedSequence/embeddings`,
`bow_encoder/embeddings`).

The lookup is `tf.nn.embedding_lookup`, so the embedding's gradient is a `tf.IndexedSlices` and stays sparse through
tf1clip's clipping and wrappers.
"""

import tensorflow as tf

from tf1clip.contrib import framework
from tf1clip.contrib.layers.python.layers import embedding_ops


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
      return embedding_ops.embedding_lookup_unique(embeddings, ids)
    return tf.nn.embedding_lookup(embeddings, ids)


def bow_encoder(ids, vocab_size, embed_dim, sparse_lookup=True, initializer=None, regularizer=None,
                trainable=True, scope=None, reuse=None):
  """Encodes each row of symbol ids as the mean of their embeddings (a bag of words).

  Args:
    ids: a [batch, length] int Tensor, or a SparseTensor, of symbol ids. With `sparse_lookup`, id 0
      in a dense `ids` is padding (left out of the mean), and a row with no ids gets embedding 0.
    vocab_size: number of symbols.
    embed_dim: embedding size.
    sparse_lookup: look the ids up sparsely (`safe_embedding_lookup_sparse`, combiner "mean");
      otherwise average the dense lookup over axis 1, padding included.
    initializer, regularizer, trainable: for the embeddings variable.
    scope: the variable scope (default "bow_encoder").
    reuse: reuse the variables of `scope`.

  Returns:
    A [batch, embed_dim] Tensor.

  Raises:
    TypeError: `ids` is a SparseTensor and `sparse_lookup` is False.
  """
  with tf.compat.v1.variable_scope(scope, "bow_encoder", [ids], reuse=reuse):
    embeddings = framework.model_variable("embeddings", shape=[vocab_size, embed_dim],
                                          initializer=initializer, regularizer=regularizer,
                                          trainable=trainable)
    if sparse_lookup:
      if isinstance(ids, tf.SparseTensor):
        sparse_ids = ids
      else:
        ids = tf.convert_to_tensor(ids)
        # TF 1.15 dropped the padding id 0 (sparse_ops.dense_to_sparse_tensor's ignore_value).
        indices = tf.where(tf.not_equal(ids, tf.zeros([], ids.dtype)))
        sparse_ids = tf.SparseTensor(indices, tf.gather_nd(ids, indices),
                                     tf.shape(ids, out_type=tf.int64))
      return tf.compat.v1.nn.safe_embedding_lookup_sparse(
          [embeddings], sparse_ids, combiner="mean", default_id=0)
    if isinstance(ids, tf.SparseTensor):
      raise TypeError("bow_encoder(sparse_lookup=False) needs dense ids; got a SparseTensor")
    return tf.reduce_mean(tf.nn.embedding_lookup(embeddings, ids), axis=1)
