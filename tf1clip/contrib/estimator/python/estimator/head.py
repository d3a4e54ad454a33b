"""`tf.contrib.estimator`'s heads: the loss, predictions, metrics and train op of a canned model, as in TF 1.15.

The five single-label heads are what TF 1.15 made them: the library's v1 heads (still in tensorflow-estimator
2.15) with TF 1.15's arguments; `poisson_regression_head` and `logistic_regression_head` are regression heads
with a Poisson / sigmoid cross-entropy loss and an exp / sigmoid inverse link. `multi_label_head` (sigmoid
cross-entropy over n independent labels, dense indicators or sparse ids/strings) and `multi_head` (one head
per named label, logits split or given per head, losses optionally weighted) are TF 1.15's code on the same v1
head interface, so v1 canned estimators (`tf.estimator.DNNEstimator(head=...)`) and model_fns use them with
TF 1.15's prediction keys, metric keys and export signatures.
"""

import tensorflow as tf

import tf1clip.contrib.lookup as lookup

# pylint: disable=g-import-not-at-top,wrong-import-position,protected-access
from tensorflow_estimator.python.estimator import model_fn as model_fn_lib
from tensorflow_estimator.python.estimator.canned import head as head_lib
from tensorflow_estimator.python.estimator.canned import metric_keys
from tensorflow_estimator.python.estimator.canned import prediction_keys
from tensorflow_estimator.python.estimator.export import export_output as export_output_lib

V1 = tf.compat.v1
_DEFAULT_SERVING_KEY = tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY
_SUM_OVER_BATCH_SIZE = V1.losses.Reduction.SUM_OVER_BATCH_SIZE
_Keys = metric_keys.MetricKeys


def multi_class_head(n_classes, weight_column=None, label_vocabulary=None,
                     loss_reduction=_SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
  """A softmax cross-entropy head over n_classes exclusive classes (the library's v1 head)."""
  return head_lib._multi_class_head_with_softmax_cross_entropy_loss(
      n_classes=n_classes, weight_column=weight_column, label_vocabulary=label_vocabulary,
      loss_reduction=loss_reduction, loss_fn=loss_fn, name=name)


def binary_classification_head(weight_column=None, thresholds=None, label_vocabulary=None,
                               loss_reduction=_SUM_OVER_BATCH_SIZE, loss_fn=None, name=None):
  """A sigmoid cross-entropy head for two classes (the library's v1 head)."""
  return head_lib._binary_logistic_head_with_sigmoid_cross_entropy_loss(
      weight_column=weight_column, thresholds=thresholds, label_vocabulary=label_vocabulary,
      loss_reduction=loss_reduction, loss_fn=loss_fn, name=name)


def regression_head(weight_column=None, label_dimension=1, loss_reduction=_SUM_OVER_BATCH_SIZE, loss_fn=None,
                    inverse_link_fn=None, name=None):
  """A mean-squared-error head (or `loss_fn`), predictions through `inverse_link_fn` (the library's v1 head)."""
  return head_lib._regression_head(
      weight_column=weight_column, label_dimension=label_dimension, loss_reduction=loss_reduction,
      loss_fn=loss_fn, inverse_link_fn=inverse_link_fn, name=name)


def poisson_regression_head(weight_column=None, label_dimension=1, loss_reduction=_SUM_OVER_BATCH_SIZE,
                            compute_full_loss=True, name=None):
  """A regression head with the Poisson loss of log-rate logits; predictions are exp(logits)."""

  def _poisson_loss(labels, logits):
    return tf.nn.log_poisson_loss(targets=labels, log_input=logits, compute_full_loss=compute_full_loss)

  return head_lib._regression_head(
      weight_column=weight_column, label_dimension=label_dimension, loss_reduction=loss_reduction,
      loss_fn=_poisson_loss, inverse_link_fn=tf.exp, name=name)


def logistic_regression_head(weight_column=None, loss_reduction=_SUM_OVER_BATCH_SIZE, name=None):
  """A regression head for labels in [0, 1] with the sigmoid cross-entropy loss; predictions sigmoid(logits)."""

  def _logistic_loss(labels, logits):
    labels = head_lib._assert_range(labels, n_classes=2, message="Labels must be in range [0, 1]")
    return tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)

  return head_lib._regression_head(
      weight_column=weight_column, label_dimension=1, loss_reduction=loss_reduction, loss_fn=_logistic_loss,
      inverse_link_fn=tf.sigmoid, name=name)


def multi_label_head(n_classes, weight_column=None, thresholds=None, label_vocabulary=None,
                     loss_reduction=_SUM_OVER_BATCH_SIZE, loss_fn=None, classes_for_class_based_metrics=None,
                     name=None):
  """A head for n_classes independent binary labels: sigmoid cross-entropy, averaged over the classes.

  Labels are a [batch, n_classes] 0/1 indicator Tensor, or a SparseTensor of class ids (or of strings in
  `label_vocabulary`). Metrics: the mean loss, AUC and PR-AUC, accuracy/precision/recall at each threshold,
  and per-class probability mean and AUCs for `classes_for_class_based_metrics` (ids or vocabulary strings).

  Raises:
    ValueError: n_classes < 2, a threshold outside (0, 1), a bad label_vocabulary, loss_reduction NONE or
      unknown, or a class for class-based metrics out of range.
  """
  thresholds = tuple(thresholds) if thresholds else tuple()
  if n_classes is None or n_classes < 2:
    raise ValueError("n_classes must be > 1 for multi-class classification. Given: {}".format(n_classes))
  for threshold in thresholds:
    if threshold <= 0.0 or threshold >= 1.0:
      raise ValueError("thresholds must be in (0, 1) range. Given: {}".format(threshold))
  if label_vocabulary is not None:
    if not isinstance(label_vocabulary, (list, tuple)):
      raise ValueError("label_vocabulary must be a list or tuple. Given type: {}".format(type(label_vocabulary)))
    if len(label_vocabulary) != n_classes:
      raise ValueError("Length of label_vocabulary must be n_classes ({}). Given: {}".format(
          n_classes, len(label_vocabulary)))
  if loss_fn:
    head_lib._validate_loss_fn_args(loss_fn)
  if loss_reduction not in V1.losses.Reduction.all() or loss_reduction == V1.losses.Reduction.NONE:
    raise ValueError("Invalid loss_reduction: {}".format(loss_reduction))
  classes = tuple(classes_for_class_based_metrics or ())
  if classes and isinstance(classes[0], str):
    if not label_vocabulary:
      raise ValueError("label_vocabulary must be provided when classes_for_class_based_metrics are strings.")
    classes = tuple(label_vocabulary.index(c) for c in classes)
  else:
    for class_id in classes:
      if class_id < 0 or class_id >= n_classes:
        raise ValueError("All classes_for_class_based_metrics must be in range [0, {}]. Given: {}".format(
            n_classes - 1, class_id))
  return _MultiLabelHead(n_classes=n_classes, weight_column=weight_column, thresholds=thresholds,
                         label_vocabulary=label_vocabulary, loss_reduction=loss_reduction, loss_fn=loss_fn,
                         classes_for_class_based_metrics=classes, name=name)


class _MultiLabelHead(head_lib._Head):
  """The head `multi_label_head` returns."""

  def __init__(self, n_classes, weight_column=None, thresholds=None, label_vocabulary=None,
               loss_reduction=_SUM_OVER_BATCH_SIZE, loss_fn=None, classes_for_class_based_metrics=None,
               name=None):
    self._n_classes = n_classes
    self._weight_column = weight_column
    self._thresholds = thresholds
    self._label_vocabulary = label_vocabulary
    self._loss_reduction = loss_reduction
    self._loss_fn = loss_fn
    self._classes_for_class_based_metrics = classes_for_class_based_metrics
    self._name = name

  @property
  def name(self):
    return self._name

  @property
  def logits_dimension(self):
    return self._n_classes

  def _process_labels(self, labels):
    """Labels as an int64 [batch, n_classes] indicator (checked to be 0/1, or ids in range)."""
    if labels is None:
      raise ValueError(
          "You must provide a labels Tensor. Given: None. Suggested troubleshooting steps: Check that your data "
          "contain your label feature. Check that your input_fn properly parses and returns labels.")
    if isinstance(labels, tf.SparseTensor):
      if labels.dtype == tf.string:
        ids = lookup.index_table_from_tensor(tuple(self._label_vocabulary),  # TF 1.15's contrib name: `mapping`
                                             name="class_id_lookup").lookup(labels.values)
        ids = tf.SparseTensor(indices=labels.indices, values=ids, dense_shape=labels.dense_shape)
        return tf.cast(V1.sparse_to_indicator(ids, self._n_classes), tf.int64)
      message = "labels must be an integer SparseTensor with values in [0, {})".format(self._n_classes)
      checks = [V1.assert_integer(labels.values, message=message),
                V1.assert_less(labels.values, tf.convert_to_tensor(self._n_classes, dtype=labels.dtype),
                               message=message),
                V1.assert_non_negative(labels.values, message=message)]
      with tf.control_dependencies(checks):
        return tf.cast(V1.sparse_to_indicator(labels, self._n_classes), tf.int64)
    return head_lib._assert_range(labels, 2, message="labels must be an integer indicator Tensor with values in "
                                                     "[0, 1]")

  def create_loss(self, features, mode, logits, labels):
    """LossSpec: the weighted, reduced training loss; the per-example loss (mean over classes); labels."""
    del mode  # unused
    logits = tf.convert_to_tensor(logits)
    processed_labels = head_lib._check_dense_labels_match_logits_and_reshape(
        labels=self._process_labels(labels), logits=logits, expected_labels_dimension=self.logits_dimension)
    if self._loss_fn:
      unweighted_loss = head_lib._call_loss_fn(loss_fn=self._loss_fn, labels=processed_labels, logits=logits,
                                               features=features, expected_loss_dim=1)
    else:
      unweighted_loss = V1.losses.sigmoid_cross_entropy(multi_class_labels=processed_labels, logits=logits,
                                                        reduction=V1.losses.Reduction.NONE)
      # averaged over the classes, so the loss does not grow with n_classes
      unweighted_loss = tf.reduce_mean(unweighted_loss, axis=-1, keepdims=True)
    weights = head_lib._get_weights_and_check_match_logits(features=features, weight_column=self._weight_column,
                                                           logits=logits)
    training_loss = V1.losses.compute_weighted_loss(unweighted_loss, weights=weights,
                                                    reduction=self._loss_reduction)
    return head_lib.LossSpec(training_loss=training_loss, unreduced_loss=unweighted_loss, weights=weights,
                             processed_labels=processed_labels)

  def _create_tpu_estimator_spec(self, features, mode, logits, labels=None, optimizer=None, train_op_fn=None,
                                 regularization_losses=None):
    ModeKeys = model_fn_lib.ModeKeys  # pylint: disable=invalid-name
    with V1.name_scope(self._name, "head"):
      logits = head_lib._check_logits_final_dim(logits, self.logits_dimension)
      keys = prediction_keys.PredictionKeys
      with V1.name_scope(None, "predictions", (logits,)):
        probabilities = tf.sigmoid(logits, name=keys.PROBABILITIES)
        predictions = {keys.LOGITS: logits, keys.PROBABILITIES: probabilities}
      if mode == ModeKeys.PREDICT:
        classifier_output = head_lib._classification_output(scores=probabilities, n_classes=self._n_classes,
                                                            label_vocabulary=self._label_vocabulary)
        return model_fn_lib._TPUEstimatorSpec(
            mode=ModeKeys.PREDICT, predictions=predictions,
            export_outputs={_DEFAULT_SERVING_KEY: classifier_output,
                            head_lib._CLASSIFY_SERVING_KEY: classifier_output,
                            head_lib._PREDICT_SERVING_KEY: export_output_lib.PredictOutput(predictions)})
      training_loss, unreduced_loss, weights, processed_labels = self.create_loss(
          features=features, mode=mode, logits=logits, labels=labels)
      if regularization_losses:
        regularization_loss = tf.add_n(regularization_losses)
        regularized_training_loss = tf.add_n([training_loss, regularization_loss])
      else:
        regularization_loss = None
        regularized_training_loss = training_loss
      if mode == ModeKeys.EVAL:
        return model_fn_lib._TPUEstimatorSpec(
            mode=ModeKeys.EVAL, predictions=predictions, loss=regularized_training_loss,
            eval_metrics=head_lib._create_eval_metrics_tuple(self._eval_metric_ops, {
                "labels": processed_labels, "probabilities": probabilities, "weights": weights,
                "unreduced_loss": unreduced_loss, "regularization_loss": regularization_loss}))
      train_op = _train_op(regularized_training_loss, optimizer, train_op_fn)
      train_op = head_lib._append_update_ops(train_op)
      if self._loss_reduction == V1.losses.Reduction.SUM:
        mean_loss = training_loss / tf.reduce_sum(weights * tf.ones_like(unreduced_loss))
      else:
        mean_loss = None
    with V1.name_scope(""):
      V1.summary.scalar(head_lib._summary_key(self._name, _Keys.LOSS), regularized_training_loss)
      if mean_loss is not None:
        V1.summary.scalar(head_lib._summary_key(self._name, _Keys.LOSS_MEAN), mean_loss)
      if regularization_loss is not None:
        V1.summary.scalar(head_lib._summary_key(self._name, _Keys.LOSS_REGULARIZATION), regularization_loss)
    return model_fn_lib._TPUEstimatorSpec(mode=ModeKeys.TRAIN, predictions=predictions,
                                          loss=regularized_training_loss, train_op=train_op)

  def _eval_metric_ops(self, labels, probabilities, weights, unreduced_loss, regularization_loss):
    key = lambda name: head_lib._summary_key(self._name, name)  # pylint: disable=unnecessary-lambda-assignment
    with V1.name_scope(None, "metrics", [labels, probabilities, weights, unreduced_loss, regularization_loss]):
      ops = {
          key(_Keys.LOSS_MEAN): V1.metrics.mean(values=unreduced_loss, weights=weights, name=_Keys.LOSS_MEAN),
          key(_Keys.AUC): V1.metrics.auc(labels=labels, predictions=probabilities, weights=weights,
                                         name=_Keys.AUC),
          key(_Keys.AUC_PR): V1.metrics.auc(labels=labels, predictions=probabilities, weights=weights,
                                            curve="PR", name=_Keys.AUC_PR)}
      if regularization_loss is not None:
        ops[key(_Keys.LOSS_REGULARIZATION)] = V1.metrics.mean(values=regularization_loss,
                                                              name=_Keys.LOSS_REGULARIZATION)
      for threshold in self._thresholds:
        for template, metric in ((_Keys.ACCURACY_AT_THRESHOLD, head_lib._accuracy_at_threshold),
                                 (_Keys.PRECISION_AT_THRESHOLD, head_lib._precision_at_threshold),
                                 (_Keys.RECALL_AT_THRESHOLD, head_lib._recall_at_threshold)):
          ops[key(template % threshold)] = metric(labels=labels, predictions=probabilities, weights=weights,
                                                  threshold=threshold, name=template % threshold)
      for class_id in self._classes_for_class_based_metrics:
        batch_rank = tf.rank(probabilities) - 1
        begin = tf.concat([tf.zeros([batch_rank], dtype=tf.int32), [class_id]], axis=0)
        size = tf.concat([-1 * tf.ones([batch_rank], dtype=tf.int32), [1]], axis=0)
        class_probabilities = tf.slice(probabilities, begin=begin, size=size)
        class_labels = tf.slice(labels, begin=begin, size=size)
        named = self._label_vocabulary is not None
        label = self._label_vocabulary[class_id] if named else class_id
        prob_key = (_Keys.PROBABILITY_MEAN_AT_NAME if named else _Keys.PROBABILITY_MEAN_AT_CLASS) % label
        ops[key(prob_key)] = head_lib._predictions_mean(predictions=class_probabilities, weights=weights,
                                                        name=prob_key)
        auc_key = (_Keys.AUC_AT_NAME if named else _Keys.AUC_AT_CLASS) % label
        ops[key(auc_key)] = head_lib._auc(labels=class_labels, predictions=class_probabilities, weights=weights,
                                          name=auc_key)
        auc_pr_key = (_Keys.AUC_PR_AT_NAME if named else _Keys.AUC_PR_AT_CLASS) % label
        ops[key(auc_pr_key)] = head_lib._auc(labels=class_labels, predictions=class_probabilities,
                                             weights=weights, curve="PR", name=auc_pr_key)
    return ops


def _train_op(loss, optimizer, train_op_fn):
  """optimizer.minimize(loss) at the global step, or train_op_fn(loss): exactly one must be given."""
  if optimizer is not None:
    if train_op_fn is not None:
      raise ValueError("train_op_fn and optimizer cannot both be set.")
    return optimizer.minimize(loss, global_step=V1.train.get_global_step())
  if train_op_fn is not None:
    return train_op_fn(loss)
  raise ValueError("train_op_fn and optimizer cannot both be None.")


def multi_head(heads, head_weights=None):
  """One head per label of a multi-objective model; the loss is their (weighted) sum.

  Labels and logits are dicts keyed by head name (logits may also be one Tensor, split in the heads' order);
  predictions are keyed (head name, prediction key); metrics keep each head's names; each head's export
  outputs are served as "<head name>" and "<head name>/<key>", the first head's default as the default.

  Raises:
    ValueError: no heads, a head without a name, or head_weights of another length.
  """
  if head_weights and len(head_weights) != len(heads):
    raise ValueError("heads and head_weights must have the same size. Given len(heads): {}. Given "
                     "len(head_weights): {}.".format(len(heads), len(head_weights)))
  if not heads:
    raise ValueError("Must specify heads. Given: {}".format(heads))
  for head in heads:
    if not head.name:
      raise ValueError("All given heads must have name specified. Given: {}".format(head))
  return _MultiHead(heads=tuple(heads), head_weights=tuple(head_weights) if head_weights else tuple())


def _no_op_train_fn(loss):
  del loss  # each head's own train op is not used: the merged loss is trained once
  return tf.no_op()


def _merge_losses(losses, head_weights=None):
  losses = tuple(losses)
  with V1.name_scope("merge_losses", values=losses + (head_weights or tuple())):
    if head_weights:
      losses = [tf.multiply(loss, weight) for loss, weight in zip(losses, head_weights)]
    return tf.add_n(losses)


def _default_export_output(export_outputs, head_name):
  if len(export_outputs) == 1:
    return next(iter(export_outputs.values()))
  if _DEFAULT_SERVING_KEY in export_outputs:
    return export_outputs[_DEFAULT_SERVING_KEY]
  raise ValueError(
      "{} did not specify default export_outputs. Given: {} Suggested fix: Use one of the heads in "
      "tf.contrib.estimator, or include key {} in export_outputs.".format(head_name, export_outputs,
                                                                          _DEFAULT_SERVING_KEY))


class _MultiHead(head_lib._Head):
  """The head `multi_head` returns."""

  def __init__(self, heads, head_weights):
    self._logits_dimension = sum(head.logits_dimension for head in heads)
    self._heads = heads
    self._head_weights = head_weights

  @property
  def name(self):
    return "_".join(h.name for h in self._heads)

  @property
  def logits_dimension(self):
    return self._logits_dimension

  def create_loss(self, features, mode, logits, labels):
    """LossSpec with the merged training loss and, per head name, unreduced losses, weights and labels."""
    logits_dict = logits if isinstance(logits, dict) else self._split_logits(logits)
    training_losses, labels_by_head, unreduced_by_head, weights_by_head = [], {}, {}, {}
    for i, head in enumerate(self._heads):
      training_loss, unreduced_loss, weights, processed_labels = head.create_loss(
          features, mode, logits_dict[head.name], labels[head.name])
      training_losses.append(training_loss)
      labels_by_head[head.name] = processed_labels
      if self._head_weights:
        unreduced_loss = tf.multiply(unreduced_loss, self._head_weights[i])
        weights = tf.multiply(weights, self._head_weights[i])
      unreduced_by_head[head.name] = unreduced_loss
      weights_by_head[head.name] = weights
    return head_lib.LossSpec(training_loss=_merge_losses(training_losses, self._head_weights),
                             unreduced_loss=unreduced_by_head, weights=weights_by_head,
                             processed_labels=labels_by_head)

  def create_estimator_spec(self, features, mode, logits, labels=None, optimizer=None, train_op_fn=None):
    """Each head's spec (trained together on the merged loss), merged for `mode`."""
    ModeKeys = model_fn_lib.ModeKeys  # pylint: disable=invalid-name
    logits_dict = logits if isinstance(logits, dict) else self._split_logits(logits)
    if labels and not isinstance(labels, dict):
      raise ValueError("labels must be a dict. Given: {}".format(labels))
    specs = [head.create_estimator_spec(features=features, mode=mode, logits=logits_dict[head.name],
                                        labels=labels[head.name] if labels else None, train_op_fn=_no_op_train_fn)
             for head in self._heads]
    if mode == ModeKeys.TRAIN:
      spec = self._merge_train(specs, optimizer, train_op_fn)
      with V1.name_scope(""):
        V1.summary.scalar(_Keys.LOSS, spec.loss)
      return spec
    if mode == ModeKeys.PREDICT:
      return self._merge_predict(specs)
    if mode == ModeKeys.EVAL:
      return self._merge_eval(specs)
    raise ValueError("mode={} unrecognized".format(mode))

  def _split_logits(self, logits):
    """{head name: its slice of the last dimension of `logits`}, in the heads' order."""
    logits_dict = {}
    with V1.name_scope(None, "split_logits", values=[logits]):
      logits = tf.convert_to_tensor(logits)
      dimensions = [head.logits_dimension for head in self._heads]
      total = sum(dimensions)
      shape = logits.shape.as_list()
      if shape[-1] is not None and shape[-1] != total:
        raise ValueError("Could not split logits of shape %r among the heads with individual logits "
                         "dimensions: %r. The last dimension of the logits tensor should equal %d but is %d."
                         % (shape, dimensions, shape[-1], total))
      batch_shape = tf.shape(logits)[:-1]
      zeros = tf.zeros_like(batch_shape)
      minus_ones = -1 * tf.ones_like(batch_shape)
      begin = 0
      for head in self._heads:
        logits_dict[head.name] = tf.slice(logits, begin=tf.concat([zeros, [begin]], axis=0),
                                          size=tf.concat([minus_ones, [head.logits_dimension]], axis=0))
        begin += head.logits_dimension
    return logits_dict

  def _predictions(self, specs):
    return {(head.name, k): v for head, spec in zip(self._heads, specs) for k, v in spec.predictions.items()}

  def _merge_train(self, specs, optimizer, train_op_fn):
    metrics = {}
    for spec in specs:
      metrics.update(spec.eval_metric_ops or {})
    loss = _merge_losses([spec.loss for spec in specs], self._head_weights)
    return model_fn_lib.EstimatorSpec(mode=model_fn_lib.ModeKeys.TRAIN, loss=loss,
                                      train_op=_train_op(loss, optimizer, train_op_fn),
                                      predictions=self._predictions(specs), eval_metric_ops=metrics)

  def _merge_predict(self, specs):
    export_outputs = {_DEFAULT_SERVING_KEY: _default_export_output(specs[0].export_outputs, self._heads[0].name)}
    merged_predict_outputs = {}
    for head, spec in zip(self._heads, specs):
      for k, v in spec.export_outputs.items():
        export_outputs[head.name if k == _DEFAULT_SERVING_KEY else "%s/%s" % (head.name, k)] = v
        if k == head_lib._PREDICT_SERVING_KEY and isinstance(v, export_output_lib.PredictOutput):
          for kp, vp in v.outputs.items():
            merged_predict_outputs["%s/%s" % (head.name, kp)] = vp
    export_outputs[head_lib._PREDICT_SERVING_KEY] = export_output_lib.PredictOutput(merged_predict_outputs)
    return model_fn_lib.EstimatorSpec(mode=model_fn_lib.ModeKeys.PREDICT, predictions=self._predictions(specs),
                                      export_outputs=export_outputs)

  def _merge_eval(self, specs):
    metrics = {}
    with V1.name_scope("merge_eval"):
      for head, spec in zip(self._heads, specs):
        loss_name = head_lib._summary_key(head.name, _Keys.LOSS)
        metrics[loss_name] = V1.metrics.mean(spec.loss, name=loss_name)
        metrics.update(spec.eval_metric_ops or {})
      loss = _merge_losses([spec.loss for spec in specs], self._head_weights)
    return model_fn_lib.EstimatorSpec(mode=model_fn_lib.ModeKeys.EVAL, predictions=self._predictions(specs),
                                      loss=loss, eval_metric_ops=metrics)
