"""tf.contrib.timeseries' input pipeline (input_pipeline.py) against TF 1.15, record for record.

The readers: NumpyReader's chunks (wrapping round the series) and whole series for univariate, multivariate,
single-step and exogenous features; CSVReader with the default columns, a header, several files, repeated VALUES
columns with exogenous columns and column_dtypes (a missing field reads as 0), a missing required field, an empty
file (the epoch limiter's OutOfRangeError); TFExampleReader (module-level in TF 1.15: not in tf.contrib.timeseries,
reached through the module on each side). The input_fns: WholeDatasetInputFn; RandomWindowInputFn's batches with
fixed seeds (one thread, no jitter, a shuffling queue that is full at each dequeue: then TF 1.15's batches are
deterministic, and ours are the same), its discarding of windows whose times go backwards, the limit on batches
discarded in a row, TF 1.15's re-ordering with discard_out_of_order=False, the static shapes (jitter on);
predict_continuation_input_fn from an evaluation-like dictionary (one epoch, then OutOfRangeError). The errors TF
1.15 raised for bad input (class names). TF 1.15's contrib/timeseries has no AllWindowInputFn outside its tests
(test_utils.py is not in the pip package), so there is nothing to compare it with.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries.NumpyReader", "tf.contrib.timeseries.CSVReader",
                 "tf.contrib.timeseries.RandomWindowInputFn", "tf.contrib.timeseries.WholeDatasetInputFn",
                 "tf.contrib.timeseries.predict_continuation_input_fn")

SNIPPET = r'''
import importlib
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
ts = tf.contrib.timeseries
# TFExampleReader and _canonicalize_numpy_data live only in the module (TF 1.15's path, tf1clip's path)
ip = importlib.import_module("tensorflow.contrib.timeseries.python.timeseries.input_pipeline"
                             if tf.__version__.startswith("1.") else "tf1clip.contrib.timeseries.input_pipeline")
TIMES, VALUES = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES


def signature(function):
    """Parameter names and defaults (a class or dtype default by its name)."""
    import inspect
    out = []
    for p in inspect.signature(function).parameters.values():
        default = p.default
        if default is inspect.Parameter.empty:
            default = "<required>"
        elif not isinstance(default, (bool, int, float, str, tuple, type(None))):
            default = getattr(default, "__name__", None) or getattr(default, "name", None) or type(default).__name__
        out.append([p.name, default])
    return out


def module_classes(module):
    import inspect
    return sorted(n for n, v in vars(module).items() if inspect.isclass(v) and v.__module__ == module.__name__)


report("signatures", {name: signature(f) for name, f in [
    ("predict_continuation_input_fn", ip.predict_continuation_input_fn), ("NumpyReader", ip.NumpyReader.__init__),
    ("CSVReader", ip.CSVReader.__init__), ("TFExampleReader", ip.TFExampleReader.__init__),
    ("ReaderBaseTimeSeriesParser", ip.ReaderBaseTimeSeriesParser.__init__),
    ("check_dataset_size", ip.TimeSeriesReader.check_dataset_size), ("read", ip.TimeSeriesReader.read),
    ("read_full", ip.TimeSeriesReader.read_full), ("create_batch", ip.TimeSeriesInputFn.create_batch),
    ("WholeDatasetInputFn", ip.WholeDatasetInputFn.__init__), ("RandomWindowInputFn", ip.RandomWindowInputFn.__init__),
    ("_canonicalize_numpy_data", ip._canonicalize_numpy_data)]})
report("classes", module_classes(ip))
report("served", [ts.NumpyReader is ip.NumpyReader, ts.CSVReader is ip.CSVReader,
                  ts.RandomWindowInputFn is ip.RandomWindowInputFn, ts.WholeDatasetInputFn is ip.WholeDatasetInputFn,
                  ts.predict_continuation_input_fn is ip.predict_continuation_input_fn,
                  issubclass(ip.CSVReader, ip.ReaderBaseTimeSeriesParser),
                  issubclass(ip.TFExampleReader, ip.ReaderBaseTimeSeriesParser),
                  issubclass(ip.NumpyReader, ip.TimeSeriesReader),
                  issubclass(ip.RandomWindowInputFn, ip.TimeSeriesInputFn),
                  issubclass(ip.WholeDatasetInputFn, ip.TimeSeriesInputFn)])


def run_pipeline(key, build, runs=1):
    """Reports the static shapes of build()'s features and `runs` session runs (an error ends them)."""
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        features = build()
        if isinstance(features, tuple):  # an input_fn's (features, labels)
            report(key + "/labels", features[1])
            features = features[0]
        report(key + "/static_shapes", {k: [v.shape.as_list() for v in tf.nest.flatten(value)]
                                          for k, value in features.items()})
        results = []
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess, coord=coord)
            try:
                for _ in range(runs):
                    results.append(sess.run(features))
            except tf.errors.OpError as e:
                results.append(type(e).__name__)
            coord.request_stop()
            try:
                coord.join(threads, stop_grace_period_secs=10)
            except tf.errors.OpError as e:
                results.append("thread " + type(e).__name__)
        report(key, results)
        return results


# --- NumpyReader ----------------------------------------------------------------------------------------------
times = np.arange(24, dtype=np.int64) * 2 + 5
pairs = np.stack([np.sin(times / 4.0), np.cos(times / 7.0)], axis=1).astype(np.float32)
load = (times % 3).astype(np.float32)
flags = np.stack([times % 2, times % 5, times % 7], axis=1).astype(np.int32)
numpy_reader = ts.NumpyReader({TIMES: times, VALUES: pairs, "load": load, "flags": flags},
                              read_num_records_hint=10)
run_pipeline("numpy/read", numpy_reader.read, runs=4)
run_pipeline("numpy/read_full", numpy_reader.read_full, runs=2)
run_pipeline("numpy/whole", ts.WholeDatasetInputFn(numpy_reader))
univariate = ts.NumpyReader({TIMES: [3, 4, 9], VALUES: [1.5, 2.5, -1.0]}, read_num_records_hint=2)
run_pipeline("numpy/univariate_read", univariate.read, runs=2)
run_pipeline("numpy/univariate_whole", ts.WholeDatasetInputFn(univariate))
run_pipeline("numpy/one_step", ts.WholeDatasetInputFn(ts.NumpyReader({TIMES: 7, VALUES: [0.5, 1.5]})))
run_pipeline("numpy/one_step_scalar", ts.WholeDatasetInputFn(ts.NumpyReader({TIMES: np.int64(7), VALUES: 0.25})))


def canonical(key, data, require_single_batch=False):
    with case(key):
        out = ip._canonicalize_numpy_data(data, require_single_batch=require_single_batch)
        report(key, {k: [list(v.shape), str(v.dtype)] for k, v in out.items()})


canonical("canonical/batch", {TIMES: np.zeros([2, 5], np.int64), VALUES: np.ones([2, 5])})
canonical("canonical/batch_multivariate", {TIMES: np.zeros([2, 5]), VALUES: np.ones([2, 5, 3]),
                                           "x": np.ones([2, 5, 1, 4], np.float32)})
canonical("canonical/series", {TIMES: [1, 2, 3], VALUES: [[1.0, 2.0]] * 3, "x": [[1], [2], [3]]})
canonical("canonical/step", {TIMES: 4, VALUES: 2.0, "x": [1.0, 2.0]})
canonical("canonical/batch_refused", {TIMES: np.zeros([2, 5]), VALUES: np.ones([2, 5])}, True)
canonical("canonical/times_rank_3", {TIMES: np.zeros([2, 5, 1]), VALUES: np.ones([2, 5, 1])})
canonical("canonical/series_values_rank_3", {TIMES: [1, 2], VALUES: np.ones([2, 1, 1])})
canonical("canonical/step_values_rank_2", {TIMES: 1, VALUES: np.ones([1, 1])})
canonical("canonical/no_times", {VALUES: [1.0]})
canonical("canonical/prefix", {TIMES: [1, 2], VALUES: [1.0, 2.0], "x": [1.0]})
with case("numpy/no_values"):
    ts.NumpyReader({TIMES: times})
with case("numpy/batch"):
    ts.NumpyReader({TIMES: np.zeros([2, 3]), VALUES: np.zeros([2, 3])})
with case("numpy/window_too_long"):
    ts.RandomWindowInputFn(univariate, window_size=4, batch_size=1)
with case("numpy/window_fits"):
    ts.RandomWindowInputFn(univariate, window_size=3, batch_size=1)
    report("numpy/window_fits", True)

# --- CSVReader ------------------------------------------------------------------------------------------------
def write(name, text):
    path = os.path.abspath(name)
    with open(path, "w") as f:
        f.write(text)
    return path


plain = write("plain.csv", "".join("%d,%.3f\n" % (t, v) for t, v in zip(times[:10], pairs[:10, 0])))
more = write("more.csv", "".join("%d,%.3f\n" % (t, v) for t, v in zip(times[10:14], pairs[10:14, 0])))
header = write("header.csv", "time,value\n" + "".join("%d,%.3f\n" % (t, -t / 10.0) for t in times[:5]))
mixed = write("mixed.csv", "1,0.5,3,1.5\n2,,4,2.5\n3,0.25,,3.5\n")
empty = write("empty.csv", "")
run_pipeline("csv/read", ts.CSVReader(plain, read_num_records_hint=4).read, runs=4)
run_pipeline("csv/read_full", ts.CSVReader(plain).read_full, runs=2)
run_pipeline("csv/two_files", ts.WholeDatasetInputFn(ts.CSVReader([plain, more])))
run_pipeline("csv/two_files_read", ts.CSVReader([plain, more], read_num_records_hint=6).read, runs=3)
run_pipeline("csv/header", ts.WholeDatasetInputFn(ts.CSVReader(header, skip_header_lines=1)))
run_pipeline("csv/dtypes", ts.WholeDatasetInputFn(ts.CSVReader(
    mixed, column_names=(TIMES, VALUES, "load", VALUES), column_dtypes=(tf.int64, tf.float64, tf.int32, tf.float64))))
run_pipeline("csv/exogenous", ts.WholeDatasetInputFn(ts.CSVReader(
    write("full.csv", "1,0.5,3,1.5\n2,0.75,4,2.5\n"), column_names=("load", VALUES, TIMES, VALUES))))
run_pipeline("csv/missing_field", ts.WholeDatasetInputFn(ts.CSVReader(
    mixed, column_names=(TIMES, VALUES, "load", VALUES))))
run_pipeline("csv/empty_full", ts.CSVReader(empty).read_full)
run_pipeline("csv/empty_read", ts.CSVReader(empty, read_num_records_hint=3).read)
with case("csv/no_times"):
    ts.CSVReader(plain, column_names=(VALUES, VALUES))
with case("csv/no_values"):
    ts.CSVReader(plain, column_names=(TIMES, "load"))
with case("csv/dtypes_length"):
    ts.CSVReader(plain, column_dtypes=(tf.int64,))
with case("csv/two_times"):
    ts.CSVReader(plain, column_names=(TIMES, VALUES, TIMES))

# --- TFExampleReader (module-level) ---------------------------------------------------------------------------
records = os.path.abspath("series.tfrecord")
with tf.python_io.TFRecordWriter(records) as writer:
    for t, v in zip(times[:6], pairs[:6]):
        example = tf.train.Example(features=tf.train.Features(feature={
            TIMES: tf.train.Feature(int64_list=tf.train.Int64List(value=[int(t)])),
            VALUES: tf.train.Feature(float_list=tf.train.FloatList(value=[float(x) for x in v]))}))
        writer.write(example.SerializeToString())
example_features = {TIMES: tf.FixedLenFeature([], tf.int64), VALUES: tf.FixedLenFeature([2], tf.float32)}
run_pipeline("tfexample/whole", ts.WholeDatasetInputFn(ip.TFExampleReader(records, example_features)))
with case("tfexample/no_values"):
    ip.TFExampleReader(records, {TIMES: tf.FixedLenFeature([], tf.int64)})

# --- RandomWindowInputFn --------------------------------------------------------------------------------------
def windows(reader, **kwargs):
    settings = dict(jitter=False, num_threads=1, shuffle_seed=5)
    settings.update(kwargs)
    return ts.RandomWindowInputFn(reader, **settings)


# 24 records, 3 windows of 4 per pass: no window wraps, the shuffling queue (9 windows) is full at each dequeue
run_pipeline("windows/shuffled", windows(numpy_reader, window_size=4, batch_size=3, queue_capacity_multiplier=3,
                                         shuffle_min_after_dequeue_multiplier=2), runs=5)
run_pipeline("windows/shuffled_csv", windows(ts.CSVReader([plain, more], read_num_records_hint=5), window_size=7,
                                             batch_size=2, queue_capacity_multiplier=3,
                                             shuffle_min_after_dequeue_multiplier=2), runs=4)
# one window at a time, no shuffling left: which windows are discarded (their times go backwards)
short = ts.NumpyReader({TIMES: times[:10], VALUES: pairs[:10, 0]}, read_num_records_hint=3)
run_pipeline("windows/discarding", windows(short, window_size=4, batch_size=1, queue_capacity_multiplier=1,
                                           shuffle_min_after_dequeue_multiplier=0), runs=6)
# TF 1.15's re-ordering gathers whole windows by each window's time order (reversed over the batch)
run_pipeline("windows/reordering", windows(short, window_size=2, batch_size=2, queue_capacity_multiplier=1,
                                           shuffle_min_after_dequeue_multiplier=0, discard_out_of_order=False),
             runs=3)
# every window of a 3-record file wraps: the limit on discarded batches in a row ends the input
two_records = ts.CSVReader(header, skip_header_lines=4, read_num_records_hint=4)
run_pipeline("windows/discard_limit", windows(two_records, window_size=4, batch_size=1,
                                              discard_consecutive_batches_limit=3), runs=2)
jittered = run_pipeline("windows/jitter_shapes", ts.RandomWindowInputFn(numpy_reader, window_size=5, batch_size=2,
                                                                        num_threads=None), runs=0)

# --- predict_continuation_input_fn ----------------------------------------------------------------------------
evaluation = {ts.FilteringResults.TIMES: np.array([[3, 4, 5]]),
              ts.FilteringResults.STATE_TUPLE: (np.array([5]), np.array([[[1.0, 2.0]]]), (np.array([[0.5]]),))}
run_pipeline("predict/steps", ts.predict_continuation_input_fn(evaluation, steps=2), runs=2)
run_pipeline("predict/times", ts.predict_continuation_input_fn(
    evaluation, times=[9, 12], exogenous_features={"load": np.array([[[1.0], [2.0]]])}), runs=1)
with case("predict/steps_and_times"):
    ts.predict_continuation_input_fn(evaluation, steps=2, times=[[7, 8]])
with case("predict/neither"):
    ts.predict_continuation_input_fn(evaluation)
'''


@requires_tf115
def test_readers_and_input_fns_give_tf115s_records():
  tf115, ours = run_both(SNIPPET)
  # what makes the comparison meaningful: TF 1.15 read the data, shuffled, discarded and raised
  assert len(tf115["numpy/read"]) == 4 and len(tf115["windows/shuffled"]) == 5
  assert tf115["csv/empty_full"] == ["OutOfRangeError"]
  assert tf115["windows/discard_limit"] == ["OutOfRangeError"]
  assert tf115["csv/no_times:error"] == "ValueError"
  assert tf115["numpy/window_fits"] is True
  assert all(tf115["served"])
  assert_same(tf115, ours)
