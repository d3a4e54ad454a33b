"""contrib.batching against TF 1.15: batch_function (TF 1.15's list of outputs)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.batching.batch_function",)

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# batching (graph mode: a batched function, called once)
@c.batching.batch_function(1, 4, 100000)
def doubled(x):
    return x * 2
batched = doubled(tf.constant([[1.0], [2.0]]))
with tf.Session() as sess:
    report("batched", sess.run(batched))
'''


@requires_tf115
def test_batching_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
