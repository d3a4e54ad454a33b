"""contrib.opt's matrix-preconditioned optimizers against TF 1.15.

GGTOptimizer: the same weights after more steps than the window (the ring buffer wraps) for float64 variables
of several shapes (float32: the first step; later float32 steps amplify the SVD's roundoff, which differs
between TensorFlow builds), the same non-slot variables, and the refusal of sparse gradients
(NotImplementedError here; TF 1.15 raised a TypeError from a slip, stated below).

ShampooOptimizer: the same slots (checkpoint keys) and weights over several steps with SVD and iterative roots,
momentum, decayed statistics, svd/update intervals, callable hyperparameters, diagonal statistics for big
dimensions, and sparse gradients (densified, or rows only)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.opt.GGTOptimizer", "tf.contrib.opt.ShampooOptimizer")

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
Shampoo = tf.contrib.opt.ShampooOptimizer
for name, make in (
        ("svd", lambda step: Shampoo(learning_rate=0.1)),
        ("momentum_intervals", lambda step: Shampoo(global_step=step, gbar_decay=0.9, gbar_weight=0.1,
                                                    mat_gbar_decay=0.5, mat_gbar_weight=2.0, svd_interval=2,
                                                    precond_update_interval=2, learning_rate=lambda t: 0.2 / t)),
        ("diagonal", lambda step: Shampoo(max_matrix_size=2, learning_rate=0.05, alpha=lambda t: 0.5)),
        ("iterative", lambda step: Shampoo(use_iterative_root=True, learning_rate=0.1, epsilon=1e-3))):
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        a = tf.Variable(rng.randn(3, 2).astype(np.float32), name="a")
        b = tf.Variable(rng.randn(4).astype(np.float32), name="b")
        c = tf.Variable(rng.randn(2, 3, 2).astype(np.float32), name="c")
        emb = tf.Variable(rng.randn(5, 2).astype(np.float32), name="emb")
        x = tf.constant(rng.randn(5, 3).astype(np.float32))
        loss = (tf.reduce_sum(tf.square(tf.matmul(x, a) - 1.0)) + tf.reduce_sum(tf.sin(b) * b)
                + tf.reduce_sum(tf.tanh(c) * c) + tf.reduce_sum(tf.square(tf.gather(emb, [0, 3, 3]) - 0.5)))
        train = make(step).minimize(loss, global_step=step)
        report("shampoo_slots_" + name, sorted((v.op.name, v.shape.as_list()) for v in tf.global_variables()))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = []
            for _ in range(4):
                sess.run(train)
                values.append(sess.run([a, b, c, emb]))
            report("shampoo_values_" + name, values)
with tf.Graph().as_default():
    # a big first dimension: only the gradient's rows (and their diagonal statistics) move
    emb = tf.Variable(rng.randn(6, 3).astype(np.float32), name="emb")
    loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(emb, [1, 4, 4]) - 0.3))
    train = Shampoo(max_matrix_size=4, learning_rate=0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        report("shampoo_sparse_rows", [sess.run([train, emb])[1] for _ in range(3)])
'''


@requires_tf115
def test_ggt_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  # Both refuse sparse gradients; TF 1.15's refusal was a TypeError from a signature slip in its
  # _apply_sparse (a stated difference: tf1clip raises the NotImplementedError TF 1.15's code meant).
  assert tf115.pop("errors") == {"sparse": "TypeError"}
  assert ours.pop("errors") == {"sparse": "NotImplementedError"}
  shampoo = sorted(k for k in tf115 if k.startswith("shampoo_values"))
  # Shampoo in float32: the statistic of a vector's gradient is rank one plus epsilon damping, so its
  # power -1/4 multiplies the SVD's roundoff (different between TensorFlow builds) about 5x a step; measured
  # differences reach 6e-5 by the fourth step (values ~0.2), 1e-5 with momentum; the rest agree to 1e-6.
  assert_same(tf115, ours, rtol=1e-3, atol=1e-4, keys=shampoo)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5, keys=[k for k in tf115 if k not in shampoo])
