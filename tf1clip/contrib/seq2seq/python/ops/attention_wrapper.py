"""`tf.contrib.seq2seq.AttentionWrapper` and `AttentionWrapperState` (TF 1.15).

Place in the data flow (DESIGN.md): cell (contrib.rnn) + attention mechanisms
(attention_mechanisms) -> **AttentionWrapper** (an RNNCell) -> BasicDecoder / BeamSearchDecoder ->
dynamic_decode. Each step: cell input = cell_input_fn(inputs, previous attention); run the cell;
query every mechanism with the cell output; attention = attention_layer([cell_output; context])
(or the context alone). It is a tf-keras legacy RNNCell named "attention_wrapper", so under
dynamic_decode its variables are `decoder/attention_wrapper/<cell>/...`,
`decoder/attention_wrapper/bahdanau_attention/...` and `decoder/attention_wrapper/attention_layer/kernel`,
as in TF 1.15.
"""

import collections

import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cells
from tf_keras.src.legacy_tf_layers import core as legacy_layers

from tf1clip.contrib.seq2seq.python.ops._attention_mechanisms import AttentionMechanism
from tf1clip.contrib.seq2seq.python.ops._attention_mechanisms import zero_state_tensors
from tf1clip.contrib.seq2seq.python.ops.basic_decoder import check_rnn_cell

_V1 = tf.compat.v1


class AttentionWrapperState(collections.namedtuple("AttentionWrapperState", (
    "cell_state", "attention", "time", "alignments", "alignment_history", "attention_state"))):
  """The AttentionWrapper's state.

  Fields: cell_state (the wrapped cell's state), attention ([batch, attention size], the last
  output attention), time (int32 scalar step), alignments (per mechanism, [batch, memory length]),
  alignment_history (per mechanism, a TensorArray of every step's alignments when
  `alignment_history=True`, else ()), attention_state (per mechanism, its state).
  """

  def clone(self, **kwargs):
    """A copy with fields replaced, each new Tensor keeping the old one's static shape.

    The usual use: `decoder_cell.zero_state(batch, dtype).clone(cell_state=encoder_state)`.

    Args:
      **kwargs: fields to replace.

    Returns:
      A new AttentionWrapperState.

    Raises:
      ValueError: if a new Tensor's shape is incompatible with the old one's.
    """
    def with_same_shape(old, new):
      if isinstance(old, tf.Tensor) and isinstance(new, tf.Tensor) and new is not old:
        if not old.shape.is_compatible_with(new.shape):
          raise ValueError("AttentionWrapperState.clone: the new value %s has shape %s, "
                           "incompatible with the old %s." % (new.name if hasattr(new, "name")
                                                              else new, new.shape, old.shape))
        if tf.executing_eagerly():
          return new
        return tf.ensure_shape(new, old.shape)
      return new

    return tf.nest.map_structure(with_same_shape, self, super()._replace(**kwargs))


def _compute_attention(attention_mechanism, cell_output, attention_state, attention_layer):
  """One mechanism's `(attention, alignments, next_attention_state)` for the query `cell_output`."""
  alignments, next_attention_state = attention_mechanism(cell_output, state=attention_state)
  context = tf.squeeze(tf.matmul(tf.expand_dims(alignments, 1), attention_mechanism.values), [1])
  if attention_layer is not None:
    attention = attention_layer(tf.concat([cell_output, context], 1))
  else:
    attention = context
  return attention, alignments, next_attention_state


class AttentionWrapper(legacy_cells.RNNCell):
  """Wraps an RNNCell with one or more attention mechanisms (TF 1.15 semantics and names)."""

  def __init__(self, cell, attention_mechanism, attention_layer_size=None,
               alignment_history=False, cell_input_fn=None, output_attention=True,
               initial_cell_state=None, name=None, attention_layer=None, attention_fn=None,
               dtype=None):
    """Creates the wrapper.

    Args:
      cell: the RNNCell to wrap.
      attention_mechanism: an AttentionMechanism, or a list of them (multi-head: the state's
        per-mechanism fields become tuples and the attentions are concatenated).
      attention_layer_size: optional int (or list, one per mechanism): the attention is
        `Dense(size, use_bias=False, name="attention_layer")([cell_output; context])`; without it
        (and without `attention_layer`) the attention is the context itself.
      alignment_history: keep every step's alignments in a TensorArray in the state.
      cell_input_fn: `(inputs, attention) -> cell inputs`; default concatenation on the last axis.
      output_attention: output the attention (Luong style, default) instead of the cell output
        (Bahdanau style).
      initial_cell_state: optional cell state `zero_state` returns instead of the cell's zeros.
      name: the cell's name; default "attention_wrapper".
      dtype: the cell's dtype (as TF 1.15's `dtype` argument of the layer).
      attention_layer: optional layer (or list) used instead of `attention_layer_size`.
      attention_fn: optional `(mechanism, cell_output, attention_state, attention_layer) ->
        (attention, alignments, next_attention_state)`.

    Raises:
      TypeError: if cell, a mechanism or cell_input_fn has the wrong type.
      ValueError: if both attention_layer_size and attention_layer are given, or their count does
        not match the mechanisms'.
    """
    super().__init__(name=name, dtype=dtype)
    check_rnn_cell("cell", cell)
    if isinstance(attention_mechanism, (list, tuple)):
      self._is_multi = True
      attention_mechanisms = tuple(attention_mechanism)
      for mechanism in attention_mechanisms:
        if not isinstance(mechanism, AttentionMechanism):
          raise TypeError("attention_mechanism must contain only instances of "
                          "AttentionMechanism, saw type: %s" % type(mechanism).__name__)
    else:
      self._is_multi = False
      if not isinstance(attention_mechanism, AttentionMechanism):
        raise TypeError("attention_mechanism must be an AttentionMechanism or list of multiple "
                        "AttentionMechanism instances, saw type: %s"
                        % type(attention_mechanism).__name__)
      attention_mechanisms = (attention_mechanism,)

    if cell_input_fn is None:
      cell_input_fn = lambda inputs, attention: tf.concat([inputs, attention], -1)
    elif not callable(cell_input_fn):
      raise TypeError("cell_input_fn must be callable, saw type: %s"
                      % type(cell_input_fn).__name__)

    if attention_layer_size is not None and attention_layer is not None:
      raise ValueError("Only one of attention_layer_size and attention_layer should be set")
    if attention_layer_size is not None:
      sizes = tuple(attention_layer_size if isinstance(attention_layer_size, (list, tuple))
                    else (attention_layer_size,))
      if len(sizes) != len(attention_mechanisms):
        raise ValueError("If provided, attention_layer_size must contain exactly one integer per "
                         "attention_mechanism, saw: %d vs %d"
                         % (len(sizes), len(attention_mechanisms)))
      self._attention_layers = tuple(
          legacy_layers.Dense(size, name="attention_layer", use_bias=False,
                              dtype=attention_mechanisms[i].dtype)
          for i, size in enumerate(sizes))
      self._attention_layer_size = sum(sizes)
    elif attention_layer is not None:
      self._attention_layers = tuple(attention_layer if isinstance(attention_layer, (list, tuple))
                                     else (attention_layer,))
      if len(self._attention_layers) != len(attention_mechanisms):
        raise ValueError("If provided, attention_layer must contain exactly one layer per "
                         "attention_mechanism, saw: %d vs %d"
                         % (len(self._attention_layers), len(attention_mechanisms)))
      self._attention_layer_size = sum(
          tf.compat.dimension_value(layer.compute_output_shape(
              [None, cell.output_size + tf.compat.dimension_value(mechanism.values.shape[-1])])[-1])
          for layer, mechanism in zip(self._attention_layers, attention_mechanisms))
    else:
      self._attention_layers = None
      self._attention_layer_size = sum(
          tf.compat.dimension_value(mechanism.values.shape[-1])
          for mechanism in attention_mechanisms)

    self._attention_fn = attention_fn or _compute_attention
    self._cell = cell
    self._attention_mechanisms = attention_mechanisms
    self._cell_input_fn = cell_input_fn
    self._output_attention = output_attention
    self._alignment_history = alignment_history
    with _V1.name_scope(name, "AttentionWrapperInit"):
      if initial_cell_state is None:
        self._initial_cell_state = None
      else:
        final_state_tensor = tf.nest.flatten(initial_cell_state)[-1]
        state_batch_size = (tf.compat.dimension_value(final_state_tensor.shape[0])
                            or tf.shape(final_state_tensor)[0])
        message = ("When constructing AttentionWrapper %s: Non-matching batch sizes between the "
                   "memory (encoder output) and initial_cell_state.  Are you using the "
                   "BeamSearchDecoder?  You may need to tile your initial state via the "
                   "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width."
                   % self.name)
        with tf.control_dependencies(self._batch_size_checks(state_batch_size, message)):
          self._initial_cell_state = tf.nest.map_structure(
              lambda s: tf.identity(s, name="check_initial_cell_state"), initial_cell_state)

  def _batch_size_checks(self, batch_size, message):
    return [tf.debugging.assert_equal(batch_size, mechanism.batch_size, message=message)
            for mechanism in self._attention_mechanisms]

  def _item_or_tuple(self, seq):
    t = tuple(seq)
    return t if self._is_multi else t[0]

  @property
  def output_size(self):
    return self._attention_layer_size if self._output_attention else self._cell.output_size

  @property
  def state_size(self):
    return AttentionWrapperState(
        cell_state=self._cell.state_size,
        time=tf.TensorShape([]),
        attention=self._attention_layer_size,
        alignments=self._item_or_tuple(a.alignments_size for a in self._attention_mechanisms),
        attention_state=self._item_or_tuple(a.state_size for a in self._attention_mechanisms),
        alignment_history=self._item_or_tuple(
            a.alignments_size if self._alignment_history else ()
            for a in self._attention_mechanisms))

  def zero_state(self, batch_size, dtype):
    """The initial AttentionWrapperState for `batch_size` entries.

    The cell state is `initial_cell_state` when given, else the cell's zeros; alignments are each
    mechanism's initial alignments; attention is zeros. Use `.clone(cell_state=...)` to start
    from an encoder state.

    Args:
      batch_size: int or int32 scalar; must equal the memory's batch size (times beam_width when
        decoding with BeamSearchDecoder and a tiled memory).
      dtype: the state's dtype.

    Returns:
      An AttentionWrapperState.
    """
    with _V1.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
      if self._initial_cell_state is not None:
        cell_state = self._initial_cell_state
      else:
        cell_state = self._cell.get_initial_state(batch_size=batch_size, dtype=dtype)
      message = ("When calling zero_state of AttentionWrapper %s: Non-matching batch sizes "
                 "between the memory (encoder output) and the requested batch size.  Are you "
                 "using the BeamSearchDecoder?  If so, make sure your encoder output has been "
                 "tiled to beam_width via tf.contrib.seq2seq.tile_batch, and the batch_size= "
                 "argument passed to zero_state is batch_size * beam_width." % self.name)
      with tf.control_dependencies(self._batch_size_checks(batch_size, message)):
        cell_state = tf.nest.map_structure(lambda s: tf.identity(s, name="checked_cell_state"),
                                           cell_state)
      initial_alignments = [m.initial_alignments(batch_size, dtype)
                            for m in self._attention_mechanisms]
      return AttentionWrapperState(
          cell_state=cell_state,
          time=tf.zeros([], dtype=tf.int32),
          attention=zero_state_tensors(self._attention_layer_size, batch_size, dtype),
          alignments=self._item_or_tuple(initial_alignments),
          attention_state=self._item_or_tuple(m.initial_state(batch_size, dtype)
                                              for m in self._attention_mechanisms),
          alignment_history=self._item_or_tuple(
              tf.TensorArray(dtype, size=0, dynamic_size=True, element_shape=alignment.shape)
              if self._alignment_history else () for alignment in initial_alignments))

  def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
    if inputs is not None:
      batch_size = tf.shape(inputs)[0]
      dtype = inputs.dtype
    return self.zero_state(batch_size, dtype)

  def call(self, inputs, state):
    """One step: `(output, next AttentionWrapperState)`.

    Raises:
      TypeError: if `state` is not an AttentionWrapperState.
    """
    if not isinstance(state, AttentionWrapperState):
      raise TypeError("Expected state to be instance of AttentionWrapperState. Received type %s "
                      "instead." % type(state))
    cell_inputs = self._cell_input_fn(inputs, state.attention)
    cell_output, next_cell_state = self._cell(cell_inputs, state.cell_state)

    cell_batch_size = (tf.compat.dimension_value(cell_output.shape[0])
                       or tf.shape(cell_output)[0])
    message = ("When applying AttentionWrapper %s: Non-matching batch sizes between the memory "
               "(encoder output) and the query (decoder output).  Are you using the "
               "BeamSearchDecoder?  You may need to tile your memory input via the "
               "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width."
               % self.name)
    with tf.control_dependencies(self._batch_size_checks(cell_batch_size, message)):
      cell_output = tf.identity(cell_output, name="checked_cell_output")

    if self._is_multi:
      previous_attention_state = state.attention_state
      previous_alignment_history = state.alignment_history
    else:
      previous_attention_state = [state.attention_state]
      previous_alignment_history = [state.alignment_history]

    all_alignments, all_attentions, all_attention_states, all_histories = [], [], [], []
    for i, mechanism in enumerate(self._attention_mechanisms):
      attention, alignments, next_attention_state = self._attention_fn(
          mechanism, cell_output, previous_attention_state[i],
          self._attention_layers[i] if self._attention_layers else None)
      history = (previous_alignment_history[i].write(state.time, alignments)
                 if self._alignment_history else ())
      all_attention_states.append(next_attention_state)
      all_alignments.append(alignments)
      all_attentions.append(attention)
      all_histories.append(history)

    attention = tf.concat(all_attentions, 1)
    next_state = AttentionWrapperState(
        time=state.time + 1,
        cell_state=next_cell_state,
        attention=attention,
        attention_state=self._item_or_tuple(all_attention_states),
        alignments=self._item_or_tuple(all_alignments),
        alignment_history=self._item_or_tuple(all_histories))
    return (attention if self._output_attention else cell_output), next_state
