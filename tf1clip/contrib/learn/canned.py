"""contrib.learn's canned estimators (`DNNClassifier`, `LinearRegressor`, ...): TF 1.15's, on its model functions.

Place in the data flow (DESIGN.md): contrib.learn.estimator (Estimator), contrib.learn.head (multi_class_head,
regression_head), contrib.learn.head_estimators (the model functions), contrib.learn.svm (sdca_model_fn) <-
**contrib.learn.canned** <- contrib.learn <- compat <- cli.

As TF 1.15 built them: each class is a contrib.learn `Estimator` whose model_fn is TF 1.15's `dnn._dnn_model_fn`,
`linear._linear_model_fn` (or `sdca_model_fn` for `optimizer=SDCAOptimizer`) or
`dnn_linear_combined._dnn_linear_combined_model_fn` (ported in head_estimators), with the head TF 1.15 gave it
(`multi_class_head(n_classes, weight_column_name, enable_centered_bias, label_keys)` or
`regression_head(weight_column_name, label_dimension, enable_centered_bias)`). So the variables are TF 1.15's,
with its names (`dnn/hiddenlayer_0/weights`, `dnn/logits/biases`, `dnn/input_from_feature_columns/<column>/weights`,
`linear/<column>/weight(s)`, `linear/bias_weight`, `dnn/<head>/dnn/learning_rate`, the optimizers' slots of
one-part partitioned variables) and a TF 1.15 model_dir restores and trains on; the default optimizers and
learning rates (Adagrad 0.05, Ftrl at min(0.2, 1/sqrt(#columns))), the loss, predictions (`predict` of a
classifier: class ids, `predict_proba`: probabilities; of a regressor: scores), evaluate's metric keys and
wide-and-deep's global step increment (`fix_global_step_increment_bug=False` counts a step per optimizer) are
TF 1.15's. Columns from tf.contrib.layers take TF 1.15's contrib path; tf.feature_column columns its
`input_layer` / `linear_model` path, as TF 1.15 did.
"""

import tensorflow as _tf

from tf1clip.contrib.learn import estimator as estimator_lib
from tf1clip.contrib.learn import head as head_lib
from tf1clip.contrib.learn import head_estimators
from tf1clip.contrib.learn import prediction_key

V1 = _tf.compat.v1
_KEYS = prediction_key.PredictionKey
_DNN_MODEL_FN = head_estimators._dnn_model_fn  # pylint: disable=protected-access
_WIDE_AND_DEEP_MODEL_FN = head_estimators._dnn_linear_combined_model_fn  # pylint: disable=protected-access


def _as_iterable(preds, output):
  for pred in preds:
    yield pred[output]


def _is_sdca(optimizer):
  if type(optimizer).__name__ != "SDCAOptimizer":
    return False
  from tf1clip.contrib.linear_optimizer.python import sdca_optimizer  # pylint: disable=import-outside-toplevel
  return isinstance(optimizer, sdca_optimizer.SDCAOptimizer)


def _linear_params(feature_columns, head, optimizer, weight_column_name, gradient_clip_norm, joint_weights):
  """TF 1.15's (model_fn, params) of a linear model: sdca_model_fn for an SDCAOptimizer, else _linear_model_fn."""
  from tf1clip.contrib.learn import svm  # pylint: disable=import-outside-toplevel
  params = {"head": head, "feature_columns": feature_columns, "optimizer": optimizer}
  if _is_sdca(optimizer):
    params.update({"weight_column_name": weight_column_name,
                   "update_weights_hook": svm._SdcaUpdateWeightsHook()})  # pylint: disable=protected-access
    return svm.sdca_model_fn, params
  params.update({"gradient_clip_norm": gradient_clip_norm, "joint_weights": joint_weights})
  return head_estimators._linear_model_fn, params  # pylint: disable=protected-access


class _Classifier(estimator_lib.Estimator):
  """TF 1.15's predict / predict_classes / predict_proba of its canned classifiers."""

  def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
    """Class ids (or label_keys) of each example; with `outputs`, a dict of those predictions."""
    if not outputs:
      return self.predict_classes(x=x, input_fn=input_fn, batch_size=batch_size, as_iterable=as_iterable)
    return super(_Classifier, self).predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=outputs,
                                            as_iterable=as_iterable)

  def _predict_key(self, key, x, input_fn, batch_size, as_iterable):
    preds = super(_Classifier, self).predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=[key],
                                             as_iterable=as_iterable)
    if as_iterable:
      return _as_iterable(preds, output=key)
    return preds[key]

  def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
    return self._predict_key(_KEYS.CLASSES, x, input_fn, batch_size, as_iterable)

  def predict_proba(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
    return self._predict_key(_KEYS.PROBABILITIES, x, input_fn, batch_size, as_iterable)


class _Regressor(estimator_lib.Estimator):
  """TF 1.15's predict / predict_scores of its canned regressors."""

  def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
    """The score of each example; with `outputs`, a dict of those predictions."""
    if not outputs:
      return self.predict_scores(x=x, input_fn=input_fn, batch_size=batch_size, as_iterable=as_iterable)
    return super(_Regressor, self).predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=outputs,
                                           as_iterable=as_iterable)

  def predict_scores(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
    key = _KEYS.SCORES
    preds = super(_Regressor, self).predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=[key],
                                            as_iterable=as_iterable)
    if as_iterable:
      return _as_iterable(preds, output=key)
    return preds[key]


class _ScoresMetrics(object):
  """TF 1.15's DNNRegressor / DNNLinearCombinedRegressor.evaluate: a bare metric function is on the scores."""

  def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None, metrics=None,
               name=None, checkpoint_path=None, hooks=None, log_progress=True):
    custom_metrics = {}
    if metrics:
      for key, metric in metrics.items():
        if not isinstance(metric, estimator_lib.MetricSpec) and not isinstance(key, tuple):
          custom_metrics[(key, _KEYS.SCORES)] = metric
        else:
          custom_metrics[key] = metric
    return super(_ScoresMetrics, self).evaluate(  # pylint: disable=no-member
        x=x, y=y, input_fn=input_fn, feed_fn=feed_fn, batch_size=batch_size, steps=steps,
        metrics=custom_metrics, name=name, checkpoint_path=checkpoint_path, hooks=hooks,
        log_progress=log_progress)


class DNNClassifier(_Classifier):
  """TF 1.15's `tf.contrib.learn.DNNClassifier`: `_dnn_model_fn` with a `multi_class_head`."""

  def __init__(self, hidden_units, feature_columns, model_dir=None, n_classes=2, weight_column_name=None,
               optimizer=None, activation_fn=_tf.nn.relu, dropout=None, gradient_clip_norm=None,
               enable_centered_bias=False, config=None, feature_engineering_fn=None,
               embedding_lr_multipliers=None, input_layer_min_slice_size=None, label_keys=None):
    self._feature_columns = tuple(feature_columns or [])
    super(DNNClassifier, self).__init__(
        model_fn=_DNN_MODEL_FN, model_dir=model_dir, config=config,
        params={"head": head_lib.multi_class_head(n_classes, weight_column_name=weight_column_name,
                                                  enable_centered_bias=enable_centered_bias, label_keys=label_keys),
                "hidden_units": hidden_units, "feature_columns": self._feature_columns, "optimizer": optimizer,
                "activation_fn": activation_fn, "dropout": dropout, "gradient_clip_norm": gradient_clip_norm,
                "embedding_lr_multipliers": embedding_lr_multipliers,
                "input_layer_min_slice_size": input_layer_min_slice_size},
        feature_engineering_fn=feature_engineering_fn)


class DNNRegressor(_ScoresMetrics, _Regressor):
  """TF 1.15's `tf.contrib.learn.DNNRegressor`: `_dnn_model_fn` with a `regression_head`."""

  def __init__(self, hidden_units, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
               activation_fn=_tf.nn.relu, dropout=None, gradient_clip_norm=None, enable_centered_bias=False,
               config=None, feature_engineering_fn=None, label_dimension=1, embedding_lr_multipliers=None,
               input_layer_min_slice_size=None):
    self._feature_columns = tuple(feature_columns or [])
    super(DNNRegressor, self).__init__(
        model_fn=_DNN_MODEL_FN, model_dir=model_dir, config=config,
        params={"head": head_lib.regression_head(label_dimension=label_dimension,
                                                 weight_column_name=weight_column_name,
                                                 enable_centered_bias=enable_centered_bias),
                "hidden_units": hidden_units, "feature_columns": self._feature_columns, "optimizer": optimizer,
                "activation_fn": activation_fn, "dropout": dropout, "gradient_clip_norm": gradient_clip_norm,
                "embedding_lr_multipliers": embedding_lr_multipliers,
                "input_layer_min_slice_size": input_layer_min_slice_size},
        feature_engineering_fn=feature_engineering_fn)


class LinearClassifier(_Classifier):
  """TF 1.15's `tf.contrib.learn.LinearClassifier`: `_linear_model_fn` (or `sdca_model_fn`), a `multi_class_head`."""

  def __init__(self, feature_columns, model_dir=None, n_classes=2, weight_column_name=None, optimizer=None,
               gradient_clip_norm=None, enable_centered_bias=False, _joint_weight=False, config=None,
               feature_engineering_fn=None, label_keys=None):
    if _is_sdca(optimizer) and enable_centered_bias:
      raise ValueError("enable_centered_bias is not supported with SDCA")
    self._feature_columns = tuple(feature_columns or [])
    assert self._feature_columns
    head = head_lib.multi_class_head(n_classes, weight_column_name=weight_column_name,
                                     enable_centered_bias=enable_centered_bias, label_keys=label_keys)
    if _is_sdca(optimizer):
      assert not _joint_weight, "_joint_weight is incompatible with the SDCAOptimizer"
      assert n_classes == 2, "SDCA only applies to binary classification."
    model_fn, params = _linear_params(feature_columns, head, optimizer, weight_column_name, gradient_clip_norm,
                                      _joint_weight)
    super(LinearClassifier, self).__init__(model_fn=model_fn, model_dir=model_dir, config=config, params=params,
                                           feature_engineering_fn=feature_engineering_fn)


class LinearRegressor(_Regressor):
  """TF 1.15's `tf.contrib.learn.LinearRegressor`: `_linear_model_fn` (or `sdca_model_fn`), a `regression_head`."""

  def __init__(self, feature_columns, model_dir=None, weight_column_name=None, optimizer=None,
               gradient_clip_norm=None, enable_centered_bias=False, label_dimension=1, _joint_weights=False,
               config=None, feature_engineering_fn=None):
    self._feature_columns = tuple(feature_columns or [])
    assert self._feature_columns
    if _is_sdca(optimizer) and enable_centered_bias:
      enable_centered_bias = False
      V1.logging.warning("centered_bias is not supported with SDCA, please disable it explicitly.")
    head = head_lib.regression_head(weight_column_name=weight_column_name, label_dimension=label_dimension,
                                    enable_centered_bias=enable_centered_bias)
    if _is_sdca(optimizer):
      assert label_dimension == 1, "SDCA only applies for label_dimension=1."
      assert not _joint_weights, "_joint_weights is incompatible with SDCAOptimizer."
    model_fn, params = _linear_params(feature_columns, head, optimizer, weight_column_name, gradient_clip_norm,
                                      _joint_weights)
    super(LinearRegressor, self).__init__(model_fn=model_fn, model_dir=model_dir, config=config, params=params,
                                          feature_engineering_fn=feature_engineering_fn)


def _wide_and_deep_params(head, linear_feature_columns, linear_optimizer, joint_linear_weights,
                          dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn, dnn_dropout,
                          gradient_clip_norm, config, embedding_lr_multipliers, input_layer_min_slice_size,
                          fix_global_step_increment_bug):
  """TF 1.15's params of `_dnn_linear_combined_model_fn` (its input_layer_partitioner from the min slice size)."""
  input_layer_partitioner = None
  if input_layer_min_slice_size is not None:
    input_layer_partitioner = V1.min_max_variable_partitioner(
        max_partitions=config.num_ps_replicas if config else 0, min_slice_size=input_layer_min_slice_size)
  return {"head": head, "linear_feature_columns": linear_feature_columns, "linear_optimizer": linear_optimizer,
          "joint_linear_weights": joint_linear_weights, "dnn_feature_columns": dnn_feature_columns,
          "dnn_optimizer": dnn_optimizer, "dnn_hidden_units": dnn_hidden_units,
          "dnn_activation_fn": dnn_activation_fn, "dnn_dropout": dnn_dropout,
          "gradient_clip_norm": gradient_clip_norm, "embedding_lr_multipliers": embedding_lr_multipliers,
          "input_layer_partitioner": input_layer_partitioner,
          "fix_global_step_increment_bug": fix_global_step_increment_bug}


class DNNLinearCombinedClassifier(_Classifier):
  """TF 1.15's `tf.contrib.learn.DNNLinearCombinedClassifier` (wide and deep) with a `multi_class_head`."""

  def __init__(self, model_dir=None, n_classes=2, weight_column_name=None, linear_feature_columns=None,
               linear_optimizer=None, _joint_linear_weights=False, dnn_feature_columns=None, dnn_optimizer=None,
               dnn_hidden_units=None, dnn_activation_fn=_tf.nn.relu, dnn_dropout=None, gradient_clip_norm=None,
               enable_centered_bias=False, config=None, feature_engineering_fn=None, embedding_lr_multipliers=None,
               input_layer_min_slice_size=None, label_keys=None, fix_global_step_increment_bug=False):
    head = head_lib.multi_class_head(n_classes=n_classes, weight_column_name=weight_column_name,
                                     enable_centered_bias=enable_centered_bias, label_keys=label_keys)
    linear_feature_columns = tuple(linear_feature_columns or [])
    dnn_feature_columns = tuple(dnn_feature_columns or [])
    self._feature_columns = linear_feature_columns + dnn_feature_columns
    if not self._feature_columns:
      raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    super(DNNLinearCombinedClassifier, self).__init__(
        model_fn=_WIDE_AND_DEEP_MODEL_FN, model_dir=model_dir, config=config,
        params=_wide_and_deep_params(head, linear_feature_columns, linear_optimizer, _joint_linear_weights,
                                     dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
                                     dnn_dropout, gradient_clip_norm, config, embedding_lr_multipliers,
                                     input_layer_min_slice_size, fix_global_step_increment_bug),
        feature_engineering_fn=feature_engineering_fn)


class DNNLinearCombinedRegressor(_ScoresMetrics, _Regressor):
  """TF 1.15's `tf.contrib.learn.DNNLinearCombinedRegressor` (wide and deep) with a `regression_head`."""

  def __init__(self, model_dir=None, weight_column_name=None, linear_feature_columns=None, linear_optimizer=None,
               _joint_linear_weights=False, dnn_feature_columns=None, dnn_optimizer=None, dnn_hidden_units=None,
               dnn_activation_fn=_tf.nn.relu, dnn_dropout=None, gradient_clip_norm=None, enable_centered_bias=False,
               label_dimension=1, config=None, feature_engineering_fn=None, embedding_lr_multipliers=None,
               input_layer_min_slice_size=None, fix_global_step_increment_bug=False):
    head = head_lib.regression_head(weight_column_name=weight_column_name, label_dimension=label_dimension,
                                    enable_centered_bias=enable_centered_bias)
    linear_feature_columns = tuple(linear_feature_columns or [])
    dnn_feature_columns = tuple(dnn_feature_columns or [])
    self._feature_columns = linear_feature_columns + dnn_feature_columns
    if not self._feature_columns:
      raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    super(DNNLinearCombinedRegressor, self).__init__(
        model_fn=_WIDE_AND_DEEP_MODEL_FN, model_dir=model_dir, config=config,
        params=_wide_and_deep_params(head, linear_feature_columns, linear_optimizer, _joint_linear_weights,
                                     dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
                                     dnn_dropout, gradient_clip_norm, config, embedding_lr_multipliers,
                                     input_layer_min_slice_size, fix_global_step_increment_bug),
        feature_engineering_fn=feature_engineering_fn)
