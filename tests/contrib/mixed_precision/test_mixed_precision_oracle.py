"""contrib.mixed_precision (tf1clip's port) against TF 1.15: loss scaling, skipped non-finite steps, the scale's
updates, variable names, and tf1clip's clipping nested inside (it sees the unscaled gradients).

Each minimize names its var_list: TF 1.15's LossScaleOptimizer fails on a None gradient (is_finite(None));
tf1clip's lets None pass, as every tf1clip wrapper does."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.mixed_precision." + n for n in (
    "LossScaleOptimizer", "FixedLossScaleManager", "ExponentialUpdateLossScaleManager"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
mp = tf.contrib.mixed_precision
try:
    import tf1clip
except ImportError:
    tf1clip = None
x = tf.placeholder(tf.float32, [None, 3])
y = tf.placeholder(tf.float32, [None, 1])
poison = tf.placeholder(tf.float32, [])
def model(scope):
    with tf.variable_scope(scope):
        w = tf.get_variable("w", [3, 1])
        emb = tf.get_variable("emb", [5, 1])
        pred = tf.matmul(x, w) + tf.reduce_sum(tf.nn.embedding_lookup(emb, [1, 3]))
        return tf.reduce_mean(tf.square(pred - y)) * poison
gs = tf.train.get_or_create_global_step()
manager = mp.ExponentialUpdateLossScaleManager(128.0, incr_every_n_steps=2, decr_every_n_nan_or_inf=1,
                                               incr_ratio=2, decr_ratio=0.5)
opt = mp.LossScaleOptimizer(tf.train.AdamOptimizer(0.1), manager)
loss1 = model("exp")
train1 = opt.minimize(loss1, global_step=gs, var_list=tf.trainable_variables("exp"))
fixed = mp.LossScaleOptimizer(tf.train.GradientDescentOptimizer(0.1), mp.FixedLossScaleManager(64.0))
loss2 = model("fixed")
gv = fixed.compute_gradients(loss2, var_list=tf.trainable_variables("fixed"))
report("unscaled_grad_is_sparse", [type(g).__name__ for g, _ in gv])
# tf1clip's global-norm clip inside the loss scaling: it clips the unscaled gradients (TF 1.15: the same clip by hand)
inner = tf.train.GradientDescentOptimizer(0.2)
if tf1clip is not None:
    clipped_opt = mp.LossScaleOptimizer(tf1clip.clip_gradients_by_norm(inner, 0.05), mp.FixedLossScaleManager(1024.0))
    loss3 = model("clipped")
    train3 = clipped_opt.minimize(loss3, var_list=tf.trainable_variables("clipped"))
else:
    class Clip(tf.train.Optimizer):
        def __init__(self, opt):
            super(Clip, self).__init__(False, "Clip")
            self._opt = opt
        def compute_gradients(self, *a, **k):
            return self._opt.compute_gradients(*a, **k)
        def apply_gradients(self, gv, global_step=None, name=None):
            g, v = zip(*gv)
            g, _ = tf.clip_by_global_norm(g, 0.05)
            return self._opt.apply_gradients(zip(g, v), global_step, name)
    clipped_opt = mp.LossScaleOptimizer(Clip(inner), mp.FixedLossScaleManager(1024.0))
    loss3 = model("clipped")
    train3 = clipped_opt.minimize(loss3, var_list=tf.trainable_variables("clipped"))
train2 = fixed.apply_gradients(gv)
report_variables()
rng = np.random.RandomState(0)
xs, ys = rng.rand(8, 3).astype(np.float32), rng.rand(8, 1).astype(np.float32)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=2)
    sess.run(tf.assign(manager.get_loss_scale(), 128.0))
    for step, p in enumerate([1.0, 1.0, 1.0, float("nan"), 1.0, float("inf"), 1.0, 1.0]):
        sess.run([train1, train2, train3], {x: xs, y: ys, poison: p})
        report("scale_%d" % step, sess.run(manager.get_loss_scale()))
    report("weights", sess.run({v.op.name: v for v in tf.trainable_variables()}))
    report("global_step", sess.run(gs))
    report("counters", sess.run([v for v in tf.global_variables() if v.op.name in ("good_steps", "bad_steps")]))
'''


@requires_tf115
def test_loss_scale_optimizer_and_managers_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["scale_3"] < tf115["scale_2"]  # the NaN step lowered the scale (and was skipped)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6, differences={
      "unscaled_grad_is_sparse": "tf1clip keeps the embedding's IndexedSlices sparse through the division; "
                                 "TF 1.15 densified it (same values)"})
  assert ours["unscaled_grad_is_sparse"][1] == "IndexedSlices"
