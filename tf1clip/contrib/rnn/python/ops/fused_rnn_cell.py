"""`tf.contrib.rnn`'s fused (whole-sequence) RNNs: LSTMBlockFusedCell and the fused-cell adaptors.

A fused cell runs a whole time-major sequence in one call:
  outputs, (c, h) = fused_cell(inputs [time, batch, depth] or a list of [batch, depth],
                               initial_state=None, dtype=None, sequence_length=None, scope=None)

  FusedRNNCell          the abstract interface
  FusedRNNCellAdaptor   any RNNCell as a fused cell (static_rnn, or dynamic_rnn with use_dynamic_rnn)
  TimeReversedFusedRNN  runs a fused cell on the time-reversed inputs (per sequence_length)
  LSTMBlockWrapper      the base of LSTM fused layers: initial state, sequence_length masking
  LSTMBlockFusedCell    BasicLSTMCell's LSTM over the whole sequence in one BlockLSTM op; variables
                        lstm_fused_cell/kernel [depth + units, 4 * units] and lstm_fused_cell/bias
                        (gates i, j, f, o as LSTMBlockCell), w_{i,f,o}_diag with use_peephole
"""

import abc

import tensorflow as tf
from tf_keras.src.engine import input_spec
from tf_keras.src.layers.rnn import legacy_cells
from tf_keras.src.legacy_tf_layers import base as base_layer

LSTMStateTuple = legacy_cells.LSTMStateTuple
V1 = tf.compat.v1


class FusedRNNCell(metaclass=abc.ABCMeta):
  """The interface of a fused RNN: `__call__(inputs, initial_state, dtype, sequence_length, scope)`.

  Subclasses implement `__call__`, returning (outputs, final_state) with outputs shaped like the
  inputs: a [time, batch, output] Tensor, or a list of [batch, output] Tensors for a list input.
  """

  @abc.abstractmethod
  def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """Runs the fused RNN (abstract, as in TF 1.15: FusedRNNCell() raises TypeError)."""


class FusedRNNCellAdaptor(FusedRNNCell):
  """Runs an RNNCell as a fused cell, through static_rnn (default) or dynamic_rnn (time-major)."""

  def __init__(self, cell, use_dynamic_rnn=False):
    """Wraps `cell`.

    Args:
      cell: an RNNCell.
      use_dynamic_rnn: run tf.compat.v1.nn.dynamic_rnn(time_major=True) instead of static_rnn.
    """
    self._cell = cell
    self._use_dynamic_rnn = use_dynamic_rnn

  def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    is_list = isinstance(inputs, list)
    if self._use_dynamic_rnn:
      if is_list:
        inputs = tf.stack(inputs)
      outputs, state = V1.nn.dynamic_rnn(
          self._cell, inputs, sequence_length=sequence_length, initial_state=initial_state,
          dtype=dtype, time_major=True, scope=scope)
      if is_list:
        outputs = tf.unstack(outputs)
    else:
      if not is_list:
        inputs = tf.unstack(inputs)
      outputs, state = V1.nn.static_rnn(
          self._cell, inputs, initial_state=initial_state, dtype=dtype,
          sequence_length=sequence_length, scope=scope)
      if not is_list:
        outputs = tf.stack(outputs)
    return outputs, state


class TimeReversedFusedRNN(FusedRNNCell):
  """Runs a fused cell backwards in time: reverses the inputs, runs, reverses the outputs back.

  A Tensor input is reversed within each sequence's length (tf.reverse_sequence) when
  `sequence_length` is given; a list input is reversed as a whole list (as in TF 1.15).
  """

  def __init__(self, cell):
    """Wraps `cell` (a FusedRNNCell, or an RNNCell, which is first wrapped in FusedRNNCellAdaptor)."""
    if isinstance(cell, legacy_cells.RNNCell):
      cell = FusedRNNCellAdaptor(cell)
    self._cell = cell

  @staticmethod
  def _reverse(t, lengths):
    if isinstance(t, list):
      return list(reversed(t))
    if lengths is None:
      return tf.reverse(t, [0])
    return tf.reverse_sequence(t, lengths, seq_axis=0, batch_axis=1)

  def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    inputs = self._reverse(inputs, sequence_length)
    outputs, state = self._cell(inputs, initial_state=initial_state, dtype=dtype,
                                sequence_length=sequence_length, scope=scope)
    return self._reverse(outputs, sequence_length), state


class LSTMBlockWrapper(base_layer.Layer):
  """The housekeeping of a fused LSTM layer; subclasses give `num_units` and `_call_cell`.

  `_call_cell(inputs, initial_cell_state, initial_output, dtype, sequence_length)` returns the
  [time, batch, units] cell states and outputs; this class makes the zero initial state, masks the
  outputs past each sequence's length and picks each sequence's last valid state.
  """

  @property
  def num_units(self):
    """The number of units (output depth)."""
    raise NotImplementedError("%s must define num_units" % type(self).__name__)

  def _call_cell(self, inputs, initial_cell_state, initial_output, dtype, sequence_length):
    raise NotImplementedError("%s must implement _call_cell" % type(self).__name__)

  def __call__(self, inputs, *args, **kwargs):
    # A list of time steps is stacked before the layer sees it (its input_spec is one 3-D Tensor).
    if isinstance(inputs, list):
      outputs, state = super().__call__(tf.stack(inputs), *args, **kwargs)
      return tf.unstack(outputs), state
    return super().__call__(inputs, *args, **kwargs)

  def call(self, inputs, initial_state=None, dtype=None, sequence_length=None):
    """Runs the LSTM over a time-major sequence.

    Args:
      inputs: [time, batch, depth] Tensor, or a list of time [batch, depth] Tensors.
      initial_state: optional (cell_state, output) pair of [batch, units] Tensors.
      dtype: the state's dtype; required without initial_state.
      sequence_length: optional [batch] int32/int64 lengths; outputs past them are zero and the
        final state is each sequence's last valid one (the initial state for length 0).

    Returns:
      (outputs, LSTMStateTuple(c, h)); outputs a [time, batch, units] Tensor, or a list for a
      list input.

    Raises:
      ValueError: unknown input depth, a malformed initial_state, or neither it nor dtype.
    """
    inputs_shape = inputs.shape.with_rank(3)
    if tf.compat.dimension_value(inputs_shape[2]) is None:
      raise ValueError("%s needs the inputs' depth (dimension 2) to be known; got shape %s"
                       % (type(self).__name__, inputs_shape))
    batch_size = tf.compat.dimension_value(inputs_shape[1])
    if batch_size is None:
      batch_size = tf.shape(inputs)[1]
    time_len = tf.compat.dimension_value(inputs_shape[0])
    if time_len is None:
      time_len = tf.shape(inputs)[0]
    if initial_state is None:
      if dtype is None:
        raise ValueError("%s needs initial_state or dtype" % type(self).__name__)
      zeros = tf.zeros(tf.stack([batch_size, self.num_units]), dtype=dtype)
      initial_state = zeros, zeros
    else:
      if len(initial_state) != 2:
        raise ValueError("initial_state must be a (cell_state, output) pair; got %r" % (initial_state,))
      if dtype is None:
        dtype = initial_state[0].dtype
    if sequence_length is not None:
      sequence_length = tf.convert_to_tensor(sequence_length)
    initial_cell_state, initial_output = initial_state
    cell_states, outputs = self._call_cell(inputs, initial_cell_state, initial_output, dtype,
                                           sequence_length)
    if sequence_length is not None:
      mask = tf.transpose(tf.sequence_mask(sequence_length, time_len, dtype=dtype), [1, 0])
      outputs *= mask[:, :, None]
      # Index 0 is the initial state, so a length-0 sequence keeps it.
      all_states = tf.concat([initial_cell_state[None], cell_states], 0)
      all_outputs = tf.concat([initial_output[None], outputs], 0)
      indices = tf.stack([tf.cast(sequence_length, tf.int32), tf.range(batch_size)], axis=1)
      final_cell_state = tf.gather_nd(all_states, indices)
      final_output = tf.gather_nd(all_outputs, indices)
    else:
      final_cell_state = cell_states[-1]
      final_output = outputs[-1]
    return outputs, LSTMStateTuple(final_cell_state, final_output)


class LSTMBlockFusedCell(LSTMBlockWrapper):
  """BasicLSTMCell's LSTM over a whole time-major sequence in one BlockLSTM op.

  References:
    Zaremba, Sutskever, Vinyals, "Recurrent Neural Network Regularization", 2014 (arXiv:1409.2329).
  """

  def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False, reuse=None,
               dtype=None, name="lstm_fused_cell"):
    """Creates the layer.

    Args:
      num_units: int, the number of units.
      forget_bias: float added to the forget gate's pre-activation.
      cell_clip: optional float clipping the cell state; None: no clipping.
      use_peephole: add the diagonal peephole connections.
      reuse: reuse the variables of an existing scope.
      dtype: the variables' dtype.
      name: the layer's scope name (default "lstm_fused_cell").
    """
    super().__init__(_reuse=reuse, name=name, dtype=dtype)
    self._num_units = num_units
    self._forget_bias = forget_bias
    self._cell_clip = cell_clip if cell_clip is not None else -1
    self._use_peephole = use_peephole
    self.input_spec = input_spec.InputSpec(ndim=3)

  @property
  def num_units(self):
    return self._num_units

  def build(self, input_shape):
    input_size = tf.compat.dimension_value(tf.TensorShape(input_shape)[2])
    self._kernel = self.add_weight("kernel", [input_size + self._num_units, self._num_units * 4])
    self._bias = self.add_weight("bias", [self._num_units * 4],
                                 initializer=V1.constant_initializer(0.0))
    if self._use_peephole:
      self._w_i_diag = self.add_weight("w_i_diag", [self._num_units])
      self._w_f_diag = self.add_weight("w_f_diag", [self._num_units])
      self._w_o_diag = self.add_weight("w_o_diag", [self._num_units])
    self.built = True

  def _call_cell(self, inputs, initial_cell_state=None, initial_output=None, dtype=None,
                 sequence_length=None):
    time_len = tf.compat.dimension_value(inputs.shape[0])
    if time_len is None:
      time_len = tf.shape(inputs)[0]
    if self._use_peephole:
      wci, wcf, wco = self._w_i_diag, self._w_f_diag, self._w_o_diag
    else:
      wci = wcf = wco = tf.zeros([self._num_units], dtype=dtype)
    if sequence_length is None:
      max_seq_len = tf.cast(time_len, tf.int64)
    else:
      max_seq_len = tf.cast(tf.reduce_max(sequence_length), tf.int64)
    _, cs, _, _, _, _, h = tf.raw_ops.BlockLSTM(
        seq_len_max=max_seq_len, x=inputs, cs_prev=initial_cell_state, h_prev=initial_output,
        w=self._kernel, wci=wci, wcf=wcf, wco=wco, b=self._bias, forget_bias=self._forget_bias,
        cell_clip=self._cell_clip, use_peephole=self._use_peephole)
    return cs, h
