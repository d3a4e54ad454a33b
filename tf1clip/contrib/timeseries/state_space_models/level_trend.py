"""The level and trend component of the structural ensembles: a local linear trend.

Place in the data flow (DESIGN.md): contrib.timeseries.state_space_models.state_space_model <-
**contrib.timeseries.state_space_models.level_trend** <- structural_ensemble (StructuralEnsembleRegressor's model).

`AdderStateSpaceModel`'s state is (level, slope): each step adds the slope to the level; the level is observed.
What is special: k steps are closed forms, A^k = [[1, k], [0, 1]] and the noise they accumulate a polynomial in k
(sums of the first k - 1 integers and squares), so no matrix power or loop is built; the prior level starts at the
mean of the series' first values when input statistics are known.
"""

import tensorflow as tf

from tf1clip.contrib.timeseries.state_space_models import state_space_model

tf1 = tf.compat.v1


class AdderStateSpaceModel(state_space_model.StateSpaceModel):
  """Level and slope: level <- level + slope at each step; the level is observed, the slope is not."""

  def __init__(self, use_level_noise=True, configuration=state_space_model.StateSpaceModelConfiguration()):
    """`use_level_noise`: noise enters the level too, not only the slope; `configuration`: a
    StateSpaceModelConfiguration."""
    self.use_level_noise = use_level_noise
    super(AdderStateSpaceModel, self).__init__(configuration=configuration)

  def get_prior_mean(self):
    """(mean of the series' first values, 0) plus the `prior_state_mean` variable (zeros) when the input
    statistics are known; otherwise the base class's prior."""
    if self._input_statistics is None:
      with tf1.variable_scope(self._variable_scope):
        return super(AdderStateSpaceModel, self).get_prior_mean()
    with tf1.variable_scope(self._variable_scope):
      start_level = tf1.reduce_mean(self._scale_data(self._input_statistics.series_start_moments.mean))
      start = tf1.stack([start_level, 0.])
      offset = tf1.get_variable(name="prior_state_mean", shape=start.get_shape(),
                                initializer=tf1.zeros_initializer(), dtype=self.dtype,
                                trainable=self._configuration.trainable_start_state)
      return start + offset

  def transition_to_powers(self, powers):
    """[[1, k], [0, 1]] for each k of the integer Tensor `powers` [...]: [..., 2, 2]."""
    corner = tf1.constant([[0., 1.], [0., 0.]], dtype=self.dtype)
    identities = tf1.eye(num_rows=2, batch_shape=tf1.shape(powers), dtype=self.dtype)
    return identities + tf1.cast(powers, self.dtype)[..., None, None] * corner

  def transition_power_noise_accumulator(self, num_steps):
    """sum_{i<k} A^i N (A^i)^T for N = B Q B^T = [[a, b], [c, d]] and each k of `num_steps`, in closed form:
    [[k a + s1 (b + c) + s2 d, k b + s1 d], [k c + s1 d, k d]] with s1, s2 the sums of 1..k-1 and of their squares."""
    k = tf1.cast(num_steps, self.dtype)
    transform = tf1.convert_to_tensor(self.get_noise_transform(), self.dtype)
    step_noise = tf1.matmul(tf1.matmul(transform, self.state_transition_noise_covariance), transform,
                            adjoint_b=True)
    a, b, c, d = tf1.unstack(tf1.reshape(step_noise, [-1, 4]), axis=1)
    last = k - 1
    s1 = last * (last + 1) / 2
    s2 = s1 * (2 * last + 1) / 3
    entries = [k * a + s1 * (b + c) + s2 * d, k * b + s1 * d, k * c + s1 * d, k * d]
    return tf1.reshape(tf1.stack(entries, axis=-1), tf1.concat([tf1.shape(num_steps), [2, 2]], axis=0))

  def get_state_transition(self):
    return [[1., 1.], [0., 1.]]  # the slope adds to the level, the slope stays

  def get_noise_transform(self):
    if not self.use_level_noise:
      return [[0.], [1.]]  # noise in the slope only
    return [[1., 0.], [0., 1.]]

  def get_observation_model(self, times):
    """The level (the same at every time; the base class broadcasts it); `times` is unused."""
    del times
    return tf1.constant([1., 0.], dtype=self.dtype)
