"""The shape constructors TF 1.15's `tensorflow.python.framework.tensor_shape` had and TensorFlow 2.21 dropped.

`scalar()`, `vector(length)` and `matrix(rows, cols)` build a `TensorShape` (TensorFlow's own class) and, as on
TF 1.15, log their deprecation notice once. compat.paths serves them at TF 1.15's path; the rest of that module is
TensorFlow's.
"""

from tensorflow.python.framework import tensor_shape as _tensor_shape  # pylint: disable=g-direct-tensorflow-import
from tensorflow.python.util import deprecation as _deprecation  # pylint: disable=g-direct-tensorflow-import


@_deprecation.deprecated(None, "Use tf.TensorShape([]).")
def scalar():
  """A TensorShape of rank 0."""
  return _tensor_shape.TensorShape([])


@_deprecation.deprecated(None, "Use tf.TensorShape([length]).")
def vector(length):
  """A TensorShape of rank 1; `length` may be None (unknown)."""
  return _tensor_shape.TensorShape([length])


@_deprecation.deprecated(None, "Use tf.TensorShape([rows, cols]).")
def matrix(rows, cols):
  """A TensorShape of rank 2; `rows` and `cols` may be None (unknown)."""
  return _tensor_shape.TensorShape([rows, cols])
