"""contrib.nn against TF 1.15: values and gradients of the ported ops (alpha_dropout with the same op seed,
scaled_softplus with and without clip, nth_element, the flipped losses), the served conv1d_transpose, the sampled
softmax losses, and the errors for bad arguments."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.nn." + n for n in (
    "alpha_dropout", "scaled_softplus", "nth_element", "conv1d_transpose",
    "deprecated_flipped_softmax_cross_entropy_with_logits",
    "deprecated_flipped_sparse_softmax_cross_entropy_with_logits",
    "deprecated_flipped_sigmoid_cross_entropy_with_logits", "sampled_sparse_softmax_loss",
    "rank_sampled_softmax_loss"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
nn = tf.contrib.nn
tf.set_random_seed(7)
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(4, 6).astype(np.float32))
alpha = tf.constant([0.5, 1.0, 2.0, 0.5, 1.0, 3.0])
clip = tf.constant(1.5)
out = {
    "alpha_dropout": nn.alpha_dropout(x, 0.7, seed=3),
    "alpha_dropout_shape": nn.alpha_dropout(x, 0.5, noise_shape=[4, 1], seed=5),
    "alpha_dropout_keep_all_is_x": tf.reduce_all(tf.equal(nn.alpha_dropout(x, 1.0), x)),
    "softplus": nn.scaled_softplus(x, alpha),
    "softplus_clip": nn.scaled_softplus(x, alpha, clip),
    "nth": nn.nth_element(x, 2),
    "nth_reverse": nn.nth_element(x, 0, reverse=True),
    "flipped_softmax": nn.deprecated_flipped_softmax_cross_entropy_with_logits(x, tf.nn.softmax(x * 2)),
    "flipped_sparse": nn.deprecated_flipped_sparse_softmax_cross_entropy_with_logits(x, [0, 5, 2, 1]),
    "flipped_sigmoid": nn.deprecated_flipped_sigmoid_cross_entropy_with_logits(x, tf.sigmoid(x * 3)),
    "conv1d_transpose": nn.conv1d_transpose(tf.reshape(x, [2, 4, 3]), tf.ones([3, 2, 3]), [2, 8, 2], 2),
}
grads = {}
for key in ("softplus", "softplus_clip"):
    inputs = [x, alpha] + ([clip] if key.endswith("clip") else [])
    grads[key] = tf.gradients(tf.reduce_sum(out[key] * tf.cos(x)), inputs)
report_errors("errors", (("keep_prob_0", lambda: nn.alpha_dropout(x, 0.0)), ("keep_prob_2", lambda: nn.alpha_dropout(x, 2.0)),
                  ("keep_prob_rank", lambda: nn.alpha_dropout(x, tf.constant([0.5, 0.5])))))
with tf.Session() as sess:
    report("out", sess.run(out))
    report("grads", sess.run(grads))
'''


@requires_tf115
def test_contrib_nn_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"] == {"keep_prob_0": "ValueError", "keep_prob_2": "ValueError", "keep_prob_rank": "ValueError"}
  assert tf115["out"]["alpha_dropout_keep_all_is_x"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)

SAMPLED_SNIPPET = r'''
import numpy as np
import tensorflow as tf
nn = tf.contrib.nn
rng = np.random.RandomState(3)
num_classes, dim, batch = 12, 4, 5
w = tf.Variable(rng.randn(num_classes, dim).astype(np.float32))
shards = [tf.Variable(rng.randn(6, dim).astype(np.float32)), tf.Variable(rng.randn(6, dim).astype(np.float32))]
b = tf.Variable(rng.randn(num_classes).astype(np.float32))
x = tf.constant(rng.randn(batch, dim).astype(np.float32))
labels = tf.constant(np.array([1, 4, 7, 7, 11], np.int64))
# fixed candidates (no sampler randomness): ids, expected counts of the true classes and of the candidates
sampled6 = (tf.constant([0, 3, 4, 8, 9, 10], tf.int64), tf.constant(np.full([batch, 1], 0.3, np.float32)),
            tf.constant(np.linspace(0.1, 0.6, 6).astype(np.float32)))
results = {}
results["sparse"] = nn.sampled_sparse_softmax_loss(w, b, labels[:, None], x, num_sampled=6, num_classes=num_classes,
                                                   sampled_values=sampled6)
results["sparse_keep_hits"] = nn.sampled_sparse_softmax_loss(
    w, b, labels[:, None], x, num_sampled=6, num_classes=num_classes, sampled_values=sampled6,
    remove_accidental_hits=False)
results["sparse_div"] = nn.sampled_sparse_softmax_loss(shards, b, labels[:, None], x, num_sampled=6, num_classes=num_classes,
                                                       sampled_values=sampled6, partition_strategy="div")
for strategy, weights in (("mod", w), ("div", shards)):
    results["rank_" + strategy] = nn.rank_sampled_softmax_loss(
        weights, b, labels[:, None], x, num_sampled=6, num_resampled=3, num_classes=num_classes, num_true=1,
        sampled_values=sampled6, resampling_temperature=2.0, remove_accidental_hits=True,
        partition_strategy=strategy)
grads = tf.gradients(sum(tf.reduce_sum(v) for v in results.values()), [w, b] + shards)
grads = [tf.convert_to_tensor(g) for g in grads]   # sparse gradients: compare their dense sums
report_errors("errors", (
    ("too_many_sampled", lambda: nn.rank_sampled_softmax_loss(w, b, labels[:, None], x, 20, 3, num_classes, 1,
                                                              sampled6, 1.0, True, "mod")),
    ("resampled_not_fewer", lambda: nn.rank_sampled_softmax_loss(w, b, labels[:, None], x, 6, 6, num_classes, 1,
                                                                 sampled6, 1.0, True, "mod")),
    ("bad_strategy", lambda: nn.rank_sampled_softmax_loss(w, b, labels[:, None], x, 6, 3, num_classes, 1,
                                                          sampled6, 1.0, True, "random"))))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    report("values", sess.run({"losses": results, "grads": grads}))
'''


@requires_tf115
def test_sampled_softmax_losses_match_tf115():
  tf115, ours = run_both(SAMPLED_SNIPPET)
  assert set(tf115["errors"].values()) == {"ValueError"}
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
