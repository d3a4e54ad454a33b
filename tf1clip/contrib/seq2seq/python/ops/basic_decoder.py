"""`tf.contrib.seq2seq.BasicDecoder` and `BasicDecoderOutput`: one RNN cell step, then a Helper.

Place in the data flow (DESIGN.md): cell (contrib.rnn / AttentionWrapper) + Helper (helper) ->
**BasicDecoder** -> dynamic_decode (decoder). Each step runs the cell, the optional output layer
(e.g. `tf.compat.v1.layers.Dense(vocab)`, variables `decoder/dense/kernel`), asks the helper for
the sample ids and the next inputs, as in TF 1.15.
"""

import collections

import tensorflow as tf

from tf1clip.contrib.seq2seq.python.ops import decoder
from tf1clip.contrib.seq2seq.python.ops import helper as helper_py


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput",
                                                ("rnn_output", "sample_id"))):
  """What BasicDecoder emits per step: the (projected) cell output and the helper's sample id."""


def check_rnn_cell(argument, cell):
  """Raises TypeError unless `cell` has what an RNN cell has (TF 1.15's assert_like_rnncell)."""
  missing = [attr for attr in ("output_size", "state_size", "get_initial_state")
             if not hasattr(cell, attr)]
  if not callable(cell):
    missing.append("__call__")
  if missing:
    raise TypeError("The argument %r (%r) is not an RNNCell: it lacks %s."
                    % (argument, cell, ", ".join(missing)))


def check_output_layer(output_layer):
  """Raises TypeError unless `output_layer` is None or a layer (has compute_output_shape)."""
  if output_layer is not None and not (callable(output_layer)
                                       and hasattr(output_layer, "compute_output_shape")):
    raise TypeError("output_layer must be a Layer (e.g. tf.compat.v1.layers.Dense), received: %s"
                    % type(output_layer))


def projected_size(cell_output_size, output_layer):
  """The per-entry output size after `output_layer` (cell_output_size when there is none)."""
  if output_layer is None:
    return cell_output_size
  with_batch = tf.nest.map_structure(
      lambda s: tf.TensorShape([None]).concatenate(decoder.as_shape(s)), cell_output_size)
  layer_shape = output_layer.compute_output_shape(with_batch)
  return tf.nest.map_structure(lambda s: tf.TensorShape(s)[1:], layer_shape)


class BasicDecoder(decoder.Decoder):
  """Basic sampling decoder: `cell` step, `output_layer`, then `helper` (TF 1.15 semantics)."""

  def __init__(self, cell, helper, initial_state, output_layer=None):
    """Creates the decoder.

    Args:
      cell: an RNNCell (tf.contrib.rnn / tf.compat.v1.nn.rnn_cell, AttentionWrapper, ...).
      helper: a `Helper` (TrainingHelper, GreedyEmbeddingHelper, ...).
      initial_state: the cell's initial state (a possibly nested structure of Tensors).
      output_layer: optional layer applied to the cell output before sampling, e.g.
        `tf.compat.v1.layers.Dense(vocab_size, use_bias=False)`.

    Raises:
      TypeError: if `cell`, `helper` or `output_layer` has the wrong type.
    """
    check_rnn_cell("cell", cell)
    if not isinstance(helper, helper_py.Helper):
      raise TypeError("helper must be a tf.contrib.seq2seq Helper, received: %s" % type(helper))
    check_output_layer(output_layer)
    self._cell = cell
    self._helper = helper
    self._initial_state = initial_state
    self._output_layer = output_layer

  @property
  def batch_size(self):
    return self._helper.batch_size

  def _rnn_output_size(self):
    return projected_size(self._cell.output_size, self._output_layer)

  @property
  def output_size(self):
    return BasicDecoderOutput(rnn_output=self._rnn_output_size(),
                              sample_id=self._helper.sample_ids_shape)

  @property
  def output_dtype(self):
    # The state's dtype stands for the cell's: TF 1.15 does the same.
    dtype = tf.nest.flatten(self._initial_state)[0].dtype
    return BasicDecoderOutput(tf.nest.map_structure(lambda _: dtype, self._rnn_output_size()),
                              self._helper.sample_ids_dtype)

  def initialize(self, name=None):
    """Returns `(finished, first_inputs, initial_state)` from the helper and `initial_state`."""
    return self._helper.initialize() + (self._initial_state,)

  def step(self, time, inputs, state, name=None):
    """One step: `(BasicDecoderOutput, next_state, next_inputs, finished)`."""
    with tf.compat.v1.name_scope(name, "BasicDecoderStep", (time, inputs, state)):
      cell_outputs, cell_state = self._cell(inputs, state)
      if self._output_layer is not None:
        cell_outputs = self._output_layer(cell_outputs)
      sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
      finished, next_inputs, next_state = self._helper.next_inputs(
          time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
    return BasicDecoderOutput(cell_outputs, sample_ids), next_state, next_inputs, finished
