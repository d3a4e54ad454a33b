"""The cuDNN RNN layers of TF 1.15's tf.contrib.cudnn_rnn: CudnnLSTM, CudnnGRU, CudnnRNNTanh, CudnnRNNRelu.

They run only where cuDNN does. As in TF 1.15, a layer constructs and builds its graph on a machine
without a GPU too (the opaque variable, its saveable, the CudnnRNN op); running it there fails with
TensorFlow's InvalidArgumentError (no CPU kernel), and building one logs a warning naming the CPU cells
(CudnnCompatibleLSTMCell / CudnnCompatibleGRUCell) that compute the same thing and read the same
checkpoint. A layer holds one opaque variable
`<layer scope>/opaque_kernel` and registers its class's saveable (cudnn_rnn_ops.CudnnLSTMSaveable, ..., as TF 1.15's
layers did, named "<layer scope>/opaque_kernel_saveable") that writes the TF canonical weights under the names
of the compatible cells (_canonical.canonical_variable_names), so a checkpoint it writes restores into the CPU
cells, and one written by them restores into it. Placement is left to TensorFlow (no device pinning).
"""

import tensorflow as tf
from tf_keras.src.legacy_tf_layers import base as base_layer

from tf1clip.contrib.cudnn_rnn.python.ops import _canonical
from tf1clip.contrib.cudnn_rnn.python.ops import cudnn_rnn_ops

V1 = tf.compat.v1


class CudnnNotAvailableError(RuntimeError):
  """Kept for code that catches it; the layers no longer raise it (TF 1.15 built them on CPU too)."""


_CPU_ALTERNATIVE = {
    _canonical.CUDNN_LSTM: "tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell",
    _canonical.CUDNN_GRU: "tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell",
    _canonical.CUDNN_RNN_TANH: "tf.contrib.rnn.BasicRNNCell (activation tanh)",
    _canonical.CUDNN_RNN_RELU: "tf.contrib.rnn.BasicRNNCell(activation=tf.nn.relu)",
}


def _warn_without_gpu(layer_name, rnn_mode):
  if tf.config.list_physical_devices("GPU"):
    return
  V1.logging.warning(
      "tf.contrib.cudnn_rnn.%s runs on cuDNN, but tf.config.list_physical_devices('GPU') is empty: its graph "
      "builds, running it fails (no CPU kernel), as on TF 1.15. On CPU build the same network from %s: a "
      "tf.contrib.rnn.MultiRNNCell of them in tf.nn.dynamic_rnn(time_major=True) under the layer's scope "
      "(stack_bidirectional_dynamic_rnn for direction='bidirectional'); a checkpoint written by %s restores into "
      "it and back." % (layer_name, _CPU_ALTERNATIVE[rnn_mode], layer_name))


class _CudnnRNN(base_layer.Layer):
  """A multi-layer cuDNN RNN over time-major inputs; subclasses fix the RNN mode."""

  _rnn_mode = None
  _saveable_cls = None  # the layer's cudnn_rnn_ops.Cudnn*Saveable

  def __init__(self, num_layers, num_units, input_mode=_canonical.CUDNN_INPUT_LINEAR_MODE,
               direction=_canonical.CUDNN_RNN_UNIDIRECTION, dropout=0., seed=None,
               dtype=tf.float32, kernel_initializer=None, bias_initializer=None, name=None):
    """Creates the layer.

    Args:
      num_layers: the number of stacked layers.
      num_units: units per layer and direction.
      input_mode: "linear_input" (the only mode the canonical conversion supports).
      direction: "unidirectional" or "bidirectional".
      dropout: dropout between layers (training only).
      seed: the op seed of the dropout and of the default kernel initializer.
      dtype: float16, float32 or float64.
      kernel_initializer: initializer of each cuDNN canonical weight matrix (default glorot uniform).
      bias_initializer: initializer of each cuDNN canonical bias (default zeros).
      name: the layer's scope name (default: the class name in snake case, e.g. "cudnn_lstm").

    Raises:
      ValueError: an unknown direction or input_mode, or a dtype that is not a float.
    """
    super().__init__(dtype=dtype, name=name)
    if direction not in (_canonical.CUDNN_RNN_UNIDIRECTION, _canonical.CUDNN_RNN_BIDIRECTION):
      raise ValueError("Invalid direction: %s, expecting %s or %s"
                       % (direction, _canonical.CUDNN_RNN_UNIDIRECTION, _canonical.CUDNN_RNN_BIDIRECTION))
    if input_mode != _canonical.CUDNN_INPUT_LINEAR_MODE:
      raise ValueError("%s supports input_mode=%r only; got %r"
                       % (type(self).__name__, _canonical.CUDNN_INPUT_LINEAR_MODE, input_mode))
    if tf.as_dtype(dtype) not in (tf.float16, tf.float32, tf.float64):
      raise ValueError("Only support float16, float32, float64, provided %s" % dtype)
    self._plain_dtype = tf.as_dtype(dtype)
    self._num_layers = num_layers
    self._num_units = num_units
    self._input_mode = input_mode
    self._direction = direction
    self.dropout = dropout
    self._seed = seed
    self._kernel_initializer = kernel_initializer
    self._bias_initializer = bias_initializer
    self._num_pseudo = num_layers * _canonical.num_dirs(direction)
    self._input_size = None
    self._saveable = None
    self.kernel = None

  num_layers = property(lambda self: self._num_layers)
  num_units = property(lambda self: self._num_units)
  input_mode = property(lambda self: self._input_mode)
  rnn_mode = property(lambda self: self._rnn_mode, doc="`lstm`, `gru`, `rnn_relu` or `rnn_tanh`.")
  direction = property(lambda self: self._direction)
  num_dirs = property(lambda self: _canonical.num_dirs(self._direction))
  saveable = property(lambda self: self._saveable, doc="The checkpoint saveable (after build).")

  @property
  def input_size(self):
    if not self._input_size:
      raise ValueError("'input_size' is unknown since layer has not been built.")
    return self._input_size

  @property
  def canonical_weight_shapes(self):
    """Shapes of the cuDNN canonical weights: per layer (and direction) the input then the recurrent ones."""
    if not self._input_size:
      raise RuntimeError("%s.canonical_weight_shapes invoked before input shape is known" % type(self).__name__)
    half = _canonical.PARAMS_PER_LAYER[self._rnn_mode] // 2
    shapes = []
    for width in _canonical.pseudo_layer_input_sizes(self._num_layers, self._num_units, self._input_size,
                                                    self._direction):
      shapes += [(self._num_units, width)] * half + [(self._num_units, self._num_units)] * half
    return shapes

  @property
  def canonical_bias_shapes(self):
    """Shapes of the cuDNN canonical biases."""
    return [[self._num_units]] * (self._num_pseudo * _canonical.PARAMS_PER_LAYER[self._rnn_mode])

  def state_shape(self, batch_size):
    """[num_layers * num_dirs, batch_size, num_units], twice (h, c) for LSTM, once (h,) otherwise."""
    shape = [self._num_pseudo, batch_size, self._num_units]
    return (shape, list(shape)) if self._rnn_mode == _canonical.CUDNN_LSTM else (shape,)

  def build(self, input_shape):
    if self.built:
      return
    input_shape = tf.TensorShape(input_shape)
    if input_shape.ndims != 3:
      raise ValueError("Expecting input_shape with 3 dims, got %s" % input_shape.ndims)
    input_size = tf.compat.dimension_value(input_shape[-1])
    if input_size is None:
      raise ValueError("The last dimension of the inputs to `CudnnRNN` should be defined. Found `None`.")
    _warn_without_gpu(type(self).__name__, self._rnn_mode)
    self._input_size = input_size
    self._set_scope(None)
    with V1.variable_scope(self._scope, reuse=self.built):  # the layer's scope, also when built by hand
      if self._kernel_initializer is None:
        self._kernel_initializer = V1.glorot_uniform_initializer(seed=self._seed, dtype=self._plain_dtype)
      if self._bias_initializer is None:
        self._bias_initializer = V1.constant_initializer(0.0, dtype=self._plain_dtype)
      weights = [self._kernel_initializer(shape, dtype=self._plain_dtype) for shape in self.canonical_weight_shapes]
      biases = [self._bias_initializer(shape, dtype=self._plain_dtype) for shape in self.canonical_bias_shapes]
      seed, seed2 = V1.get_seed(self._seed)
      opaque_init = tf.raw_ops.CudnnRNNCanonicalToParams(
          num_layers=self._num_layers, num_units=self._num_units, input_size=input_size,
          weights=weights, biases=biases, rnn_mode=self._rnn_mode, input_mode=self._input_mode,
          direction=self._direction, dropout=self.dropout, seed=seed or 0, seed2=seed2 or 0)
      self.kernel = V1.get_variable("opaque_kernel", dtype=self._plain_dtype, initializer=opaque_init,
                                    validate_shape=False, trainable=True)
    if self.kernel not in self._trainable_weights:
      self._trainable_weights.append(self.kernel)
    # As TF 1.15: the saveable lives in the scope the layer is built in (its own under __call__), so the
    # network of compatible cells built in that scope reads the checkpoint; none under a reusing scope.
    if V1.get_variable_scope().reuse is not True:
      self._create_saveable()
    self.built = True

  def _create_saveable(self):
    """Registers the layer's Cudnn*Saveable (its class's `_saveable_cls`) in the SAVEABLE_OBJECTS collection."""
    if self._saveable is not None:
      raise RuntimeError("Cudnn saveable already created.")
    self._saveable = self._saveable_cls(
        opaque_params=self.kernel, num_layers=self.num_layers, num_units=self.num_units,
        input_size=self.input_size, input_mode=self.input_mode, direction=self.direction,
        scope=V1.get_variable_scope(), name="%s_saveable" % self.kernel.name.split(":")[0])
    V1.add_to_collection(V1.GraphKeys.SAVEABLE_OBJECTS, self._saveable)

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

    Raises:
      TypeError: initial_state is not a tuple.
    """
    if initial_state is not None and not isinstance(initial_state, tuple):
      raise TypeError("Invalid initial_state type: %s, expecting tuple." % initial_state)
    if not time_major:
      inputs = tf.transpose(inputs, [1, 0, 2])
    time_len, batch = tf.shape(inputs)[0], tf.shape(inputs)[1]
    if initial_state is None:
      initial_state = tuple(tf.zeros(shape, dtype=inputs.dtype) for shape in self.state_shape(batch))
    h = initial_state[0]
    c = initial_state[1] if self._rnn_mode == _canonical.CUDNN_LSTM else tf.zeros_like(h)
    if sequence_lengths is None:
      sequence_lengths = tf.fill([batch], time_len)
    seed, seed2 = V1.get_seed(self._seed)
    outputs, h, c, _, _ = tf.raw_ops.CudnnRNNV3(
        input=inputs, input_h=h, input_c=c, params=self.kernel,
        sequence_lengths=tf.cast(sequence_lengths, tf.int32), rnn_mode=self._rnn_mode,
        input_mode=self._input_mode, direction=self._direction, dropout=self.dropout,
        seed=seed or 0, seed2=seed2 or 0, is_training=training, time_major=True)
    if not time_major:
      outputs = tf.transpose(outputs, [1, 0, 2])
    return outputs, ((h, c) if self._rnn_mode == _canonical.CUDNN_LSTM else (h,))


class CudnnLSTM(_CudnnRNN):
  """cuDNN's LSTM (gates i, f, c, o; no forget bias); on CPU use CudnnCompatibleLSTMCell."""
  _rnn_mode = _canonical.CUDNN_LSTM
  _saveable_cls = cudnn_rnn_ops.CudnnLSTMSaveable


class CudnnGRU(_CudnnRNN):
  """cuDNN's GRU (reset gate after the recurrent projection); on CPU use CudnnCompatibleGRUCell."""
  _rnn_mode = _canonical.CUDNN_GRU
  _saveable_cls = cudnn_rnn_ops.CudnnGRUSaveable


class CudnnRNNTanh(_CudnnRNN):
  """cuDNN's tanh RNN; on CPU use BasicRNNCell."""
  _rnn_mode = _canonical.CUDNN_RNN_TANH
  _saveable_cls = cudnn_rnn_ops.CudnnRNNTanhSaveable


class CudnnRNNRelu(_CudnnRNN):
  """cuDNN's ReLU RNN; on CPU use BasicRNNCell(activation=tf.nn.relu)."""
  _rnn_mode = _canonical.CUDNN_RNN_RELU
  _saveable_cls = cudnn_rnn_ops.CudnnRNNReluSaveable
