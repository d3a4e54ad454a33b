"""contrib.sparsemax against TF 1.15: sparsemax / sparsemax_loss (values and gradients, NaN rows)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.sparsemax.sparsemax", "tf.contrib.sparsemax.sparsemax_loss")

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# sparsemax
logits = tf.constant([[1.0, 2.0, 0.5, -1.0], [0.1, 0.1, 0.1, 0.1], [3.0, -2.0, 1.0, 2.9],
                      [float("nan"), 1.0, 0.0, 0.0]])
labels = tf.constant([[0.0, 1.0, 0.0, 0.0], [0.25, 0.25, 0.25, 0.25], [1.0, 0.0, 0.0, 0.0],
                      [0.0, 1.0, 0.0, 0.0]])
p = c.sparsemax.sparsemax(logits)
loss = c.sparsemax.sparsemax_loss(logits, p, labels)
good = tf.constant([[1.0, 2.0, 0.5, -1.0], [3.0, -2.0, 1.0, 2.9]])
grad = tf.gradients(tf.reduce_sum(c.sparsemax.sparsemax(good) * [[1.0, 2.0, 3.0, 4.0]]), good)[0]
with tf.Session() as sess:
    report("sparsemax", sess.run({"p": p, "loss": loss, "grad": grad}))
'''


@requires_tf115
def test_sparsemax_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
