"""`tf.contrib.metrics`: TF 1.15's streaming metrics, which are tf-slim's `metrics` module now.

Every `streaming_*` function, `aggregate_metrics`, `aggregate_metric_map`, `auc_using_histogram`, ... is tf-slim
1.1.0's own object (tf-slim is where TF 1.15's contrib.metrics moved), imported below (tf-slim's shim
applies first); `confusion_matrix` and the `set_*` functions are `tf.compat.v1`'s, as TF 1.15 re-exported them.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.compat.v1 import confusion_matrix
from tensorflow.compat.v1.sets import set_difference, set_intersection, set_size, set_union
from tf_slim.metrics import (
    accuracy, aggregate_metric_map, aggregate_metrics, auc_using_histogram, auc_with_confidence_intervals,
    cohen_kappa, count, f1_score, precision_at_recall, precision_recall_at_equal_thresholds, recall_at_precision,
    sparse_recall_at_top_k, streaming_accuracy, streaming_auc, streaming_concat, streaming_covariance,
    streaming_curve_points, streaming_dynamic_auc, streaming_false_negative_rate,
    streaming_false_negative_rate_at_thresholds, streaming_false_negatives, streaming_false_negatives_at_thresholds,
    streaming_false_positive_rate, streaming_false_positive_rate_at_thresholds, streaming_false_positives,
    streaming_false_positives_at_thresholds, streaming_mean, streaming_mean_absolute_error,
    streaming_mean_cosine_distance, streaming_mean_iou, streaming_mean_relative_error, streaming_mean_squared_error,
    streaming_mean_tensor, streaming_pearson_correlation, streaming_percentage_less, streaming_precision,
    streaming_precision_at_thresholds, streaming_recall, streaming_recall_at_k, streaming_recall_at_thresholds,
    streaming_root_mean_squared_error, streaming_sensitivity_at_specificity, streaming_sparse_average_precision_at_k,
    streaming_sparse_average_precision_at_top_k, streaming_sparse_precision_at_k, streaming_sparse_precision_at_top_k,
    streaming_sparse_recall_at_k, streaming_specificity_at_sensitivity, streaming_true_negatives,
    streaming_true_negatives_at_thresholds, streaming_true_positives, streaming_true_positives_at_thresholds)

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.metrics (streaming_<m> became tf.compat.v1.metrics.<m>)'

__getattr__ = _catalog.module_getattr(__name__)
