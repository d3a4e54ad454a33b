"""Seasonal components of the structural ensembles: a cycle through a period's values, at any resolution.

Place in the data flow (DESIGN.md): contrib.timeseries.state_space_models.state_space_model <-
**contrib.timeseries.state_space_models.periodic** <- structural_ensemble (StructuralEnsembleRegressor's model).

`CycleStateSpaceModel` keeps the p seasonal values of a period in p - 1 state values (the p-th is minus their sum,
so a whole cycle has zero mean): each step rotates them, the value in front is observed, and noise enters only the
one rotated in. `ResolutionCycleModel` runs a cycle of `num_latent_values` (odd) values over any period, even a
fractional one or a Tensor, by raising that rotation to the real power num_latent_values / periodicity through its
eigendecomposition (its eigenvalues are conjugate pairs of roots of unity, hence the real result and the odd count;
derivation in TF's g3doc/periodic_multires_derivation.md).

What is special: no matrix power is ever multiplied out. The rotation's k-th power and the noise it accumulates over
k steps have closed forms (exact integer patterns for the plain cycle; sine/cosecant formulas for real powers, with
the integer cases, where the formulas are 0 * inf, handed back to the exact ones). With an integer period at least
as long as the cycle, whole periods of accumulated noise are folded into one multiple of a full cycle's.
"""

import numpy as np
import tensorflow as tf

from tf1clip.contrib.timeseries.state_space_models import state_space_model

tf1 = tf.compat.v1


def _index_vector(size, batch_rank, dtype=tf.int32):
  """range(size) shaped [1] * batch_rank + [size], to broadcast against a batch of rank `batch_rank`."""
  shape = tf1.concat([tf1.ones([batch_rank], dtype=tf.int32), [size]], axis=0)
  return tf1.reshape(tf1.range(size, dtype=dtype), shape)


class CycleStateSpaceModel(state_space_model.StateSpaceModel):
  """A cycle through `periodicity` values kept in periodicity - 1 state values (see the module docstring)."""

  def __init__(self, periodicity, configuration=state_space_model.StateSpaceModelConfiguration()):
    self._periodicity = periodicity
    super(CycleStateSpaceModel, self).__init__(configuration=configuration)

  def get_state_transition(self):
    return self.transition_to_powers(tf1.ones([], dtype=tf.int32))

  def get_noise_transform(self):
    # Noise enters the first state value only; transition_power_noise_accumulator's closed form relies on it.
    return tf1.pad(tf1.ones([1], dtype=self.dtype), paddings=[(0, self._periodicity - 2)])[..., None]

  def transition_to_powers(self, powers):
    """The rotation to the integer `powers` [...]: [..., p - 1, p - 1] with, for k = power mod p,
    entry (i, j) = 1 where (i - j) mod p = k, minus 1 across row i where i + 1 = k."""
    period = self._periodicity
    powers %= period
    index = _index_vector(period - 1, tf1.rank(powers), dtype=powers.dtype)
    shifted = tf1.equal((index[..., None] - index[..., None, :]) % period, powers[..., None, None])
    wrapped_row = tf1.equal(index + 1, powers[..., None])
    return tf1.cast(shifted, self.dtype) - tf1.cast(wrapped_row, self.dtype)[..., None]

  def transition_power_noise_accumulator(self, num_steps, noise_addition_coefficient=1):
    r"""The noise k = `num_steps` [...] steps accumulate, \sum_{i<k} A^i Q (A^i)^T, for Q with one non-zero entry
    q (top left), times `noise_addition_coefficient` (ResolutionCycleModel's multiples of whole periods).

    Seasonal value v receives q once every p steps: c_v = q * (number of such steps among the k). The sum is
    tridiagonal: c_i + c_{i-1 mod p} on the diagonal and -c_i at (i, i + 1) and (i + 1, i).
    """
    period = self._periodicity
    q = tf1.squeeze(self.state_transition_noise_covariance, axis=[-1, -2])
    values = _index_vector(period, tf1.rank(num_steps), dtype=num_steps.dtype)
    steps = num_steps[..., None]
    # How many of the k steps land on each seasonal value (counted back from the last step).
    hits = (steps + (values - (steps - 1)) % period) // period
    received = (tf1.convert_to_tensor(noise_addition_coefficient, self.dtype)[..., None] * q
                * tf1.cast(hits, dtype=self.dtype))
    size = period - 1
    diagonal = received[..., :-1] + tf1.concat([received[..., -1:], received[..., :-2]], axis=-1)
    beside = -received[..., :-2]
    return (tf.linalg.diag(diagonal) + tf.linalg.diag(beside, k=-1, num_rows=size, num_cols=size)
            + tf.linalg.diag(beside, k=1, num_rows=size, num_cols=size))

  def get_observation_model(self, times):
    """The first state value is observed (the same at every time; the base class broadcasts it)."""
    del times
    return tf1.concat(values=[tf1.ones([1], dtype=self.dtype), tf1.zeros([self._periodicity - 2],
                                                                        dtype=self.dtype)], axis=0)


class ResolutionCycleModel(CycleStateSpaceModel):
  """A cycle of `num_latent_values` values over `periodicity` steps, interpolating smoothly (module docstring).

  With m = num_latent_values, the transition is CycleStateSpaceModel(m)'s rotation to the power m / periodicity:
  E diag(e^(m / periodicity)) E^-1 for eigenvectors E_{ij} = w(j // 2 + 1, i s_j) - w(j // 2 + 1, (i + 1) s_j)
  and eigenvalues e_j = w(j // 2 + 1, -s_j), s_j = (-1)^(j + 1), w(r, t) = exp(2 pi sqrt(-1) r t / m).
  """

  def __init__(self, num_latent_values, periodicity, near_integer_threshold=1e-8,
               configuration=state_space_model.StateSpaceModelConfiguration()):
    """Builds the cycle.

    Args:
      num_latent_values: m, odd; the state has m - 1 values (more is finer seasonality, and more memory).
      periodicity: the steps a whole cycle takes; a number or a Tensor, not necessarily an integer (an integer of at
        least m is faster).
      near_integer_threshold: how close to an integer a power counts as one (where the real-power formulas are
        singular).
      configuration: a StateSpaceModelConfiguration.
    Raises:
      ValueError: `num_latent_values` is even.
    """
    if num_latent_values % 2 != 1:
      raise ValueError("Only odd numbers of latent values are supported.")
    self._num_latent_values = num_latent_values
    self._true_periodicity = periodicity
    self._near_integer_threshold = near_integer_threshold
    super(ResolutionCycleModel, self).__init__(periodicity=num_latent_values, configuration=configuration)

  def _close_to_integer(self, value):
    value = tf1.cast(value, self.dtype)
    return tf1.less(tf1.abs(value - tf1.round(value)), self._near_integer_threshold)

  def _latent(self):
    """m as a float Tensor."""
    return tf1.cast(self._num_latent_values, self.dtype)

  def _latent_steps(self, steps):
    """`steps` of the series in steps of the m-cycle: steps * m / periodicity."""
    per_step = self._latent() / tf1.cast(self._true_periodicity, dtype=self.dtype)
    return tf1.cast(steps, self.dtype) * per_step

  def _cosecant(self, latent_steps):
    return 1. / tf1.sin(np.pi / self._latent() * latent_steps)

  def transition_to_powers(self, powers):
    """The transition to the (real) `powers` [...]: [..., m - 1, m - 1].

    For x = power * m / periodicity and n = m - 1: entry (i, j) = (-1)^i sin(pi x) / m * ((-1)^j / sin(pi (x - i +
    j) / m) + 1 / sin(pi (x - i - 1) / m)). At integer x that is 0 * inf; there the exact integer power is used.
    """
    size = self._num_latent_values - 1
    x = self._latent_steps(powers)
    scale = (tf1.sin(x * np.pi) / self._latent())[..., None, None]
    index = _index_vector(size, tf1.rank(x))
    position = tf1.cast(index, self.dtype)
    sign = tf1.cast(1 - 2 * (index % 2), self.dtype)
    row_term = self._cosecant(x[..., None] - position - 1)
    offsets = position[..., None, :] - position[..., None]  # j - i
    entry_term = sign[..., None, :] * self._cosecant(x[..., None, None] + offsets)
    real_power = scale * sign[..., None] * (row_term[..., None] + entry_term)
    exact = super(ResolutionCycleModel, self).transition_to_powers(tf1.cast(tf1.round(x), tf.int64))
    return tf1.where(self._close_to_integer(x), exact, real_power)

  def transition_power_noise_accumulator(self, num_steps):
    """sum_{i<k} A^i Q (A^i)^T for k = `num_steps` (integers [...]): [..., m - 1, m - 1].

    When whole periods stay aligned with the steps (an integer period of at least m), each whole period adds what
    m steps of the plain cycle add with noise scaled by periodicity / m, and only the rest is summed; otherwise
    every step is summed (by _power_sum_array's closed form, still no loop).
    """
    def fold_whole_periods():
      per_period = super(ResolutionCycleModel, self).transition_power_noise_accumulator(
          noise_addition_coefficient=(tf1.cast(self._true_periodicity, self.dtype) / self._latent()),
          num_steps=tf1.convert_to_tensor(self._num_latent_values, dtype=num_steps.dtype))
      period = tf1.cast(self._true_periodicity, num_steps.dtype)
      whole_periods = tf1.cast(num_steps // period, self.dtype)
      return num_steps % period, whole_periods[..., None, None] * per_period

    def fold_nothing():
      size = self._num_latent_values - 1
      return num_steps, tf1.zeros(tf1.concat([tf1.shape(num_steps), [size, size]], axis=0), dtype=self.dtype)

    remaining, accumulated = tf1.cond(self._whole_period_folding(), fold_whole_periods, fold_nothing)
    sums = self._power_sum_array(tf1.reduce_max(remaining))
    q = tf1.squeeze(self.state_transition_noise_covariance, axis=[-1, -2])
    return accumulated + q * tf1.gather(sums, indices=remaining)

  def _whole_period_folding(self):
    """Whether whole periods stay aligned with integer steps (periodicity an integer, at least m)."""
    return tf1.logical_and(self._close_to_integer(self._true_periodicity),
                           tf1.greater_equal(self._true_periodicity, self._num_latent_values))

  def _power_sum_array(self, max_remaining_steps):
    r"""S[k] = \sum_{i<k} A^i B (A^i)^T for k = 0..`max_remaining_steps` (B: unit noise in the first value):
    [max_remaining_steps + 1, m - 1, m - 1], S[0] = 0, S[1] = B, S[2] = A B A^T + B.

    Each term has a closed form in x = i * m / periodicity, so a cumulative sum replaces the loop:
    (A^i B (A^i)^T)_{jl} = (-1)^(j + l) sin^2(pi x) / m^2 * u_j u_l with u_j = csc(pi (x - j) / m) + csc(pi (x - j -
    1) / m). Where u_j and u_l are both singular (x - j or x - j - 1 a multiple of m), the entry is its limit, the
    product of the signs cos(pi (x - j) / m) (or of x - j - 1) of the two; otherwise an integer x makes it 0.
    """
    x = self._latent_steps(tf1.range(max_remaining_steps))
    index = tf1.range(self._num_latent_values - 1)[None, ...]
    from_index = x[..., None] - tf1.cast(index, self.dtype)  # x - j
    u = self._cosecant(from_index) + self._cosecant(from_index - 1.)
    products = u[..., None, :] * u[..., None]
    signs = tf1.cast(1 - 2 * ((index[..., None, :] + index[..., None]) % 2), self.dtype)

    def singular(value):
      """(where sin(pi value / m) is 0, the limit of |sin| / sin there: cos(pi value / m))."""
      turns = value / self._latent()
      return self._close_to_integer(turns), tf1.cos(turns * np.pi)

    at_index, index_limit = singular(from_index)
    at_next, next_limit = singular(from_index - 1)
    limit = tf1.where(at_index, index_limit, next_limit)
    is_limit = tf1.logical_or(at_index, at_next)
    both_limits = tf1.logical_and(is_limit[..., None], is_limit[..., None, :])
    regular = tf1.where(self._close_to_integer(x), tf1.zeros_like(products), products)
    factor = tf1.sin(np.pi * x) / self._latent()
    terms = signs * tf1.where(both_limits, limit[..., None] * limit[..., None, :],
                              regular * factor[..., None, None]**2)
    return tf1.pad(tf1.cumsum(terms), [(1, 0), (0, 0), (0, 0)])
