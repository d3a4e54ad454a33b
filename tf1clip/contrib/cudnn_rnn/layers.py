"""The cuDNN RNN layers of TF 1.15's tf.contrib.cudnn_rnn: CudnnLSTM, CudnnGRU, CudnnRNNTanh, CudnnRNNRelu.

Place in the data flow (DESIGN.md): tf.raw_ops.CudnnRNNV3 / CudnnRNNCanonicalToParams / CudnnRNNParamsToCanonical
(GPU kernels) and canonical (the formats) <- contrib.cudnn_rnn (this module) <- compat <- cli.

They run only where cuDNN does: constructing one on a machine without a GPU raises
CudnnNotAvailableError naming the CPU cells (CudnnCompatibleLSTMCell / CudnnCompatibleGRUCell) that
compute the same thing and read the same checkpoint. On a GPU a layer holds one opaque variable
`<layer scope>/opaque_kernel` and registers a saveable (as TF 1.15's CudnnLSTMSaveable did) that
writes the TF canonical weights under the names of the compatible cells
(canonical.canonical_variable_names), so a checkpoint it writes restores into the CPU cells, and
one written by them restores into it. Placement is left to TensorFlow (no device pinning).
"""

import tensorflow as tf
from tensorflow.python.training.saving import saveable_object
from tf_keras.src.legacy_tf_layers import base as base_layer

from tf1clip.contrib.cudnn_rnn import canonical

V1 = tf.compat.v1


class CudnnNotAvailableError(RuntimeError):
  """A cuDNN layer was constructed where TensorFlow sees no GPU."""


_CPU_ALTERNATIVE = {
    canonical.CUDNN_LSTM: "tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell",
    canonical.CUDNN_GRU: "tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell",
    canonical.CUDNN_RNN_TANH: "tf.contrib.rnn.BasicRNNCell (activation tanh)",
    canonical.CUDNN_RNN_RELU: "tf.contrib.rnn.BasicRNNCell(activation=tf.nn.relu)",
}


def _check_gpu(layer_name, rnn_mode):
  if tf.config.list_physical_devices("GPU"):
    return
  raise CudnnNotAvailableError(
      "tf.contrib.cudnn_rnn.%s runs on cuDNN, but tf.config.list_physical_devices('GPU') is empty. "
      "On CPU build the same network from %s: a tf.contrib.rnn.MultiRNNCell of them in "
      "tf.nn.dynamic_rnn(time_major=True) under the layer's scope (stack_bidirectional_dynamic_rnn "
      "for direction='bidirectional'); a checkpoint written by %s restores into it and back."
      % (layer_name, _CPU_ALTERNATIVE[rnn_mode], layer_name))


class _CudnnSaveable(saveable_object.SaveableObject):
  """Saves the opaque variable as TF canonical weights under the compatible cells' names."""

  def __init__(self, layer, opaque, input_size):
    self._layer = layer
    self._opaque = opaque
    self._input_size = input_size
    names = canonical.canonical_variable_names(layer.scope_name_for_checkpoint, layer._rnn_mode,
                                               layer.num_layers, layer.direction)
    weights, biases = tf.raw_ops.CudnnRNNParamsToCanonical(
        num_layers=layer.num_layers, num_units=layer.num_units, input_size=input_size,
        params=opaque, num_params=canonical.PARAMS_PER_LAYER[layer._rnn_mode] * layer._num_pseudo,
        rnn_mode=layer._rnn_mode, input_mode=layer.input_mode, direction=layer.direction)
    n = canonical.PARAMS_PER_LAYER[layer._rnn_mode]
    specs = []
    for k, layer_names in enumerate(names):
      tensors = canonical.cudnn_to_tf(layer._rnn_mode, weights[k * n:(k + 1) * n],
                                      biases[k * n:(k + 1) * n])
      specs += [saveable_object.SaveSpec(t, "", name) for t, name in zip(tensors, layer_names)]
    self._per_layer = len(canonical.TF_CANONICAL_NAMES[layer._rnn_mode])
    super().__init__(opaque, specs, opaque.op.name + "_canonical")

  def restore(self, restored_tensors, restored_shapes):
    layer = self._layer
    groups = [restored_tensors[k:k + self._per_layer]
              for k in range(0, len(restored_tensors), self._per_layer)]
    widths = canonical.pseudo_layer_input_sizes(layer.num_layers, layer.num_units, self._input_size,
                                                layer.direction)
    weights, biases = [], []
    for params, width in zip(groups, widths):
      w, b = canonical.tf_to_cudnn(layer._rnn_mode, params, width, layer.num_units)
      weights += w
      biases += b
    opaque = tf.raw_ops.CudnnRNNCanonicalToParams(
        num_layers=layer.num_layers, num_units=layer.num_units, input_size=self._input_size,
        weights=weights, biases=biases, rnn_mode=layer._rnn_mode, input_mode=layer.input_mode,
        direction=layer.direction)
    return V1.assign(self._opaque, opaque, validate_shape=False)


class _CudnnRNN(base_layer.Layer):
  """A multi-layer cuDNN RNN over time-major inputs; subclasses fix the RNN mode."""

  _rnn_mode = None

  def __init__(self, num_layers, num_units, input_mode=canonical.CUDNN_INPUT_LINEAR_MODE,
               direction=canonical.CUDNN_RNN_UNIDIRECTION, dropout=0., seed=None,
               dtype=tf.float32, kernel_initializer=None, bias_initializer=None, name=None):
    """Creates the layer.

    Args:
      num_layers: the number of stacked layers.
      num_units: units per layer and direction.
      input_mode: "linear_input" (the only mode the canonical conversion supports).
      direction: "unidirectional" or "bidirectional".
      dropout: dropout between layers (training only).
      seed: the dropout's seed.
      dtype: float16, float32 or float64.
      kernel_initializer: initializer of each canonical weight matrix (default glorot uniform).
      bias_initializer: initializer of each canonical bias (default zeros).
      name: the layer's scope name (default: the class name in snake case, e.g. "cudnn_lstm").

    Raises:
      CudnnNotAvailableError: TensorFlow sees no GPU.
      ValueError: an unknown direction or input_mode.
    """
    _check_gpu(type(self).__name__, self._rnn_mode)
    if input_mode != canonical.CUDNN_INPUT_LINEAR_MODE:
      raise ValueError("%s supports input_mode=%r only; got %r"
                       % (type(self).__name__, canonical.CUDNN_INPUT_LINEAR_MODE, input_mode))
    if direction not in (canonical.CUDNN_RNN_UNIDIRECTION, canonical.CUDNN_RNN_BIDIRECTION):
      raise ValueError("direction must be 'unidirectional' or 'bidirectional'; got %r" % direction)
    super().__init__(dtype=dtype, name=name)
    self.num_layers = num_layers
    self.num_units = num_units
    self.input_mode = input_mode
    self.direction = direction
    self.dropout = dropout
    self._seed = seed
    self._kernel_initializer = kernel_initializer
    self._bias_initializer = bias_initializer
    self._num_pseudo = num_layers * canonical.num_dirs(direction)
    self.kernel = None

  @property
  def scope_name_for_checkpoint(self):
    return self._scope.name if self._scope is not None else self.name

  def build(self, input_shape):
    input_size = tf.compat.dimension_value(tf.TensorShape(input_shape)[-1])
    if input_size is None:
      raise ValueError("%s needs the inputs' last dimension to be known; got shape %s"
                       % (type(self).__name__, input_shape))
    kernel_init = self._kernel_initializer or V1.glorot_uniform_initializer()
    bias_init = self._bias_initializer or V1.zeros_initializer()
    half = canonical.PARAMS_PER_LAYER[self._rnn_mode] // 2
    weights, biases = [], []
    for width in canonical.pseudo_layer_input_sizes(self.num_layers, self.num_units, input_size,
                                                    self.direction):
      weights += [kernel_init([self.num_units, width], dtype=self.dtype) for _ in range(half)]
      weights += [kernel_init([self.num_units, self.num_units], dtype=self.dtype)
                  for _ in range(half)]
      biases += [bias_init([self.num_units], dtype=self.dtype) for _ in range(2 * half)]
    opaque_init = tf.raw_ops.CudnnRNNCanonicalToParams(
        num_layers=self.num_layers, num_units=self.num_units, input_size=input_size,
        weights=weights, biases=biases, rnn_mode=self._rnn_mode, input_mode=self.input_mode,
        direction=self.direction)
    self.kernel = V1.get_variable("opaque_kernel", dtype=self.dtype, initializer=opaque_init,
                                  validate_shape=False, trainable=True)
    self._trainable_weights.append(self.kernel)
    V1.add_to_collection(V1.GraphKeys.SAVEABLE_OBJECTS, _CudnnSaveable(self, self.kernel, input_size))
    self.built = True

  def call(self, inputs, initial_state=None, sequence_lengths=None, time_major=True, training=True):
    """Runs the RNN.

    Args:
      inputs: [time, batch, depth] ([batch, time, depth] with time_major=False).
      initial_state: optional (h,) or (h, c) for LSTM, each [num_layers * num_dirs, batch, units].
      sequence_lengths: optional [batch] int32 lengths.
      time_major: the layout of inputs and outputs.
      training: run in training mode (dropout, kept activations for the gradient).

    Returns:
      (outputs [time, batch, num_dirs * units], (h,) or (h, c) for LSTM).
    """
    if not time_major:
      inputs = tf.transpose(inputs, [1, 0, 2])
    time_len, batch = tf.shape(inputs)[0], tf.shape(inputs)[1]
    state_shape = tf.stack([self._num_pseudo, batch, self.num_units])
    if initial_state is None:
      h = c = tf.zeros(state_shape, dtype=inputs.dtype)
    else:
      h = initial_state[0]
      c = initial_state[1] if self._rnn_mode == canonical.CUDNN_LSTM else tf.zeros_like(h)
    if sequence_lengths is None:
      sequence_lengths = tf.fill([batch], time_len)
    seed, seed2 = V1.get_seed(self._seed)
    outputs, h, c, _, _ = tf.raw_ops.CudnnRNNV3(
        input=inputs, input_h=h, input_c=c, params=self.kernel,
        sequence_lengths=tf.cast(sequence_lengths, tf.int32), rnn_mode=self._rnn_mode,
        input_mode=self.input_mode, direction=self.direction, dropout=self.dropout,
        seed=seed or 0, seed2=seed2 or 0, is_training=training, time_major=True)
    if not time_major:
      outputs = tf.transpose(outputs, [1, 0, 2])
    return outputs, ((h, c) if self._rnn_mode == canonical.CUDNN_LSTM else (h,))


class CudnnLSTM(_CudnnRNN):
  """cuDNN's LSTM (gates i, f, c, o; no forget bias); on CPU use CudnnCompatibleLSTMCell."""
  _rnn_mode = canonical.CUDNN_LSTM


class CudnnGRU(_CudnnRNN):
  """cuDNN's GRU (reset gate after the recurrent projection); on CPU use CudnnCompatibleGRUCell."""
  _rnn_mode = canonical.CUDNN_GRU


class CudnnRNNTanh(_CudnnRNN):
  """cuDNN's tanh RNN; on CPU use BasicRNNCell."""
  _rnn_mode = canonical.CUDNN_RNN_TANH


class CudnnRNNRelu(_CudnnRNN):
  """cuDNN's ReLU RNN; on CPU use BasicRNNCell(activation=tf.nn.relu)."""
  _rnn_mode = canonical.CUDNN_RNN_RELU
