"""tf1clip's clipping functions and optimizer wrappers against TF 1.15's own: values, variables, checkpoint keys.

Under `tf1clip run`, `tf.contrib.layers.optimize_loss`, `adaptive_clipping_fn`, `tf.contrib.estimator.
clip_gradients_by_norm` and `tf.train.SyncReplicasOptimizer` are tf1clip's; `tf1clip.clip_by_*` are ours too.
The snippet calls TF 1.15's function on the TF 1.15 side and tf1clip's on the other (`tf1clip` imports only
under tf1clip), from the same initial weights, and compares every result.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.clip_by_global_norm", "tf.clip_by_norm", "tf.clip_by_value", "tf.clip_by_average_norm",
    "tf.global_norm", "tf.contrib.layers.optimize_loss", "tf.contrib.layers.OPTIMIZER_SUMMARIES",
    "tf.contrib.layers.OPTIMIZER_CLS_NAMES",
    "tf.contrib.estimator.clip_gradients_by_norm", "tf.train.SyncReplicasOptimizer",
    "tf.contrib.opt.clip_gradients_by_global_norm", "tf.contrib.opt.MultitaskOptimizerWrapper",
)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
try:
    import tf1clip as C          # only under tf1clip run
except ImportError:
    C = None
clip = C if C is not None else tf  # tf1clip.clip_by_* here, TF 1.15's there

rng = np.random.RandomState(0)
a = tf.constant(rng.standard_normal([3, 4]).astype(np.float32))
b = tf.constant(rng.standard_normal([5]).astype(np.float32) * 10)
sparse = tf.IndexedSlices(tf.constant(rng.standard_normal([2, 4]).astype(np.float32) * 3),
                          tf.constant([0, 2]), tf.constant([3, 4]))
clipped, norm = clip.clip_by_global_norm([a, None, b, sparse], 2.5)
with case("global_norm_nan"):
    nan_clipped, nan_norm = clip.clip_by_global_norm([a, tf.constant([np.nan])], 1.0)
results = {
    "global_a": clipped[0], "global_b": clipped[2], "global_norm": norm,
    "global_sparse": tf.convert_to_tensor(clipped[3]), "global_norm_fn": clip.global_norm([a, b]),
    "by_norm": clip.clip_by_norm(a, 1.5), "by_norm_axes": clip.clip_by_norm(a, 1.0, axes=[1]),
    "by_value": clip.clip_by_value(b, -2.0, 3.0), "by_average_norm": clip.clip_by_average_norm(a, 0.1),
    "nan_norm": nan_norm, "nan_clipped": nan_clipped[0],
}
report("global_none_passes", clipped[1] is None)
report("sparse_stays_sparse", isinstance(clipped[3], tf.IndexedSlices))
report("optimizer_tables", [list(tf.contrib.layers.OPTIMIZER_SUMMARIES),
                            sorted(tf.contrib.layers.OPTIMIZER_CLS_NAMES)])
with case("clip_by_value_min_gt_max"):
    tf.Session().run(clip.clip_by_value(b, 3.0, -2.0))

# optimize_loss / adaptive_clipping_fn / clip_gradients_by_norm: 4 training steps from the same weights.
x = tf.constant(rng.standard_normal([8, 4]).astype(np.float32))
y = tf.constant(rng.standard_normal([8, 1]).astype(np.float32))
def model(scope):
    with tf.variable_scope(scope):
        w = tf.get_variable("w", [4, 1])
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
        return tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
gs = tf.train.get_or_create_global_step()
loss1 = model("ol")
train1 = tf.contrib.layers.optimize_loss(loss1, gs, 0.1, "Adam", clip_gradients=0.5,
                                         summaries=["loss", "gradient_norm"], name="OL")
try:
    adaptive_clipping_fn = tf.contrib.layers.adaptive_clipping_fn  # tf1clip serves it here
except AttributeError:  # TF 1.15 kept it out of tf.contrib.layers' public names
    from tensorflow.contrib.layers.python.layers.optimizers import adaptive_clipping_fn
loss2 = model("acf")
train2 = tf.contrib.layers.optimize_loss(
    loss2, None, 0.1, "Momentum" if False else tf.train.MomentumOptimizer(0.1, 0.9),
    clip_gradients=adaptive_clipping_fn(decay=0.9, static_max_norm=1.0), name="ACF")
loss3 = model("cgn")
opt3 = tf.contrib.estimator.clip_gradients_by_norm(tf.train.AdagradOptimizer(0.2), 0.3)
train3 = opt3.minimize(loss3)
loss4 = model("cggn")
opt4 = tf.train.GradientDescentOptimizer(0.3)
clipped4, norm4 = tf.contrib.opt.clip_gradients_by_global_norm(opt4.compute_gradients(loss4), 0.2)
train4 = opt4.apply_gradients(clipped4)
loss5 = model("mtw")
opt5 = tf.contrib.opt.MultitaskOptimizerWrapper(tf.train.GradientDescentOptimizer(0.3))
train5 = opt5.minimize(loss5)
# SyncReplicasOptimizer, one replica, through its hook in a MonitoredSession
loss6 = model("sync")
opt6 = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.2), replicas_to_aggregate=1,
                                      total_num_replicas=1)
sync_gs = tf.Variable(0, trainable=False, name="sync_global_step", dtype=tf.int64)
train6 = opt6.minimize(loss6, global_step=sync_gs)
hook = opt6.make_session_run_hook(is_chief=True, num_tokens=0)
report("summaries", sorted(op.name for op in tf.get_collection(tf.GraphKeys.SUMMARIES)))
report_variables()
with tf.train.MonitoredSession(hooks=[hook]) as sess:
    raw = sess._tf_sess() if hasattr(sess, "_tf_sess") else None
    init_from_numpy(raw, seed=5)
    for k, v in sorted(sess.run(results).items()):
        report(k, v)
    for step in range(4):
        losses = sess.run([loss1, loss2, loss3, loss4, loss5, loss6, train1, train2, train3, train4, train5])[:6]
        sess.run(train6)
        report("losses_%d" % step, losses)
    report("weights", {v.op.name: raw.run(v) for v in tf.trainable_variables()})
    report("sync_global_step", raw.run(sync_gs))
    report("global_step", raw.run(gs))
    finish()  # TF 1.15's sync queue runners would hold the exit for two minutes
'''


@requires_tf115
def test_clipping_and_wrapped_optimizers_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["sparse_stays_sparse"] is True and ours["sparse_stays_sparse"] is True
  assert "clip_by_value_min_gt_max:error" in ours  # TF 1.15 raises at run time; tf1clip at build time
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6, differences={
      "clip_by_value_min_gt_max:error": "tf1clip rejects clip_value_min > clip_value_max when the graph is "
                                        "built, naming the argument; TF 1.15 silently returned a value",
      "summaries": "tf1clip's wrappers add their tf1clip/ recording summaries (docs/observability.md)",
      "variables": "compared without tf1clip's own state below",
  })
  ours_vars = [v for v in ours["variables"] if not v[0].startswith("tf1clip")]
  assert ours_vars == tf115["variables"]
  assert set(tf115["summaries"]) <= set(ours["summaries"])
