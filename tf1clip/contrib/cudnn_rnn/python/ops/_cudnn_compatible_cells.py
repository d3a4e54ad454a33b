"""The CPU cells that compute what the cuDNN layers compute: CudnnCompatibleLSTMCell, CudnnCompatibleGRUCell.

Built in a MultiRNNCell under the cuDNN layer's scope (or stack_bidirectional_dynamic_rnn for a bidirectional
layer), their variables carry the names a cuDNN layer's checkpoint holds (canonical.canonical_variable_names), so a
GPU-trained checkpoint restores into them on a CPU machine and back:

  CudnnCompatibleLSTMCell  cudnn_compatible_lstm_cell/kernel [in + units, 4 units], bias; the LSTM of
                           LSTMBlockCell with forget_bias 0 (cuDNN adds none)
  CudnnCompatibleGRUCell   cudnn_compatible_gru_cell/gates/{kernel, bias},
                           candidate/input_projection/{kernel, bias},
                           candidate/hidden_projection/{kernel, bias}; cuDNN's GRU, where the reset
                           gate multiplies the projected state *with* its bias:
                           h' = tanh(x W_h + b_Wh + r * (h R_h + b_Rh)), h = (1 - u) h' + u h
"""

import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cells

from tf1clip.contrib.rnn.python.ops.lstm_ops import LSTMBlockCell

V1 = tf.compat.v1


class CudnnCompatibleLSTMCell(LSTMBlockCell):
  """The LSTM of cuDNN (no forget bias, no peepholes) on CPU, with a cuDNN checkpoint's names."""

  def __init__(self, num_units, reuse=None):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      reuse: reuse the variables of an existing scope.
    """
    super().__init__(num_units, forget_bias=0, cell_clip=None, use_peephole=False, reuse=reuse,
                     name="cudnn_compatible_lstm_cell")


class CudnnCompatibleGRUCell(legacy_cells.GRUCell):
  """The GRU of cuDNN on CPU, with a cuDNN checkpoint's names.

  References:
    Cho et al., "Learning Phrase Representations using RNN Encoder-Decoder for Statistical Machine
    Translation", 2014 (arXiv:1406.1078); NVIDIA's cuDNN RNN documentation (the GRU variant).
  """

  def __init__(self, num_units, reuse=None, kernel_initializer=None):
    """Creates the cell.

    Args:
      num_units: int, the number of units.
      reuse: reuse the variables of an existing scope.
      kernel_initializer: optional initializer of the weight matrices.
    """
    super().__init__(num_units, activation=None, reuse=reuse, kernel_initializer=kernel_initializer,
                     name="cudnn_compatible_gru_cell")

  def build(self, inputs_shape):
    depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
    if depth is None:
      raise ValueError("CudnnCompatibleGRUCell needs the inputs' last dimension to be known; got "
                       "shape %s" % (inputs_shape,))
    units = self._num_units
    self._gate_kernel = self.add_weight("gates/kernel", shape=[depth + units, 2 * units],
                                        initializer=self._kernel_initializer)
    self._gate_bias = self.add_weight(
        "gates/bias", shape=[2 * units],
        initializer=(self._bias_initializer if self._bias_initializer is not None
                     else V1.constant_initializer(1.0, dtype=self.dtype)))
    self._candidate_input_kernel = self.add_weight(
        "candidate/input_projection/kernel", shape=[depth, units],
        initializer=self._kernel_initializer)
    self._candidate_hidden_kernel = self.add_weight(
        "candidate/hidden_projection/kernel", shape=[units, units],
        initializer=self._kernel_initializer)
    self._candidate_input_bias = self.add_weight(
        "candidate/input_projection/bias", shape=[units],
        initializer=(self._bias_initializer if self._bias_initializer is not None
                     else V1.zeros_initializer(dtype=self.dtype)))
    self._candidate_hidden_bias = self.add_weight(
        "candidate/hidden_projection/bias", shape=[units],
        initializer=(self._bias_initializer if self._bias_initializer is not None
                     else V1.zeros_initializer(dtype=self.dtype)))
    self.built = True

  def call(self, inputs, state):
    """One step: returns (h, h)."""
    gate_inputs = tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1), self._gate_kernel),
                                 self._gate_bias)
    r, u = tf.split(tf.sigmoid(gate_inputs), 2, axis=1)
    candidate = tf.nn.bias_add(tf.matmul(inputs, self._candidate_input_kernel),
                               self._candidate_input_bias)
    candidate += r * tf.nn.bias_add(tf.matmul(state, self._candidate_hidden_kernel),
                                    self._candidate_hidden_bias)
    candidate = self._activation(candidate)
    new_h = (1 - u) * candidate + u * state
    return new_h, new_h
