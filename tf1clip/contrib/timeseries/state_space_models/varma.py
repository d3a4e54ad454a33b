r"""Vector ARMA as a state space model: the transient component of the structural ensembles.

Place in the data flow (DESIGN.md): contrib.timeseries.math_utils, state_space_models.state_space_model <-
**contrib.timeseries.state_space_models.varma** <- structural_ensemble (StructuralEnsembleRegressor's model).

The state is b = max(ar_order, ma_order + 1) blocks y_1..y_b of num_features values each (1-based, as in TF 1.15):

    y_1(t) = sum_{i <= ar_order} AR_i y_i(t - 1)             (all the AR coefficients act on the observed block)
    y_i(t) = y_{i-1}(t - 1) + MA_{i-1} e(t)   for 1 < i < b    (earlier blocks shift down, collecting noise)
    y_b(t) = y_{b-1}(t - 1) + e(t),            e(t) ~ N(0, learned covariance)

The model observes y_1, and also y_b when ma_order >= ar_order (to catch the moving average errors as they reach
the end of the state), plus observation noise. What is special: the AR coefficients sit in the transition of the
observed block, so truncated backpropagation learns them, and no noise enters the observed block directly (which
helps when the ensemble has observation noise); transition noise starts near the data's variance rather than low,
since here it also stands for deviations from the expectation. Variables `ar_coefs` (zeros) and `ma_coefs`
(identities) as in TF 1.15.
"""

import tensorflow as tf

from tf1clip.contrib.timeseries import math_utils
from tf1clip.contrib.timeseries.state_space_models import state_space_model

tf1 = tf.compat.v1


class VARMA(state_space_model.StateSpaceModel):
  """VARMA(autoregressive_order, moving_average_order) over all features (see the module docstring)."""

  def __init__(self, autoregressive_order, moving_average_order,
               configuration=state_space_model.StateSpaceModelConfiguration()):
    """Builds the model: a state of num_features * max(autoregressive_order, moving_average_order + 1) values.

    Args:
      autoregressive_order: the largest autoregressive lag.
      moving_average_order: the largest moving average lag (after it, a deviation is gone).
      configuration: a StateSpaceModelConfiguration.
    """
    self.ar_order = autoregressive_order
    self.ma_order = moving_average_order
    self.state_num_blocks = max(autoregressive_order, moving_average_order + 1)
    super(VARMA, self).__init__(configuration=configuration)
    self.state_dimension = self.state_num_blocks * self.num_features

  def _identity(self):
    return tf1.eye(self.num_features, dtype=self.dtype)

  def _define_parameters(self, observation_transition_tradeoff_log=None):
    features = self.num_features
    with tf1.variable_scope(self._variable_scope):
      self.ar_coefs = tf1.get_variable(name="ar_coefs", shape=[features, features, self.ar_order],
                                       dtype=self.dtype, initializer=tf1.zeros_initializer())
      self.ma_coefs = tf1.get_variable(name="ma_coefs", dtype=self.dtype,
                                       initializer=tf1.tile(self._identity()[None, :, :], [self.ma_order, 1, 1]))
    super(VARMA, self)._define_parameters(observation_transition_tradeoff_log=observation_transition_tradeoff_log)

  def get_state_transition(self):
    """[state dimension, state dimension]: the AR coefficients (zero for lags past ar_order) in the first block
    row, a shift of every block down by one below."""
    features, blocks = self.num_features, self.state_num_blocks
    ar_row = tf1.reshape(tf1.pad(self.ar_coefs, [[0, 0], [0, 0], [0, blocks - self.ar_order]]),
                         [features, self.state_dimension])
    shift_down = tf1.pad(tf1.eye((blocks - 1) * features, dtype=self.dtype), [[0, 0], [0, features]])
    return tf1.concat([ar_row, shift_down], axis=0)

  def get_noise_transform(self):
    """[state dimension, num features]: no noise into the observed block, the MA coefficients into the blocks
    after it (the last ma_order of them) and the noise itself into the last block."""
    features, blocks = self.num_features, self.state_num_blocks
    ma_rows = tf1.reshape(tf1.pad(self.ma_coefs, [[blocks - 1 - self.ma_order, 0], [0, 0], [0, 0]]),
                          [(blocks - 1) * features, features], name="noise_transform")
    return tf1.concat([ma_rows, self._identity()], axis=0)

  def get_observation_model(self, times):
    """[num features, state dimension]: the first block, plus the last when ma_order >= ar_order (`times` is
    unused; the base class broadcasts over the batch)."""
    del times
    features, blocks = self.num_features, self.state_num_blocks
    if self.ar_order > self.ma_order or blocks < 2:
      return tf1.pad(self._identity(), [[0, 0], [0, features * (blocks - 1)]], name="observation_model")
    first_block = tf1.pad(self._identity(), [[0, 0], [0, features * (blocks - 2)]])
    return tf1.concat([first_block, self._identity()], axis=1, name="observation_model")

  def get_state_transition_noise_covariance(self, minimum_initial_variance=1e-5):
    """The learned noise covariance, starting at the data's mean start variance (at least
    `minimum_initial_variance`) rather than low: in VARMA transition noise is also the deviation from the mean."""
    if self._input_statistics is None:
      log_scale = 0.
    else:
      start_variance = self._scale_variance(self._input_statistics.series_start_moments.variance)
      log_scale = tf1.log(tf1.maximum(tf1.reduce_mean(start_variance), minimum_initial_variance))
    noise_dimension = tf1.dimension_value(self._as_tensor(self.get_noise_transform()).shape[1])
    return math_utils.variable_covariance_matrix(noise_dimension, "state_transition_noise", dtype=self.dtype,
                                                 initial_overall_scale_log=log_scale)
