"""`tf.contrib.timeseries`' math_utils: TF 1.15's numerical helpers for time series models, its code.

Place in the data flow (DESIGN.md): tf.compat.v1 ops, tensorflow-estimator 2.15's timeseries math_utils (through
shims.tensorflow_estimator) <- **contrib.timeseries.math_utils** <- ar_model, state_management, state_space_models.

The input statistics (`InputStatisticsFromMiniBatch`, `InputStatistics`, `Moments`) and `replicate_state` are
tensorflow-estimator 2.15's objects (its trimmed copy of this module kept them unchanged); the rest, which the
library dropped, is TF 1.15's code on tf.compat.v1: log densities, covariance helpers, matrix powers, and the
hash tables that cache model state between chunks (`TupleOfTensorsLookup`, on TensorFlow's DenseHashTable, TF
1.15's MutableDenseHashTable renamed). `transform_to_covariance_matrices` uses tf-slim's fully_connected, TF 1.15's
contrib.layers function.
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


def normal_log_prob(loc, scale, x):
  """Computes the Normal log pdf."""
  z = (x - loc) / scale
  return -0.5 * (V1.square(z)
                 + np.log(2. * np.pi) + V1.log(scale))


def cauchy_log_prob(loc, scale, x):
  """Computes the Cauchy log pdf."""
  z = (x - loc) / scale
  return (-np.log(np.pi) - V1.log(scale) -
          V1.log1p(V1.square(z)))


def mvn_tril_log_prob(loc, scale_tril, x):
  """Computes the MVN log pdf under tril scale. Doesn't handle batches."""
  x0 = x - loc
  z = V1.matrix_triangular_solve(
      scale_tril, x0[..., V1.newaxis])[..., 0]
  log_det_cov = 2. * V1.reduce_sum(V1.log(
      V1.matrix_diag_part(scale_tril)), axis=-1)
  d = V1.cast(V1.shape(scale_tril)[-1], log_det_cov.dtype)
  return -0.5 * (V1.reduce_sum(V1.square(z), axis=-1)
                 + d * np.log(2. * np.pi) + log_det_cov)


def clip_covariance(
    covariance_matrix, maximum_variance_ratio, minimum_variance):
  """Enforce constraints on a covariance matrix to improve numerical stability.

  Args:
    covariance_matrix: A [..., N, N] batch of covariance matrices.
    maximum_variance_ratio: The maximum allowed ratio of two diagonal
      entries. Any entries lower than the maximum entry divided by this ratio
      will be set to that value.
    minimum_variance: A floor for diagonal entries in the returned matrix.
  Returns:
    A new covariance matrix with the requested constraints enforced. If the
    input was positive definite, the output will be too.
  """
  # TODO(allenl): Smarter scaling here so that correlations are preserved when
  # fiddling with diagonal elements.
  diagonal = V1.matrix_diag_part(covariance_matrix)
  maximum = V1.reduce_max(diagonal, axis=-1, keepdims=True)
  new_diagonal = V1.maximum(
      diagonal, maximum / maximum_variance_ratio)
  return V1.matrix_set_diag(
      covariance_matrix, V1.maximum(new_diagonal, minimum_variance))


def block_diagonal(matrices, dtype=tf.float32, name="block_diagonal"):
  r"""Constructs block-diagonal matrices from a list of batched 2D tensors.

  Args:
    matrices: A list of Tensors with shape [..., N_i, M_i] (i.e. a list of
      matrices with the same batch dimension).
    dtype: Data type to use. The Tensors in `matrices` must match this dtype.
    name: A name for the returned op.
  Returns:
    A matrix with the input matrices stacked along its main diagonal, having
    shape [..., \sum_i N_i, \sum_i M_i].
  """
  matrices = [V1.convert_to_tensor(matrix, dtype=dtype) for matrix in matrices]
  blocked_rows = V1.Dimension(0)
  blocked_cols = V1.Dimension(0)
  batch_shape = tf.TensorShape(None)
  for matrix in matrices:
    full_matrix_shape = matrix.get_shape().with_rank_at_least(2)
    batch_shape = batch_shape.merge_with(full_matrix_shape[:-2])
    blocked_rows += full_matrix_shape[-2]
    blocked_cols += full_matrix_shape[-1]
  ret_columns_list = []
  for matrix in matrices:
    matrix_shape = V1.shape(matrix)
    ret_columns_list.append(matrix_shape[-1])
  ret_columns = V1.add_n(ret_columns_list)
  row_blocks = []
  current_column = 0
  for matrix in matrices:
    matrix_shape = V1.shape(matrix)
    row_before_length = current_column
    current_column += matrix_shape[-1]
    row_after_length = ret_columns - current_column
    row_blocks.append(
        V1.pad(
            tensor=matrix,
            paddings=V1.concat(
                [
                    V1.zeros(
                        [V1.rank(matrix) - 1, 2], dtype=tf.int32), [(
                            row_before_length, row_after_length)]
                ],
                axis=0)))
  blocked = V1.concat(row_blocks, -2, name=name)
  blocked.set_shape(batch_shape.concatenate((blocked_rows, blocked_cols)))
  return blocked


def power_sums_tensor(array_size, power_matrix, multiplier):
  r"""Computes \sum_{i=0}^{N-1} A^i B (A^i)^T for N=0..(array_size + 1).

  Args:
    array_size: The number of non-trivial sums to pre-compute.
    power_matrix: The "A" matrix above.
    multiplier: The "B" matrix above
  Returns:
    A Tensor with S[N] = \sum_{i=0}^{N-1} A^i B (A^i)^T
      S[0] is the zero matrix
      S[1] is B
      S[2] is A B A^T + B
      ...and so on
  """
  array_size = V1.cast(array_size, tf.int32)
  power_matrix = V1.convert_to_tensor(power_matrix)
  identity_like_power_matrix = V1.eye(
      V1.shape(power_matrix)[0], dtype=power_matrix.dtype)
  identity_like_power_matrix.set_shape(
      V1.convert_to_tensor(power_matrix).get_shape())
  transition_powers = V1.scan(
      lambda previous_power, _: V1.matmul(previous_power, power_matrix),
      V1.range(array_size - 1),
      initializer=identity_like_power_matrix)
  summed = V1.cumsum(
      V1.concat([
          V1.expand_dims(multiplier, 0), V1.matmul(
              batch_times_matrix(transition_powers, multiplier),
              transition_powers,
              adjoint_b=True)
      ], 0))
  return V1.concat(
      [V1.expand_dims(V1.zeros_like(multiplier), 0), summed], 0)


def matrix_to_powers(matrix, powers):
  """Raise a single matrix to multiple powers."""
  matrix_tiled = V1.tile(
      V1.expand_dims(matrix, 0), [V1.size(powers), 1, 1])
  return batch_matrix_pow(matrix_tiled, powers)


def batch_matrix_pow(matrices, powers):
  """Compute powers of matrices, e.g. A^3 = matmul(matmul(A, A), A).

  Uses exponentiation by squaring, with O(log(p)) matrix multiplications to
  compute A^p.

  Args:
    matrices: [batch size x N x N]
    powers: Which integer power to raise each matrix to [batch size]
  Returns:
    The matrices raised to their respective powers, same dimensions as the
    "matrices" argument.
  """

  def terminate_when_all_zero(current_argument, residual_powers, accumulator):
    del current_argument, accumulator  # not used for condition
    do_exit = V1.reduce_any(
        V1.greater(residual_powers, V1.ones_like(residual_powers)))
    return do_exit

  def do_iteration(current_argument, residual_powers, accumulator):
    """Compute one step of iterative exponentiation by squaring.

    The recursive form is:
      power(A, p) = { power(matmul(A, A), p / 2) for even p
                    { matmul(A, power(matmul(A, A), (p - 1) / 2)) for odd p
      power(A, 0) = I

    The power(A, 0) = I case is handled by starting with accumulator set to the
    identity matrix; matrices with zero residual powers are passed through
    unchanged.

    Args:
      current_argument: On this step, what is the first argument (A^2..^2) to
          the (unrolled) recursive function? [batch size x N x N]
      residual_powers: On this step, what is the second argument (residual p)?
          [batch_size]
      accumulator: Accumulates the exterior multiplications from the odd
          powers (initially the identity matrix). [batch_size x N x N]
    Returns:
      Updated versions of each argument for one step of the unrolled
      computation. Does not change parts of the batch which have a residual
      power of zero.
    """
    is_even = V1.equal(residual_powers % 2,
                             V1.zeros(
                                 V1.shape(residual_powers),
                                 dtype=tf.int32))
    new_accumulator = V1.where(is_even, accumulator,
                                      V1.matmul(accumulator,
                                                      current_argument))
    new_argument = V1.matmul(current_argument, current_argument)
    do_update = V1.greater(residual_powers, 1)
    new_residual_powers = residual_powers - residual_powers % 2
    new_residual_powers //= 2
    # Stop updating if we've reached our base case; some batch elements may
    # finish sooner than others
    accumulator = V1.where(do_update, new_accumulator, accumulator)
    current_argument = V1.where(do_update, new_argument,
                                       current_argument)
    residual_powers = V1.where(do_update, new_residual_powers,
                                      residual_powers)
    return (current_argument, residual_powers, accumulator)

  matrices = V1.convert_to_tensor(matrices)
  powers = V1.cast(powers, dtype=tf.int32)
  ident = V1.expand_dims(
      V1.diag(
          V1.ones([V1.shape(matrices)[1]], dtype=matrices.dtype)),
      0)
  ident_tiled = V1.tile(ident, [V1.shape(matrices)[0], 1, 1])
  (final_argument,
   final_residual_power, final_accumulator) = V1.while_loop(
       terminate_when_all_zero, do_iteration, [matrices, powers, ident_tiled])
  return V1.where(
      V1.equal(final_residual_power,
                     V1.zeros_like(
                         final_residual_power, dtype=tf.int32)),
      ident_tiled, V1.matmul(final_argument, final_accumulator))


# TODO(allenl): would be useful if this was built into batch_matmul
def batch_times_matrix(batch, matrix, adj_x=False, adj_y=False):
  """Multiply a batch of matrices by a single matrix.

  Functionally equivalent to:
  tf.matmul(batch, V1.tile(V1.expand_dims(matrix, 0),
                                 [V1.shape(batch)[0], 1, 1]),
                  adjoint_a=adj_x, adjoint_b=adj_y)

  Args:
    batch: [batch_size x N x M] after optional transpose
    matrix: [M x P] after optional transpose
    adj_x: If true, transpose the second two dimensions of "batch" before
        multiplying.
    adj_y: If true, transpose "matrix" before multiplying.
  Returns:
    [batch_size x N x P]
  """
  batch = V1.convert_to_tensor(batch)
  matrix = V1.convert_to_tensor(matrix)
  assert batch.get_shape().ndims == 3
  assert matrix.get_shape().ndims == 2
  if adj_x:
    batch = V1.transpose(batch, [0, 2, 1])
  batch_dimension = batch.get_shape().dims[0].value
  first_dimension = batch.get_shape().dims[1].value
  tensor_batch_shape = V1.shape(batch)
  if batch_dimension is None:
    batch_dimension = tensor_batch_shape[0]
  if first_dimension is None:
    first_dimension = tensor_batch_shape[1]
  matrix_first_dimension, matrix_second_dimension = matrix.get_shape().as_list()
  batch_reshaped = V1.reshape(batch, [-1, tensor_batch_shape[2]])
  if adj_y:
    if matrix_first_dimension is None:
      matrix_first_dimension = V1.shape(matrix)[0]
    result_shape = [batch_dimension, first_dimension, matrix_first_dimension]
  else:
    if matrix_second_dimension is None:
      matrix_second_dimension = V1.shape(matrix)[1]
    result_shape = [batch_dimension, first_dimension, matrix_second_dimension]
  return V1.reshape(
      V1.matmul(batch_reshaped, matrix, adjoint_b=adj_y), result_shape)


def matrix_times_batch(matrix, batch, adj_x=False, adj_y=False):
  """Like batch_times_matrix, but with the multiplication order swapped."""
  return V1.transpose(
      batch_times_matrix(
          batch=batch, matrix=matrix, adj_x=not adj_y, adj_y=not adj_x),
      [0, 2, 1])


def make_toeplitz_matrix(inputs, name=None):
  """Make a symmetric Toeplitz matrix from input array of values.

  Args:
    inputs: a 3-D tensor of shape [num_blocks, block_size, block_size].
    name: the name of the operation.

  Returns:
    a symmetric Toeplitz matrix of shape
      [num_blocks*block_size, num_blocks*block_size].
  """
  num_blocks = V1.shape(inputs)[0]
  block_size = V1.shape(inputs)[1]
  output_size = block_size * num_blocks
  lags = V1.reshape(V1.range(num_blocks), shape=[1, -1])
  indices = V1.abs(lags - V1.transpose(lags))
  output = V1.gather(inputs, indices)
  output = V1.reshape(
      V1.transpose(output, [0, 2, 1, 3]), [output_size, output_size])
  return V1.identity(output, name=name)


# TODO(allenl): Investigate alternative parameterizations.
def sign_magnitude_positive_definite(
    raw, off_diagonal_scale=0., overall_scale=0.):
  """Constructs a positive definite matrix from an unconstrained input matrix.

  We want to keep the whole matrix on a log scale, but also allow off-diagonal
  elements to be negative, so the sign of off-diagonal elements is modeled
  separately from their magnitude (using the lower and upper triangles
  respectively). Specifically:

  for i < j, we have:
    output_cholesky[i, j] = raw[j, i] / (abs(raw[j, i]) + 1) *
        exp((off_diagonal_scale + overall_scale + raw[i, j]) / 2)

  output_cholesky[i, i] = exp((raw[i, i] + overall_scale) / 2)

  output = output_cholesky^T * output_cholesky

  where raw, off_diagonal_scale, and overall_scale are
  un-constrained real-valued variables. The resulting values are stable
  around zero due to the exponential (and the softsign keeps the function
  smooth).

  Args:
    raw: A [..., M, M] Tensor.
    off_diagonal_scale: A scalar or [...] shaped Tensor controlling the relative
        scale of off-diagonal values in the output matrix.
    overall_scale: A scalar or [...] shaped Tensor controlling the overall scale
        of the output matrix.
  Returns:
    The `output` matrix described above, a [..., M, M] positive definite matrix.

  """
  raw = V1.convert_to_tensor(raw)
  diagonal = V1.matrix_diag_part(raw)
  def _right_pad_with_ones(tensor, target_rank):
    # Allow broadcasting even if overall_scale and off_diagonal_scale have batch
    # dimensions
    tensor = V1.convert_to_tensor(tensor, dtype=raw.dtype.base_dtype)
    return V1.reshape(tensor,
                             V1.concat(
                                 [
                                     V1.shape(tensor), V1.ones(
                                         [target_rank - V1.rank(tensor)],
                                         dtype=target_rank.dtype)
                                 ],
                                 axis=0))
  # We divide the log values by 2 to compensate for the squaring that happens
  # when transforming Cholesky factors into positive definite matrices.
  sign_magnitude = (V1.exp(
      (raw + _right_pad_with_ones(off_diagonal_scale, V1.rank(raw)) +
       _right_pad_with_ones(overall_scale, V1.rank(raw))) / 2.) *
                    V1.nn.softsign(V1.matrix_transpose(raw)))
  sign_magnitude.set_shape(raw.get_shape())
  cholesky_factor = V1.matrix_set_diag(
      input=V1.matrix_band_part(sign_magnitude, 0, -1),
      diagonal=V1.exp((diagonal + _right_pad_with_ones(
          overall_scale, V1.rank(diagonal))) / 2.))
  return V1.matmul(cholesky_factor, cholesky_factor, transpose_a=True)


def transform_to_covariance_matrices(input_vectors, matrix_size):
  """Construct covariance matrices via transformations from input_vectors.

  Args:
    input_vectors: A [batch size x input size] batch of vectors to transform.
    matrix_size: An integer indicating one dimension of the (square) output
        matrix.
  Returns:
    A [batch size x matrix_size x matrix_size] batch of covariance matrices.
  """
  combined_values = _catalog.resolve("tf_slim:fully_connected")(
      input_vectors, matrix_size**2 + 2, activation_fn=None)
  return sign_magnitude_positive_definite(
      raw=V1.reshape(combined_values[..., :-2],
                            V1.concat([
                                V1.shape(combined_values)[:-1],
                                [matrix_size, matrix_size]
                            ], 0)),
      off_diagonal_scale=combined_values[..., -2],
      overall_scale=combined_values[..., -1])


def variable_covariance_matrix(
    size, name, dtype, initial_diagonal_values=None,
    initial_overall_scale_log=0.):
  """Construct a Variable-parameterized positive definite matrix.

  Useful for parameterizing covariance matrices.

  Args:
    size: The size of the main diagonal, the returned matrix having shape [size
        x size].
    name: The name to use when defining variables and ops.
    dtype: The floating point data type to use.
    initial_diagonal_values: A Tensor with shape [size] with initial values for
        the diagonal values of the returned matrix. Must be positive.
    initial_overall_scale_log: Initial value of the bias term for every element
        of the matrix in log space.
  Returns:
    A Variable-parameterized covariance matrix with shape [size x size].
  """
  raw_values = V1.get_variable(
      name + "_pre_transform",
      dtype=dtype,
      shape=[size, size],
      initializer=V1.zeros_initializer())
  if initial_diagonal_values is not None:
    raw_values += V1.matrix_diag(V1.log(initial_diagonal_values))
  return V1.identity(
      sign_magnitude_positive_definite(
          raw=raw_values,
          off_diagonal_scale=V1.get_variable(
              name + "_off_diagonal_scale",
              dtype=dtype,
              initializer=V1.constant(-5., dtype=dtype)),
          overall_scale=V1.convert_to_tensor(
              initial_overall_scale_log, dtype=dtype) +
          V1.get_variable(
              name + "_overall_scale",
              dtype=dtype,
              shape=[],
              initializer=V1.zeros_initializer())),
      name=name)


def batch_start_time(times):
  return times[:, 0]


def batch_end_time(times):
  return times[:, -1]


def log_noninformative_covariance_prior(covariance):
  """Compute a relatively uninformative prior for noise parameters.

  Helpful for avoiding noise over-estimation, where noise otherwise decreases
  very slowly during optimization.

  See:
    Villegas, C. On the A Priori Distribution of the Covariance Matrix.
    Ann. Math. Statist. 40 (1969), no. 3, 1098--1099.

  Args:
    covariance: A covariance matrix.
  Returns:
    For a [p x p] matrix:
      log(det(covariance)^(-(p + 1) / 2))
  """
  # Avoid zero/negative determinants due to numerical errors
  covariance += V1.diag(1e-8 * V1.ones(
      shape=[V1.shape(covariance)[0]], dtype=covariance.dtype))
  power = -(V1.cast(V1.shape(covariance)[0] + 1,
                          covariance.dtype) / 2.)
  return power * V1.log(V1.matrix_determinant(covariance))


def entropy_matched_cauchy_scale(covariance):
  """Approximates a similar Cauchy distribution given a covariance matrix.

  Since Cauchy distributions do not have moments, entropy matching provides one
  way to set a Cauchy's scale parameter in a way that provides a similar
  distribution. The effect is dividing the standard deviation of an independent
  Gaussian by a constant very near 3.

  To set the scale of the Cauchy distribution, we first select the diagonals of
  `covariance`. Since this ignores cross terms, it overestimates the entropy of
  the Gaussian. For each of these variances, we solve for the Cauchy scale
  parameter which gives the same entropy as the Gaussian with that
  variance. This means setting the (univariate) Gaussian entropy
      0.5 * ln(2 * variance * pi * e)
  equal to the Cauchy entropy
      ln(4 * pi * scale)
  Solving, we get scale = sqrt(variance * (e / (8 pi))).

  Args:
    covariance: A [batch size x N x N] batch of covariance matrices to produce
        Cauchy scales for.
  Returns:
    A [batch size x N] set of Cauchy scale parameters for each part of the batch
    and each dimension of the input Gaussians.
  """
  return V1.sqrt(math.e / (8. * math.pi) *
                       V1.matrix_diag_part(covariance))


class TensorValuedMutableDenseHashTable(tf.lookup.experimental.DenseHashTable):
  """A version of MutableDenseHashTable which stores arbitrary Tensor shapes.

  Since MutableDenseHashTable only allows vectors right now, simply adds reshape
  ops on both ends.
  """

  def __init__(self, key_dtype, value_dtype, default_value, *args, **kwargs):
    self._non_vector_value_shape = V1.shape(default_value)
    super(TensorValuedMutableDenseHashTable, self).__init__(
        key_dtype=key_dtype,
        value_dtype=value_dtype,
        default_value=V1.reshape(default_value, [-1]),
        *args,
        **kwargs)

  def insert(self, keys, values, name=None):
    keys = V1.convert_to_tensor(keys, dtype=self._key_dtype)
    keys_flat = V1.reshape(keys, [-1])
    return super(TensorValuedMutableDenseHashTable, self).insert(
        keys=keys_flat,
        # Each key has one corresponding value, so the shape of the tensor of
        # values for every key is key_shape + value_shape
        values=V1.reshape(values, [V1.shape(keys_flat)[0], -1]),
        name=name)

  def lookup(self, keys, name=None):
    keys_flat = V1.reshape(
        V1.convert_to_tensor(keys, dtype=self._key_dtype), [-1])
    return V1.reshape(
        super(TensorValuedMutableDenseHashTable, self).lookup(
            keys=keys_flat, name=name),
        V1.concat([V1.shape(keys), self._non_vector_value_shape],
                         0))


class TupleOfTensorsLookup(object):
  """A LookupInterface with nested tuples of Tensors as values.

  Creates one MutableDenseHashTable per value Tensor, which has some unnecessary
  overhead.
  """

  def __init__(self,
               key_dtype,
               default_values,
               empty_key,
               deleted_key,
               name,
               checkpoint=True):
    default_values_flat = tf.nest.flatten(default_values)
    self._hash_tables = tf.nest.pack_sequence_as(default_values, [
        TensorValuedMutableDenseHashTable(
            key_dtype=key_dtype,
            value_dtype=default_value.dtype.base_dtype,
            default_value=default_value,
            empty_key=empty_key,
            deleted_key=deleted_key,
            name=name + "_{}".format(table_number),
            checkpoint=checkpoint)
        for table_number, default_value in enumerate(default_values_flat)
    ])
    self._name = name

  def lookup(self, keys):
    return tf.nest.pack_sequence_as(
        self._hash_tables,
        [hash_table.lookup(keys)
         for hash_table in tf.nest.flatten(self._hash_tables)])

  def insert(self, keys, values):
    tf.nest.assert_same_structure(self._hash_tables, values)
    # Avoid race conditions by requiring that all inputs are computed before any
    # inserts happen (an issue if one key's update relies on another's value).
    values_flat = [V1.identity(value) for value in tf.nest.flatten(values)]
    with V1.control_dependencies(values_flat):
      insert_ops = [hash_table.insert(keys, value)
                    for hash_table, value
                    in zip(tf.nest.flatten(self._hash_tables),
                           values_flat)]
    return V1.group(*insert_ops)

  def check_table_dtypes(self, key_dtype, value_dtype):
    # dtype checking is done in the objects in self._hash_tables
    pass
