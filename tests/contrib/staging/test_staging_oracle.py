"""contrib.staging against TF 1.15: a StagingArea's put / get and its size op."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.staging.StagingArea",)

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# staging
area = c.staging.StagingArea([tf.float32, tf.int32], shapes=[[2], []])
put = area.put([tf.constant([1.0, 2.0]), tf.constant(7)])
got = area.get()
report("staging_size_op", type(area.size()).__name__ in ("Tensor", "SymbolicTensor"))
with tf.Session() as sess:
    sess.run(put)
    report("staged", sess.run(got))
'''


@requires_tf115
def test_staging_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
