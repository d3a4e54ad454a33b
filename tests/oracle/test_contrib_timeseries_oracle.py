"""tf.contrib.timeseries against TF 1.15: the readers (NumpyReader, CSVReader: their chunks of records in order and the
whole series), RandomWindowInputFn's batches (their shapes, and that each window is consecutive records: which
windows come out depends on the queues' threads, in TF 1.15 too) and WholeDatasetInputFn; ARRegressor trained from
the same weights on fixed windows (univariate; multivariate from a CSV file with hidden layers, two periodicities
and the squared loss; the Cauchy anomaly mixture), TimeSeriesRegressor around an ARModel with an exogenous feature
column, and a TimeSeriesRegressor with OneShotPredictionHead: every checkpoint value and name after a few steps, the
evaluations (WholeDatasetInputFn) and the predictions of predict_continuation_input_fn (steps, times, exogenous
features); the SavedModel export (build_raw_serving_input_receiver_fn) loaded back, with saved_model_utils'
predict_continuation, cold_start_filter and filter_continuation on it, and the one-shot head's serving signature;
the errors TF 1.15 raised for bad arguments. A second test restores a checkpoint TF 1.15's ARRegressor wrote and
trains on to TF 1.15's next values."""

import os
import tempfile

from harness import assert_same, requires_tf115, run_both, run_tf115, run_tf1clip

ORACLE_TESTED = ("tf.contrib.timeseries", "tf.contrib.timeseries.ARModel", "tf.contrib.timeseries.ARRegressor",
                 "tf.contrib.timeseries.CSVReader", "tf.contrib.timeseries.FilteringResults",
                 "tf.contrib.timeseries.NumpyReader", "tf.contrib.timeseries.OneShotPredictionHead",
                 "tf.contrib.timeseries.RandomWindowInputFn", "tf.contrib.timeseries.TimeSeriesRegressor",
                 "tf.contrib.timeseries.TrainEvalFeatures", "tf.contrib.timeseries.WholeDatasetInputFn",
                 "tf.contrib.timeseries.predict_continuation_input_fn", "tf.contrib.timeseries.saved_model_utils",
                 "tf.contrib.timeseries.saved_model_utils.cold_start_filter",
                 "tf.contrib.timeseries.saved_model_utils.filter_continuation",
                 "tf.contrib.timeseries.saved_model_utils.predict_continuation")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
ts = tf.contrib.timeseries
TIMES, VALUES = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES
times = np.arange(40, dtype=np.int64)
values = (np.sin(times / 3.0) + 0.1 * times / 40.0).astype(np.float32)
load = (times % 5).astype(np.float32)
reader = ts.NumpyReader({TIMES: times, VALUES: values, "load": load}, read_num_records_hint=16)
csv_path = os.path.abspath("series.csv")
with open(csv_path, "w") as f:
    f.write("time,a,b\n" + "".join("%d,%.4f,%.4f\n" % (t, v, -v) for t, v in zip(times, values)))
csv_reader = ts.CSVReader([csv_path], column_names=(TIMES, VALUES, VALUES), skip_header_lines=1,
                          read_num_records_hint=16)
pairs = np.stack([values, -values], axis=1).round(4)
config = tf.estimator.RunConfig(tf_random_seed=1)


class SeededStart(tf.train.SessionRunHook):
    """Both TensorFlows start from the same weights (their random initializers draw different numbers)."""
    def after_create_session(self, session, coord):
        if session.run(tf.train.get_global_step()) == 0:
            init_from_numpy(session, seed=1, var_list=tf.trainable_variables())


def fixed_windows(window_size, series=values, starts=(0, 9, 17, 30), with_load=False):
    """Training windows that do not depend on queue-runner timing (RandomWindowInputFn's shuffling does)."""
    def input_fn():
        index = np.array([range(s, s + window_size) for s in starts])
        features = {TIMES: tf.constant(times[index]), VALUES: tf.constant(series[index].reshape(
            len(starts), window_size, -1))}
        if with_load:
            features["load"] = tf.constant(load[index])
        return features, None
    return input_fn


def random_windows(reader, window_size, batch_size=4):
    return ts.RandomWindowInputFn(reader, window_size=window_size, batch_size=batch_size, num_threads=1,
                                  shuffle_seed=3)


labels = []


def run_input(input_fn, runs=1):
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        features = input_fn()
        if isinstance(features, tuple):  # an input_fn's (features, labels)
            labels.append(features[1])
            features = features[0]
        with tf.train.MonitoredSession() as sess:
            return [sess.run(features) for _ in range(runs)]


def checkpoint(model_dir):
    path = tf.train.latest_checkpoint(model_dir)
    return {name: tf.train.load_variable(path, name) for name, _ in tf.train.list_variables(path)}


def train_and_evaluate(key, estimator, train_fn, steps, reader=reader):
    estimator.train(input_fn=train_fn, steps=steps, hooks=[SeededStart()])
    report(key + "/checkpoint", checkpoint(estimator.model_dir))
    evaluation = estimator.evaluate(input_fn=ts.WholeDatasetInputFn(reader), steps=1)
    report(key + "/evaluation", evaluation)
    return evaluation


# the readers: chunks of records in order, and the whole series
report("numpy/read", run_input(reader.read, runs=3))
report("numpy/whole", run_input(ts.WholeDatasetInputFn(reader)))
report("csv/read", run_input(csv_reader.read, runs=3))
report("csv/whole", run_input(ts.WholeDatasetInputFn(csv_reader)))
# RandomWindowInputFn: which windows come out depends on its queues' threads (in TF 1.15 too); their form does not
batches = run_input(random_windows(reader, window_size=6), runs=3)
report("random_windows/shapes", {k: [list(b[k].shape) for b in batches] for k in batches[0]})
window_times = np.concatenate([b[TIMES] for b in batches])
report("labels", labels)
report("random_windows/consecutive", [bool(np.all(np.diff(window_times, axis=1) == 1)),
                                      bool(np.allclose(np.concatenate([b[VALUES] for b in batches])[..., 0],
                                                       values[window_times]))])

ar = ts.ARRegressor(periodicities=10, input_window_size=4, output_window_size=2, num_features=1,
                    model_dir=os.path.abspath("ar"), config=config)
evaluation = train_and_evaluate("ar", ar, fixed_windows(6), steps=4)
report("ar/filtering_results", [ts.FilteringResults.TIMES, ts.FilteringResults.STATE_TUPLE,
                                 evaluation[ts.FilteringResults.TIMES][0, -3:],
                                 [list(np.shape(s)) for s in evaluation[ts.FilteringResults.STATE_TUPLE]]])
report("ar/predict_steps", list(ar.predict(input_fn=ts.predict_continuation_input_fn(evaluation, steps=3))))
report("ar/predict_times", list(ar.predict(input_fn=ts.predict_continuation_input_fn(
    evaluation, times=[[41, 43, 44]]))))

# a multivariate series from the CSV file, hidden layers, the squared loss, two periodicities
deep = ts.ARRegressor(periodicities=[5, 8], input_window_size=3, output_window_size=2, num_features=2,
                      num_time_buckets=4, loss=ts.ARModel.SQUARED_LOSS, hidden_layer_sizes=[5, 3],
                      optimizer=tf.train.GradientDescentOptimizer(0.05), model_dir=os.path.abspath("deep"),
                      config=config)
train_and_evaluate("deep", deep, fixed_windows(5, series=pairs), steps=3, reader=csv_reader)

# the anomaly mixture (Cauchy anomalies)
mixture = ts.ARRegressor(periodicities=10, input_window_size=2, output_window_size=1, num_features=1,
                         anomaly_prior_probability=0.1, anomaly_distribution="cauchy",
                         model_dir=os.path.abspath("mixture"), config=config)
mixture.train(input_fn=fixed_windows(3), steps=3, hooks=[SeededStart()])
report("mixture/checkpoint", checkpoint(mixture.model_dir))

# TimeSeriesRegressor around an ARModel with an exogenous feature (its default state manager and Adam(0.02))
model = ts.ARModel(periodicities=10, input_window_size=3, output_window_size=2, num_features=1,
                   exogenous_feature_columns=[tf.feature_column.numeric_column("load")])
regressor = ts.TimeSeriesRegressor(model, model_dir=os.path.abspath("regressor"), config=config)
regressor_evaluation = train_and_evaluate("regressor", regressor, fixed_windows(5, with_load=True), steps=3)
report("regressor/predictions", list(regressor.predict(input_fn=ts.predict_continuation_input_fn(
    regressor_evaluation, steps=2, exogenous_features={"load": np.array([[[1.0], [2.0]]], np.float32)}))))

# training on RandomWindowInputFn's batches
windowed = ts.ARRegressor(periodicities=10, input_window_size=4, output_window_size=2, num_features=1,
                          model_dir=os.path.abspath("windowed"), config=config)
windowed.train(input_fn=random_windows(reader, window_size=6), steps=2)
report("windowed/global_step", windowed.get_variable_value("global_step"))

# export, reload, and the saved_model_utils functions
export_dir = ar.export_saved_model(os.path.abspath("export"), ar.build_raw_serving_input_receiver_fn())
sm = ts.saved_model_utils
with tf.Graph().as_default():
    with tf.Session() as session:
        signatures = tf.saved_model.loader.load(session, [tf.saved_model.tag_constants.SERVING], export_dir)
        report("export/signatures", sorted(signatures.signature_def))
        report("export/predict", sm.predict_continuation(continue_from=evaluation, signatures=signatures,
                                                         session=session, steps=3))
        state = sm.cold_start_filter(signatures=signatures, session=session,
                                     features={TIMES: times[:10], VALUES: values[:10]})
        report("export/cold_start_filter", state)
        state = sm.filter_continuation(continue_from=state, signatures=signatures, session=session,
                                       features={TIMES: times[10:16], VALUES: values[10:16]})
        report("export/filter_continuation", state)
        report("export/predict_from_filter", sm.predict_continuation(
            continue_from=state, signatures=signatures, session=session, times=[[16, 17, 19]]))
        with case("export/steps_and_times"):
            sm.predict_continuation(continue_from=state, signatures=signatures, session=session, steps=2,
                                    times=[[16, 17]])

# OneShotPredictionHead: predictions straight from the features of the exported model's one signature
one_shot = ts.TimeSeriesRegressor(
    ts.ARModel(periodicities=10, input_window_size=4, output_window_size=2, num_features=1),
    head_type=ts.OneShotPredictionHead, model_dir=os.path.abspath("one_shot"), config=config)
one_shot.train(input_fn=fixed_windows(6), steps=2, hooks=[SeededStart()])
export_dir = one_shot.export_saved_model(os.path.abspath("export_one_shot"),
                                         one_shot.build_raw_serving_input_receiver_fn())
with tf.Graph().as_default():
    with tf.Session() as session:
        signatures = tf.saved_model.loader.load(session, [tf.saved_model.tag_constants.SERVING], export_dir)
        report("one_shot/signatures", sorted(signatures.signature_def))
        signature = signatures.signature_def["serving_default"]
        report("one_shot/signature", [sorted(signature.inputs), sorted(signature.outputs)])
        feeds = {signature.inputs[TIMES].name: [list(range(20, 28))],
                 signature.inputs[VALUES].name: [[[v] for v in values[20:24]]]}
        report("one_shot/predictions", session.run({k: v.name for k, v in signature.outputs.items()}, feeds))

# bad input TF 1.15 rejected
with case("error/distribution_without_prior"):
    ts.ARRegressor(periodicities=10, input_window_size=2, output_window_size=1, num_features=1,
                   anomaly_distribution="cauchy")
with case("error/mixture_squared_loss"):
    ts.ARRegressor(periodicities=10, input_window_size=2, output_window_size=1, num_features=1,
                   anomaly_prior_probability=0.1, loss=ts.ARModel.SQUARED_LOSS)
with case("error/reader_without_values"):
    ts.NumpyReader({TIMES: times})
with case("error/reader_shapes"):
    ts.NumpyReader({TIMES: times, VALUES: values[:5]})
with case("error/window_longer_than_data"):
    ts.RandomWindowInputFn(ts.NumpyReader({TIMES: times[:4], VALUES: values[:4]}), window_size=6, batch_size=2)
with case("error/csv_without_times"):
    ts.CSVReader([csv_path], column_names=(VALUES, VALUES))
with case("error/steps_and_times"):
    ts.predict_continuation_input_fn(evaluation, steps=2, times=[[41, 42]])
with case("error/evaluate_short_window"):
    ar.evaluate(input_fn=fixed_windows(3), steps=1)
'''

RESTORE = r'''
import os
import shutil
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
ts = tf.contrib.timeseries
times = np.arange(30, dtype=np.int64)
values = np.cos(times / 4.0).astype(np.float32)
index = np.array([range(s, s + 5) for s in (0, 7, 20)])


def input_fn():
    return {ts.TrainEvalFeatures.TIMES: tf.constant(times[index]),
            ts.TrainEvalFeatures.VALUES: tf.constant(values[index][..., None])}, None


class SeededStart(tf.train.SessionRunHook):
    def after_create_session(self, session, coord):
        if session.run(tf.train.get_global_step()) == 0:
            init_from_numpy(session, seed=2, var_list=tf.trainable_variables())


def regressor(model_dir):
    return ts.ARRegressor(periodicities=6, input_window_size=3, output_window_size=2, num_features=1,
                          hidden_layer_sizes=[4], model_dir=model_dir)


saved = os.path.join(ORACLE_SHARED, "ar")
if not os.path.exists(saved):  # TF 1.15's side: three steps from the seeded weights
    regressor(saved).train(input_fn=input_fn, steps=3, hooks=[SeededStart()])
model_dir = os.path.abspath("continued")
shutil.copytree(saved, model_dir)
estimator = regressor(model_dir)
report("restored", {name: tf.train.load_variable(saved, name) for name, _ in tf.train.list_variables(saved)})
estimator.train(input_fn=input_fn, steps=2)
path = tf.train.latest_checkpoint(model_dir)
report("continued", [os.path.basename(path), {name: tf.train.load_variable(path, name)
                                              for name, _ in tf.train.list_variables(path)}])
report("evaluation", estimator.evaluate(input_fn=input_fn, steps=1))
'''


@requires_tf115
def test_timeseries_readers_ar_regressors_and_saved_models_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/distribution_without_prior:error"] == "ValueError"
  assert tf115["random_windows/consecutive"] == [True, True]
  assert tf115["export/signatures"] == ["cold_start_filter", "filter", "serving_default"]
  assert tf115["windowed/global_step"] == 2
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)


@requires_tf115
def test_a_tf115_ar_regressor_checkpoint_restores_and_trains_on_as_on_tf115():
  with tempfile.TemporaryDirectory() as shared:
    theirs = run_tf115(RESTORE, shared=shared)
    ours = run_tf1clip(RESTORE, shared=shared)
  assert theirs["continued"][0] == "model.ckpt-5"
  assert_same(theirs, ours, rtol=2e-5, atol=2e-5)
