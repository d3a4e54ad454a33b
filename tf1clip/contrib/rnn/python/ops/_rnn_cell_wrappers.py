"""Two contrib-only cell wrappers: AttentionCellWrapper and HighwayWrapper.

Both follow TensorFlow 1.15's contrib wrappers and create the same variables, so checkpoints restore:

  AttentionCellWrapper  attention_cell_wrapper/{kernel, bias} (input projection of [x, attns]),
                        attention_cell_wrapper/<cell scope>/..., attention/{attn_w [1, 1, attn, vec],
                        attn_v [vec], kernel, bias}, attn_output_projection/{kernel, bias}
  HighwayWrapper        carry_w [d, d], carry_b [d] (+ transform_w, transform_b when the gates are
                        not coupled) in the scope the wrapper is called in (e.g. rnn/carry_w), next
                        to the wrapped cell's own scope
"""

import tensorflow as tf
from tf_keras.src.layers.rnn import legacy_cells

from tf1clip.contrib.rnn.python.ops._linear import linear

V1 = tf.compat.v1


class AttentionCellWrapper(legacy_cells.RNNCell):
  """Adds attention over the cell's last `attn_length` outputs to a cell.

  Each step: x' = linear([x, attns]); cell step; new attns = additive (Bahdanau) attention of the
  concatenated new cell state over the attention window; output = linear([cell output, attns]),
  which is also pushed onto the window. State: (cell state, attns, window) (concatenated when not
  state_is_tuple).

  References:
    Bahdanau, Cho, Bengio, "Neural Machine Translation by Jointly Learning to Align and Translate",
    2014 (arXiv:1409.0473).
  """

  def __init__(self, cell, attn_length, attn_size=None, attn_vec_size=None, input_size=None,
               state_is_tuple=True, reuse=None):
    """Wraps `cell`.

    Args:
      cell: an RNNCell.
      attn_length: int > 0, the size of the attention window.
      attn_size: the size of an attention vector (default cell.output_size).
      attn_vec_size: the attention's hidden size (default attn_size).
      input_size: the size of the projected input (default the input's depth).
      state_is_tuple: states are tuples; False concatenates them (needs a non-tuple cell state).
      reuse: reuse the variables of an existing scope.

    Raises:
      TypeError: cell is not an RNNCell.
      ValueError: attn_length <= 0, or a tuple cell state with state_is_tuple=False.
    """
    super().__init__(_reuse=reuse)
    if not all(hasattr(cell, a) for a in ("output_size", "state_size", "zero_state")):
      raise TypeError("AttentionCellWrapper's cell must be an RNNCell; got %r" % (cell,))
    if tf.nest.is_nested(cell.state_size) and not state_is_tuple:
      raise ValueError("The cell's state is a tuple (state_size %s) but state_is_tuple=False"
                       % (cell.state_size,))
    if attn_length <= 0:
      raise ValueError("attn_length must be greater than zero; got %r" % (attn_length,))
    self._state_is_tuple = state_is_tuple
    self._cell = cell
    self._attn_size = attn_size if attn_size is not None else cell.output_size
    self._attn_vec_size = attn_vec_size if attn_vec_size is not None else self._attn_size
    self._input_size = input_size
    self._attn_length = attn_length

  @property
  def state_size(self):
    size = (self._cell.state_size, self._attn_size, self._attn_size * self._attn_length)
    return size if self._state_is_tuple else sum(size)

  @property
  def output_size(self):
    return self._attn_size

  def call(self, inputs, state):
    """One step: returns (output, (cell_state, attns, attn_states))."""
    if self._state_is_tuple:
      state, attns, attn_states = state
    else:
      states = state
      cell_size = self._cell.state_size
      state = states[:, :cell_size]
      attns = states[:, cell_size:cell_size + self._attn_size]
      attn_states = states[:, cell_size + self._attn_size:
                           cell_size + self._attn_size * (1 + self._attn_length)]
    attn_states = tf.reshape(attn_states, [-1, self._attn_length, self._attn_size])
    input_size = self._input_size
    if input_size is None:
      input_size = inputs.shape.as_list()[1]
    inputs = linear([inputs, attns], input_size)
    cell_output, new_state = self._cell(inputs, state)
    new_state_cat = tf.concat(tf.nest.flatten(new_state), 1) if self._state_is_tuple else new_state
    new_attns, new_attn_states = self._attention(new_state_cat, attn_states)
    with V1.variable_scope("attn_output_projection"):
      output = linear([cell_output, new_attns], self._attn_size)
    new_attn_states = tf.concat([new_attn_states, tf.expand_dims(output, 1)], 1)
    new_attn_states = tf.reshape(new_attn_states, [-1, self._attn_length * self._attn_size])
    new_state = (new_state, new_attns, new_attn_states)
    if not self._state_is_tuple:
      new_state = tf.concat(list(new_state), 1)
    return output, new_state

  def _attention(self, query, attn_states):
    with V1.variable_scope("attention"):
      k = V1.get_variable("attn_w", [1, 1, self._attn_size, self._attn_vec_size])
      v = V1.get_variable("attn_v", [self._attn_vec_size])
      hidden = tf.reshape(attn_states, [-1, self._attn_length, 1, self._attn_size])
      hidden_features = tf.nn.conv2d(hidden, k, [1, 1, 1, 1], "SAME")
      y = tf.reshape(linear(query, self._attn_vec_size), [-1, 1, 1, self._attn_vec_size])
      s = tf.reduce_sum(v * tf.tanh(hidden_features + y), [2, 3])
      a = tf.nn.softmax(s)
      d = tf.reduce_sum(tf.reshape(a, [-1, self._attn_length, 1, 1]) * hidden, [1, 2])
      new_attns = tf.reshape(d, [-1, self._attn_size])
      new_attn_states = attn_states[:, 1:, :]
      return new_attns, new_attn_states


def _require_rnn_cell(cell):
  """TF 1.15's assert_like_rnncell: a TypeError naming what `cell` lacks."""
  missing = [what for what, ok in (("'output_size' property is missing", hasattr(cell, "output_size")),
                                   ("'state_size' property is missing", hasattr(cell, "state_size")),
                                   ("'zero_state' method is missing", hasattr(cell, "zero_state")),
                                   ("is not callable", callable(cell))) if not ok]
  if missing:
    raise TypeError("The argument 'cell' (%s) is not an RNNCell: %s." % (cell, ", ".join(missing)))


class _DelegatingWrapper(legacy_cells.RNNCell):
  """A wrapper whose state size, output size and zero state are its `self._cell`'s (TF 1.15's wrappers)."""

  @property
  def state_size(self):
    return self._cell.state_size

  @property
  def output_size(self):
    return self._cell.output_size

  def zero_state(self, batch_size, dtype):
    with tf.name_scope(type(self).__name__ + "ZeroState"):
      return self._cell.zero_state(batch_size, dtype)


class CompiledWrapper(_DelegatingWrapper):
  """Runs the wrapped cell's ops in an XLA jit scope (`tf.compat.v1.xla.experimental.jit_scope`).

  With compile_stateful=False (the default, as TF 1.15), stateful ops (random ops, variable reads of
  ref variables, ...) are left out of the compiled clusters.
  """

  def __init__(self, cell, compile_stateful=False):
    super().__init__()
    self._cell = cell
    self._compile_stateful = compile_stateful

  def __call__(self, inputs, state, scope=None):
    if self._compile_stateful:
      compile_ops = True
    else:
      from tensorflow.python.framework import op_def_registry  # pylint: disable=import-outside-toplevel

      def compile_ops(node_def):
        return not op_def_registry.get(node_def.op).is_stateful
    with V1.xla.experimental.jit_scope(compile_ops=compile_ops):
      return self._cell(inputs, state, scope=scope)


class HighwayWrapper(_DelegatingWrapper):
  """Adds a highway connection from the cell's input to its output: x * carry + y * transform.

  carry = sigmoid(x carry_w + carry_b) (carry_b starts at carry_bias_init); transform = 1 - carry
  when coupled, else sigmoid(x transform_w + transform_b) (transform_b starts at -carry_bias_init).
  The cell's input and output must have the same structure and shapes.

  References:
    Srivastava, Greff, Schmidhuber, "Highway Networks", 2015 (arXiv:1505.00387).
  """

  def __init__(self, cell, couple_carry_transform_gates=True, carry_bias_init=1.0):
    """Wraps `cell`.

    Args:
      cell: an RNNCell whose output has the input's shape.
      couple_carry_transform_gates: transform = 1 - carry (else a gate of its own).
      carry_bias_init: the carry gate's initial bias.
    """
    super().__init__()
    self._cell = cell
    self._couple_carry_transform_gates = couple_carry_transform_gates
    self._carry_bias_init = carry_bias_init

  def _highway(self, inp, out):
    input_size = tf.compat.dimension_value(inp.shape.with_rank(2)[1])
    carry_weight = V1.get_variable("carry_w", [input_size, input_size])
    carry_bias = V1.get_variable("carry_b", [input_size],
                                 initializer=V1.constant_initializer(self._carry_bias_init))
    carry = tf.sigmoid(tf.compat.v1.nn.xw_plus_b(inp, carry_weight, carry_bias))
    if self._couple_carry_transform_gates:
      transform = 1 - carry
    else:
      transform_weight = V1.get_variable("transform_w", [input_size, input_size])
      transform_bias = V1.get_variable(
          "transform_b", [input_size], initializer=V1.constant_initializer(-self._carry_bias_init))
      transform = tf.sigmoid(tf.compat.v1.nn.xw_plus_b(inp, transform_weight, transform_bias))
    return inp * carry + out * transform

  def __call__(self, inputs, state, scope=None):
    """Runs the cell, then mixes its inputs into its outputs.

    Returns:
      (highway outputs, the cell's new state).

    Raises:
      TypeError, ValueError: the cell's outputs differ from its inputs in structure or shape.
    """
    outputs, new_state = self._cell(inputs, state, scope=scope)
    tf.nest.assert_same_structure(inputs, outputs)
    tf.nest.map_structure(lambda i, o: i.shape.assert_is_compatible_with(o.shape), inputs, outputs)
    return tf.nest.map_structure(self._highway, inputs, outputs), new_state


class EmbeddingWrapper(_DelegatingWrapper):
  """Looks the integer inputs up in an `embedding` [embedding_classes, embedding_size] before the cell.

  The initializer is `initializer`, else the variable scope's, else uniform in [-sqrt(3), sqrt(3)] (TF 1.15).
  TF 1.15 placed the embedding on /cpu:0; tf1clip leaves placement to the caller (it pins nothing to a CPU).
  """

  def __init__(self, cell, embedding_classes, embedding_size, initializer=None, reuse=None):
    super(EmbeddingWrapper, self).__init__(_reuse=reuse)
    _require_rnn_cell(cell)
    self._cell = cell
    if embedding_classes <= 0 or embedding_size <= 0:
      raise ValueError("Both embedding_classes and embedding_size must be > 0: %d, %d."
                       % (embedding_classes, embedding_size))
    self._embedding_classes = embedding_classes
    self._embedding_size = embedding_size
    self._initializer = initializer

  def call(self, inputs, state):
    initializer = (self._initializer or V1.get_variable_scope().initializer
                   or V1.random_uniform_initializer(-3 ** 0.5, 3 ** 0.5))
    dtype = state[0].dtype if isinstance(state, tuple) else state.dtype
    embedding = V1.get_variable("embedding", [self._embedding_classes, self._embedding_size],
                                initializer=initializer, dtype=dtype)
    return self._cell(tf.nn.embedding_lookup(embedding, tf.reshape(inputs, [-1])), state)


class InputProjectionWrapper(_DelegatingWrapper):
  """Projects the inputs to `num_proj` units (`kernel`, `bias` in the wrapper's scope) before the cell."""

  def __init__(self, cell, num_proj, activation=None, input_size=None, reuse=None):
    super(InputProjectionWrapper, self).__init__(_reuse=reuse)
    _require_rnn_cell(cell)
    self._cell = cell
    if input_size is not None:
      V1.logging.warn("%s: The input_size parameter is deprecated.", self)
    self._num_proj = num_proj
    self._activation = activation

  def call(self, inputs, state):
    projected = linear(inputs, self._num_proj)
    if self._activation:
      projected = self._activation(projected)
    return self._cell(projected, state)


class OutputProjectionWrapper(_DelegatingWrapper):
  """Projects the cell's output to `output_size` units (`kernel`, `bias` in the wrapper's scope)."""

  def __init__(self, cell, output_size, activation=None, reuse=None):
    super(OutputProjectionWrapper, self).__init__(_reuse=reuse)
    _require_rnn_cell(cell)
    self._cell = cell
    if output_size < 1:
      raise ValueError("Parameter output_size must be > 0: %d." % output_size)
    self._output_size = output_size
    self._activation = activation

  @property
  def output_size(self):
    return self._output_size

  def call(self, inputs, state):
    output, new_state = self._cell(inputs, state)
    projected = linear(output, self._output_size)
    if self._activation:
      projected = self._activation(projected)
    return projected, new_state


def transpose_batch_time(x):
  """Swaps the first two dimensions of a rank >= 2 tensor, keeping the static shape (TF 1.15's helper)."""
  x = tf.convert_to_tensor(x)
  static = x.shape
  if static.rank is not None and static.rank < 2:
    return x
  rank = tf.rank(x)
  transposed = tf.transpose(x, tf.concat(([1, 0], tf.range(2, rank)), axis=0))
  if static.rank is not None:
    transposed.set_shape(tf.TensorShape([static[1], static[0]]).concatenate(static[2:]))
  return transposed


def best_effort_input_batch_size(flat_input):
  """The batch size of a time-major flat input list: the first static dimension 1 found, else a tensor."""
  for input_ in flat_input:
    shape = input_.shape
    if shape.rank is None:
      continue
    if shape.rank < 2:
      raise ValueError("Expected input tensor %s to have rank at least 2" % input_)
    batch_size = tf.compat.dimension_value(shape[1])
    if batch_size is not None:
      return batch_size
  return tf.shape(flat_input[0])[1]
