"""`tf.contrib.tensor_forest.eval_metrics` (client): TF 1.15's metric functions for tensor_forest's estimators.

Place in the data flow (DESIGN.md): tf.compat.v1.metrics, contrib.losses, contrib.learn.prediction_key <-
**contrib.tensor_forest.eval_metrics** <- contrib.tensor_forest.random_forest <- contrib <- compat <- cli.

TF 1.15's client/eval_metrics.py: `get_metric(name)` (auc, accuracy, r2, precision, recall, the *_at_thresholds,
sigmoid / softmax entropy, classification_log_loss, predictions, top_5) and `get_prediction_key(name)` (the
prediction each one reads).
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


def _top_k_generator(k):
  def _top_k(probabilities, targets):
    targets = tf.cast(targets, tf.int32)
    if targets.get_shape().ndims > 1:
      targets = tf.squeeze(targets, axis=[1])
    return metrics.mean(nn.in_top_k(probabilities, targets, k))
  return _top_k


def _accuracy(predictions, targets, weights=None):
  return metrics.accuracy(
      labels=targets, predictions=predictions, weights=weights)


def _r2(probabilities, targets, weights=None):
  targets = tf.cast(targets, tf.float32)
  y_mean = tf.reduce_mean(targets, 0)
  squares_total = tf.reduce_sum(
      tf.math.squared_difference(targets, y_mean), 0)
  squares_residuals = tf.reduce_sum(
      tf.math.squared_difference(targets, probabilities), 0)
  score = 1 - tf.reduce_sum(squares_residuals / squares_total)
  return metrics.mean(score, weights=weights)


def _squeeze_and_onehot(targets, depth):
  targets = tf.squeeze(targets, axis=[1])
  return tf.one_hot(tf.cast(targets, tf.int32), depth)


def _sigmoid_entropy(probabilities, targets, weights=None):
  return metrics.mean(
      losses.sigmoid_cross_entropy(probabilities,
                                   _squeeze_and_onehot(
                                       targets,
                                       tf.shape(probabilities)[1])),
      weights=weights)


def _softmax_entropy(probabilities, targets, weights=None):
  return metrics.mean(
      losses.sparse_softmax_cross_entropy(probabilities,
                                          tf.cast(targets, tf.int32)),
      weights=weights)


def _predictions(predictions, unused_targets, **unused_kwargs):
  return predictions


def _class_log_loss(probabilities, targets, weights=None):
  return metrics.mean(
      losses.log_loss(probabilities,
                      _squeeze_and_onehot(targets,
                                          tf.shape(probabilities)[1])),
      weights=weights)


def _precision(predictions, targets, weights=None):
  return metrics.precision(
      labels=targets, predictions=predictions, weights=weights)


def _precision_at_thresholds(predictions, targets, weights=None):
  return metrics.precision_at_thresholds(
      labels=targets,
      predictions=tf.slice(predictions, [0, 1], [-1, 1]),
      thresholds=np.arange(0, 1, 0.01, dtype=np.float32),
      weights=weights)


def _recall(predictions, targets, weights=None):
  return metrics.recall(
      labels=targets, predictions=predictions, weights=weights)


def _recall_at_thresholds(predictions, targets, weights=None):
  return metrics.recall_at_thresholds(
      labels=targets,
      predictions=tf.slice(predictions, [0, 1], [-1, 1]),
      thresholds=np.arange(0, 1, 0.01, dtype=np.float32),
      weights=weights)


def _auc(probs, targets, weights=None):
  return metrics.auc(
      labels=targets,
      predictions=tf.slice(probs, [0, 1], [-1, 1]),
      weights=weights)


_EVAL_METRICS = {
    'auc': _auc,
    'sigmoid_entropy': _sigmoid_entropy,
    'softmax_entropy': _softmax_entropy,
    'accuracy': _accuracy,
    'r2': _r2,
    'predictions': _predictions,
    'classification_log_loss': _class_log_loss,
    'precision': _precision,
    'precision_at_thresholds': _precision_at_thresholds,
    'recall': _recall,
    'recall_at_thresholds': _recall_at_thresholds,
    'top_5': _top_k_generator(5)
}

_PREDICTION_KEYS = {
    'auc': INFERENCE_PROB_NAME,
    'sigmoid_entropy': INFERENCE_PROB_NAME,
    'softmax_entropy': INFERENCE_PROB_NAME,
    'accuracy': INFERENCE_PRED_NAME,
    'r2': prediction_key.PredictionKey.SCORES,
    'predictions': INFERENCE_PRED_NAME,
    'classification_log_loss': INFERENCE_PROB_NAME,
    'precision': INFERENCE_PRED_NAME,
    'precision_at_thresholds': INFERENCE_PROB_NAME,
    'recall': INFERENCE_PRED_NAME,
    'recall_at_thresholds': INFERENCE_PROB_NAME,
    'top_5': INFERENCE_PROB_NAME
}


def get_metric(metric_name):
  """Given a metric name, return the corresponding metric function."""
  return _EVAL_METRICS[metric_name]


def get_prediction_key(metric_name):
  return _PREDICTION_KEYS[metric_name]
