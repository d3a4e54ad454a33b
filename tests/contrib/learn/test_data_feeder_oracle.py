"""tf.contrib.learn.io.data_feeder against TF 1.15: placeholders, shapes, dtypes and feed dicts, no session needed.

Compared, for numpy arrays, dicts of arrays and iterators: the placeholders `input_builder` makes (names, shapes,
dtypes; "input" / "output", "input_<key>" / "output_<key>", the "epoch" placeholder), `input_shape` / `output_shape`
(the leading label dimension 1 dropped, one-hot classes appended; a partial batch resizes output_shape[0] as TF
1.15 did), `input_dtype` / `output_dtype`, the batches of `get_feed_dict_fn` in RandomState(42) order across epochs
(and in order without shuffle, with an epoch limit and StopIteration), one-hot labels (also of label sequences), a
given RandomState, `set_placeholders`, `get_feed_params`; StreamingDataFeeder's batches from iterators of arrays and
of dicts, its short last batch and its end; the setup_* functions (which feeder, predict slices and np.matrix
batches of iterators, check_array); and the errors for bad input (dask is not installed on either side).
"""

from harness import assert_same, requires_tf115, run_both

_D = "tf.contrib.learn.io.data_feeder"
ORACLE_TESTED = (_D,) + tuple(_D + "." + n for n in (
    "DataFeeder", "StreamingDataFeeder", "DaskDataFeeder", "check_array", "setup_train_data_feeder",
    "setup_predict_data_feeder", "setup_processor_data_feeder"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
D = tf.contrib.learn.io.data_feeder

def described(placeholder):
    if placeholder is None:
        return None
    if isinstance(placeholder, dict):
        return {k: described(v) for k, v in placeholder.items()}
    return [placeholder.name, str(placeholder.shape), placeholder.dtype.name]

def dtype_name(dtype):
    if dtype is None:
        return None
    if isinstance(dtype, dict):
        return {k: dtype_name(v) for k, v in dtype.items()}
    return np.dtype(dtype).name

def feeder_state(f):
    return {"input_shape": f.input_shape, "output_shape": f.output_shape, "batch_size": f.batch_size,
            "input_dtype": dtype_name(f.input_dtype), "output_dtype": dtype_name(f.output_dtype)}

def batches(fn, n):
    out = []
    for _ in range(n):
        try:
            out.append(fn())
        except StopIteration:
            out.append("StopIteration")
            break
    return out

xs = np.arange(12, dtype=np.float32).reshape(6, 2)
ys = np.array([0, 1, 2, 1, 0, 2])

with tf.Graph().as_default():
    # arrays, one-hot labels, the epoch placeholder, RandomState(42) order across epochs
    feeder = D.DataFeeder(xs, ys, n_classes=3, batch_size=4)
    inp, out = feeder.input_builder()
    epoch = feeder.make_epoch_variable()
    fn = feeder.get_feed_dict_fn()
    got = [fn() for _ in range(4)]
    report("data_feeder", {"placeholders": [described(inp), described(out), described(epoch)],
                           "params": feeder.get_feed_params(), "state": feeder_state(feeder), "batches": got,
                           "indices": feeder.indices, "epoch": feeder.epoch, "offset": feeder.offset,
                           "y": [str(feeder.y.dtype), feeder.n_classes, feeder.shuffle]})

    # dicts of arrays, no one-hot, in order, an epoch limit
    limited = D.DataFeeder({"p": xs, "q": np.arange(6)}, {"y": ys.astype(np.float64)}, None, batch_size=5,
                           shuffle=False, epochs=1)
    inp, out = limited.input_builder()
    fn = limited.get_feed_dict_fn()
    report("dict_feeder", {"placeholders": [described(inp), described(out)], "state": feeder_state(limited),
                           "batches": batches(fn, 3)})

    # dict labels with a dict of classes: one-hot keys become float32
    both = D.DataFeeder({"a": xs}, {"c": ys, "r": ys * 0.5}, {"c": 3}, batch_size=3, shuffle=False)
    inp, out = both.input_builder()
    fn = both.get_feed_dict_fn()
    report("dict_classes", {"placeholders": [described(inp), described(out)], "state": feeder_state(both),
                            "batches": batches(fn, 2)})

    # a vector of features, a list of labels, regression (n_classes 0 and 1), a given RandomState, 2 epochs
    for classes in (0, 1):
        reg = D.DataFeeder(np.arange(5.0), [0.5, 1.5, 2.5, 3.5, 4.5], classes, batch_size=2,
                           random_state=np.random.RandomState(7), epochs=2)
        inp, out = reg.input_builder()
        fn = reg.get_feed_dict_fn()
        report("regression_%d" % classes, {"placeholders": [described(inp), described(out)],
                                           "state": feeder_state(reg), "batches": batches(fn, 7)})

    # label sequences, one-hot per position; no labels at all; placeholders set by hand
    seq = D.DataFeeder(xs[:4], np.array([[0, 1, 2], [2, 2, 0], [1, 0, 1], [0, 0, 2]]), 3, batch_size=3)
    inp, out = seq.input_builder()
    fn = seq.get_feed_dict_fn()
    report("sequence_labels", {"placeholders": [described(inp), described(out)], "state": feeder_state(seq),
                               "batches": batches(fn, 2), "resized_output_shape": seq.output_shape})
    unlabeled = D.DataFeeder(xs.astype(np.float64), None, None, batch_size=None)
    inp, out = unlabeled.input_builder()
    fn = unlabeled.get_feed_dict_fn()
    report("unlabeled", {"placeholders": [described(inp), described(out)], "state": feeder_state(unlabeled),
                         "batches": batches(fn, 1)})
    mine_x = tf.placeholder(tf.float32, [None, 2], name="mine_x")
    mine_y = tf.placeholder(tf.int64, [None], name="mine_y")
    manual = D.DataFeeder(xs, ys, None, batch_size=2)
    manual.set_placeholders(mine_x, mine_y)
    report("set_placeholders", batches(manual.get_feed_dict_fn(), 1))

    # streaming: arrays, dicts, a short last batch, the end
    stream = D.StreamingDataFeeder(iter([np.array([i, i]) for i in range(5)]),
                                   iter([np.array(i % 3) for i in range(5)]), 3, 2)
    inp, out = stream.input_builder()
    fn = stream.get_feed_dict_fn()
    report("streaming_feeder", {"placeholders": [described(inp), described(out)], "state": feeder_state(stream),
                                "batches": batches(fn, 4), "params": stream.get_feed_params()})
    dict_stream = D.StreamingDataFeeder(iter([{"a": np.array([i, 2 * i], np.float32), "b": np.array([i])}
                                              for i in range(3)]),
                                        iter([{"k": np.array(i % 2), "v": np.array([0.5 * i])} for i in range(3)]),
                                        {"k": 2}, 2)
    inp, out = dict_stream.input_builder()
    fn = dict_stream.get_feed_dict_fn()
    report("streaming_dicts", {"placeholders": [described(inp), described(out)],
                               "state": feeder_state(dict_stream), "batches": batches(fn, 3)})
    plain = D.StreamingDataFeeder(iter([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
                                  iter([[np.array(1.5)], [np.array(2.5)]]), None, 2)
    inp, out = plain.input_builder()
    report("streaming_lists", {"placeholders": [described(inp), described(out)], "state": feeder_state(plain),
                               "batches": batches(plain.get_feed_dict_fn(), 2)})
    no_labels = D.StreamingDataFeeder(iter([np.array([1, 2, 3])] * 3), None, None, None)
    inp, out = no_labels.input_builder()
    report("streaming_no_labels", {"placeholders": [described(inp), described(out)],
                                   "state": feeder_state(no_labels),
                                   "batches": batches(no_labels.get_feed_dict_fn(), 4)})

    # the setup functions
    report("setup", [type(D.setup_train_data_feeder(xs, ys, 3, 2)).__name__,
                     type(D.setup_train_data_feeder(iter(xs), iter(ys), None, 2)).__name__,
                     type(D.setup_train_data_feeder(iter(xs), None, None, 2)).__name__,
                     D.setup_train_data_feeder(xs, ys, 3, 2, shuffle=False, epochs=3).max_epochs,
                     D.setup_predict_data_feeder(np.arange(5.0), batch_size=2),
                     D.setup_predict_data_feeder(xs), D.setup_predict_data_feeder(xs, batch_size=4),
                     D.setup_processor_data_feeder([1, 2]), D.check_array([1, 2], np.float32),
                     str(D.check_array(np.arange(2), np.float32).dtype), D.check_array("s", np.float32)])
    report("predict_iterators", {
        "arrays": [[type(b).__name__, np.asarray(b)] for b in D.setup_predict_data_feeder(iter(xs), batch_size=4)],
        "exact": [np.asarray(b).shape for b in D.setup_predict_data_feeder(iter(xs), batch_size=3)],
        "whole": [np.asarray(b) for b in D.setup_predict_data_feeder(iter(xs))],
        "dicts": [{k: np.asarray(v) for k, v in b.items()} for b in D.setup_predict_data_feeder(
            iter([{"u": np.array([i, i]), "w": np.array([i])} for i in range(5)]), batch_size=2)]})
    report_errors("feeder_errors", [
        ("mixed_iterables", lambda: D.setup_train_data_feeder(iter(xs), ys, 3)),
        ("batch_size", lambda: D.DataFeeder(xs, ys, 3, batch_size=0)),
        ("streaming_batch_size", lambda: D.StreamingDataFeeder(iter(xs), iter(ys), 3, -2)),
        ("predict_batch_size", lambda: D.setup_predict_data_feeder(xs, batch_size=-1)),
        ("predict_iterator_batch_size", lambda: list(D.setup_predict_data_feeder(iter(xs), batch_size=0))),
        ("dask_dict", lambda: D.DaskDataFeeder({"a": xs}, ys, 3, 2)),
        ("dask_missing", lambda: D.DaskDataFeeder(xs, ys, 3, 2)),
        ("dict_labels_classes_not_dict", lambda: D.DataFeeder(xs, {"y": ys}, 3, 2)),
    ])
'''


@requires_tf115
def test_data_feeder_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=120)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
