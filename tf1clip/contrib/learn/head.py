"""`tf.contrib.learn.head`: TF 1.15's heads (loss, predictions, eval metrics of a model's logits) as ModelFnOps.

Place in the data flow (DESIGN.md): contrib.learn.estimator (ModelFnOps), tf_slim (`linear` for
`logits_input`), contrib.lookup (label_keys tables) <- **contrib.learn.head** <- contrib.learn.head_estimators,
contrib.learn <- compat <- cli.

TF 1.15's head.py ported onto tf.compat.v1: `regression_head`, `poisson_regression_head`, `multi_class_head`
(a binary logistic head for 2 classes), `binary_svm_head`, `multi_label_head`, `loss_only_head`, `multi_head`
and `no_op_train_fn`. Each head's `create_model_fn_ops` returns the ModelFnOps TF 1.15's did: the same
variable scope (`head_name`, else e.g. "binary_logistic_head"), prediction keys (`PredictionKey`), loss
(the mean of the weighted per-example losses; the eval loss is the weighted average), metric keys
("loss", "accuracy", "auc", "labels/actual_label_mean", "precision/positive_threshold_0.500000_mean", ...,
suffixed by "/<head_name>" when the head has a name), the "loss" summary, the centered bias
(`centered_bias_weight`, trained by its own Adagrad(0.1) step) and output alternatives.
"""

import abc
import inspect

import tensorflow as tf
from tensorflow.python.ops import weights_broadcast_ops  # pylint: disable=g-direct-tensorflow-import

import tf1clip.contrib.lookup as lookup
from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn import constants
from tf1clip.contrib.learn import estimator as model_fn
from tf1clip.contrib.learn import prediction_key

V1 = tf.compat.v1
_PK = prediction_key.PredictionKey


class _MetricKey(object):
  """TF 1.15's metric_key.MetricKey."""
  LOSS = "loss"
  AUC = "auc"
  AUC_PR = "auc_precision_recall"
  CLASS_AUC = "auc/class%d"
  CLASS_AUC_PR = "auc_precision_recall/class%d"
  PREDICTION_MEAN = "labels/prediction_mean"
  CLASS_PREDICTION_MEAN = "labels/prediction_mean/class%d"
  CLASS_LOGITS_MEAN = "labels/logits_mean/class%d"
  CLASS_PROBABILITY_MEAN = "labels/probability_mean/class%d"
  LABEL_MEAN = "labels/actual_label_mean"
  CLASS_LABEL_MEAN = "labels/actual_label_mean/class%d"
  ACCURACY = "accuracy"
  ACCURACY_BASELINE = "accuracy/baseline_label_mean"
  ACCURACY_MEAN = "accuracy/threshold_%f_mean"
  PRECISION_MEAN = "precision/positive_threshold_%f_mean"
  RECALL_MEAN = "recall/positive_threshold_%f_mean"


mkey = _MetricKey


class Head(abc.ABC):
  """The head of a model: from logits (or the last hidden layer) to predictions, loss, metrics (ModelFnOps)."""

  @property
  @abc.abstractmethod
  def logits_dimension(self):
    """Size of the last dimension of the logits `Tensor`."""
    raise NotImplementedError("Calling an abstract method.")

  @abc.abstractmethod
  def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                          logits_input=None, scope=None):
    """Returns the `ModelFnOps` a model_fn can return (exactly one of logits / logits_input)."""
    raise NotImplementedError("Calling an abstract method.")


def regression_head(label_name=None, weight_column_name=None, label_dimension=1,
                    enable_centered_bias=False, head_name=None, link_fn=None):
  """A `Head` for linear regression (mean squared loss; `link_fn` maps logits to scores)."""
  return _RegressionHead(label_name=label_name, weight_column_name=weight_column_name,
                         label_dimension=label_dimension, enable_centered_bias=enable_centered_bias,
                         head_name=head_name, loss_fn=_mean_squared_loss,
                         link_fn=(link_fn if link_fn is not None else tf.identity))


def poisson_regression_head(label_name=None, weight_column_name=None, label_dimension=1,
                            enable_centered_bias=False, head_name=None):
  """A `Head` for poisson regression (log-Poisson loss, exp link)."""
  return _RegressionHead(label_name=label_name, weight_column_name=weight_column_name,
                         label_dimension=label_dimension, enable_centered_bias=enable_centered_bias,
                         head_name=head_name, loss_fn=_poisson_loss, link_fn=tf.exp)


def multi_class_head(n_classes, label_name=None, weight_column_name=None, enable_centered_bias=False,
                     head_name=None, thresholds=None, metric_class_ids=None, loss_fn=None, label_keys=None):
  """A `Head` for single-label classification: softmax cross entropy (binary logistic for 2 classes)."""
  if (n_classes is None) or (n_classes < 2):
    raise ValueError("n_classes must be > 1 for classification: %s." % n_classes)
  if loss_fn:
    _verify_loss_fn_args(loss_fn)
  loss_fn = _wrap_custom_loss_fn(loss_fn) if loss_fn else None
  if n_classes == 2:
    if metric_class_ids:
      raise ValueError("metric_class_ids invalid for n_classes==2.")
    if label_keys:
      raise ValueError("label_keys is not supported for n_classes=2.")
    return _BinaryLogisticHead(label_name=label_name, weight_column_name=weight_column_name,
                               enable_centered_bias=enable_centered_bias, head_name=head_name,
                               thresholds=thresholds, loss_fn=loss_fn)
  return _MultiClassHead(n_classes=n_classes, label_name=label_name, weight_column_name=weight_column_name,
                         enable_centered_bias=enable_centered_bias, head_name=head_name,
                         thresholds=thresholds, metric_class_ids=metric_class_ids, loss_fn=loss_fn,
                         label_keys=label_keys)


def binary_svm_head(label_name=None, weight_column_name=None, enable_centered_bias=False, head_name=None,
                    thresholds=None):
  """A `Head` for binary classification with SVMs (hinge loss)."""
  return _BinarySvmHead(label_name=label_name, weight_column_name=weight_column_name,
                        enable_centered_bias=enable_centered_bias, head_name=head_name, thresholds=thresholds)


def multi_label_head(n_classes, label_name=None, weight_column_name=None, enable_centered_bias=False,
                     head_name=None, thresholds=None, metric_class_ids=None, loss_fn=None):
  """A `Head` for multi-label classification (sigmoid cross entropy of a multi-hot label)."""
  if n_classes < 2:
    raise ValueError("n_classes must be > 1 for classification.")
  if loss_fn:
    _verify_loss_fn_args(loss_fn)
  return _MultiLabelHead(n_classes=n_classes, label_name=label_name, weight_column_name=weight_column_name,
                         enable_centered_bias=enable_centered_bias, head_name=head_name,
                         thresholds=thresholds, metric_class_ids=metric_class_ids,
                         loss_fn=_wrap_custom_loss_fn(loss_fn) if loss_fn else None)


def loss_only_head(loss_fn, head_name=None):
  """A `Head` holding only extra loss terms (`loss_fn()` returns a scalar or a list of them)."""
  return _LossOnlyHead(loss_fn, head_name=head_name)


def multi_head(heads, loss_weights=None):
  """A `Head` merging named heads that share the logits (their losses summed, weighted by `loss_weights`)."""
  if loss_weights:
    if len(loss_weights) != len(heads):
      raise ValueError("heads and loss_weights must have same size")

  def _weighted_loss_merger(losses):
    if loss_weights:
      if len(losses) != len(loss_weights):
        raise ValueError("losses and loss_weights must have same size")
      return tf.add_n([tf.multiply(loss, weight) for loss, weight in zip(losses, loss_weights)])
    return tf.add_n(losses)

  return _MultiHead(heads, loss_merger=_weighted_loss_merger)


def no_op_train_fn(loss):
  """A train_op_fn that does nothing (for optimizing `ModelFnOps.loss` yourself)."""
  del loss
  return tf.no_op()


class _SingleHead(Head):
  """A head of one problem: its type, logits dimension, label and weight names."""

  def __init__(self, problem_type, logits_dimension, label_name=None, weight_column_name=None, head_name=None):
    if problem_type is None:
      raise ValueError("Invalid problem_type %s." % problem_type)
    if logits_dimension is None or logits_dimension < 1:
      raise ValueError("Invalid logits_dimension %s." % logits_dimension)
    self._problem_type = problem_type
    self._logits_dimension = logits_dimension
    self._label_name = label_name
    self._weight_column_name = weight_column_name
    self._head_name = head_name

  logits_dimension = property(lambda self: self._logits_dimension)
  label_name = property(lambda self: self._label_name)
  weight_column_name = property(lambda self: self._weight_column_name)
  head_name = property(lambda self: self._head_name)

  def _create_output_alternatives(self, predictions):
    return {self._head_name: (self._problem_type, predictions)}

  def _scope(self, scope, default_name, features, labels, logits, logits_input):
    return V1.variable_scope(scope, default_name=self.head_name or default_name,
                             values=(tuple(features.values()) + (labels, logits, logits_input)))

  def _transform_labels(self, mode, labels):
    if (mode == model_fn.ModeKeys.INFER) or (labels is None):
      return None
    labels_tensor = _to_labels_tensor(labels, self._label_name)
    _check_no_sparse_tensor(labels_tensor)
    return labels_tensor

  def _model_fn_ops(self, features, mode, labels, train_op_fn, logits, loss_fn, output_alternatives_fn):
    return _create_model_fn_ops(
        features=features, mode=mode, loss_fn=loss_fn, logits_to_predictions_fn=self._logits_to_predictions,
        metrics_fn=self._metrics, create_output_alternatives_fn=output_alternatives_fn, labels=labels,
        train_op_fn=train_op_fn, logits=logits, logits_dimension=self.logits_dimension,
        head_name=self.head_name, weight_column_name=self.weight_column_name,
        enable_centered_bias=self._enable_centered_bias)


def _regression_labels_and_logits(logits, labels):
  logits = tf.convert_to_tensor(logits)
  labels = tf.convert_to_tensor(labels)
  if len(labels.get_shape()) == 1:  # to prevent broadcasting inside "-"
    labels = tf.expand_dims(labels, axis=1)
  if len(logits.get_shape()) == 1:
    logits = tf.expand_dims(logits, axis=1)
  logits.get_shape().assert_is_compatible_with(labels.get_shape())
  return logits, labels


def _mean_squared_loss(labels, logits, weights=None):
  with V1.name_scope(None, "mean_squared_loss", (logits, labels)) as name:
    logits, labels = _regression_labels_and_logits(logits, labels)
    loss = tf.math.squared_difference(logits, tf.cast(labels, tf.float32), name=name)
    return _compute_weighted_loss(loss, weights)


def _poisson_loss(labels, logits, weights=None):
  with V1.name_scope(None, "_poisson_loss", (logits, labels)) as name:
    logits, labels = _regression_labels_and_logits(logits, labels)
    loss = tf.nn.log_poisson_loss(labels, logits, compute_full_loss=True, name=name)
    return _compute_weighted_loss(loss, weights)


def _logits(logits_input, logits, logits_dimension):
  """`logits`, or a linear layer "logits" of `logits_input` (exactly one is given)."""
  if (logits_dimension is None) or (logits_dimension < 1):
    raise ValueError("Invalid logits_dimension %s." % logits_dimension)
  if logits is None:
    if logits_input is None:
      raise ValueError("Neither logits nor logits_input supplied.")
    import tf_slim  # pylint: disable=import-outside-toplevel
    return tf_slim.layers.linear(logits_input, logits_dimension, scope="logits")
  if logits_input is not None:
    raise ValueError("Both logits and logits_input supplied.")
  logits = tf.convert_to_tensor(logits, name="logits")
  logits_dims = logits.get_shape().dims
  if logits_dims is not None:
    logits_dims[-1].assert_is_compatible_with(logits_dimension)
  return logits


def _create_model_fn_ops(features, mode, loss_fn, logits_to_predictions_fn, metrics_fn,
                         create_output_alternatives_fn, labels=None, train_op_fn=None, logits=None,
                         logits_dimension=None, head_name=None, weight_column_name=None,
                         enable_centered_bias=False):
  """TF 1.15's `_create_model_fn_ops`: predictions always; loss, train op and metrics with labels."""
  _check_mode_valid(mode)
  centered_bias = None
  if enable_centered_bias:
    centered_bias = _centered_bias(logits_dimension, head_name)
    logits = tf.nn.bias_add(logits, centered_bias)
  predictions = logits_to_predictions_fn(logits)
  loss = None
  train_op = None
  eval_metric_ops = None
  if (mode != model_fn.ModeKeys.INFER) and (labels is not None):
    weight_tensor = _weight_tensor(features, weight_column_name)
    loss, weighted_average_loss = loss_fn(labels, logits, weight_tensor)
    with V1.name_scope(""):  # TF 1.15's summary tag: "loss" at the top level
      summary_loss = tf.identity(weighted_average_loss)
      V1.summary.scalar(_summary_key(head_name, mkey.LOSS), summary_loss)
    if mode == model_fn.ModeKeys.TRAIN:
      if train_op_fn is None:
        raise ValueError("train_op_fn can not be None in TRAIN mode")
      batch_size = tf.shape(logits)[0]
      train_op = _train_op(loss, labels, train_op_fn, centered_bias, batch_size, loss_fn, weight_tensor)
    eval_metric_ops = metrics_fn(weighted_average_loss, predictions, labels, weight_tensor)
  return model_fn.ModelFnOps(mode=mode, predictions=predictions, loss=loss, train_op=train_op,
                             eval_metric_ops=eval_metric_ops,
                             output_alternatives=create_output_alternatives_fn(predictions))


class _RegressionHead(_SingleHead):
  """`Head` for regression with a generalized linear model."""

  def __init__(self, label_dimension, loss_fn, link_fn, logits_dimension=None, label_name=None,
               weight_column_name=None, enable_centered_bias=False, head_name=None):
    super(_RegressionHead, self).__init__(
        problem_type=constants.ProblemType.LINEAR_REGRESSION,
        logits_dimension=(logits_dimension if logits_dimension is not None else label_dimension),
        label_name=label_name, weight_column_name=weight_column_name, head_name=head_name)
    self._loss_fn = loss_fn
    self._link_fn = link_fn
    self._enable_centered_bias = enable_centered_bias

  def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                          logits_input=None, scope=None):
    with self._scope(scope, "regression_head", features, labels, logits, logits_input):
      labels = self._transform_labels(mode=mode, labels=labels)
      logits = _logits(logits_input, logits, self.logits_dimension)
      return self._model_fn_ops(features, mode, labels, train_op_fn, logits, self._loss_fn,
                                self._create_output_alternatives)

  def _logits_to_predictions(self, logits):
    key = _PK.SCORES
    with V1.name_scope(None, "predictions", (logits,)):
      if self.logits_dimension == 1:
        logits = tf.squeeze(logits, axis=(1,), name=key)
      return {key: self._link_fn(logits)}

  def _metrics(self, eval_loss, predictions, labels, weights):
    del predictions, labels, weights
    with V1.name_scope("metrics", values=[eval_loss]):
      return {_summary_key(self.head_name, mkey.LOSS): V1.metrics.mean(eval_loss)}


def _log_loss_with_two_classes(labels, logits, weights=None):
  with V1.name_scope(None, "log_loss_with_two_classes", (logits, labels)) as name:
    logits = tf.convert_to_tensor(logits)
    labels = tf.cast(labels, tf.float32)
    if len(labels.get_shape()) == 1:  # sigmoid_cross_entropy_with_logits requires [batch_size, 1] labels
      labels = tf.expand_dims(labels, axis=1)
    loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits, name=name)
    return _compute_weighted_loss(loss, weights)


def _one_class_to_two_class_logits(logits):
  return tf.concat((tf.zeros_like(logits), logits), 1)


class _BinaryLogisticHead(_SingleHead):
  """`Head` for binary classification with logistic regression."""

  def __init__(self, label_name=None, weight_column_name=None, enable_centered_bias=False, head_name=None,
               loss_fn=None, thresholds=None):
    super(_BinaryLogisticHead, self).__init__(
        problem_type=constants.ProblemType.LOGISTIC_REGRESSION, logits_dimension=1, label_name=label_name,
        weight_column_name=weight_column_name, head_name=head_name)
    self._thresholds = thresholds if thresholds else (.5,)
    self._loss_fn = loss_fn if loss_fn else _log_loss_with_two_classes
    self._enable_centered_bias = enable_centered_bias

  def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                          logits_input=None, scope=None):
    with self._scope(scope, "binary_logistic_head", features, labels, logits, logits_input):
      labels = self._transform_labels(mode=mode, labels=labels)
      logits = _logits(logits_input, logits, self.logits_dimension)
      return self._model_fn_ops(features, mode, labels, train_op_fn, logits, self._loss_fn,
                                _classification_output_alternatives(self.head_name, self._problem_type))

  def _logits_to_predictions(self, logits):
    with V1.name_scope(None, "predictions", (logits,)):
      two_class_logits = _one_class_to_two_class_logits(logits)
      return {
          _PK.LOGITS: logits,
          _PK.LOGISTIC: tf.sigmoid(logits, name=_PK.LOGISTIC),
          _PK.PROBABILITIES: tf.nn.softmax(two_class_logits, name=_PK.PROBABILITIES),
          _PK.CLASSES: tf.argmax(two_class_logits, 1, name=_PK.CLASSES)}

  def _metrics(self, eval_loss, predictions, labels, weights):
    with V1.name_scope("metrics", values=([eval_loss, labels, weights] + list(predictions.values()))):
      classes = predictions[_PK.CLASSES]
      logistic = predictions[_PK.LOGISTIC]
      key = lambda k: _summary_key(self.head_name, k)
      metrics = {key(mkey.LOSS): V1.metrics.mean(eval_loss)}
      metrics[key(mkey.ACCURACY)] = V1.metrics.accuracy(labels, classes, weights)
      metrics[key(mkey.PREDICTION_MEAN)] = _predictions_streaming_mean(logistic, weights)
      metrics[key(mkey.LABEL_MEAN)] = _indicator_labels_streaming_mean(labels, weights)
      metrics[key(mkey.ACCURACY_BASELINE)] = _indicator_labels_streaming_mean(labels, weights)
      metrics[key(mkey.AUC)] = _streaming_auc(logistic, labels, weights)
      metrics[key(mkey.AUC_PR)] = _streaming_auc(logistic, labels, weights, curve="PR")
      for threshold in self._thresholds:
        metrics[key(mkey.ACCURACY_MEAN % threshold)] = _streaming_accuracy_at_threshold(
            logistic, labels, weights, threshold)
        metrics[key(mkey.PRECISION_MEAN % threshold)] = _streaming_precision_at_threshold(
            logistic, labels, weights, threshold)
        metrics[key(mkey.RECALL_MEAN % threshold)] = _streaming_recall_at_threshold(
            logistic, labels, weights, threshold)
    return metrics


def _softmax_cross_entropy_loss(labels, logits, weights=None):
  with V1.name_scope(None, "softmax_cross_entropy_loss", (logits, labels,)) as name:
    labels = tf.convert_to_tensor(labels)
    if not labels.dtype.is_integer:
      raise ValueError("Labels dtype should be integer Instead got %s." % labels.dtype)
    is_squeezed_labels = False
    if len(labels.get_shape()) == 2:  # sparse_softmax_cross_entropy_with_logits requires [batch_size] labels
      labels = tf.squeeze(labels, axis=(1,))
      is_squeezed_labels = True
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name=name)
    if is_squeezed_labels:  # restore the squeezed dimension so that loss matches the weights' shape
      loss = tf.expand_dims(loss, axis=(1,))
    return _compute_weighted_loss(loss, weights)


class _MultiClassHead(_SingleHead):
  """`Head` for multi class classification (more than 2 classes)."""

  def __init__(self, n_classes, label_name=None, weight_column_name=None, enable_centered_bias=False,
               head_name=None, loss_fn=None, thresholds=None, metric_class_ids=None, label_keys=None):
    super(_MultiClassHead, self).__init__(
        problem_type=constants.ProblemType.CLASSIFICATION, logits_dimension=n_classes, label_name=label_name,
        weight_column_name=weight_column_name, head_name=head_name)
    if (n_classes is None) or (n_classes <= 2):
      raise ValueError("n_classes must be > 2: %s." % n_classes)
    self._thresholds = thresholds if thresholds else (.5,)
    self._loss_fn = loss_fn if loss_fn else _softmax_cross_entropy_loss
    self._enable_centered_bias = enable_centered_bias
    self._metric_class_ids = tuple([] if metric_class_ids is None else metric_class_ids)
    for class_id in self._metric_class_ids:
      if (class_id < 0) or (class_id >= n_classes):
        raise ValueError("Class ID %s not in [0, %s)." % (class_id, n_classes))
    if label_keys and len(label_keys) != n_classes:
      raise ValueError("Length of label_keys must equal n_classes.")
    self._label_keys = label_keys

  def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                          logits_input=None, scope=None):
    with self._scope(scope, "multi_class_head", features, labels, logits, logits_input):
      labels = self._transform_labels(mode=mode, labels=labels)
      logits = _logits(logits_input, logits, self.logits_dimension)
      return self._model_fn_ops(
          features, mode, labels, train_op_fn, logits, self._wrapped_loss_fn,
          _classification_output_alternatives(self.head_name, self._problem_type, self._label_keys))

  def _transform_labels(self, mode, labels):
    """The original labels and their ids, as a dict."""
    if (mode == model_fn.ModeKeys.INFER) or (labels is None):
      return None
    labels_tensor = _to_labels_tensor(labels, self._label_name)
    _check_no_sparse_tensor(labels_tensor)
    if self._label_keys:
      table = lookup.index_table_from_tensor(self._label_keys, name="label_id_lookup")
      return {"labels": labels_tensor, "label_ids": table.lookup(labels_tensor)}
    return {"labels": labels_tensor, "label_ids": labels_tensor}

  def _wrapped_loss_fn(self, labels, logits, weights=None):
    return self._loss_fn(labels["label_ids"], logits, weights=weights)

  def _logits_to_predictions(self, logits):
    with V1.name_scope(None, "predictions", (logits,)):
      class_ids = tf.argmax(logits, 1, name=_PK.CLASSES)
      if self._label_keys:
        table = lookup.index_to_string_table_from_tensor(self._label_keys, name="class_string_lookup")
        classes = table.lookup(class_ids)
      else:
        classes = class_ids
      return {_PK.LOGITS: logits, _PK.PROBABILITIES: tf.nn.softmax(logits, name=_PK.PROBABILITIES),
              _PK.CLASSES: classes}

  def _metrics(self, eval_loss, predictions, labels, weights):
    with V1.name_scope("metrics", values=((eval_loss, labels["labels"], labels["label_ids"], weights)
                                          + tuple(predictions.values()))):
      logits = predictions[_PK.LOGITS]
      probabilities = predictions[_PK.PROBABILITIES]
      classes = predictions[_PK.CLASSES]
      key = lambda k: _summary_key(self.head_name, k)
      metrics = {key(mkey.LOSS): V1.metrics.mean(eval_loss)}
      metrics[key(mkey.ACCURACY)] = V1.metrics.accuracy(labels["labels"], classes, weights)
      if not self._label_keys:  # classes are ids
        for class_id in self._metric_class_ids:
          metrics[key(mkey.CLASS_PREDICTION_MEAN % class_id)] = _class_predictions_streaming_mean(
              classes, weights, class_id)
          metrics[key(mkey.CLASS_LABEL_MEAN % class_id)] = _class_labels_streaming_mean(
              labels["label_ids"], weights, class_id)
          metrics[key(mkey.CLASS_PROBABILITY_MEAN % class_id)] = _predictions_streaming_mean(
              probabilities, weights, class_id)
          metrics[key(mkey.CLASS_LOGITS_MEAN % class_id)] = _predictions_streaming_mean(
              logits, weights, class_id)
    return metrics


def _to_labels_tensor(labels, label_name):
  labels = labels[label_name] if isinstance(labels, dict) else labels
  return V1.convert_to_tensor_or_sparse_tensor(labels)


def _check_no_sparse_tensor(x):
  if isinstance(x, tf.SparseTensor):
    raise ValueError("SparseTensor is not supported.")


def _sparse_labels_to_indicator(labels, num_classes):
  if isinstance(labels, tf.SparseTensor):
    if num_classes < 2:
      raise ValueError("Must set num_classes >= 2 when passing labels as a SparseTensor.")
    return tf.cast(V1.sparse_to_indicator(labels, num_classes), tf.int64)
  return labels


def _assert_labels_rank(labels):
  return V1.Assert(tf.less_equal(tf.rank(labels), 2),
                   ("labels shape should be either [batch_size, 1] or [batch_size]",))


class _BinarySvmHead(_SingleHead):
  """`Head` for binary classification using SVM (hinge loss)."""

  def __init__(self, label_name, weight_column_name, enable_centered_bias, head_name, thresholds):

    def _loss_fn(labels, logits, weights=None):
      with V1.name_scope(None, "hinge_loss", (logits, labels)) as name:
        with tf.control_dependencies((_assert_labels_rank(labels),)):
          labels = tf.reshape(labels, shape=(-1, 1))
        loss = V1.losses.hinge_loss(labels=labels, logits=logits, scope=name,
                                    reduction=V1.losses.Reduction.NONE)
        return _compute_weighted_loss(loss, weights)

    super(_BinarySvmHead, self).__init__(
        problem_type=constants.ProblemType.LOGISTIC_REGRESSION, logits_dimension=1, label_name=label_name,
        weight_column_name=weight_column_name, head_name=head_name)
    self._thresholds = thresholds if thresholds else (.5,)
    self._loss_fn = _loss_fn
    self._enable_centered_bias = enable_centered_bias

  def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                          logits_input=None, scope=None):
    with self._scope(scope, "binary_svm_head", features, labels, logits, logits_input):
      labels = self._transform_labels(mode=mode, labels=labels)
      logits = _logits(logits_input, logits, self.logits_dimension)
      return self._model_fn_ops(features, mode, labels, train_op_fn, logits, self._loss_fn,
                                self._create_output_alternatives)

  def _logits_to_predictions(self, logits):
    with V1.name_scope(None, "predictions", (logits,)):
      return {_PK.LOGITS: logits,
              _PK.CLASSES: tf.argmax(_one_class_to_two_class_logits(logits), 1, name=_PK.CLASSES)}

  def _metrics(self, eval_loss, predictions, labels, weights):
    with V1.name_scope("metrics", values=([eval_loss, labels, weights] + list(predictions.values()))):
      metrics = {_summary_key(self.head_name, mkey.LOSS): V1.metrics.mean(eval_loss)}
      metrics[_summary_key(self.head_name, mkey.ACCURACY)] = V1.metrics.accuracy(
          labels, predictions[_PK.CLASSES], weights)
    return metrics


class _MultiLabelHead(_SingleHead):
  """`Head` for multi-label classification."""

  def __init__(self, n_classes, label_name, weight_column_name, enable_centered_bias, head_name, thresholds,
               metric_class_ids=None, loss_fn=None):
    super(_MultiLabelHead, self).__init__(
        problem_type=constants.ProblemType.CLASSIFICATION, logits_dimension=n_classes, label_name=label_name,
        weight_column_name=weight_column_name, head_name=head_name)
    self._thresholds = thresholds if thresholds else (.5,)
    self._loss_fn = loss_fn if loss_fn else _sigmoid_cross_entropy_loss
    self._enable_centered_bias = enable_centered_bias
    self._metric_class_ids = tuple([] if metric_class_ids is None else metric_class_ids)
    for class_id in self._metric_class_ids:
      if (class_id < 0) or (class_id >= n_classes):
        raise ValueError("Class ID %s not in [0, %s)." % (class_id, n_classes))

  def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                          logits_input=None, scope=None):
    with self._scope(scope, "multi_label_head", features, labels, logits, logits_input):
      labels = self._transform_labels(mode=mode, labels=labels)
      logits = _logits(logits_input, logits, self.logits_dimension)
      return self._model_fn_ops(features, mode, labels, train_op_fn, logits, self._loss_fn,
                                _classification_output_alternatives(self.head_name, self._problem_type))

  def _transform_labels(self, mode, labels):
    if (mode == model_fn.ModeKeys.INFER) or (labels is None):
      return None
    labels_tensor = _to_labels_tensor(labels, self._label_name)
    return _sparse_labels_to_indicator(labels_tensor, self._logits_dimension)

  def _logits_to_predictions(self, logits):
    with V1.name_scope(None, "predictions", (logits,)):
      return {_PK.LOGITS: logits,
              _PK.PROBABILITIES: tf.sigmoid(logits, name=_PK.PROBABILITIES),
              _PK.CLASSES: tf.cast(tf.greater(logits, 0), tf.int64, name=_PK.CLASSES)}

  def _metrics(self, eval_loss, predictions, labels, weights):
    with V1.name_scope("metrics", values=([eval_loss, labels, weights] + list(predictions.values()))):
      classes = predictions[_PK.CLASSES]
      probabilities = predictions[_PK.PROBABILITIES]
      logits = predictions[_PK.LOGITS]
      key = lambda k: _summary_key(self.head_name, k)
      metrics = {key(mkey.LOSS): V1.metrics.mean(eval_loss)}
      metrics[key(mkey.ACCURACY)] = V1.metrics.accuracy(labels, classes, weights)
      metrics[key(mkey.AUC)] = _streaming_auc(probabilities, labels, weights)
      metrics[key(mkey.AUC_PR)] = _streaming_auc(probabilities, labels, weights, curve="PR")
      for class_id in self._metric_class_ids:
        metrics[key(mkey.CLASS_PREDICTION_MEAN % class_id)] = _predictions_streaming_mean(
            classes, weights, class_id)
        metrics[key(mkey.CLASS_LABEL_MEAN % class_id)] = _indicator_labels_streaming_mean(
            labels, weights, class_id)
        metrics[key(mkey.CLASS_PROBABILITY_MEAN % class_id)] = _predictions_streaming_mean(
            probabilities, weights, class_id)
        metrics[key(mkey.CLASS_LOGITS_MEAN % class_id)] = _predictions_streaming_mean(
            logits, weights, class_id)
        metrics[key(mkey.CLASS_AUC % class_id)] = _streaming_auc(probabilities, labels, weights, class_id)
        metrics[key(mkey.CLASS_AUC_PR % class_id)] = _streaming_auc(
            probabilities, labels, weights, class_id, curve="PR")
    return metrics


class _LossOnlyHead(Head):
  """`Head` holding only loss terms unrelated to labels (e.g. regularization), for a multi_head."""

  def __init__(self, loss_fn, head_name=None):
    self._loss_fn = loss_fn
    self.head_name = head_name or "loss_only_head"

  @property
  def logits_dimension(self):
    return 0

  def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                          logits_input=None, scope=None):
    _check_mode_valid(mode)
    loss = None
    train_op = None
    if mode != model_fn.ModeKeys.INFER:
      with V1.variable_scope(scope, default_name=self.head_name):
        loss = self._loss_fn()
        if isinstance(loss, list):
          loss = tf.add_n(loss)
        with V1.name_scope(""):
          summary_loss = tf.identity(loss)
          V1.summary.scalar(_summary_key(self.head_name, mkey.LOSS), summary_loss)
        if mode == model_fn.ModeKeys.TRAIN:
          if train_op_fn is None:
            raise ValueError("train_op_fn can not be None in TRAIN mode")
          with V1.name_scope(None, "train_op", (loss,)):
            train_op = train_op_fn(loss)
    return model_fn.ModelFnOps(mode=mode, loss=loss, train_op=train_op, predictions={}, eval_metric_ops={})


class _MultiHead(Head):
  """Merges named heads that stem from the same logits / hidden layer (TF 1.15's `_MultiHead`)."""

  def __init__(self, heads, loss_merger):
    self._logits_dimension = 0
    for head in heads:
      if not head.head_name:
        raise ValueError("Members of MultiHead must have names.")
      self._logits_dimension += head.logits_dimension
    self._heads = heads
    self._loss_merger = loss_merger

  @property
  def logits_dimension(self):
    return self._logits_dimension

  def create_model_fn_ops(self, features, mode, labels=None, train_op_fn=None, logits=None,
                          logits_input=None, scope=None):
    _check_mode_valid(mode)
    all_model_fn_ops = []
    if logits is None:
      for head in self._heads:
        all_model_fn_ops.append(head.create_model_fn_ops(
            features=features, mode=mode, labels=labels, train_op_fn=no_op_train_fn,
            logits_input=logits_input, scope=scope))
    else:
      if isinstance(logits, dict):
        head_logits_pairs = [(head, None if isinstance(head, _LossOnlyHead) else logits[head.head_name])
                             for head in self._heads]
      else:
        head_logits_pairs = zip(self._heads, self._split_logits(logits))
      for head, head_logits in head_logits_pairs:
        all_model_fn_ops.append(head.create_model_fn_ops(
            features=features, mode=mode, labels=labels, train_op_fn=no_op_train_fn, logits=head_logits,
            scope=scope))
    if mode == model_fn.ModeKeys.TRAIN:
      if train_op_fn is None:
        raise ValueError("train_op_fn can not be None in TRAIN mode.")
      return self._merge_train(all_model_fn_ops, train_op_fn)
    if mode == model_fn.ModeKeys.INFER:
      return self._merge_infer(all_model_fn_ops)
    return self._merge_eval(all_model_fn_ops)

  def _split_logits(self, logits):
    all_logits = []
    begin = 0
    for head in self._heads:
      all_logits.append(tf.slice(logits, [0, begin], [-1, head.logits_dimension]))
      begin += head.logits_dimension
    return all_logits

  def _merge_train(self, all_model_fn_ops, train_op_fn):
    losses = []
    metrics = {}
    additional_train_ops = []
    for m in all_model_fn_ops:
      losses.append(m.loss)
      metrics.update(m.eval_metric_ops or {})
      additional_train_ops.append(m.train_op)
    loss = self._loss_merger(losses)
    train_op = tf.group(train_op_fn(loss), *additional_train_ops)
    return model_fn.ModelFnOps(mode=model_fn.ModeKeys.TRAIN, loss=loss, train_op=train_op,
                               eval_metric_ops=metrics)

  def _merge_infer(self, all_model_fn_ops):
    predictions = {}
    output_alternatives = {}
    for head, m in zip(self._heads, all_model_fn_ops):
      if isinstance(head, _LossOnlyHead):
        continue
      output_alternatives[head.head_name] = m.output_alternatives[head.head_name]
      for k, v in m.predictions.items():
        predictions[(head.head_name, k)] = v
    return model_fn.ModelFnOps(mode=model_fn.ModeKeys.INFER, predictions=predictions,
                               output_alternatives=output_alternatives)

  def _merge_eval(self, all_model_fn_ops):
    predictions = {}
    metrics = {}
    losses = []
    for head, m in zip(self._heads, all_model_fn_ops):
      losses.append(m.loss)
      for k, v in m.predictions.items():
        predictions[(head.head_name, k)] = v
      metrics.update(m.eval_metric_ops)
    return model_fn.ModelFnOps(mode=model_fn.ModeKeys.EVAL, predictions=predictions,
                               loss=self._loss_merger(losses), eval_metric_ops=metrics)


def _weight_tensor(features, weight_column_name):
  """The weights as a float `Tensor` of rank 0 or at least 2."""
  if not weight_column_name:
    return None
  if weight_column_name not in features:
    raise ValueError("Weights {} missing from features.".format(weight_column_name))
  with V1.name_scope(None, "weight_tensor", tuple(features.values())):
    weight_tensor = tf.cast(features[weight_column_name], tf.float32)
    shape = weight_tensor.get_shape()
    if shape.ndims == 1:
      V1.logging.warning("Weights {} has shape {}, expanding to make it 2d.".format(weight_column_name, shape))
      return (V1.sparse_reshape(weight_tensor, (-1, 1)) if isinstance(weight_tensor, tf.SparseTensor)
              else tf.reshape(weight_tensor, (-1, 1)))
    return weight_tensor


def _broadcast_weights(weights, values):
  """`weights` broadcast to `values`' shape, checked as TF 1.15 did (statically where it can).

  TF 2.21 has the same function with no public name (tf.compat.v1.losses uses it internally).
  """
  return weights_broadcast_ops.broadcast_weights(weights, values)


def _compute_weighted_loss(loss_unweighted, weight, name="loss"):
  """(the mean of the weighted losses, for training; their weighted average, for reports)."""
  with V1.name_scope(name, values=(loss_unweighted, weight)) as name_scope:
    if weight is None:
      loss = tf.reduce_mean(loss_unweighted, name=name_scope)
      return loss, loss
    weight = _broadcast_weights(weight, loss_unweighted)
    with V1.name_scope(None, "weighted_loss", (loss_unweighted, weight)) as name:
      weighted_loss = tf.multiply(loss_unweighted, weight, name=name)
    weighted_loss_mean = tf.reduce_mean(weighted_loss, name=name_scope)
    weighted_loss_normalized = V1.div(tf.reduce_sum(weighted_loss), tf.cast(tf.reduce_sum(weight), tf.float32),
                                      name="weighted_average_loss")
    return weighted_loss_mean, weighted_loss_normalized


def _wrap_custom_loss_fn(loss_fn):
  def _wrapper(labels, logits, weights=None):
    loss = loss_fn(labels, logits) if weights is None else loss_fn(labels, logits, weights)
    return loss, loss
  return _wrapper


def _check_mode_valid(mode):
  if mode not in (model_fn.ModeKeys.TRAIN, model_fn.ModeKeys.INFER, model_fn.ModeKeys.EVAL):
    raise ValueError("mode=%s unrecognized." % str(mode))


def _get_arguments(func):
  """The argument names of a function, a partial's function or a callable object's __call__."""
  func = inspect.unwrap(func)
  if hasattr(func, "__code__"):
    return inspect.getfullargspec(func).args
  if hasattr(func, "func"):
    return _get_arguments(func.func)
  if hasattr(func, "__call__"):
    return _get_arguments(func.__call__)
  return []


def _verify_loss_fn_args(loss_fn):
  args = _get_arguments(loss_fn)
  for arg_name in ["labels", "logits", "weights"]:
    if arg_name not in args:
      raise ValueError("Argument %s not found in loss_fn." % arg_name)


def _centered_bias(logits_dimension, head_name=None):
  """The `centered_bias_weight` variable (a plain Variable, so it is never partitioned) and its summaries."""
  if (logits_dimension is None) or (logits_dimension < 1):
    raise ValueError("Invalid logits_dimension %s." % logits_dimension)
  centered_bias = V1.Variable(name="centered_bias_weight", initial_value=tf.zeros(shape=(logits_dimension,)),
                              trainable=True)
  for dim in range(logits_dimension):
    if head_name:
      V1.summary.scalar("centered_bias/bias_%d/%s" % (dim, head_name), centered_bias[dim])
    else:
      V1.summary.scalar("centered_bias/bias_%d" % dim, centered_bias[dim])
  return centered_bias


def _centered_bias_step(centered_bias, batch_size, labels, loss_fn, weights):
  """The centered bias' own training op: Adagrad(0.1) on the loss of the bias alone."""
  with V1.name_scope(None, "centered_bias_step", (labels,)) as name:
    logits_dimension = tf.shape(centered_bias)[0]
    logits = tf.reshape(tf.tile(centered_bias, (batch_size,)), (batch_size, logits_dimension))
    with V1.name_scope(None, "centered_bias", (labels, logits)):
      centered_bias_loss = tf.reduce_mean(loss_fn(labels, logits, weights), name="training_loss")
  return V1.train.AdagradOptimizer(0.1).minimize(centered_bias_loss, var_list=(centered_bias,), name=name)


def _summary_key(head_name, val):
  return "%s/%s" % (val, head_name) if head_name else val


def _train_op(loss, labels, train_op_fn, centered_bias, batch_size, loss_fn, weights):
  centered_bias_step = None
  if centered_bias is not None:
    centered_bias_step = _centered_bias_step(centered_bias=centered_bias, batch_size=batch_size,
                                             labels=labels, loss_fn=loss_fn, weights=weights)
  with V1.name_scope(None, "train_op", (loss, labels)):
    train_op = train_op_fn(loss)
    if centered_bias_step is not None:
      train_op = tf.group(train_op, centered_bias_step)
    return train_op


def _sigmoid_cross_entropy_loss(labels, logits, weights=None):
  with V1.name_scope(None, "sigmoid_cross_entropy_loss", (logits, labels)) as name:
    loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.cast(labels, tf.float32), logits=logits, name=name)
    return _compute_weighted_loss(loss, weights)


def _float_weights_or_none(weights):
  if weights is None:
    return None
  with V1.name_scope(None, "float_weights", (weights,)) as name:
    return tf.cast(weights, tf.float32, name=name)


def _streaming_mean_of(values, weights=None, class_id=None):
  values = tf.cast(values, tf.float32)
  weights = _float_weights_or_none(weights)
  if weights is not None:
    weights = _broadcast_weights(weights, values)
  if class_id is not None:
    if weights is not None:
      weights = weights[:, class_id]
    values = values[:, class_id]
  return V1.metrics.mean(values, weights)


_indicator_labels_streaming_mean = _streaming_mean_of
_predictions_streaming_mean = _streaming_mean_of


def _class_predictions_streaming_mean(predictions, weights, class_id):
  return V1.metrics.mean(
      tf.where(tf.equal(tf.cast(class_id, tf.int32), tf.cast(predictions, tf.int32)),
               tf.ones_like(predictions), tf.zeros_like(predictions)), weights=weights)


def _class_labels_streaming_mean(labels, weights, class_id):
  return V1.metrics.mean(
      tf.where(tf.equal(tf.cast(class_id, tf.int32), tf.cast(labels, tf.int32)),
               tf.ones_like(labels), tf.zeros_like(labels)), weights=weights)


def _streaming_auc(predictions, labels, weights=None, class_id=None, curve="ROC"):
  predictions = tf.cast(predictions, tf.float32)
  if labels.dtype.base_dtype != tf.bool:
    V1.logging.warning("Casting %s labels to bool.", labels.dtype)
    labels = tf.cast(labels, tf.bool)
  weights = _float_weights_or_none(weights)
  if weights is not None:
    weights = _broadcast_weights(weights, predictions)
  if class_id is not None:
    if weights is not None:
      weights = weights[:, class_id]
    predictions = predictions[:, class_id]
    labels = labels[:, class_id]
  return V1.metrics.auc(labels, predictions, weights, curve=curve)


def _streaming_accuracy_at_threshold(predictions, labels, weights, threshold):
  threshold_predictions = tf.cast(tf.greater_equal(predictions, threshold), tf.float32)
  return V1.metrics.accuracy(labels, threshold_predictions, weights)


def _streaming_precision_at_threshold(predictions, labels, weights, threshold):
  precision_tensor, update_op = V1.metrics.precision_at_thresholds(
      labels, predictions, (threshold,), _float_weights_or_none(weights))
  return tf.squeeze(precision_tensor), tf.squeeze(update_op)


def _streaming_recall_at_threshold(predictions, labels, weights, threshold):
  recall_tensor, update_op = V1.metrics.recall_at_thresholds(
      labels, predictions, (threshold,), _float_weights_or_none(weights))
  return tf.squeeze(recall_tensor), tf.squeeze(update_op)


def _classification_output_alternatives(head_name, problem_type, label_keys=None):
  """The output alternatives of a classifier: probabilities, and the class names as strings beside them."""
  def _create_output_alternatives(predictions):
    probabilities = predictions.get(_PK.PROBABILITIES)
    if probabilities is None:
      raise ValueError("%s missing in predictions" % _PK.PROBABILITIES)
    with V1.name_scope(None, "_classification_output_alternatives", (probabilities,)):
      batch_size = tf.shape(probabilities)[0]
      if label_keys:
        classes = tf.tile(input=tf.expand_dims(input=label_keys, axis=0), multiples=[batch_size, 1],
                          name="classes_tensor")
      else:
        n = tf.shape(probabilities)[1]
        classes = tf.tile(input=tf.expand_dims(input=tf.range(n), axis=0), multiples=[batch_size, 1])
        classes = tf.strings.as_string(classes, name="classes_tensor")
    return {head_name: (problem_type, {_PK.PROBABILITIES: probabilities, _PK.CLASSES: classes})}
  return _create_output_alternatives


__getattr__ = _catalog.module_getattr(__name__)
