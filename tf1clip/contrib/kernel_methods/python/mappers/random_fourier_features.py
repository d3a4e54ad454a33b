"""`RandomFourierFeatureMapper`: random Fourier features approximating the RBF kernel (Rahimi & Recht, 2007).

TF 1.15's `tensorflow/contrib/kernel_methods/python/mappers/random_fourier_features.py`, tf1clip's code: the
matrix and offsets are drawn by NumPy exactly as TF 1.15 drew them (`np.random.seed(seed)`, then `normal` and
`uniform`), so the features are TF 1.15's and, as in TF 1.15, NumPy's global generator is left reseeded.
"""

import math

import numpy as np
import tensorflow as tf

from tf1clip.contrib.kernel_methods.python.mappers.dense_kernel_mapper import DenseKernelMapper
from tf1clip.contrib.kernel_methods.python.mappers.dense_kernel_mapper import InvalidShapeError


class RandomFourierFeatureMapper(DenseKernelMapper):
  r"""Random Fourier Feature Mapping (Rahimi & Recht), approximating the RBF kernel exp(-||x-y||^2 / (2 sigma^2)).

  `map(x)` = sqrt(2 / D) * cos(x Omega + b) with Omega [input_dim, output_dim] ~ N(0, 1 / stddev^2) and
  b [output_dim] ~ U[0, 2 pi), drawn from numpy with `seed` (the same for every call).
  """

  def __init__(self, input_dim, output_dim, stddev=1.0, seed=1, name=None):
    self._input_dim, self._output_dim = input_dim, output_dim
    self._stddev, self._seed, self._name = stddev, seed, name

  @property
  def name(self):
    """The name given to the constructor, else the object's id as a string."""
    return self._name or str(id(self))

  @property
  def input_dim(self):
    """d, the number of input features."""
    return self._input_dim

  @property
  def output_dim(self):
    """D, the number of random features."""
    return self._output_dim

  def map(self, input_tensor):
    """The [batch_size, output_dim] random Fourier features of `input_tensor` [batch_size, input_dim].

    Raises:
      InvalidShapeError: if `input_tensor` is not of rank 2 or its feature dimension is not `input_dim`.
    """
    input_tensor_shape = input_tensor.get_shape()
    if len(input_tensor_shape) != 2:
      raise InvalidShapeError("The shape of the tensor should be 2. Got %d instead." % len(input_tensor_shape))
    features_dim = tf.compat.dimension_value(input_tensor_shape[1])
    if features_dim is not None and features_dim != self._input_dim:  # unknown: no check, as in TF 1.15
      raise InvalidShapeError("Invalid dimension: expected %d input features, got %d instead." %
                              (self._input_dim, features_dim))
    # TF 1.15 seeded numpy's global generator (and left it so); the draws below are its draws.
    np.random.seed(self._seed)
    omega_matrix = tf.constant(np.random.normal(scale=1.0 / self._stddev,
                                                size=[self._input_dim, self._output_dim]), dtype=tf.float32)
    bias = tf.constant(np.random.uniform(low=0.0, high=2 * np.pi, size=[self._output_dim]), dtype=tf.float32)
    x_omega_plus_bias = tf.add(tf.matmul(input_tensor, omega_matrix), bias)
    return math.sqrt(2.0 / self._output_dim) * tf.cos(x_omega_plus_bias)
