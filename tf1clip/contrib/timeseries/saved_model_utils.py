"""`tf.contrib.timeseries.saved_model_utils`: predicting and filtering with a time series SavedModel in a Session.

Place in the data flow (DESIGN.md): a SavedModel written by a TimeSeriesRegressor's `export_saved_model` (its
build_raw_serving_input_receiver_fn), loaded by `tf.saved_model.loader.load` <-
**contrib.timeseries.saved_model_utils** <- a script's serving code.

Three functions, each one `session.run` of one of the exported signatures (named by
`feature_keys.SavedModelLabels`): `predict_continuation` ("serving_default": predictions from a model state),
`cold_start_filter` ("cold_start_filter": a state from observations alone) and `filter_continuation` ("filter": a
state from an earlier state and new observations). A state is either an Estimator's evaluation (its
`FilteringResults.STATE_TUPLE` is flattened to the signature's state inputs, as TF 1.15's head names them) or what
a filter function returned (fed as it is). The filter functions add the observed times
(`FilteringResults.TIMES`) to their result, and `predict_continuation` the predicted times, so the calls chain.

Why ours: tensorflow-estimator 2.15 keeps a copy of this module whose module-wide `remove_undocumented` also
deletes its `numpy` import, so its `cold_start_filter` and `filter_continuation` raise NameError. The NumPy
observations follow input_pipeline's shape rules (a step, a series or a batch of series).
"""

from tensorflow_estimator.python.estimator.canned.timeseries import feature_keys as _feature_keys
from tensorflow_estimator.python.estimator.canned.timeseries import head as _head
from tensorflow_estimator.python.estimator.canned.timeseries import model_utils as _model_utils

from tf1clip.contrib.timeseries import input_pipeline as _input_pipeline

_LABELS = _feature_keys.SavedModelLabels


def _state_inputs(continue_from):
  """The signature inputs that carry a state: from an evaluation, from a filter call, or none (cold start)."""
  if continue_from is None:
    return {}
  state_tuple = _feature_keys.FilteringResults.STATE_TUPLE
  if state_tuple in continue_from:
    return _head.state_to_dictionary(continue_from[state_tuple])
  return continue_from


def _run_signature(session, signatures, label, features, continue_from=None):
  """Feeds the state of `continue_from` and then `features` to the signature `label`; returns its outputs."""
  signature = signatures.signature_def[label]
  graph = session.graph
  inputs = {key: graph.as_graph_element(tensor.name) for key, tensor in signature.inputs.items()}
  feed_dict = {}
  for source in (_state_inputs(continue_from), features):
    for key, value in source.items():
      feed_dict[inputs[key]] = value
  outputs = {key: graph.as_graph_element(tensor.name) for key, tensor in signature.outputs.items()}
  return session.run(outputs, feed_dict=feed_dict)


def predict_continuation(continue_from, signatures, session, steps=None, times=None, exogenous_features=None):
  """Predicts from a loaded SavedModel, carrying on from a state (what predict_continuation_input_fn does for an
  Estimator's `predict`).

  Args:
    continue_from: an Estimator's `evaluate` result, or what `cold_start_filter` / `filter_continuation`
      returned, for the same model.
    signatures: the `MetaGraphDef` that `tf.compat.v1.saved_model.loader.load` returned.
    session: the Session the model was loaded into.
    steps: how many steps after `continue_from` to predict. Exactly one of `steps` and `times` is given.
    times: the (integer, NumPy) times to predict, after `continue_from`'s: [batch, window], or [window] for a
      batch of one.
    exogenous_features: optional dictionary of exogenous features for the predicted steps, [batch, window, ...].

  Returns:
    The model's predictions (typically "mean" and "covariance") and `PredictionResults.TIMES`, the times predicted.

  Raises:
    ValueError: if `steps` and `times` are both given, neither is, or they do not fit `continue_from`.
  """
  predicted_times = _model_utils.canonicalize_times_or_steps_from_output(
      times=times, steps=steps, previous_model_output=continue_from)
  features = {_feature_keys.PredictionFeatures.TIMES: predicted_times}
  features.update(exogenous_features or {})
  predictions = _run_signature(session, signatures, _LABELS.PREDICT, features, continue_from)
  predictions[_feature_keys.PredictionResults.TIMES] = features[_feature_keys.PredictionFeatures.TIMES]
  return predictions


def _filter(label, continue_from, signatures, session, features):
  # input_pipeline's NumPy shape rules; the function is private there, shared with this module only
  observations = _input_pipeline._canonicalize_numpy_data(  # pylint: disable=protected-access
      data=features, require_single_batch=False)
  state = _run_signature(session, signatures, label, observations, continue_from)
  state[_feature_keys.FilteringResults.TIMES] = observations[_feature_keys.FilteringFeatures.TIMES]
  return state


def cold_start_filter(signatures, session, features):
  """Filters observations with a loaded SavedModel, from the model's uninformed start state.

  Args:
    signatures: the `MetaGraphDef` that `tf.compat.v1.saved_model.loader.load` returned.
    session: the Session the model was loaded into.
    features: dictionary of NumPy arrays with `FilteringFeatures.TIMES` and `FilteringFeatures.VALUES` (and any
      exogenous feature): one step (scalar times), one series ([length]) or a batch ([batch, length]); every
      shape starts with the times' shape.

  Returns:
    The state after the observations (pass it to `predict_continuation` or `filter_continuation`), with
    `FilteringResults.TIMES`.
  """
  return _filter(_LABELS.COLD_START_FILTER, None, signatures, session, features)


def filter_continuation(continue_from, signatures, session, features):
  """Filters observations with a loaded SavedModel, starting from an earlier state.

  Args:
    continue_from: an Estimator's `evaluate` result or an earlier filter call's result, for the same model.
    signatures: the `MetaGraphDef` that `tf.compat.v1.saved_model.loader.load` returned.
    session: the Session the model was loaded into.
    features: the new observations, as for `cold_start_filter`.

  Returns:
    The state after the observations, with `FilteringResults.TIMES`.
  """
  return _filter(_LABELS.FILTER, continue_from, signatures, session, features)
