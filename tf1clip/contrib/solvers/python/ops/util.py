"""`tf.contrib.solvers.util`: the solvers' linear-operator namedtuples and vector norms, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/solvers/python/ops/util.py`.

`create_operator(matrix)` / `identity_operator(matrix)` give a `LinearOperator(shape, dtype, apply, apply_adjoint)`
namedtuple (shape a list when static, else a shape tensor); `apply` / `apply_adjoint` act on column vectors.
`dot(x, y)` is sum(conj(x) * y); `l2norm_squared(v)` is 2 * l2_loss(v), `l2norm` its square root and
`l2normalize(v)` returns `(v / norm, norm)`.
"""

import collections

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

LinearOperator = collections.namedtuple("LinearOperator", ["shape", "dtype", "apply", "apply_adjoint"])

def _operator_shape(matrix):
  shape = matrix.get_shape()
  if shape.is_fully_defined():
    return shape.as_list()
  return tf.shape(matrix)

def create_operator(matrix):
  """Creates a linear operator from a rank-2 tensor."""
  return LinearOperator(
      shape=_operator_shape(matrix),
      dtype=matrix.dtype,
      apply=lambda v: tf.linalg.matmul(matrix, v, adjoint_a=False),
      apply_adjoint=lambda v: tf.linalg.matmul(matrix, v, adjoint_a=True))

def identity_operator(matrix):
  """Creates a linear operator from a rank-2 identity tensor."""
  return LinearOperator(shape=_operator_shape(matrix), dtype=matrix.dtype, apply=lambda v: v,
                        apply_adjoint=lambda v: v)

def dot(x, y):
  """The inner product sum(conj(x) * y)."""
  return tf.math.reduce_sum(tf.math.conj(x) * y)

def l2norm_squared(v):
  """The squared Euclidean norm of v, as 2 * l2_loss(v)."""
  return tf.constant(2, dtype=v.dtype.base_dtype) * tf.nn.l2_loss(v)

def l2norm(v):
  """The Euclidean norm of v."""
  return tf.math.sqrt(l2norm_squared(v))

def l2normalize(v):
  """`(v / ||v||, ||v||)`."""
  norm = l2norm(v)
  return v / norm, norm

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.solvers.util")
