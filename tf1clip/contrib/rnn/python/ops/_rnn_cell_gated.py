"""Three contrib-only gated RNN cells: CoupledInputForgetGateLSTMCell, IndyLSTMCell, UGRNNCell.

Each follows TensorFlow 1.15's contrib cell step for step and creates the same variables under the
cell's scope, so checkpoints restore:

  CoupledInputForgetGateLSTMCell  coupled_input_forget_gate_lstm_cell/W_0 [input + proj, 3 * units]
                                  (W_0..W_{n-1} with num_unit_shards=n), B [3 * units], W_F_diag,
                                  W_O_diag (use_peepholes), W_P_0 [units, proj] (num_proj),
                                  transform|forget|output|state/{gamma, beta} (layer_norm)
  IndyLSTMCell                    indy_lstm_cell/kernel_w [input, 4 * units], kernel_u [1, 4 * units],
                                  bias [4 * units]
  UGRNNCell                       ugrnn_cell/kernel [input + units, 2 * units], bias [2 * units]
"""


import tensorflow as tf
from absl import logging
from tf_keras.src.engine import input_spec
from tf_keras.src.layers.rnn import legacy_cells

from tf1clip.contrib.rnn.python.ops._linear import concat_sharded_variable
from tf1clip.contrib.rnn.python.ops._linear import layer_norm

LSTMStateTuple = legacy_cells.LSTMStateTuple
V1 = tf.compat.v1


def _static_depth(inputs, cell):
  depth = tf.compat.dimension_value(inputs.shape.with_rank(2)[1])
  if depth is None:
    raise ValueError("%s needs the inputs' last dimension to be known; got shape %s"
                     % (type(cell).__name__, inputs.shape))
  return int(depth)


class CoupledInputForgetGateLSTMCell(legacy_cells.RNNCell):
  """An LSTM whose input gate is one minus its forget gate (CIFG), with optional peepholes,
  projection and layer normalization.

  c' = f * c + (1 - f) * act(j), f = sigmoid(f_pre + forget_bias [+ w_f_diag * c]);
  m = sigmoid(o [+ w_o_diag * c']) * act(c'), projected by W_P when num_proj is set.
  As in TF 1.15, `initializer` is accepted but not applied (the scope's initializer is used).

  References:
    Greff et al., "LSTM: A Search Space Odyssey", 2015 (arXiv:1503.04069).
    Sak, Senior, Beaufays, "Long Short-Term Memory Recurrent Neural Network Architectures for
    Large Scale Acoustic Modeling", INTERSPEECH 2014.
  """

  def __init__(self, num_units, use_peepholes=False, initializer=None, num_proj=None,
               proj_clip=None, num_unit_shards=1, num_proj_shards=1, forget_bias=1.0,
               state_is_tuple=True, activation=tf.tanh, reuse=None, layer_norm=False,
               norm_gain=1.0, norm_shift=0.0):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      use_peepholes: add the diagonal peephole connections W_F_diag, W_O_diag.
      initializer: accepted for TF 1.15's signature; unused, as in TF 1.15.
      num_proj: optional int, the output size after the projection W_P.
      proj_clip: optional float; projected outputs are clipped to [-proj_clip, proj_clip].
      num_unit_shards, num_proj_shards: split W / W_P over this many row shards.
      forget_bias: added to the forget gate's pre-activation.
      state_is_tuple: states are LSTMStateTuple(c, m); False concatenates them (deprecated).
      activation: of the candidate and the output (default tanh).
      reuse: reuse the variables of an existing scope.
      layer_norm: layer-normalize j, f, o and the new cell state (then there is no bias).
      norm_gain, norm_shift: initial gamma and beta of the normalizations.
    """
    super().__init__(_reuse=reuse)
    if not state_is_tuple:
      logging.warning("%s: a concatenated state is slower; use state_is_tuple=True.", self)
    self._num_units = num_units
    self._use_peepholes = use_peepholes
    self._initializer = initializer
    self._num_proj = num_proj
    self._proj_clip = proj_clip
    self._num_unit_shards = num_unit_shards
    self._num_proj_shards = num_proj_shards
    self._forget_bias = forget_bias
    self._state_is_tuple = state_is_tuple
    self._activation = activation
    self._layer_norm = layer_norm
    self._norm_gain = norm_gain
    self._norm_shift = norm_shift
    out = num_proj if num_proj else num_units
    self._state_size = LSTMStateTuple(num_units, out) if state_is_tuple else num_units + out
    self._output_size = out

  @property
  def state_size(self):
    return self._state_size

  @property
  def output_size(self):
    return self._output_size

  def call(self, inputs, state):
    """One step: returns (m, LSTMStateTuple(c, m)) (or the concatenated state)."""
    num_proj = self._num_units if self._num_proj is None else self._num_proj
    if self._state_is_tuple:
      c_prev, m_prev = state
    else:
      c_prev = state[:, :self._num_units]
      m_prev = state[:, self._num_units:self._num_units + num_proj]
    dtype = inputs.dtype
    input_size = _static_depth(inputs, self)
    concat_w = concat_sharded_variable("W", [input_size + num_proj, 3 * self._num_units], dtype,
                                        self._num_unit_shards)
    b = V1.get_variable("B", shape=[3 * self._num_units], initializer=V1.zeros_initializer(),
                        dtype=dtype)
    lstm_matrix = tf.matmul(tf.concat([inputs, m_prev], 1), concat_w)
    if not self._layer_norm:
      lstm_matrix = tf.nn.bias_add(lstm_matrix, b)
    j, f, o = tf.split(lstm_matrix, 3, axis=1)
    if self._layer_norm:
      j = layer_norm(j, "transform", self._norm_gain, self._norm_shift)
      f = layer_norm(f, "forget", self._norm_gain, self._norm_shift)
      o = layer_norm(o, "output", self._norm_gain, self._norm_shift)
    if self._use_peepholes:
      w_f_diag = V1.get_variable("W_F_diag", shape=[self._num_units], dtype=dtype)
      w_o_diag = V1.get_variable("W_O_diag", shape=[self._num_units], dtype=dtype)
      f_act = tf.sigmoid(f + self._forget_bias + w_f_diag * c_prev)
    else:
      f_act = tf.sigmoid(f + self._forget_bias)
    c = f_act * c_prev + (1 - f_act) * self._activation(j)
    if self._layer_norm:
      c = layer_norm(c, "state", self._norm_gain, self._norm_shift)
    if self._use_peepholes:
      m = tf.sigmoid(o + w_o_diag * c) * self._activation(c)
    else:
      m = tf.sigmoid(o) * self._activation(c)
    if self._num_proj is not None:
      w_proj = concat_sharded_variable("W_P", [self._num_units, self._num_proj], dtype,
                                        self._num_proj_shards)
      m = tf.matmul(m, w_proj)
      if self._proj_clip is not None:
        m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
    new_state = LSTMStateTuple(c, m) if self._state_is_tuple else tf.concat([c, m], 1)
    return m, new_state


class IndyLSTMCell(legacy_cells.LayerRNNCell):
  """An LSTM whose recurrent weights are diagonal: each unit sees only its own h and c.

  [i, j, f, o] = x kernel_w + tile(h, 4) * kernel_u + bias; c' = sigmoid(f + forget_bias) * c +
  sigmoid(i) * act(j); h' = act(c') * sigmoid(o). kernel_u starts uniform in [-1, 1].

  References:
    Gonnet, Deselaers, "IndyLSTMs: Independently Recurrent LSTMs", 2019 (arXiv:1903.08023).
    Li et al., "Independently Recurrent Neural Network (IndRNN)", 2018 (arXiv:1803.04831).
  """

  def __init__(self, num_units, forget_bias=1.0, activation=None, reuse=None,
               kernel_initializer=None, bias_initializer=None, name=None, dtype=None):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      forget_bias: added to the forget gate's pre-activation.
      activation: of the candidate and the output (default tanh).
      reuse: reuse the variables of an existing scope.
      kernel_initializer: optional initializer of kernel_w.
      bias_initializer: optional initializer of bias (default zeros).
      name: the layer's scope name (default "indy_lstm_cell").
      dtype: the variables' dtype.
    """
    super().__init__(_reuse=reuse, name=name, dtype=dtype)
    self.input_spec = input_spec.InputSpec(ndim=2)
    self._num_units = num_units
    self._forget_bias = forget_bias
    self._activation = activation or tf.tanh
    self._kernel_initializer = kernel_initializer
    self._bias_initializer = bias_initializer

  @property
  def state_size(self):
    return LSTMStateTuple(self._num_units, self._num_units)

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
    if depth is None:
      raise ValueError("IndyLSTMCell needs the inputs' last dimension to be known; got shape %s"
                       % (inputs_shape,))
    self._kernel_w = self.add_weight("kernel_w", shape=[depth, 4 * self._num_units],
                                     initializer=self._kernel_initializer)
    self._kernel_u = self.add_weight(
        "kernel_u", shape=[1, 4 * self._num_units],
        initializer=V1.random_uniform_initializer(minval=-1, maxval=1, dtype=self.dtype))
    self._bias = self.add_weight(
        "bias", shape=[4 * self._num_units],
        initializer=(self._bias_initializer if self._bias_initializer is not None
                     else V1.zeros_initializer(dtype=self.dtype)))
    self.built = True

  def call(self, inputs, state):
    """One step: returns (h, LSTMStateTuple(c, h))."""
    c, h = state
    gate_inputs = tf.matmul(inputs, self._kernel_w) + tf.tile(h, [1, 4]) * self._kernel_u
    gate_inputs = tf.nn.bias_add(gate_inputs, self._bias)
    i, j, f, o = tf.split(gate_inputs, 4, axis=1)
    new_c = c * tf.sigmoid(f + tf.cast(self._forget_bias, f.dtype)) + tf.sigmoid(i) * self._activation(j)
    new_h = self._activation(new_c) * tf.sigmoid(o)
    return new_h, LSTMStateTuple(new_c, new_h)


class UGRNNCell(legacy_cells.RNNCell):
  """The Update Gate RNN: one gate choosing between the old state and a tanh candidate.

  [g, c] = [x, h] kernel + bias; h' = sigmoid(g + forget_bias) * h + (1 - sigmoid(...)) * act(c).

  References:
    Collins, Sohl-Dickstein, Sussillo, "Capacity and Trainability in Recurrent Neural Networks",
    ICLR 2017 (arXiv:1611.09913).
  """

  def __init__(self, num_units, initializer=None, forget_bias=1.0, activation=tf.tanh, reuse=None):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      initializer: optional initializer of the kernel (the scope's initializer otherwise).
      forget_bias: added to the gate's pre-activation.
      activation: of the candidate (default tanh).
      reuse: reuse the variables of an existing scope.
    """
    super().__init__(_reuse=reuse)
    self._num_units = num_units
    self._initializer = initializer
    self._forget_bias = forget_bias
    self._activation = activation

  @property
  def state_size(self):
    return self._num_units

  @property
  def output_size(self):
    return self._num_units

  def call(self, inputs, state):
    """One step: returns (h, h)."""
    input_size = _static_depth(inputs, self)
    with V1.variable_scope(V1.get_variable_scope(), initializer=self._initializer):
      kernel = V1.get_variable("kernel", [input_size + self._num_units, 2 * self._num_units],
                               dtype=inputs.dtype)
      bias = V1.get_variable("bias", [2 * self._num_units], dtype=inputs.dtype,
                             initializer=V1.constant_initializer(0.0))
    rnn_matrix = tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1), kernel), bias)
    g_act, c_act = tf.split(rnn_matrix, 2, axis=1)
    c = self._activation(c_act)
    g = tf.sigmoid(g_act + self._forget_bias)
    new_state = g * state + (1.0 - g) * c
    return new_state, new_state
