"""`tf.contrib.timeseries`' model: the time series model base classes.

Place in the data flow (DESIGN.md): tensorflow-estimator 2.15's timeseries model (through shims.tensorflow_estimator)
<- **contrib.timeseries.model** <- ar_model, state_space_models, the state managers and heads.

What it holds: `TimeSeriesModel` and `ModelOutputs` are tensorflow-estimator 2.15's (its copy of TF 1.15's module
kept them unchanged). `SequentialTimeSeriesModel`, which the library dropped, is the base of the state space models:
a subclass says how one step goes (`_imputation_step` across a gap, `_exogenous_input_step`, `_prediction_step`,
`_filtering_step` on an observation) and this class walks a window of times with them, collecting every step's
state and outputs as [batch, window, ...] Tensors.

What is special: the walk is a `tf.while_loop`, or a Python loop when the window's static length is at most
`static_unrolling_window_size_threshold` (its steps then share variables: scope "state_update_step", reused after
the first step); either way each step runs in the variable scope "state_update_step", as in TF 1.15, so the
variables a step creates have TF 1.15's names.
"""

import abc

import tensorflow as tf

# pylint: disable=g-import-not-at-top,wrong-import-position
from tensorflow_estimator.python.estimator.canned.timeseries.feature_keys import PredictionFeatures
from tensorflow_estimator.python.estimator.canned.timeseries.feature_keys import TrainEvalFeatures
from tensorflow_estimator.python.estimator.canned.timeseries.model import ModelOutputs
from tensorflow_estimator.python.estimator.canned.timeseries.model import TimeSeriesModel

V1 = tf.compat.v1
_STEP_SCOPE = "state_update_step"


def _without(features, keys):
  return {key: value for key, value in features.items() if key not in keys}


def _last_step(window_state):
  """[batch, window, ...] states -> the [batch, ...] state of the window's last step."""
  return tf.nest.pack_sequence_as(window_state, [part[:, -1] for part in tf.nest.flatten(window_state)])


class _ListArray(object):
  """What a statically unrolled loop writes its steps to instead of a TensorArray (`write` appends)."""

  def __init__(self):
    self.values = []

  def write(self, unused_index, value):
    self.values.append(value)
    return self

  def stacked(self):
    return V1.stack(self.values, axis=1)


def _batch_major(array):
  """A while loop's TensorArray [window, batch, ...] stacked as [batch, window, ...]."""
  if isinstance(array, _ListArray):
    return array.stacked()
  stacked = array.stack()
  return V1.transpose(stacked, perm=V1.concat([[1, 0], V1.range(2, V1.rank(stacked))], 0))


class SequentialTimeSeriesModel(TimeSeriesModel):
  """A model that goes through a window one time step at a time (recurrent, generative; see StateSpaceModel).

  Subclasses implement `_filtering_step`, `_prediction_step`, `_imputation_step` and `_exogenous_input_step`, and
  may implement `_window_initializer`, `_loss_additions` and (with normalize_features=True, required)
  `_scale_back_predictions`.

  Args:
    train_output_names: the keys `_filtering_step` returns besides "loss".
    predict_output_names: the keys `_prediction_step` returns.
    num_features, dtype, exogenous_feature_columns: as for `TimeSeriesModel`.
    normalize_features: give the steps values normalized by the input statistics (the whole window at once);
      `_scale_back_predictions` must then return the outputs to the data's scale.
    exogenous_update_condition: None (always apply the exogenous update), or a function of `times` [batch] and
      `features` (the raw exogenous features at those times) returning a boolean [batch] Tensor: where False,
      the state keeps its value. Called while the graph is built.
    static_unrolling_window_size_threshold: None (always a while loop), or the longest static window length that
      is unrolled into a Python loop instead (faster steps, slower graph building).
  """

  def __init__(self, train_output_names, predict_output_names, num_features, normalize_features=False,
               dtype=tf.float32, exogenous_feature_columns=None, exogenous_update_condition=None,
               static_unrolling_window_size_threshold=None):
    super(SequentialTimeSeriesModel, self).__init__(num_features=num_features, dtype=dtype,
                                                    exogenous_feature_columns=exogenous_feature_columns)
    self._train_output_names = train_output_names
    self._predict_output_names = predict_output_names
    self._normalize_features = normalize_features
    self._exogenous_update_condition = exogenous_update_condition
    self._static_unrolling_window_size_threshold = static_unrolling_window_size_threshold

  # -- what a subclass provides ------------------------------------------------------------------------------

  def _scale_back_predictions(self, predictions):
    """The outputs dictionary, returned to the data's scale (required when normalize_features=True)."""
    raise NotImplementedError(
        "%s normalizes its input (normalize_features=True) but does not define _scale_back_predictions, which "
        "returns its predictions to the scale of the data" % type(self).__name__)

  @abc.abstractmethod
  def _filtering_step(self, current_times, current_values, state, predictions):
    """Takes the observations `current_values` [batch, ...] at `current_times` [batch] into `state`.

    `state` has been predicted to current_times; `predictions` is what `_prediction_step` returned for them.
    Returns (new state, outputs): outputs has the keys `train_output_names` and "loss" ([batch], minimized).
    """

  @abc.abstractmethod
  def _prediction_step(self, current_times, state):
    """Returns (state moved to `current_times`, outputs with the keys `predict_output_names`).

    `state` has been imputed to one step before current_times.
    """

  @abc.abstractmethod
  def _imputation_step(self, current_times, state):
    """Returns `state` carried across any gap up to (not including) `current_times` [batch]."""

  @abc.abstractmethod
  def _exogenous_input_step(self, current_times, current_exogenous_regressors, state):
    """Returns `state` (same structure and shapes) updated for the embedded exogenous features [batch, width]."""

  def _loss_additions(self, times, values, mode):
    """A scalar added to the per-observation loss of a window (a regularizer, say); 0 here."""
    del times, values, mode
    return 0.

  def _window_initializer(self, times, state):
    """Called with a window's times [batch, window] and its start state before the steps; does nothing here."""

  # -- walking a window --------------------------------------------------------------------------------------

  def get_batch_loss(self, features, mode, state):
    """ModelOutputs of a window: the per-observation loss, the last step's state, every step's outputs."""
    loss, window_state, outputs = self.per_step_batch_loss(features, mode, state)
    outputs["observed"] = features[TrainEvalFeatures.VALUES]
    return ModelOutputs(loss=loss, end_state=_last_step(window_state), predictions=outputs,
                        prediction_times=features[TrainEvalFeatures.TIMES])

  def _apply_exogenous_update(self, current_times, step_number, state, raw_features,
                              embedded_exogenous_regressors):
    """`state` after `_exogenous_input_step` at step `step_number` (where the update condition allows it)."""
    if embedded_exogenous_regressors is None:
      return state
    updated = self._exogenous_input_step(
        current_times=current_times, current_exogenous_regressors=embedded_exogenous_regressors[:, step_number, :],
        state=state)
    if self._exogenous_update_condition is None:
      return updated
    raw_now = {key: value[:, step_number] for key, value in _without(
        raw_features, (PredictionFeatures.STATE_TUPLE, TrainEvalFeatures.TIMES, TrainEvalFeatures.VALUES)).items()}
    apply = self._exogenous_update_condition(times=current_times, features=raw_now)
    return tf.nest.pack_sequence_as(state, [
        V1.where(apply, new, old) for new, old in zip(tf.nest.flatten(updated), tf.nest.flatten(state))])

  def per_step_batch_loss(self, features, mode, state):
    """Filters a window: (per-observation loss, every step's state [batch, window, ...], every step's outputs).

    `features` holds TIMES [batch, window], VALUES [batch, window, num_features] and any exogenous features;
    `state` is the [batch, ...] state before the window. The outputs are `train_output_names` (the one-step-ahead
    predictions, for instance), the loss is their "loss" summed over the window, divided by the number of
    observations, plus `_loss_additions`.
    """
    self._check_graph_initialized()
    times = V1.cast(features[TrainEvalFeatures.TIMES], dtype=tf.int64)
    values = V1.cast(features[TrainEvalFeatures.VALUES], dtype=self.dtype)
    if self._normalize_features:
      values = self._scale_data(values)
    embedded = self._process_exogenous_features(
        times=times, features=_without(features, (TrainEvalFeatures.TIMES, TrainEvalFeatures.VALUES)))

    def _filter_one_step(step_number, current_times, state):
      state = self._apply_exogenous_update(current_times=current_times, step_number=step_number, state=state,
                                           raw_features=features, embedded_exogenous_regressors=embedded)
      predicted_state, predictions = self._prediction_step(current_times=current_times, state=state)
      return self._filtering_step(current_times=current_times, current_values=values[:, step_number, :],
                                  state=predicted_state, predictions=predictions)

    window_state, outputs = self._state_update_loop(times=times, state=state, state_update_fn=_filter_one_step,
                                                    outputs=["loss"] + self._train_output_names)
    step_losses = outputs.pop("loss")  # window-level additions make its per-step values misleading
    step_losses.set_shape(times.get_shape())
    observations = V1.cast(V1.reduce_prod(V1.shape(times)), dtype=self.dtype)
    loss = V1.reduce_sum(step_losses) / observations + self._loss_additions(times, values, mode)
    if self._normalize_features:
      outputs = self._scale_back_predictions(outputs)
    return loss, window_state, outputs

  def predict(self, features):
    """`_prediction_step` over PredictionFeatures.TIMES from PredictionFeatures.STATE_TUPLE: the outputs."""
    times = V1.convert_to_tensor(features[PredictionFeatures.TIMES], tf.int64)
    embedded = self._process_exogenous_features(
        times=times, features=_without(features, (PredictionFeatures.TIMES, PredictionFeatures.STATE_TUPLE)))

    def _predict_one_step(step_number, current_times, state):
      state = self._apply_exogenous_update(current_times=current_times, step_number=step_number, state=state,
                                           raw_features=features, embedded_exogenous_regressors=embedded)
      return self._prediction_step(current_times=current_times, state=state)

    _, outputs = self._state_update_loop(times=times, state=features[PredictionFeatures.STATE_TUPLE],
                                         state_update_fn=_predict_one_step, outputs=self._predict_output_names)
    if self._normalize_features:
      outputs = self._scale_back_predictions(outputs)
    return outputs

  def _state_update_loop(self, times, state, state_update_fn, outputs):
    """Imputes to each time of `times` [batch, window] and calls `state_update_fn` there.

    `state_update_fn(step_number=, current_times=, state=)` returns (new state, {name: [batch, ...]} for every
    name in `outputs`). Returns (every step's state, {name: every step's output}), each [batch, window, ...].
    """
    times = V1.convert_to_tensor(times, dtype=tf.int64)
    static_length = V1.dimension_value(times.shape[1])
    threshold = self._static_unrolling_window_size_threshold
    unrolled = threshold is not None and static_length is not None and static_length <= threshold
    self._window_initializer(times, state)
    length = V1.shape(times)[1]

    def _new_array(dtype):
      return _ListArray() if unrolled else V1.TensorArray(dtype=dtype, size=length, dynamic_size=False)

    def _step(step_number, state, state_arrays, output_arrays, reuse=False):
      with V1.variable_scope(_STEP_SCOPE, reuse=reuse):
        current_times = times[:, step_number]
        state = self._imputation_step(current_times=current_times, state=state)
        new_state, step_outputs = state_update_fn(step_number=step_number, current_times=current_times,
                                                  state=state)
        assert set(step_outputs) == set(outputs), (sorted(step_outputs), sorted(outputs))
        output_arrays = [array.write(step_number, step_outputs[name])
                         for name, array in zip(outputs, output_arrays)]
        new_flat = tf.nest.flatten(new_state)
        assert len(new_flat) == len(state_arrays)
        for part, before in zip(new_flat, tf.nest.flatten(state)):
          part.set_shape(before.get_shape())  # a while loop wants the loop variables' shapes unchanged
        state_arrays = [array.write(step_number, part) for part, array in zip(new_flat, state_arrays)]
        return (step_number + 1, tf.nest.pack_sequence_as(state, new_flat), state_arrays, output_arrays)

    loop_state = [V1.zeros([], tf.int32), state, [_new_array(part.dtype) for part in tf.nest.flatten(state)],
                  [_new_array(self.dtype) for _ in outputs]]
    if unrolled:
      for step_number in range(static_length):
        loop_state = _step(V1.constant(step_number, tf.int32), *loop_state[1:], reuse=step_number > 0)
    else:
      loop_state = V1.while_loop(cond=lambda step_number, *unused: V1.less(step_number, length), body=_step,
                                 loop_vars=loop_state)
    _, _, state_arrays, output_arrays = loop_state
    every_state = tf.nest.pack_sequence_as(state, [_batch_major(array) for array in state_arrays])
    return every_state, {name: _batch_major(array) for name, array in zip(outputs, output_arrays)}
