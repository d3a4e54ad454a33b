"""tf.contrib.learn.io against TF 1.15: the queue readers (batches in order with one thread and randomize_input=False,
keys, sparse features, the shared file-name queue, output / queue-runner / summary names, argument errors),
numpy_input_fn / generator_input_fn batches, and the pandas / dask functions without those libraries (the data
feeders: tests/contrib/learn/test_data_feeder_oracle.py)."""

from harness import assert_same, requires_tf115, run_both

_IO = "tf.contrib.learn.io."
_GRAPH_IO = ("queue_parsed_features", "read_batch_examples", "read_batch_features", "read_batch_record_features",
             "read_keyed_batch_examples", "read_keyed_batch_examples_shared_queue", "read_keyed_batch_features",
             "read_keyed_batch_features_shared_queue")
_EXTRACT = ("extract_dask_data", "extract_dask_labels", "extract_pandas_data", "extract_pandas_labels",
            "extract_pandas_matrix")
ORACLE_TESTED = (
    ("tf.contrib.learn.io",) + tuple(_IO + m for m in (
        "dask_io", "generator_io", "graph_io", "numpy_io", "pandas_io"))
    + (_IO + "numpy_input_fn", _IO + "numpy_io.numpy_input_fn", _IO + "pandas_input_fn",
     _IO + "pandas_io.pandas_input_fn", _IO + "generator_input_fn", _IO + "generator_io.generator_input_fn")
    + tuple(_IO + n for n in _GRAPH_IO) + tuple(_IO + "graph_io." + n for n in _GRAPH_IO)
    + tuple("tf.contrib.learn." + n for n in _GRAPH_IO if n != "queue_parsed_features")
    + tuple(_IO + n for n in _EXTRACT) + tuple("tf.contrib.learn." + n for n in _EXTRACT)
    + tuple(_IO + "pandas_io." + n for n in _EXTRACT if "pandas" in n)
    + tuple(_IO + "dask_io." + n for n in _EXTRACT if "dask" in n))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
L = tf.contrib.learn
io = L.io
os.makedirs("data")
for f in range(2):
    with tf.python_io.TFRecordWriter("data/part-%d.tfrecord" % f) as w:
        for i in range(5):
            n = f * 10 + i
            w.write(tf.train.Example(features=tf.train.Features(feature={
                "x": tf.train.Feature(float_list=tf.train.FloatList(value=[n, i * 0.5])),
                "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=list(range(n % 3 + 1))))
            })).SerializeToString())
PATTERN = "data/part-*.tfrecord"
FEATURES = {"x": tf.FixedLenFeature([2], tf.float32), "ids": tf.VarLenFeature(tf.int64)}
R = tf.TFRecordReader

def sparse(value):
    return [value.indices, value.values, value.dense_shape]

def features(value):
    return {k: sparse(v) if hasattr(v, "dense_shape") else v for k, v in value.items()}

def drain(sess, fetch, limit=8):
    out = []
    try:
        for _ in range(limit):
            out.append(sess.run(fetch))
    except tf.errors.OutOfRangeError:
        out.append("end")
    return out

def base(keys):
    return [k.decode().replace(os.sep, "/") for k in keys]


# the readers, each to the end of one epoch
keys1, ex1 = L.read_keyed_batch_examples(PATTERN, 3, R, randomize_input=False, num_epochs=1)
ex2 = io.read_batch_examples(["data/part-1.tfrecord", "data/part-0.tfrecord"], 4, R, randomize_input=False,
                             num_epochs=1, read_batch_size=2,
                             parse_fn=lambda e: tf.parse_example(e, {"x": FEATURES["x"]}), name="parsed")
f3 = io.graph_io.read_batch_features(PATTERN, 4, FEATURES, R, randomize_input=False, num_epochs=1,
                                     num_enqueue_threads=1)
keys4, f4 = L.read_keyed_batch_features(PATTERN, 3, FEATURES, R, randomize_input=False, num_epochs=1,
                                        num_enqueue_threads=1, read_batch_size=1)
keys5, f5 = io.read_keyed_batch_features_shared_queue(PATTERN, 4, FEATURES, R, randomize_input=False,
                                                      num_epochs=1, num_queue_runners=1)
# TF 1.15's shared queue keeps its variables at the top-level "obtain_next" scope: a second one in a graph fails
with case("second_shared_queue"):
    L.read_keyed_batch_examples_shared_queue(PATTERN, 5, R, randomize_input=False, num_epochs=1)
with tf.Graph().as_default():
    keys6, ex6 = L.read_keyed_batch_examples_shared_queue(PATTERN, 5, R, randomize_input=False, num_epochs=2)
    report("shared_queue_graph", sorted(op.name for op in tf.get_default_graph().get_operations()
                                        if "ObtainNext/" not in op.name))
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        report("shared_queue_examples", [b if b == "end" else base(b[0]) for b in drain(sess, [keys6, ex6])])
        coord.request_stop()
        coord.join(threads)
f7 = L.read_batch_record_features(PATTERN, 6, FEATURES, randomize_input=False, num_epochs=1)
f8 = L.read_batch_features(PATTERN, 4, FEATURES, R, randomize_input=True, num_epochs=1, queue_capacity=20)
keys9, q9 = io.queue_parsed_features({"a": tf.constant([1, 2]), "s": tf.SparseTensor([[0, 1]], [5.0], [2, 3])},
                                     keys=tf.constant(["k1", "k2"]), num_enqueue_threads=1)
_, q10 = io.graph_io.queue_parsed_features({"only": tf.constant([7.0])}, feature_queue_capacity=7)
report("names", {
    "keys1": keys1.name, "ex1": ex1.name, "ex2": sorted((k, v.name) for k, v in ex2.items()),
    "f3": sorted((k, v.name if hasattr(v, "name") else v.values.name) for k, v in f3.items()),
    "keys4": keys4.name, "keys5": keys5.name, "keys9": keys9.name, "q10": q10["only"].name,
    "f7": f7["x"].name, "q9_sparse": q9["s"].values.name,
    "queue_runners": [qr.name for qr in tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)],
    "summaries": sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)),
    "local_variables": sorted(v.op.name for v in tf.local_variables()),
    "global_variables": sorted(v.op.name for v in tf.global_variables()),
    "shapes": [str(ex1.shape), str(f3["x"].shape), str(f4["x"].shape), str(ex2["x"].shape)]})

# numpy_input_fn / generator_input_fn (their own graphs' queues, started with the others)
x = {"a": np.arange(5, dtype=np.float32), "b": np.arange(10, dtype=np.int64).reshape(5, 2)}
np_feats, np_labels = io.numpy_input_fn(x, np.arange(5) * 10, batch_size=2, shuffle=False)()
np_shuffled = io.numpy_io.numpy_input_fn({"a": np.arange(6)}, batch_size=6, num_epochs=1)()
def gen():
    for i in range(5):
        yield {"h": np.array([i, i + 1]), "label": np.array(i % 2)}
gen_feats, gen_labels = io.generator_input_fn(gen, target_key="label", batch_size=2, shuffle=False)()
gen_two = io.generator_io.generator_input_fn(gen, target_key=["label", "h"], batch_size=5, shuffle=False)()

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord)
    r1 = drain(sess, [keys1, ex1])
    report("keyed_examples", [b if b == "end" else [base(b[0]), [
        tf.train.Example.FromString(e).features.feature["x"].float_list.value[0] for e in b[1]]] for b in r1])
    report("parsed_examples", drain(sess, ex2))
    report("read_batch_features", [b if b == "end" else features(b) for b in drain(sess, f3)])
    report("keyed_features", [b if b == "end" else [base(b[0]), features(b[1])] for b in drain(sess, [keys4, f4])])
    report("shared_queue_features", [b if b == "end" else [base(b[0]), features(b[1])]
                                     for b in drain(sess, [keys5, f5])])
    # two enqueue threads by default: the batches' order may vary, their contents not
    rec = [b for b in drain(sess, f7) if b != "end"]
    report("record_features", sorted(v for b in rec for v in b["x"][:, 0].tolist()))
    shuffled = [b for b in drain(sess, f8) if b != "end"]
    # the examples, not how the reader threads cut them into batches: with num_epochs=1 the last batches' sizes
    # depend on which thread met the end first, on TF 1.15 as here
    report("randomized", [sorted(v for b in shuffled for v in b["x"][:, 0].tolist()),
                          sum(len(b["x"]) for b in shuffled), max(len(b["x"]) for b in shuffled)])
    got9 = sess.run([keys9, q9])
    report("queue_parsed", [got9[0], got9[1]["a"], sparse(got9[1]["s"]), sess.run(q10)])
    report("numpy_input_fn", drain(sess, [np_feats, np_labels]))
    got = sess.run(np_shuffled)
    report("numpy_input_fn_shuffled", sorted(got["a"].tolist()))
    report("generator_input_fn", drain(sess, [gen_feats, gen_labels]))
    report("generator_two_targets", drain(sess, gen_two))
    coord.request_stop()
    coord.join(threads)

report_errors("reader_errors", [
    ("no_files", lambda: io.read_batch_examples("data/nothing-*", 2, R)),
    ("empty_list", lambda: io.read_batch_examples([], 2, R)),
    ("batch_size", lambda: io.read_batch_examples(PATTERN, 0, R)),
    ("batch_over_capacity", lambda: io.read_batch_examples(PATTERN, 20, R, queue_capacity=20)),
    ("queue_capacity", lambda: io.read_batch_examples(PATTERN, 2, R, queue_capacity=0)),
    ("read_batch_size", lambda: io.read_batch_examples(PATTERN, 2, R, read_batch_size=0)),
    ("num_threads", lambda: io.read_batch_examples(PATTERN, 2, R, num_threads=0)),
    ("num_epochs", lambda: io.read_batch_examples(PATTERN, 2, R, num_epochs=0)),
    ("features_num_epochs", lambda: io.read_batch_features(PATTERN, 2, FEATURES, R, num_epochs=-1))])
report_errors("input_fn_errors", [
    ("generator_not_function", lambda: io.generator_input_fn(gen())),
    ("not_generator", lambda: io.generator_input_fn(lambda: [1])),
    ("not_dict", lambda: io.generator_input_fn(lambda: (i for i in range(3)))),
    ("target_missing", lambda: io.generator_input_fn(gen, target_key=["nope"])),
    ("target_type", lambda: io.generator_input_fn(gen, target_key=3)),
    ("target_item_type", lambda: io.generator_input_fn(gen, target_key=[3])),
    ("numpy_x_not_dict", lambda: io.numpy_input_fn(np.arange(3))()),
    ("pandas_input_fn", lambda: io.pandas_input_fn(np.arange(3))),
    ("pandas_io_pandas_input_fn", lambda: io.pandas_io.pandas_input_fn(np.arange(3)))])
ARR = np.arange(4.0)
report_errors("without_pandas_dask", [(m + "." + n, (lambda fn: lambda: fn(ARR))(getattr(eval(m), n))) for m, n in [
    ("L", "extract_pandas_data"), ("L", "extract_pandas_labels"), ("L", "extract_pandas_matrix"),
    ("L", "extract_dask_data"), ("L", "extract_dask_labels"), ("io.pandas_io", "extract_pandas_matrix"),
    ("io.dask_io", "extract_dask_labels")]])
report("flags", [io.HAS_PANDAS, io.HAS_DASK])

finish()
'''


@requires_tf115
def test_contrib_learn_io_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=120)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
