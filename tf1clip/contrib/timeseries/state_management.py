"""`tf.contrib.timeseries`' state managers: how model state is carried between training chunks.

Place in the data flow (DESIGN.md): tensorflow-estimator 2.15's timeseries state_management (through
shims.tensorflow_estimator), contrib.timeseries.math_utils <- **contrib.timeseries.state_management** <- the heads and
estimators.

What it holds: `PassthroughStateManager` and `FilteringOnlyStateManager` are tensorflow-estimator 2.15's (kept
unchanged). `ChainingStateManager` (StructuralEnsembleRegressor's default), which the library dropped, trains a
SequentialTimeSeriesModel on a batch of chunks of one series: each chunk starts from the state an earlier step left
for its first time, and leaves the states it filters for the chunks that follow.

What is special: the states are kept in hash tables (math_utils.TupleOfTensorsLookup, "cached_states_<i>") keyed by
"bucket" = time // state_saving_interval. A chunk reads the bucket of its first time (the bucket of the series' start
time reads the model's start state instead, so gradients reach it); the state filtered at each step is written to
the bucket of the next step's time, and at least to the bucket after the step's own, as TF 1.15 does.
"""

import tensorflow as tf

# pylint: disable=g-import-not-at-top,wrong-import-position
# pylint: disable=unused-import
from tensorflow_estimator.python.estimator.canned.timeseries import feature_keys
from tensorflow_estimator.python.estimator.canned.timeseries.model import ModelOutputs
from tensorflow_estimator.python.estimator.canned.timeseries.state_management import FilteringOnlyStateManager
from tensorflow_estimator.python.estimator.canned.timeseries.state_management import PassthroughStateManager
from tensorflow_estimator.python.estimator.canned.timeseries.state_management import _OverridableStateManager

from tf1clip.contrib.timeseries import math_utils

V1 = tf.compat.v1
_TIMES = feature_keys.TrainEvalFeatures.TIMES
_VALUES = feature_keys.TrainEvalFeatures.VALUES


def _at(window_state, index):
  return tf.nest.pack_sequence_as(window_state, [part[:, index] for part in tf.nest.flatten(window_state)])


class ChainingStateManager(_OverridableStateManager):
  """Chains the chunks of a batch (one series cut into windows): each starts from state an earlier step saved.

  An approximation of filtering the whole series per step, which recovers parameters well and runs much faster
  (each op does more work).

  Args:
    state_saving_interval: times per saved state (the bucket width). Larger saves memory (and checkpoint size),
      but the model then imputes across gaps of up to this many times that the data does not have; 1 avoids that.
    checkpoint_state: whether the saved states go into checkpoints (which then grow with the series); if not, a
      restored model starts again from its start state and takes some steps to warm up.
  """

  def __init__(self, state_saving_interval=20, checkpoint_state=False):
    super(ChainingStateManager, self).__init__()
    self._state_saving_interval = state_saving_interval
    self._checkpoint_state = checkpoint_state
    self._start_state = None
    self._cached_states = None

  def initialize_graph(self, model, input_statistics=None):
    super(ChainingStateManager, self).initialize_graph(model=model, input_statistics=input_statistics)
    self._start_state = model.get_start_state()
    self._cached_states = math_utils.TupleOfTensorsLookup(
        key_dtype=tf.int64, default_values=self._start_state, empty_key=-1, deleted_key=-2, name="cached_states",
        checkpoint=self._checkpoint_state)

  def _bucket(self, times):
    return times // self._state_saving_interval

  def _define_loss_with_saved_state(self, model, features, mode):
    """ModelOutputs of `model` on the chunks TIMES [chunks, window] / VALUES [chunks, window, features].

    The end state is the last chunk's (with a batch dimension of 1, ready to predict from); in EVAL and INFER the
    same chaining happens (TF 1.15 does no more).
    """
    if not self._graph_initialized:
      raise ValueError("ChainingStateManager: call initialize_graph() before defining a loss")
    times = features[_TIMES]
    (loss, step_states, predictions) = model.per_step_batch_loss(
        features=features, mode=mode, state=self._saved_states_for(times[:, 0]))
    # The state filtered at a step is saved for the bucket of the next step's time (the last step: its time + 1),
    # but at least for the bucket after its own. Several steps may write one bucket: the last write stays.
    next_times = V1.concat([times[:, 1:], times[:, -1:] + 1], axis=1)
    write_to = V1.maximum(self._bucket(next_times), self._bucket(times) + 1)
    saved = self._cached_states.insert(keys=write_to, values=step_states)
    with V1.control_dependencies([saved]):
      loss = V1.identity(loss)
    chunk_ends = _at(step_states, -1)
    predictions["observed"] = features[_VALUES]
    return ModelOutputs(
        loss=loss,
        end_state=tf.nest.pack_sequence_as(chunk_ends, [part[-1][None] for part in tf.nest.flatten(chunk_ends)]),
        predictions=predictions, prediction_times=times)

  def _saved_states_for(self, first_times):
    """The states saved for the buckets of `first_times` [chunks]; the start state in the series' first bucket."""
    buckets = self._bucket(first_times)
    saved = tuple(self._cached_states.lookup(V1.cast(buckets, tf.int64)))
    series_start = 0 if self._input_statistics is None else self._input_statistics.start_time
    at_start = V1.equal(buckets, self._bucket(series_start))
    start_states = math_utils.replicate_state(self._start_state, V1.shape(first_times)[0])
    return tf.nest.pack_sequence_as(saved, [
        V1.where(at_start, start, cached)
        for start, cached in zip(tf.nest.flatten(start_states), tf.nest.flatten(saved))])
