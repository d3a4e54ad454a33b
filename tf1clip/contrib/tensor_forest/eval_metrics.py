"""`tf.contrib.tensor_forest.eval_metrics` (client): TF 1.15's metric functions for tensor_forest's estimators.

Place in the data flow (DESIGN.md): tf.compat.v1.metrics, contrib.losses, contrib.learn.prediction_key <-
**contrib.tensor_forest.eval_metrics** <- contrib.tensor_forest.random_forest <- contrib <- compat <- cli.

TF 1.15's client/eval_metrics.py: `get_metric(name)` (auc, accuracy, r2, precision, recall, the *_at_thresholds,
sigmoid / softmax entropy, classification_log_loss, predictions, top_5) and `get_prediction_key(name)` (the
prediction each one reads). Each metric is `fn(predictions, targets, weights=None)` returning a tf.metrics
(value, update_op) pair (`predictions` returns its input; `top_5` takes no weights), with TF 1.15's argument
conventions: the probabilities' second column for the binary metrics, [batch, 1] class ids as targets.
"""

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn import prediction_key

V1 = tf.compat.v1
metrics = V1.metrics
nn = V1.nn


class _Losses(object):
  """contrib.losses (TF 1.15's argument order: predictions first), resolved when a metric is built."""

  def __getattr__(self, name):
    return _catalog.resolve("tf1clip.contrib.losses:" + name)


losses = _Losses()

INFERENCE_PROB_NAME = prediction_key.PredictionKey.PROBABILITIES
INFERENCE_PRED_NAME = prediction_key.PredictionKey.CLASSES

FEATURE_IMPORTANCE_NAME = 'global_feature_importance'


def _second_column(probabilities):
  """The positive class's probability (column 1), what the binary metrics score."""
  return tf.slice(probabilities, [0, 1], [-1, 1])


def _one_hot(targets, probabilities):
  """[batch, 1] class ids as one-hot rows, as wide as `probabilities`."""
  width = tf.shape(probabilities)[1]
  return tf.one_hot(tf.cast(tf.squeeze(targets, axis=[1]), tf.int32), width)


def _of_classes(metric):
  """A metric of the predicted classes against the targets (accuracy, precision, recall)."""

  def of_classes(predictions, targets, weights=None):
    return metric(labels=targets, predictions=predictions, weights=weights)

  return of_classes


def _of_thresholds(metric):
  """A metric of the positive class's probability at the thresholds 0, 0.01, ..., 0.99."""

  def of_thresholds(predictions, targets, weights=None):
    thresholds = np.arange(0, 1, 0.01, dtype=np.float32)
    return metric(labels=targets, predictions=_second_column(predictions), thresholds=thresholds, weights=weights)

  return of_thresholds


def _auc(probs, targets, weights=None):
  return metrics.auc(labels=targets, predictions=_second_column(probs), weights=weights)


def _mean_loss(loss_of):
  """The running mean of a contrib.losses loss of the probabilities (`loss_of(probabilities, targets)`)."""

  def mean_loss(probabilities, targets, weights=None):
    return metrics.mean(loss_of(probabilities, targets), weights=weights)

  return mean_loss


_sigmoid_entropy = _mean_loss(lambda probs, targets: losses.sigmoid_cross_entropy(probs, _one_hot(targets, probs)))
_softmax_entropy = _mean_loss(
    lambda probs, targets: losses.sparse_softmax_cross_entropy(probs, tf.cast(targets, tf.int32)))
_class_log_loss = _mean_loss(lambda probs, targets: losses.log_loss(probs, _one_hot(targets, probs)))


def _r2(probabilities, targets, weights=None):
  """The running mean of 1 - sum over outputs of (residual sum of squares / total sum of squares)."""
  targets = tf.cast(targets, tf.float32)
  total = tf.reduce_sum(tf.math.squared_difference(targets, tf.reduce_mean(targets, 0)), 0)
  residual = tf.reduce_sum(tf.math.squared_difference(targets, probabilities), 0)
  return metrics.mean(1 - tf.reduce_sum(residual / total), weights=weights)


def _predictions(predictions, unused_targets, **unused_kwargs):
  return predictions


def _top_k_generator(k):
  """The running share of examples whose target is among the `k` most probable classes."""

  def top_k(probabilities, targets):
    ids = tf.cast(targets, tf.int32)
    if ids.get_shape().ndims > 1:
      ids = tf.squeeze(ids, axis=[1])
    return metrics.mean(nn.in_top_k(probabilities, ids, k))

  return top_k


# name: (metric function, the prediction it reads)
_METRICS = {
    'auc': (_auc, INFERENCE_PROB_NAME),
    'sigmoid_entropy': (_sigmoid_entropy, INFERENCE_PROB_NAME),
    'softmax_entropy': (_softmax_entropy, INFERENCE_PROB_NAME),
    'accuracy': (_of_classes(metrics.accuracy), INFERENCE_PRED_NAME),
    'r2': (_r2, prediction_key.PredictionKey.SCORES),
    'predictions': (_predictions, INFERENCE_PRED_NAME),
    'classification_log_loss': (_class_log_loss, INFERENCE_PROB_NAME),
    'precision': (_of_classes(metrics.precision), INFERENCE_PRED_NAME),
    'precision_at_thresholds': (_of_thresholds(metrics.precision_at_thresholds), INFERENCE_PROB_NAME),
    'recall': (_of_classes(metrics.recall), INFERENCE_PRED_NAME),
    'recall_at_thresholds': (_of_thresholds(metrics.recall_at_thresholds), INFERENCE_PROB_NAME),
    'top_5': (_top_k_generator(5), INFERENCE_PROB_NAME),
}


def _entry(metric_name):
  if metric_name not in _METRICS:  # a KeyError, as TF 1.15's dict lookup, that says what exists
    raise KeyError("tensor_forest has no metric %r; it has %s" % (metric_name, ", ".join(sorted(_METRICS))))
  return _METRICS[metric_name]


def get_metric(metric_name):
  """The metric function called `metric_name` (KeyError for a name not in the table above)."""
  return _entry(metric_name)[0]


def get_prediction_key(metric_name):
  """The prediction key (probabilities, classes or scores) the metric `metric_name` reads."""
  return _entry(metric_name)[1]
