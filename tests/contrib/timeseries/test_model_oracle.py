"""tf.contrib.timeseries' model (SequentialTimeSeriesModel) against TF 1.15, on a small model of our own.

`Smoother` (exponential smoothing of two features, a learned persistence across time gaps and a gain) implements the
four steps; the base class walks windows with them. Compared with TF 1.15 from the same seeded variables: the
per-observation loss (with `_loss_additions`), every step's state and outputs, get_batch_loss's end state and
predictions continued from it, for the while loop and for static unrolling (its variables made in the shared scope
"state_update_step"), with normalized values (scaled back by `_scale_back_predictions`), with an exogenous feature
applied everywhere or only where `exogenous_update_condition` says; the variables' names; and the
NotImplementedError of a normalizing model without `_scale_back_predictions`.
"""

from harness import assert_same, requires_tf115, run_both

SNIPPET = r'''
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
try:  # TF 1.15's modules; tf1clip's under their own names (the deep paths are served after the timeseries re-tree)
    from tensorflow.contrib.timeseries.python.timeseries import math_utils as ts_math
    from tensorflow.contrib.timeseries.python.timeseries import model as ts_model
    from tensorflow.contrib.timeseries.python.timeseries import state_management
except ImportError:
    from tf1clip.contrib.timeseries import math_utils as ts_math
    from tf1clip.contrib.timeseries import model as ts_model
    from tf1clip.contrib.timeseries import state_management
ts = tf.contrib.timeseries
TIMES, VALUES, STATE = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES, ts.FilteringResults.STATE_TUPLE
MODES = tf.estimator.ModeKeys


class Smoother(ts_model.SequentialTimeSeriesModel):
    """Exponential smoothing of two features: state (level [2], time of the last observation)."""

    def __init__(self, unroll=None, normalize=False, exogenous=False, condition=None, bias=False):
        self._bias = bias
        super(Smoother, self).__init__(
            train_output_names=["mean", "innovation"], predict_output_names=["mean"], num_features=2,
            normalize_features=normalize, exogenous_update_condition=condition,
            exogenous_feature_columns=[tf.feature_column.numeric_column("load")] if exogenous else None,
            static_unrolling_window_size_threshold=unroll)

    def initialize_graph(self, input_statistics=None):
        super(Smoother, self).initialize_graph(input_statistics=input_statistics)
        self._persistence = tf.sigmoid(tf.get_variable("persistence_logit", [], initializer=tf.zeros_initializer()))
        self._gain = tf.get_variable("gain", [2], initializer=tf.constant_initializer(0.5))

    def get_start_state(self):
        return (tf.zeros([2], self.dtype), tf.zeros([], tf.int64))

    def _imputation_step(self, current_times, state):
        level, last = state
        gap = tf.cast(current_times - last, self.dtype)
        return (level * tf.pow(self._persistence, gap)[:, None], last)

    def _prediction_step(self, current_times, state):
        mean = state[0]
        if self._bias:  # a variable made in each (shared) step: unrolled walks only
            mean += tf.get_variable("bias", [2], initializer=tf.zeros_initializer())
        return state, {"mean": mean}

    def _filtering_step(self, current_times, current_values, state, predictions):
        innovation = current_values - predictions["mean"]
        level = state[0] + self._gain * innovation
        return (level, current_times), {"loss": tf.reduce_sum(tf.square(innovation), axis=1),
                                        "mean": predictions["mean"], "innovation": innovation}

    def _exogenous_input_step(self, current_times, current_exogenous_regressors, state):
        return (state[0] + 0.5 * current_exogenous_regressors, state[1])

    def _loss_additions(self, times, values, mode):
        return 0.01 * tf.reduce_sum(tf.square(self._gain))

    def _scale_back_predictions(self, predictions):
        predictions = dict(predictions)
        predictions["mean"] = self._scale_back_data(predictions["mean"])
        return predictions


series_times = np.arange(48, dtype=np.int64) * 2 + 1
series = np.stack([np.sin(series_times / 6.0), 0.3 * np.cos(series_times / 4.0) + series_times / 96.0],
                  axis=1).astype(np.float32)
load = ((series_times % 5) / 5.0).astype(np.float32)


def chunks(length, starts, with_load=False):
    index = np.array([range(s, s + length) for s in starts])
    features = {TIMES: tf.constant(series_times[index]), VALUES: tf.constant(series[index])}
    if with_load:
        features["load"] = tf.constant(load[index])
    return features


def exercise(key, make_model, with_load=False, statistics=False):
    with tf.Graph().as_default():
        model = make_model()
        input_statistics = None
        train = chunks(6, (0, 13, 30), with_load)
        if statistics:
            input_statistics = ts_math.InputStatisticsFromMiniBatch(
                num_features=2, dtype=tf.float32).initialize_graph(train)
        with tf.variable_scope("smoother", reuse=tf.AUTO_REUSE):  # three walks share the steps' variables
            model.initialize_graph(input_statistics=input_statistics)
            start = tuple(tf.tile(s[None], [3] + [1] * s.shape.ndims) for s in model.get_start_state())
            loss, states, outputs = model.per_step_batch_loss(train, MODES.TRAIN, start)
            batch = model.get_batch_loss(train, MODES.EVAL, start)
            future = {TIMES: tf.constant(np.array([[100, 101, 104, 110]] * 3, np.int64)), STATE: batch.end_state}
            if with_load:
                future["load"] = tf.constant(np.array([[0.2, 0.4, 0.6, 0.8]] * 3, np.float32))
            predicted = model.predict(future)
        with tf.Session() as session:
            session.run([tf.global_variables_initializer(), tf.local_variables_initializer(), tf.tables_initializer()])
            init_from_numpy(session, seed=6, var_list=tf.trainable_variables())
            report_variables(key + "/variables")
            report(key, session.run({"loss": loss, "states": states, "outputs": outputs, "batch_loss": batch.loss,
                                     "end_state": batch.end_state, "predictions": batch.predictions,
                                     "predicted": predicted}))


exercise("while_loop", Smoother)
exercise("unrolled", lambda: Smoother(unroll=8, bias=True))
exercise("unroll_threshold_too_small", lambda: Smoother(unroll=3))
exercise("normalized", lambda: Smoother(normalize=True), statistics=True)
exercise("exogenous", lambda: Smoother(exogenous=True), with_load=True)
exercise("exogenous_on_even_times", lambda: Smoother(
    exogenous=True, condition=lambda times, features: tf.equal(times % 4, 1)), with_load=True)
exercise("exogenous_unrolled", lambda: Smoother(exogenous=True, unroll=6, bias=True), with_load=True)


class NoScaleBack(Smoother):
    _scale_back_predictions = ts_model.SequentialTimeSeriesModel._scale_back_predictions


with case("error/normalized_without_scale_back"), tf.Graph().as_default():
    model = NoScaleBack(normalize=True)
    model.initialize_graph()
    model.per_step_batch_loss(chunks(4, (0,)), MODES.TRAIN,
                              tuple(s[None] for s in model.get_start_state()))
with case("error/second_unrolled_walk_without_reuse"), tf.Graph().as_default():
    model = Smoother(unroll=8, bias=True)
    model.initialize_graph()
    for _ in range(2):
        model.per_step_batch_loss(chunks(4, (0,)), MODES.TRAIN, tuple(s[None] for s in model.get_start_state()))
'''


@requires_tf115
def test_sequential_time_series_model_walks_windows_as_on_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/normalized_without_scale_back:error"] == "NotImplementedError"
  assert tf115["error/second_unrolled_walk_without_reuse:error"] == "ValueError"
  assert any("state_update_step" in name for name, _ in tf115["unrolled/variables"])
  # windows longer than the threshold take the while loop: the same numbers
  assert repr(tf115["unroll_threshold_too_small"]) == repr(tf115["while_loop"])
  assert len(tf115["while_loop"]["states"][0][0]) == 6
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
