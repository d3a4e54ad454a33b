"""`tf.contrib.learn.models`: the skflow regression and RNN model functions, TF 1.15's code.

Place in the data flow (DESIGN.md): contrib.learn.ops.losses_ops <- **contrib.learn.models** <- contrib.learn.

Each creates `weights` and `bias` in the variable scope "linear_regression" / "logistic_regression" (normal
initialization with init_mean / init_stddev when given, else the scope's default), writes histogram summaries of
x, y and the variables, and returns (predictions, loss). logistic_regression reads a graph tensor named
"class_weight:0" when no class_weight is given, as TF 1.15 did.

`bidirectional_rnn` runs static_rnn forward (scope "<scope or BiRNN>_FW") and over the reversed inputs
(".._BW"), concatenating outputs and final states; `get_rnn_model` returns TF 1.15's rnn_estimator(x, y): an
input_op_fn, num_layers of rnn / gru / lstm cells (state_is_tuple=False, optionally in AttentionCellWrappers) in a
MultiRNNCell, (bi)directional, and the target_predictor_fn on the final state. TF 1.15's `_reverse_seq` with a
`sequence_length` called array_ops.pack / unpack, which TF 1.15 no longer had (an AttributeError); here it
reverses with tf.stack / reverse_sequence / tf.unstack.
"""

import functools

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.ops import losses_ops

V1 = tf.compat.v1


def _variables(x, output_size, init_mean, init_stddev):
  dtype = x.dtype.base_dtype
  initializer = (None if init_mean is None
                 else V1.random_normal_initializer(init_mean, init_stddev, dtype=dtype))
  weights = V1.get_variable("weights", [x.shape[1], output_size], initializer=initializer, dtype=dtype)
  bias = V1.get_variable("bias", [output_size], initializer=initializer, dtype=dtype)
  return weights, bias


def _summaries(scope_name, **tensors):
  for key, value in tensors.items():
    V1.summary.histogram("%s.%s" % (scope_name, key), value)


def linear_regression(x, y, init_mean=None, init_stddev=1.0):
  """A linear regression of y [batch] or [batch, k] on x: (predictions, mean squared error)."""
  with V1.variable_scope("linear_regression"):
    scope_name = V1.get_variable_scope().name
    _summaries(scope_name, x=x, y=y)
    output_size = 1 if len(y.shape) == 1 else y.shape[1]
    weights, bias = _variables(x, output_size, init_mean, init_stddev)
    _summaries(scope_name, weights=weights, bias=bias)
    return losses_ops.mean_squared_error_regressor(x, y, weights, bias)


def linear_regression_zero_init(x, y):
  """linear_regression with zero-initialized weights and bias."""
  return linear_regression(x, y, init_mean=0.0, init_stddev=0.0)


def logistic_regression(x, y, class_weight=None, init_mean=None, init_stddev=1.0):
  """A softmax regression of one-hot y on x: (probabilities, softmax cross-entropy)."""
  with V1.variable_scope("logistic_regression"):
    scope_name = V1.get_variable_scope().name
    _summaries(scope_name, x=x, y=y)
    weights, bias = _variables(x, y.shape[-1], init_mean, init_stddev)
    _summaries(scope_name, weights=weights, bias=bias)
    if not class_weight:
      try:
        class_weight = V1.get_default_graph().get_tensor_by_name("class_weight:0")
      except KeyError:
        pass
    return losses_ops.softmax_classifier(x, y, weights, bias, class_weight=class_weight)


def logistic_regression_zero_init(x, y):
  """logistic_regression with zero-initialized weights and bias."""
  return logistic_regression(x, y, init_mean=0.0, init_stddev=0.0)


def _reverse_seq(input_seq, lengths):
  """The list of [batch, depth] tensors reversed in time (per example up to its length, when given)."""
  if lengths is None:
    return list(reversed(input_seq))
  for input_ in input_seq:
    input_.set_shape(input_.get_shape().with_rank(2))
  s_joined = tf.stack(input_seq)
  s_reversed = tf.reverse_sequence(s_joined, lengths, seq_axis=0, batch_axis=1)
  return tf.unstack(s_reversed)


def bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None, dtype=None,
                      sequence_length=None, scope=None):
  """A static bidirectional RNN: (outputs [fw; bw] per step, the concatenated final states)."""
  import tf1clip.contrib.rnn as contrib_rnn  # pylint: disable=import-outside-toplevel
  if not isinstance(cell_fw, contrib_rnn.RNNCell):
    raise TypeError("cell_fw must be an instance of RNNCell")
  if not isinstance(cell_bw, contrib_rnn.RNNCell):
    raise TypeError("cell_bw must be an instance of RNNCell")
  if not isinstance(inputs, list):
    raise TypeError("inputs must be a list")
  if not inputs:
    raise ValueError("inputs must not be empty")
  name = scope or "BiRNN"
  with V1.variable_scope(name + "_FW"):
    output_fw, state_fw = contrib_rnn.static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length)
  with V1.variable_scope(name + "_BW"):
    tmp, state_bw = contrib_rnn.static_rnn(cell_bw, _reverse_seq(inputs, sequence_length), initial_state_bw,
                                           dtype, sequence_length)
  output_bw = _reverse_seq(tmp, sequence_length)
  outputs = [tf.concat([fw, bw], 1) for fw, bw in zip(output_fw, output_bw)]
  return outputs, tf.concat([state_fw, state_bw], 1)


def get_rnn_model(rnn_size, cell_type, num_layers, input_op_fn, bidirectional, target_predictor_fn,
                  sequence_length, initial_state, attn_length, attn_size, attn_vec_size):
  """TF 1.15's rnn_estimator(x, y) model function (see the module docstring)."""
  import tf1clip.contrib.rnn as contrib_rnn  # pylint: disable=import-outside-toplevel

  def rnn_estimator(x, y):
    x = input_op_fn(x)
    if cell_type == "rnn":
      cell_fn = contrib_rnn.BasicRNNCell
    elif cell_type == "gru":
      cell_fn = contrib_rnn.GRUCell
    elif cell_type == "lstm":
      cell_fn = functools.partial(contrib_rnn.BasicLSTMCell, state_is_tuple=False)
    else:
      raise ValueError("cell_type {} is not supported. ".format(cell_type))

    def cell_maker():
      if attn_length is None:
        return cell_fn(rnn_size)
      return contrib_rnn.AttentionCellWrapper(cell_fn(rnn_size), attn_length=attn_length, attn_size=attn_size,
                                              attn_vec_size=attn_vec_size, state_is_tuple=False)

    if bidirectional:
      rnn_fw_cell = contrib_rnn.MultiRNNCell([cell_maker() for _ in range(num_layers)], state_is_tuple=False)
      rnn_bw_cell = contrib_rnn.MultiRNNCell([cell_maker() for _ in range(num_layers)], state_is_tuple=False)
      _, encoding = bidirectional_rnn(rnn_fw_cell, rnn_bw_cell, x, dtype=tf.float32,
                                      sequence_length=sequence_length, initial_state_fw=initial_state,
                                      initial_state_bw=initial_state)
    else:
      cell = contrib_rnn.MultiRNNCell([cell_maker() for _ in range(num_layers)], state_is_tuple=False)
      _, encoding = contrib_rnn.static_rnn(cell, x, dtype=tf.float32, sequence_length=sequence_length,
                                           initial_state=initial_state)
    return target_predictor_fn(encoding, y)

  return rnn_estimator


__getattr__ = _catalog.module_getattr(__name__)
