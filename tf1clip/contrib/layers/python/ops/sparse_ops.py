"""TF 1.15's `tf.contrib.layers` sparse ops (`contrib_sparse_ops`): dense <-> sparse conversions and row envelopes.

TF 1.15's Python code on TensorFlow's public ops (same name scopes, values and errors).
"""

import numbers

import tensorflow.compat.v1 as tf

from tf1clip.contrib import catalog as _catalog


def _ignore_value_tensor(dtype, ignore_value=None):
  """`ignore_value` (default: the dtype's zero, '' for strings) as a scalar of `dtype`."""
  if ignore_value is None:
    ignore_value = "" if dtype == tf.string else dtype.as_numpy_dtype()
  return tf.cast(ignore_value, dtype, name="ignore_value")


def dense_to_sparse_tensor(dense_tensor, ignore_value=None):
  """The SparseTensor of `dense_tensor`'s cells that differ from `ignore_value` (default: the dtype's zero)."""
  with tf.name_scope("DenseToSparseTensor"):
    dense_tensor = tf.convert_to_tensor(dense_tensor)
    ignore_value = _ignore_value_tensor(dense_tensor.dtype, ignore_value)
    indices = tf.where(tf.not_equal(dense_tensor, ignore_value), name="indices")
    return tf.SparseTensor(indices=indices, values=tf.gather_nd(dense_tensor, indices, name="values"),
                           dense_shape=tf.shape(dense_tensor, out_type=tf.int64, name="dense_shape"))


def indicators_to_sparse_ids(indicators, ignore_value=None, dtype=tf.int64):
  """The last-axis positions of `indicators`' non-ignored cells, as a SparseTensor of ids [..., max count]."""
  if not dtype.is_integer:
    raise ValueError("Invalid dtype {} not integer.".format(dtype))
  with tf.name_scope(None, "indicators_to_sparse_ids", (indicators, ignore_value)):
    indicators = tf.convert_to_tensor(indicators, name="indicators")
    missing_indicators = tf.equal(indicators, _ignore_value_tensor(indicators.dtype, ignore_value),
                                  name="missing")
    zeros_like_indicators = tf.zeros_like(indicators, dtype=tf.int64, name="zeros")
    binary_indicators = tf.where(missing_indicators, zeros_like_indicators,
                                 tf.ones_like(indicators, dtype=tf.int64, name="ones"), name="binary_indicators")
    row_index_indicators = tf.where(missing_indicators, zeros_like_indicators,
                                    tf.cumsum(binary_indicators, axis=-1), "row_index_indicators")
    result_last_dim = tf.reshape(tf.reduce_max(row_index_indicators), shape=(1,), name="result_last_dim")
    sparse_row_index_indicators = dense_to_sparse_tensor(row_index_indicators, ignore_value=0)
    return tf.SparseTensor(
        indices=tf.concat((sparse_row_index_indicators.indices[:, :-1],
                           tf.reshape(sparse_row_index_indicators.values - 1, (-1, 1))), axis=1, name="indices"),
        values=tf.cast(sparse_row_index_indicators.indices[:, -1], dtype=dtype, name="values"),
        dense_shape=tf.concat((sparse_row_index_indicators.dense_shape[0:-1], result_last_dim), axis=0,
                              name="dense_shape"))


def sparse_row_envelope(sparse_input, row_axis=0, col_axis=1, name=None):
  """The length of each row of a SparseTensor (1 + its largest column index, 0 for an empty row)."""
  if not (isinstance(row_axis, numbers.Integral) and isinstance(col_axis, numbers.Integral)):
    raise ValueError("`row_axis` and `col_axis` must be integers.")
  if row_axis == col_axis:
    raise ValueError("Row and column can not be the same axis.")
  with tf.name_scope(name, "sparse_row_envelope", [sparse_input]):
    indices = sparse_input.indices
    row_indices = indices[:, row_axis]
    col_indices = indices[:, col_axis]
    num_rows = tf.cast(sparse_input.dense_shape[row_axis], tf.int32)
    row_envelope = tf.unsorted_segment_max(col_indices + 1, row_indices, num_rows, name=name)
    zeros = tf.zeros_like(row_envelope)
    return tf.where(row_envelope > zeros, row_envelope, zeros)


__getattr__ = _catalog.module_getattr(__name__, delegate="tf1clip.contrib.layers")
