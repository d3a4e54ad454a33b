"""TF 1.15's `tf.contrib.layers` target columns (`regression_target`, `multi_class_target`, ...): loss and eval ops.

TF 1.15's deprecated code (its successor was contrib.learn's heads), ported onto tf1clip's contrib.losses
`hinge_loss` and contrib.metrics `streaming_*` (tf-slim's metrics, TF 1.15's own) and TensorFlow's public ops.
Its `deprecated` decorator is TensorFlow's own (tensorflow.python.util.deprecation: there is no public one), so
calls log TF 1.15's deprecation warning.
"""

import tensorflow.compat.v1 as tf
from tensorflow.python.util.deprecation import deprecated

from tf1clip.contrib import catalog as _catalog

_DEPRECATION = ("This file will be removed after the deprecation date.Please switch to "
                "third_party/tensorflow/contrib/learn/python/learn/estimators/head.py")


def _metric_ops():
  import tf1clip.contrib.metrics as metrics  # pylint: disable=import-outside-toplevel
  return metrics


@deprecated("2016-11-12", _DEPRECATION)
def regression_target(label_name=None, weight_column_name=None, label_dimension=1):
  """A target column for linear regression (mean squared loss over `label_dimension` outputs)."""
  return _RegressionTargetColumn(loss_fn=_mean_squared_loss, label_name=label_name,
                                 weight_column_name=weight_column_name, label_dimension=label_dimension)


@deprecated("2016-11-12", _DEPRECATION)
def multi_class_target(n_classes, label_name=None, weight_column_name=None):
  """A target column for classification (logistic loss for 2 classes, softmax cross entropy for more)."""
  if n_classes < 2:
    raise ValueError("n_classes must be > 1 for classification.")
  loss_fn = _log_loss_with_two_classes if n_classes == 2 else _softmax_cross_entropy_loss
  return _MultiClassTargetColumn(loss_fn=loss_fn, n_classes=n_classes, label_name=label_name,
                                 weight_column_name=weight_column_name)


@deprecated("2016-11-12", _DEPRECATION)
def binary_svm_target(label_name=None, weight_column_name=None):
  """A target column for a binary SVM (hinge loss; labels 0 / 1)."""
  return _BinarySvmTargetColumn(label_name=label_name, weight_column_name=weight_column_name)


@deprecated("2016-11-12", _DEPRECATION)
class ProblemType(object):
  UNSPECIFIED = 0
  CLASSIFICATION = 1
  LINEAR_REGRESSION = 2
  LOGISTIC_REGRESSION = 3


class _TargetColumn(object):
  """A model's target: its loss, predictions from logits and eval ops."""

  def __init__(self, loss_fn, num_label_columns, label_name, weight_column_name, problem_type):
    if not loss_fn:
      raise ValueError("loss_fn must be provided")
    if num_label_columns is None:  # n_classes can be 0
      raise ValueError("num_label_columns must be provided")
    self._loss_fn = loss_fn
    self._num_label_columns = num_label_columns
    self._label_name = label_name
    self._weight_column_name = weight_column_name
    self._problem_type = problem_type

  def logits_to_predictions(self, logits, proba=False):
    raise NotImplementedError()

  def get_eval_ops(self, features, logits, labels, metrics=None):
    raise NotImplementedError

  @property
  def label_name(self):
    return self._label_name

  @property
  def weight_column_name(self):
    return self._weight_column_name

  @property
  def num_label_columns(self):
    return self._num_label_columns

  def get_weight_tensor(self, features):
    if not self._weight_column_name:
      return None
    return tf.reshape(tf.cast(features[self._weight_column_name], tf.float32), shape=(-1,))

  @property
  def problem_type(self):
    return self._problem_type

  def _weighted_loss(self, loss, weight_tensor):
    unweighted_loss = tf.reshape(loss, shape=(-1,))
    return tf.multiply(unweighted_loss, tf.reshape(weight_tensor, shape=(-1,)))

  def training_loss(self, logits, target, features, name="training_loss"):
    """The mean (weighted) loss to train on (not normalized by the weights)."""
    target = target[self.name] if isinstance(target, dict) else target  # pylint: disable=no-member
    loss_unweighted = self._loss_fn(logits, target)
    weight_tensor = self.get_weight_tensor(features)
    if weight_tensor is None:
      return tf.reduce_mean(loss_unweighted, name=name)
    return tf.reduce_mean(self._weighted_loss(loss_unweighted, weight_tensor), name=name)

  def loss(self, logits, target, features):
    """The loss to report: the mean, or the weighted sum over the sum of weights."""
    target = target[self.name] if isinstance(target, dict) else target  # pylint: disable=no-member
    loss_unweighted = self._loss_fn(logits, target)
    weight_tensor = self.get_weight_tensor(features)
    if weight_tensor is None:
      return tf.reduce_mean(loss_unweighted, name="loss")
    loss_weighted = self._weighted_loss(loss_unweighted, weight_tensor)
    return tf.div(tf.reduce_sum(loss_weighted), tf.cast(tf.reduce_sum(weight_tensor), tf.float32), name="loss")


class _RegressionTargetColumn(_TargetColumn):
  """A target column for linear regression."""

  def __init__(self, loss_fn, label_name, weight_column_name, label_dimension):
    super(_RegressionTargetColumn, self).__init__(
        loss_fn=loss_fn, num_label_columns=label_dimension, label_name=label_name,
        weight_column_name=weight_column_name, problem_type=ProblemType.LINEAR_REGRESSION)

  def logits_to_predictions(self, logits, proba=False):
    if self.num_label_columns == 1:
      return tf.squeeze(logits, axis=[1])
    return logits

  def get_eval_ops(self, features, logits, labels, metrics=None):
    loss = self.loss(logits, labels, features)
    result = {"loss": _metric_ops().streaming_mean(loss)}
    if metrics:
      predictions = self.logits_to_predictions(logits, proba=False)
      result.update(_run_metrics(predictions, labels, metrics, self.get_weight_tensor(features)))
    return result


class _MultiClassTargetColumn(_TargetColumn):
  """A target column for classification."""

  def __init__(self, loss_fn, n_classes, label_name, weight_column_name):
    if n_classes < 2:
      raise ValueError("n_classes must be >= 2")
    super(_MultiClassTargetColumn, self).__init__(
        loss_fn=loss_fn, num_label_columns=1 if n_classes == 2 else n_classes, label_name=label_name,
        weight_column_name=weight_column_name, problem_type=ProblemType.CLASSIFICATION)

  def logits_to_predictions(self, logits, proba=False):
    if self.num_label_columns == 1:
      logits = tf.concat([tf.zeros_like(logits), logits], 1)
    if proba:
      return tf.nn.softmax(logits)
    return tf.argmax(logits, 1)

  def _default_eval_metrics(self):
    if self._num_label_columns == 1:
      return get_default_binary_metrics_for_eval(thresholds=[.5])
    return {}

  def get_eval_ops(self, features, logits, labels, metrics=None):
    loss = self.loss(logits, labels, features)
    result = {"loss": _metric_ops().streaming_mean(loss)}
    if metrics is None:
      metrics = {("accuracy", "classes"): _metric_ops().streaming_accuracy}
    predictions = tf.sigmoid(logits)
    labels_float = tf.cast(labels, tf.float32)
    for metric_name, metric_op in self._default_eval_metrics().items():
      result[metric_name] = metric_op(predictions, labels_float)
    class_metrics = {}
    proba_metrics = {}
    for name, metric_op in metrics.items():
      if isinstance(name, tuple):
        if len(name) != 2:
          raise ValueError("Ignoring metric {}. It returned a tuple with len {}, expected 2.".format(
              name, len(name)))
        if name[1] not in ["classes", "probabilities"]:
          raise ValueError("Ignoring metric {}. The 2nd element of its name should be either 'classes' or "
                           "'probabilities'.".format(name))
        if name[1] == "classes":
          class_metrics[name[0]] = metric_op
        else:
          proba_metrics[name[0]] = metric_op
      elif isinstance(name, str):
        class_metrics[name] = metric_op
      else:
        raise ValueError("Ignoring metric {}. Its name is not in the correct form.".format(name))
    if class_metrics:
      class_predictions = self.logits_to_predictions(logits, proba=False)
      result.update(_run_metrics(class_predictions, labels, class_metrics, self.get_weight_tensor(features)))
    if proba_metrics:
      predictions = self.logits_to_predictions(logits, proba=True)
      result.update(_run_metrics(predictions, labels, proba_metrics, self.get_weight_tensor(features)))
    return result


class _BinarySvmTargetColumn(_MultiClassTargetColumn):
  """A target column for a binary SVM."""

  def __init__(self, label_name, weight_column_name):
    def loss_fn(logits, target):
      check_shape_op = tf.Assert(tf.less_equal(tf.rank(target), 2),
                                 ["target's shape should be either [batch_size, 1] or [batch_size]"])
      with tf.control_dependencies([check_shape_op]):
        target = tf.reshape(target, shape=[tf.shape(target)[0], 1])
      import tf1clip.contrib.losses as loss_ops  # pylint: disable=import-outside-toplevel
      return loss_ops.hinge_loss(logits, target)
    super(_BinarySvmTargetColumn, self).__init__(loss_fn=loss_fn, n_classes=2, label_name=label_name,
                                                 weight_column_name=weight_column_name)

  def logits_to_predictions(self, logits, proba=False):
    if proba:
      raise ValueError("logits to probabilities is not supported for _BinarySvmTargetColumn")
    logits = tf.concat([tf.zeros_like(logits), logits], 1)
    return tf.argmax(logits, 1)


def _mean_squared_loss(logits, target):
  if len(target.get_shape()) == 1:
    target = tf.expand_dims(target, axis=1)
  logits.get_shape().assert_is_compatible_with(target.get_shape())
  return tf.squared_difference(logits, tf.cast(target, tf.float32))


def _log_loss_with_two_classes(logits, target):
  if len(target.get_shape()) == 1:
    target = tf.expand_dims(target, axis=1)
  return tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.cast(target, tf.float32), logits=logits)


def _softmax_cross_entropy_loss(logits, target):
  if not target.dtype.is_integer:
    raise ValueError("Target's dtype should be integer Instead got %s." % target.dtype)
  if len(target.get_shape()) == 2:
    target = tf.squeeze(target, axis=[1])
  return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logits)


def _run_metrics(predictions, labels, metrics, weights):
  result = {}
  labels = tf.cast(labels, predictions.dtype)
  for name, metric in (metrics or {}).items():
    if weights is not None:
      result[name] = metric(predictions, labels, weights=weights)
    else:
      result[name] = metric(predictions, labels)
  return result


@deprecated("2016-11-12", _DEPRECATION)
def get_default_binary_metrics_for_eval(thresholds):
  """{metric name: metric fn} of TF 1.15's default binary eval metrics at each threshold."""
  metric_ops = _metric_ops()
  metrics = {}
  metrics[_MetricKeys.PREDICTION_MEAN] = _predictions_streaming_mean
  metrics[_MetricKeys.TARGET_MEAN] = _labels_streaming_mean
  metrics[_MetricKeys.ACCURACY_BASELINE] = _labels_streaming_mean
  metrics[_MetricKeys.AUC] = _streaming_auc
  for threshold in thresholds:
    metrics[_MetricKeys.ACCURACY_MEAN % threshold] = _accuracy_at_threshold(threshold)
    metrics[_MetricKeys.PRECISION_MEAN % threshold] = _streaming_at_threshold(
        metric_ops.streaming_precision_at_thresholds, threshold)
    metrics[_MetricKeys.RECALL_MEAN % threshold] = _streaming_at_threshold(
        metric_ops.streaming_recall_at_thresholds, threshold)
  return metrics


def _float_weights_or_none(weights):
  return None if weights is None else tf.cast(weights, tf.float32)


def _labels_streaming_mean(unused_predictions, labels, weights=None):
  return _metric_ops().streaming_mean(labels, weights=weights)


def _predictions_streaming_mean(predictions, unused_labels, weights=None):
  return _metric_ops().streaming_mean(predictions, weights=weights)


def _streaming_auc(predictions, labels, weights=None):
  return _metric_ops().streaming_auc(predictions, labels, weights=_float_weights_or_none(weights))


def _accuracy_at_threshold(threshold):
  def _accuracy_metric(predictions, labels, weights=None):
    threshold_predictions = tf.cast(tf.greater_equal(predictions, threshold), tf.float32)
    return _metric_ops().streaming_accuracy(predictions=threshold_predictions, labels=labels, weights=weights)
  return _accuracy_metric


def _streaming_at_threshold(streaming_metrics_fn, threshold):
  def _streaming_metrics(predictions, labels, weights=None):
    precision_tensor, update_op = streaming_metrics_fn(predictions, labels=labels, thresholds=[threshold],
                                                       weights=_float_weights_or_none(weights))
    return tf.squeeze(precision_tensor), update_op
  return _streaming_metrics


class _MetricKeys(object):
  AUC = "auc"
  PREDICTION_MEAN = "labels/prediction_mean"
  TARGET_MEAN = "labels/actual_target_mean"
  ACCURACY_BASELINE = "accuracy/baseline_target_mean"
  ACCURACY_MEAN = "accuracy/threshold_%f_mean"
  PRECISION_MEAN = "precision/positive_threshold_%f_mean"
  RECALL_MEAN = "recall/positive_threshold_%f_mean"


__getattr__ = _catalog.module_getattr(__name__, delegate="tf1clip.contrib.layers")
