"""tf.contrib.labeled_tensor.ReshapeCoder (TF 1.15's labeled_tensor/python/ops/sugar.py) against TF 1.15: encode,
decode and their errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.labeled_tensor." + name for name in """
    ReshapeCoder""".split())

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


ax = lt.Axis("row", ["r0", "r1", "r2"])
axes = lt.Axes([("batch", 2), ax, lt.as_axis(("col", 4))])
values = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 0.04 + 0.02)
x = lt.LabeledTensor(tf.constant(values), axes)
y = lt.LabeledTensor(tf.constant(values[0] + 1.0), [ax, "col"])
# sugar
coder = lt.ReshapeCoder(["row", "col"], ["depth"])
encoded = keep("encoded", coder.encode(x))
keep("decoded", coder.decode(lt.square(encoded)))
report_errors("coder_errors", [
    ("decode_first", lambda: lt.ReshapeCoder(["row"], ["r"]).decode(x)),
    ("encode_other_axes", lambda: coder.encode(lt.LabeledTensor(tf.ones([1, 2, 4]), ["batch", "row", "col"]))),
])
report("described", D)
with tf.Session() as sess:
    out = sess.run(T)
for key in sorted(out):
    report("value_" + key, out[key])
'''


@requires_tf115
def test_labeled_tensor_sugar_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
