"""contrib.resampler against TF 1.15: values and gradients (w.r.t. data and warp) at random points and at points on
the border, just outside (in the zero padding) and far outside, float32 and float64, static and dynamic shapes,
and the error classes of bad shapes and types (when built and when run).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.resampler.resampler",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
c = tf.contrib
rng = np.random.RandomState(0)
sess = tf.Session()


def static(t):
  return None if t.shape.ndims is None else t.shape.as_list()


# resampler: points inside, on the border, just outside and far outside; float32 and float64
R = c.resampler.resampler
for dt in (np.float32, np.float64):
  data = rng.standard_normal([2, 4, 5, 3]).astype(dt)
  special = [[0, 0], [4, 3], [-1, 0], [0, -1], [5, 0], [0, 4], [-0.5, 2.0], [4.5, 3.5], [2, 1.5], [3.99999999, 2],
             [-0.99999999, 1], [1.25, -0.75], [7, 9], [-3, 1], [2.0, 3.0], [1.5, 1.5]]
  pts = np.concatenate([rng.uniform(-1.5, 5.5, [2, 24, 2]), np.array([special] * 2)], 1).astype(dt)
  pts = pts.reshape([2, 20, 2, 2])
  d, w = tf.constant(data), tf.constant(pts)
  out = R(d, w)
  gd, gw = tf.gradients(tf.reduce_sum(out * rng.standard_normal([2, 20, 2, 3]).astype(dt)), [d, w])
  report("resampler_" + dt.__name__, [out.name, static(out), sess.run({"out": out, "gd": gd, "gw": gw})])
dp, wp = tf.placeholder(tf.float32, name="dp"), tf.placeholder(tf.float32, [None, None, 2], name="wp")
dyn = R(dp, wp, name="dyn")
feed = {dp: data.astype(np.float32), wp: pts.reshape([2, 40, 2]).astype(np.float32)}
report("resampler_dynamic", [dyn.name, static(dyn), sess.run(dyn, feed)])
report("resampler_empty", sess.run(R(np.ones([2, 3, 3, 1], np.float32), np.zeros([2, 0, 2], np.float32))).shape)


def resample_run(d, w):
  return lambda: sess.run(R(np.zeros(d, np.float32), np.zeros(w, np.float32)))


def dynamic_run(d, w):
  return lambda: sess.run(dyn, {dp: np.zeros(d, np.float32), wp: np.zeros(w, np.float32)})


report_errors("resampler_errors", [
    ("data_rank3", resample_run([2, 3, 4], [2, 5, 2])), ("warp_last3", resample_run([2, 3, 4, 1], [2, 5, 3])),
    ("warp_rank1", resample_run([2, 3, 4, 1], [2])), ("batch", resample_run([2, 3, 4, 1], [3, 5, 2])),
    ("scalar_warp", resample_run([2, 3, 4, 1], [])),
    ("int", lambda: R(np.zeros([1, 2, 2, 1], np.int32), np.zeros([1, 1, 2], np.int32))),
    ("mixed", lambda: R(np.zeros([1, 2, 2, 1], np.float64), np.zeros([1, 1, 2], np.float32))),
    ("dyn_data_rank3", dynamic_run([2, 3, 4], [2, 5, 2])), ("dyn_batch", dynamic_run([2, 3, 4, 1], [3, 5, 2])),
    ("dyn_data_rank5", dynamic_run([2, 3, 4, 1, 1], [2, 5, 2]))])
with tf.Graph().as_default():  # warp's last dimension checked at run time
  wq = tf.placeholder(tf.float32, [2, None, None])
  bad = R(tf.zeros([2, 3, 3, 1]), wq)
  with tf.Session() as s:
    report_errors("resampler_dyn_warp", [("last3", lambda: s.run(bad, {wq: np.zeros([2, 4, 3])})),
                                         ("rank2", lambda: s.run(bad, {wq: np.zeros([2, 4, 2])}))])
'''


@requires_tf115
def test_contrib_resampler_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
