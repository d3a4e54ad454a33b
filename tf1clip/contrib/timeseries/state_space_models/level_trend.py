"""`tf.contrib.timeseries`' level and trend state space model, TF 1.15's code.

Place in the data flow (DESIGN.md): tf.compat.v1 ops, contrib.timeseries.model / math_utils <-
**contrib.timeseries.state_space_models.level_trend** <- StructuralEnsembleRegressor (contrib.timeseries.estimators).

TF 1.15's module on tf.compat.v1: `AdderStateSpaceModel`, a local level with an optional local linear trend.
"""

import tensorflow as tf

from tf1clip.contrib.timeseries.state_space_models import state_space_model

V1 = tf.compat.v1


class AdderStateSpaceModel(state_space_model.StateSpaceModel):
  """A state space model component with level and slope.

  At each timestep, level <- level + slope. Level is observed, slope is not.
  """

  def __init__(
      self,
      use_level_noise=True,
      configuration=state_space_model.StateSpaceModelConfiguration()):
    """Configure the model.

    Args:
      use_level_noise: Whether to model the time series as having level noise.
      configuration: A StateSpaceModelConfiguration object.
    """
    self.use_level_noise = use_level_noise
    super(AdderStateSpaceModel, self).__init__(
        configuration=configuration)

  def get_prior_mean(self):
    """If un-chunked data is available, set initial level to the first value."""
    with V1.variable_scope(self._variable_scope):
      if self._input_statistics is not None:
        # TODO(allenl): Better support for multivariate series here.
        initial_value = V1.stack([
            V1.reduce_mean(
                self._scale_data(
                    self._input_statistics.series_start_moments.mean)),
            0.
        ])
        return initial_value + V1.get_variable(
            name="prior_state_mean",
            shape=initial_value.get_shape(),
            initializer=V1.zeros_initializer(),
            dtype=self.dtype,
            trainable=self._configuration.trainable_start_state)
      else:
        return super(AdderStateSpaceModel, self).get_prior_mean()

  def transition_to_powers(self, powers):
    """Computes powers of the adder transition matrix efficiently.

    Args:
      powers: An integer Tensor, shape [...], with powers to raise the
        transition matrix to.
    Returns:
      A floating point Tensor with shape [..., 2, 2] containing:
        transition^power = [[1., power],
                            [0., 1.]]
    """
    paddings = V1.concat(
        [
            V1.zeros([V1.rank(powers), 2], dtype=tf.int32),
            [(0, 1), (1, 0)]
        ],
        axis=0)
    powers_padded = V1.pad(powers[..., None, None], paddings=paddings)
    identity_matrices = V1.eye(
        num_rows=2, batch_shape=V1.shape(powers), dtype=self.dtype)
    return identity_matrices + V1.cast(powers_padded, self.dtype)

  def transition_power_noise_accumulator(self, num_steps):
    """Computes power sums in closed form."""
    def _pack_and_reshape(*values):
      return V1.reshape(
          V1.stack(axis=1, values=values),
          V1.concat(values=[V1.shape(num_steps), [2, 2]], axis=0))

    num_steps = V1.cast(num_steps, self.dtype)
    noise_transitions = num_steps - 1
    noise_transform = V1.convert_to_tensor(self.get_noise_transform(),
                                            self.dtype)
    noise_covariance_transformed = V1.matmul(
        V1.matmul(noise_transform,
                        self.state_transition_noise_covariance),
        noise_transform,
        adjoint_b=True)
    # Un-packing the transformed noise as:
    # [[a b]
    #  [c d]]
    a, b, c, d = V1.unstack(
        V1.reshape(noise_covariance_transformed, [-1, 4]), axis=1)
    sum_of_first_n = noise_transitions * (noise_transitions + 1) / 2
    sum_of_first_n_squares = sum_of_first_n * (2 * noise_transitions + 1) / 3
    return _pack_and_reshape(
        num_steps * a + sum_of_first_n * (b + c) + sum_of_first_n_squares * d,
        num_steps * b + sum_of_first_n * d,
        num_steps * c + sum_of_first_n * d,
        num_steps * d)

  def get_state_transition(self):
    return [[1., 1.],  # Add slope to level
            [0., 1.]]  # Maintain slope

  def get_noise_transform(self):
    if self.use_level_noise:
      return [[1., 0.],
              [0., 1.]]
    else:
      return [[0.],
              [1.]]

  def get_observation_model(self, times):
    """Observe level but not slope.

    See StateSpaceModel.get_observation_model.

    Args:
      times: Unused. See the parent class for details.
    Returns:
      A static, univariate observation model for later broadcasting.
    """
    del times  # Does not rely on times. Uses broadcasting from the parent.
    return V1.constant([1., 0.], dtype=self.dtype)
