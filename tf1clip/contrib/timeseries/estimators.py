"""`tf.contrib.timeseries`' Estimators: TimeSeriesRegressor, ARRegressor and the state space regressors.

Place in the data flow (DESIGN.md): tensorflow-estimator 2.15's timeseries TimeSeriesRegressor and heads (through
shims.tensorflow_estimator), contrib.timeseries.ar_model / state_management / state_space_models <-
**contrib.timeseries.estimators** <- compat <- cli.

* `TimeSeriesRegressor` is tensorflow-estimator 2.15's class (its model_fn through the head, its serving input
  receivers, what `export_saved_model` writes), with TF 1.15's default state manager put back for TF 1.15's
  `ARModel` (ours: the library recognizes only its own LSTM ARModel): `FilteringOnlyStateManager`.
* `ARRegressor` wraps an `ARModel` over `FlatPredictionModel` (an `AnomalyMixtureARModel` when
  `anomaly_prior_probability` is given), with `FilteringOnlyStateManager` and Adagrad(0.1) by default.
* `StateSpaceRegressor` takes any `StateSpaceModel`, with `ChainingStateManager` by default;
  `StructuralEnsembleRegressor` is one over a `MultiResolutionStructuralEnsemble` (level, trend, cycles, moving
  average, optional autoregression), optionally with TF 1.15's anomaly-ignoring filtering postprocessor.
"""

import functools

import tensorflow as tf

from tensorflow_estimator.python.estimator.canned.timeseries import estimators as _estimators
from tensorflow_estimator.python.estimator.canned.timeseries import head as ts_head_lib

from tf1clip.contrib.timeseries import ar_model
from tf1clip.contrib.timeseries import state_management
from tf1clip.contrib.timeseries.state_space_models import filtering_postprocessor as filtering_postprocessor_lib
from tf1clip.contrib.timeseries.state_space_models import state_space_model
from tf1clip.contrib.timeseries.state_space_models import structural_ensemble


class TimeSeriesRegressor(_estimators.TimeSeriesRegressor):
  """An Estimator training, evaluating and predicting with a time series model (a `TimeSeriesModel`).

  tensorflow-estimator 2.15's class; with TF 1.15's `ARModel` and no `state_manager`, the state manager is
  `FilteringOnlyStateManager` as in TF 1.15 (the library would pick a chaining one).
  """

  def __init__(self, model, state_manager=None, optimizer=None, model_dir=None, config=None,
               head_type=ts_head_lib.TimeSeriesRegressionHead):
    if state_manager is None and isinstance(model, ar_model.ARModel):
      state_manager = state_management.FilteringOnlyStateManager()
    super(TimeSeriesRegressor, self).__init__(
        model=model, state_manager=state_manager, optimizer=optimizer, model_dir=model_dir, config=config,
        head_type=head_type)


def _autoregressive_model(periodicities, input_window_size, output_window_size, num_features,
                          exogenous_feature_columns, num_time_buckets, loss, hidden_layer_sizes,
                          anomaly_prior_probability, anomaly_distribution):
  """ARRegressor's model: a plain ARModel, or the anomaly mixture when a prior probability is given."""
  if anomaly_prior_probability is None:
    if anomaly_distribution is not None:
      raise ValueError("ARRegressor: anomaly_distribution={!r} needs anomaly_prior_probability (the mixture "
                       "model's prior of an anomaly).".format(anomaly_distribution))
  elif loss != ar_model.ARModel.NORMAL_LIKELIHOOD_LOSS:
    raise ValueError("ARRegressor: with anomaly_prior_probability (AnomalyMixtureARModel) the loss must be "
                     "ARModel.NORMAL_LIKELIHOOD_LOSS, got loss={!r}.".format(loss))
  shared = dict(
      periodicities=periodicities, input_window_size=input_window_size, output_window_size=output_window_size,
      num_features=num_features, exogenous_feature_columns=exogenous_feature_columns,
      num_time_buckets=num_time_buckets,
      prediction_model_factory=functools.partial(ar_model.FlatPredictionModel,
                                                 hidden_layer_sizes=hidden_layer_sizes))
  if anomaly_prior_probability is None:
    return ar_model.ARModel(loss=loss, **shared)
  # As in TF 1.15, anomaly_distribution=None reaches the mixture model as None (which it refuses: AssertionError).
  return ar_model.AnomalyMixtureARModel(
      anomaly_prior_probability=anomaly_prior_probability, anomaly_distribution=anomaly_distribution, **shared)


class ARRegressor(TimeSeriesRegressor):
  """An Estimator for autoregressive models, linear or (with `hidden_layer_sizes`) not.

  The model reads windows of `input_window_size` steps and predicts the following `output_window_size`, so the
  windows of its input_fn (`RandomWindowInputFn` is the usual choice, seeded for a deterministic evaluation) must
  hold `input_window_size + output_window_size` steps.
  """

  def __init__(self, periodicities, input_window_size, output_window_size, num_features,
               exogenous_feature_columns=None, num_time_buckets=10, loss=ar_model.ARModel.NORMAL_LIKELIHOOD_LOSS,
               hidden_layer_sizes=None, anomaly_prior_probability=None, anomaly_distribution=None, optimizer=None,
               model_dir=None, config=None):
    """Builds the model and the Estimator.

    Args:
      periodicities: one period or a list of periods of the data, in the units of the times.
      input_window_size: steps of data the regression reads.
      output_window_size: steps it predicts (more than one tends to fit better).
      num_features: dimension of the series (1: univariate).
      exogenous_feature_columns: optional `tf.feature_column`s of extra inputs that are not predicted (given to
        `tf.compat.v1.feature_column.input_layer`).
      num_time_buckets: buckets of (time % period) for the periodic time features.
      loss: `ARModel.NORMAL_LIKELIHOOD_LOSS` (also trains a covariance) or `ARModel.SQUARED_LOSS` (trained on
        normalized data, evaluated on the original scale).
      hidden_layer_sizes: sizes of the prediction network's hidden layers (none: linear).
      anomaly_prior_probability: if given, an `AnomalyMixtureARModel` with this prior probability of an anomaly.
      anomaly_distribution: the anomalies' distribution, `AnomalyMixtureARModel.GAUSSIAN_ANOMALY` or
        `CAUCHY_ANOMALY`; only with `anomaly_prior_probability`, and then required (TF 1.15 documents Gaussian
        as the default but passes None on, which AnomalyMixtureARModel refuses with an AssertionError).
      optimizer: a `tf.compat.v1.train.Optimizer`; Adagrad with learning rate 0.1 by default.
      model_dir, config: as for `tf.estimator.Estimator`.

    Raises:
      ValueError: for `anomaly_distribution` without `anomaly_prior_probability`, or the mixture with a loss
        other than NORMAL_LIKELIHOOD_LOSS.
    """
    if optimizer is None:
      optimizer = tf.compat.v1.train.AdagradOptimizer(0.1)
    model = _autoregressive_model(
        periodicities, input_window_size, output_window_size, num_features, exogenous_feature_columns,
        num_time_buckets, loss, hidden_layer_sizes, anomaly_prior_probability, anomaly_distribution)
    super(ARRegressor, self).__init__(
        model=model, state_manager=state_management.FilteringOnlyStateManager(), optimizer=optimizer,
        model_dir=model_dir, config=config)


class StateSpaceRegressor(TimeSeriesRegressor):
  """An Estimator for any state space model (a `StateSpaceModel`); `ChainingStateManager` unless told otherwise."""

  def __init__(self, model, state_manager=None, optimizer=None, model_dir=None, config=None,
               head_type=ts_head_lib.TimeSeriesRegressionHead):
    """Arguments as for `TimeSeriesRegressor`; `model` must be a `StateSpaceModel` (ValueError otherwise)."""
    if not isinstance(model, state_space_model.StateSpaceModel):
      raise ValueError("StateSpaceRegressor: model must be a StateSpaceModel (a child of "
                       "state_space_model.StateSpaceModel), got {}.".format(model))
    if state_manager is None:
      state_manager = state_management.ChainingStateManager()
    super(StateSpaceRegressor, self).__init__(
        model=model, state_manager=state_manager,
        optimizer=optimizer, model_dir=model_dir, config=config, head_type=head_type)


class StructuralEnsembleRegressor(StateSpaceRegressor):
  """An Estimator for a structural time series model: level, trend, periodic and transient components.

  A state space model over a `MultiResolutionStructuralEnsemble`: a level with a local linear trend, cycles for
  the periodicities, a moving average (and optionally an autoregressive part) for mean-reverting transients;
  a multivariate series gets components per feature and full covariance matrices of observation and transition
  noise. Being sequential, one model takes any window size.

  Train on `RandomWindowInputFn` (state carries over between batches through `ChainingStateManager`: eventually
  consistent, batched for speed). Evaluate on a long window (`WholeDatasetInputFn`) or over enough random windows
  to pass over the data several times, so that stale state from training is flushed.
  """

  def __init__(self, periodicities, num_features, cycle_num_latent_values=11, moving_average_order=4,
               autoregressive_order=0, exogenous_feature_columns=None, exogenous_update_condition=None,
               dtype=tf.float64, anomaly_prior_probability=None, optimizer=None, model_dir=None, config=None,
               head_type=ts_head_lib.TimeSeriesRegressionHead):
    """Builds the ensemble and the Estimator.

    Args:
      periodicities: period(s) of the data in the units of the times (e.g. 24 for hourly data with a daily
        cycle), a scalar or a list; any real value, it does not change the model's size.
      num_features: dimension of the series (1: univariate).
      cycle_num_latent_values: latent values each cycle goes through (its resolution). The latent state has
        `num_features * (moving_average_order + cycle_num_latent_values + 3)` dimensions, and matrices of that
        size are multiplied: larger is slower.
      moving_average_order: steps before a transient deviation has reverted to the level / trend / cycles; part
        of the state size.
      autoregressive_order: previous contributions each autoregressive contribution combines (0: none); part of
        the state size; learning its coefficients wants more steps and a smaller learning rate.
      exogenous_feature_columns: optional `tf.feature_column`s of extra inputs that are not predicted (given to
        `tf.compat.v1.feature_column.input_layer`).
      exogenous_update_condition: optional function (times [batch], features {name: [batch, ...]}) -> boolean
        [batch]: where False, no exogenous update happens (None: always). Called while building the graph.
      dtype: the floating point type computed in (float32 may be faster; float64 is safer for larger models and
        longer series).
      anomaly_prior_probability: if given, the prior probability of an anomaly: the model detects anomalies and
        ignores them while filtering (a `StateInterpolatingAnomalyDetector`). None: no anomaly detection.
      optimizer: a `tf.compat.v1.train.Optimizer`; the library's default (Adam, learning rate 0.02) if None.
      model_dir, config: as for `tf.estimator.Estimator`.
      head_type: the head class (a `TimeSeriesRegressionHead` or a child, e.g. `OneShotPredictionHead`).
    """
    anomaly_detector = None
    if anomaly_prior_probability is not None:
      anomaly_detector = filtering_postprocessor_lib.StateInterpolatingAnomalyDetector(
          anomaly_prior_probability=anomaly_prior_probability)
    ensemble = structural_ensemble.MultiResolutionStructuralEnsemble(
        periodicities=periodicities, cycle_num_latent_values=cycle_num_latent_values,
        moving_average_order=moving_average_order, autoregressive_order=autoregressive_order,
        configuration=state_space_model.StateSpaceModelConfiguration(
            num_features=num_features, dtype=dtype, filtering_postprocessor=anomaly_detector,
            exogenous_feature_columns=exogenous_feature_columns,
            exogenous_update_condition=exogenous_update_condition))
    super(StructuralEnsembleRegressor, self).__init__(
        model=ensemble, optimizer=optimizer, model_dir=model_dir, config=config, head_type=head_type)
