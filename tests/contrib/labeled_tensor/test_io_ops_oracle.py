"""tf.contrib.labeled_tensor's input ops (TF 1.15's labeled_tensor/python/ops/io_ops.py) against TF 1.15: placeholder,
FixedLenFeature, parse_example / parse_single_example (axes and values) and their errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.labeled_tensor." + name for name in """
    FixedLenFeature parse_example parse_single_example placeholder""".split())

SNIPPET = r'''
import numpy as np
import tensorflow as tf
lt = tf.contrib.labeled_tensor
T = {}  # key -> tensor, fetched with one sess.run
D = {}  # key -> [name, dtype, axes] of each LabeledTensor built


def keep(key, t):
    T[key] = t.tensor
    D[key] = [t.name, t.dtype.name, [[a.name, a.size, None if a.labels is None else list(a.labels)]
                                     for a in t.axes.values()]]
    return t


def err(fn):
    try:
        fn()
        return "no error"
    except Exception as e:  # pylint: disable=broad-except
        return type(e).__name__


# input
ph = lt.placeholder(tf.float32, ["batch", ("chan", ["r", "g", "b"])], name="ph")
keep("placeholder_sum", lt.reduce_sum(ph, "chan"))
report("placeholder", [ph.name, ph.shape.as_list(), repr(ph.axes)])


def example(i):
    return tf.train.Example(features=tf.train.Features(feature={
        "v": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i + 0.5, i + 1.0])),
        "k": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * 10]))})).SerializeToString()


features = {"v": lt.FixedLenFeature([("dim", ["a", "b", "c"])], tf.float32),
            "k": lt.FixedLenFeature([("one", 1)], tf.int64, default_value=[0])}
report("fixed_len", [repr(features["v"].axes), features["v"].dtype.name, features["k"].default_value])
serialized = lt.constant([example(1), example(2)], axes=["batch"])
parsed = lt.parse_example(serialized, features)
keep("parse_v", parsed["v"])
keep("parse_k", parsed["k"])
single = lt.parse_single_example(lt.constant(example(3)), features)
keep("single_v", single["v"])
report("parse_op_names", [D[k].pop(0) for k in ("parse_v", "parse_k", "single_v")])
report_errors("io_errors", [
    ("unknown_size", lambda: lt.parse_example(serialized, {"v": lt.FixedLenFeature(["dim"], tf.float32)})),
    ("features_type", lambda: lt.parse_example(serialized, {"v": tf.FixedLenFeature([3], tf.float32)})),
    ("placeholder_dtype", lambda: lt.placeholder("float32", ["a"])),
])
report("described", D)
with tf.Session() as sess:
    out = sess.run(T, feed_dict={ph.tensor: np.arange(6, dtype=np.float32).reshape(2, 3)})
for key in sorted(out):
    report("value_" + key, out[key])
'''

# TensorFlow 2.21 parses with its ParseExampleV2 op (parse_single_example through parse_example), TF 1.15 with
# ParseExample / ParseSingleExample: the parsed tensors' op names differ; their values and axes are compared.
DIFFERENCES = {"parse_op_names": "TensorFlow 2.21's parsing ops are ParseExampleV2 (TF 1.15: ParseExample, "
                                 "ParseSingleExample), so the parsed tensors' op names differ"}


@requires_tf115
def test_labeled_tensor_io_ops_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6, differences=DIFFERENCES)
