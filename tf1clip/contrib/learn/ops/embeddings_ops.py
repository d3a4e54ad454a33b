"""`tf.contrib.learn.ops.embeddings_ops`: an embedding lookup of any-rank ids, and a categorical embedding variable.

Place in the data flow (DESIGN.md): tf.nn.embedding_lookup <- **contrib.learn.ops.embeddings_ops** <- contrib.learn.
"""

import tensorflow as tf

V1 = tf.compat.v1


def embedding_lookup(params, ids, name="embedding_lookup"):
  """params' rows for `ids` of any shape: a tensor of shape ids.shape + params.shape[1:]."""
  with V1.name_scope(name, "embedding_lookup", [params, ids]):
    params = tf.convert_to_tensor(params)
    ids = tf.convert_to_tensor(ids)
    shape = tf.shape(ids)
    flat = V1.nn.embedding_lookup(params, tf.reshape(ids, tf.reduce_prod(shape, keepdims=True)), name=name)
    embeds = tf.reshape(flat, tf.concat([shape, [-1]], 0))
    embeds.set_shape(ids.shape.concatenate(params.shape[1:]))
    return embeds


def categorical_variable(tensor_in, n_classes, embedding_size, name):
  """The embeddings of class ids `tensor_in` from a variable `<name>/<name>_embeddings` [n_classes, size]."""
  with V1.variable_scope(name):
    embeddings = V1.get_variable(name + "_embeddings", [n_classes, embedding_size])
    return embedding_lookup(embeddings, tensor_in)
