"""The two contrib-only RNN cells training scripts used: NASCell and LayerNormBasicLSTMCell.

Both follow TensorFlow 1.15's contrib cells step for step and create the same variables under the cell's scope, so
their checkpoints restore:

  NASCell                 kernel [input, 8 * units], recurrent_kernel [proj or units, 8 * units],
                          bias [8 * units] (use_bias), projection_weights [units, proj] (num_proj)
  LayerNormBasicLSTMCell  kernel [input + units, 4 * units], bias (only without layer_norm), and
                          {input, transform, forget, output, state}/{gamma, beta} [units]
"""

import tensorflow as tf
from absl import logging
from tf_keras.src.layers.rnn import legacy_cells

from tf1clip.contrib.rnn.python.ops._linear import layer_norm

LSTMStateTuple = legacy_cells.LSTMStateTuple


class NASCell(legacy_cells.LayerRNNCell):
  """The recurrent cell found by Neural Architecture Search, with an optional output projection.

  State is an LSTMStateTuple (c, m); output is m (projected to `num_proj` when given).

  References:
    Zoph, Le, "Neural Architecture Search with Reinforcement Learning", ICLR 2017
    (arXiv:1611.01578).
  """

  _NAS_BASE = 8

  def __init__(self, num_units, num_proj=None, use_bias=False, reuse=None, **kwargs):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      num_proj: optional int, the output (and m-state) size after projection.
      use_bias: add a bias to the recurrent pre-activations (default False, as in contrib).
      reuse: reuse the variables of an existing scope.
      **kwargs: name, dtype, trainable, ... (passed to the Layer).
    """
    super().__init__(_reuse=reuse, **kwargs)
    self._num_units = num_units
    self._num_proj = num_proj
    self._use_bias = use_bias
    self._reuse = reuse
    self._state_size = LSTMStateTuple(num_units, num_proj if num_proj is not None else num_units)
    self._output_size = num_proj if num_proj is not None else num_units

  @property
  def state_size(self):
    return self._state_size

  @property
  def output_size(self):
    return self._output_size

  def build(self, inputs_shape):
    input_size = tf.TensorShape(inputs_shape).with_rank(2)[1]
    if input_size is None:
      raise ValueError("NASCell could not infer the input size from the inputs' shape %s"
                       % (inputs_shape,))
    num_proj = self._num_units if self._num_proj is None else self._num_proj
    width = self._NAS_BASE * self._num_units
    # `recurrent_kernel` multiplies the hidden state, `kernel` the inputs.
    self.recurrent_kernel = self.add_weight("recurrent_kernel", [num_proj, width])
    self.kernel = self.add_weight("kernel", [int(input_size), width])
    if self._use_bias:
      self.bias = self.add_weight("bias", shape=[width],
                                  initializer=tf.compat.v1.zeros_initializer())
    if self._num_proj is not None:
      self.projection_weights = self.add_weight("projection_weights",
                                                [self._num_units, self._num_proj])
    self.built = True

  def call(self, inputs, state):
    """One step: returns (new_m, LSTMStateTuple(new_c, new_m))."""
    sigmoid, tanh, relu = tf.sigmoid, tf.tanh, tf.nn.relu
    c_prev, m_prev = state
    m_matrix = tf.matmul(m_prev, self.recurrent_kernel)
    inputs_matrix = tf.matmul(inputs, self.kernel)
    if self._use_bias:
      m_matrix = tf.nn.bias_add(m_matrix, self.bias)
    m = tf.split(m_matrix, self._NAS_BASE, axis=1)
    x = tf.split(inputs_matrix, self._NAS_BASE, axis=1)
    # First layer: eight branches, one pair of (input, state) splits each.
    layer1 = [sigmoid(x[0] + m[0]), relu(x[1] + m[1]), sigmoid(x[2] + m[2]),
              relu(x[3] * m[3]), tanh(x[4] + m[4]), sigmoid(x[5] + m[5]),
              tanh(x[6] + m[6]), sigmoid(x[7] + m[7])]
    l2_0 = tanh(layer1[0] * layer1[1])
    l2_1 = tanh(layer1[2] + layer1[3])
    l2_2 = tanh(layer1[4] * layer1[5])
    l2_3 = sigmoid(layer1[6] + layer1[7])
    l2_0 = tanh(l2_0 + c_prev)  # the cell state enters here
    new_c = l2_0 * l2_1
    l3_1 = tanh(l2_2 + l2_3)
    new_m = tanh(new_c * l3_1)
    if self._num_proj is not None:
      new_m = tf.matmul(new_m, self.projection_weights)
    return new_m, LSTMStateTuple(new_c, new_m)

  def get_config(self):
    config = {"num_units": self._num_units, "num_proj": self._num_proj,
              "use_bias": self._use_bias, "reuse": self._reuse}
    return dict(list(super().get_config().items()) + list(config.items()))


class LayerNormBasicLSTMCell(legacy_cells.RNNCell):
  """A basic LSTM with layer normalization of each gate and the cell, and recurrent dropout.

  Layer normalization is applied before the nonlinearities; dropout (without memory loss)
  drops the candidate update g, never the carried state.

  References:
    Ba, Kiros, Hinton, "Layer Normalization", 2016 (arXiv:1607.06450).
    Semeniuta, Severyn, Barth, "Recurrent Dropout without Memory Loss", 2016 (arXiv:1603.05118).
  """

  def __init__(self, num_units, forget_bias=1.0, input_size=None, activation=tf.tanh,
               layer_norm=True, norm_gain=1.0, norm_shift=0.0, dropout_keep_prob=1.0,
               dropout_prob_seed=None, reuse=None):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      forget_bias: added to the forget gate's pre-activation.
      input_size: deprecated and unused (a warning is logged).
      activation: of the candidate and of the output (default tanh).
      layer_norm: normalize the gates and the new cell state.
      norm_gain, norm_shift: initial gamma and beta of the normalizations.
      dropout_keep_prob: float or scalar Tensor; a float 1.0 disables dropout.
      dropout_prob_seed: optional int seed of the dropout.
      reuse: reuse the variables of an existing scope.
    """
    super().__init__(_reuse=reuse)
    if input_size is not None:
      logging.warning("%s: The input_size parameter is deprecated.", self)
    self._num_units = num_units
    self._activation = activation
    self._forget_bias = forget_bias
    self._keep_prob = dropout_keep_prob
    self._seed = dropout_prob_seed
    self._layer_norm = layer_norm
    self._norm_gain = norm_gain
    self._norm_shift = norm_shift
    self._reuse = reuse

  @property
  def state_size(self):
    return LSTMStateTuple(self._num_units, self._num_units)

  @property
  def output_size(self):
    return self._num_units

  def _norm(self, inp, scope, dtype=tf.float32):
    return layer_norm(inp, scope, self._norm_gain, self._norm_shift, dtype=dtype)

  def _linear(self, args):
    out_size = 4 * self._num_units
    weights = tf.compat.v1.get_variable("kernel", [args.shape[-1], out_size], dtype=args.dtype)
    out = tf.matmul(args, weights)
    if not self._layer_norm:
      bias = tf.compat.v1.get_variable("bias", [out_size], dtype=args.dtype)
      out = tf.nn.bias_add(out, bias)
    return out

  def call(self, inputs, state):
    """One step: returns (new_h, LSTMStateTuple(new_c, new_h))."""
    c, h = state
    args = tf.concat([inputs, h], 1)
    concat = self._linear(args)
    dtype = args.dtype
    i, j, f, o = tf.split(concat, 4, axis=1)
    if self._layer_norm:
      i = self._norm(i, "input", dtype=dtype)
      j = self._norm(j, "transform", dtype=dtype)
      f = self._norm(f, "forget", dtype=dtype)
      o = self._norm(o, "output", dtype=dtype)
    g = self._activation(j)
    if not isinstance(self._keep_prob, float) or self._keep_prob < 1:
      g = tf.nn.dropout(g, rate=1 - self._keep_prob, seed=self._seed)
    new_c = c * tf.sigmoid(f + self._forget_bias) + tf.sigmoid(i) * g
    if self._layer_norm:
      new_c = self._norm(new_c, "state", dtype=dtype)
    new_h = self._activation(new_c) * tf.sigmoid(o)
    return new_h, LSTMStateTuple(new_c, new_h)
