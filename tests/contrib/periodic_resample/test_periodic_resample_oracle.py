"""contrib.periodic_resample against TF 1.15: values, static shapes, op names and gradients (TF 1.15's
last-writer-wins kernel, with repeated copies) on 2-D to 4-D shapes, integer inputs, partially known and unknown
input shapes, and its errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.periodic_resample.periodic_resample",)

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
import numpy as np
import tensorflow as tf
c = tf.contrib
rng = np.random.RandomState(0)
sess = tf.Session()


def static(t):
  return None if t.shape.ndims is None else t.shape.as_list()


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
'''


@requires_tf115
def test_contrib_periodic_resample_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6, differences=DIFFERENCES)
