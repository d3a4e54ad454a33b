"""The linear Gaussian state space model behind `tf.contrib.timeseries`' StructuralEnsembleRegressor.

Place in the data flow (DESIGN.md): tf.compat.v1 ops, contrib.timeseries.model / math_utils <-
**contrib.timeseries.state_space_models.state_space_model** <- the structural components (level_trend, periodic,
varma), structural_ensemble, StateSpaceRegressor and StructuralEnsembleRegressor (contrib.timeseries.estimators).

A model here is three matrices a subclass supplies, `get_state_transition` (A), `get_noise_transform` (B) and
`get_observation_model` (C):

    state[t] = A state[t-1] + B noise[t],   noise[t] ~ N(0, Q)
    value[t] = C state[t] + observation_noise[t],   observation_noise[t] ~ N(0, R)

`StateSpaceModel` learns Q, R and the prior from them and runs the Kalman filter over each window through
`SequentialTimeSeriesModel`'s step hooks (`_window_initializer`, `_imputation_step`, `_prediction_step`,
`_filtering_step`, `_exogenous_input_step`). What is special: a gap of k steps between two observations is one
transition by A^k with the summed noise of k steps, and each window computes A^k and that sum once for each distinct
gap in it; one learned log scale (`observation_transition_tradeoff_log_scale`) trades transition noise against
observation noise for a whole ensemble. The ensembles combine member models block-diagonally: summing their
observations (`StateSpaceIndependentEnsemble`) or giving each its own feature (`StateSpaceCorrelatedFeaturesEnsemble`).
Variable names, initial values and errors are TF 1.15's (tests/oracle/test_contrib_timeseries_state_space_oracle.py,
tests/contrib/timeseries/test_state_space_model_oracle.py).
"""

import abc
import collections

import numpy as np
import tensorflow as tf

from tensorflow_estimator.python.estimator import estimator_lib
from tensorflow_estimator.python.estimator.canned.timeseries.feature_keys import TrainEvalFeatures

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.timeseries import math_utils
from tf1clip.contrib.timeseries import model
from tf1clip.contrib.timeseries import model_utils
from tf1clip.contrib.timeseries.state_space_models import kalman_filter

tf1 = tf.compat.v1

# StateSpaceModelConfiguration's fields, in TF 1.15's order (its __new__ has their defaults).
_CONFIGURATION_FIELDS = (
    "num_features", "use_observation_noise", "dtype", "covariance_prior_fn", "bayesian_prior_weighting",
    "filtering_postprocessor", "trainable_start_state", "exogenous_noise_increases", "exogenous_noise_decreases",
    "exogenous_feature_columns", "exogenous_update_condition", "filtering_maximum_posterior_variance_ratio",
    "filtering_minimum_posterior_variance", "transition_covariance_initial_log_scale_bias",
    "static_unrolling_window_size_threshold")


def _dense(inputs, units):
  """A linear layer of tf-slim (whose variable names, `.../weights` and `.../biases`, TF 1.15 checkpoints hold)."""
  return _catalog.resolve("tf_slim:fully_connected")(inputs, units, activation_fn=None)


class StateSpaceModelConfiguration(collections.namedtuple("StateSpaceModelConfiguration",
                                                          _CONFIGURATION_FIELDS)):
  """How a StateSpaceModel is built and trained (an immutable record; `_replace` derives variants).

  Fields:
    num_features: the number of values observed at each time.
    use_observation_noise: whether observations carry noise of their own (R); without it they are exactly C state
      (then consider a `transition_covariance_initial_log_scale_bias` of 0 or more).
    dtype: the floating point type of the model.
    covariance_prior_fn: covariance matrix -> scalar log prior, summed over Q and R; the default is a Jeffreys prior
      on the diagonals, which favours low noise and confident predictions; `lambda _: 0.` is a flat prior.
    bayesian_prior_weighting: weigh the prior by the whole series' size (True) or by the window's (False, which
      favours low noise more when the series is long).
    filtering_postprocessor: a `FilteringStepPostprocessor` run after each filtering step (anomaly handling).
    trainable_start_state: whether the prior mean and covariance are trained.
    exogenous_noise_increases: exogenous features may shift the state and add to its uncertainty.
    exogenous_noise_decreases: exogenous features may be observed as noisy measurements of the state.
    exogenous_feature_columns: feature columns of the exogenous features (`input_layer`), default none.
    exogenous_update_condition: `(times, features) -> bool [batch size]`: where False, no exogenous update.
    filtering_maximum_posterior_variance_ratio: the largest ratio of two state variances allowed before filtering.
    filtering_minimum_posterior_variance: the smallest state variance allowed before filtering.
    transition_covariance_initial_log_scale_bias: the starting log trade-off: Q starts at e^(x + bias), R at
      e^(y - bias).
    static_unrolling_window_size_threshold: windows up to this size are unrolled in the graph (None: never).
  """

  def __new__(cls, num_features=1, use_observation_noise=True, dtype=tf.float32,
              covariance_prior_fn=math_utils.log_noninformative_covariance_prior, bayesian_prior_weighting=True,
              filtering_postprocessor=None, trainable_start_state=False, exogenous_noise_increases=True,
              exogenous_noise_decreases=False, exogenous_feature_columns=None, exogenous_update_condition=None,
              filtering_maximum_posterior_variance_ratio=1e6, filtering_minimum_posterior_variance=0.,
              transition_covariance_initial_log_scale_bias=-5., static_unrolling_window_size_threshold=None):
    fields = {name: value for name, value in locals().items() if name in _CONFIGURATION_FIELDS}
    if fields["exogenous_feature_columns"] is None:
      fields["exogenous_feature_columns"] = []
    return super(StateSpaceModelConfiguration, cls).__new__(cls, **fields)


class StateSpaceModel(model.SequentialTimeSeriesModel):
  """A linear Gaussian state space model; subclasses define A, B and C (see the module docstring).

  A subclass overrides `get_state_transition`, `get_noise_transform` and `get_observation_model`, and may override
  `transition_to_powers` / `transition_power_noise_accumulator` with closed forms. Exogenous features either add a
  learned shift and covariance to the state (`exogenous_noise_increases`) or act as an extra observation of it
  (`exogenous_noise_decreases`).

  After `initialize_graph`: `prior_state_mean` ([state dimension]), `prior_state_var` ([state dimension, state
  dimension]) and `state_transition_noise_covariance` (Q, [noise dimension, noise dimension]); None before.
  """

  def __init__(self, configuration):
    """Builds the model of `configuration` (a `StateSpaceModelConfiguration`)."""
    self._configuration = configuration
    postprocessor = configuration.filtering_postprocessor
    extra_outputs = list(postprocessor.output_names) if postprocessor is not None else []
    super(StateSpaceModel, self).__init__(
        train_output_names=["mean", "covariance", "log_likelihood"] + extra_outputs,
        predict_output_names=["mean", "covariance"], num_features=configuration.num_features, normalize_features=True,
        dtype=configuration.dtype, exogenous_feature_columns=configuration.exogenous_feature_columns,
        exogenous_update_condition=configuration.exogenous_update_condition,
        static_unrolling_window_size_threshold=configuration.static_unrolling_window_size_threshold)
    self._kalman_filter = None
    self.prior_state_mean = self.prior_state_var = None
    self.state_transition_noise_covariance = None
    self._total_observation_count = None
    self._observation_noise_covariance = None
    # Every variable of this model goes under the scope it was constructed in, even when an ensemble defines the
    # variables of all its members from inside one call.
    self._variable_scope = tf1.get_variable_scope()

  def _as_tensor(self, value):
    return tf1.convert_to_tensor(value, dtype=self.dtype)

  def _state_dimension(self):
    return self._as_tensor(self.get_state_transition()).get_shape().dims[0].value

  # -- A^k and the noise of k steps ---------------------------------------------------------------------------

  def transition_power_noise_accumulator(self, num_steps):
    r"""The state covariance that `num_steps` transitions add: sum_{i < k} A^i (B Q B^T) (A^i)^T for each k.

    Args:
      num_steps: an integer Tensor [...] of step counts.
    Returns:
      A Tensor [..., state dimension, state dimension]. Subclasses override this with a closed form when one exists.
    """
    transform = self._as_tensor(self.get_noise_transform())
    step_noise = tf1.matmul(tf1.matmul(transform, self.state_transition_noise_covariance), transform,
                            transpose_b=True)
    all_sums = math_utils.power_sums_tensor(tf1.reduce_max(num_steps) + 1,
                                            self._as_tensor(self.get_state_transition()), step_noise)
    return tf1.gather(all_sums, indices=num_steps)

  def transition_to_powers(self, powers):
    """A^k for each k of the integer Tensor `powers` [...]: a Tensor [..., state dimension, state dimension]."""
    return math_utils.matrix_to_powers(self._as_tensor(self.get_state_transition()), powers)

  def _window_initializer(self, times, state):
    """Computes A^k and the noise of k steps once for every distinct gap k of this window (times [batch, window])."""
    times = tf1.convert_to_tensor(times)
    state_time = tf1.convert_to_tensor(state[2])
    gaps_within = tf1.reshape(times[:, 1:] - times[:, :-1], [-1])
    # While input statistics are still being gathered the start time may lie past the first time: no negative gaps.
    gaps_before = tf1.maximum(times[:, 0] - state_time, 0)
    gaps, _ = tf1.unique(tf1.concat([gaps_within, gaps_before], axis=0))
    self._window_power_sums = self.transition_power_noise_accumulator(gaps)
    self._window_transition_powers = self.transition_to_powers(gaps)
    self._window_gap_sizes = gaps

  def _cached_transition_powers_and_sums(self, num_steps):
    """[A^k, noise of k steps] for each k of `num_steps` (a batch of gaps `_window_initializer` saw)."""
    gaps = self._window_gap_sizes
    # unique() numbers each appended k by the position of the equal gap among the window's gaps.
    _, positions = tf1.unique(tf1.concat([gaps, tf1.cast(num_steps, gaps.dtype)], axis=0))
    positions = positions[-tf1.shape(num_steps)[0]:]
    found = []
    for table in (self._window_transition_powers, self._window_power_sums):
      rows = tf1.gather(table, positions)
      rows.set_shape(num_steps.get_shape().concatenate(rows.get_shape()[-2:]))
      found.append(rows)
    return found

  # -- the steps SequentialTimeSeriesModel runs; state = (mean, covariance, time of the state) --------------------

  def _imputation_step(self, current_times, state):
    """Carries `state` ([batch, state], [batch, state, state], [batch]) forward to `current_times` (exclusive)."""
    mean, covariance, state_times = state
    # Start times estimated from the first windows can make a gap negative; such gaps count as none.
    steps = tf1.maximum(current_times - state_times, 0)
    powers, noise = self._cached_transition_powers_and_sums(steps)
    filter_ = self._kalman_filter
    return (filter_.predict_state_mean(mean, powers), filter_.predict_state_var(covariance, powers, noise),
            state_times + steps)

  def _prediction_step(self, current_times, state):
    """The observation predicted from `state` (imputed to `current_times`): (state, {"mean", "covariance"})."""
    mean, covariance, state_times = state
    caught_up = tf1.Assert(tf1.reduce_all(tf1.less_equal(current_times, state_times)),
                           ["Attempted to predict without imputation"])
    with tf1.control_dependencies([caught_up]):
      predicted_mean, predicted_covariance = self._kalman_filter.observed_from_state(
          state_mean=mean, state_var=covariance,
          observation_model=self.get_broadcasted_observation_model(current_times),
          observation_noise=self._observation_noise_covariance)
    batch_shape = current_times.get_shape()
    predicted_mean.set_shape(batch_shape.concatenate([self.num_features]))
    predicted_covariance.set_shape(batch_shape.concatenate([self.num_features, self.num_features]))
    # Kept on the normalized scale: the loss uses them; _scale_back_predictions converts what the user sees.
    return (mean, covariance, current_times), {"mean": predicted_mean, "covariance": predicted_covariance}

  def _filtering_step(self, current_times, current_values, state, predictions):
    """The posterior given `current_values` [batch, features]; adds "loss" and "log_likelihood" to `predictions`."""
    mean, covariance, state_times = state
    observation_model = self.get_broadcasted_observation_model(current_times)
    imputed = tf1.Assert(tf1.reduce_all(tf1.equal(current_times, state_times)),
                         ["Attempted to perform filtering without imputation/prediction"])
    config = self._configuration
    with tf1.control_dependencies([imputed]):
      covariance = math_utils.clip_covariance(covariance, config.filtering_maximum_posterior_variance_ratio,
                                              config.filtering_minimum_posterior_variance)
      posterior_mean, posterior_covariance, log_likelihood = self._kalman_filter.do_filter(
          estimated_state=mean, estimated_state_covariance=covariance,
          predicted_observation=predictions["mean"], predicted_observation_covariance=predictions["covariance"],
          observation=current_values, observation_model=observation_model,
          observation_noise=self._observation_noise_covariance)
    posterior = (posterior_mean, posterior_covariance, current_times)
    log_likelihood.set_shape(current_times.get_shape())
    predictions["loss"] = -log_likelihood
    predictions["log_likelihood"] = log_likelihood
    if config.filtering_postprocessor is None:
      return posterior, predictions
    return config.filtering_postprocessor.process_filtering_step(
        current_times=current_times, current_values=current_values, predicted_state=state,
        filtered_state=posterior, outputs=predictions)

  def _scale_back_predictions(self, predictions):
    """Puts a window's predicted means and covariances back on the scale of the input."""
    predictions["mean"] = self._scale_back_data(predictions["mean"])
    predictions["covariance"] = self._scale_back_variance(predictions["covariance"])
    return predictions

  def _exogenous_noise_decreasing(self, current_times, exogenous_values, state):
    """Treats a linear map of `exogenous_values` [batch, exogenous] as a noisy direct observation of the state.

    C is the identity (learning it would duplicate the learned linear map); the measurement's covariance is learned
    from `exogenous_values` too. The posterior is less uncertain than `state` (the features "set" the state).
    """
    mean, covariance, state_times = state
    dimension = tf1.dimension_value(self._as_tensor(self.get_state_transition()).shape[0])
    identity = tf1.eye(dimension, batch_shape=tf1.shape(exogenous_values)[:-1], dtype=self.dtype)
    with tf1.variable_scope("exogenous_noise_decreasing_covariance"):
      measurement_noise = math_utils.transform_to_covariance_matrices(exogenous_values, dimension)
    with tf1.variable_scope("exogenous_noise_decreasing_observation"):
      measurement = _dense(exogenous_values, dimension)
    # With C = I the predicted observation is the state itself, its covariance the state's plus the noise's.
    posterior_mean, posterior_covariance = self._kalman_filter.posterior_from_prior_state(
        prior_state=mean, prior_state_var=covariance, observation=measurement, observation_model=identity,
        predicted_observations=(mean, measurement_noise + covariance), observation_noise=measurement_noise)
    return posterior_mean, posterior_covariance, state_times

  def _exogenous_noise_increasing(self, current_times, exogenous_values, state):
    """Shifts the state mean by a linear map of `exogenous_values` and adds a covariance learned from them."""
    mean, covariance, state_times = state
    with tf1.variable_scope("exogenous_noise_increasing_mean"):
      shift = _dense(exogenous_values, tf1.dimension_value(mean.shape[1]))
    with tf1.variable_scope("exogenous_noise_increasing_covariance"):
      added = math_utils.transform_to_covariance_matrices(exogenous_values,
                                                          tf1.dimension_value(covariance.shape[1]))
    return mean + shift, covariance + added, state_times

  def _exogenous_input_step(self, current_times, current_exogenous_regressors, state):
    """The configured exogenous updates of `state`: first the decreasing one, then the increasing one."""
    if self._configuration.exogenous_noise_decreases:
      state = self._exogenous_noise_decreasing(current_times, current_exogenous_regressors, state)
    if self._configuration.exogenous_noise_increases:
      state = self._exogenous_noise_increasing(current_times, current_exogenous_regressors, state)
    return state

  def _loss_additions(self, times, values, mode):
    """In training, minus the noise covariances' log prior divided by the dataset size; 0 otherwise."""
    if mode != estimator_lib.ModeKeys.TRAIN:
      return tf1.zeros([], dtype=self.dtype)
    config = self._configuration
    if self._input_statistics is not None and config.bayesian_prior_weighting:
      dataset_size = self._input_statistics.total_observation_count
    else:  # no count of the whole series, or not wanted: the window stands in for it
      dataset_size = tf1.shape(times)[1]
    weight = 1. / tf1.cast(dataset_size, self.dtype)
    log_prior = self._as_tensor(config.covariance_prior_fn(self.state_transition_noise_covariance))
    if config.use_observation_noise and self._observation_noise_covariance is not None:
      log_prior = log_prior + self._as_tensor(config.covariance_prior_fn(self._observation_noise_covariance))
    return -weight * log_prior

  # -- parameters and priors ------------------------------------------------------------------------------------

  def _variable_observation_transition_tradeoff_log(self):
    """The learned log scale subtracted from log transition noise and added to log observation noise."""
    start = -self._configuration.transition_covariance_initial_log_scale_bias
    return tf1.get_variable(name="observation_transition_tradeoff_log_scale",
                            initializer=tf1.constant(start, dtype=self.dtype), dtype=self.dtype)

  def _define_parameters(self, observation_transition_tradeoff_log=None):
    """Defines this model's parameters (in its variable scope): the trade-off scale, unless an ensemble passes its
    own in `observation_transition_tradeoff_log`, and Q."""
    with tf1.variable_scope(self._variable_scope):
      if observation_transition_tradeoff_log is None:
        observation_transition_tradeoff_log = self._variable_observation_transition_tradeoff_log()
      self._observation_transition_tradeoff_log_scale = observation_transition_tradeoff_log
      self.state_transition_noise_covariance = self.get_state_transition_noise_covariance()

  def _set_input_statistics(self, input_statistics=None):
    super(StateSpaceModel, self).initialize_graph(input_statistics=input_statistics)

  def initialize_graph(self, input_statistics=None):
    """Defines the variables of the (top-level) model: parameters, observation noise, Kalman filter and priors.

    Args:
      input_statistics: a math_utils.InputStatistics to initialize from the data; None for fixed defaults (which
        may train slower or less stably).
    """
    self._set_input_statistics(input_statistics=input_statistics)
    self._define_parameters()
    with tf1.variable_scope(self._variable_scope):
      self._observation_noise_covariance = self._as_tensor(self.get_observation_noise_covariance())
    self._kalman_filter = kalman_filter.KalmanFilter(dtype=self.dtype)
    self.prior_state_mean, self.prior_state_var = self._make_priors()

  def _make_priors(self):
    """(prior mean, prior covariance); the covariance's variables are made first."""
    covariance = self.get_prior_covariance()
    return self.get_prior_mean(), covariance

  def _start_moments_variance(self):
    return self._scale_variance(self._input_statistics.series_start_moments.variance)

  def get_prior_covariance(self):
    """The prior state covariance [state, state]: the identity, or a learned matrix with a trainable start state
    (then at least as large as the data's variance at the series' start)."""
    with tf1.variable_scope(self._variable_scope):
      dimension = tf1.convert_to_tensor(self.get_state_transition()).get_shape().dims[0].value
      if not self._configuration.trainable_start_state:
        return tf1.eye(dimension, dtype=self.dtype)
      learned = math_utils.variable_covariance_matrix(dimension, "prior_state_var", dtype=self.dtype)
      if self._input_statistics is None:
        return learned
      return learned * tf1.maximum(tf1.reduce_max(self._start_moments_variance()), 1.0)

  def get_prior_mean(self):
    """The prior state mean [state dimension], a variable `prior_state_mean` (trained with a trainable start)."""
    with tf1.variable_scope(self._variable_scope):
      return tf1.get_variable(name="prior_state_mean", shape=[self._state_dimension()], dtype=self.dtype,
                              trainable=self._configuration.trainable_start_state)

  def get_state_transition_noise_covariance(self, minimum_initial_variance=1e-5):
    """Q, a learned covariance (`state_transition_noise`) over the noise dimension; starts at the log of the data's
    start variance per observation (at least `minimum_initial_variance`) less the trade-off scale."""
    noise_dimension = self._as_tensor(self.get_noise_transform()).get_shape().dims[1].value
    if self._input_statistics is None:
      log_scale = 0.
    else:
      per_observation = (tf1.reduce_mean(self._start_moments_variance())
                         / tf1.cast(self._input_statistics.total_observation_count, self.dtype))
      log_scale = tf1.log(tf1.maximum(per_observation, minimum_initial_variance))
    # Low transition noise to start with (confident forecasts where the data allow), not so low that training
    # cannot raise it.
    log_scale -= self._observation_transition_tradeoff_log_scale
    return math_utils.variable_covariance_matrix(noise_dimension, "state_transition_noise", dtype=self.dtype,
                                                 initial_overall_scale_log=log_scale)

  def get_observation_noise_covariance(self, minimum_initial_variance=1e-5):
    """R, a learned covariance (`observation_noise_covariance`) starting from the variance at the start of the
    series (an over-estimate), or zeros without observation noise."""
    if not self._configuration.use_observation_noise:
      return tf1.zeros(shape=[self.num_features, self.num_features], name="observation_noise_covariance",
                       dtype=self.dtype)
    start_variance = None
    if self._input_statistics is not None:
      start_variance = tf1.maximum(self._start_moments_variance(), minimum_initial_variance)
    return math_utils.variable_covariance_matrix(
        size=self.num_features, dtype=self.dtype, name="observation_noise_covariance",
        initial_diagonal_values=start_variance,
        initial_overall_scale_log=self._observation_transition_tradeoff_log_scale)

  def get_start_state(self):
    """The prior (mean, covariance, time): the time is the step before the series starts."""
    if self._input_statistics is None:
      start_time = tf1.zeros([], dtype=tf.int64)
    else:
      start_time = self._input_statistics.start_time
    return self.prior_state_mean, self.prior_state_var, start_time - 1

  def get_features_for_timesteps(self, timesteps):
    """No time features: a [batch size, 0] Tensor."""
    return tf1.zeros([tf1.shape(timesteps)[0], 0], dtype=self.dtype)

  # -- sampling series (univariate models) -----------------------------------------------------------------------

  def _check_univariate_for_generation(self):
    if self.num_features != 1:
      raise NotImplementedError("Generation for multivariate state space models is not currently implemented.")

  def random_model_parameters(self, seed=None):
    """{parameter Tensor: numpy value} drawn for `generate` (inverse gamma noise variances, normal prior mean)."""
    self._check_univariate_for_generation()
    if seed:
      np.random.seed(seed)
    state_dimension, noise_dimension = tf1.convert_to_tensor(self.get_noise_transform()).get_shape().as_list()
    noise_variances = 1.0 / np.random.gamma(shape=10., scale=10., size=[noise_dimension])
    start = np.random.normal(size=[state_dimension])
    drawn = {}
    for tensor, value in ((self.prior_state_mean, start),
                          (self.state_transition_noise_covariance, np.diag(noise_variances)),
                          (self.prior_state_var, np.zeros([state_dimension, state_dimension]))):
      if tensor is not None:
        drawn[tensor] = value
    if self._configuration.use_observation_noise:
      drawn[self._observation_noise_covariance] = [[1.0 / np.random.gamma(shape=4, scale=4)]]
    return drawn

  def generate(self, number_of_series, series_length, model_parameters=None, seed=None,
               add_observation_noise=None):
    """Samples `number_of_series` series of `series_length` steps (in a default session) from the model with
    `model_parameters` ({Tensor: value}, the trained values for the rest); {TIMES, VALUES} numpy arrays."""
    if seed is not None:
      np.random.seed(seed)
    self._check_univariate_for_generation()
    if add_observation_noise is None:
      add_observation_noise = self._configuration.use_observation_noise
    feeds = model_parameters or {}
    value_of = model_utils.parameter_switch(feeds)
    transition = self._as_tensor(self.get_state_transition()).eval(feed_dict=feeds)
    noise_transform = tf1.convert_to_tensor(self.get_noise_transform()).eval(feed_dict=feeds)
    noise_scale = np.sqrt(np.diag(value_of(self.state_transition_noise_covariance)))
    if add_observation_noise:
      observation_scale = np.sqrt(value_of(self._observation_noise_covariance)[0][0])
    state = np.tile(value_of(self.prior_state_mean)[None, :], [number_of_series, 1])
    observation_models = self.get_broadcasted_observation_model(times=tf1.range(series_length)).eval(
        feed_dict=feeds)
    values = np.zeros([number_of_series, series_length])
    noise_shape = [number_of_series, noise_transform.shape[1]]
    for step, observation_model in enumerate(observation_models):
      noise = np.random.normal(loc=np.zeros(noise_shape), scale=np.tile(noise_scale[None, :], [number_of_series, 1]))
      state = state.dot(transition.T) + noise.dot(noise_transform.T)
      expected = state.dot(observation_model[0].T)
      if add_observation_noise:
        values[:, step] = np.random.normal(loc=expected, scale=observation_scale)
      else:
        values[:, step] = expected
    times = np.tile(np.arange(series_length)[None, :], [number_of_series, 1])
    return {TrainEvalFeatures.TIMES: times, TrainEvalFeatures.VALUES: values[:, :, None]}

  # -- what a subclass defines -------------------------------------------------------------------------------------

  @abc.abstractmethod
  def get_state_transition(self):
    """A, [state dimension, state dimension]: how the state moves from one step to the next."""

  @abc.abstractmethod
  def get_noise_transform(self):
    """B, [state dimension, noise dimension]: how transition noise enters the state."""

  @abc.abstractmethod
  def get_observation_model(self, times):
    """C for `times` [batch]: [state dimension] (one feature), [features, state dimension], or
    [batch, features, state dimension] when it depends on the times (see get_broadcasted_observation_model)."""

  def get_broadcasted_observation_model(self, times):
    """`get_observation_model(times)` as [batch, features, state dimension], tiling what has no batch (and, for a
    vector, no feature) dimension; a result of unknown rank is checked to be 3 when the graph runs."""
    observation_model = self._as_tensor(self.get_observation_model(times))
    rank = observation_model.get_shape().with_rank_at_least(1).with_rank_at_most(3).ndims
    if rank is None:
      is_rank_3 = tf1.Assert(tf1.equal(tf1.rank(observation_model), 3), [tf1.shape(observation_model)])
      with tf1.control_dependencies([is_rank_3]):
        return tf1.identity(observation_model)
    batch_size = tf1.shape(times)[0]
    if rank == 1:
      observation_model = tf1.tile(tf1.reshape(observation_model, [1, 1, -1]), [batch_size, self.num_features, 1])
    elif rank == 2:
      observation_model = tf1.tile(observation_model[None], [batch_size, 1, 1])
    observation_model.get_shape().assert_has_rank(3)
    return observation_model


class StateSpaceEnsemble(StateSpaceModel):
  """A state space model made of member models, their matrices placed block-diagonally (state = members' states
  one after the other)."""

  def __init__(self, ensemble_members, configuration):
    """`ensemble_members`: the StateSpaceModels combined; `configuration`: a StateSpaceModelConfiguration."""
    self._ensemble_members = ensemble_members
    super(StateSpaceEnsemble, self).__init__(configuration=configuration)

  def _set_input_statistics(self, input_statistics):
    super(StateSpaceEnsemble, self)._set_input_statistics(input_statistics)
    for member in self._ensemble_members:
      member._set_input_statistics(input_statistics)  # pylint: disable=protected-access

  def _loss_additions(self, times, values, mode):
    own = super(StateSpaceEnsemble, self)._loss_additions(times, values, mode)
    return own + tf1.add_n([member._loss_additions(times, values, mode)  # pylint: disable=protected-access
                            for member in self._ensemble_members])

  def _compute_blocked(self, member_fn, name):
    """The block-diagonal matrix of `member_fn(member)` over the members."""
    with tf1.variable_scope(self._variable_scope):
      blocks = [member_fn(member) for member in self._ensemble_members]
      return math_utils.block_diagonal(blocks, dtype=self.dtype, name=name)

  def transition_to_powers(self, powers):
    return self._compute_blocked(lambda member: member.transition_to_powers(powers),
                                 name="ensemble_transition_to_powers")

  def _define_parameters(self, observation_transition_tradeoff_log=None):
    """One trade-off scale for the whole ensemble, shared with every member."""
    with tf1.variable_scope(self._variable_scope):
      shared = observation_transition_tradeoff_log
      if shared is None:
        shared = self._variable_observation_transition_tradeoff_log()
      for member in self._ensemble_members:
        member._define_parameters(observation_transition_tradeoff_log=shared)  # pylint: disable=protected-access
      super(StateSpaceEnsemble, self)._define_parameters(observation_transition_tradeoff_log=shared)

  def random_model_parameters(self, seed=None):
    drawn = {}
    for index, member in enumerate(self._ensemble_members):
      drawn.update(member.random_model_parameters(seed=seed + index if seed else None))
    drawn.update(super(StateSpaceEnsemble, self).random_model_parameters(seed=seed))
    return drawn

  def get_prior_mean(self):
    return tf1.concat(values=[member.get_prior_mean() for member in self._ensemble_members], axis=0,
                      name="ensemble_prior_state_mean")

  def get_state_transition(self):
    return self._compute_blocked(lambda member: member.get_state_transition(), name="ensemble_state_transition")

  def get_noise_transform(self):
    return self._compute_blocked(lambda member: member.get_noise_transform(), name="ensemble_noise_transform")

  def get_observation_model(self, times):
    raise NotImplementedError("No un-broadcasted observation model defined for ensembles.")

  def get_broadcasted_observation_model(self, times):
    """The members' observation models side by side [batch, features, combined state]: observations add up."""
    return tf1.concat(values=[self._as_tensor(member.get_broadcasted_observation_model(times))
                              for member in self._ensemble_members], axis=2)


class StateSpaceIndependentEnsemble(StateSpaceEnsemble):
  """Independent member models whose observations add up (plus one observation noise).

  Member j evolves on its own (state_j[t] = A_j state_j[t-1] + B_j noise_j[t], noise_j ~ N(0, Q_j)) and the ensemble
  observes sum_j C_j state_j[t] + noise. The state dimension is the members' total, so large ensembles are slow.
  """

  def transition_power_noise_accumulator(self, num_steps):
    return self._compute_blocked(lambda member: member.transition_power_noise_accumulator(num_steps),
                                 name="ensemble_power_noise_accumulator")

  def get_prior_covariance(self):
    """The members' prior covariances, block-diagonally."""
    return self._compute_blocked(lambda member: member.get_prior_covariance(),
                                 name="ensemble_prior_state_covariance")

  def get_state_transition_noise_covariance(self):
    """The members' Q, block-diagonally."""
    return self._compute_blocked(lambda member: member.state_transition_noise_covariance,
                                 name="ensemble_state_transition_noise")


class StateSpaceCorrelatedFeaturesEnsemble(StateSpaceEnsemble):
  """One univariate member model per feature, with one full transition noise covariance learned across them.

  A and C are the members' block-diagonally (so member j predicts feature j alone); Q is not block-diagonal: the
  features' noises may correlate. (A full prior covariance is learned too; the members' own are not used.)
  """

  def __init__(self, ensemble_members, configuration):
    """`ensemble_members`: `configuration.num_features` univariate StateSpaceModels, feature by feature.

    Raises:
      ValueError: the number of members is not the number of features, or a member is not univariate.
    """
    if len(ensemble_members) != configuration.num_features:
      raise ValueError("The number of members in a StateSpaceCorrelatedFeaturesEnsemble must equal the number of "
                       "features in the time series.")
    if any(member.num_features != 1 for member in ensemble_members):
      raise ValueError("StateSpaceCorrelatedFeaturesEnsemble components must be univariate.")
    super(StateSpaceCorrelatedFeaturesEnsemble, self).__init__(ensemble_members=ensemble_members,
                                                               configuration=configuration)

  def transition_power_noise_accumulator(self, num_steps):
    """The member's own closed form for one feature; the general sum otherwise (correlated noise does not split
    into the members' sums)."""
    if len(self._ensemble_members) == 1:
      return self._ensemble_members[0].transition_power_noise_accumulator(num_steps=num_steps)
    return super(StateSpaceCorrelatedFeaturesEnsemble, self).transition_power_noise_accumulator(num_steps=num_steps)

  def get_broadcasted_observation_model(self, times):
    """The members' observation models block-diagonally: feature j sees member j's state."""
    return self._compute_blocked(
        lambda member: self._as_tensor(member.get_broadcasted_observation_model(times)),
        name="feature_ensemble_observation_model")
