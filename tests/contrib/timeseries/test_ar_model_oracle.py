"""tf.contrib.timeseries' ar_model against TF 1.15, model by model (no Estimator in the way, but for the LSTM).

ARModel and AnomalyMixtureARModel built in a graph from the same seeded weights, on a fixed batch of windows: the
variables (names and shapes), the training loss and outputs, an evaluation on windows longer than window_size (the
cropped head, the non-overlapping output windows, the carried state) and predictions continued from that state, for:
the flat model with and without hidden layers, output windows shorter and longer than the input window, no input
window (time features only), squared loss, exogenous features, the LSTM prediction model, and both anomaly
mixtures. Then a TimeSeriesRegressor around an LSTM ARModel: its checkpoint, evaluation and predictions. And the
AssertionErrors TF 1.15's constructors raise for bad arguments.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries.ARModel",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
try:  # TF 1.15's module; tf1clip's under its own name (the deep path is served after the timeseries re-tree)
    from tensorflow.contrib.timeseries.python.timeseries import ar_model
except ImportError:
    from tf1clip.contrib.timeseries import ar_model
ts = tf.contrib.timeseries
TIMES, VALUES, STATE = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES, ts.FilteringResults.STATE_TUPLE
MODES = tf.estimator.ModeKeys
series_times = np.arange(60, dtype=np.int64) * 2 + 3
series = np.stack([np.sin(series_times / 5.0), np.cos(series_times / 7.0) + 0.05 * series_times / 60.0],
                  axis=1).astype(np.float32)
load = ((series_times % 7) / 7.0).astype(np.float32)


def windows(length, starts, features=1):
    index = np.array([range(s, s + length) for s in starts])
    out = {TIMES: series_times[index], VALUES: series[index][..., :features]}
    return out, index


def exercise(key, make_model, train_size, eval_size, predict_steps, features=1, with_load=False):
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        model = make_model()
        with tf.variable_scope("ar", reuse=tf.AUTO_REUSE):
            model.initialize_graph()
            train, index = windows(train_size, (0, 11, 23), features)
            if with_load:
                train["load"] = load[index]
            trained = model.get_batch_loss(train, MODES.TRAIN, None)
            evaluate, index = windows(eval_size, (2, 20), features)
            if with_load:
                evaluate["load"] = load[index]
            start = tuple(tf.tile(s[None], [2] + [1] * s.shape.ndims) for s in model.get_start_state())
            evaluated = model.get_batch_loss(evaluate, MODES.EVAL, start)
            last = int(evaluate[TIMES][0, -1])
            future = {TIMES: np.array([[last + 2 * (i + 1) for i in range(predict_steps)]] * 2),
                      STATE: evaluated.end_state}
            if with_load:
                future["load"] = tf.constant(np.full([2, predict_steps], 0.5, np.float32))
            predicted = model.predict(future)
        fetch = {"train": [trained.loss, trained.predictions, trained.end_state, trained.prediction_times],
                 "eval": [evaluated.loss, evaluated.predictions, evaluated.end_state, evaluated.prediction_times],
                 "predict": predicted}
        with tf.Session() as session:
            session.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            init_from_numpy(session, seed=3, var_list=tf.trainable_variables())
            report_variables(key + "/variables")
            report(key, session.run(fetch))


exercise("flat", lambda: ts.ARModel(periodicities=12, input_window_size=4, output_window_size=2, num_features=1),
         train_size=6, eval_size=13, predict_steps=5)
exercise("deep_two_features", lambda: ts.ARModel(
    periodicities=[6, 10], input_window_size=3, output_window_size=2, num_features=2, num_time_buckets=4,
    prediction_model_factory=lambda **kw: ar_model.FlatPredictionModel(hidden_layer_sizes=[5, 3], **kw)),
         train_size=5, eval_size=12, predict_steps=4, features=2)
exercise("long_output_window", lambda: ts.ARModel(periodicities=9, input_window_size=2, output_window_size=3,
                                                  num_features=1), train_size=5, eval_size=11, predict_steps=7)
exercise("time_only", lambda: ts.ARModel(periodicities=[8, 20], input_window_size=0, output_window_size=3,
                                         num_features=2, num_time_buckets=5), train_size=3, eval_size=10,
         predict_steps=4, features=2)
exercise("squared_loss", lambda: ts.ARModel(periodicities=12, input_window_size=3, output_window_size=1,
                                            num_features=1, loss=ts.ARModel.SQUARED_LOSS),
         train_size=4, eval_size=9, predict_steps=3)
exercise("exogenous", lambda: ts.ARModel(periodicities=12, input_window_size=3, output_window_size=2,
                                         num_features=1,
                                         exogenous_feature_columns=[tf.feature_column.numeric_column("load")]),
         train_size=5, eval_size=10, predict_steps=3, with_load=True)
exercise("lstm", lambda: ts.ARModel(
    periodicities=10, input_window_size=4, output_window_size=2, num_features=2,
    prediction_model_factory=lambda **kw: ar_model.LSTMPredictionModel(num_units=6, **kw)),
         train_size=6, eval_size=12, predict_steps=5, features=2)
for distribution in ("gaussian", "cauchy"):
    exercise("mixture_" + distribution, lambda: ar_model.AnomalyMixtureARModel(
        periodicities=10, anomaly_prior_probability=0.2, input_window_size=3, output_window_size=2,
        num_features=1, anomaly_distribution=distribution), train_size=5, eval_size=9, predict_steps=3)

# An Estimator around the LSTM model: train from seeded weights, evaluate over the series, predict on.
class SeededStart(tf.train.SessionRunHook):
    def after_create_session(self, session, coord):
        if session.run(tf.train.get_global_step()) == 0:
            init_from_numpy(session, seed=5, var_list=tf.trainable_variables())


def train_windows():
    features, _ = windows(6, (0, 9, 30, 41))
    return {k: tf.constant(v) for k, v in features.items()}, None


import os
lstm = ts.TimeSeriesRegressor(ts.ARModel(
    periodicities=10, input_window_size=4, output_window_size=2, num_features=1,
    prediction_model_factory=lambda **kw: ar_model.LSTMPredictionModel(num_units=5, **kw)),
    optimizer=tf.train.GradientDescentOptimizer(0.1), model_dir=os.path.abspath("lstm"),
    config=tf.estimator.RunConfig(tf_random_seed=1))
lstm.train(input_fn=train_windows, steps=3, hooks=[SeededStart()])
path = tf.train.latest_checkpoint(lstm.model_dir)
report("estimator/checkpoint", {n: tf.train.load_variable(path, n) for n, _ in tf.train.list_variables(path)})
reader = ts.NumpyReader({TIMES: series_times, VALUES: series[:, :1]})
evaluation = lstm.evaluate(input_fn=ts.WholeDatasetInputFn(reader), steps=1)
report("estimator/evaluation", evaluation)
report("estimator/predictions", list(lstm.predict(input_fn=ts.predict_continuation_input_fn(evaluation, steps=3))))

for name, kwargs in [("no_buckets", dict(num_time_buckets=0)), ("negative_period", dict(periodicities=[5, -2])),
                     ("nothing_to_regress_on", dict(periodicities=None, input_window_size=0)),
                     ("no_output_window", dict(output_window_size=0))]:
    arguments = dict(periodicities=5, input_window_size=2, output_window_size=1, num_features=1)
    arguments.update(kwargs)
    with case("error/" + name):
        ts.ARModel(**arguments)
for name, kwargs in [("prior_one", dict(anomaly_prior_probability=1.0)),
                     ("unknown_distribution", dict(anomaly_distribution="laplace"))]:
    arguments = dict(periodicities=5, anomaly_prior_probability=0.1, input_window_size=2, output_window_size=1,
                     num_features=1)
    arguments.update(kwargs)
    with case("error/mixture_" + name):
        ar_model.AnomalyMixtureARModel(**arguments)
with case("error/train_window_size"), tf.Graph().as_default():
    model = ts.ARModel(periodicities=5, input_window_size=2, output_window_size=1, num_features=1)
    model.initialize_graph()
    model.get_batch_loss(windows(4, (0,))[0], MODES.TRAIN, None)
with case("error/eval_window_too_short"), tf.Graph().as_default():
    model = ts.ARModel(periodicities=5, input_window_size=2, output_window_size=2, num_features=1)
    model.initialize_graph()
    model.get_batch_loss(windows(3, (0,))[0], MODES.EVAL, None)
with case("error/predict_mode"), tf.Graph().as_default():
    model = ts.ARModel(periodicities=5, input_window_size=2, output_window_size=1, num_features=1)
    model.initialize_graph()
    model.get_batch_loss(windows(3, (0,))[0], MODES.PREDICT, None)
'''


@requires_tf115
def test_ar_models_train_evaluate_and_predict_as_on_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/no_buckets:error"] == "AssertionError"
  assert tf115["error/train_window_size:error"] == "ValueError"
  assert tf115["error/predict_mode:error"] == "ValueError"
  assert len(tf115["lstm"]["predict"]["mean"][0]) == 5
  assert any("encoder" in name for name, _ in tf115["lstm/variables"])
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
