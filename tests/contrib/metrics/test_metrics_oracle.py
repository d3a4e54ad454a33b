"""tf.contrib.metrics against TF 1.15: every streaming metric's value after two weighted update batches, the
one-shot ones (accuracy, confusion_matrix, the set ops, auc_using_histogram), and the aggregators.

A few streaming metrics and f1_score on one batch (STREAMING_SNIPPET), as tf-slim's ports serve them.
"""

from harness import assert_same, requires_tf115, run_both

STREAMING = (
    "streaming_accuracy", "streaming_auc", "streaming_concat", "streaming_covariance", "streaming_curve_points",
    "streaming_dynamic_auc", "streaming_false_negative_rate", "streaming_false_negative_rate_at_thresholds",
    "streaming_false_negatives", "streaming_false_negatives_at_thresholds", "streaming_false_positive_rate",
    "streaming_false_positive_rate_at_thresholds", "streaming_false_positives",
    "streaming_false_positives_at_thresholds", "streaming_mean", "streaming_mean_absolute_error",
    "streaming_mean_cosine_distance", "streaming_mean_iou", "streaming_mean_relative_error",
    "streaming_mean_squared_error", "streaming_mean_tensor", "streaming_pearson_correlation",
    "streaming_percentage_less", "streaming_precision", "streaming_precision_at_thresholds", "streaming_recall",
    "streaming_recall_at_k", "streaming_recall_at_thresholds", "streaming_root_mean_squared_error",
    "streaming_sensitivity_at_specificity", "streaming_sparse_average_precision_at_k",
    "streaming_sparse_average_precision_at_top_k", "streaming_sparse_precision_at_k",
    "streaming_sparse_precision_at_top_k", "streaming_sparse_recall_at_k", "streaming_specificity_at_sensitivity",
    "streaming_true_negatives", "streaming_true_negatives_at_thresholds", "streaming_true_positives",
    "streaming_true_positives_at_thresholds", "auc_with_confidence_intervals", "cohen_kappa", "count",
    "precision_at_recall", "precision_recall_at_equal_thresholds", "recall_at_precision", "sparse_recall_at_top_k")
OTHER = ("accuracy", "confusion_matrix", "set_difference", "set_intersection", "set_size", "set_union",
         "auc_using_histogram", "aggregate_metrics", "aggregate_metric_map")
ORACLE_TESTED = tuple("tf.contrib.metrics." + n for n in STREAMING + OTHER)

ORACLE_TESTED = ORACLE_TESTED + tuple("tf.contrib.metrics." + n for n in (
    "streaming_accuracy", "streaming_mean", "streaming_auc", "streaming_precision", "streaming_recall",
    "streaming_mean_iou", "f1_score"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
m = tf.contrib.metrics
rng = np.random.RandomState(0)
probs = tf.placeholder(tf.float32, [6])
labels = tf.placeholder(tf.int64, [6])
weights = tf.placeholder(tf.float32, [6])
values = tf.placeholder(tf.float32, [6])
scores = tf.placeholder(tf.float32, [6, 4])
classes = tf.placeholder(tf.int64, [6])
bool_labels = tf.cast(labels, tf.bool)
bool_preds = probs > 0.5
th = [0.25, 0.5, 0.75]
metrics = {
    "streaming_accuracy": m.streaming_accuracy(tf.cast(bool_preds, tf.int64), labels, weights),
    "streaming_auc": m.streaming_auc(probs, labels, weights, num_thresholds=50),
    "streaming_concat": m.streaming_concat(values),
    "streaming_covariance": m.streaming_covariance(probs, values, weights),
    "streaming_curve_points": m.streaming_curve_points(labels, probs, num_thresholds=5),
    "streaming_dynamic_auc": m.streaming_dynamic_auc(labels, probs),
    "streaming_false_negative_rate": m.streaming_false_negative_rate(bool_preds, bool_labels, weights),
    "streaming_false_negative_rate_at_thresholds": m.streaming_false_negative_rate_at_thresholds(probs, labels, th),
    "streaming_false_negatives": m.streaming_false_negatives(bool_preds, bool_labels),
    "streaming_false_negatives_at_thresholds": m.streaming_false_negatives_at_thresholds(probs, labels, th),
    "streaming_false_positive_rate": m.streaming_false_positive_rate(bool_preds, bool_labels),
    "streaming_false_positive_rate_at_thresholds": m.streaming_false_positive_rate_at_thresholds(probs, labels, th),
    "streaming_false_positives": m.streaming_false_positives(bool_preds, bool_labels, weights),
    "streaming_false_positives_at_thresholds": m.streaming_false_positives_at_thresholds(probs, labels, th),
    "streaming_mean": m.streaming_mean(values, weights),
    "streaming_mean_absolute_error": m.streaming_mean_absolute_error(probs, values),
    "streaming_mean_cosine_distance": m.streaming_mean_cosine_distance(
        tf.nn.l2_normalize(scores, 1), tf.nn.l2_normalize(scores + 0.5, 1), dim=1),
    "streaming_mean_iou": m.streaming_mean_iou(classes, tf.argmax(scores, 1), 4),
    "streaming_mean_relative_error": m.streaming_mean_relative_error(probs, values + 2.0, values + 2.0),
    "streaming_mean_squared_error": m.streaming_mean_squared_error(probs, values, weights),
    "streaming_mean_tensor": m.streaming_mean_tensor(scores),
    "streaming_pearson_correlation": m.streaming_pearson_correlation(probs, values),
    "streaming_percentage_less": m.streaming_percentage_less(values, 0.0),
    "streaming_precision": m.streaming_precision(bool_preds, bool_labels),
    "streaming_precision_at_thresholds": m.streaming_precision_at_thresholds(probs, labels, th),
    "streaming_recall": m.streaming_recall(bool_preds, bool_labels, weights),
    "streaming_recall_at_k": m.streaming_recall_at_k(scores, classes, 2),
    "streaming_recall_at_thresholds": m.streaming_recall_at_thresholds(probs, labels, th),
    "streaming_root_mean_squared_error": m.streaming_root_mean_squared_error(probs, values),
    "streaming_sensitivity_at_specificity": m.streaming_sensitivity_at_specificity(probs, labels, 0.5,
                                                                                  num_thresholds=20),
    "streaming_sparse_average_precision_at_k": m.streaming_sparse_average_precision_at_k(scores, classes, 2),
    "streaming_sparse_average_precision_at_top_k": m.streaming_sparse_average_precision_at_top_k(
        tf.nn.top_k(scores, 2).indices, classes),
    "streaming_sparse_precision_at_k": m.streaming_sparse_precision_at_k(scores, classes, 2),
    "streaming_sparse_precision_at_top_k": m.streaming_sparse_precision_at_top_k(tf.nn.top_k(scores, 2).indices,
                                                                                 classes),
    "streaming_sparse_recall_at_k": m.streaming_sparse_recall_at_k(scores, classes, 2, class_id=1),
    "streaming_specificity_at_sensitivity": m.streaming_specificity_at_sensitivity(probs, labels, 0.5,
                                                                                  num_thresholds=20),
    "streaming_true_negatives": m.streaming_true_negatives(bool_preds, bool_labels),
    "streaming_true_negatives_at_thresholds": m.streaming_true_negatives_at_thresholds(probs, labels, th),
    "streaming_true_positives": m.streaming_true_positives(bool_preds, bool_labels, weights),
    "streaming_true_positives_at_thresholds": m.streaming_true_positives_at_thresholds(probs, labels, th),
    "auc_with_confidence_intervals": m.auc_with_confidence_intervals(labels, probs),
    "cohen_kappa": m.cohen_kappa(classes, tf.argmax(scores, 1), 4),
    "count": m.count(values, weights),
    "precision_at_recall": m.precision_at_recall(labels, probs, 0.5, num_thresholds=20),
    "precision_recall_at_equal_thresholds": m.precision_recall_at_equal_thresholds(bool_labels, probs,
                                                                                   num_thresholds=5),
    "recall_at_precision": m.recall_at_precision(labels, probs, 0.5, num_thresholds=20),
    "sparse_recall_at_top_k": m.sparse_recall_at_top_k(classes, tf.nn.top_k(scores, 2).indices),
}
values_op, updates_op = m.aggregate_metric_map({"mean": m.streaming_mean(values), "acc": m.streaming_accuracy(
    tf.argmax(scores, 1), classes)})
agg_values, agg_update = m.aggregate_metrics(m.streaming_mean(probs), m.count(values))
sets_a = tf.constant([[1, 2, 3], [4, 5, 0]])
sets_b = tf.constant([[2, 3, 6], [4, 7, 8]])
one_shot = {
    "accuracy": m.accuracy(tf.argmax(scores, 1), classes),
    "confusion_matrix": m.confusion_matrix(classes, tf.argmax(scores, 1), num_classes=4),
    "set_difference": tf.sparse.to_dense(m.set_difference(sets_a, sets_b)),
    "set_intersection": tf.sparse.to_dense(m.set_intersection(sets_a, sets_b)),
    "set_union": tf.sparse.to_dense(m.set_union(sets_a, sets_b)),
    "set_size": m.set_size(tf.sparse.from_dense(sets_a)),
}
auc_hist = m.auc_using_histogram(bool_labels, probs, [0.0, 1.0], nbins=10)
batches = [{probs: rng.uniform(0, 1, 6), labels: rng.randint(0, 2, 6), weights: rng.uniform(0.5, 2, 6),
            values: rng.randn(6), scores: rng.uniform(0, 1, [6, 4]), classes: rng.randint(0, 4, 6)}
           for _ in range(2)]
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    for feed in batches:
        sess.run([update for _, update in metrics.values()] + [updates_op, agg_update, auc_hist[1]], feed)
    report("streaming", sess.run({k: value for k, (value, _) in metrics.items()}, batches[-1]))
    report("aggregated", sess.run([values_op, agg_values]))
    report("auc_using_histogram", sess.run(auc_hist[0]))
    report("one_shot", sess.run(one_shot, batches[0]))
'''


@requires_tf115
def test_contrib_metrics_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)


STREAMING_SNIPPET = r'''
import numpy as np
import tensorflow as tf
# metrics (tf-slim's, which are TF 1.15's contrib.metrics)
labels = tf.constant([1, 0, 1, 1, 0, 1], tf.int64)
preds = tf.constant([1, 0, 0, 1, 1, 1], tf.int64)
probs = tf.constant([0.9, 0.1, 0.4, 0.8, 0.6, 0.7])
m = tf.contrib.metrics
metric_ops = {
    "accuracy": m.streaming_accuracy(preds, labels),
    "mean": m.streaming_mean(probs),
    "auc": m.streaming_auc(probs, labels),
    "precision": m.streaming_precision(preds, labels),
    "recall": m.streaming_recall(preds, labels),
    "mean_iou": m.streaming_mean_iou(preds, labels, 2),
    "f1": m.f1_score(labels, probs, num_thresholds=5),
}
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    sess.run({k: op[1] for k, op in metric_ops.items()})
    for k, v in sorted(sess.run({k: op[0] for k, op in metric_ops.items()}).items()):
        report("metric_" + k, v)
'''


@requires_tf115
def test_streaming_metrics_on_one_batch_match_tf115():
  tf115, ours = run_both(STREAMING_SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
