"""`tf.contrib.rnn.ConvLSTMCell` and its 1D/2D/3D shorthands (Shi et al., "Convolutional LSTM Network", 2015).

Semantics and variables (TF 1.15): the state is an LSTMStateTuple (c, h) of shape `input_shape[:-1] +
[output_channels]`; each step convolves [x, h] (SAME padding, stride 1) with `kernel`
(`kernel_shape + [in + output_channels, 4 * output_channels]`) plus `biases` (zeros), splits the result into
input, new input, forget, output gates (that order), and returns h (concatenated with x when
`skip_connection`). Variables are `<scope>/<name>/kernel` and `.../biases` (name "conv_lstm_cell", or
"conv_<n>d_lstm_cell" for the shorthands), so TF 1.15 checkpoints restore. `initializers` is accepted and
unused, as in TF 1.15.
"""

import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cells

_CONV = {3: tf.nn.conv1d, 4: tf.nn.conv2d, 5: tf.nn.conv3d}


def _conv(args, filter_size, num_features, bias, bias_start=0.0):
  """TF 1.15's ConvLSTM helper: one SAME convolution of the channel-concatenated `args` (+ `biases`)."""
  shapes = [a.shape.as_list() for a in args]
  rank = len(shapes[0])
  for shape in shapes:
    if len(shape) not in _CONV:
      raise ValueError("Conv Linear expects 3D, 4D or 5D arguments: %s" % str(shapes))
    if len(shape) != rank:
      raise ValueError("Conv Linear expects all args to be of same Dimension: %s" % str(shapes))
  depth = sum(shape[-1] for shape in shapes)
  dtype = args[0].dtype
  kernel = tf.compat.v1.get_variable("kernel", filter_size + [depth, num_features], dtype=dtype)
  strides = 1 if rank == 3 else [1] * rank
  inputs = args[0] if len(args) == 1 else tf.concat(args, axis=rank - 1)
  result = _CONV[rank](inputs, kernel, strides, padding="SAME")
  if not bias:
    return result
  return result + tf.compat.v1.get_variable(
      "biases", [num_features], dtype=dtype, initializer=tf.compat.v1.constant_initializer(bias_start, dtype=dtype))


class ConvLSTMCell(legacy_cells.RNNCell):
  """A convolutional LSTM cell over `conv_ndims`-dimensional inputs of shape `input_shape` (no batch)."""

  def __init__(self, conv_ndims, input_shape, output_channels, kernel_shape, use_bias=True, skip_connection=False,
               forget_bias=1.0, initializers=None, name="conv_lstm_cell"):
    super(ConvLSTMCell, self).__init__(name=name)
    if conv_ndims != len(input_shape) - 1:
      raise ValueError("Invalid input_shape {} for conv_ndims={}.".format(input_shape, conv_ndims))
    del initializers  # accepted and unused, as in TF 1.15
    self._conv_ndims = conv_ndims
    self._input_shape = list(input_shape)
    self._output_channels = output_channels
    self._kernel_shape = list(kernel_shape)
    self._use_bias = use_bias
    self._forget_bias = forget_bias
    self._skip_connection = skip_connection
    total = output_channels + (self._input_shape[-1] if skip_connection else 0)
    state = tf.TensorShape(self._input_shape[:-1] + [output_channels])
    self._state_size = legacy_cells.LSTMStateTuple(state, state)
    self._output_size = tf.TensorShape(self._input_shape[:-1] + [total])

  @property
  def output_size(self):
    return self._output_size

  @property
  def state_size(self):
    return self._state_size

  def call(self, inputs, state, scope=None):
    cell, hidden = state
    gates = _conv([inputs, hidden], self._kernel_shape, 4 * self._output_channels, self._use_bias)
    input_gate, new_input, forget_gate, output_gate = tf.split(gates, 4, axis=self._conv_ndims + 1)
    new_cell = tf.sigmoid(forget_gate + self._forget_bias) * cell + tf.sigmoid(input_gate) * tf.tanh(new_input)
    output = tf.tanh(new_cell) * tf.sigmoid(output_gate)
    if self._skip_connection:
      output = tf.concat([output, inputs], axis=-1)
    return output, legacy_cells.LSTMStateTuple(new_cell, output)


class Conv1DLSTMCell(ConvLSTMCell):
  """ConvLSTMCell over 1-D inputs ([batch, width, channels])."""

  def __init__(self, name="conv_1d_lstm_cell", **kwargs):
    super(Conv1DLSTMCell, self).__init__(conv_ndims=1, name=name, **kwargs)


class Conv2DLSTMCell(ConvLSTMCell):
  """ConvLSTMCell over 2-D inputs ([batch, height, width, channels])."""

  def __init__(self, name="conv_2d_lstm_cell", **kwargs):
    super(Conv2DLSTMCell, self).__init__(conv_ndims=2, name=name, **kwargs)


class Conv3DLSTMCell(ConvLSTMCell):
  """ConvLSTMCell over 3-D inputs ([batch, depth, height, width, channels])."""

  def __init__(self, name="conv_3d_lstm_cell", **kwargs):
    super(Conv3DLSTMCell, self).__init__(conv_ndims=3, name=name, **kwargs)
