"""cuDNN RNN parameters in three formats, and the exact conversions between them (TF 1.15's CudnnLSTMSaveable).

  opaque     one flat buffer, what the cuDNN kernels take: every pseudo-layer's weight matrices (each
             [num_units, in] row-major, in cuDNN's gate order), then every pseudo-layer's biases.
             A pseudo-layer is one (layer, direction); layer l > 0 reads num_dirs * num_units inputs.
  cuDNN canonical   per pseudo-layer, lists of matrices and bias vectors in cuDNN's order:
             LSTM  W_i W_f W_c W_o R_i R_f R_c R_o, biases b_Wi b_Wf b_Wc b_Wo b_Ri b_Rf b_Rc b_Ro
             GRU   W_r W_u W_h R_r R_u R_h, biases likewise; RNN (tanh/relu) W R, b_W b_R
  TF canonical      what a checkpoint holds and the CPU cells use, per pseudo-layer:
             LSTM  kernel [in + units, 4 units] (TF's gate order i, c, f, o), bias = b_W + b_R
             GRU   gates/kernel [in + units, 2 units] (r, u), gates/bias = b_W + b_R of r, u,
                   candidate/input_projection/{kernel [in, units], bias b_Wh},
                   candidate/hidden_projection/{kernel [units, units], bias b_Rh}
             RNN   kernel [in + units, units], bias = b_W + b_R

TF canonical -> cuDNN splits each summed bias into two halves (as TF 1.15 did), so
TF -> cuDNN -> TF is exact; the sum is all a checkpoint keeps.
"""

import tensorflow as tf

CUDNN_LSTM = "lstm"
CUDNN_GRU = "gru"
CUDNN_RNN_TANH = "rnn_tanh"
CUDNN_RNN_RELU = "rnn_relu"
CUDNN_RNN_UNIDIRECTION = "unidirectional"
CUDNN_RNN_BIDIRECTION = "bidirectional"
CUDNN_INPUT_LINEAR_MODE = "linear_input"

# Weight matrices (= bias vectors) per pseudo-layer, half of them input (W) and half recurrent (R).
PARAMS_PER_LAYER = {CUDNN_LSTM: 8, CUDNN_GRU: 6, CUDNN_RNN_TANH: 2, CUDNN_RNN_RELU: 2}
# The CPU cell whose variables hold one pseudo-layer's TF canonical weights.
COMPATIBLE_CELL_SCOPE = {
    CUDNN_LSTM: "cudnn_compatible_lstm_cell", CUDNN_GRU: "cudnn_compatible_gru_cell",
    CUDNN_RNN_TANH: "basic_rnn_cell", CUDNN_RNN_RELU: "basic_rnn_cell"}
TF_CANONICAL_NAMES = {
    CUDNN_LSTM: ["kernel", "bias"],
    CUDNN_GRU: ["gates/kernel", "gates/bias", "candidate/input_projection/kernel",
                "candidate/input_projection/bias", "candidate/hidden_projection/kernel",
                "candidate/hidden_projection/bias"],
    CUDNN_RNN_TANH: ["kernel", "bias"], CUDNN_RNN_RELU: ["kernel", "bias"],
}


def _check_mode(rnn_mode, direction):
  if rnn_mode not in PARAMS_PER_LAYER:
    raise ValueError("rnn_mode must be one of %s; got %r" % (sorted(PARAMS_PER_LAYER), rnn_mode))
  if direction not in (CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION):
    raise ValueError("direction must be %r or %r; got %r"
                     % (CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION, direction))


def num_dirs(direction):
  """1 for "unidirectional", 2 for "bidirectional"."""
  return 2 if direction == CUDNN_RNN_BIDIRECTION else 1


def pseudo_layer_input_sizes(num_layers, num_units, input_size, direction):
  """The input width of each pseudo-layer (layer-major, forward before backward)."""
  dirs = num_dirs(direction)
  return [input_size if layer == 0 else dirs * num_units
          for layer in range(num_layers) for _ in range(dirs)]


def canonical_variable_names(scope, rnn_mode, num_layers, direction):
  """The checkpoint names of the TF canonical weights, as TF 1.15's Cudnn*Saveable wrote them.

  Uni-directional layer l: `<scope>/rnn/multi_rnn_cell/cell_<l>/<cell>/<name>` (a MultiRNNCell of
  compatible cells in dynamic_rnn); bidirectional: `<scope>/stack_bidirectional_rnn/cell_<l>/
  bidirectional_rnn/{fw,bw}/<cell>/<name>` (stack_bidirectional_dynamic_rnn).

  Args:
    scope: the cuDNN layer's variable scope (e.g. "cudnn_lstm"), or "" for none.
    rnn_mode, num_layers, direction: as the layer's.

  Returns:
    One list of names per pseudo-layer (order of TF_CANONICAL_NAMES[rnn_mode]).
  """
  _check_mode(rnn_mode, direction)
  prefix = scope + "/" if scope else ""
  cell = COMPATIBLE_CELL_SCOPE[rnn_mode]
  names = []
  for layer in range(num_layers):
    if direction == CUDNN_RNN_UNIDIRECTION:
      bases = ["%srnn/multi_rnn_cell/cell_%d/%s" % (prefix, layer, cell)]
    else:
      bases = ["%sstack_bidirectional_rnn/cell_%d/bidirectional_rnn/%s/%s" % (prefix, layer, d, cell)
               for d in ("fw", "bw")]
    names.extend([[base + "/" + n for n in TF_CANONICAL_NAMES[rnn_mode]] for base in bases])
  return names


# --- one pseudo-layer: cuDNN canonical <-> TF canonical ---------------------------------------------

def cudnn_to_tf(rnn_mode, weights, biases):
  """One pseudo-layer's cuDNN canonical weights and biases -> its TF canonical tensors.

  Args:
    rnn_mode: "lstm", "gru", "rnn_tanh" or "rnn_relu".
    weights: the PARAMS_PER_LAYER[rnn_mode] matrices, W's [units, in] then R's [units, units].
    biases: as many [units] vectors, b_W's then b_R's.

  Returns:
    The list of TF canonical tensors, in TF_CANONICAL_NAMES[rnn_mode]'s order (built as TF 1.15's
    CudnnParamsFormatConverter* built them: the weights, then the biases).
  """
  half = PARAMS_PER_LAYER[rnn_mode] // 2
  weights = [tf.convert_to_tensor(t) for t in weights]
  biases = [tf.convert_to_tensor(t) for t in biases]
  w, r = weights[:half], weights[half:]
  b_w, b_r = biases[:half], biases[half:]
  if rnn_mode == CUDNN_LSTM:
    i, f, c, o = [tf.concat([w[k], r[k]], axis=1) for k in range(4)]
    kernel = tf.transpose(tf.concat([i, c, f, o], axis=0))
    bias = [b_w[k] + b_r[k] for k in range(4)]
    return [kernel, tf.concat([bias[0], bias[2], bias[1], bias[3]], axis=0)]
  if rnn_mode == CUDNN_GRU:
    gates = tf.concat([tf.concat([w[0], r[0]], axis=1), tf.concat([w[1], r[1]], axis=1)], axis=0)
    gate_kernel, input_kernel, hidden_kernel = tf.transpose(gates), tf.transpose(w[2]), tf.transpose(r[2])
    gate_bias = tf.concat([b_w[0], b_w[1]], axis=0) + tf.concat([b_r[0], b_r[1]], axis=0)
    return [gate_kernel, gate_bias, input_kernel, b_w[2], hidden_kernel, b_r[2]]
  return [tf.transpose(tf.concat([w[0], r[0]], axis=1)), b_w[0] + b_r[0]]


def tf_to_cudnn(rnn_mode, tf_params, input_size, num_units, recurrent_size=None):
  """One pseudo-layer's TF canonical tensors -> its cuDNN canonical (weights, biases).

  Each summed TF bias becomes two equal halves (b_W = b_R = bias / 2), as TF 1.15 did. The ops are built
  in TF 1.15's order (CudnnParamsFormatConverter*), weights before biases.

  Args:
    rnn_mode: "lstm", "gru", "rnn_tanh" or "rnn_relu".
    tf_params: the TF canonical tensors, in TF_CANONICAL_NAMES[rnn_mode]'s order.
    input_size: this pseudo-layer's input width.
    num_units: the number of units.
    recurrent_size: the width of the recurrent input (an LSTM's num_proj); default num_units.

  Returns:
    (weights, biases): lists in cuDNN's order (see cudnn_to_tf).
  """
  split = [input_size, recurrent_size or num_units]
  tf_params = [tf.convert_to_tensor(t) for t in tf_params]
  if rnn_mode == CUDNN_LSTM:
    kernel, bias = tf_params
    i, c, f, o = tf.split(tf.transpose(kernel), 4, axis=0)
    (w_i, r_i), (w_c, r_c), (w_f, r_f), (w_o, r_o) = [tf.split(g, split, axis=1) for g in (i, c, f, o)]
    b_i, b_c, b_f, b_o = tf.split(bias, 4, axis=0)
    halves = [b * 0.5 for b in (b_i, b_f, b_c, b_o)]
    return [w_i, w_f, w_c, w_o, r_i, r_f, r_c, r_o], halves + halves
  if rnn_mode == CUDNN_GRU:
    gate_kernel, gate_bias, input_kernel, input_bias, hidden_kernel, hidden_bias = tf_params
    gates, w_h, r_h = tf.transpose(gate_kernel), tf.transpose(input_kernel), tf.transpose(hidden_kernel)
    g_r, g_u = tf.split(gates, 2, axis=0)
    (w_r, r_r), (w_u, r_u) = tf.split(g_r, split, axis=1), tf.split(g_u, split, axis=1)
    b_w_ru, b_r_ru = gate_bias * 0.5, gate_bias * 0.5
    b_wr, b_wu = tf.split(b_w_ru, 2, axis=0)
    b_rr, b_ru = tf.split(b_r_ru, 2, axis=0)
    return [w_r, w_u, w_h, r_r, r_u, r_h], [b_wr, b_wu, input_bias, b_rr, b_ru, hidden_bias]
  kernel, bias = tf_params
  w, r = tf.split(tf.transpose(kernel), split, axis=1)
  return [w, r], [bias * 0.5, bias * 0.5]


# --- all pseudo-layers: cuDNN canonical <-> opaque --------------------------------------------------

def opaque_params_size(rnn_mode, num_layers, num_units, input_size, direction=CUDNN_RNN_UNIDIRECTION):
  """The number of scalars in the opaque buffer (the cuDNN canonical parameters, packed)."""
  _check_mode(rnn_mode, direction)
  half = PARAMS_PER_LAYER[rnn_mode] // 2
  total = 0
  for width in pseudo_layer_input_sizes(num_layers, num_units, input_size, direction):
    total += half * num_units * (width + num_units) + 2 * half * num_units
  return total


def cudnn_canonical_to_opaque(weights, biases):
  """Packs every pseudo-layer's matrices (row-major), then every pseudo-layer's biases.

  Args:
    weights: the flat list of all pseudo-layers' matrices, pseudo-layer by pseudo-layer.
    biases: the flat list of all pseudo-layers' bias vectors, in the same order.

  Returns:
    The 1-D opaque buffer.
  """
  return tf.concat([tf.reshape(t, [-1]) for t in list(weights) + list(biases)], axis=0)


def opaque_to_cudnn_canonical(opaque, rnn_mode, num_layers, num_units, input_size,
                              direction=CUDNN_RNN_UNIDIRECTION):
  """Unpacks the opaque buffer into the flat lists (weights, biases) of cudnn_canonical_to_opaque.

  Raises:
    ValueError: the buffer's static size is not opaque_params_size(...).
  """
  expected = opaque_params_size(rnn_mode, num_layers, num_units, input_size, direction)
  opaque = tf.convert_to_tensor(opaque)
  size = tf.compat.dimension_value(opaque.shape[0]) if opaque.shape.rank == 1 else None
  if size is not None and size != expected:
    raise ValueError("the opaque params of a %d-layer %s %s with %d units on %d inputs have %d "
                     "entries; got %d" % (num_layers, direction, rnn_mode, num_units, input_size,
                                          expected, size))
  half = PARAMS_PER_LAYER[rnn_mode] // 2
  shapes = []
  for width in pseudo_layer_input_sizes(num_layers, num_units, input_size, direction):
    shapes += [[num_units, width]] * half + [[num_units, num_units]] * half
  bias_shapes = [[num_units]] * len(shapes)
  sizes = [a * b for a, b in shapes] + [num_units] * len(bias_shapes)
  pieces = tf.split(opaque, sizes)
  weights = [tf.reshape(p, s) for p, s in zip(pieces[:len(shapes)], shapes)]
  return weights, pieces[len(shapes):]


def opaque_to_tf_canonical(opaque, rnn_mode, num_layers, num_units, input_size,
                           direction=CUDNN_RNN_UNIDIRECTION):
  """The opaque buffer -> one list of TF canonical tensors per pseudo-layer (what a checkpoint holds)."""
  weights, biases = opaque_to_cudnn_canonical(opaque, rnn_mode, num_layers, num_units, input_size,
                                              direction)
  n = PARAMS_PER_LAYER[rnn_mode]
  return [cudnn_to_tf(rnn_mode, weights[k:k + n], biases[k:k + n])
          for k in range(0, len(weights), n)]


def tf_canonical_to_opaque(tf_params, rnn_mode, num_layers, num_units, input_size,
                           direction=CUDNN_RNN_UNIDIRECTION):
  """One list of TF canonical tensors per pseudo-layer -> the opaque buffer.

  Raises:
    ValueError: not one list per pseudo-layer.
  """
  widths = pseudo_layer_input_sizes(num_layers, num_units, input_size, direction)
  if len(tf_params) != len(widths):
    raise ValueError("expected TF canonical params for %d pseudo-layers (layers x directions); got "
                     "%d" % (len(widths), len(tf_params)))
  weights, biases = [], []
  for params, width in zip(tf_params, widths):
    w, b = tf_to_cudnn(rnn_mode, params, width, num_units)
    weights += w
    biases += b
  return cudnn_canonical_to_opaque(weights, biases)
