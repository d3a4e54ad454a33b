"""`tf.contrib.tensor_forest.data_ops`: TF 1.15's input parsing for tensor_forest (a dict or tensor to one matrix).

Place in the data flow (DESIGN.md): tf.compat.v1, contrib.tensor_forest.tensor_forest_ops <-
**contrib.tensor_forest.data_ops** <- contrib.tensor_forest.tensor_forest <- random_forest.

TF 1.15's python/ops/data_ops.py on tf.compat.v1: `ParseDataTensorOrDict` concatenates a dict's dense columns (in
sorted key order; strings hashed to floats, integers cast) into one float matrix and describes them in a
`TensorForestDataSpec`, whose `SerializeToString` is the text the kernels parse; `ParseLabelTensorOrDict` makes the
labels float.
"""

import tensorflow as tf

from tf1clip.contrib.tensor_forest import tensor_forest_ops

V1 = tf.compat.v1

DATA_FLOAT = 0
DATA_CATEGORICAL = 1

DTYPE_TO_FTYPE = {
    tf.string: DATA_CATEGORICAL,
    tf.int32: DATA_CATEGORICAL,
    tf.int64: DATA_CATEGORICAL,
    tf.float32: DATA_FLOAT,
    tf.float64: DATA_FLOAT
}


def CastToFloat(tensor):  # pylint: disable=invalid-name
  if tensor.dtype == tf.string:
    return tensor_forest_ops.reinterpret_string_to_float(tensor)
  elif tensor.dtype.is_integer:
    return tf.cast(tensor, tf.float32)
  else:
    return tensor


class TensorForestDataSpec(object):

  def __init__(self):
    self.sparse = DataColumnCollection()
    self.dense = DataColumnCollection()
    self.dense_features_size = 0

  def SerializeToString(self):  # pylint: disable=invalid-name
    return 'dense_features_size: %d dense: [%s] sparse: [%s]' % (
        self.dense_features_size, self.dense.SerializeToString(),
        self.sparse.SerializeToString())


class DataColumnCollection(object):
  """Collection of DataColumns, meant to mimic a proto repeated field."""

  def __init__(self):
    self.cols = []

  def add(self):  # pylint: disable=invalid-name
    self.cols.append(DataColumn())
    return self.cols[-1]

  def size(self):  # pylint: disable=invalid-name
    return len(self.cols)

  def SerializeToString(self):  # pylint: disable=invalid-name
    ret = ''
    for c in self.cols:
      ret += '{%s}' % c.SerializeToString()
    return ret


class DataColumn(object):

  def __init__(self):
    self.name = ''
    self.original_type = ''
    self.size = 0

  def SerializeToString(self):  # pylint: disable=invalid-name
    return 'name: {0} original_type: {1} size: {2}'.format(self.name,
                                                           self.original_type,
                                                           self.size)


def GetColumnName(column_key, col_num):  # pylint: disable=invalid-name
  if isinstance(column_key, str):
    return column_key
  else:
    return getattr(column_key, 'column_name', str(col_num))


def ParseDataTensorOrDict(data):  # pylint: disable=invalid-name
  """Return a tensor to use for input data.

  The incoming features can be a dict where keys are the string names of the
  columns, which we turn into a single 2-D tensor.

  Args:
    data: `Tensor` or `dict` of `Tensor` objects.

  Returns:
    A 2-D tensor for input to tensor_forest, a keys tensor for the
    tf.Examples if they exist, and a list of the type of each column
    (e.g. continuous float, categorical).
  """
  data_spec = TensorForestDataSpec()
  if isinstance(data, dict):
    dense_features_size = 0
    dense_features = []
    sparse_features = []
    for k in sorted(data.keys()):
      is_sparse = isinstance(data[k], tf.SparseTensor)
      if is_sparse:
        # TODO(gilberth): support sparse continuous.
        if data[k].dtype == tf.float32:
          V1.logging.info('TensorForest does not support sparse continuous.')
          continue
        elif data_spec.sparse.size() == 0:
          col_spec = data_spec.sparse.add()
          col_spec.original_type = DATA_CATEGORICAL
          col_spec.name = 'all_sparse'
          col_spec.size = -1
        sparse_features.append(
            tf.SparseTensor(data[
                k].indices, CastToFloat(data[k].values), data[k].dense_shape))
      else:
        col_spec = data_spec.dense.add()

        col_spec.original_type = DTYPE_TO_FTYPE[data[k].dtype]
        col_spec.name = GetColumnName(k, len(dense_features))
        # the second dimension of get_shape should always be known.
        shape = data[k].get_shape()
        if len(shape) == 1:
          col_spec.size = 1
        else:
          col_spec.size = tf.compat.dimension_value(shape[1])

        dense_features_size += col_spec.size
        dense_features.append(CastToFloat(data[k]))

    processed_dense_features = None
    processed_sparse_features = None
    if dense_features:
      processed_dense_features = tf.concat(dense_features, 1)
      data_spec.dense_features_size = dense_features_size
    if sparse_features:
      processed_sparse_features = V1.sparse_concat(1, sparse_features)
    V1.logging.info(data_spec.SerializeToString())
    return processed_dense_features, processed_sparse_features, data_spec
  elif isinstance(data, tf.SparseTensor):
    col_spec = data_spec.sparse.add()
    col_spec.name = 'sparse_features'
    col_spec.original_type = DTYPE_TO_FTYPE[data.dtype]
    col_spec.size = -1
    data_spec.dense_features_size = 0
    return None, data, data_spec
  else:
    data = tf.convert_to_tensor(data)
    col_spec = data_spec.dense.add()
    col_spec.name = 'dense_features'
    col_spec.original_type = DTYPE_TO_FTYPE[data.dtype]
    col_spec.size = data.get_shape()[1]
    data_spec.dense_features_size = col_spec.size
    return data, None, data_spec


def ParseLabelTensorOrDict(labels):  # pylint: disable=invalid-name
  """Return a tensor to use for input labels to tensor_forest.

  The incoming targets can be a dict where keys are the string names of the
  columns, which we turn into a single 1-D tensor for classification or
  2-D tensor for regression.

  Converts sparse tensors to dense ones.

  Args:
    labels: `Tensor` or `dict` of `Tensor` objects.

  Returns:
    A 2-D tensor for labels/outputs.
  """
  if isinstance(labels, dict):
    return tf.cast(
        tf.concat(
            [
                V1.sparse_tensor_to_dense(
                    labels[k], default_value=-1) if isinstance(
                        labels, tf.SparseTensor) else labels[k]
                for k in sorted(labels.keys())
            ],
            1),
        tf.float32)
  else:
    if isinstance(labels, tf.SparseTensor):
      return tf.cast(
          V1.sparse_tensor_to_dense(labels, default_value=-1),
          tf.float32)
    else:
      return tf.cast(labels, tf.float32)
