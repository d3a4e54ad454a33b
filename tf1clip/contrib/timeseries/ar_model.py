"""`tf.contrib.timeseries.ARModel`: the auto-regressive time series model, with its two prediction models.

Place in the data flow (DESIGN.md): tensorflow-estimator 2.15's timeseries model base (TimeSeriesModel, ModelOutputs;
through shims.tensorflow_estimator), tf-keras' layers, contrib.rnn's fused LSTM <- **contrib.timeseries.ar_model** <-
contrib.timeseries.estimators <- compat <- cli.

What it holds: `ARModel` regresses the next `output_window_size` values of a series on the `input_window_size` values
before them, on bucketed "time within period" features and on exogenous features, through a pluggable Keras
prediction model (`FlatPredictionModel`: dense layers over the flattened windows, the default; `LSTMPredictionModel`:
an LSTM encoder over the input window and a decoder over the output window). `AnomalyMixtureARModel` trains on a
mixture of that normal likelihood and a wide anomaly likelihood (Gaussian or Cauchy).

What is special: the behaviour is TF 1.15's, number for number (tests/contrib/timeseries/test_ar_model_oracle.py and
tests/oracle/test_contrib_timeseries_oracle.py): the prediction model's variables live under the variable scope
"model/" (the trailing slash drops enclosing scopes, so training and the prediction while loop share them), evaluation
on a window longer than `window_size` covers it with non-overlapping output windows (dropping a head that does not
fit), and `predict` feeds its own predicted means back as inputs, `output_window_size` steps per loop iteration.
tensorflow-estimator 2.15 kept only an LSTM-only `ARModel` with another constructor, hence this module.
"""

import tensorflow as tf
import tf_keras.api._v1.keras as keras

# pylint: disable=g-import-not-at-top,wrong-import-position
from tensorflow_estimator.python.estimator import estimator_lib
from tensorflow_estimator.python.estimator.canned.timeseries import model
from tensorflow_estimator.python.estimator.canned.timeseries.feature_keys import PredictionFeatures
from tensorflow_estimator.python.estimator.canned.timeseries.feature_keys import TrainEvalFeatures

from tf1clip.contrib.rnn.python.ops import fused_rnn_cell as lstm_ops
from tf1clip.contrib.timeseries import math_utils

V1 = tf.compat.v1
_TRAIN = estimator_lib.ModeKeys.TRAIN
_EVAL = estimator_lib.ModeKeys.EVAL
# Feature keys that are never exogenous features (PredictionFeatures.TIMES is TrainEvalFeatures.TIMES).
_SERIES_KEYS = (TrainEvalFeatures.TIMES, TrainEvalFeatures.VALUES, PredictionFeatures.STATE_TUPLE)
_VARIANCE_FLOOR = 1e-5


def _exogenous_part(features):
  return {key: value for key, value in features.items() if key not in _SERIES_KEYS}


def _normal_nll_sigma(variance):
  return V1.sqrt(V1.maximum(variance, _VARIANCE_FLOOR))


def _per_element(total, targets, dtype):
  """`total` divided by the number of target elements (the losses are per observed value)."""
  return total / V1.cast(V1.reduce_prod(V1.shape(targets)), dtype)


class FlatPredictionModel(keras.Model):
  """ARModel's default prediction model: both windows flattened, optional ReLU layers, two dense heads.

  Called as `model(input_window_features, output_window_features)` with [batch, window, features] Tensors (static
  window and feature sizes; the input window may have no steps, the output window no features); returns
  {"mean", "covariance"} (the covariance diagonal, exp of the second head), each [batch, output window, features].
  """

  def __init__(self, num_features, input_window_size, output_window_size, hidden_layer_sizes=None):
    super(FlatPredictionModel, self).__init__()
    del input_window_size  # the layers take their input sizes when first called
    self._flatten_past = keras.layers.Flatten()
    self._flatten_future = keras.layers.Flatten()
    self._hidden = None
    if hidden_layer_sizes:
      self._hidden = keras.Sequential([keras.layers.Dense(units, activation=V1.nn.relu)
                                       for units in hidden_layer_sizes])
    width = num_features * output_window_size
    self._mean_head = keras.layers.Dense(width, name="predicted_mean")
    self._log_variance_head = keras.layers.Dense(width, name="log_sigma_square")
    self._window_shape = [-1, output_window_size, num_features]

  def call(self, input_window_features, output_window_features):
    flat = []
    if input_window_features.shape.dims[1].value != 0:
      flat.append(self._flatten_past(input_window_features))
    # Flattening a zero-size window loses the static width Dense needs, so an empty part is left out (unless both
    # are empty).
    if not flat or output_window_features.shape.dims[2].value != 0:
      flat.append(self._flatten_future(output_window_features))
    features = flat[0] if len(flat) == 1 else V1.concat(flat, axis=1)
    if self._hidden:
      features = self._hidden(features)
    return {"mean": V1.reshape(self._mean_head(features), self._window_shape),
            "covariance": V1.reshape(V1.exp(self._log_variance_head(features)), self._window_shape)}


class LSTMPredictionModel(keras.Model):
  """An ARModel prediction model: an LSTM reads the input window, a second one continues over the output window.

  Both are contrib.rnn's LSTMBlockFusedCell ("encoder", "decoder", `num_units` each); dense layers map the decoder's
  outputs to the mean and the log of the variance. Same call and result as `FlatPredictionModel`.
  """

  def __init__(self, num_features, input_window_size, output_window_size, num_units=128):
    super(LSTMPredictionModel, self).__init__()
    del input_window_size, output_window_size  # the cells run over whatever length they are given
    self._encoder = lstm_ops.LSTMBlockFusedCell(num_units=num_units, name="encoder")
    self._decoder = lstm_ops.LSTMBlockFusedCell(num_units=num_units, name="decoder")
    self._mean_head = keras.layers.Dense(num_features, name="mean_transform")
    self._log_variance_head = keras.layers.Dense(num_features, name="covariance_transform")

  def call(self, input_window_features, output_window_features):
    time_major = [1, 0, 2]  # the fused cells want [time, batch, depth]
    _, carried = self._encoder(V1.transpose(input_window_features, time_major), dtype=self.dtype)
    decoded, _ = self._decoder(V1.transpose(output_window_features, time_major), dtype=self.dtype,
                               initial_state=carried)
    decoded = V1.transpose(decoded, time_major)
    return {"mean": self._mean_head(decoded), "covariance": V1.exp(self._log_variance_head(decoded))}


class ARModel(model.TimeSeriesModel):
  """Auto-regressive model (linear or not) on past values, time-of-period buckets and exogenous features.

  A window is `input_window_size` observed steps followed by `output_window_size` steps to predict. Each period p in
  `periodicities` contributes `num_time_buckets` features: with b = (t mod p) * num_time_buckets / p, the feature of
  bucket k is b - k when k <= b < k + 1, else 0. So with periodicities (9, 12) and 3 buckets, t = 17 gives
  (0, 0, 2) for period 9 (17 mod 9 = 8 -> b = 8/3) and (0, 1.25, 0) for period 12 (b = 5/4). These features and
  the exogenous ones are given for both windows, the values for the input window only; the prediction model
  (`prediction_model_factory(num_features=, input_window_size=, output_window_size=)`, `FlatPredictionModel` by
  default) returns the output window's means and variances. `input_window_size=0` regresses on time alone.

  Losses: NORMAL_LIKELIHOOD_LOSS (the Gaussian negative log likelihood, training the variances too) or
  SQUARED_LOSS; both per observed value on normalized data (an evaluation with SQUARED_LOSS reports it on the
  original scale).
  """
  SQUARED_LOSS = "squared_loss"
  NORMAL_LIKELIHOOD_LOSS = "normal_likelihood_loss"

  def __init__(self, periodicities, input_window_size, output_window_size, num_features,
               prediction_model_factory=FlatPredictionModel, num_time_buckets=10, loss=NORMAL_LIKELIHOOD_LOSS,
               exogenous_feature_columns=None):
    self._model_factory = prediction_model_factory
    self.input_window_size = input_window_size
    self.output_window_size = output_window_size
    self.window_size = input_window_size + output_window_size
    self.loss = loss
    super(ARModel, self).__init__(num_features=num_features, exogenous_feature_columns=exogenous_feature_columns)
    self.exogenous_size = (0 if exogenous_feature_columns is None
                           else self._get_exogenous_embedding_shape()[-1])
    # TF 1.15 checks its arguments with assert statements (AssertionError); so does this, naming the argument.
    assert num_time_buckets > 0, "ARModel: num_time_buckets must be positive, got %r" % (num_time_buckets,)
    self._buckets = int(num_time_buckets)
    if not periodicities:
      periodicities = []
    elif not isinstance(periodicities, (list, tuple)):
      periodicities = [periodicities]
    self._periodicities = [int(period) for period in periodicities]
    assert all(period > 0 for period in self._periodicities), (
        "ARModel: every periodicity must be positive, got %r" % (periodicities,))
    assert self._periodicities or self.input_window_size, (
        "ARModel: with input_window_size=0 there must be periodicities to regress on")
    assert output_window_size > 0, "ARModel: output_window_size must be positive, got %r" % (output_window_size,)

  def initialize_graph(self, input_statistics=None):
    super(ARModel, self).initialize_graph(input_statistics=input_statistics)
    # Absolute scope name: the prediction model is called both inside predict's while loop and outside it.
    self._model_scope = V1.variable_scope("model/", use_resource=True)
    self._model_instance = self._model_factory(num_features=self.num_features,
                                               input_window_size=self.input_window_size,
                                               output_window_size=self.output_window_size)

  def get_start_state(self):
    """(times, values, exogenous features) of the last input window: zeros, shaped as later states are."""
    lookback = self.input_window_size
    return (V1.zeros([lookback], dtype=tf.int64), V1.zeros([lookback, self.num_features], dtype=self.dtype),
            V1.zeros([lookback, self.exogenous_size], dtype=self.dtype))

  def random_model_parameters(self, seed=None):
    """Not implemented for ARModel (as in TF 1.15): returns None."""

  def generate(self, number_of_series, series_length, model_parameters=None, seed=None):
    """Not implemented for ARModel (as in TF 1.15): returns None."""

  # -- the regression on one window --------------------------------------------------------------------------

  def _compute_time_features(self, time):
    """[batch, steps, periods, buckets] features of integer `time` [batch, steps] (see the class docstring)."""
    periods = V1.constant(self._periodicities, shape=[1, 1, len(self._periodicities), 1], dtype=time.dtype)
    time = V1.reshape(time, [V1.shape(time)[0], -1, 1, 1])
    position = V1.cast(time % periods, self.dtype) * self._buckets / V1.cast(periods, self.dtype)
    bucket_starts = V1.reshape(V1.range(self._buckets, dtype=self.dtype), [1, 1, 1, self._buckets])
    offset = V1.nn.relu(position - bucket_starts)
    return tf.where(offset < 1.0, offset, V1.zeros_like(offset))

  def prediction_ops(self, times, values, exogenous_regressors):
    """The prediction model's {"mean", "covariance"} ([batch, output window, features]) for windows of data.

    `times` is [batch, window_size] (input window then output window), `values` the input window's values
    [batch, input_window_size, num_features] (unused when input_window_size is 0), `exogenous_regressors`
    [batch, window_size, exogenous_size].
    """
    lookback, horizon = self.input_window_size, self.output_window_size
    times.get_shape().assert_is_compatible_with([None, self.window_size])
    if lookback:
      values.get_shape().assert_is_compatible_with([None, lookback, self.num_features])
    if exogenous_regressors is not None:
      exogenous_regressors.get_shape().assert_is_compatible_with([None, self.window_size, self.exogenous_size])
    batch = V1.shape(times)[0]
    past, future = [], []  # (Tensor, width) pieces of each window's features, concatenated on the last axis
    if self._periodicities:
      width = self._buckets * len(self._periodicities)
      buckets = V1.reshape(self._compute_time_features(times), [batch, self.window_size, width])
      past_buckets, future_buckets = V1.split(buckets, (lookback, horizon), axis=1)
      past.append((past_buckets, width))
      future.append((future_buckets, width))
    if lookback:
      past.append((V1.reshape(values[:, :lookback], [batch, lookback, self.num_features]), self.num_features))
    if self.exogenous_size:
      past_exogenous, future_exogenous = V1.split(exogenous_regressors, (lookback, horizon), axis=1)
      past.append((past_exogenous, self.exogenous_size))
      future.append((future_exogenous, self.exogenous_size))
    static_batch = times.get_shape().dims[0].value

    def _joined(pieces, steps):
      if pieces:
        joined = V1.concat([tensor for tensor, _ in pieces], axis=2)
      else:
        joined = V1.zeros([batch, steps, 0], dtype=self.dtype)
      joined.set_shape([static_batch, steps, sum(width for _, width in pieces)])
      return joined

    past_features, future_features = _joined(past, lookback), _joined(future, horizon)
    with self._model_scope:
      predictions = self._model_instance(past_features, future_features)
      for tensor in predictions.values():
        tensor.set_shape([None, horizon, self.num_features])
    return predictions

  def loss_op(self, targets, prediction_ops):
    """The loss per target value: Gaussian negative log likelihood, or the squared error."""
    mean = prediction_ops["mean"]
    if self.loss == ARModel.NORMAL_LIKELIHOOD_LOSS:
      sigma = _normal_nll_sigma(prediction_ops["covariance"])
      total = -V1.reduce_sum(math_utils.normal_log_prob(targets, sigma, mean))
    else:
      assert self.loss == ARModel.SQUARED_LOSS, self.loss
      total = V1.reduce_sum(V1.squared_difference(mean, targets))
    return _per_element(total, targets, total.dtype)

  def _process_exogenous_features(self, times, features):
    embedded = super(ARModel, self)._process_exogenous_features(times=times, features=features)
    if embedded is not None:
      return embedded
    assert self.exogenous_size == 0
    # No exogenous features: a [batch, steps, 0] Tensor keeps the code downstream free of special cases.
    return V1.zeros(V1.concat([V1.shape(times), V1.constant([0])], axis=0))

  def _process_window(self, features, mode, exogenous_regressors):
    """ModelOutputs of one window of exactly window_size steps."""
    times = V1.cast(features[TrainEvalFeatures.TIMES], tf.int64)
    raw_values = V1.cast(features[TrainEvalFeatures.VALUES], dtype=self.dtype)
    exogenous = V1.cast(exogenous_regressors, dtype=self.dtype)
    lookback, horizon = self.input_window_size, self.output_window_size
    if not times.get_shape().is_compatible_with([None, self.window_size]):
      raise ValueError(
          "ARModel(input_window_size=%d, output_window_size=%d) works on windows of %d steps: feature '%s' must "
          "have shape (batch_size, %d), got %s (with RandomWindowInputFn, pass window_size=%d or change the two "
          "window sizes of the ARModel)" % (lookback, horizon, self.window_size, TrainEvalFeatures.TIMES,
                                            self.window_size, times.get_shape(), self.window_size))
    values = self._scale_data(raw_values)
    predictions = self.prediction_ops(times, values[:, :lookback] if lookback else None, exogenous)
    targets = values[:, lookback:]
    targets.get_shape().assert_is_compatible_with(predictions["mean"].get_shape())
    if mode == _EVAL and self.loss == ARModel.SQUARED_LOSS:
      # Evaluation reports the squared error of the original values; training stays on normalized data.
      loss = self.loss_op(self._scale_back_data(targets), {"mean": self._scale_back_data(predictions["mean"])})
    else:
      loss = self.loss_op(targets, predictions)
    return model.ModelOutputs(
        loss=loss,
        end_state=(times[:, -lookback:], values[:, -lookback:, :], exogenous[:, -lookback:, :]),
        predictions={"mean": self._scale_back_data(predictions["mean"]),
                     "covariance": self._scale_back_variance(predictions["covariance"]),
                     "observed": raw_values[:, -horizon:]},
        prediction_times=times[:, -horizon:])

  def get_batch_loss(self, features, mode, state):
    """ModelOutputs for a batch of windows.

    TRAIN needs windows of exactly `window_size` steps (no state is carried). EVAL takes windows of at least
    `window_size` steps and covers the longest tail that is a whole number of output windows with non-overlapping
    output windows (for in-sample plots; quantitative evaluation is better on training-sized windows); the state
    returned is the last input window, `state` filling in what a short window lacks.
    """
    features = {key: V1.convert_to_tensor(value) for key, value in features.items()}
    times = features[TrainEvalFeatures.TIMES]
    exogenous = self._process_exogenous_features(times=times, features=_exogenous_part(features))
    if mode == _TRAIN:
      return self._process_window(features, mode=mode, exogenous_regressors=exogenous)
    if mode != _EVAL:
      raise ValueError("ARModel.get_batch_loss: mode must be TRAIN or EVAL, got '%s'" % (mode,))
    return self._evaluate_windows(features, times, exogenous, state)

  def _evaluate_windows(self, features, times, exogenous, state):
    lookback, horizon = self.input_window_size, self.output_window_size
    times.get_shape().assert_has_rank(2)
    static_length = times.get_shape().dims[1].value
    if static_length is not None and static_length < self.window_size:
      raise ValueError(
          "ARModel evaluates on windows of at least input_window_size + output_window_size = %d + %d steps; "
          "feature '%s' has shape %s (batch size, window size)" % (lookback, horizon, TrainEvalFeatures.TIMES,
                                                                   times.get_shape()))
    windows = (V1.shape(times)[1] - lookback) // horizon
    covered = windows * horizon
    features = {key: value[:, -(covered + lookback):] for key, value in features.items()}

    def _more(step, *unused_arrays):
      return step < windows

    def _one_window(step, losses, means, variances):
      # The windows do not depend on each other: no state flows between iterations.
      first = step * horizon
      outputs = self._process_window(
          features={key: value[:, first:first + self.window_size] for key, value in features.items()},
          mode=_EVAL,
          # As in TF 1.15, the exogenous features are indexed from the start of the uncropped window.
          exogenous_regressors=exogenous[:, first:first + self.window_size])
      assert sorted(outputs.predictions) == ["covariance", "mean", "observed"]
      return (step + 1, losses.write(step, outputs.loss), means.write(step, outputs.predictions["mean"]),
              variances.write(step, outputs.predictions["covariance"]))

    arrays = [V1.TensorArray(dtype=self.dtype, size=windows) for _ in range(3)]
    _, losses, means, variances = V1.while_loop(_more, _one_window, [0] + arrays)
    values = V1.cast(features[TrainEvalFeatures.VALUES], dtype=self.dtype)
    flat_shape = [V1.shape(times)[0], covered, self.num_features]

    def _batch_major(array):
      return V1.reshape(V1.transpose(array.stack(), [1, 0, 2, 3]), flat_shape)

    return model.ModelOutputs(
        loss=V1.reduce_mean(losses.stack(), axis=0),
        end_state=self._last_input_window(state, times, self._scale_data(values), exogenous),
        predictions={"mean": _batch_major(means), "covariance": _batch_major(variances),
                     "observed": values[:, -covered:]},
        prediction_times=times[:, -covered:])

  def _last_input_window(self, state, times, scaled_values, exogenous):
    """The last input_window_size steps of `state` followed by this window (all of `state` when that is 0)."""
    lookback = self.input_window_size
    if not lookback:
      return state
    previous_times, previous_values, previous_exogenous = state
    new_times = V1.concat([previous_times, V1.cast(times, dtype=tf.int64)], axis=1)[:, -lookback:]
    new_values = V1.concat([previous_values, scaled_values], axis=1)[:, -lookback:, :]
    new_exogenous = V1.concat([previous_exogenous, exogenous], axis=1)[:, -lookback:, :]
    new_times.set_shape((None, lookback))
    new_values.set_shape((None, lookback, self.num_features))
    new_exogenous.set_shape((None, lookback, self.exogenous_size))
    return (new_times, new_values, new_exogenous)

  # -- predicting ahead --------------------------------------------------------------------------------------

  def predict(self, features):
    """{"mean", "covariance"} [batch, steps, num_features] at the times PredictionFeatures.TIMES [batch, steps].

    PredictionFeatures.STATE_TUPLE holds (times, values, exogenous features) of at least input_window_size steps
    before them (an evaluation's or a filtering's end state); exogenous features come with the shape of TIMES.
    Each loop iteration predicts output_window_size steps and shifts its means into the next input window.
    """
    if not self._graph_initialized:
      self.initialize_graph()
    lookback, horizon = self.input_window_size, self.output_window_size
    times = V1.cast(V1.convert_to_tensor(features[PredictionFeatures.TIMES]), tf.int32)
    exogenous = self._process_exogenous_features(times=times, features=_exogenous_part(features))
    with V1.control_dependencies([V1.assert_equal(V1.shape(times)[1], V1.shape(exogenous)[1])]):
      exogenous = V1.identity(exogenous)
    batch, wanted = V1.shape(times)[0], V1.shape(times)[1]
    rounds = (wanted + horizon - 1) // horizon
    # Pad to a whole number of output windows; the padding's predictions are cut off at the end.
    padding = rounds * horizon - wanted
    times = V1.pad(times, [[0, 0], [0, padding]])
    exogenous = V1.pad(exogenous, [[0, 0], [0, padding], [0, 0]])
    known_times, known_values, known_exogenous = features[PredictionFeatures.STATE_TUPLE]
    known_times = V1.cast(V1.convert_to_tensor(known_times), tf.int32)
    known_values = V1.convert_to_tensor(known_values, dtype=self.dtype)
    known_exogenous = V1.convert_to_tensor(known_exogenous, dtype=self.dtype)

    window_times = times[:, :horizon]
    window_exogenous = exogenous[:, :horizon, :]
    window_values = 0  # while_loop takes no None
    if lookback:
      window_times = V1.concat([known_times[:, -lookback:], window_times], 1)
      with V1.control_dependencies([V1.assert_greater_equal(V1.shape(known_values)[1], lookback),
                                    V1.assert_equal(V1.shape(known_values)[1], V1.shape(known_times)[1])]):
        window_values = known_values[:, -lookback:, :]
        window_exogenous = V1.concat([known_exogenous[:, -lookback:, :], window_exogenous], axis=1)
    times_shape, exogenous_shape = window_times.get_shape(), window_exogenous.get_shape()
    keep_variances = self.loss != ARModel.SQUARED_LOSS

    def _more(step, *unused_state):
      return V1.less(step, rounds)

    def _one_round(step, input_times, input_values, input_exogenous, means, variances):
      predicted = self.prediction_ops(input_times, input_values, input_exogenous)
      # The next output window (the last round re-reads its own, whose result is not used).
      start = horizon * V1.minimum(step + 1, rounds - 1)
      next_times = times[:, start:start + horizon]
      next_exogenous = exogenous[:, start:start + horizon, :]
      if lookback:
        next_times = V1.concat([input_times[:, -lookback:], next_times], 1)
        next_exogenous = V1.concat([input_exogenous[:, -lookback:, :], next_exogenous], axis=1)
        input_values = V1.concat([input_values, predicted["mean"]], 1)[:, -lookback:, :]
      next_times.set_shape(times_shape)
      next_exogenous.set_shape(exogenous_shape)
      if keep_variances:
        variances = variances.write(step, predicted["covariance"])
      return (step + 1, next_times, input_values, next_exogenous, means.write(step, predicted["mean"]), variances)

    _, _, _, _, means, variances = V1.while_loop(_more, _one_round, [
        0, window_times, window_values, window_exogenous, V1.TensorArray(dtype=self.dtype, size=rounds),
        V1.TensorArray(dtype=self.dtype, size=rounds) if keep_variances else 0.])

    def _unrolled(array):  # [rounds, batch, horizon, features] -> [batch, steps wanted, features]
      joined = V1.reshape(V1.transpose(array.stack(), [1, 0, 2, 3]), V1.stack([batch, rounds * horizon, -1]))
      return joined[:, :wanted, :]

    mean = _unrolled(means)
    variance = _unrolled(variances) if keep_variances else V1.ones_like(mean)
    return {"mean": self._scale_back_data(mean), "covariance": self._scale_back_variance(variance)}


class AnomalyMixtureARModel(ARModel):
  """ARModel whose likelihood mixes the normal one with an anomaly distribution of prior weight p.

  The anomaly distribution (GAUSSIAN_ANOMALY: a normal with a learned variance; CAUCHY_ANOMALY: a Cauchy with a
  learned scale; centred on the predicted mean either way) has one parameter, exp of the variable
  "anomaly_log_param" (initially 0). Only the loss changes: anomalous inputs still feed the predictions.
  """

  GAUSSIAN_ANOMALY = "gaussian"
  CAUCHY_ANOMALY = "cauchy"

  def __init__(self, periodicities, anomaly_prior_probability, input_window_size, output_window_size, num_features,
               prediction_model_factory=FlatPredictionModel, anomaly_distribution=GAUSSIAN_ANOMALY,
               num_time_buckets=10, exogenous_feature_columns=None):
    assert 0.0 < anomaly_prior_probability < 1.0, (
        "AnomalyMixtureARModel: anomaly_prior_probability must lie in (0, 1), got %r" % (anomaly_prior_probability,))
    assert anomaly_distribution in (self.GAUSSIAN_ANOMALY, self.CAUCHY_ANOMALY), (
        "AnomalyMixtureARModel: anomaly_distribution must be %r or %r, got %r"
        % (self.GAUSSIAN_ANOMALY, self.CAUCHY_ANOMALY, anomaly_distribution))
    self._anomaly_prior_probability = anomaly_prior_probability
    self._anomaly_distribution = anomaly_distribution
    super(AnomalyMixtureARModel, self).__init__(
        periodicities=periodicities, input_window_size=input_window_size, output_window_size=output_window_size,
        num_features=num_features, prediction_model_factory=prediction_model_factory,
        num_time_buckets=num_time_buckets, loss=ARModel.NORMAL_LIKELIHOOD_LOSS,
        exogenous_feature_columns=exogenous_feature_columns)

  def prediction_ops(self, times, values, exogenous_regressors):
    predictions = super(AnomalyMixtureARModel, self).prediction_ops(times, values, exogenous_regressors)
    log_parameter = V1.get_variable("anomaly_log_param", shape=[], dtype=self.dtype,
                                    initializer=V1.zeros_initializer())
    predictions["anomaly_params"] = V1.exp(log_parameter)  # the variance (Gaussian) or the scale (Cauchy)
    return predictions

  def loss_op(self, targets, prediction_ops):
    mean = prediction_ops["mean"]
    prior = self._anomaly_prior_probability
    normal = (math_utils.normal_log_prob(targets, _normal_nll_sigma(prediction_ops["covariance"]), mean)
              + V1.log(1 - prior))
    spread = prediction_ops["anomaly_params"]
    if self._anomaly_distribution == self.GAUSSIAN_ANOMALY:
      anomaly = math_utils.normal_log_prob(targets, _normal_nll_sigma(spread), mean)
    else:
      anomaly = math_utils.cauchy_log_prob(targets, spread, mean)
    anomaly += V1.log(prior)
    # log(exp(a) + exp(b)) as max + log(1 + exp(min - max)), which cannot overflow.
    low, high = V1.minimum(normal, anomaly), V1.maximum(normal, anomaly)
    mixed = high + V1.log(1 + V1.exp(low - high))
    return _per_element(-V1.reduce_sum(mixed), targets, self.dtype)
