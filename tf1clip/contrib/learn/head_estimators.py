"""contrib.learn's head-based estimators: `DNNEstimator`, `LinearEstimator`, `DNNLinearCombinedEstimator`.

Place in the data flow (DESIGN.md): contrib.learn.estimator (Estimator), contrib.learn.head, tf_slim
(fully_connected, dropout), tf1clip.training_op (optimize_loss) <- **contrib.learn.head_estimators** <-
contrib.learn <- compat <- cli.

TF 1.15's model functions of dnn.py, linear.py and dnn_linear_combined.py, ported onto tf.compat.v1, each
run by tf1clip's model_fn `Estimator` with the given `Head` (contrib.learn.canned's DNNClassifier, ... run them
too): the same layers, variable scopes and names (`dnn/hiddenlayer_0/weights`, `dnn/logits/biases`), initializers,
default optimizers and learning rates (Adagrad 0.05 for DNNs, Ftrl at min(0.2, 1/sqrt(#columns)) for
linear parts, through `optimize_loss` as TF 1.15 did), `embedding_lr_multipliers` (optimize_loss's gradient
multipliers of the embedding variables) and wide-and-deep's global step increment
(`fix_global_step_increment_bug=False` counts a step per optimizer, as TF 1.15 did).

TF 1.15's choice of input path: when every column is a tf.contrib.layers column (tf1clip's constructors record
them: `feature_column.is_contrib_column`) the input layer is contrib.layers' `input_from_feature_columns`
(`dnn/input_from_feature_columns/<column>/weights`) and the linear logits `weighted_sum_from_feature_columns` (or
the joint one for `_joint_weights`: `linear/<column>/weight(s)`, `linear/bias_weight`); otherwise
tf.feature_column's `input_layer` / `linear_model` (`linear/linear_model/<column>/weights`).
"""

import math

import tensorflow as tf

from tf1clip.contrib.learn import estimator as estimator_lib

V1 = tf.compat.v1

_DNN_LEARNING_RATE = 0.05
_LINEAR_LEARNING_RATE = 0.2
_ACTIVATION_FUNCTIONS = {"relu": tf.nn.relu, "tanh": tf.nn.tanh, "sigmoid": tf.nn.sigmoid}


def _get_feature_dict(features):
  return features if isinstance(features, dict) else {"": features}


def _get_optimizer(optimizer):
  return optimizer() if callable(optimizer) else optimizer


def _get_activation_fn(activation_fn):
  if not isinstance(activation_fn, str):
    return activation_fn
  if activation_fn not in _ACTIVATION_FUNCTIONS:
    raise ValueError("Activation name should be one of [%s], you provided %s." %
                     (", ".join(_ACTIVATION_FUNCTIONS.keys()), activation_fn))
  return _ACTIVATION_FUNCTIONS[activation_fn]


def _optimize_loss(**kwargs):
  from tf1clip import training_op  # pylint: disable=import-outside-toplevel
  return training_op.optimize_loss(**kwargs)


def _num_ps_replicas(config):
  return config.num_ps_replicas if config else 0


def _all_contrib(feature_columns):
  """TF 1.15's test for its contrib path: every column a tf.contrib.layers column (a `_FeatureColumn`)."""
  from tf1clip.contrib.layers.python.layers import feature_column  # pylint: disable=import-outside-toplevel
  return all(feature_column.is_contrib_column(column) for column in feature_columns)


def _feature_column_ops():
  import tf1clip.contrib.layers.python.layers.feature_column_ops as ops  # pylint: disable=import-outside-toplevel
  return ops


def _dnn_tower(features, mode, head, hidden_units, feature_columns, activation_fn, dropout,
               input_layer_partitioner, add_summary):
  """TF 1.15's DNN tower inside the "dnn" variable scope: input layer, hidden layers, logits.

  Returns (logits, the input layer's variable scope name).
  """
  import tf_slim  # pylint: disable=import-outside-toplevel
  parent_scope = "dnn"
  with V1.variable_scope("input_from_feature_columns", values=tuple(features.values()),
                         partitioner=input_layer_partitioner) as input_layer_scope:
    if _all_contrib(feature_columns):
      net = _feature_column_ops().input_from_feature_columns(
          columns_to_tensors=features, feature_columns=feature_columns, weight_collections=[parent_scope],
          scope=input_layer_scope)
    else:
      net = V1.feature_column.input_layer(features=features, feature_columns=feature_columns,
                                          weight_collections=[parent_scope])
  for layer_id, num_hidden_units in enumerate(hidden_units):
    with V1.variable_scope("hiddenlayer_%d" % layer_id, values=(net,)) as hidden_layer_scope:
      net = tf_slim.fully_connected(net, num_hidden_units, activation_fn=activation_fn,
                                    variables_collections=[parent_scope], scope=hidden_layer_scope)
      if dropout is not None and mode == estimator_lib.ModeKeys.TRAIN:
        net = tf_slim.dropout(net, keep_prob=(1.0 - dropout))
    add_summary(net, hidden_layer_scope.name)
  with V1.variable_scope("logits", values=(net,)) as logits_scope:
    logits = tf_slim.fully_connected(net, head.logits_dimension, activation_fn=None,
                                     variables_collections=[parent_scope], scope=logits_scope)
  add_summary(logits, logits_scope.name)
  return logits, input_layer_scope.name


def _extract_embedding_lr_multipliers(embedding_lr_multipliers, collection_key, input_layer_scope):
  """TF 1.15's {embedding variable: learning rate multiplier} (optimize_loss's gradient_multipliers), or None."""
  if not embedding_lr_multipliers:
    return None
  gradient_multipliers = {}
  for column, lr_mult in embedding_lr_multipliers.items():
    if not (hasattr(column, "dimension") and hasattr(column, "categorical_column")):
      raise ValueError("learning rate multipler can only be defined for embedding columns. It is defined for "
                       "{}".format(column))
    embedding = V1.get_collection(collection_key, input_layer_scope + "/" + column.name)
    if not embedding:
      raise ValueError("Couldn't find a variable for column {}".format(column))
    for v in embedding:
      gradient_multipliers[v] = lr_mult
  return gradient_multipliers


def _dnn_model_fn(features, labels, mode, params, config=None):
  """TF 1.15's `dnn._dnn_model_fn`: the DNN tower, trained by optimize_loss (Adagrad 0.05 by default)."""
  head = params["head"]
  optimizer = params.get("optimizer") or "Adagrad"
  num_ps_replicas = _num_ps_replicas(config)
  features = _get_feature_dict(features)

  def add_summary(value, tag):
    V1.summary.scalar("%s_fraction_of_zero_values" % tag, tf.math.zero_fraction(value))
    V1.summary.histogram("%s_activation" % tag, value)

  with V1.variable_scope("dnn", values=tuple(features.values()),
                         partitioner=V1.min_max_variable_partitioner(max_partitions=num_ps_replicas)):
    logits, input_layer_scope = _dnn_tower(
        features, mode, head, params["hidden_units"], params["feature_columns"],
        _get_activation_fn(params.get("activation_fn")), params.get("dropout"),
        V1.min_max_variable_partitioner(max_partitions=num_ps_replicas,
                                        min_slice_size=params.get("input_layer_min_slice_size") or 64 << 20),
        add_summary)

    def _train_op_fn(loss):
      return _optimize_loss(loss=loss, global_step=V1.train.get_global_step(),
                            learning_rate=_DNN_LEARNING_RATE, optimizer=_get_optimizer(optimizer),
                            gradient_multipliers=_extract_embedding_lr_multipliers(
                                params.get("embedding_lr_multipliers"), "dnn", input_layer_scope),
                            clip_gradients=params.get("gradient_clip_norm"), name="dnn", summaries=[])

    return head.create_model_fn_ops(features=features, mode=mode, labels=labels, train_op_fn=_train_op_fn,
                                    logits=logits)


def _linear_logits(features, feature_columns, head, joint_weights, scope):
  """TF 1.15's linear logits in variable scope "linear": contrib columns through
  (joint_)weighted_sum_from_feature_columns (`linear/<column>/weight(s)`, `linear/bias_weight`), others through
  tf.feature_column's linear_model (which ignores `joint_weights`, as TF 1.15's did)."""
  if _all_contrib(feature_columns):
    ops = _feature_column_ops()
    layer_fn = ops.joint_weighted_sum_from_feature_columns if joint_weights else ops.weighted_sum_from_feature_columns
    logits, _, _ = layer_fn(columns_to_tensors=features, feature_columns=feature_columns,
                            num_outputs=head.logits_dimension, weight_collections=["linear"], scope=scope)
    return logits
  return V1.feature_column.linear_model(features=features, feature_columns=feature_columns,
                                        units=head.logits_dimension, weight_collections=["linear"])


def _linear_default_optimizer(feature_columns):
  return V1.train.FtrlOptimizer(learning_rate=min(_LINEAR_LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns))))


def _linear_optimizer(spec):
  if isinstance(spec, str):
    from tf1clip import training_op  # pylint: disable=import-outside-toplevel
    return training_op.OPTIMIZER_CLS_NAMES[spec](learning_rate=_LINEAR_LEARNING_RATE)
  if callable(spec):
    return spec()
  return spec


def _linear_model_fn(features, labels, mode, params, config=None):
  """TF 1.15's `linear._linear_model_fn`: a linear model in scope "linear", its gradients applied directly."""
  head = params["head"]
  feature_columns = params["feature_columns"]
  optimizer = params.get("optimizer") or _linear_default_optimizer(feature_columns)
  gradient_clip_norm = params.get("gradient_clip_norm", None)
  features = _get_feature_dict(features)
  parent_scope = "linear"
  partitioner = V1.min_max_variable_partitioner(max_partitions=_num_ps_replicas(config), min_slice_size=64 << 20)
  with V1.variable_scope(parent_scope, values=tuple(features.values()), partitioner=partitioner) as scope:
    logits = _linear_logits(features, feature_columns, head, params.get("joint_weights", False), scope)

    def _train_op_fn(loss):
      my_vars = V1.get_collection(parent_scope)
      grads = V1.gradients(loss, my_vars)
      if gradient_clip_norm:
        grads, _ = tf.clip_by_global_norm(grads, gradient_clip_norm)
      return _linear_optimizer(optimizer).apply_gradients(zip(grads, my_vars),
                                                          global_step=V1.train.get_global_step())

    return head.create_model_fn_ops(features=features, mode=mode, labels=labels, train_op_fn=_train_op_fn,
                                    logits=logits)


def _check_no_sync_replicas_optimizer(optimizer):
  if isinstance(optimizer, V1.train.SyncReplicasOptimizer):
    raise ValueError("SyncReplicasOptimizer is not supported in DNNLinearCombined model. If you want to use "
                     "this optimizer, please use either DNN or Linear model.")


def _dnn_linear_combined_model_fn(features, labels, mode, params, config=None):
  """TF 1.15's `dnn_linear_combined._dnn_linear_combined_model_fn`: DNN and linear logits summed."""
  head = params["head"]
  linear_feature_columns = params.get("linear_feature_columns")
  linear_optimizer = params.get("linear_optimizer") or "Ftrl"
  dnn_feature_columns = params.get("dnn_feature_columns")
  dnn_optimizer = params.get("dnn_optimizer") or "Adagrad"
  dnn_hidden_units = params.get("dnn_hidden_units")
  gradient_clip_norm = params.get("gradient_clip_norm")
  num_ps_replicas = _num_ps_replicas(config)
  input_layer_partitioner = params.get("input_layer_partitioner") or V1.min_max_variable_partitioner(
      max_partitions=num_ps_replicas, min_slice_size=64 << 20)
  fix_global_step_increment_bug = params.get("fix_global_step_increment_bug", True)
  if not linear_feature_columns and not dnn_feature_columns:
    raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
  features = _get_feature_dict(features)
  linear_optimizer = _get_optimizer(linear_optimizer)
  _check_no_sync_replicas_optimizer(linear_optimizer)
  dnn_optimizer = _get_optimizer(dnn_optimizer)
  _check_no_sync_replicas_optimizer(dnn_optimizer)

  def add_summary(value, tag):
    V1.summary.scalar("%s/fraction_of_zero_values" % tag, tf.math.zero_fraction(value))
    V1.summary.histogram("%s/activation" % tag, value)

  dnn_logits, dnn_input_scope = None, None
  if dnn_feature_columns:
    if not dnn_hidden_units:
      raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is specified.")
    with V1.variable_scope("dnn", values=tuple(features.values()),
                           partitioner=V1.min_max_variable_partitioner(max_partitions=num_ps_replicas)):
      dnn_logits, dnn_input_scope = _dnn_tower(features, mode, head, dnn_hidden_units, dnn_feature_columns,
                              params.get("dnn_activation_fn") or tf.nn.relu, params.get("dnn_dropout"),
                              input_layer_partitioner, add_summary)
  linear_logits = None
  if linear_feature_columns:
    partitioner = V1.min_max_variable_partitioner(max_partitions=num_ps_replicas, min_slice_size=64 << 20)
    with V1.variable_scope("linear", values=tuple(features.values()), partitioner=partitioner) as scope:
      linear_logits = _linear_logits(features, linear_feature_columns, head, params.get("joint_linear_weights"),
                                     scope)
      add_summary(linear_logits, scope.name)
  if dnn_logits is not None and linear_logits is not None:
    logits = dnn_logits + linear_logits
  elif dnn_logits is not None:
    logits = dnn_logits
  else:
    logits = linear_logits

  def _make_training_op(training_loss):
    train_ops = []
    global_step = V1.train.get_global_step()
    if dnn_logits is not None:
      train_ops.append(_optimize_loss(
          loss=training_loss, global_step=global_step, learning_rate=_DNN_LEARNING_RATE,
          optimizer=dnn_optimizer, clip_gradients=gradient_clip_norm, variables=V1.get_collection("dnn"),
          gradient_multipliers=_extract_embedding_lr_multipliers(params.get("embedding_lr_multipliers"), "dnn",
                                                                 dnn_input_scope),
          name="dnn", summaries=[], increment_global_step=not fix_global_step_increment_bug))
    if linear_logits is not None:
      train_ops.append(_optimize_loss(
          loss=training_loss, global_step=global_step,
          learning_rate=min(_LINEAR_LEARNING_RATE, 1. / math.sqrt(len(linear_feature_columns))),
          optimizer=linear_optimizer, clip_gradients=gradient_clip_norm, variables=V1.get_collection("linear"),
          name="linear", summaries=[], increment_global_step=not fix_global_step_increment_bug))
    train_op = tf.group(*train_ops)
    if fix_global_step_increment_bug:
      with tf.control_dependencies([train_op]):
        with V1.colocate_with(global_step):
          return V1.assign_add(global_step, 1).op
    return train_op

  return head.create_model_fn_ops(features=features, mode=mode, labels=labels, train_op_fn=_make_training_op,
                                  logits=logits)


class DNNEstimator(estimator_lib.Estimator):
  """TF 1.15's `tf.contrib.learn.DNNEstimator`: a DNN with a given `Head`."""

  def __init__(self, head, hidden_units, feature_columns, model_dir=None, optimizer=None,
               activation_fn=tf.nn.relu, dropout=None, gradient_clip_norm=None, config=None,
               feature_engineering_fn=None, embedding_lr_multipliers=None, input_layer_min_slice_size=None):
    super(DNNEstimator, self).__init__(
        model_fn=_dnn_model_fn, model_dir=model_dir, config=config,
        params={"head": head, "hidden_units": hidden_units, "feature_columns": feature_columns,
                "optimizer": optimizer, "activation_fn": activation_fn, "dropout": dropout,
                "gradient_clip_norm": gradient_clip_norm, "embedding_lr_multipliers": embedding_lr_multipliers,
                "input_layer_min_slice_size": input_layer_min_slice_size},
        feature_engineering_fn=feature_engineering_fn)


class LinearEstimator(estimator_lib.Estimator):
  """TF 1.15's `tf.contrib.learn.LinearEstimator`: a linear model with a given `Head`."""

  def __init__(self, feature_columns, head, model_dir=None, weight_column_name=None, optimizer=None,
               gradient_clip_norm=None, _joint_weights=False, config=None, feature_engineering_fn=None):
    del weight_column_name  # TF 1.15 took it and did not use it: the head has the weights
    assert feature_columns
    if type(optimizer).__name__ == "SDCAOptimizer":
      raise ValueError("LinearEstimator does not support SDCA optimizer.")
    super(LinearEstimator, self).__init__(
        model_fn=_linear_model_fn, model_dir=model_dir, config=config,
        params={"head": head, "feature_columns": feature_columns, "optimizer": optimizer,
                "gradient_clip_norm": gradient_clip_norm, "joint_weights": _joint_weights},
        feature_engineering_fn=feature_engineering_fn)


class DNNLinearCombinedEstimator(estimator_lib.Estimator):
  """TF 1.15's `tf.contrib.learn.DNNLinearCombinedEstimator`: wide and deep with a given `Head`."""

  def __init__(self, head, model_dir=None, linear_feature_columns=None, linear_optimizer=None,
               _joint_linear_weights=False, dnn_feature_columns=None, dnn_optimizer=None, dnn_hidden_units=None,
               dnn_activation_fn=None, dnn_dropout=None, gradient_clip_norm=None, config=None,
               feature_engineering_fn=None, embedding_lr_multipliers=None, fix_global_step_increment_bug=False,
               input_layer_partitioner=None):
    linear_feature_columns = tuple(linear_feature_columns or [])
    dnn_feature_columns = tuple(dnn_feature_columns or [])
    if not linear_feature_columns + dnn_feature_columns:
      raise ValueError("Either linear_feature_columns or dnn_feature_columns must be defined.")
    super(DNNLinearCombinedEstimator, self).__init__(
        model_fn=_dnn_linear_combined_model_fn, model_dir=model_dir, config=config,
        params={"head": head, "linear_feature_columns": linear_feature_columns,
                "linear_optimizer": linear_optimizer, "joint_linear_weights": _joint_linear_weights,
                "dnn_feature_columns": dnn_feature_columns, "dnn_optimizer": dnn_optimizer,
                "dnn_hidden_units": dnn_hidden_units, "dnn_activation_fn": dnn_activation_fn,
                "dnn_dropout": dnn_dropout, "gradient_clip_norm": gradient_clip_norm,
                "embedding_lr_multipliers": embedding_lr_multipliers,
                "fix_global_step_increment_bug": fix_global_step_increment_bug,
                "input_layer_partitioner": input_layer_partitioner},
        feature_engineering_fn=feature_engineering_fn)
