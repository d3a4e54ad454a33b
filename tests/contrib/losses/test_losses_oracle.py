"""contrib.losses (and metric_learning) against TF 1.15: the losses' values and the LOSSES collection they fill;
the metric-learning losses on one batch of embeddings. (metric_learning's cluster_loss needs scikit-learn on both
sides, which neither environment installs: not compared.)
"""

from harness import assert_same, requires_tf115, run_both

LOSSES = ("absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance", "get_losses",
          "get_regularization_losses", "get_total_loss", "hinge_loss", "log_loss", "mean_pairwise_squared_error",
          "mean_squared_error", "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy",
          "metric_learning")
METRIC_LEARNING = ("contrastive_loss", "lifted_struct_loss", "npairs_loss", "npairs_loss_multilabel",
                   "triplet_semihard_loss")
ORACLE_TESTED = (tuple("tf.contrib.losses." + n for n in LOSSES)
                 + tuple("tf.contrib.losses.metric_learning." + n for n in METRIC_LEARNING))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
c = tf.contrib
L = c.losses
rng = np.random.RandomState(0)
f32 = lambda a: tf.constant(np.asarray(a, np.float32))
pred = f32(rng.uniform(0.05, 0.95, [4, 3]))
label = f32(rng.randint(0, 2, [4, 3]))
weights = f32([[1.0], [0.5], [2.0], [0.0]])
out = {
    "absolute_difference": L.absolute_difference(pred, label, weights),
    "compute_weighted_loss": L.compute_weighted_loss(pred, weights),
    "cosine_distance": L.cosine_distance(tf.nn.l2_normalize(pred, 1), tf.nn.l2_normalize(label + 0.1, 1), axis=1),
    "hinge_loss": L.hinge_loss(pred - 0.5, label),
    "log_loss": L.log_loss(pred, label, weights),
    "mean_pairwise_squared_error": L.mean_pairwise_squared_error(pred, label, weights),
    "mean_squared_error": L.mean_squared_error(pred, label, weights),
    "sigmoid_cross_entropy": L.sigmoid_cross_entropy(pred - 0.5, label, label_smoothing=0.1),
    "softmax_cross_entropy": L.softmax_cross_entropy(pred, tf.one_hot([0, 2, 1, 1], 3), label_smoothing=0.2),
    "sparse_softmax_cross_entropy": L.sparse_softmax_cross_entropy(pred, [0, 2, 1, 1], weights),
}
L.add_loss(tf.constant(0.25))
tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, tf.constant(0.5))
report("collected", [len(L.get_losses()), len(L.get_regularization_losses())])
out["total"] = L.get_total_loss()
out["total_without_regularization"] = L.get_total_loss(add_regularization_losses=False)
M = L.metric_learning
embeddings = tf.nn.l2_normalize(f32(rng.randn(8, 4)), 1)
ids = tf.constant([0, 0, 1, 1, 2, 2, 3, 3])
out["metric_learning"] = {
    "contrastive": M.contrastive_loss(tf.constant([1, 0, 1, 0]), embeddings[:4], embeddings[4:], margin=0.5),
    "lifted_struct": M.lifted_struct_loss(ids, embeddings, margin=0.5),
    "npairs": M.npairs_loss(tf.constant([0, 1, 2, 3]), embeddings[::2], embeddings[1::2]),
    "npairs_multilabel": M.npairs_loss_multilabel(  # one [1, classes] SparseTensor per example
        [tf.SparseTensor([[0, j] for j in classes], tf.ones([len(classes)], tf.int64), [1, 4])
         for classes in ([0], [1], [1, 2], [3])], embeddings[::2], embeddings[1::2]),
    "triplet_semihard": M.triplet_semihard_loss(ids, embeddings, margin=0.5),
}
with tf.Session() as sess:
    for key, value in sorted(out.items()):
        report(key, sess.run(value))
'''


@requires_tf115
def test_losses_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
