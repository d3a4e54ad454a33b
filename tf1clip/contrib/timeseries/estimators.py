"""`tf.contrib.timeseries`' Estimators: TimeSeriesRegressor, ARRegressor (and the state space regressors).

Place in the data flow (DESIGN.md): tensorflow-estimator 2.15's timeseries TimeSeriesRegressor and heads (through
compat.estimator_shim), contrib.timeseries.ar_model <- **contrib.timeseries.estimators** <- compat <- cli.

`TimeSeriesRegressor` is tensorflow-estimator 2.15's class (TF 1.15's code, kept there: the head's model_fn, the
serving input receivers) with one thing put back: for TF 1.15's `ARModel` (ours; the library's check knows only its
own LSTM ARModel) the default state manager is `FilteringOnlyStateManager`, as in TF 1.15. `ARRegressor` is TF
1.15's: an `ARModel` (or `AnomalyMixtureARModel`) over `FlatPredictionModel`, trained by Adagrad(0.1).
"""

import functools

import tensorflow as tf

from tf1clip.compat import estimator_shim

estimator_shim.apply()  # tensorflow-estimator 2.15 reads internals the shim puts back

# pylint: disable=g-import-not-at-top,wrong-import-position
from tensorflow_estimator.python.estimator.canned.timeseries import estimators as _estimators
from tensorflow_estimator.python.estimator.canned.timeseries import head as ts_head_lib
from tensorflow_estimator.python.estimator.canned.timeseries import state_management

from tf1clip.contrib.timeseries import ar_model

V1 = tf.compat.v1


class TimeSeriesRegressor(_estimators.TimeSeriesRegressor):
  """An Estimator to fit and evaluate a time series model (tensorflow-estimator 2.15's, TF 1.15's defaults)."""

  def __init__(self, model, state_manager=None, optimizer=None, model_dir=None, config=None,
               head_type=ts_head_lib.TimeSeriesRegressionHead):
    if state_manager is None and isinstance(model, ar_model.ARModel):
      state_manager = state_management.FilteringOnlyStateManager()
    super(TimeSeriesRegressor, self).__init__(
        model=model, state_manager=state_manager, optimizer=optimizer, model_dir=model_dir, config=config,
        head_type=head_type)


class ARRegressor(TimeSeriesRegressor):
  """An Estimator for an (optionally non-linear) autoregressive model.

  ARRegressor is a window-based model, inputting fixed windows of length
  `input_window_size` and outputting fixed windows of length
  `output_window_size`. These two parameters must add up to the window_size
  passed to the `Chunker` used to create an `input_fn` for training or
  evaluation. `RandomWindowInputFn` is suggested for both training and
  evaluation, although it may be seeded for deterministic evaluation.
  """

  def __init__(self,
               periodicities,
               input_window_size,
               output_window_size,
               num_features,
               exogenous_feature_columns=None,
               num_time_buckets=10,
               loss=ar_model.ARModel.NORMAL_LIKELIHOOD_LOSS,
               hidden_layer_sizes=None,
               anomaly_prior_probability=None,
               anomaly_distribution=None,
               optimizer=None,
               model_dir=None,
               config=None):
    """Initialize the Estimator.

    Args:
      periodicities: periodicities of the input data, in the same units as the
        time feature. Note this can be a single value or a list of values for
        multiple periodicities.
      input_window_size: Number of past time steps of data to look at when doing
        the regression.
      output_window_size: Number of future time steps to predict. Note that
        setting it to > 1 empirically seems to give a better fit.
      num_features: The dimensionality of the time series (one for univariate,
        more than one for multivariate).
      exogenous_feature_columns: A list of `tf.feature_column`s (for example
        `tf.feature_column.embedding_column`) corresponding to exogenous
        features which provide extra information to the model but are not part
        of the series to be predicted. Passed to
        `tf.compat.v1.feature_column.input_layer`.
      num_time_buckets: Number of buckets into which to divide (time %
        periodicity) for generating time based features.
      loss: Loss function to use for training. Currently supported values are
        SQUARED_LOSS and NORMAL_LIKELIHOOD_LOSS. Note that for
        NORMAL_LIKELIHOOD_LOSS, we train the covariance term as well. For
        SQUARED_LOSS, the evaluation loss is reported based on un-scaled
        observations and predictions, while the training loss is computed on
        normalized data.
      hidden_layer_sizes: list of sizes of hidden layers.
      anomaly_prior_probability: If specified, constructs a mixture model under
        which anomalies (modeled with `anomaly_distribution`) have this prior
        probability. See `AnomalyMixtureARModel`.
      anomaly_distribution: May not be specified unless
        anomaly_prior_probability is specified and is not None. Controls the
        distribution of anomalies under the mixture model. Currently either
        `ar_model.AnomalyMixtureARModel.GAUSSIAN_ANOMALY` or
        `ar_model.AnomalyMixtureARModel.CAUCHY_ANOMALY`. See
        `AnomalyMixtureARModel`. Defaults to `GAUSSIAN_ANOMALY`.
      optimizer: The optimization algorithm to use when training, inheriting
        from tf.train.Optimizer. Defaults to Adagrad with step size 0.1.
      model_dir: See `Estimator`.
      config: See `Estimator`.

    Raises:
      ValueError: For invalid combinations of arguments.
    """
    if optimizer is None:
      optimizer = V1.train.AdagradOptimizer(0.1)
    if anomaly_prior_probability is None and anomaly_distribution is not None:
      raise ValueError("anomaly_prior_probability is required if "
                       "anomaly_distribution is specified.")
    if anomaly_prior_probability is None:
      if anomaly_distribution is None:
        anomaly_distribution = ar_model.AnomalyMixtureARModel.GAUSSIAN_ANOMALY
      model = ar_model.ARModel(
          periodicities=periodicities,
          num_features=num_features,
          prediction_model_factory=functools.partial(
              ar_model.FlatPredictionModel,
              hidden_layer_sizes=hidden_layer_sizes),
          exogenous_feature_columns=exogenous_feature_columns,
          num_time_buckets=num_time_buckets,
          input_window_size=input_window_size,
          output_window_size=output_window_size,
          loss=loss)
    else:
      if loss != ar_model.ARModel.NORMAL_LIKELIHOOD_LOSS:
        raise ValueError(
            "AnomalyMixtureARModel only supports "
            "ar_model.ARModel.NORMAL_LIKELIHOOD_LOSS for its loss argument.")
      model = ar_model.AnomalyMixtureARModel(
          periodicities=periodicities,
          input_window_size=input_window_size,
          output_window_size=output_window_size,
          num_features=num_features,
          prediction_model_factory=functools.partial(
              ar_model.FlatPredictionModel,
              hidden_layer_sizes=hidden_layer_sizes),
          exogenous_feature_columns=exogenous_feature_columns,
          num_time_buckets=num_time_buckets,
          anomaly_prior_probability=anomaly_prior_probability,
          anomaly_distribution=anomaly_distribution)
    state_manager = state_management.FilteringOnlyStateManager()
    super(ARRegressor, self).__init__(
        model=model,
        state_manager=state_manager,
        optimizer=optimizer,
        model_dir=model_dir,
        config=config)
