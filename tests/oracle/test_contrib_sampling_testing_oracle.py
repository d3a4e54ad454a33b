"""tf.contrib.resampler, input_pipeline and periodic_resample against TF 1.15 (testing: tests/contrib/testing/).

resampler: values and gradients (w.r.t. data and warp) at random points and at points on the border, just outside
(in the zero padding) and far outside, float32 and float64, static and dynamic shapes, and the error classes of
bad shapes and types (when built and when run). periodic_resample: values, static shapes, op names and gradients
(TF 1.15's last-writer-wins kernel, with repeated copies) on 2-D to 4-D shapes, integer inputs, partially known
and unknown input shapes, and its errors. obtain_next: the strings and the counter over several runs, after an
assign, and its build errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.resampler.resampler", "tf.contrib.input_pipeline.obtain_next",
    "tf.contrib.periodic_resample.periodic_resample")

# Deliberate differences from TF 1.15, reported by both sides and not compared:
DIFFERENCES = {
    "periodic_grad_unknown_shape": "tf1clip differentiates periodic_resample whatever the static input shape; "
                                   "TF 1.15's gradient op raised ValueError unless it was fully known",
    "periodic_out_of_buffer": "where TF 1.15's index map points past the input (sizes not multiples of the "
                              "input's), its kernel read the memory after the buffer; tf1clip gives 0",
}

# The gradients of never-copied periodic_resample inputs are masked in the snippet: TF 1.15 left them
# uninitialised (tf1clip: 0).
SNIPPET = r'''
import os
import tempfile
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

# periodic_resample
P = c.periodic_resample.periodic_resample
cases = [((3, 4), [6, None]), ((3, 4), [5, None]), ((3, 4), [4, None]), ((3, 4), [None, 8]), ((3, 4), [3, 0]),
         ((2, 3, 4), [None, 6, 4]), ((2, 3, 4), [2, 3, None]), ((2, 3, 4), [4, 6, None]), ((4, 6), [5, None]),
         ((1, 2, 2, 4), [1, 4, 4, None])]
built = {}  # every case built first, then one session run (a run per case costs more than the ops)
for i, (shape, want) in enumerate(cases):
  count = int(np.prod(shape))
  for dt in (np.float64, np.int32):
    v = tf.constant(np.arange(count).reshape(shape).astype(dt))
    out = P(v, want)
    if dt is np.float64:
      weights = rng.standard_normal(out.shape.as_list())
      built[i] = (out, tf.gradients(tf.reduce_sum(out * weights), v)[0])
    else:
      built["int_%d" % i] = (out,)
ran = sess.run(built)
for i, (shape, want) in enumerate(cases):
  out, (got, grad) = built[i][0], ran[i]
  copied = np.isin(np.arange(int(np.prod(shape))), got).reshape(shape)  # never-copied inputs: no gradient to compare
  report("periodic_%d" % i, [out.name, static(out), got, np.where(copied, grad, 0.0)])
  report("periodic_int_%d" % i, [str(built["int_%d" % i][0].dtype), ran["int_%d" % i][0]])
vp = tf.placeholder(tf.float32, [None, 4])
pp = P(vp, [6, None], name="partial")
up = tf.placeholder(tf.float32)
pu = P(up, tf.TensorShape([None, 8]))
report("periodic_dynamic", [pp.name, static(pp), static(pu), sess.run(pp, {vp: np.arange(12.).reshape(3, 4)}),
                            sess.run(pu, {up: np.arange(24.).reshape(3, 8)})])


def periodic_run(values, want):
  return lambda: sess.run(P(values, want))


report_errors("periodic_errors", [
    ("rank", periodic_run(np.zeros([3, 4], np.float32), [6, None, 2])),
    ("two_adjustable", periodic_run(np.zeros([3, 4], np.float32), [None, None])),
    ("none_adjustable", periodic_run(np.zeros([3, 4], np.float32), [6, 4])),
    ("too_small", periodic_run(np.zeros([3, 4], np.float32), [2, None])),
    ("adjustable_zero", periodic_run(np.zeros([3, 4], np.float32), [13, None])),
    ("uint8", periodic_run(np.zeros([3, 4], np.uint8), [6, None])),
    ("float16", periodic_run(np.zeros([3, 4], np.float16), [6, None])),
    ("string", periodic_run(np.array([["a"]]), [2, None])),
    ("bool", periodic_run(np.zeros([3, 4], bool), [6, None])),
    ("minus_one", periodic_run(np.zeros([3, 4], np.float32), [6, -1])),
    ("scalar_shape", periodic_run(np.zeros([3, 4], np.float32), 5)),
    ("dyn_too_small", lambda: sess.run(pp, {vp: np.zeros([7, 4])})),
    ("dyn_rank", lambda: sess.run(pu, {up: np.zeros([2, 3, 4])}))])
# Deliberate differences (see DIFFERENCES below): TF 1.15 cannot build this gradient (its grad op wants a fully
# known input shape); and an index map past the input's end reads beyond TF 1.15's buffer.
report_errors("periodic_grad_unknown_shape", [("grad", lambda: sess.run(tf.gradients(tf.reduce_sum(pp), vp)[0],
                                                                        {vp: np.ones([3, 4])}))])
report("periodic_out_of_buffer", sess.run(P(np.arange(24.).reshape(4, 6), [None, 7])))
report("periodic_error_shapes", [static(P(np.zeros([3, 4], np.float32), w)) for w in
                                 ([6, None, 2], [None, None], [6, 4], [2, None], [13, None])])

# input_pipeline.obtain_next
strings = tf.constant(["a", "b", "c"])
counter = tf.Variable(-1, dtype=tf.int64, name="counter")
nxt = c.input_pipeline.obtain_next(strings, counter)
other = tf.Variable(-1, dtype=tf.int64, name="other")
from_list = c.input_pipeline.obtain_next(["x", "y"], other)
report("obtain_next_built", [nxt.name, str(nxt.dtype), static(nxt), from_list.name])
sess.run(tf.global_variables_initializer())
report("obtain_next_runs", [[sess.run(nxt) for _ in range(5)], sess.run(counter),
                            [sess.run(from_list) for _ in range(3)], sess.run(other)])
sess.run(counter.assign(7))
report("obtain_next_assigned", [sess.run(nxt), sess.run(counter), sess.run([nxt, nxt]), sess.run(counter)])
resource = tf.get_variable("resource_counter", initializer=tf.constant(-1, tf.int64), use_resource=True)
report_errors("obtain_next_errors", [
    ("resource", lambda: c.input_pipeline.obtain_next(strings, resource)),
    ("tensor", lambda: c.input_pipeline.obtain_next(strings, tf.constant(1, tf.int64))),
    ("int32", lambda: c.input_pipeline.obtain_next(strings, tf.Variable(0, name="int32_counter"))),
    ("float_list", lambda: c.input_pipeline.obtain_next(tf.constant([1.0]), counter)),
    ("matrix", lambda: c.input_pipeline.obtain_next([["x", "y"], ["z", "w"]], counter))])
'''


@requires_tf115
def test_contrib_sampling_testing_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6, differences=DIFFERENCES)
