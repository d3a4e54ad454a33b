"""`tf.contrib.learn.LogisticRegressor`: a model_fn Estimator with TF 1.15's logistic evaluation metrics.

Place in the data flow (DESIGN.md): contrib.learn.estimator (Estimator, ModelFnOps) <-
**contrib.learn.logistic_regressor** <- contrib.learn <- compat <- cli.

TF 1.15's code: the model_fn `(features, labels, mode) -> (probabilities, loss, train_op)` is wrapped so that
evaluation adds the mean prediction and label, AUC, and accuracy / precision / recall at each threshold
(keys "labels/prediction_mean", "auc", "accuracy/threshold_0.500000_mean", ...).
"""

import tensorflow as tf

from tf1clip.contrib.learn import constants
from tf1clip.contrib.learn import estimator as estimator_lib

V1 = tf.compat.v1


def _get_model_fn_with_logistic_metrics(model_fn):
  """`model_fn` with the logistic metrics added in EVAL mode."""

  def _model_fn(features, labels, mode, params):
    thresholds = params.get("thresholds") or [.5]
    predictions, loss, train_op = model_fn(features, labels, mode)
    eval_metric_ops = None
    if mode == estimator_lib.ModeKeys.EVAL:
      eval_metric_ops = _make_logistic_eval_metric_ops(labels=labels, predictions=predictions,
                                                       thresholds=thresholds)
    return estimator_lib.ModelFnOps(
        mode=mode, predictions=predictions, loss=loss, train_op=train_op, eval_metric_ops=eval_metric_ops,
        output_alternatives={"head": (constants.ProblemType.LOGISTIC_REGRESSION,
                                      {"predictions": predictions})})

  return _model_fn


def LogisticRegressor(model_fn, thresholds=None, model_dir=None, config=None,  # pylint: disable=invalid-name
                      feature_engineering_fn=None):
  """An `Estimator` of a binary classifier's model_fn that adds AUC, precision, recall and accuracy."""
  return estimator_lib.Estimator(model_fn=_get_model_fn_with_logistic_metrics(model_fn), model_dir=model_dir,
                                 config=config, params={"thresholds": thresholds},
                                 feature_engineering_fn=feature_engineering_fn)


def _make_logistic_eval_metric_ops(labels, predictions, thresholds):
  """TF 1.15's logistic metrics (contrib.metrics' streaming_* are tf.compat.v1.metrics' functions)."""
  labels_tensor = labels
  if isinstance(labels, dict) and len(labels) == 1:
    labels_tensor = list(labels.values())[0]
  metrics = {}
  metrics["labels/prediction_mean"] = V1.metrics.mean(predictions)
  metrics["labels/actual_label_mean"] = V1.metrics.mean(labels_tensor)
  metrics["accuracy/baseline_label_mean"] = V1.metrics.mean(labels_tensor)
  metrics["auc"] = V1.metrics.auc(labels=labels_tensor, predictions=predictions)
  for threshold in thresholds:
    predictions_at_threshold = tf.cast(tf.greater_equal(predictions, threshold), tf.float32,
                                       name="predictions_at_threshold_%f" % threshold)
    metrics["accuracy/threshold_%f_mean" % threshold] = V1.metrics.accuracy(
        labels=labels_tensor, predictions=predictions_at_threshold)
    metrics["precision/positive_threshold_%f_mean" % threshold] = V1.metrics.precision(
        labels=labels_tensor, predictions=predictions_at_threshold)
    metrics["recall/positive_threshold_%f_mean" % threshold] = V1.metrics.recall(
        labels=labels_tensor, predictions=predictions_at_threshold)
  return metrics
