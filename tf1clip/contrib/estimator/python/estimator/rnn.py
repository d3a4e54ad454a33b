"""`tf.contrib.estimator`'s RNNClassifier and RNNEstimator: TF 1.15's recurrent canned estimators, ported.

tensorflow-estimator 2.15's own `RNNClassifier` is a Keras-model estimator with another constructor
(`units`, `cell_type` strings, v2 columns); TF 1.15's contrib one, which this is, takes sequence feature columns
(`tf.contrib.feature_column.sequence_*`), `num_units` + `cell_type` or an `rnn_cell_fn(mode)` returning a
`tf.nn.rnn_cell.RNNCell`, runs `tf.nn.dynamic_rnn` under the variable scope `rnn/` (so its checkpoints
read `rnn/sequence_input_layer/...`, `rnn/rnn/<cell>/kernel`, `rnn/logits/dense/kernel`; in the graph each is
the `/part_0` of TF 1.15's min-max partitioner), and feeds the last relevant output (or, for RNNEstimator with
`return_sequences=True` and a sequential head, every output) to the head. Without an optimizer instance it
uses the named one at learning rate 0.05 with gradients clipped to global norm 5.0, as TF 1.15.
"""

import tensorflow as tf
from tf_keras.api._v1 import keras as _keras_v1

import tf1clip.contrib.feature_column as feature_column
from tf1clip.contrib.estimator.python.estimator import extenders

# pylint: disable=g-import-not-at-top,wrong-import-position,protected-access
from tensorflow_estimator.python.estimator import estimator
from tensorflow_estimator.python.estimator.canned import head as head_lib
from tensorflow_estimator.python.estimator.canned import optimizers
from tensorflow_estimator.python.estimator.head import sequential_head as seq_head_lib

V1 = tf.compat.v1
# what a TF1 script's tf.nn.rnn_cell and tf.layers are under tf1clip (compat.surface.TF_KERAS_MODULES)
rnn_cell = _keras_v1.__internal__.legacy.rnn_cell
_layers = _keras_v1.__internal__.legacy.layers

# The defaults are historical artifacts of the initial implementation, but seem reasonable choices.
_DEFAULT_LEARNING_RATE = 0.05
_DEFAULT_CLIP_NORM = 5.0

_CELL_TYPES = {"basic_rnn": rnn_cell.BasicRNNCell,
               "lstm": rnn_cell.BasicLSTMCell,
               "gru": rnn_cell.GRUCell}

# Indicates no value was provided by the user to a kwarg.
USE_DEFAULT = object()


def _single_rnn_cell(num_units, cell_type):
  cell_type = _CELL_TYPES.get(cell_type, cell_type)
  # TF 1.15's check: an unknown string reaches issubclass and raises its TypeError
  if not cell_type or not issubclass(cell_type, rnn_cell.RNNCell):
    raise ValueError("Supported cell types are {}; got {}".format(list(_CELL_TYPES.keys()), cell_type))
  return cell_type(num_units=num_units)


def _make_rnn_cell_fn(num_units, cell_type="basic_rnn"):
  """An `rnn_cell_fn(mode)` of one cell per entry of `num_units` (a MultiRNNCell for more than one)."""

  def rnn_cell_fn(mode):
    del mode  # part of the interface: a user's function may differ by mode (dropout)
    cells = [_single_rnn_cell(n, cell_type) for n in num_units]
    if len(cells) == 1:
      return cells[0]
    return rnn_cell.MultiRNNCell(cells)

  return rnn_cell_fn


def _concatenate_context_input(sequence_input, context_input):
  """Appends `context_input` [batch, d1] to every step of `sequence_input` [batch, time, d0]."""
  seq_rank_check = V1.assert_rank(sequence_input, 3, message="sequence_input must have rank 3",
                                  data=[tf.shape(sequence_input)])
  seq_type_check = V1.assert_type(
      sequence_input, tf.float32,
      message="sequence_input must have dtype float32; got {}.".format(sequence_input.dtype))
  ctx_rank_check = V1.assert_rank(context_input, 2, message="context_input must have rank 2",
                                  data=[tf.shape(context_input)])
  ctx_type_check = V1.assert_type(
      context_input, tf.float32,
      message="context_input must have dtype float32; got {}.".format(context_input.dtype))
  checks = [c for c in (seq_rank_check, seq_type_check, ctx_rank_check, ctx_type_check) if c is not None]
  with tf.control_dependencies(checks):
    padded_length = tf.shape(sequence_input)[1]
    tiled_context_input = tf.tile(tf.expand_dims(context_input, 1),
                                  tf.concat([[1], [padded_length], [1]], 0))
  return tf.concat([sequence_input, tiled_context_input], 2)


def _select_last_activations(activations, sequence_lengths):
  """`activations[i, sequence_lengths[i] - 1, :]` for each i ([batch, k]); the last step when lengths are None."""
  with V1.name_scope("select_last_activations", values=[activations, sequence_lengths]):
    activations_shape = tf.shape(activations)
    batch_size = activations_shape[0]
    padded_length = activations_shape[1]
    output_units = activations_shape[2]
    if sequence_lengths is None:
      sequence_lengths = padded_length
    start_indices = tf.cast(tf.range(batch_size) * padded_length, tf.int64)
    last_indices = start_indices + sequence_lengths - 1
    reshaped_activations = tf.reshape(activations, [batch_size * padded_length, output_units])
    last_activations = tf.gather(reshaped_activations, last_indices)
    last_activations.set_shape([activations.shape[0], activations.shape[2]])
    return last_activations


def _rnn_logit_fn_builder(output_units, rnn_cell_fn, sequence_feature_columns, context_feature_columns,
                          input_layer_partitioner, return_sequences=False):
  """A `logit_fn(features, mode)` returning (logits, sequence length mask); ValueError if output_units isn't an int."""
  if not isinstance(output_units, int):
    raise ValueError("output_units must be an int.  Given type: {}".format(type(output_units)))

  def rnn_logit_fn(features, mode):
    with V1.variable_scope("sequence_input_layer", values=tuple(features.values()),
                           partitioner=input_layer_partitioner):
      sequence_input, sequence_length = feature_column.sequence_input_layer(
          features=features, feature_columns=sequence_feature_columns)
      V1.summary.histogram("sequence_length", sequence_length)
      if context_feature_columns:
        context_input = V1.feature_column.input_layer(features=features, feature_columns=context_feature_columns)
        sequence_input = _concatenate_context_input(sequence_input, context_input)

    cell = rnn_cell_fn(mode)
    rnn_outputs, _ = V1.nn.dynamic_rnn(cell=cell, inputs=sequence_input, sequence_length=sequence_length,
                                       dtype=tf.float32, time_major=False)  # the output state is not used
    if not return_sequences:
      rnn_outputs = _select_last_activations(rnn_outputs, sequence_length)

    with V1.variable_scope("logits", values=(rnn_outputs,)):
      logits = _layers.dense(rnn_outputs, units=output_units, activation=None,
                             kernel_initializer=V1.glorot_uniform_initializer())
    sequence_length_mask = tf.sequence_mask(sequence_length)
    return logits, sequence_length_mask

  return rnn_logit_fn


def _rnn_model_fn(features, labels, mode, head, rnn_cell_fn, sequence_feature_columns, context_feature_columns,
                  return_sequences=False, optimizer="Adagrad", input_layer_partitioner=None, config=None):
  """TF 1.15's recurrent model_fn: the head's EstimatorSpec over the RNN's logits."""
  if not isinstance(features, dict):
    raise ValueError("features should be a dictionary of `Tensor`s. Given type: {}".format(type(features)))

  # Without an optimizer instance: the named one with the default learning rate and gradient clipping.
  if not isinstance(optimizer, V1.train.Optimizer):
    optimizer = optimizers.get_optimizer_instance(optimizer, learning_rate=_DEFAULT_LEARNING_RATE)
    optimizer = extenders.clip_gradients_by_norm(optimizer, _DEFAULT_CLIP_NORM)  # TF 1.15: as listed

  num_ps_replicas = config.num_ps_replicas if config else 0
  partitioner = V1.min_max_variable_partitioner(max_partitions=num_ps_replicas)
  with V1.variable_scope("rnn", values=tuple(features.values()), partitioner=partitioner):
    input_layer_partitioner = input_layer_partitioner or (
        V1.min_max_variable_partitioner(max_partitions=num_ps_replicas, min_slice_size=64 << 20))

    logit_fn = _rnn_logit_fn_builder(
        output_units=head.logits_dimension, rnn_cell_fn=rnn_cell_fn,
        sequence_feature_columns=sequence_feature_columns, context_feature_columns=context_feature_columns,
        input_layer_partitioner=input_layer_partitioner, return_sequences=return_sequences)
    logits, sequence_length_mask = logit_fn(features=features, mode=mode)

    def _train_op_fn(loss):
      return optimizer.minimize(loss, global_step=V1.train.get_global_step())

    if return_sequences and head.input_sequence_mask_key not in features:
      features[head.input_sequence_mask_key] = sequence_length_mask
    return head.create_estimator_spec(features=features, mode=mode, labels=labels, train_op_fn=_train_op_fn,
                                      logits=logits)


def _assert_rnn_cell_fn(rnn_cell_fn, num_units, cell_type):
  """The `rnn_cell_fn` to use; ValueError when it is given together with num_units or cell_type."""
  if rnn_cell_fn and (num_units or cell_type != USE_DEFAULT):
    raise ValueError("num_units and cell_type must not be specified when using rnn_cell_fn")
  if not rnn_cell_fn:
    if cell_type == USE_DEFAULT:
      cell_type = "basic_rnn"
    rnn_cell_fn = _make_rnn_cell_fn(num_units, cell_type)
  return rnn_cell_fn


class RNNClassifier(estimator.Estimator):
  """TF 1.15's contrib RNN classifier: softmax (or, for 2 classes, logistic) loss over the last RNN output.

  Args:
    sequence_feature_columns: sequence columns (`tf.contrib.feature_column.sequence_*`, or embedding /
      indicator columns of sequence categorical columns).
    context_feature_columns: dense columns appended to every step.
    num_units: hidden units per RNN layer (with `cell_type`; not with `rnn_cell_fn`).
    cell_type: an RNNCell subclass or 'basic_rnn' (the default), 'lstm', 'gru'.
    rnn_cell_fn: `fn(mode)` returning an RNNCell (instead of num_units / cell_type).
    model_dir, config: as for `tf.estimator.Estimator`.
    n_classes, weight_column, label_vocabulary, loss_reduction: the head's (as tf.estimator.DNNClassifier's).
    optimizer: a `tf.train.Optimizer`, or a name ('Adagrad') used at learning rate 0.05 with clipping at 5.0.
    input_layer_partitioner: partitioner of the input layer (default min-max, 64 MB slices).

  Raises:
    ValueError: rnn_cell_fn given with num_units or cell_type.
  """

  def __init__(self, sequence_feature_columns, context_feature_columns=None, num_units=None,
               cell_type=USE_DEFAULT, rnn_cell_fn=None, model_dir=None, n_classes=2, weight_column=None,
               label_vocabulary=None, optimizer="Adagrad", loss_reduction=V1.losses.Reduction.SUM_OVER_BATCH_SIZE,
               input_layer_partitioner=None, config=None):
    rnn_cell_fn = _assert_rnn_cell_fn(rnn_cell_fn, num_units, cell_type)
    head = head_lib._binary_logistic_or_multi_class_head(n_classes, weight_column, label_vocabulary,
                                                         loss_reduction)

    def _model_fn(features, labels, mode, config):
      return _rnn_model_fn(
          features=features, labels=labels, mode=mode, head=head, rnn_cell_fn=rnn_cell_fn,
          sequence_feature_columns=tuple(sequence_feature_columns or []),
          context_feature_columns=tuple(context_feature_columns or []), return_sequences=False,
          optimizer=optimizer, input_layer_partitioner=input_layer_partitioner, config=config)

    super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config)


class RNNEstimator(estimator.Estimator):
  """TF 1.15's contrib RNN estimator with a given head (loss and outputs are the head's).

  Args:
    head: a head (`tf.contrib.estimator.*_head`, or a sequential head when `return_sequences`).
    sequence_feature_columns, context_feature_columns, num_units, cell_type, rnn_cell_fn, model_dir,
      optimizer, input_layer_partitioner, config: as for `RNNClassifier`.
    return_sequences: give the head every step's logits (it must then be a sequential head).

  Raises:
    ValueError: rnn_cell_fn given with num_units or cell_type; return_sequences without a sequential head.
  """

  def __init__(self, head, sequence_feature_columns, context_feature_columns=None, num_units=None,
               cell_type=USE_DEFAULT, rnn_cell_fn=None, return_sequences=False, model_dir=None,
               optimizer="Adagrad", input_layer_partitioner=None, config=None):
    rnn_cell_fn = _assert_rnn_cell_fn(rnn_cell_fn, num_units, cell_type)
    if return_sequences and not isinstance(head, seq_head_lib._SequentialHead):
      raise ValueError("Provided head must be a `_SequentialHead` object when `return_sequences` is set to True.")

    def _model_fn(features, labels, mode, config):
      return _rnn_model_fn(
          features=features, labels=labels, mode=mode, head=head, rnn_cell_fn=rnn_cell_fn,
          sequence_feature_columns=tuple(sequence_feature_columns or []),
          context_feature_columns=tuple(context_feature_columns or []), return_sequences=return_sequences,
          optimizer=optimizer, input_layer_partitioner=input_layer_partitioner, config=config)

    super().__init__(model_fn=_model_fn, model_dir=model_dir, config=config)

