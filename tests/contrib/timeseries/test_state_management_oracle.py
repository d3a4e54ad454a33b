"""tf.contrib.timeseries' ChainingStateManager against TF 1.15: chunked filtering with state saved between steps.

A small SequentialTimeSeriesModel of our own (`Smoother`: exponential smoothing of two features) behind a
ChainingStateManager: the losses, outputs and end states of repeated TRAIN passes over a fixed batch of chunks of one
series (the chunks read the states earlier passes saved in the bucket of their first time; the series' first bucket
reads the start state), for bucket widths 1, 4 and 20, with and without input statistics (their start time picks the
first bucket); an EVAL pass after them. Then a TimeSeriesRegressor around it (train from seeded weights, checkpoint,
evaluation over the whole series and predictions), the checkpointed state tables (checkpoint_state=True: the
checkpoint's keys), and the ValueError before initialize_graph.
"""

from harness import assert_same, requires_tf115, run_both

SNIPPET = r'''
import os
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
        # Resource variables: a training step that reads a ref variable races with its update (TF 1.15's numbers
        # then vary from run to run in the fourth digit).
        self._persistence = tf.sigmoid(tf.get_variable("persistence_logit", [], initializer=tf.zeros_initializer(),
                                                         use_resource=True))
        self._gain = tf.get_variable("gain", [2], initializer=tf.constant_initializer(0.5), use_resource=True)

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


def chain(key, interval, statistics=False, passes=3):
    with tf.Graph().as_default():
        model = Smoother()
        manager = state_management.ChainingStateManager(state_saving_interval=interval)
        train = chunks(5, (6, 0, 12, 30, 20))
        input_statistics = None
        if statistics:
            input_statistics = ts_math.InputStatisticsFromMiniBatch(
                num_features=2, dtype=tf.float32).initialize_graph(train)
        model.initialize_graph(input_statistics=input_statistics)
        manager.initialize_graph(model=model, input_statistics=input_statistics)
        trained = manager.define_loss(model, train, MODES.TRAIN)
        evaluated = manager.define_loss(model, chunks(5, (3, 25)), MODES.EVAL)
        with tf.Session() as session:
            session.run([tf.global_variables_initializer(), tf.local_variables_initializer(), tf.tables_initializer()])
            init_from_numpy(session, seed=8, var_list=tf.trainable_variables())
            runs = [session.run([trained.loss, trained.end_state, trained.predictions]) for _ in range(passes)]
            runs.append(session.run([evaluated.loss, evaluated.end_state, evaluated.predictions]))
            report(key, runs)


chain("every_time", 1)
chain("buckets_of_4", 4)
chain("buckets_of_4_with_statistics", 4, statistics=True)
chain("default_interval", 20)


class SeededStart(tf.train.SessionRunHook):
    def after_create_session(self, session, coord):
        if session.run(tf.train.get_global_step()) == 0:
            init_from_numpy(session, seed=9, var_list=tf.trainable_variables())


for key, checkpointed in (("estimator", False), ("estimator_checkpointed", True)):
    regressor = ts.TimeSeriesRegressor(
        Smoother(), state_manager=state_management.ChainingStateManager(state_saving_interval=6,
                                                                        checkpoint_state=checkpointed),
        optimizer=tf.train.GradientDescentOptimizer(0.05), model_dir=os.path.abspath(key),
        config=tf.estimator.RunConfig(tf_random_seed=1))
    regressor.train(input_fn=lambda: (chunks(6, (0, 6, 12, 18, 24)), None), steps=3, hooks=[SeededStart()])
    path = tf.train.latest_checkpoint(regressor.model_dir)
    report(key + "/checkpoint", {n: tf.train.load_variable(path, n) for n, _ in tf.train.list_variables(path)
                                 if "cached_states" not in n})
    report(key + "/checkpoint_keys", sorted(n for n, _ in tf.train.list_variables(path)))
reader = ts.NumpyReader({TIMES: series_times, VALUES: series})
evaluation = regressor.evaluate(input_fn=ts.WholeDatasetInputFn(reader), steps=1)
report("estimator/evaluation", evaluation)
report("estimator/predictions", list(regressor.predict(input_fn=ts.predict_continuation_input_fn(evaluation,
                                                                                                  steps=3))))

with case("error/not_initialized"), tf.Graph().as_default():
    model = Smoother()
    model.initialize_graph()
    state_management.ChainingStateManager().define_loss(model, chunks(4, (0,)), MODES.TRAIN)
'''


@requires_tf115
def test_chaining_state_manager_chains_chunks_as_on_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/not_initialized:error"] == "ValueError"
  assert tf115["buckets_of_4"][0][0] != tf115["buckets_of_4"][1][0]  # the second pass starts from saved states
  assert any("cached_states" in key for key in tf115["estimator_checkpointed/checkpoint_keys"])
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
