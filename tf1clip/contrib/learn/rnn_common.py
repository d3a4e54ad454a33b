"""contrib.learn's rnn_common: TF 1.15's shared pieces of its RNN estimators (cells, masks, predictions, metrics).

Place in the data flow (DESIGN.md): contrib.rnn (tf-keras' legacy cells), tf_slim (metrics) <-
**contrib.learn.rnn_common** <- contrib.learn.dynamic_rnn_estimator <- compat <- cli.

TF 1.15's code (contrib/learn/python/learn/estimators/rnn_common.py) on tf.compat.v1: `RNNKeys`,
`PredictionType`, `construct_rnn_cell` / `apply_dropout` (contrib.rnn's BasicRNNCell / LSTMCell / GRUCell,
MultiRNNCell, DropoutWrapper: the same variable names, `rnn/multi_rnn_cell/cell_0/lstm_cell/kernel`),
`select_last_activations`, `mask_activations_and_labels`, `multi_value_predictions` and
`get_eval_metric_ops` (contrib.metrics' streaming_accuracy, i.e. tf-slim's).
"""

import tf1clip.contrib.learn.constants as constants
import tf1clip.contrib.learn.prediction_key as prediction_key


class RNNKeys(object):
  FINAL_STATE_KEY = "final_state"
  LABELS_KEY = "__labels__"
  SEQUENCE_LENGTH_KEY = "sequence_length"
  STATE_PREFIX = "rnn_cell_state"


class PredictionType(object):
  """Enum-like values for the type of prediction that the model makes."""
  SINGLE_VALUE = 1
  MULTIPLE_VALUE = 2


def _cell_types():
  import tf1clip.contrib.rnn as contrib_rnn  # pylint: disable=import-outside-toplevel
  return {"basic_rnn": contrib_rnn.BasicRNNCell, "lstm": contrib_rnn.LSTMCell, "gru": contrib_rnn.GRUCell}


def _get_single_cell(cell_type, num_units):
  """An `RNNCell` of `num_units` from a name ('basic_rnn', 'lstm', 'gru') or an `RNNCell` subclass."""
  import tf1clip.contrib.rnn as contrib_rnn  # pylint: disable=import-outside-toplevel
  cell_types = _cell_types()
  cell_type = cell_types.get(cell_type, cell_type)
  if not cell_type or not issubclass(cell_type, contrib_rnn.RNNCell):  # a string there: TypeError, as in TF 1.15
    raise ValueError("The supported cell types are {}; got {}".format(list(cell_types.keys()), cell_type))
  return cell_type(num_units=num_units)


def construct_rnn_cell(num_units, cell_type="basic_rnn", dropout_keep_probabilities=None):
  """Constructs cells, applies dropout and assembles a `MultiRNNCell` (the cell DynamicRnnEstimator uses)."""
  import tf1clip.contrib.rnn as contrib_rnn  # pylint: disable=import-outside-toplevel
  if not isinstance(num_units, (list, tuple)):
    num_units = (num_units,)
  cells = [_get_single_cell(cell_type, n) for n in num_units]
  if dropout_keep_probabilities:
    cells = apply_dropout(cells, dropout_keep_probabilities)
  if len(cells) == 1:
    return cells[0]
  return contrib_rnn.MultiRNNCell(cells)


def apply_dropout(cells, dropout_keep_probabilities, random_seed=None):
  """Wraps `cells` in DropoutWrappers; `dropout_keep_probabilities` has one entry more than `cells`."""
  import tf1clip.contrib.rnn as contrib_rnn  # pylint: disable=import-outside-toplevel
  if len(dropout_keep_probabilities) != len(cells) + 1:
    raise ValueError(
        "The number of dropout probabilities must be one greater than the "
        "number of cells. Got {} cells and {} dropout probabilities.".format(
            len(cells), len(dropout_keep_probabilities)))
  wrapped_cells = [
      contrib_rnn.DropoutWrapper(cell, prob, 1.0, seed=random_seed)
      for cell, prob in zip(cells[:-1], dropout_keep_probabilities[:-2])]
  wrapped_cells.append(contrib_rnn.DropoutWrapper(cells[-1], dropout_keep_probabilities[-2],
                                                  dropout_keep_probabilities[-1]))
  return wrapped_cells


def get_eval_metric_ops(problem_type, prediction_type, sequence_length, prediction_dict, labels):
  """The eval metric ops ("accuracy" for classification, masked by `sequence_length` for multi-value)."""
  import tf_slim  # pylint: disable=import-outside-toplevel
  eval_metric_ops = {}
  if problem_type == constants.ProblemType.CLASSIFICATION:
    if prediction_type == PredictionType.MULTIPLE_VALUE:
      mask_predictions, mask_labels = mask_activations_and_labels(
          prediction_dict[prediction_key.PredictionKey.CLASSES], labels, sequence_length)
      eval_metric_ops["accuracy"] = tf_slim.metrics.streaming_accuracy(
          predictions=mask_predictions, labels=mask_labels)
    elif prediction_type == PredictionType.SINGLE_VALUE:
      eval_metric_ops["accuracy"] = tf_slim.metrics.streaming_accuracy(
          predictions=prediction_dict[prediction_key.PredictionKey.CLASSES], labels=labels)
  return eval_metric_ops


def select_last_activations(activations, sequence_lengths):
  """`output[i, :] = activations[i, sequence_lengths[i] - 1, :]` (the last step when `sequence_lengths` is None)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  with tf.name_scope("select_last_activations", values=[activations, sequence_lengths]):
    activations_shape = tf.shape(activations)
    batch_size = activations_shape[0]
    padded_length = activations_shape[1]
    num_label_columns = activations_shape[2]
    if sequence_lengths is None:
      sequence_lengths = padded_length
    reshaped_activations = tf.reshape(activations, [-1, num_label_columns])
    indices = tf.range(batch_size) * padded_length + sequence_lengths - 1
    last_activations = tf.gather(reshaped_activations, indices)
    last_activations.set_shape([activations.get_shape()[0], activations.get_shape()[2]])
    return last_activations


def mask_activations_and_labels(activations, labels, sequence_lengths):
  """The entries within `sequence_lengths`, flattened: `([sum(lengths), k], [sum(lengths)])`."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  with tf.name_scope("mask_activations_and_labels", values=[activations, labels, sequence_lengths]):
    labels_shape = tf.shape(labels)
    batch_size = labels_shape[0]
    padded_length = labels_shape[1]
    if sequence_lengths is None:
      flattened_dimension = padded_length * batch_size
      activations_masked = tf.reshape(activations, [flattened_dimension, -1])
      labels_masked = tf.reshape(labels, [flattened_dimension])
    else:
      mask = tf.sequence_mask(sequence_lengths, padded_length)
      activations_masked = tf.boolean_mask(activations, mask)
      labels_masked = tf.boolean_mask(labels, mask)
    return activations_masked, labels_masked


def multi_value_predictions(activations, target_column, problem_type, predict_probabilities):
  """Per-step predictions `[batch_size, padded_length]` (and probabilities) of a multi-value model."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  with tf.name_scope("MultiValuePrediction"):
    activations_shape = tf.shape(activations)
    flattened_activations = tf.reshape(activations, [-1, activations_shape[2]])
    prediction_dict = {}
    if predict_probabilities:
      flat_probabilities = target_column.logits_to_predictions(flattened_activations, proba=True)
      flat_predictions = tf.argmax(flat_probabilities, 1)
      if target_column.num_label_columns == 1:
        probability_shape = tf.concat([activations_shape[:2], [2]], 0)
      else:
        probability_shape = activations_shape
      probabilities = tf.reshape(flat_probabilities, probability_shape,
                                 name=prediction_key.PredictionKey.PROBABILITIES)
      prediction_dict[prediction_key.PredictionKey.PROBABILITIES] = probabilities
    else:
      flat_predictions = target_column.logits_to_predictions(flattened_activations, proba=False)
    predictions_name = (prediction_key.PredictionKey.CLASSES
                        if problem_type == constants.ProblemType.CLASSIFICATION
                        else prediction_key.PredictionKey.SCORES)
    predictions = tf.reshape(flat_predictions, [activations_shape[0], activations_shape[1]],
                             name=predictions_name)
    prediction_dict[predictions_name] = predictions
    return prediction_dict

