"""`tf.contrib.layers.embedding_lookup_unique`: an embedding lookup that gathers each distinct id once.

Place in the data flow (DESIGN.md): **contrib.layers** <- compat <- cli. TensorFlow 2.21 has no such
function; this is TF 1.15's, on `tf.unique` + `tf.compat.v1.nn.embedding_lookup` + `tf.gather`, so its
gradient with respect to `params` stays a sparse `IndexedSlices` over the distinct ids.
"""

import tensorflow as tf


def embedding_lookup_unique(params, ids, partition_strategy="mod", name=None):
  """`tf.nn.embedding_lookup` for ids of any rank, looking each distinct id up only once.

  Args:
    params: the embedding tensor, variable, or list of partitions (as for
      `tf.compat.v1.nn.embedding_lookup`).
    ids: an int32/int64 tensor of ids, any shape.
    partition_strategy: "mod" or "div", for a partitioned `params`.
    name: the name scope (default "EmbeddingLookupUnique").

  Returns:
    A tensor of shape `ids.shape + params.shape[1:]`.

  Raises:
    ValueError: `partition_strategy` is not "mod" or "div".
  """
  if partition_strategy not in ("mod", "div"):
    raise ValueError("partition_strategy must be 'mod' or 'div'; got %r" % (partition_strategy,))
  with tf.compat.v1.name_scope(name, "EmbeddingLookupUnique", [params, ids]):
    ids = tf.convert_to_tensor(ids)
    shape = tf.shape(ids)
    ids_flat = tf.reshape(ids, tf.reduce_prod(shape, keepdims=True))
    unique_ids, idx = tf.unique(ids_flat)
    unique_embeddings = tf.compat.v1.nn.embedding_lookup(params, unique_ids, partition_strategy)
    embeds_flat = tf.gather(unique_embeddings, idx)
    embed_shape = tf.concat([shape, tf.shape(unique_embeddings)[1:]], 0)
    embeds = tf.reshape(embeds_flat, embed_shape)
    embeds.set_shape(ids.get_shape().concatenate(unique_embeddings.get_shape()[1:]))
    return embeds
