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

# The two kinds of column the kernels tell apart (data_spec.h): a float column is split by a threshold, a
# categorical one (integer ids, hashed strings) by matching one value.
DATA_FLOAT = 0
DATA_CATEGORICAL = 1

DTYPE_TO_FTYPE = {dtype: DATA_FLOAT for dtype in (tf.float32, tf.float64)}
DTYPE_TO_FTYPE.update({dtype: DATA_CATEGORICAL for dtype in (tf.string, tf.int32, tf.int64)})


def _kind(dtype, what):
  """The DATA_* kind of a column of `dtype`; a KeyError (as TF 1.15's table lookup) naming `what` otherwise."""
  if dtype not in DTYPE_TO_FTYPE:
    raise KeyError("tensor_forest's input %s is %s; it takes float32, float64, int32, int64 or string columns"
                   % (what, dtype.name))
  return DTYPE_TO_FTYPE[dtype]


def CastToFloat(tensor):  # pylint: disable=invalid-name
  """`tensor` as the float32 values the kernels read: strings hashed to floats, integers cast, floats as they are."""
  if tensor.dtype == tf.string:
    return tensor_forest_ops.reinterpret_string_to_float(tensor)
  return tf.cast(tensor, tf.float32) if tensor.dtype.is_integer else tensor


class DataColumn(object):
  """One column of the input matrix as the spec lists it: `name`, `original_type` (a DATA_* kind), `size` (-1:
  every sparse column at once)."""

  def __init__(self):
    self.name = ""
    self.original_type = ""
    self.size = 0

  def SerializeToString(self):  # pylint: disable=invalid-name
    return "name: %s original_type: %s size: %s" % (self.name, self.original_type, self.size)


class DataColumnCollection(object):
  """The dense or the sparse columns, in order; `add()` and `size()` as a repeated proto field has them."""

  def __init__(self):
    self.cols = []

  def add(self):  # pylint: disable=invalid-name
    column = DataColumn()
    self.cols.append(column)
    return column

  def size(self):  # pylint: disable=invalid-name
    return len(self.cols)

  def SerializeToString(self):  # pylint: disable=invalid-name
    return "".join("{%s}" % column.SerializeToString() for column in self.cols)


class TensorForestDataSpec(object):
  """What the kernels learn of their input: the dense columns (and their total width) and the sparse ones.

  TF 1.15 wrote it as text rather than as a proto (its custom-op libraries could not link protos); the kernels
  module parses the same text.
  """

  def __init__(self):
    self.dense = DataColumnCollection()
    self.sparse = DataColumnCollection()
    self.dense_features_size = 0

  def SerializeToString(self):  # pylint: disable=invalid-name
    dense, sparse = self.dense.SerializeToString(), self.sparse.SerializeToString()
    return "dense_features_size: %d dense: [%s] sparse: [%s]" % (self.dense_features_size, dense, sparse)


def GetColumnName(column_key, col_num):  # pylint: disable=invalid-name
  """A feature dict key's column name: a string key itself, else the key's `column_name`, else str(col_num)."""
  if isinstance(column_key, str):
    return column_key
  return getattr(column_key, "column_name", str(col_num))


def _dense_width(key, column):
  """How many matrix columns a dense feature fills: 1 for a vector, else its second dimension, which must be known."""
  shape = column.get_shape()
  if len(shape) == 1:
    return 1
  width = tf.compat.dimension_value(shape[1])
  if width is None:
    raise TypeError("ParseDataTensorOrDict: feature %r has an unknown second dimension (shape %s); tensor_forest "
                    "needs every dense column's width when it builds the graph" % (key, shape))
  return width


def _parse_dict(features, spec):
  """A dict's dense features (sorted by key) as one matrix, its non-float sparse ones as one SparseTensor."""
  dense, sparse = [], []
  for key in sorted(features):
    feature = features[key]
    if not isinstance(feature, tf.SparseTensor):
      column = spec.dense.add()
      column.original_type = _kind(feature.dtype, "feature %r" % (key,))
      column.name = GetColumnName(key, len(dense))
      column.size = _dense_width(key, feature)
      spec.dense_features_size += column.size
      dense.append(CastToFloat(feature))
    elif feature.dtype == tf.float32:  # TF 1.15 had no sparse continuous features and dropped them
      V1.logging.info("TensorForest does not support sparse continuous.")
    else:
      if not spec.sparse.size():  # every sparse feature is one categorical block of columns
        column = spec.sparse.add()
        column.name, column.original_type, column.size = "all_sparse", DATA_CATEGORICAL, -1
      sparse.append(tf.SparseTensor(feature.indices, CastToFloat(feature.values), feature.dense_shape))
  matrix = tf.concat(dense, 1) if dense else None
  sparse_matrix = V1.sparse_concat(1, sparse) if sparse else None
  V1.logging.info(spec.SerializeToString())
  return matrix, sparse_matrix, spec


def ParseDataTensorOrDict(data):  # pylint: disable=invalid-name
  """The input matrices tensor_forest's graphs read, and their description.

  Args:
    data: a 2-D `Tensor` (or what converts to one), a `SparseTensor`, or a dict of them keyed by feature name.

  Returns:
    `(dense, sparse, spec)`: the dense features as one float 2-D tensor (or None), the sparse ones as one
    `SparseTensor` (or None), and the `TensorForestDataSpec` naming their columns and kinds.
  """
  spec = TensorForestDataSpec()
  if isinstance(data, dict):
    return _parse_dict(data, spec)
  if isinstance(data, tf.SparseTensor):
    column = spec.sparse.add()
    column.name, column.original_type, column.size = "sparse_features", _kind(data.dtype, "SparseTensor"), -1
    return None, data, spec
  data = tf.convert_to_tensor(data)
  column = spec.dense.add()
  column.name, column.original_type = "dense_features", _kind(data.dtype, "tensor")
  column.size = spec.dense_features_size = data.get_shape()[1]
  return data, None, spec


def ParseLabelTensorOrDict(labels):  # pylint: disable=invalid-name
  """The labels as a float tensor: a dict's columns concatenated in sorted key order, a SparseTensor densified.

  Args:
    labels: a `Tensor`, `SparseTensor` or dict of `Tensor`s.

  Returns:
    A float32 tensor (a dict's values side by side along axis 1; a sparse tensor's missing entries -1).

  Raises:
    TypeError: a dict holds a SparseTensor.
  """
  if isinstance(labels, dict):
    # TF 1.15 asked whether the dict (never true), not each value, was sparse: it concatenated the values as they
    # were, and a sparse one failed to convert (TensorFlow 2.21's concat would take it)
    columns = [labels[key] for key in sorted(labels)]
    sparse = [key for key in sorted(labels) if isinstance(labels[key], tf.SparseTensor)]
    if sparse:
      raise TypeError("ParseLabelTensorOrDict: labels[%r] is a SparseTensor; a dict of labels takes dense tensors "
                      "only (as TF 1.15's)" % (sparse[0],))
    return tf.cast(tf.concat(columns, 1), tf.float32)
  if isinstance(labels, tf.SparseTensor):
    labels = V1.sparse_tensor_to_dense(labels, default_value=-1)
  return tf.cast(labels, tf.float32)
