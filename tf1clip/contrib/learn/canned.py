"""contrib.learn's canned estimators (`DNNClassifier`, `LinearRegressor`, ...) on tf.estimator's canned estimators.

Place in the data flow (DESIGN.md): tensorflow_estimator (through compat.estimator_shim) <-
contrib.learn.estimator <- **contrib.learn.canned** <- compat <- cli; tf1clip.optimizer (the
`gradient_clip_norm` wrapper) <- **contrib.learn.canned**.

Each class takes TF 1.15's constructor arguments and builds the `tf.compat.v1.estimator` canned
estimator TF made its successor: the same network, initializers, default optimizers and learning rates
(Adagrad 0.05 for DNNs; Ftrl at min(0.2, 1/sqrt(#columns)) for linear models and for the linear part of
wide-and-deep ones, where tf.estimator's own default is 0.005), and the loss TF 1.15's
heads trained on (the mean over the batch: `loss_reduction=SUM_OVER_BATCH_SIZE`). `gradient_clip_norm` wraps
the optimizer in tf1clip's `clip_gradients_by_norm` (the global norm, as TF 1.15's `optimize_loss` clipped).
`LinearClassifier` / `LinearRegressor` also take TF 1.15's `tf.contrib.linear_optimizer.SDCAOptimizer` as
`optimizer`: it becomes tf.estimator's `LinearSDCA` (the same SDCA step; TF 1.15's max(l2, 1.0) and partitioner
passed on), with TF 1.15's checks (binary classification, label_dimension 1, no centered bias).
What a user sees stays TF 1.15's: `fit / evaluate / predict(x=, y=)`, `predict` of a classifier yields
class ids (`predict_proba` the probabilities), of a regressor the scores; `evaluate` has TF 1.15's keys
(`loss` is the mean loss per example; a binary classifier's `auc`, `labels/actual_label_mean`,
`precision/positive_threshold_0.500000_mean`, ...) beside tf.estimator's own.

Deliberate difference (docs/contrib.md): the variables are tf.estimator's (`dnn/hiddenlayer_0/kernel`,
`linear/linear_model/<column>/weights`), not TF 1.15's contrib names (`dnn/hiddenlayer_0/weights`,
`linear/<column>/weight`), so a TF 1.15 contrib.learn checkpoint does not restore into these models.
`enable_centered_bias`, `embedding_lr_multipliers` and the `_joint_weight(s)` options had no successor
and are refused by name when set.
"""

import math

import numpy as np
import tensorflow as _tf

from tf1clip.contrib.learn import estimator as estimator_lib

_DNN_LEARNING_RATE = 0.05
_LINEAR_LEARNING_RATE = 0.2


def _linear_learning_rate(num_columns):
  return min(_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(max(num_columns, 1)))


def _optimizer(optimizer, default, learning_rate, gradient_clip_norm):
  """The optimizer (instance, name or callable), wrapped to clip by global norm when asked.

  A name (and the default) gets TF 1.15's learning rate for this model here, not tf.estimator's default:
  tf.estimator's wide-and-deep model trains its linear part at 0.005 where TF 1.15's used up to 0.2.
  """
  if optimizer is None:
    optimizer = default
  if gradient_clip_norm is None and not isinstance(optimizer, str):
    return optimizer
  from tf1clip import optimizer as optimizer_lib  # pylint: disable=import-outside-toplevel
  from tf1clip import validation  # pylint: disable=import-outside-toplevel
  if gradient_clip_norm is not None:
    validation.positive(gradient_clip_norm, "gradient_clip_norm", allow_tensor=False)

  def make():
    from tensorflow_estimator.python.estimator.canned import optimizers  # pylint: disable=import-outside-toplevel
    instance = optimizers.get_optimizer_instance(optimizer, learning_rate=learning_rate)
    if gradient_clip_norm is None:
      return instance
    return optimizer_lib.clip_gradients_by_norm(instance, gradient_clip_norm)
  return make


def _sdca(optimizer):
  """tf.estimator's LinearSDCA for TF 1.15's contrib.linear_optimizer.SDCAOptimizer, else None.

  The same SDCA step (tensorflow-estimator's SDCA model is TF 1.15's code); TF 1.15's solver ran with
  max(l2, 1.0), the estimator's with l2 as given, so the l2 is passed as TF 1.15 used it. TF 1.15's estimators
  ignored gradient_clip_norm with SDCA; so do these.
  """
  if type(optimizer).__name__ != "SDCAOptimizer":
    return None
  import tf1clip.contrib.linear_optimizer.sdca_optimizer as sdca_optimizer  # pylint: disable=import-outside-toplevel
  if not isinstance(optimizer, sdca_optimizer.SDCAOptimizer):
    return None
  return _api().experimental.LinearSDCA(
      example_id_column=optimizer.example_id_column, num_loss_partitions=optimizer.num_loss_partitions,
      num_table_shards=optimizer.num_table_shards,
      symmetric_l1_regularization=optimizer.symmetric_l1_regularization,
      symmetric_l2_regularization=max(optimizer.symmetric_l2_regularization, 1.0), adaptive=optimizer.adaptive)


def _refuse(function, **options):
  for name, value in options.items():
    if value:
      raise ValueError("%s: %s=%r has no successor in tf.estimator's canned estimators; tf1clip "
                       "does not serve it (leave it at its default)" % (function, name, value))


def _columns(feature_columns, argument, function):
  if feature_columns is None:
    return None
  if isinstance(feature_columns, dict):
    feature_columns = list(feature_columns.values())
  columns = list(feature_columns)
  if not columns:
    raise ValueError("%s: %s is empty" % (function, argument))
  return columns


def _sparse_combiner(columns):
  from tf1clip.contrib.layers import feature_column  # pylint: disable=import-outside-toplevel
  combiners = {feature_column.combiner_of(c, None) for c in columns or []} - {None}
  if len(combiners) > 1:
    raise ValueError("the sparse columns of a linear model have different combiners %s; tf1clip's "
                     "linear models combine every sparse column one way (tf.estimator's "
                     "sparse_combiner)" % sorted(combiners))
  return combiners.pop() if combiners else "sum"


class _Canned(estimator_lib.BaseEstimator):
  """A contrib.learn estimator whose model is a tf.estimator canned estimator."""

  _classifier = False

  def __init__(self, model_dir, config, feature_engineering_fn, build, n_classes=None,
               label_dimension=1, label_keys=None):
    super(_Canned, self).__init__(model_dir=model_dir, config=config)
    self._build = build
    self._feature_engineering_fn = feature_engineering_fn
    self._n_classes = n_classes
    self._label_dimension = label_dimension
    self._label_keys = label_keys

  def _build_core_estimator(self):
    return self._build(self._model_dir, self._config)

  def _wrap_input_fn(self, input_fn, labels=True):
    feature_engineering_fn = self._feature_engineering_fn

    def wrapped():
      result = input_fn()
      if isinstance(result, (tuple, list)):
        features, label = result[0], (result[1] if len(result) > 1 else None)
      else:
        features, label = result, None
      if not isinstance(features, dict):
        features = {"": features}
      if feature_engineering_fn is not None:
        features, label = feature_engineering_fn(features, label)
      return (features, label) if labels else features
    return wrapped

  # -- TF 1.15's predictions and metric names ---------------------------------------------------------
  def _translate(self, batch, squeeze=np.squeeze):
    if self._classifier:
      out = {"classes": (batch["classes"][:, 0] if self._label_keys
                         else squeeze(batch["class_ids"], axis=1)),
             "probabilities": batch["probabilities"], "logits": batch["logits"]}
      if "logistic" in batch:
        out["logistic"] = batch["logistic"]
      return out
    scores = batch["predictions"]
    return {"scores": squeeze(scores, axis=1) if self._label_dimension == 1 else scores}

  def _predict_key(self, key, x, input_fn, batch_size, as_iterable):
    estimator_lib._verify_input_args(x, None, input_fn, None, batch_size)  # pylint: disable=protected-access
    if x is not None:
      input_fn = estimator_lib.array_input_fn(x, None, batch_size, shuffle=False, epochs=1)
    if as_iterable:
      return (p[key] for p in self._infer_model(input_fn, outputs=[key]))
    return self._infer_model(input_fn, outputs=[key], as_iterable=False)[key]

  def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None,
               metrics=None, name=None, checkpoint_path=None, hooks=None, log_progress=True):
    estimator_lib._verify_input_args(x, y, input_fn, feed_fn, batch_size)  # pylint: disable=protected-access
    if x is not None:
      input_fn = estimator_lib.array_input_fn(x, y, batch_size, shuffle=False, epochs=1)
    if metrics is not None and not isinstance(metrics, dict):
      raise ValueError("Metrics argument should be None or dict. Got %s." % metrics)
    self._require_checkpoint(checkpoint_path)
    input_fn, hooks = estimator_lib._with_feed_fn(input_fn, feed_fn, hooks)  # pylint: disable=protected-access
    core = self._core_estimator()
    if metrics:
      core = estimator_lib._estimator_api().add_metrics(core, self._metric_fn(metrics))  # pylint: disable=protected-access
    results = core.evaluate(input_fn=self._wrap_input_fn(input_fn), steps=steps, hooks=hooks,
                            checkpoint_path=checkpoint_path, name=name)
    return self._tf115_metric_names(results)

  def _metric_fn(self, metrics):
    import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel

    def metric_fn(labels, predictions, features):
      translated = self._translate(predictions, squeeze=lambda t, axis: tf.squeeze(t, axis=axis))
      return estimator_lib._make_metric_ops(metrics, features, labels, translated)  # pylint: disable=protected-access
    return metric_fn

  def _tf115_metric_names(self, results):
    results = dict(results)
    if "average_loss" in results:
      results["loss"] = results["average_loss"]
    if self._classifier and self._n_classes == 2:
      for old, new in (("accuracy/threshold_0.500000_mean", "accuracy"),
                       ("accuracy/baseline_label_mean", "label/mean"),
                       ("labels/actual_label_mean", "label/mean"),
                       ("labels/prediction_mean", "prediction/mean"),
                       ("precision/positive_threshold_0.500000_mean", "precision"),
                       ("recall/positive_threshold_0.500000_mean", "recall")):
        if new in results:
          results[old] = results[new]
    return results


class _Classifier(_Canned):
  _classifier = True

  def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
    """Class ids (or label_keys) of each example; with `outputs`, a dict of those predictions."""
    if not outputs:
      return self.predict_classes(x=x, input_fn=input_fn, batch_size=batch_size,
                                  as_iterable=as_iterable)
    return super(_Classifier, self).predict(x=x, input_fn=input_fn, batch_size=batch_size,
                                            outputs=outputs, as_iterable=as_iterable)

  def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
    return self._predict_key("classes", x, input_fn, batch_size, as_iterable)

  def predict_proba(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
    return self._predict_key("probabilities", x, input_fn, batch_size, as_iterable)


class _Regressor(_Canned):

  def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
    """The score of each example; with `outputs`, a dict of those predictions."""
    if not outputs:
      return self.predict_scores(x=x, input_fn=input_fn, batch_size=batch_size,
                                 as_iterable=as_iterable)
    return super(_Regressor, self).predict(x=x, input_fn=input_fn, batch_size=batch_size,
                                           outputs=outputs, as_iterable=as_iterable)

  def predict_scores(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
    return self._predict_key("scores", x, input_fn, batch_size, as_iterable)


def _mean_loss():
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  return tf.losses.Reduction.SUM_OVER_BATCH_SIZE


def _api():
  return estimator_lib._estimator_api()  # pylint: disable=protected-access


def _partitioner(min_slice_size):
  if min_slice_size is None:
    return None
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  return tf.min_max_variable_partitioner(max_partitions=1 << 30, min_slice_size=min_slice_size)


class DNNClassifier(_Classifier):
  """TF 1.15's `tf.contrib.learn.DNNClassifier` on `tf.compat.v1.estimator.DNNClassifier`."""

  def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2,
               weight_column_name=None, optimizer=None, activation_fn=_tf.nn.relu, dropout=None,
               gradient_clip_norm=None, enable_centered_bias=False, config=None,
               feature_engineering_fn=None, embedding_lr_multipliers=None,
               input_layer_min_slice_size=None, label_keys=None):
    import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
    _refuse("DNNClassifier", enable_centered_bias=enable_centered_bias,
            embedding_lr_multipliers=embedding_lr_multipliers)
    columns = _columns(feature_columns, "feature_columns", "DNNClassifier")
    opt = _optimizer(optimizer, "Adagrad", _DNN_LEARNING_RATE, gradient_clip_norm)
    activation_fn = tf.nn.relu if activation_fn is None else activation_fn

    def build(model_dir, config):
      return _api().DNNClassifier(
          hidden_units=hidden_units, feature_columns=columns, model_dir=model_dir,
          n_classes=n_classes, weight_column=weight_column_name,
          label_vocabulary=label_keys, optimizer=opt, activation_fn=activation_fn,
          dropout=dropout, input_layer_partitioner=_partitioner(input_layer_min_slice_size),
          config=config, loss_reduction=_mean_loss())
    super(DNNClassifier, self).__init__(model_dir, config, feature_engineering_fn, build,
                                        n_classes=n_classes, label_keys=label_keys)


class DNNRegressor(_Regressor):
  """TF 1.15's `tf.contrib.learn.DNNRegressor` on `tf.compat.v1.estimator.DNNRegressor`."""

  def __init__(self, hidden_units, feature_columns, model_dir=None, weight_column_name=None,
               optimizer=None, activation_fn=_tf.nn.relu, dropout=None, gradient_clip_norm=None,
               enable_centered_bias=False, config=None, feature_engineering_fn=None,
               label_dimension=1, embedding_lr_multipliers=None, input_layer_min_slice_size=None):
    import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
    _refuse("DNNRegressor", enable_centered_bias=enable_centered_bias,
            embedding_lr_multipliers=embedding_lr_multipliers)
    columns = _columns(feature_columns, "feature_columns", "DNNRegressor")
    opt = _optimizer(optimizer, "Adagrad", _DNN_LEARNING_RATE, gradient_clip_norm)
    activation_fn = tf.nn.relu if activation_fn is None else activation_fn

    def build(model_dir, config):
      return _api().DNNRegressor(
          hidden_units=hidden_units, feature_columns=columns, model_dir=model_dir,
          label_dimension=label_dimension, weight_column=weight_column_name, optimizer=opt,
          activation_fn=activation_fn, dropout=dropout,
          input_layer_partitioner=_partitioner(input_layer_min_slice_size), config=config,
          loss_reduction=_mean_loss())
    super(DNNRegressor, self).__init__(model_dir, config, feature_engineering_fn, build,
                                       label_dimension=label_dimension)


class LinearClassifier(_Classifier):
  """TF 1.15's `tf.contrib.learn.LinearClassifier` on `tf.compat.v1.estimator.LinearClassifier`."""

  def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column_name=None,
               optimizer=None, gradient_clip_norm=None, enable_centered_bias=False,
               _joint_weight=False, config=None, feature_engineering_fn=None, label_keys=None):
    sdca = _sdca(optimizer)
    if sdca is not None:  # TF 1.15's checks for SDCA
      if enable_centered_bias:
        raise ValueError("enable_centered_bias is not supported with SDCA")
      assert not _joint_weight, "_joint_weight is incompatible with the SDCAOptimizer"
      assert n_classes == 2, "SDCA only applies to binary classification."
    _refuse("LinearClassifier", enable_centered_bias=enable_centered_bias,
            _joint_weight=_joint_weight)
    columns = _columns(feature_columns, "feature_columns", "LinearClassifier")
    opt = sdca or _optimizer(optimizer, "Ftrl", _linear_learning_rate(len(columns)), gradient_clip_norm)

    def build(model_dir, config):
      return _api().LinearClassifier(
          feature_columns=columns, model_dir=model_dir, n_classes=n_classes,
          weight_column=weight_column_name, label_vocabulary=label_keys, optimizer=opt,
          config=config, loss_reduction=_mean_loss(), sparse_combiner=_sparse_combiner(columns),
          partitioner=optimizer.partitioner if sdca else None)
    super(LinearClassifier, self).__init__(model_dir, config, feature_engineering_fn, build,
                                           n_classes=n_classes, label_keys=label_keys)


class LinearRegressor(_Regressor):
  """TF 1.15's `tf.contrib.learn.LinearRegressor` on `tf.compat.v1.estimator.LinearRegressor`."""

  def __init__(self, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
               gradient_clip_norm=None, enable_centered_bias=False, label_dimension=1,
               _joint_weights=False, config=None, feature_engineering_fn=None):
    sdca = _sdca(optimizer)
    if sdca is not None:  # TF 1.15's checks for SDCA
      if enable_centered_bias:
        enable_centered_bias = False
        _tf.compat.v1.logging.warning("centered_bias is not supported with SDCA, please disable it explicitly.")
      assert label_dimension == 1, "SDCA only applies for label_dimension=1."
      assert not _joint_weights, "_joint_weights is incompatible with SDCAOptimizer."
    _refuse("LinearRegressor", enable_centered_bias=enable_centered_bias,
            _joint_weights=_joint_weights)
    columns = _columns(feature_columns, "feature_columns", "LinearRegressor")
    opt = sdca or _optimizer(optimizer, "Ftrl", _linear_learning_rate(len(columns)), gradient_clip_norm)

    def build(model_dir, config):
      return _api().LinearRegressor(
          feature_columns=columns, model_dir=model_dir, label_dimension=label_dimension,
          weight_column=weight_column_name, optimizer=opt, config=config,
          loss_reduction=_mean_loss(), sparse_combiner=_sparse_combiner(columns),
          partitioner=optimizer.partitioner if sdca else None)
    super(LinearRegressor, self).__init__(model_dir, config, feature_engineering_fn, build,
                                          label_dimension=label_dimension)


def _wide_and_deep(function, linear_feature_columns, linear_optimizer, dnn_feature_columns,
                   dnn_optimizer, dnn_activation_fn, gradient_clip_norm, input_layer_min_slice_size,
                   **refused):
  """The tf.estimator arguments both wide-and-deep estimators share, from TF 1.15's."""
  _refuse(function, **refused)
  linear_columns = _columns(linear_feature_columns, "linear_feature_columns", function)
  dnn_columns = _columns(dnn_feature_columns, "dnn_feature_columns", function)
  if not linear_columns and not dnn_columns:
    raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
  return dict(
      linear_feature_columns=linear_columns, dnn_feature_columns=dnn_columns,
      linear_optimizer=_optimizer(linear_optimizer, "Ftrl",
                                  _linear_learning_rate(len(linear_columns or [])),
                                  gradient_clip_norm),
      dnn_optimizer=_optimizer(dnn_optimizer, "Adagrad", _DNN_LEARNING_RATE, gradient_clip_norm),
      dnn_activation_fn=_tf.nn.relu if dnn_activation_fn is None else dnn_activation_fn,
      input_layer_partitioner=_partitioner(input_layer_min_slice_size),
      loss_reduction=_mean_loss(), linear_sparse_combiner=_sparse_combiner(linear_columns))


class DNNLinearCombinedClassifier(_Classifier):
  """TF 1.15's `tf.contrib.learn.DNNLinearCombinedClassifier` (wide and deep) on tf.estimator's."""

  def __init__(self, model_dir=None, n_classes=2, weight_column_name=None,
               linear_feature_columns=None, linear_optimizer=None, _joint_linear_weights=False,
               dnn_feature_columns=None, dnn_optimizer=None, dnn_hidden_units=None,
               dnn_activation_fn=_tf.nn.relu, dnn_dropout=None, gradient_clip_norm=None,
               enable_centered_bias=False, config=None, feature_engineering_fn=None,
               embedding_lr_multipliers=None, input_layer_min_slice_size=None, label_keys=None,
               fix_global_step_increment_bug=False):
    del fix_global_step_increment_bug  # tf.estimator's increments once per step
    shared = _wide_and_deep(
        "DNNLinearCombinedClassifier", linear_feature_columns, linear_optimizer,
        dnn_feature_columns, dnn_optimizer, dnn_activation_fn, gradient_clip_norm,
        input_layer_min_slice_size, enable_centered_bias=enable_centered_bias,
        _joint_linear_weights=_joint_linear_weights,
        embedding_lr_multipliers=embedding_lr_multipliers)

    def build(model_dir, config):
      return _api().DNNLinearCombinedClassifier(
          model_dir=model_dir, dnn_hidden_units=dnn_hidden_units, dnn_dropout=dnn_dropout,
          n_classes=n_classes, weight_column=weight_column_name, label_vocabulary=label_keys,
          config=config, **shared)
    super(DNNLinearCombinedClassifier, self).__init__(
        model_dir, config, feature_engineering_fn, build, n_classes=n_classes,
        label_keys=label_keys)


class DNNLinearCombinedRegressor(_Regressor):
  """TF 1.15's `tf.contrib.learn.DNNLinearCombinedRegressor` (wide and deep) on tf.estimator's."""

  def __init__(self, model_dir=None, weight_column_name=None, linear_feature_columns=None,
               linear_optimizer=None, _joint_linear_weights=False, dnn_feature_columns=None,
               dnn_optimizer=None, dnn_hidden_units=None, dnn_activation_fn=_tf.nn.relu,
               dnn_dropout=None, gradient_clip_norm=None, enable_centered_bias=False,
               label_dimension=1, config=None, feature_engineering_fn=None,
               embedding_lr_multipliers=None, input_layer_min_slice_size=None,
               fix_global_step_increment_bug=False):
    del fix_global_step_increment_bug
    shared = _wide_and_deep(
        "DNNLinearCombinedRegressor", linear_feature_columns, linear_optimizer,
        dnn_feature_columns, dnn_optimizer, dnn_activation_fn, gradient_clip_norm,
        input_layer_min_slice_size, enable_centered_bias=enable_centered_bias,
        _joint_linear_weights=_joint_linear_weights,
        embedding_lr_multipliers=embedding_lr_multipliers)

    def build(model_dir, config):
      return _api().DNNLinearCombinedRegressor(
          model_dir=model_dir, dnn_hidden_units=dnn_hidden_units, dnn_dropout=dnn_dropout,
          label_dimension=label_dimension, weight_column=weight_column_name, config=config,
          **shared)
    super(DNNLinearCombinedRegressor, self).__init__(
        model_dir, config, feature_engineering_fn, build, label_dimension=label_dimension)
