"""`tf.contrib.tensor_forest.random_forest` (client): the random forest as an Estimator, its model_fns and hooks.

`get_model_fn` makes the model_fn both kinds of estimator run: it builds a forest's inference graph (the mean of the
trees' class probabilities or regression values, their variance and, optionally, the tree paths), hands it to a head
as logits (a binary classifier's as the log-odds of class 1) and makes the training op the forest's training graph
plus one step of the global step: no optimizer, no gradient. `ModelBuilderOutputType` says which the model_fn returns:
contrib.learn's ModelFnOps (contrib.learn's heads, for `TensorForestEstimator` and `MultiForestMultiHeadEstimator`,
whose `get_combined_model_fn` trains one forest per label column) or a tf.estimator EstimatorSpec (contrib.estimator's
heads, for `CoreTensorForestEstimator`). Every model_fn adds `TensorForestRunOpAtEndHook` (logs the feature
importances if asked, then frees the forest's resources) and, unless `early_stopping_rounds` is falsy,
`TensorForestLossHook` (stops training once the loss has not fallen by the threshold for that many steps).

Difference from TF 1.15: exporting a SavedModel raises NotImplementedError; the kernels here are tf.numpy_function ops,
which a SavedModel cannot take to another process.
"""

import tensorflow as tf
from tensorflow.python.feature_column import feature_column as fc_core  # pylint: disable=g-direct-tensorflow-import
from tensorflow_estimator.python.estimator import estimator as core_estimator
from tensorflow_estimator.python.estimator.export.export_output import PredictOutput

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.estimator.python.estimator.head as core_head_lib
from tf1clip.contrib.learn import constants
from tf1clip.contrib.learn import estimator
from tf1clip.contrib.learn import head as head_lib
from tf1clip.contrib.learn import estimator as model_fn_lib
from tf1clip.contrib.tensor_forest import eval_metrics
from tf1clip.contrib.tensor_forest import kernels
from tf1clip.contrib.tensor_forest import tensor_forest

V1 = tf.compat.v1
session_run_hook = V1.train
logging = V1.logging


class _Layers(object):
  """contrib.layers' transform_features, looked up when a model has feature columns (contrib.layers imports this
  package's neighbours, so not at import time)."""

  @staticmethod
  def transform_features(features, feature_columns):
    return _catalog.resolve("tf1clip.contrib.layers:transform_features")(features, feature_columns)


layers = _Layers

# prediction keys the model_fn adds, the serving key of all of them, the loss op's name the loss hook looks up
TREE_PATHS_PREDICTION_KEY, VARIANCE_PREDICTION_KEY = 'tree_paths', 'prediction_variance'
ALL_SERVING_KEY, KEYS_NAME, LOSS_NAME = 'tensorforest_all', 'keys', 'rf_training_loss'
EPSILON = 1e-6  # the least probability the binary log-odds use

_TRAIN, _EVAL, _INFER = model_fn_lib.ModeKeys.TRAIN, model_fn_lib.ModeKeys.EVAL, model_fn_lib.ModeKeys.INFER
_MEAN_LOSS = V1.losses.Reduction.SUM_OVER_BATCH_SIZE

_NO_EXPORT = (
    "tf1clip does not export tensor_forest estimators: TF 1.15's tensor_forest kernels are gone from TensorFlow, and "
    "tf1clip's port runs them as tf.numpy_function ops, which a SavedModel cannot take to another process (loading "
    "it fails with 'Could not find callback'). Predict in this process (estimator.predict), or train a model that "
    "exports with a maintained library (YDF: ydf.RandomForestLearner, model.to_tensorflow_saved_model)")


def _refuse_export(*args, **kwargs):
  """export_savedmodel / export_saved_model: refused, see _NO_EXPORT (TF 1.15 exported)."""
  del args, kwargs
  raise NotImplementedError(_NO_EXPORT)


class ModelBuilderOutputType(object):
  """What get_model_fn's model_fn returns: contrib.learn's ModelFnOps or a tf.estimator EstimatorSpec."""
  MODEL_FN_OPS = 0
  ESTIMATOR_SPEC = 1


class TensorForestRunOpAtEndHook(session_run_hook.SessionRunHook):
  """Runs the ops of `op_dict` ({name: op}) when the session ends, in the order of their names, logging each value
  as `name: value`."""

  def __init__(self, op_dict):
    self._ops = op_dict

  def end(self, session):
    for name in sorted(self._ops):
      logging.info('%s: %s' % (name, session.run(self._ops[name])))


class TensorForestLossHook(session_run_hook.SessionRunHook):
  """Requests a stop once the loss (`loss_op`, default the graph's `rf_training_loss`) has gone more than
  `early_stopping_rounds` steps without falling below the best so far by the fraction
  `early_stopping_loss_threshold`. A global step that goes back (a restart) starts the count again."""

  def __init__(self, early_stopping_rounds, early_stopping_loss_threshold=None, loss_op=None):
    self.early_stopping_rounds = early_stopping_rounds
    self.early_stopping_loss_threshold = early_stopping_loss_threshold
    self.loss_op = loss_op
    self.min_loss, self.last_step = None, -1  # the best loss so far; -1: no step seen
    self.steps = 0  # steps since the loss last improved

  def before_run(self, run_context):
    loss = self.loss_op
    if loss is None:
      loss = run_context.session.graph.get_operation_by_name(LOSS_NAME).outputs[0]
    return V1.train.SessionRunArgs({'global_step': V1.train.get_global_step(), 'current_loss': loss})

  def after_run(self, run_context, run_values):
    loss, step = run_values.results['current_loss'], run_values.results['global_step']
    self.steps += 1
    restarted = self.last_step == -1 or step < self.last_step
    self.last_step = step
    if restarted:
      logging.info('TensorForestLossHook resetting last_step.')
      self.steps, self.min_loss = 0, None
      return
    if self.min_loss is None or loss < self.min_loss - self.min_loss * self.early_stopping_loss_threshold:
      self.min_loss, self.steps = loss, 0
    if self.steps > self.early_stopping_rounds:
      logging.info('TensorForestLossHook requesting stop.')
      run_context.request_stop()


def _default_head(params, weights_name, output_type, name=None):
  """The head a forest gets when none is given: regression, binary or multi-class, of the output type's library."""
  if output_type == ModelBuilderOutputType.MODEL_FN_OPS:
    if params.regression:
      return head_lib.regression_head(weight_column_name=weights_name, label_dimension=params.num_outputs,
                                      enable_centered_bias=False, head_name=name)
    return head_lib.multi_class_head(params.num_classes, weight_column_name=weights_name,
                                     enable_centered_bias=False, head_name=name)
  if params.regression:
    return core_head_lib.regression_head(weight_column=weights_name, label_dimension=params.num_outputs, name=name,
                                         loss_reduction=_MEAN_LOSS)
  if params.num_classes == 2:
    return core_head_lib.binary_classification_head(weight_column=weights_name, name=name,
                                                    loss_reduction=_MEAN_LOSS)
  return core_head_lib.multi_class_head(n_classes=params.num_classes, weight_column=weights_name, name=name,
                                        loss_reduction=_MEAN_LOSS)


def _transformed(features, feature_columns, output_type):
  """`features` as a dict (a lone tensor is "features"), plus the feature columns' dense tensors if there are any."""
  if isinstance(features, (tf.Tensor, tf.SparseTensor)):
    features = {'features': features}
  if not feature_columns:
    return features
  features = dict(features)
  if output_type == ModelBuilderOutputType.MODEL_FN_OPS:
    features.update(layers.transform_features(features, feature_columns))
  else:
    for column in feature_columns:
      # pylint: disable=protected-access
      features[column.name] = fc_core._transform_features(features, [column])[column]
  return features


def _binary_log_odds(probabilities):
  """log(p1 / (1 - p1)) of class 1's probability, both terms kept >= EPSILON (a leaf can give 0 or 1)."""
  class_1 = tf.slice(probabilities, [0, 1], [-1, 1])
  return V1.log(tf.maximum(class_1 / tf.maximum(1.0 - class_1, EPSILON), EPSILON))


def _end_of_session_ops(forest, report_feature_importances):
  # run in the order of the names: the importances ("1: ...") before the resources are freed ("9: ...")
  ops = {'9: clean up resources': tf.group(*[kernels.destroy_resource_op(handle)
                                              for handle in forest.get_all_resource_handles()])}
  if report_feature_importances:
    ops['1: feature_importances'] = forest.feature_importances()
  return ops


def _loss_hooks(early_stopping_rounds, early_stopping_loss_threshold, loss):
  if not early_stopping_rounds:
    return []
  return [TensorForestLossHook(early_stopping_rounds, early_stopping_loss_threshold=early_stopping_loss_threshold,
                               loss_op=loss)]


def get_model_fn(params, graph_builder_class, device_assigner, feature_columns=None, weights_name=None,
                 model_head=None, keys_name=None, early_stopping_rounds=100, early_stopping_loss_threshold=0.001,
                 num_trainers=1, trainer_id=0, report_feature_importances=False, local_eval=False, head_scope=None,
                 include_all_in_serving=False, output_type=ModelBuilderOutputType.MODEL_FN_OPS):
  """A model_fn(features, labels, mode) for a forest of filled `params` built by `graph_builder_class`.

  The `weights_name` and `keys_name` features are taken out of the forest's input (the weights weigh the training
  examples and the loss, the keys are passed through to the predictions); `device_assigner` places the trees, except
  when predicting and, with `local_eval`, when evaluating. `model_head` (default: from params and `output_type`)
  computes the loss, metrics and predictions, to which the model_fn adds the variance and, with
  params.inference_tree_paths, the tree paths. `include_all_in_serving` serves the whole prediction dict under
  ALL_SERVING_KEY. `num_trainers` / `trainer_id`: which trees this worker trains.
  """
  head = _default_head(params, weights_name, output_type) if model_head is None else model_head
  as_model_fn_ops = output_type == ModelBuilderOutputType.MODEL_FN_OPS

  def _model_fn(features, labels, mode):
    """The forest's ModelFnOps or EstimatorSpec for one mode."""
    features = _transformed(features, feature_columns, output_type)
    weights = features.pop(weights_name) if weights_name and weights_name in features else None
    keys = features.pop(keys_name) if keys_name and keys_name in features else None
    placed = mode != _INFER and not (local_eval and mode == _EVAL)
    forest = graph_builder_class(params, device_assigner=device_assigner if placed else None)
    logits, tree_paths, variance = forest.inference_graph(features)
    V1.summary.scalar('average_tree_size', forest.average_size())
    if not params.regression and params.num_classes == 2:
      logits = _binary_log_odds(logits)
    train_op = None
    if labels is not None and mode == _TRAIN:
      with tf.control_dependencies([logits.op]):
        grow = forest.training_graph(features, labels, input_weights=weights, num_trainers=num_trainers,
                                     trainer_id=trainer_id)
        train_op = tf.group(grow, V1.assign_add(V1.train.get_global_step(), 1))
    if weights is not None:  # the head weighs the loss with them
      features[weights_name] = weights
    hooks = [TensorForestRunOpAtEndHook(_end_of_session_ops(forest, report_feature_importances))]
    extra_predictions = {}
    if keys is not None:
      extra_predictions[keys_name] = keys
    if params.inference_tree_paths:
      extra_predictions[TREE_PATHS_PREDICTION_KEY] = tree_paths
    extra_predictions[VARIANCE_PREDICTION_KEY] = variance
    head_args = dict(features=features, labels=labels, mode=mode, train_op_fn=lambda unused_loss: train_op,
                     logits=logits)
    if as_model_fn_ops:
      ops = head.create_model_fn_ops(scope=head_scope, **head_args)
      ops.training_hooks.extend(hooks + _loss_hooks(early_stopping_rounds, early_stopping_loss_threshold, ops.loss))
      ops.predictions.update(extra_predictions)
      if include_all_in_serving:
        ops.output_alternatives = ops.output_alternatives or {}
        ops.output_alternatives[ALL_SERVING_KEY] = (constants.ProblemType.UNSPECIFIED, ops.predictions)
      return ops
    spec = head.create_estimator_spec(**head_args)
    hooks += _loss_hooks(early_stopping_rounds, early_stopping_loss_threshold, spec.loss)
    spec = spec._replace(training_hooks=hooks + list(spec.training_hooks))
    spec.predictions.update(extra_predictions)
    if include_all_in_serving:
      print(spec.export_outputs)  # TF 1.15 printed the outputs it replaced
      spec = spec._replace(export_outputs={ALL_SERVING_KEY: PredictOutput(spec.predictions)})
    return spec

  return _model_fn


def _trainer_count(num_trainers, config):
  """An estimator's number of trainers: a config's worker count replaces the default 1."""
  if num_trainers == 1 and config is not None:
    return max(1, config.num_worker_replicas)
  return num_trainers


class TensorForestEstimator(estimator.Estimator):
  """A contrib.learn Estimator (fit / evaluate / predict) of a random forest.

  Args: `params` (ForestHParams, filled here), `device_assigner` (places the trees), `model_dir`, `feature_columns`,
  `graph_builder_class` (default RandomForestGraphs), `config` (its worker count sets the number of trainers when
  `num_trainers` is 1), `weight_column` and `keys_column` (feature names: example weights, and keys passed through
  to the predictions), `feature_engineering_fn`, `early_stopping_rounds` (falsy: no TensorForestLossHook) and
  `early_stopping_loss_threshold`, `num_trainers` / `trainer_id`, `report_feature_importances` (logged when a
  session ends), `local_eval` (evaluate without the device assigner), `version` (unused), `head` (default: from
  params) and `include_all_in_serving` (see get_model_fn).

  Example: `TensorForestEstimator(ForestHParams(num_classes=2, num_features=40).fill()).fit(x=x, y=y, steps=10)`;
  predict() yields dicts with "probabilities", "classes" and "prediction_variance".
  """

  def __init__(self, params, device_assigner=None, model_dir=None, feature_columns=None,
               graph_builder_class=tensor_forest.RandomForestGraphs, config=None, weight_column=None,
               keys_column=None, feature_engineering_fn=None, early_stopping_rounds=100,
               early_stopping_loss_threshold=0.001, num_trainers=1, trainer_id=0, report_feature_importances=False,
               local_eval=False, version=None, head=None, include_all_in_serving=False):
    del version
    model_fn = get_model_fn(
        params.fill(), graph_builder_class, device_assigner, num_trainers=_trainer_count(num_trainers, config),
        feature_columns=feature_columns, model_head=head, weights_name=weight_column, keys_name=keys_column,
        early_stopping_rounds=early_stopping_rounds, early_stopping_loss_threshold=early_stopping_loss_threshold,
        trainer_id=trainer_id, report_feature_importances=report_feature_importances, local_eval=local_eval,
        include_all_in_serving=include_all_in_serving)
    super(TensorForestEstimator, self).__init__(model_fn=model_fn, model_dir=model_dir, config=config,
                                                feature_engineering_fn=feature_engineering_fn)

  export_savedmodel = export_saved_model = _refuse_export


def get_combined_model_fn(model_fns):
  """One ModelFnOps-returning model_fn over several: `model_fns[i]` gets label column i (labels [batch, outputs]),
  under variable scope `label_<i>`. The losses are averaged, the training ops grouped, the hooks joined; the
  probabilities are concatenated along axis 1 and the classes stacked (classes[example][output])."""

  def _model_fn(features, labels, mode):
    """Each forest's model_fn on its label column, then the combination."""
    parts = []
    for i, model_fn in enumerate(model_fns):
      with V1.variable_scope('label_%d' % i):
        parts.append(model_fn(features, tf.slice(labels, [0, i], [-1, 1]), mode))
    predictions, loss, train_op = {}, None, None
    if mode in (_EVAL, _INFER):
      probabilities, classes = eval_metrics.INFERENCE_PROB_NAME, eval_metrics.INFERENCE_PRED_NAME
      predictions[probabilities] = tf.concat([p.predictions[probabilities] for p in parts], axis=1)
      predictions[classes] = tf.stack([p.predictions[classes] for p in parts], axis=1)
    if mode in (_EVAL, _TRAIN):
      loss = tf.reduce_sum(tf.stack([p.loss for p in parts])) / len(parts)
    if mode == _TRAIN:
      train_op = tf.group(*[p.train_op for p in parts])
    return model_fn_lib.ModelFnOps(mode=mode, predictions=predictions, loss=loss, train_op=train_op,
                                   training_hooks=[hook for p in parts for hook in p.training_hooks],
                                   scaffold=None, output_alternatives=None)

  return _model_fn


class MultiForestMultiHeadEstimator(estimator.Estimator):
  """A contrib.learn Estimator of one forest per output: `params_list[i]` (ForestHParams) is the forest of label
  column i, with its own head `head<i>` (scope `output<i>`). The other arguments are TensorForestEstimator's;
  `feature_columns` is accepted and, as in TF 1.15, not used."""

  def __init__(self, params_list, device_assigner=None, model_dir=None, feature_columns=None,
               graph_builder_class=tensor_forest.RandomForestGraphs, config=None, weight_column=None,
               keys_column=None, feature_engineering_fn=None, early_stopping_rounds=100, num_trainers=1, trainer_id=0,
               report_feature_importances=False, local_eval=False):
    del feature_columns
    model_fns = []
    num_trainers = _trainer_count(num_trainers, config)
    for i, params in enumerate(params_list):
      params = params.fill()
      model_fns.append(get_model_fn(
          params, graph_builder_class, device_assigner, num_trainers=num_trainers,
          model_head=_default_head(params, weight_column, ModelBuilderOutputType.MODEL_FN_OPS, name='head%d' % i),
          weights_name=weight_column, keys_name=keys_column, early_stopping_rounds=early_stopping_rounds,
          trainer_id=trainer_id, report_feature_importances=report_feature_importances, local_eval=local_eval,
          head_scope='output%d' % i))
    super(MultiForestMultiHeadEstimator, self).__init__(model_fn=get_combined_model_fn(model_fns),
                                                        model_dir=model_dir, config=config,
                                                        feature_engineering_fn=feature_engineering_fn)

  export_savedmodel = export_saved_model = _refuse_export


class CoreTensorForestEstimator(core_estimator.Estimator):
  """A tf.estimator Estimator (train / evaluate / predict) of a random forest, with contrib.estimator's heads.

  Args: TensorForestEstimator's, but no feature_engineering_fn is applied (it is accepted); a `config` also replaces
  `trainer_id` 0 by the task's global id in the cluster.
  """

  def __init__(self, params, device_assigner=None, model_dir=None, feature_columns=None,
               graph_builder_class=tensor_forest.RandomForestGraphs, config=None, weight_column=None,
               keys_column=None, feature_engineering_fn=None, early_stopping_rounds=100,
               early_stopping_loss_threshold=0.001, num_trainers=1, trainer_id=0, report_feature_importances=False,
               local_eval=False, version=None, head=None, include_all_in_serving=False):
    del feature_engineering_fn, version
    if trainer_id == 0 and config is not None:
      trainer_id = config.global_id_in_cluster
    model_fn = get_model_fn(
        params.fill(), graph_builder_class, device_assigner, num_trainers=_trainer_count(num_trainers, config),
        feature_columns=feature_columns, model_head=head, weights_name=weight_column, keys_name=keys_column,
        early_stopping_rounds=early_stopping_rounds, early_stopping_loss_threshold=early_stopping_loss_threshold,
        trainer_id=trainer_id, report_feature_importances=report_feature_importances, local_eval=local_eval,
        include_all_in_serving=include_all_in_serving, output_type=ModelBuilderOutputType.ESTIMATOR_SPEC)
    super(CoreTensorForestEstimator, self).__init__(model_fn=model_fn, model_dir=model_dir, config=config)

  def _export_all_saved_models(self, *args, **kwargs):
    """export_saved_model / export_savedmodel / experimental_export_all_saved_models: refused (_NO_EXPORT)."""
    del args, kwargs
    raise NotImplementedError(_NO_EXPORT)
