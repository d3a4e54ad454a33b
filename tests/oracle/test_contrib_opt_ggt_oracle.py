"""tf.contrib.opt.GGTOptimizer against TF 1.15: the same weights after more steps than the window (the ring buffer
wraps) for float64 variables of several shapes (float32: the first step; later float32 steps amplify the SVD's
roundoff, which differs between TensorFlow builds), the same non-slot variables, and the refusal of
sparse gradients (NotImplementedError here; TF 1.15 raised a TypeError from a slip, stated below)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.opt.GGTOptimizer",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
rng = np.random.RandomState(0)
for name, dtype, window in (("f32", tf.float32, 3), ("f64", tf.float64, 4)):
    with tf.Graph().as_default():
        a = tf.Variable(rng.randn(3, 2), dtype=dtype, name="a")
        b = tf.Variable(rng.randn(4), dtype=dtype, name="b")
        x = tf.constant(rng.randn(5, 3), dtype=dtype)
        loss = tf.reduce_sum(tf.square(tf.matmul(x, a))) + tf.reduce_sum(tf.sin(b) * b)
        opt = tf.contrib.opt.GGTOptimizer(learning_rate=0.05, beta1=0.8, window=window)
        step = opt.minimize(loss)
        report("variables_" + name, sorted((v.op.name, v.shape.as_list()) for v in tf.global_variables()))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = []
            for _ in range(window + 3):
                sess.run(step)
                values.append(sess.run([a, b]))
            if dtype == tf.float64:
                report("values_" + name, values)
            else:
                # float32: from the second step GGT divides by singular values near svd_eps (1e-6) of a
                # partly empty window, so the weights follow the SVD's float32 roundoff, which differs
                # between TensorFlow builds; the first step, and every float64 step, are compared exactly.
                report("values_f32_first_step", values[0])
                report("values_f32_finite", bool(np.all([np.isfinite(v).all() for vs in values for v in vs])))
with tf.Graph().as_default():
    emb = tf.Variable(np.ones([4, 2], np.float32))
    sparse_loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, [1, 2]))
    report_errors("errors", (("sparse", lambda: tf.contrib.opt.GGTOptimizer().minimize(sparse_loss)),))
'''


@requires_tf115
def test_ggt_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  # Both refuse sparse gradients; TF 1.15's refusal was a TypeError from a signature slip in its
  # _apply_sparse (a stated difference: tf1clip raises the NotImplementedError TF 1.15's code meant).
  assert tf115.pop("errors") == {"sparse": "TypeError"}
  assert ours.pop("errors") == {"sparse": "NotImplementedError"}
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
