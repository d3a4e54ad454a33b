"""`tf.contrib.learn.DynamicRnnEstimator`: TF 1.15's dynamically unrolled RNN estimator on contrib.learn's Estimator.

Place in the data flow (DESIGN.md): contrib.learn.estimator (Estimator, ModelFnOps), contrib.learn.rnn_common,
contrib.layers (feature_column_ops, target_column), contrib.rnn (cells), tf_slim (fully_connected), training_op
(optimize_loss) <- **contrib.learn.dynamic_rnn_estimator** <- contrib.learn <- compat <- cli.

TF 1.15's code (contrib/learn/python/learn/estimators/dynamic_rnn_estimator.py) on tf.compat.v1: the same
model_fn (the sequence input from `transform_features` / `sequence_input_from_feature_columns`, context columns
tiled over time, `tf.compat.v1.nn.dynamic_rnn` under the `rnn` scope, a `fully_connected` projection, the
`regression_target` / `multi_class_target` losses, optimize_loss with TF 1.15's summaries), name scopes
(`MultiValueDynamicRNNRegressor/...`), variable names (`rnn/lstm_cell/kernel`, `fully_connected/weights`,
`sequence_input_from_feature_columns/<column>_embedding/weights`, `OptimizeLoss/learning_rate`), prediction keys
(`scores` / `classes` / `probabilities`, `rnn_cell_state_<i>`), output alternatives, the "accuracy" metric and
the state helpers `state_tuple_to_dict` / `dict_to_state_tuple`. The feature columns are tf1clip's (the
`tf.feature_column` columns contrib.layers' constructors return; see contrib.layers.feature_column).
"""

import tf1clip.contrib.learn.constants as constants
import tf1clip.contrib.learn.estimator as estimator
import tf1clip.contrib.learn.prediction_key as prediction_key
import tf1clip.contrib.learn.rnn_common as rnn_common


class PredictionType(object):
  SINGLE_VALUE = 1
  MULTIPLE_VALUE = 2


def _get_state_name(i):
  """Constructs the name string for state component `i`."""
  return "{}_{}".format(rnn_common.RNNKeys.STATE_PREFIX, i)


def state_tuple_to_dict(state):
  """A dict `{"rnn_cell_state_<i>": component}` of the flattened `state` (depth-first order)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  with tf.name_scope("state_tuple_to_dict"):
    flat_state = tf.nest.flatten(state)
    state_dict = {}
    for i, state_component in enumerate(flat_state):
      state_name = _get_state_name(i)
      state_value = (None if state_component is None else tf.identity(state_component, name=state_name))
      state_dict[state_name] = state_value
  return state_dict


def dict_to_state_tuple(input_dict, cell):
  """The `cell` state packed from `input_dict`'s "rnn_cell_state_<i>" entries (None when there are none)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  flat_state_sizes = tf.nest.flatten(cell.state_size)
  state_tensors = []
  with tf.name_scope("dict_to_state_tuple"):
    for i, state_size in enumerate(flat_state_sizes):
      state_name = _get_state_name(i)
      state_tensor = input_dict.get(state_name)
      if state_tensor is not None:
        rank_check = tf.assert_rank(state_tensor, 2, name="check_state_{}_rank".format(i))
        shape_check = tf.assert_equal(tf.shape(state_tensor)[1], state_size,
                                      name="check_state_{}_shape".format(i))
        with tf.control_dependencies([rank_check, shape_check]):
          state_tensor = tf.identity(state_tensor, name=state_name)
        state_tensors.append(state_tensor)
    if not state_tensors:
      return None
    elif len(state_tensors) == len(flat_state_sizes):
      dummy_state = cell.zero_state(batch_size=1, dtype=tf.bool)
      return tf.nest.pack_sequence_as(dummy_state, state_tensors)
    else:
      raise ValueError(
          "RNN state was partially specified."
          "Expected zero or {} state Tensors; got {}".format(len(flat_state_sizes), len(state_tensors)))


def _concatenate_context_input(sequence_input, context_input):
  """`context_input` `[batch, d1]` tiled over the steps of `sequence_input` `[batch, time, d0]`, appended."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  seq_rank_check = tf.assert_rank(sequence_input, 3, message="sequence_input must have rank 3",
                                  data=[tf.shape(sequence_input)])
  seq_type_check = tf.assert_type(
      sequence_input, tf.float32,
      message="sequence_input must have dtype float32; got {}.".format(sequence_input.dtype))
  ctx_rank_check = tf.assert_rank(context_input, 2, message="context_input must have rank 2",
                                  data=[tf.shape(context_input)])
  ctx_type_check = tf.assert_type(
      context_input, tf.float32,
      message="context_input must have dtype float32; got {}.".format(context_input.dtype))
  with tf.control_dependencies([seq_rank_check, seq_type_check, ctx_rank_check, ctx_type_check]):
    padded_length = tf.shape(sequence_input)[1]
    tiled_context_input = tf.tile(tf.expand_dims(context_input, 1), tf.concat([[1], [padded_length], [1]], 0))
  return tf.concat([sequence_input, tiled_context_input], 2)


def build_sequence_input(features, sequence_feature_columns, context_feature_columns, weight_collections=None,
                         scope=None):
  """The RNN input `[batch_size, padded_length, ?]`: sequence columns, then the context columns tiled."""
  from tf1clip.contrib.layers.python.layers import feature_column  # pylint: disable=import-outside-toplevel
  from tf1clip.contrib.layers.python.layers import feature_column_ops  # pylint: disable=import-outside-toplevel
  features = features.copy()
  features.update(feature_column_ops.transform_features(
      features, list(sequence_feature_columns) + list(context_feature_columns or [])))
  sequence_input = feature_column_ops.sequence_input_from_feature_columns(
      columns_to_tensors=features, feature_columns=sequence_feature_columns,
      weight_collections=weight_collections, scope=scope)
  if context_feature_columns is not None:
    context_input = feature_column.input_from_feature_columns(
        columns_to_tensors=features, feature_columns=context_feature_columns,
        weight_collections=weight_collections, scope=scope)
    sequence_input = _concatenate_context_input(sequence_input, context_input)
  return sequence_input


def construct_rnn(initial_state, sequence_input, cell, num_label_columns, dtype=None, parallel_iterations=32,
                  swap_memory=True):
  """`dynamic_rnn` of `cell` over `sequence_input`, projected to `num_label_columns`: (activations, state)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  import tf_slim  # pylint: disable=import-outside-toplevel
  with tf.name_scope("RNN"):
    rnn_outputs, final_state = tf.nn.dynamic_rnn(
        cell=cell, inputs=sequence_input, initial_state=initial_state, dtype=dtype or tf.float32,
        parallel_iterations=parallel_iterations, swap_memory=swap_memory, time_major=False)
    activations = tf_slim.layers.fully_connected(
        inputs=rnn_outputs, num_outputs=num_label_columns, activation_fn=None, trainable=True)
    return activations, final_state


def _single_value_predictions(activations, sequence_length, target_column, problem_type, predict_probabilities):
  """The predictions of the last step of each sequence (and its probabilities)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  with tf.name_scope("SingleValuePrediction"):
    last_activations = rnn_common.select_last_activations(activations, sequence_length)
    predictions_name = (prediction_key.PredictionKey.CLASSES
                        if problem_type == constants.ProblemType.CLASSIFICATION
                        else prediction_key.PredictionKey.SCORES)
    if predict_probabilities:
      probabilities = target_column.logits_to_predictions(last_activations, proba=True)
      prediction_dict = {prediction_key.PredictionKey.PROBABILITIES: probabilities,
                         predictions_name: tf.argmax(probabilities, 1)}
    else:
      predictions = target_column.logits_to_predictions(last_activations, proba=False)
      prediction_dict = {predictions_name: predictions}
    return prediction_dict


def _multi_value_loss(activations, labels, sequence_length, target_column, features):
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  with tf.name_scope("MultiValueLoss"):
    activations_masked, labels_masked = rnn_common.mask_activations_and_labels(
        activations, labels, sequence_length)
    return target_column.loss(activations_masked, labels_masked, features)


def _single_value_loss(activations, labels, sequence_length, target_column, features):
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  with tf.name_scope("SingleValueLoss"):
    last_activations = rnn_common.select_last_activations(activations, sequence_length)
    return target_column.loss(last_activations, labels, features)


def _get_output_alternatives(prediction_type, problem_type, prediction_dict):
  """None for multi-value models, else `{'dynamic_rnn_output': (problem_type, predictions without state)}`."""
  if prediction_type == rnn_common.PredictionType.MULTIPLE_VALUE:
    return None
  if prediction_type == rnn_common.PredictionType.SINGLE_VALUE:
    prediction_dict_no_state = {k: v for k, v in prediction_dict.items()
                                if rnn_common.RNNKeys.STATE_PREFIX not in k}
    return {"dynamic_rnn_output": (problem_type, prediction_dict_no_state)}
  raise ValueError("Unrecognized prediction_type: {}".format(prediction_type))


def _get_dynamic_rnn_model_fn(cell_type, num_units, target_column, problem_type, prediction_type, optimizer,
                              sequence_feature_columns, context_feature_columns=None,
                              predict_probabilities=False, learning_rate=None, gradient_clipping_norm=None,
                              dropout_keep_probabilities=None,
                              sequence_length_key=rnn_common.RNNKeys.SEQUENCE_LENGTH_KEY, dtype=None,
                              parallel_iterations=None, swap_memory=True, name="DynamicRNNModel"):
  """TF 1.15's model function of a DynamicRnnEstimator (a contrib.learn model_fn returning ModelFnOps)."""
  if problem_type not in (constants.ProblemType.CLASSIFICATION, constants.ProblemType.LINEAR_REGRESSION):
    raise ValueError("problem_type must be ProblemType.LINEAR_REGRESSION or "
                     "ProblemType.CLASSIFICATION; got {}".format(problem_type))
  if prediction_type not in (rnn_common.PredictionType.SINGLE_VALUE, rnn_common.PredictionType.MULTIPLE_VALUE):
    raise ValueError("prediction_type must be PredictionType.MULTIPLE_VALUEs or "
                     "PredictionType.SINGLE_VALUE; got {}".format(prediction_type))
  if problem_type != constants.ProblemType.CLASSIFICATION and predict_probabilities:
    raise ValueError("predict_probabilities can only be set to True for problem_type"
                     " ProblemType.CLASSIFICATION; got {}.".format(problem_type))

  def _dynamic_rnn_model_fn(features, labels, mode):
    """The model to be passed to an `Estimator`."""
    import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
    import tf1clip.training_op as training_op  # pylint: disable=import-outside-toplevel
    with tf.name_scope(name):
      sequence_length = features.get(sequence_length_key)
      sequence_input = build_sequence_input(features, sequence_feature_columns, context_feature_columns)
      dropout = dropout_keep_probabilities if mode == estimator.ModeKeys.TRAIN else None
      cell = rnn_common.construct_rnn_cell(num_units, cell_type, dropout)
      initial_state = dict_to_state_tuple(features, cell)
      rnn_activations, final_state = construct_rnn(
          initial_state, sequence_input, cell, target_column.num_label_columns, dtype=dtype or tf.float32,
          parallel_iterations=parallel_iterations or 32, swap_memory=swap_memory)

      loss = None  # Created below for modes TRAIN and EVAL.
      if prediction_type == rnn_common.PredictionType.MULTIPLE_VALUE:
        prediction_dict = rnn_common.multi_value_predictions(
            rnn_activations, target_column, problem_type, predict_probabilities)
        if mode != estimator.ModeKeys.INFER:
          loss = _multi_value_loss(rnn_activations, labels, sequence_length, target_column, features)
      elif prediction_type == rnn_common.PredictionType.SINGLE_VALUE:
        prediction_dict = _single_value_predictions(
            rnn_activations, sequence_length, target_column, problem_type, predict_probabilities)
        if mode != estimator.ModeKeys.INFER:
          loss = _single_value_loss(rnn_activations, labels, sequence_length, target_column, features)
      state_dict = state_tuple_to_dict(final_state)
      prediction_dict.update(state_dict)

      eval_metric_ops = None
      if mode != estimator.ModeKeys.INFER:
        eval_metric_ops = rnn_common.get_eval_metric_ops(
            problem_type, prediction_type, sequence_length, prediction_dict, labels)

      train_op = None
      if mode == estimator.ModeKeys.TRAIN:
        train_op = training_op.optimize_loss(
            loss=loss, global_step=None, learning_rate=learning_rate, optimizer=optimizer,
            clip_gradients=gradient_clipping_norm, summaries=training_op.OPTIMIZER_SUMMARIES)

    output_alternatives = _get_output_alternatives(prediction_type, problem_type, prediction_dict)
    return estimator.ModelFnOps(mode=mode, predictions=prediction_dict, loss=loss, train_op=train_op,
                                eval_metric_ops=eval_metric_ops, output_alternatives=output_alternatives)

  return _dynamic_rnn_model_fn


class DynamicRnnEstimator(estimator.Estimator):
  """Dynamically unrolled RNN (TF 1.15's `tf.contrib.learn.DynamicRnnEstimator`, deprecated there)."""

  def __init__(self, problem_type, prediction_type, sequence_feature_columns, context_feature_columns=None,
               num_classes=None, num_units=None, cell_type="basic_rnn", optimizer="SGD", learning_rate=0.1,
               predict_probabilities=False, momentum=None, gradient_clipping_norm=5.0,
               dropout_keep_probabilities=None, model_dir=None, feature_engineering_fn=None, config=None):
    import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
    from tf1clip.contrib.layers.python.layers import (  # pylint: disable=import-outside-toplevel
        target_column as target_column_lib)
    if prediction_type == rnn_common.PredictionType.MULTIPLE_VALUE:
      name = "MultiValueDynamicRNN"
    elif prediction_type == rnn_common.PredictionType.SINGLE_VALUE:
      name = "SingleValueDynamicRNN"
    else:
      raise ValueError("prediction_type must be one of PredictionType.MULTIPLE_VALUE or "
                       "PredictionType.SINGLE_VALUE; got {}".format(prediction_type))

    if problem_type == constants.ProblemType.LINEAR_REGRESSION:
      name += "Regressor"
      target_column = target_column_lib.regression_target()
    elif problem_type == constants.ProblemType.CLASSIFICATION:
      if not num_classes:
        raise ValueError("For CLASSIFICATION problem_type, num_classes must be specified.")
      target_column = target_column_lib.multi_class_target(n_classes=num_classes)
      name += "Classifier"
    else:
      raise ValueError("problem_type must be either ProblemType.LINEAR_REGRESSION "
                       "or ProblemType.CLASSIFICATION; got {}".format(problem_type))

    if optimizer == "Momentum":
      optimizer = tf.train.MomentumOptimizer(learning_rate, momentum)
    dynamic_rnn_model_fn = _get_dynamic_rnn_model_fn(
        cell_type=cell_type, num_units=num_units, target_column=target_column, problem_type=problem_type,
        prediction_type=prediction_type, optimizer=optimizer, sequence_feature_columns=sequence_feature_columns,
        context_feature_columns=context_feature_columns, predict_probabilities=predict_probabilities,
        learning_rate=learning_rate, gradient_clipping_norm=gradient_clipping_norm,
        dropout_keep_probabilities=dropout_keep_probabilities, name=name)
    super(DynamicRnnEstimator, self).__init__(model_fn=dynamic_rnn_model_fn, model_dir=model_dir, config=config,
                                              feature_engineering_fn=feature_engineering_fn)

