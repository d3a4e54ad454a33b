"""`tf.contrib.model_pruning`'s LSTM cells with masked weights: MaskedBasicLSTMCell and MaskedLSTMCell, TF 1.15's.

Mirrors TF 1.15's `tensorflow/contrib/model_pruning/python/layers/rnn_cells.py`.

Each cell builds its parent's variables (`kernel`, `bias`, and LSTMCell's peepholes / projection), then a
non-trainable `mask` [input + units, 4 * units] (ones) and a scalar `threshold` under the cell's scope, and
runs its step on `mask * kernel` (`weights/masked_weight`); mask, masked kernel, threshold and kernel go to the
pruning collections once per mask. As in TF 1.15 the mask is sized with `num_units`, so MaskedLSTMCell with a
`num_proj` different from `num_units` fails when it is built (the kernel is [input + num_proj, 4 * units]).
"""

import tensorflow as tf

import tf1clip.contrib.model_pruning.python.layers.core_layers as core_layers
import tf1clip.contrib.rnn as rnn

def _add_mask(cell, inputs_shape):
  """Creates the cell's mask and threshold, its masked kernel, and puts them in the pruning collections."""
  # pylint: disable=protected-access
  input_depth = tf.compat.dimension_value(tf.TensorShape(inputs_shape)[1])
  h_depth = cell._num_units
  cell._mask = cell.add_weight(name="mask", shape=[input_depth + h_depth, 4 * h_depth],
                               initializer=tf.compat.v1.ones_initializer(), trainable=False, dtype=cell.dtype)
  cell._threshold = cell.add_weight(name="threshold", shape=[], initializer=tf.compat.v1.zeros_initializer(),
                                    trainable=False, dtype=cell.dtype)
  # Add masked_weights in the weights namescope so as to make it easier
  # for the quantization library to add quant ops.
  cell._masked_kernel = tf.multiply(cell._mask, cell._kernel, core_layers.MASKED_WEIGHT_NAME)
  if cell._mask not in tf.compat.v1.get_collection_ref(core_layers.MASK_COLLECTION):
    tf.compat.v1.add_to_collection(core_layers.MASK_COLLECTION, cell._mask)
    tf.compat.v1.add_to_collection(core_layers.MASKED_WEIGHT_COLLECTION, cell._masked_kernel)
    tf.compat.v1.add_to_collection(core_layers.THRESHOLD_COLLECTION, cell._threshold)
    tf.compat.v1.add_to_collection(core_layers.WEIGHT_COLLECTION, cell._kernel)

class MaskedBasicLSTMCell(rnn.BasicLSTMCell):
  """BasicLSTMCell whose step multiplies its kernel by a pruning mask."""

  def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None):
    """Initializes the cell (the arguments of BasicLSTMCell)."""
    super().__init__(num_units, forget_bias=forget_bias, state_is_tuple=state_is_tuple, activation=activation,
                     reuse=reuse, name=name)

  def build(self, inputs_shape):
    super().build(inputs_shape)
    self.built = False
    _add_mask(self, inputs_shape)
    self.built = True

  def call(self, inputs, state):
    """One LSTM step on the masked kernel; returns (new_h, new_state)."""
    sigmoid = tf.sigmoid
    one = tf.constant(1, dtype=tf.int32)
    # Parameters of gates are concatenated into one multiply for efficiency.
    if self._state_is_tuple:
      c, h = state
    else:
      c, h = tf.split(value=state, num_or_size_splits=2, axis=one)

    gate_inputs = tf.matmul(tf.concat([inputs, h], 1), self._masked_kernel)
    gate_inputs = tf.nn.bias_add(gate_inputs, self._bias)

    # i = input_gate, j = new_input, f = forget_gate, o = output_gate
    i, j, f, o = tf.split(value=gate_inputs, num_or_size_splits=4, axis=one)

    forget_bias_tensor = tf.constant(self._forget_bias, dtype=f.dtype)
    new_c = tf.add(tf.multiply(c, sigmoid(tf.add(f, forget_bias_tensor))),
                   tf.multiply(sigmoid(i), self._activation(j)))
    new_h = tf.multiply(self._activation(new_c), sigmoid(o))

    if self._state_is_tuple:
      new_state = rnn.LSTMStateTuple(new_c, new_h)
    else:
      new_state = tf.concat([new_c, new_h], 1)
    return new_h, new_state

class MaskedLSTMCell(rnn.LSTMCell):
  """LSTMCell whose step multiplies its kernel (not its projection) by a pruning mask."""

  def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
               proj_clip=None, num_unit_shards=None, num_proj_shards=None, forget_bias=1.0, state_is_tuple=True,
               activation=None, reuse=None):
    """Initializes the cell (the arguments of LSTMCell)."""
    super().__init__(num_units, use_peepholes=use_peepholes, cell_clip=cell_clip, initializer=initializer,
                     num_proj=num_proj, proj_clip=proj_clip, num_unit_shards=num_unit_shards,
                     num_proj_shards=num_proj_shards, forget_bias=forget_bias, state_is_tuple=state_is_tuple,
                     activation=activation, reuse=reuse)

  def build(self, inputs_shape):
    super().build(inputs_shape)
    self.built = False
    _add_mask(self, inputs_shape)
    self.built = True

  def call(self, inputs, state):
    """One LSTM step on the masked kernel; returns (m, new_state)."""
    num_proj = self._num_units if self._num_proj is None else self._num_proj
    sigmoid = tf.sigmoid

    if self._state_is_tuple:
      (c_prev, m_prev) = state
    else:
      c_prev = tf.slice(state, [0, 0], [-1, self._num_units])
      m_prev = tf.slice(state, [0, self._num_units], [-1, num_proj])

    input_size = tf.compat.dimension_value(inputs.get_shape().with_rank(2)[1])
    if input_size is None:
      raise ValueError("Could not infer input size from inputs.get_shape()[-1]")

    # i = input_gate, j = new_input, f = forget_gate, o = output_gate
    lstm_matrix = tf.matmul(tf.concat([inputs, m_prev], 1), self._masked_kernel)
    lstm_matrix = tf.nn.bias_add(lstm_matrix, self._bias)

    i, j, f, o = tf.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
    # Diagonal connections
    if self._use_peepholes:
      c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev +
           sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
    else:
      c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)

    if self._cell_clip is not None:
      c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)  # pylint: disable=invalid-unary-operand-type
    if self._use_peepholes:
      m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
    else:
      m = sigmoid(o) * self._activation(c)

    if self._num_proj is not None:
      m = tf.matmul(m, self._proj_kernel)
      if self._proj_clip is not None:
        m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)  # pylint: disable=invalid-unary-operand-type

    new_state = rnn.LSTMStateTuple(c, m) if self._state_is_tuple else tf.concat([c, m], 1)
    return m, new_state
