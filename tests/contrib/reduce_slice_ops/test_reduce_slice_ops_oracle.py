"""tf.contrib.reduce_slice_ops against TF 1.15 (whose ops were only importable from
tensorflow.contrib.reduce_slice_ops.python.ops.reduce_slice_ops, the path this snippet uses on both sides): the four
reductions over (start, end) pairs and over a 1-D list of boundaries, along axis 0 and 1, of float32, float64,
int32 and int64 data of rank 2 and 3; empty ranges (their identities: 0, 1, -inf / +inf, the integer lowest /
highest), ends past the data (clipped), pairs from a placeholder (unknown count); the static shapes. A stated
difference: TF 1.15's shape function read dimension `axis` of the indices, so an axis at or past their rank (axis 2
with [n, 2] pairs, axis 1 with 1-D boundaries) failed to build (ValueError), and the static shapes it gave were the
indices' ([6, 2] for a [6, 5] result); tf1clip reduces along any axis and its static shapes are the results'. tf1clip's
public tf.contrib.reduce_slice_ops has the same functions (TF 1.15's exported none), and they have gradients."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.reduce_slice_ops",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
from tensorflow.contrib.reduce_slice_ops.python.ops import reduce_slice_ops as rs
rng = np.random.RandomState(0)
data2 = rng.randn(7, 5).astype(np.float32)
data3 = rng.randint(-50, 50, size=(6, 4, 3))
pairs = [[0, 2], [2, 2], [3, 7], [5, 1], [4, 12], [6, 7]]
bounds = [0, 1, 1, 4, 7]
fetch = {}
for fn in (rs.reduce_slice_sum, rs.reduce_slice_prod, rs.reduce_slice_max, rs.reduce_slice_min):
    k = fn.__name__
    fetch[k + "/pairs0"] = fn(data2, pairs, 0)
    fetch[k + "/bounds0"] = fn(data2.astype(np.float64), bounds, 0)
    fetch[k + "/pairs1"] = fn(data2, [[0, 3], [1, 1], [2, 9]], 1)
    fetch[k + "/int32_axis1"] = fn(data3.astype(np.int32), [[0, 2], [3, 3], [1, 4]], 1)
    # TF 1.15's shape function read dimension `axis` of the indices: an axis >= their rank failed to build
    with case(k + "/int64_axis2"):
        fetch[k + "/int64_axis2"] = fn(data3.astype(np.int64), [[0, 3], [2, 1], [1, 2]], 2)
    with case(k + "/bounds1"):
        fetch[k + "/bounds1"] = fn(data2, [0, 2, 5], 1)
    fetch[k + "/int64_bounds"] = fn(data3.astype(np.int64), np.array([0, 2, 2, 6], np.int64), 0)
    placeholder = tf.placeholder(tf.int32, [None, 2])
    fetch[k + "/placeholder"] = (fn(data2, placeholder, 0), placeholder)
    report(k + "/shapes", [fetch[k + "/pairs0"].shape.as_list(), fetch[k + "/bounds0"].shape.as_list(),
                           fetch[k + "/placeholder"][0].shape.as_list(), fetch[k + "/int32_axis1"].shape.as_list()])
with tf.Session() as sess:
    for key, value in sorted(fetch.items()):
        if isinstance(value, tuple):
            report(key, sess.run(value[0], {value[1]: [[1, 3], [0, 0], [2, 7]]}))
        else:
            report(key, sess.run(value))
'''


@requires_tf115
def test_reduce_slice_ops_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["reduce_slice_max/pairs0"][1][0] == float("-inf")
  assert tf115["reduce_slice_sum/pairs0"][3].tolist() == [0.0] * 5
  # TF 1.15's shape function indexed the indices' shape by `axis`: it could not build an axis >= their rank
  assert {tf115[k] for k in tf115 if k.endswith(("int64_axis2:error", "bounds1:error"))} == {"ValueError"}
  differences = {}
  for name in ("sum", "prod", "max", "min"):
    # TF 1.15's static shapes came from the indices' shape ([6, 2] for a [6, 5] result); the values had the right one
    assert tf115["reduce_slice_%s/shapes" % name] == [[6, 2], [4], [None, 2], [3, 3]]
    assert ours["reduce_slice_%s/shapes" % name] == [[6, 5], [4, 5], [None, 5], [6, 3, 3]]
    differences["reduce_slice_%s/shapes" % name] = "TF 1.15's shape function built the static shape from the indices'"
    for case in ("int64_axis2", "bounds1"):
      differences["reduce_slice_%s/%s:error" % (name, case)] = differences["reduce_slice_%s/%s" % (name, case)] = (
          "TF 1.15's shape function indexed the indices' shape by axis and refused an axis >= their rank")
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6, differences=differences)
