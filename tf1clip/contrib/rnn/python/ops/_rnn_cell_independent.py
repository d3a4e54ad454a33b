"""Six more contrib-only RNN cells of TF 1.15: IndRNNCell, IndyGRUCell, SRUCell, IntersectionRNNCell,
PhasedLSTMCell, GLSTMCell.

Each follows TensorFlow 1.15's contrib cell step for step and creates the same variables under the cell's scope, so
TF 1.15 checkpoints restore:

  IndRNNCell           ind_rnn_cell/kernel_w [input, units], kernel_u [1, units] (uniform in [-1, 1]), bias
  IndyGRUCell          indy_gru_cell/gates/{kernel_w, kernel_u, bias (ones)}, candidate/{kernel, kernel_u, bias}
  SRUCell              sru_cell/kernel [input, 4 * units], bias [2 * units]
  IntersectionRNNCell  kernel [input + units, 4 * units], bias; in_projection/{kernel, bias} (num_in_proj)
  PhasedLSTMCell       mask_gates|new_input|output_gate/{kernel, bias}, period, phase, ratio_on
  GLSTMCell            group<k>/kernel (no bias), bias_i|j|f|o [units], projection/kernel (num_proj)
"""

import tensorflow as tf
from tf_keras.src.engine import input_spec
from tf_keras.src.layers.rnn import legacy_cells

from tf1clip.contrib.rnn.python.ops._linear import linear

LSTMStateTuple = legacy_cells.LSTMStateTuple
V1 = tf.compat.v1


def _depth(inputs_shape, cell_name):
  depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
  if depth is None:
    raise ValueError("Expected inputs.shape[-1] to be known, saw shape: %s (%s)"
                     % (inputs_shape, cell_name))
  return depth


class _UnitState:
  """state_size = output_size = num_units: the cells below whose state is one [batch, num_units] tensor."""

  @property
  def state_size(self):
    return self._num_units

  @property
  def output_size(self):
    return self._num_units


class IndRNNCell(_UnitState, legacy_cells.LayerRNNCell):
  """The independently recurrent cell: h' = act(x kernel_w + h * kernel_u + bias), kernel_u diagonal.

  References:
    Li et al., "Independently Recurrent Neural Network (IndRNN)", CVPR 2018 (arXiv:1803.04831).
  """

  def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None):
    super().__init__(_reuse=reuse, name=name, dtype=dtype)
    self.input_spec = input_spec.InputSpec(ndim=2)
    self._num_units = num_units
    self._activation = activation or tf.tanh

  def build(self, inputs_shape):
    depth = _depth(inputs_shape, "IndRNNCell")
    self._kernel_w = self.add_weight("kernel_w", shape=[depth, self._num_units])
    self._kernel_u = self.add_weight(
        "kernel_u", shape=[1, self._num_units],
        initializer=V1.random_uniform_initializer(minval=-1, maxval=1, dtype=self.dtype))
    self._bias = self.add_weight("bias", shape=[self._num_units],
                                 initializer=V1.zeros_initializer(dtype=self.dtype))
    self.built = True

  def call(self, inputs, state):
    """One step: returns (h, h)."""
    gate_inputs = tf.matmul(inputs, self._kernel_w) + state * self._kernel_u
    output = self._activation(tf.nn.bias_add(gate_inputs, self._bias))
    return output, output


class IndyGRUCell(_UnitState, legacy_cells.LayerRNNCell):
  """A GRU whose recurrent weights are diagonal (each unit sees only its own state).

  [r, u] = sigmoid(x gates/kernel_w + tile(h, 2) * gates/kernel_u + gates/bias);
  c = act(x candidate/kernel + (r * h) * candidate/kernel_u + candidate/bias); h' = u * h + (1 - u) * c.

  References:
    Gonnet, Deselaers, "IndyLSTMs: Independently Recurrent LSTMs", 2019 (arXiv:1903.08023).
  """

  def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
               bias_initializer=None, name=None, dtype=None):
    super().__init__(_reuse=reuse, name=name, dtype=dtype)
    self.input_spec = input_spec.InputSpec(ndim=2)
    self._num_units = num_units
    self._activation = activation or tf.tanh
    self._kernel_initializer = kernel_initializer
    self._bias_initializer = bias_initializer

  def build(self, inputs_shape):
    depth = _depth(inputs_shape, "IndyGRUCell")
    units = self._num_units
    uniform = V1.random_uniform_initializer(minval=-1, maxval=1, dtype=self.dtype)
    self._gate_kernel_w = self.add_weight("gates/kernel_w", shape=[depth, 2 * units],
                                          initializer=self._kernel_initializer)
    self._gate_kernel_u = self.add_weight("gates/kernel_u", shape=[1, 2 * units],
                                          initializer=uniform)
    self._gate_bias = self.add_weight(
        "gates/bias", shape=[2 * units],
        initializer=(self._bias_initializer if self._bias_initializer is not None
                     else V1.constant_initializer(1.0, dtype=self.dtype)))
    self._candidate_kernel_w = self.add_weight("candidate/kernel", shape=[depth, units],
                                               initializer=self._kernel_initializer)
    self._candidate_kernel_u = self.add_weight("candidate/kernel_u", shape=[1, units],
                                               initializer=uniform)
    self._candidate_bias = self.add_weight(
        "candidate/bias", shape=[units],
        initializer=(self._bias_initializer if self._bias_initializer is not None
                     else V1.zeros_initializer(dtype=self.dtype)))
    self.built = True

  def call(self, inputs, state):
    """One step: returns (h, h)."""
    gate_inputs = (tf.matmul(inputs, self._gate_kernel_w)
                   + tf.tile(state, [1, 2]) * self._gate_kernel_u)
    r, u = tf.split(tf.sigmoid(tf.nn.bias_add(gate_inputs, self._gate_bias)), 2, axis=1)
    candidate = (tf.matmul(inputs, self._candidate_kernel_w)
                 + (r * state) * self._candidate_kernel_u)
    c = self._activation(tf.nn.bias_add(candidate, self._candidate_bias))
    new_h = u * state + (1 - u) * c
    return new_h, new_h


class SRUCell(_UnitState, legacy_cells.LayerRNNCell):
  """The Simple Recurrent Unit: gates from the input only, so most of the step parallelizes.

  [x~, f, r, x'] = x kernel; [f, r] = sigmoid([f, r] + bias); c' = f * c + (1 - f) * x~;
  h' = r * act(c') + (1 - r) * x'.

  References:
    Lei et al., "Training RNNs as Fast as CNNs", 2017 (arXiv:1709.02755).
  """

  def __init__(self, num_units, activation=None, reuse=None, name=None, **kwargs):
    super().__init__(_reuse=reuse, name=name, **kwargs)
    self._num_units = num_units
    self._activation = activation or tf.tanh
    self.input_spec = input_spec.InputSpec(ndim=2)

  def build(self, inputs_shape):
    depth = _depth(inputs_shape, "SRUCell")
    self._kernel = self.add_weight("kernel", shape=[depth, 4 * self._num_units])
    self._bias = self.add_weight("bias", shape=[2 * self._num_units],
                                 initializer=V1.zeros_initializer)
    self.built = True

  def call(self, inputs, state):
    """One step: returns (h, c)."""
    x_bar, f_intermediate, r_intermediate, x_tx = tf.split(tf.matmul(inputs, self._kernel), 4, axis=1)
    f_r = tf.sigmoid(tf.nn.bias_add(tf.concat([f_intermediate, r_intermediate], 1), self._bias))
    f, r = tf.split(f_r, 2, axis=1)
    c = f * state + (1.0 - f) * x_bar
    h = r * self._activation(c) + (1.0 - r) * x_tx
    return h, c


class IntersectionRNNCell(_UnitState, legacy_cells.RNNCell):
  """The Intersection RNN: separate state and output streams, each gated (for deep stacks).

  [gh, h, gy, y] = [x, s] kernel + bias; s' = sigmoid(gh + fb) * s + (1 - ...) * tanh(h);
  y' = sigmoid(gy + fb) * x + (1 - ...) * y_activation(y). Inputs of another width than num_units must be
  projected: num_in_proj set projects them (in_projection) to num_units, as TF 1.15 did.

  References:
    Collins, Sohl-Dickstein, Sussillo, "Capacity and Trainability in Recurrent Neural Networks",
    ICLR 2017 (arXiv:1611.09913).
  """

  def __init__(self, num_units, num_in_proj=None, initializer=None, forget_bias=1.0,
               y_activation=tf.nn.relu, reuse=None):
    super().__init__(_reuse=reuse)
    self._num_units = num_units
    self._initializer = initializer
    self._forget_bias = forget_bias
    self._num_input_proj = num_in_proj
    self._y_activation = y_activation

  def call(self, inputs, state):
    """One step: returns (y, s)."""
    input_size = tf.compat.dimension_value(inputs.shape.with_rank(2)[1])
    if input_size is None:
      raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
    with V1.variable_scope(V1.get_variable_scope(), initializer=self._initializer):
      if input_size != self._num_units:
        if not self._num_input_proj:
          raise ValueError("Must have input size == output size for Intersection RNN. To fix, "
                           "num_in_proj should be set to num_units at cell init.")
        with V1.variable_scope("in_projection"):
          inputs = linear(inputs, self._num_units)
      n = self._num_units
      rnn_matrix = linear([inputs, state], 4 * n)
      gh_act, h_act, gy_act, y_act = tf.split(rnn_matrix, 4, axis=1)
      h = tf.tanh(h_act)
      y = self._y_activation(y_act)
      gh = tf.sigmoid(gh_act + self._forget_bias)
      gy = tf.sigmoid(gy_act + self._forget_bias)
      new_state = gh * state + (1.0 - gh) * h
      new_y = gy * inputs + (1.0 - gy) * y
    return new_y, new_state


def _random_exp_initializer(minval, maxval, seed=None, dtype=tf.float32):
  """exp(uniform(log(minval), log(maxval))): periods spread evenly over orders of magnitude."""
  def _initializer(shape, dtype=dtype, partition_info=None):
    del partition_info
    return tf.exp(V1.random_uniform(shape, tf.math.log(minval), tf.math.log(maxval), dtype,
                                    seed=seed))
  return _initializer


class PhasedLSTMCell(legacy_cells.RNNCell):
  """The Phased LSTM: an LSTM whose units update only in the open phase of their own oscillation.

  Inputs are `(time, x)` with time [batch, 1]. Each unit has a `period`, a `phase` and an open ratio
  `ratio_on`; outside the open phase the state leaks at `leak`.

  References:
    Neil, Pfeiffer, Liu, "Phased LSTM: Accelerating Recurrent Network Training for Long or Event-based
    Sequences", NIPS 2016 (arXiv:1610.09513).
  """

  def __init__(self, num_units, use_peepholes=False, leak=0.001, ratio_on=0.1,
               trainable_ratio_on=True, period_init_min=1.0, period_init_max=1000.0, reuse=None):
    super().__init__(_reuse=reuse, autocast=False)
    self._num_units = num_units
    self._use_peepholes = use_peepholes
    self._leak = leak
    self._ratio_on = ratio_on
    self._trainable_ratio_on = trainable_ratio_on
    self._period_init_min = period_init_min
    self._period_init_max = period_init_max

  @property
  def state_size(self):
    return LSTMStateTuple(self._num_units, self._num_units)

  @property
  def output_size(self):
    return self._num_units

  @staticmethod
  def _mod(x, y):
    """mod(x, y) whose gradient is x's (TF 1.15's: the mod's own gradient is not defined)."""
    return tf.stop_gradient(tf.math.mod(x, y) - x) + x

  def _get_cycle_ratio(self, time, phase, period):
    phase = tf.cast(phase, time.dtype)
    period = tf.cast(period, time.dtype)
    return tf.cast(self._mod(time - phase, period) / period, tf.float32)

  def call(self, inputs, state):
    """One step on (time, x): returns (h, LSTMStateTuple(c, h))."""
    c_prev, h_prev = state
    time, x = inputs
    in_mask_gates = [x, h_prev] + ([c_prev] if self._use_peepholes else [])
    with V1.variable_scope("mask_gates"):
      mask_gates = tf.sigmoid(linear(in_mask_gates, 2 * self._num_units))
      input_gate, forget_gate = tf.split(mask_gates, 2, axis=1)
    with V1.variable_scope("new_input"):
      new_input = tf.tanh(linear([x, h_prev], self._num_units))
    new_c = c_prev * forget_gate + input_gate * new_input
    in_out_gate = [x, h_prev] + ([new_c] if self._use_peepholes else [])
    with V1.variable_scope("output_gate"):
      output_gate = tf.sigmoid(linear(in_out_gate, self._num_units))
    new_h = tf.tanh(new_c) * output_gate
    period = V1.get_variable("period", [self._num_units], initializer=_random_exp_initializer(
        self._period_init_min, self._period_init_max))
    phase = V1.get_variable("phase", [self._num_units], initializer=V1.random_uniform_initializer(
        0.0, period.initial_value))
    ratio_on = V1.get_variable("ratio_on", [self._num_units],
                               initializer=V1.constant_initializer(self._ratio_on),
                               trainable=self._trainable_ratio_on)
    cycle_ratio = self._get_cycle_ratio(time, phase, period)
    k_up = 2 * cycle_ratio / ratio_on
    k_down = 2 - k_up
    k_closed = self._leak * cycle_ratio
    k = tf.where(cycle_ratio < ratio_on, k_down, k_closed)
    k = tf.where(cycle_ratio < 0.5 * ratio_on, k_up, k)
    new_c = k * new_c + (1 - k) * c_prev
    new_h = k * new_h + (1 - k) * h_prev
    return new_h, LSTMStateTuple(new_c, new_h)


class GLSTMCell(legacy_cells.RNNCell):
  """The Group LSTM: input and hidden state split into groups, each with its own (smaller) gate matrix.

  References:
    Kuchaiev, Ginsburg, "Factorization Tricks for LSTM Networks", ICLR 2017 workshop (arXiv:1703.10722).
  """

  def __init__(self, num_units, initializer=None, num_proj=None, number_of_groups=1,
               forget_bias=1.0, activation=tf.tanh, reuse=None):
    super().__init__(_reuse=reuse)
    if num_units % number_of_groups != 0:
      raise ValueError("num_units must be divisible by number_of_groups")
    if num_proj and num_proj % number_of_groups != 0:
      raise ValueError("num_proj must be divisible by number_of_groups")
    self._num_units = num_units
    self._initializer = initializer
    self._num_proj = num_proj
    self._forget_bias = forget_bias
    self._activation = activation
    self._number_of_groups = number_of_groups
    self._group_shape = [(num_proj or num_units) // number_of_groups, num_units // number_of_groups]
    self._output_size = num_proj or num_units
    self._state_size = LSTMStateTuple(num_units, self._output_size)

  @property
  def state_size(self):
    return self._state_size

  @property
  def output_size(self):
    return self._output_size

  def call(self, inputs, state):
    """One step: returns (m, LSTMStateTuple(c, m))."""
    c_prev, m_prev = state
    batch_size = tf.compat.dimension_value(inputs.shape[0]) or tf.shape(inputs)[0]
    input_size = tf.compat.dimension_value(inputs.shape[1])
    if input_size is None:
      raise ValueError("input size must be statically known")
    if input_size % self._number_of_groups != 0:
      raise ValueError("input size (%d) must be divisible by number_of_groups (%d)"
                       % (input_size, self._number_of_groups))
    input_group = input_size // self._number_of_groups
    dtype = inputs.dtype
    parts = {"i": [], "j": [], "f": [], "o": []}
    with V1.variable_scope(V1.get_variable_scope(), initializer=self._initializer):
      for group in range(self._number_of_groups):
        with V1.variable_scope("group%d" % group):
          x_g = tf.concat([
              tf.slice(inputs, [0, group * input_group], [batch_size, input_group],
                       name="GLSTM_group%d_input_generation" % group),
              tf.slice(m_prev, [0, group * self._group_shape[0]],
                       [batch_size, self._group_shape[0]],
                       name="GLSTM_group%d_input_generation" % group)], axis=1)
          for key, part in zip("ijfo", tf.split(linear(x_g, 4 * self._group_shape[1], bias=False),
                                                4, axis=1)):
            parts[key].append(part)
      gates = {}
      for key in "ijfo":
        bias = V1.get_variable("bias_" + key, [self._num_units], dtype=dtype,
                               initializer=V1.constant_initializer(0.0, dtype=dtype))
        gates[key] = tf.nn.bias_add(tf.concat(parts[key], axis=1), bias)
    c = (tf.sigmoid(gates["f"] + self._forget_bias) * c_prev
         + tf.sigmoid(gates["i"]) * tf.tanh(gates["j"]))
    m = tf.sigmoid(gates["o"]) * self._activation(c)
    if self._num_proj is not None:
      with V1.variable_scope("projection"):
        m = linear(m, self._num_proj, bias=False)
    return m, LSTMStateTuple(c, m)
