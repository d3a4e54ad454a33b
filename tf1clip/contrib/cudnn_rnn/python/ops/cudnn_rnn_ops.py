"""TF 1.15's cuDNN parameter format converters and checkpoint saveables (tf.contrib.cudnn_rnn).

  CudnnParamsFormatConverterLSTM / GRU / Tanh / Relu(num_layers, num_units, input_size, num_proj=None,
      input_mode, direction): opaque_to_tf_canonical(opaque) -> (weights, biases[, weights_proj]) and
      tf_canonical_to_opaque(weights + biases, weights_proj=None) -> opaque, in TF 1.15's layout: every
      pseudo-layer's (layer, then forward before backward) TF canonical weights, then every one's biases.
  CudnnLSTMSaveable / CudnnGRUSaveable / CudnnRNNTanhSaveable / CudnnRNNReluSaveable(opaque_params, num_layers,
      num_units, input_size, input_mode, direction, scope=None, name="cudnn_rnn_saveable"): a SaveableObject
      writing the opaque variable as those TF canonical tensors under the compatible cells' variable names
      (`<scope>/rnn/multi_rnn_cell/cell_<l>/<cell>/...`), restoring them into it. The cuDNN layers
      (layers.py) register one of these, as TF 1.15's did.

The opaque <-> cuDNN canonical step is cuDNN's own (the raw ops, GPU kernels only, as on TF 1.15: the graph
builds anywhere; running it without a GPU fails with InvalidArgumentError); cuDNN canonical <-> TF canonical
is _canonical.cudnn_to_tf / tf_to_cudnn, which build TF 1.15's ops in TF 1.15's order (so the tensors have
TF 1.15's names). TF 1.15 pinned the two cuDNN ops to "/gpu:0"; here TensorFlow places them (they have GPU
kernels only, so on a GPU they land there). Object-based checkpoints (tf.train.Checkpoint's split
dependencies of TF 1.15's private `_add_trackable_dependencies`) are not ported: name-based tf.train.Saver
checkpoints are.
"""

import tensorflow as tf
from tensorflow.python.training.saving import saveable_object

from tf1clip.contrib.cudnn_rnn.python.ops import _canonical

V1 = tf.compat.v1

CUDNN_LSTM_PARAMS_PER_LAYER = _canonical.PARAMS_PER_LAYER[_canonical.CUDNN_LSTM]
CUDNN_GRU_PARAMS_PER_LAYER = _canonical.PARAMS_PER_LAYER[_canonical.CUDNN_GRU]
CUDNN_RNN_TANH_PARAMS_PER_LAYER = _canonical.PARAMS_PER_LAYER[_canonical.CUDNN_RNN_TANH]
CUDNN_RNN_RELU_PARAMS_PER_LAYER = _canonical.PARAMS_PER_LAYER[_canonical.CUDNN_RNN_RELU]


class CudnnParamsFormatConverter(object):
  """Converts between a cuDNN RNN's opaque params and the TF canonical weights and biases (abstract)."""

  _rnn_mode = None
  _num_params_per_layer = None

  def __init__(self, num_layers, num_units, input_size, num_proj=None,
               input_mode=_canonical.CUDNN_INPUT_LINEAR_MODE, direction=_canonical.CUDNN_RNN_UNIDIRECTION):
    """Creates the converter.

    Args:
      num_layers: the number of layers.
      num_units: the number of units per layer (and direction).
      input_size: the depth of the inputs.
      num_proj: an LSTM's projection size (None or 0: no projection).
      input_mode: "linear_input" (the default), "skip_input" or "auto_select", passed to the cuDNN ops.
      direction: "unidirectional" or "bidirectional".
    """
    self._num_layers = num_layers
    self._input_size = input_size
    self._num_units = num_units
    self._input_mode = input_mode
    self._num_proj = num_proj
    self._direction = direction
    self._num_dirs = 1 if direction == _canonical.CUDNN_RNN_UNIDIRECTION else 2
    self._num_params = self._num_params_per_layer * num_layers * self._num_dirs

  def tf_canonical_to_opaque(self, tf_canonicals, weights_proj=None):
    """TF canonical params -> the opaque params.

    Args:
      tf_canonicals: every pseudo-layer's TF canonical weights, then every one's biases (what
        opaque_to_tf_canonical returns, concatenated).
      weights_proj: an LSTM's projection kernels [num_units, num_proj], one per pseudo-layer, or None.

    Returns:
      The opaque params, a 1-D tensor.
    """
    cu_weights, cu_biases = self._tf_canonical_to_cu_canonical(tf_canonicals, weights_proj)
    cu_weights = [tf.reshape(w, [-1]) for w in cu_weights]
    return self._cu_canonical_to_opaque(cu_weights, cu_biases)

  def opaque_to_tf_canonical(self, opaque_param):
    """The opaque params -> (weights, biases), and the projection kernels when num_proj is set.

    The weights of pseudo-layer k (layer k // num_dirs, forward first) come in TF 1.15's order: one
    kernel for an LSTM and a plain RNN, gates/kernel, candidate/input_projection/kernel and
    candidate/hidden_projection/kernel for a GRU; the biases likewise.
    """
    cu_weights, cu_biases = self._opaque_to_cu_canonical(opaque_param)
    return self._cu_canonical_to_tf_canonical(cu_weights, cu_biases)

  def _opaque_to_cu_canonical(self, opaque_param):
    """The opaque params -> cuDNN's canonical (weights, biases), by cuDNN (GPU kernel only)."""
    common = dict(num_layers=self._num_layers, num_units=self._num_units, input_size=self._input_size,
                  params=opaque_param, rnn_mode=self._rnn_mode, input_mode=self._input_mode,
                  direction=self._direction)
    if self._num_proj:
      return tf.raw_ops.CudnnRNNParamsToCanonicalV2(
          num_params_weights=self._num_params + self._num_layers * self._num_dirs,
          num_params_biases=self._num_params, num_proj=self._num_proj, **common)
    return tf.raw_ops.CudnnRNNParamsToCanonical(num_params=self._num_params, **common)

  def _cu_canonical_to_opaque(self, cu_weights, cu_biases):
    """cuDNN's canonical weights and biases -> the opaque params, by cuDNN (GPU kernel only)."""
    common = dict(num_layers=self._num_layers, num_units=self._num_units, input_size=self._input_size,
                  weights=cu_weights, biases=cu_biases, rnn_mode=self._rnn_mode, input_mode=self._input_mode,
                  direction=self._direction)
    if self._num_proj:
      return tf.raw_ops.CudnnRNNCanonicalToParamsV2(num_proj=self._num_proj, **common)
    return tf.raw_ops.CudnnRNNCanonicalToParams(**common)

  def _cu_canonical_to_tf_canonical(self, cu_weights, cu_biases):
    n = self._num_params_per_layer
    per_weights = n + (1 if self._num_proj else 0)
    tf_weights, tf_biases, tf_weights_proj = [], [], []
    for k in range(self._num_layers * self._num_dirs):
      weights = list(cu_weights[k * per_weights:(k + 1) * per_weights])
      params = _canonical.cudnn_to_tf(self._rnn_mode, weights[:n], list(cu_biases[k * n:(k + 1) * n]))
      tf_weights.extend(params[0::2])
      if self._num_proj:
        tf_weights_proj.append(tf.transpose(weights[n]))
      tf_biases.extend(params[1::2])
    if self._num_proj:
      return tf_weights, tf_biases, tf_weights_proj
    return tf_weights, tf_biases

  def _tf_canonical_to_cu_canonical(self, tf_canonicals, weights_proj):
    weights = tf_canonicals[:len(tf_canonicals) // 2]
    biases = tf_canonicals[len(tf_canonicals) // 2:]
    pseudo_layers = self._num_layers * self._num_dirs
    per_layer = len(_canonical.TF_CANONICAL_NAMES[self._rnn_mode]) // 2
    if len(weights) != per_layer * pseudo_layers or len(biases) != per_layer * pseudo_layers:
      raise ValueError(
          "tf_canonical_to_opaque of a %d-layer %s %s takes %d TF canonical weights, then as many biases; got %d "
          "tensors" % (self._num_layers, self._direction, self._rnn_mode, per_layer * pseudo_layers,
                       len(tf_canonicals)))
    per_weights = per_biases = per_layer
    recurrent = self._num_proj or self._num_units
    widths = _canonical.pseudo_layer_input_sizes(self._num_layers, recurrent, self._input_size, self._direction)
    cu_weights, cu_biases = [], []
    for k, width in enumerate(widths):
      layer_weights = weights[k * per_weights:(k + 1) * per_weights]
      layer_biases = biases[k * per_biases:(k + 1) * per_biases]
      params = [t for pair in zip(layer_weights, layer_biases) for t in pair]
      w, b = _canonical.tf_to_cudnn(self._rnn_mode, params, width, self._num_units, recurrent)
      cu_weights.extend(w)
      if weights_proj is not None:
        cu_weights.append(tf.transpose(weights_proj[k]))
      cu_biases.extend(b)
    return cu_weights, cu_biases


class CudnnParamsFormatConverterLSTM(CudnnParamsFormatConverter):
  """Converts between the params of a cuDNN LSTM and TF's (CudnnCompatibleLSTMCell's kernel and bias)."""
  _rnn_mode = _canonical.CUDNN_LSTM
  _num_params_per_layer = CUDNN_LSTM_PARAMS_PER_LAYER


class CudnnParamsFormatConverterGRU(CudnnParamsFormatConverter):
  """Converts between the params of a cuDNN GRU and TF's (CudnnCompatibleGRUCell's six variables)."""
  _rnn_mode = _canonical.CUDNN_GRU
  _num_params_per_layer = CUDNN_GRU_PARAMS_PER_LAYER


class CudnnParamsFormatConverterTanh(CudnnParamsFormatConverter):
  """Converts between the params of a cuDNN tanh RNN and TF's (BasicRNNCell's kernel and bias)."""
  _rnn_mode = _canonical.CUDNN_RNN_TANH
  _num_params_per_layer = CUDNN_RNN_TANH_PARAMS_PER_LAYER


class CudnnParamsFormatConverterRelu(CudnnParamsFormatConverter):
  """Converts between the params of a cuDNN ReLU RNN and TF's (BasicRNNCell's kernel and bias)."""
  _rnn_mode = _canonical.CUDNN_RNN_RELU
  _num_params_per_layer = CUDNN_RNN_RELU_PARAMS_PER_LAYER


class CudnnOpaqueParamsSaveable(saveable_object.SaveableObject):
  """Saves a cuDNN RNN's opaque params as TF canonical weights under the compatible cells' names (abstract)."""

  _format_converter_cls = None
  _rnn_mode = None

  def __init__(self, opaque_params, num_layers, num_units, input_size,
               input_mode=_canonical.CUDNN_INPUT_LINEAR_MODE, direction=_canonical.CUDNN_RNN_UNIDIRECTION,
               scope=None, name="cudnn_rnn_saveable"):
    """Creates the saveable.

    Args:
      opaque_params: the variable holding the opaque params.
      num_layers, num_units, input_size, input_mode, direction: the cuDNN RNN's.
      scope: a variable scope or its name: the scope of the equivalent network of compatible cells, the
        prefix of every saved name (None or "": none).
      name: the saveable's name.
    """
    self._num_layers = num_layers
    self._input_size = input_size
    self._num_units = num_units
    self._input_mode = input_mode
    self._direction = direction
    if scope is not None:
      scope_name = scope.name if isinstance(scope, V1.VariableScope) else scope
      self._scope = scope_name or None
    else:
      self._scope = None
    self._variables = opaque_params
    self._num_dirs = 1 if direction == _canonical.CUDNN_RNN_UNIDIRECTION else 2
    self._format_converter = None
    tf_weights, tf_biases = self.format_converter.opaque_to_tf_canonical(self._variables)
    names = _canonical.canonical_variable_names("", self._rnn_mode, num_layers, direction)
    self._weight_names = [n for layer in names for n in layer[0::2]]
    self._bias_names = [n for layer in names for n in layer[1::2]]
    self._param_names = self._weight_names + self._bias_names
    prefixed = self._param_names
    if self._scope:
      prefixed = ["%s/%s" % (self._scope, n) for n in prefixed]
    specs = [saveable_object.SaveSpec(param, "", param_name)
             for param, param_name in zip(tf_weights + tf_biases, prefixed)]
    super(CudnnOpaqueParamsSaveable, self).__init__(tf.identity(self._variables), specs, name)

  @property
  def format_converter(self):
    """The CudnnParamsFormatConverter* of this RNN (made on first use)."""
    if self._format_converter is None:
      self._format_converter = self._format_converter_cls(
          self._num_layers, self._num_units, self._input_size, input_mode=self._input_mode,
          direction=self._direction)
    return self._format_converter

  def restore(self, restored_tensors, restored_shapes):
    opaque_params = self.format_converter.tf_canonical_to_opaque(restored_tensors)
    return V1.assign(self._variables, opaque_params, validate_shape=False)


class CudnnLSTMSaveable(CudnnOpaqueParamsSaveable):
  """Saves a cuDNN LSTM's params as CudnnCompatibleLSTMCell's kernel and bias."""
  _format_converter_cls = CudnnParamsFormatConverterLSTM
  _rnn_mode = _canonical.CUDNN_LSTM


class CudnnGRUSaveable(CudnnOpaqueParamsSaveable):
  """Saves a cuDNN GRU's params as CudnnCompatibleGRUCell's variables."""
  _format_converter_cls = CudnnParamsFormatConverterGRU
  _rnn_mode = _canonical.CUDNN_GRU


class CudnnRNNTanhSaveable(CudnnLSTMSaveable):
  """Saves a cuDNN tanh RNN's params as BasicRNNCell's kernel and bias."""
  _format_converter_cls = CudnnParamsFormatConverterTanh
  _rnn_mode = _canonical.CUDNN_RNN_TANH


class CudnnRNNReluSaveable(CudnnLSTMSaveable):
  """Saves a cuDNN ReLU RNN's params as BasicRNNCell's kernel and bias."""
  _format_converter_cls = CudnnParamsFormatConverterRelu
  _rnn_mode = _canonical.CUDNN_RNN_RELU
