"""`tf.contrib.rnn`'s block cells: LSTMBlockCell, GRUBlockCell and GRUBlockCellV2 on TensorFlow's own kernels.

TensorFlow 2.21 still ships the kernels but not their gradients (TF 1.15 registered them in tf.contrib), so
`register_gradients()` registers them, from LSTMBlockCellGrad / GRUBlockCellGrad, the first time a block cell is
built. It never replaces a gradient someone else registered.

Variables, as TensorFlow 1.15 created them under the cell's scope:
  LSTMBlockCell   lstm_cell/kernel [input + units, 4 * units] (gates i, j, f, o as BasicLSTMCell),
                  lstm_cell/bias [4 * units], w_i_diag / w_f_diag / w_o_diag [units] (use_peephole)
  GRUBlockCell    gru_cell/w_ru [input + units, 2 * units] (the r, u gates), gru_cell/b_ru [2 * units],
                  gru_cell/w_c [input + units, units] (the candidate), gru_cell/b_c [units] (as TF 1.15 names
                  them: tests/oracle/test_rnn_crf_oracle.py compares with TF 1.15's own checkpoint keys)
  GRUBlockCellV2  gru_cell/gates/{kernel, bias}, gru_cell/candidate/{kernel, bias} (GRUCell's names)
"""

import tensorflow as tf
from tensorflow.python.framework import ops
from tf_keras.src.engine import input_spec
from tf_keras.src.layers.rnn import legacy_cells

LSTMStateTuple = legacy_cells.LSTMStateTuple


def _lstm_block_cell_grad(op, *grads):
  """Gradient of the LSTMBlockCell op (TF 1.15's, from the LSTMBlockCellGrad kernel)."""
  x, cs_prev, h_prev, w, wci, wcf, wco, b = op.inputs
  i, cs, f, o, ci, co, _ = op.outputs
  cs_grad, h_grad = grads[1], grads[6]
  input_size = tf.compat.dimension_value(x.shape[1])
  cell_size = tf.compat.dimension_value(cs_prev.shape[1])
  if input_size is None or cell_size is None:
    raise ValueError("LSTMBlockCell's gradient needs static input and cell sizes; got x %s, cs_prev %s"
                     % (x.shape, cs_prev.shape))
  cs_prev_grad, dicfo, wci_grad, wcf_grad, wco_grad = tf.raw_ops.LSTMBlockCellGrad(
      x=x, cs_prev=cs_prev, h_prev=h_prev, w=w, wci=wci, wcf=wcf, wco=wco, b=b, i=i, cs=cs, f=f,
      o=o, ci=ci, co=co, cs_grad=cs_grad, h_grad=h_grad, use_peephole=op.get_attr("use_peephole"))
  xh_grad = tf.matmul(dicfo, w, transpose_b=True)
  x_grad, h_prev_grad = tf.split(xh_grad, [input_size, cell_size], axis=1)
  w_grad = tf.matmul(tf.concat([x, h_prev], 1), dicfo, transpose_a=True)
  b_grad = tf.raw_ops.BiasAddGrad(out_backprop=dicfo)
  return (x_grad, cs_prev_grad, h_prev_grad, w_grad, wci_grad, wcf_grad, wco_grad, b_grad)


def _gru_block_cell_grad(op, *grads):
  """Gradient of the GRUBlockCell op (TF 1.15's, from the GRUBlockCellGrad kernel)."""
  x, h_prev, w_ru, w_c, b_ru, b_c = op.inputs
  r, u, c, _ = op.outputs
  d_h = grads[3]
  d_x, d_h_prev, d_c_bar, d_r_bar_u_bar = tf.raw_ops.GRUBlockCellGrad(
      x=x, h_prev=h_prev, w_ru=w_ru, w_c=w_c, b_ru=b_ru, b_c=b_c, r=r, u=u, c=c, d_h=d_h)
  d_w_ru = tf.matmul(tf.concat([x, h_prev], 1), d_r_bar_u_bar, transpose_a=True)
  d_b_ru = tf.raw_ops.BiasAddGrad(out_backprop=d_r_bar_u_bar)
  d_w_c = tf.matmul(tf.concat([x, h_prev * r], 1), d_c_bar, transpose_a=True)
  d_b_c = tf.raw_ops.BiasAddGrad(out_backprop=d_c_bar)
  return d_x, d_h_prev, d_w_ru, d_w_c, d_b_ru, d_b_c


_GRADIENTS = {"LSTMBlockCell": _lstm_block_cell_grad, "GRUBlockCell": _gru_block_cell_grad}


def register_gradients():
  """Registers the LSTMBlockCell and GRUBlockCell gradients TensorFlow 2.21 lacks (idempotent).

  Returns:
    The op types registered by this call (empty when all were registered already).
  """
  registered = []
  for op_type, grad_fn in _GRADIENTS.items():
    try:
      ops.gradient_registry.lookup(op_type)
    except LookupError:
      tf.RegisterGradient(op_type)(grad_fn)
      registered.append(op_type)
  return registered


def _input_depth(inputs_shape, cell):
  depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape).with_rank(2)[1])
  if depth is None:
    raise ValueError("%s needs the inputs' last dimension to be known; got inputs of shape %s"
                     % (type(cell).__name__, inputs_shape))
  return int(depth)


class LSTMBlockCell(legacy_cells.LayerRNNCell):
  """The LSTM of BasicLSTMCell (optionally with peepholes and cell clipping) as one fused kernel.

  Same weights as `BasicLSTMCell`/`LSTMCell` under the same scope (`lstm_cell/kernel`, `lstm_cell/bias`,
  gates i, j, f, o), so checkpoints move between them; `forget_bias` is added to the forget gate.

  References:
    Zaremba, Sutskever, Vinyals, "Recurrent Neural Network Regularization", 2014 (arXiv:1409.2329).
  """

  def __init__(self, num_units, forget_bias=1.0, cell_clip=None, use_peephole=False, dtype=None,
               reuse=None, name="lstm_cell"):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      forget_bias: float added to the forget gate's pre-activation.
      cell_clip: optional float; the cell state is clipped to [-cell_clip, cell_clip]. None: no clip.
      use_peephole: add the diagonal peephole connections w_i_diag, w_f_diag, w_o_diag.
      dtype: the variables' dtype (default float32).
      reuse: reuse the variables of an existing scope.
      name: the layer's scope name (default "lstm_cell", as LSTMCell's).
    """
    super().__init__(_reuse=reuse, dtype=dtype, name=name)
    self._num_units = num_units
    self._forget_bias = forget_bias
    self._use_peephole = use_peephole
    self._cell_clip = cell_clip if cell_clip is not None else -1
    self.input_spec = input_spec.InputSpec(ndim=2)

  @property
  def state_size(self):
    return LSTMStateTuple(self._num_units, self._num_units)

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    register_gradients()
    input_size = _input_depth(inputs_shape, self)
    self._kernel = self.add_weight("kernel", [input_size + self._num_units, self._num_units * 4])
    self._bias = self.add_weight("bias", [self._num_units * 4],
                                 initializer=tf.compat.v1.constant_initializer(0.0))
    if self._use_peephole:
      self._w_i_diag = self.add_weight("w_i_diag", [self._num_units])
      self._w_f_diag = self.add_weight("w_f_diag", [self._num_units])
      self._w_o_diag = self.add_weight("w_o_diag", [self._num_units])
    self.built = True

  def call(self, inputs, state):
    """One step: returns (h, LSTMStateTuple(cs, h))."""
    if len(state) != 2:
      raise ValueError("LSTMBlockCell expects state to be a (c, h) pair; got %r" % (state,))
    if self._use_peephole:
      wci, wcf, wco = self._w_i_diag, self._w_f_diag, self._w_o_diag
    else:
      wci = wcf = wco = tf.zeros([self._num_units], dtype=inputs.dtype)
    cs_prev, h_prev = state
    _, cs, _, _, _, _, h = tf.raw_ops.LSTMBlockCell(
        x=inputs, cs_prev=cs_prev, h_prev=h_prev, w=self._kernel, wci=wci, wcf=wcf, wco=wco,
        b=self._bias, forget_bias=self._forget_bias, cell_clip=self._cell_clip,
        use_peephole=self._use_peephole)
    return h, LSTMStateTuple(cs, h)


class GRUBlockCell(legacy_cells.LayerRNNCell):
  """GRUCell's step as one fused kernel (TF 1.15's deprecated variable names; see GRUBlockCellV2).

  r, u = sigmoid([x, h] W_ru + b_ru); c = tanh([x, r * h] W_c + b_c); h' = u * h + (1 - u) * c.
  The gate biases start at 1.0, the candidate bias at 0.0, as GRUCell's.

  References:
    Cho et al., "Learning Phrase Representations using RNN Encoder-Decoder for Statistical Machine
    Translation", 2014 (arXiv:1406.1078).
  """

  def __init__(self, num_units=None, cell_size=None, reuse=None, name="gru_cell"):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      cell_size: the deprecated name of `num_units` (give exactly one of the two).
      reuse: reuse the variables of an existing scope.
      name: the layer's scope name (default "gru_cell", as GRUCell's).

    Raises:
      ValueError: both or neither of num_units and cell_size given.
    """
    super().__init__(_reuse=reuse, name=name)
    if (cell_size is None) == (num_units is None):
      raise ValueError("GRUBlockCell takes exactly one of num_units or cell_size; got num_units=%r, "
                       "cell_size=%r" % (num_units, cell_size))
    self._cell_size = num_units if num_units is not None else cell_size
    self.input_spec = input_spec.InputSpec(ndim=2)

  @property
  def state_size(self):
    return self._cell_size

  @property
  def output_size(self):
    return self._cell_size

  def _variable_names(self):
    return "w_ru", "b_ru", "w_c", "b_c"

  def build(self, inputs_shape):
    register_gradients()
    input_size = _input_depth(inputs_shape, self)
    gate_kernel, gate_bias, candidate_kernel, candidate_bias = self._variable_names()
    self._gate_kernel = self.add_weight(gate_kernel, [input_size + self._cell_size, self._cell_size * 2])
    self._gate_bias = self.add_weight(gate_bias, [self._cell_size * 2],
                                      initializer=tf.compat.v1.constant_initializer(1.0))
    self._candidate_kernel = self.add_weight(candidate_kernel,
                                             [input_size + self._cell_size, self._cell_size])
    self._candidate_bias = self.add_weight(candidate_bias, [self._cell_size],
                                           initializer=tf.compat.v1.constant_initializer(0.0))
    self.built = True

  def call(self, inputs, h_prev):
    """One step: returns (h, h)."""
    cell_size = tf.compat.dimension_value(h_prev.shape.with_rank(2)[1])
    if cell_size is not None and cell_size != self._cell_size:
      raise ValueError("GRUBlockCell has %d units but the state h_prev has %s columns"
                       % (self._cell_size, cell_size))
    _, _, _, new_h = tf.raw_ops.GRUBlockCell(
        x=inputs, h_prev=h_prev, w_ru=self._gate_kernel, w_c=self._candidate_kernel,
        b_ru=self._gate_bias, b_c=self._candidate_bias)
    return new_h, new_h


class GRUBlockCellV2(GRUBlockCell):
  """GRUBlockCell with GRUCell's variable names (gates/kernel, gates/bias, candidate/kernel, ...)."""

  def _variable_names(self):
    return "gates/kernel", "gates/bias", "candidate/kernel", "candidate/bias"
