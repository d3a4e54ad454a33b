"""`tf.contrib.timeseries`' math_utils: the numerical helpers of the time series models.

Place in the data flow (DESIGN.md): tf.compat.v1 ops, tensorflow-estimator 2.15's timeseries math_utils (through
shims.tensorflow_estimator), tf-slim <- **contrib.timeseries.math_utils** <- ar_model, state_management,
state_space_models.

What it holds: log densities (normal, Cauchy, multivariate normal), covariance helpers (clipping, the
sign/magnitude positive definite parameterization, Variable- and layer-parameterized covariances, a non-informative
prior, the entropy-matched Cauchy scale), matrix helpers (block diagonals, powers by repeated squaring, sums of
A^i B (A^i)^T, batch-times-matrix products, block Toeplitz matrices) and the hash tables that keep model state
between chunks (`TupleOfTensorsLookup`). The input statistics (`InputStatisticsFromMiniBatch`, `InputStatistics`,
`Moments`) and `replicate_state` are tensorflow-estimator 2.15's (its trimmed copy of this module kept them).

What is special: the values are TF 1.15's, quirks included (tests/contrib/timeseries/test_math_utils_oracle.py):
`normal_log_prob` adds log(scale), not 2 log(scale), and is symmetric in `loc` and `x`, which its callers pass in
either order. The hash tables are TensorFlow's DenseHashTable (TF 1.15's MutableDenseHashTable renamed), with
reshapes so they hold values of any shape.
"""

import math

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# pylint: disable=g-import-not-at-top,wrong-import-position,unused-import
from tensorflow_estimator.python.estimator.canned.timeseries.feature_keys import TrainEvalFeatures
from tensorflow_estimator.python.estimator.canned.timeseries.math_utils import InputStatistics
from tensorflow_estimator.python.estimator.canned.timeseries.math_utils import InputStatisticsFromMiniBatch
from tensorflow_estimator.python.estimator.canned.timeseries.math_utils import Moments
from tensorflow_estimator.python.estimator.canned.timeseries.math_utils import replicate_state

V1 = tf.compat.v1
_LOG_2PI = np.log(2. * np.pi)

# -- log densities ---------------------------------------------------------------------------------------------


def normal_log_prob(loc, scale, x):
  """TF 1.15's normal log density: -(z^2 + log(2 pi) + log(scale)) / 2 with z = (x - loc) / scale."""
  standardized = (x - loc) / scale
  return -0.5 * (V1.square(standardized) + _LOG_2PI + V1.log(scale))


def cauchy_log_prob(loc, scale, x):
  """The Cauchy log density: -log(pi) - log(scale) - log(1 + z^2) with z = (x - loc) / scale."""
  standardized = (x - loc) / scale
  return -np.log(np.pi) - V1.log(scale) - V1.log1p(V1.square(standardized))


def mvn_tril_log_prob(loc, scale_tril, x):
  """The multivariate normal log density with covariance L L^T, L = `scale_tril` (one L for the whole batch)."""
  whitened = V1.matrix_triangular_solve(scale_tril, (x - loc)[..., V1.newaxis])[..., 0]
  log_determinant = 2. * V1.reduce_sum(V1.log(V1.matrix_diag_part(scale_tril)), axis=-1)
  dimension = V1.cast(V1.shape(scale_tril)[-1], log_determinant.dtype)
  return -0.5 * (V1.reduce_sum(V1.square(whitened), axis=-1) + dimension * _LOG_2PI + log_determinant)


# -- covariance matrices ---------------------------------------------------------------------------------------


def clip_covariance(covariance_matrix, maximum_variance_ratio, minimum_variance):
  """Raises small diagonal entries of [..., N, N] `covariance_matrix` (keeping positive definite ones so).

  Each diagonal entry becomes at least (largest entry) / `maximum_variance_ratio` and at least `minimum_variance`;
  the off-diagonal entries are left as they are.
  """
  diagonal = V1.matrix_diag_part(covariance_matrix)
  floor = V1.reduce_max(diagonal, axis=-1, keepdims=True) / maximum_variance_ratio
  return V1.matrix_set_diag(covariance_matrix, V1.maximum(V1.maximum(diagonal, floor), minimum_variance))


def sign_magnitude_positive_definite(raw, off_diagonal_scale=0., overall_scale=0.):
  """A positive definite [..., M, M] matrix C^T C from an unconstrained [..., M, M] `raw`.

  C is upper triangular: C[i, i] = exp((raw[i, i] + overall_scale) / 2) and, for i < j,
  C[i, j] = softsign(raw[j, i]) * exp((raw[i, j] + off_diagonal_scale + overall_scale) / 2): the lower triangle
  of `raw` gives the signs, the upper one the log magnitudes. The two scales are scalars or [...] batches.
  """
  raw = V1.convert_to_tensor(raw)
  rank = V1.rank(raw)

  def _broadcastable(scale, target_rank):  # [...] -> [..., 1, 1] (as many ones as target_rank needs)
    scale = V1.convert_to_tensor(scale, dtype=raw.dtype.base_dtype)
    ones = V1.ones([target_rank - V1.rank(scale)], dtype=target_rank.dtype)
    return V1.reshape(scale, V1.concat([V1.shape(scale), ones], axis=0))

  # Halved logs: C^T C squares them back.
  log_magnitudes = raw + _broadcastable(off_diagonal_scale, rank) + _broadcastable(overall_scale, rank)
  signed = V1.exp(log_magnitudes / 2.) * V1.nn.softsign(V1.matrix_transpose(raw))
  signed.set_shape(raw.get_shape())
  diagonal = V1.matrix_diag_part(raw)
  factor = V1.matrix_set_diag(
      input=V1.matrix_band_part(signed, 0, -1),
      diagonal=V1.exp((diagonal + _broadcastable(overall_scale, V1.rank(diagonal))) / 2.))
  return V1.matmul(factor, factor, transpose_a=True)


def transform_to_covariance_matrices(input_vectors, matrix_size):
  """[batch, matrix_size, matrix_size] covariances from [batch, input size] vectors, through a dense layer.

  The layer (tf-slim's fully_connected, TF 1.15's contrib.layers one) gives matrix_size**2 + 2 numbers per vector:
  the `raw` matrix, then the off-diagonal and the overall scale of `sign_magnitude_positive_definite`.
  """
  dense = _catalog.resolve("tf_slim:fully_connected")(input_vectors, matrix_size ** 2 + 2, activation_fn=None)
  matrix_shape = V1.concat([V1.shape(dense)[:-1], [matrix_size, matrix_size]], 0)
  return sign_magnitude_positive_definite(raw=V1.reshape(dense[..., :-2], matrix_shape),
                                          off_diagonal_scale=dense[..., -2], overall_scale=dense[..., -1])


def variable_covariance_matrix(size, name, dtype, initial_diagonal_values=None, initial_overall_scale_log=0.):
  """A [size, size] positive definite matrix (Tensor `name`) parameterized by three Variables.

  `<name>_pre_transform` ([size, size], zeros; log(initial_diagonal_values) is added on its diagonal),
  `<name>_off_diagonal_scale` (-5) and `<name>_overall_scale` (0, plus `initial_overall_scale_log`) are
  `sign_magnitude_positive_definite`'s arguments.
  """
  raw = V1.get_variable(name + "_pre_transform", dtype=dtype, shape=[size, size],
                        initializer=V1.zeros_initializer())
  if initial_diagonal_values is not None:
    raw += V1.matrix_diag(V1.log(initial_diagonal_values))
  off_diagonal = V1.get_variable(name + "_off_diagonal_scale", dtype=dtype,
                                 initializer=V1.constant(-5., dtype=dtype))
  overall = V1.convert_to_tensor(initial_overall_scale_log, dtype=dtype) + V1.get_variable(
      name + "_overall_scale", dtype=dtype, shape=[], initializer=V1.zeros_initializer())
  matrix = sign_magnitude_positive_definite(raw=raw, off_diagonal_scale=off_diagonal, overall_scale=overall)
  return V1.identity(matrix, name=name)


def log_noninformative_covariance_prior(covariance):
  """log(det(covariance) ** (-(p + 1) / 2)) for a [p, p] covariance (Villegas 1969), with 1e-8 added on its diagonal.

  A weak prior that keeps noise estimates from shrinking slowly during optimization.
  """
  size = V1.shape(covariance)[0]
  covariance += V1.diag(1e-8 * V1.ones(shape=[size], dtype=covariance.dtype))
  exponent = -(V1.cast(size + 1, covariance.dtype) / 2.)
  return exponent * V1.log(V1.matrix_determinant(covariance))


def entropy_matched_cauchy_scale(covariance):
  """Cauchy scales [batch, N] with the entropies of the normals of the diagonal of [batch, N, N] `covariance`.

  Equating 0.5 log(2 pi e variance) and log(4 pi scale) gives scale = sqrt(variance e / (8 pi)): about the normal's
  standard deviation / 3 (cross terms ignored).
  """
  return V1.sqrt(math.e / (8. * math.pi) * V1.matrix_diag_part(covariance))


# -- matrices --------------------------------------------------------------------------------------------------


def block_diagonal(matrices, dtype=tf.float32, name="block_diagonal"):
  r"""The [..., \sum N_i, \sum M_i] block-diagonal matrices of a list of [..., N_i, M_i] batches (same batch)."""
  matrices = [V1.convert_to_tensor(matrix, dtype=dtype) for matrix in matrices]
  static_rows, static_columns, batch_shape = V1.Dimension(0), V1.Dimension(0), tf.TensorShape(None)
  for matrix in matrices:
    shape = matrix.get_shape().with_rank_at_least(2)
    batch_shape = batch_shape.merge_with(shape[:-2])
    static_rows += shape[-2]
    static_columns += shape[-1]
  widths = [V1.shape(matrix)[-1] for matrix in matrices]
  total_width = V1.add_n(widths)
  rows, left = [], 0
  for matrix, width in zip(matrices, widths):
    # Zeros to the left and to the right of the block, nothing on the other axes.
    around = [(left, total_width - left - width)]
    rows.append(V1.pad(tensor=matrix, paddings=V1.concat(
        [V1.zeros([V1.rank(matrix) - 1, 2], dtype=tf.int32), around], axis=0)))
    left += width
  result = V1.concat(rows, -2, name=name)
  result.set_shape(batch_shape.concatenate((static_rows, static_columns)))
  return result


def power_sums_tensor(array_size, power_matrix, multiplier):
  r"""S[n] = \sum_{i<n} A^i B (A^i)^T for n = 0 .. array_size, stacked: S[0] = 0, S[1] = B, S[2] = A B A^T + B.

  A is `power_matrix`, B `multiplier` (both [N, N]); the result is [array_size + 1, N, N].
  """
  array_size = V1.cast(array_size, tf.int32)
  power_matrix = V1.convert_to_tensor(power_matrix)
  identity = V1.eye(V1.shape(power_matrix)[0], dtype=power_matrix.dtype)
  identity.set_shape(power_matrix.get_shape())
  powers = V1.scan(lambda previous, _: V1.matmul(previous, power_matrix), V1.range(array_size - 1),
                   initializer=identity)  # A^1 .. A^(array_size - 1)
  terms = V1.matmul(batch_times_matrix(powers, multiplier), powers, adjoint_b=True)
  partial_sums = V1.cumsum(V1.concat([V1.expand_dims(multiplier, 0), terms], 0))
  return V1.concat([V1.expand_dims(V1.zeros_like(multiplier), 0), partial_sums], 0)


def matrix_to_powers(matrix, powers):
  """[len(powers), N, N]: the [N, N] `matrix` raised to each of the integers `powers`."""
  tiled = V1.tile(V1.expand_dims(matrix, 0), [V1.size(powers), 1, 1])
  return batch_matrix_pow(tiled, powers)


def batch_matrix_pow(matrices, powers):
  """[batch, N, N] `matrices`, each raised to its integer power of [batch] `powers` (power 0: the identity).

  Exponentiation by squaring in a while loop: O(log p) products; each matrix stops changing when its remaining
  power reaches 1.
  """
  matrices = V1.convert_to_tensor(matrices)
  powers = V1.cast(powers, dtype=tf.int32)
  identity = V1.expand_dims(V1.diag(V1.ones([V1.shape(matrices)[1]], dtype=matrices.dtype)), 0)
  identities = V1.tile(identity, [V1.shape(matrices)[0], 1, 1])

  def _unfinished(base, remaining, odd_factors):
    del base, odd_factors
    return V1.reduce_any(V1.greater(remaining, V1.ones_like(remaining)))

  def _square(base, remaining, odd_factors):
    # A^p = (A^2)^(p/2) for even p, A (A^2)^((p-1)/2) for odd p: odd_factors collects the lone A's.
    odd = V1.logical_not(V1.equal(remaining % 2, V1.zeros(V1.shape(remaining), dtype=tf.int32)))
    active = V1.greater(remaining, 1)
    collected = V1.where(odd, V1.matmul(odd_factors, base), odd_factors)
    halved = (remaining - remaining % 2) // 2
    return (V1.where(active, V1.matmul(base, base), base), V1.where(active, halved, remaining),
            V1.where(active, collected, odd_factors))

  base, remaining, odd_factors = V1.while_loop(_unfinished, _square, [matrices, powers, identities])
  return V1.where(V1.equal(remaining, V1.zeros_like(remaining, dtype=tf.int32)), identities,
                  V1.matmul(base, odd_factors))


def batch_times_matrix(batch, matrix, adj_x=False, adj_y=False):
  """[batch, N, P]: each [N, M] matrix of `batch` times the one [M, P] `matrix` (transposed first: adj_x, adj_y).

  One reshaped matmul instead of a batched one against a tiled `matrix`.
  """
  batch = V1.convert_to_tensor(batch)
  matrix = V1.convert_to_tensor(matrix)
  assert batch.get_shape().ndims == 3, "batch_times_matrix: `batch` must have rank 3, got %s" % batch.get_shape()
  assert matrix.get_shape().ndims == 2, "batch_times_matrix: `matrix` must have rank 2, got %s" % matrix.get_shape()
  if adj_x:
    batch = V1.transpose(batch, [0, 2, 1])
  dynamic = V1.shape(batch)
  static = batch.get_shape().dims
  batch_size = dynamic[0] if static[0].value is None else static[0].value
  rows = dynamic[1] if static[1].value is None else static[1].value
  out_axis = 0 if adj_y else 1
  columns = matrix.get_shape().as_list()[out_axis]
  if columns is None:
    columns = V1.shape(matrix)[out_axis]
  product = V1.matmul(V1.reshape(batch, [-1, dynamic[2]]), matrix, adjoint_b=adj_y)
  return V1.reshape(product, [batch_size, rows, columns])


def matrix_times_batch(matrix, batch, adj_x=False, adj_y=False):
  """[batch, N, P]: the one `matrix` times each matrix of `batch` (`batch_times_matrix` the other way round)."""
  transposed = batch_times_matrix(batch=batch, matrix=matrix, adj_x=not adj_y, adj_y=not adj_x)
  return V1.transpose(transposed, [0, 2, 1])


def make_toeplitz_matrix(inputs, name=None):
  """The symmetric block Toeplitz matrix [K*B, K*B] of blocks [K, B, B]: block (i, j) is inputs[|i - j|]."""
  blocks, block_size = V1.shape(inputs)[0], V1.shape(inputs)[1]
  size = blocks * block_size
  lags = V1.reshape(V1.range(blocks), shape=[1, -1])
  tiled = V1.gather(inputs, V1.abs(lags - V1.transpose(lags)))  # [K, K, B, B]
  return V1.identity(V1.reshape(V1.transpose(tiled, [0, 2, 1, 3]), [size, size]), name=name)


def batch_start_time(times):
  """The first time of each series in a [batch, window] `times`."""
  return times[:, 0]


def batch_end_time(times):
  """The last time of each series in a [batch, window] `times`."""
  return times[:, -1]


# -- state caches ----------------------------------------------------------------------------------------------


class TensorValuedMutableDenseHashTable(tf.lookup.experimental.DenseHashTable):
  """A DenseHashTable whose values have the shape of `default_value`, of any rank (stored flattened)."""

  def __init__(self, key_dtype, value_dtype, default_value, *args, **kwargs):
    self._non_vector_value_shape = V1.shape(default_value)
    super(TensorValuedMutableDenseHashTable, self).__init__(
        *args, key_dtype=key_dtype, value_dtype=value_dtype, default_value=V1.reshape(default_value, [-1]),
        **kwargs)

  def insert(self, keys, values, name=None):
    """Stores values [keys' shape + value shape] under the keys."""
    flat_keys = V1.reshape(V1.convert_to_tensor(keys, dtype=self._key_dtype), [-1])
    one_row_per_key = V1.reshape(values, [V1.shape(flat_keys)[0], -1])
    return super(TensorValuedMutableDenseHashTable, self).insert(keys=flat_keys, values=one_row_per_key,
                                                                 name=name)

  def lookup(self, keys, name=None):
    """The values [keys' shape + value shape] of the keys (the default value where there is none)."""
    keys = V1.convert_to_tensor(keys, dtype=self._key_dtype)
    rows = super(TensorValuedMutableDenseHashTable, self).lookup(keys=V1.reshape(keys, [-1]), name=name)
    return V1.reshape(rows, V1.concat([V1.shape(keys), self._non_vector_value_shape], 0))


class TupleOfTensorsLookup(object):
  """A hash table whose values are a nested structure of Tensors: one table per Tensor, `<name>_<i>`.

  `default_values` gives the structure, the dtypes, the shapes and the value of a missing key; `checkpoint`
  decides whether the tables are saved in checkpoints.
  """

  def __init__(self, key_dtype, default_values, empty_key, deleted_key, name, checkpoint=True):
    tables = [TensorValuedMutableDenseHashTable(
        key_dtype=key_dtype, value_dtype=default.dtype.base_dtype, default_value=default, empty_key=empty_key,
        deleted_key=deleted_key, name="%s_%d" % (name, index), checkpoint=checkpoint)
              for index, default in enumerate(tf.nest.flatten(default_values))]
    self._hash_tables = tf.nest.pack_sequence_as(default_values, tables)
    self._name = name

  def lookup(self, keys):
    return tf.nest.map_structure(lambda table: table.lookup(keys), self._hash_tables)

  def insert(self, keys, values):
    """One op inserting every value; all of them are computed before any table changes (they may read them)."""
    tf.nest.assert_same_structure(self._hash_tables, values)
    ready = [V1.identity(value) for value in tf.nest.flatten(values)]
    with V1.control_dependencies(ready):
      inserts = [table.insert(keys, value) for table, value in zip(tf.nest.flatten(self._hash_tables), ready)]
    return V1.group(*inserts)

  def check_table_dtypes(self, key_dtype, value_dtype):
    """Nothing to check here: each table checks its own."""
