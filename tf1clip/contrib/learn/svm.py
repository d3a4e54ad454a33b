"""`tf.contrib.learn.SVM`: TF 1.15's linear SVM (hinge loss trained by SDCA) on contrib.learn's Estimator.

Place in the data flow (DESIGN.md): contrib.learn.estimator (Estimator), contrib.learn.head (binary_svm_head),
contrib.linear_optimizer (SDCAOptimizer), contrib.learn.head_estimators (TF 1.15's choice of linear model) <-
**contrib.learn.svm** <- contrib.learn <- compat <- cli.

TF 1.15's svm.py and the `sdca_model_fn` / `_SdcaUpdateWeightsHook` of its linear.py: the linear model is built
in variable scope "linear" (with the optimizer's partitioner), the head (binary_svm_head: hinge loss; predictions
"logits" and "classes"; metrics "loss" and "accuracy") gives the ModelFnOps, and the train op is
`SDCAOptimizer.get_train_step` (hinge_loss) followed, on the chief, by SdcaModel.update_weights (the L1 shrink),
as in TF 1.15. The regularization runs as max(l2_regularization, 1.0), as TF 1.15's solver did.

The linear model is TF 1.15's too: tf.contrib.layers columns go through weighted_sum_from_feature_columns
(`linear/<column>/weight(s)`, `linear/bias_weight`), tf.feature_column columns through
`tf.compat.v1.feature_column.linear_model`, as TF 1.15 chose. `export` / `export_with_defaults` (deprecated in TF
1.15 for export_savedmodel) are not served: use `export_savedmodel`.
"""

import tensorflow as tf

from tf1clip.contrib.learn import estimator as estimator_lib
from tf1clip.contrib.learn import head as head_lib
from tf1clip.contrib.learn import head_estimators
from tf1clip.contrib.learn import prediction_key

V1 = tf.compat.v1


def _as_iterable(preds, output):
  for pred in preds:
    yield pred[output]


def _sdca_optimizer_module():
  from tf1clip.contrib.linear_optimizer.python import sdca_optimizer  # pylint: disable=import-outside-toplevel
  return sdca_optimizer


def sdca_model_fn(features, labels, mode, params):
  """TF 1.15's model_fn for linear models that use the SDCA optimizer (contrib.learn's linear.py).

  Args:
    features: A dict of `Tensor` keyed by column name.
    labels: `Tensor` of shape [batch_size, 1] or [batch_size] labels.
    mode: Defines whether this is training, evaluation or prediction. See `ModeKeys`.
    params: A dict of hyperparameters: head (a binary SVM, binary logistic or regression head), feature_columns,
      optimizer (an `SDCAOptimizer`), weight_column_name, update_weights_hook (optional).

  Returns:
    A `ModelFnOps` instance.

  Raises:
    ValueError: If `optimizer` is not an `SDCAOptimizer` instance, or the head is not one of those types.
  """
  head = params["head"]
  feature_columns = params["feature_columns"]
  optimizer = params["optimizer"]
  weight_column_name = params["weight_column_name"]
  update_weights_hook = params.get("update_weights_hook", None)
  if not isinstance(optimizer, _sdca_optimizer_module().SDCAOptimizer):
    raise ValueError("Optimizer must be of type SDCAOptimizer")
  if isinstance(head, head_lib._BinarySvmHead):  # pylint: disable=protected-access
    loss_type = "hinge_loss"
  elif isinstance(head, head_lib._BinaryLogisticHead):  # pylint: disable=protected-access
    loss_type = "logistic_loss"
  elif isinstance(head, head_lib._RegressionHead):  # pylint: disable=protected-access
    assert head.logits_dimension == 1, "SDCA only applies for logits_dimension=1."
    loss_type = "squared_loss"
  else:
    raise ValueError("Unsupported head type: {}".format(head))
  features = dict(features) if isinstance(features, dict) else {"": features}
  feature_columns = list(feature_columns)
  if not feature_columns:
    raise ValueError("feature_columns can't be empty.")
  columns_to_variables = {}
  with V1.variable_scope("linear", values=tuple(features.values()), partitioner=optimizer.partitioner) as scope:
    if head_estimators._all_contrib(feature_columns):  # pylint: disable=protected-access
      # TF 1.15's contrib path: weighted_sum_from_feature_columns, its bias as the bias column
      ops = head_estimators._feature_column_ops()  # pylint: disable=protected-access
      logits, columns_to_variables, bias = ops.weighted_sum_from_feature_columns(
          columns_to_tensors=features, feature_columns=feature_columns, num_outputs=1, scope=scope)
      columns_to_variables = dict(columns_to_variables)
      columns_to_variables[_sdca_optimizer_module()._BIAS_KEY] = [bias]  # pylint: disable=protected-access
    else:
      logits = V1.feature_column.linear_model(features=features, feature_columns=feature_columns, units=1,
                                              cols_to_vars=columns_to_variables)

  def _train_op_fn(unused_loss):
    global_step = V1.train.get_global_step()
    sdca_model, train_op = optimizer.get_train_step(columns_to_variables, weight_column_name, loss_type,
                                                    features, labels, global_step)
    if update_weights_hook is not None:
      update_weights_hook.set_parameters(sdca_model, train_op)
    return train_op

  model_fn_ops = head.create_model_fn_ops(features=features, labels=labels, mode=mode,
                                          train_op_fn=_train_op_fn, logits=logits)
  if update_weights_hook is not None:
    return model_fn_ops._replace(
        training_chief_hooks=(list(model_fn_ops.training_chief_hooks) + [update_weights_hook]))
  return model_fn_ops


class _SdcaUpdateWeightsHook(V1.train.SessionRunHook):
  """SessionRunHook to update and shrink SDCA model weights (runs SdcaModel.update_weights each step)."""

  def set_parameters(self, sdca_model, train_op):
    self._sdca_model = sdca_model
    self._train_op = train_op

  def begin(self):
    """Construct the update_weights op (implicitly added to the default graph)."""
    self._update_op = self._sdca_model.update_weights(self._train_op)

  def before_run(self, run_context):
    """Return the update_weights op so that it is executed during this run."""
    return V1.train.SessionRunArgs(self._update_op)


class SVM(estimator_lib.Estimator):
  """Support Vector Machine (SVM) model for binary classification (TF 1.15's `tf.contrib.learn.SVM`).

  Only linear SVMs: the hinge loss, minimized by the `SDCAOptimizer`. The input of `fit` and `evaluate` must
  have a feature `example_id_column` (a string Tensor), the weight feature if `weight_column_name` is set, and
  the features of `feature_columns`.
  """

  def __init__(self, example_id_column, feature_columns, weight_column_name=None, model_dir=None,
               l1_regularization=0.0, l2_regularization=0.0, num_loss_partitions=1, kernels=None, config=None,
               feature_engineering_fn=None):
    if kernels is not None:
      raise ValueError("Kernel SVMs are not currently supported.")
    optimizer = _sdca_optimizer_module().SDCAOptimizer(
        example_id_column=example_id_column, num_loss_partitions=num_loss_partitions,
        symmetric_l1_regularization=l1_regularization, symmetric_l2_regularization=l2_regularization)
    self._feature_columns = feature_columns
    chief_hook = _SdcaUpdateWeightsHook()
    super(SVM, self).__init__(
        model_fn=sdca_model_fn, model_dir=model_dir, config=config,
        params={"head": head_lib.binary_svm_head(weight_column_name=weight_column_name,
                                                 enable_centered_bias=False),
                "feature_columns": feature_columns, "optimizer": optimizer,
                "weight_column_name": weight_column_name, "update_weights_hook": chief_hook},
        feature_engineering_fn=feature_engineering_fn)

  def predict_classes(self, x=None, input_fn=None, batch_size=None, as_iterable=True):
    """Runs inference to determine the predicted class."""
    key = prediction_key.PredictionKey.CLASSES
    preds = super(SVM, self).predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=[key],
                                     as_iterable=as_iterable)
    if as_iterable:
      return _as_iterable(preds, output=key)
    return preds[key]

  def predict_proba(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True):
    """Runs inference to determine the class probability predictions (an SVM has none: TF 1.15's error)."""
    del outputs  # TF 1.15 ignored it
    key = prediction_key.PredictionKey.PROBABILITIES
    preds = super(SVM, self).predict(x=x, input_fn=input_fn, batch_size=batch_size, outputs=[key],
                                     as_iterable=as_iterable)
    if as_iterable:
      return _as_iterable(preds, output=key)
    return preds[key]
