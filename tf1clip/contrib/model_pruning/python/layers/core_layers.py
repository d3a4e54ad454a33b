"""`tf.contrib.model_pruning`'s core layer classes: MaskedConv2D and MaskedFullyConnected, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/model_pruning/python/layers/core_layers.py`.

Each layer creates, beside its `kernel`, a non-trainable `mask` of the kernel's shape (ones) and a scalar
`threshold` (zero), multiplies them into `weights/masked_weight` (the tensor its op uses) and adds mask,
masked weight, threshold and kernel to the collections `masks`, `masked_weights`, `thresholds` and `kernel`
that `pruning.Pruning` reads. The base class is tf-keras' legacy `tf.compat.v1.layers.Layer` (TF 1.15's
`tensorflow.python.layers.base.Layer`, imported from tf_keras so it is the same class whichever Keras
TensorFlow picked), so variables go through the enclosing variable scope and its custom getters.
"""

import tensorflow as tf
from tf_keras.layers import InputSpec
from tf_keras.src.legacy_tf_layers import base
from tf_keras.src.utils import conv_utils

MASK_COLLECTION = "masks"
THRESHOLD_COLLECTION = "thresholds"
MASKED_WEIGHT_COLLECTION = "masked_weights"
WEIGHT_COLLECTION = "kernel"
# The 'weights' part of the name is needed for the quantization library
# to recognize that the kernel should be quantized.
MASKED_WEIGHT_NAME = "weights/masked_weight"

def _add_mask_and_threshold(layer, kernel_shape, create_kernel_first):
  """Creates the layer's mask, kernel and threshold (in TF 1.15's order) and the masked kernel."""
  def mask():
    layer.mask = layer.add_weight(name="mask", shape=kernel_shape, initializer=tf.compat.v1.ones_initializer(),
                                  trainable=False, dtype=layer.dtype)

  def kernel():
    layer.kernel = layer.add_weight(name="kernel", shape=kernel_shape, initializer=layer.kernel_initializer,
                                    regularizer=layer.kernel_regularizer, trainable=True, dtype=layer.dtype)

  for create in ((kernel, mask) if create_kernel_first else (mask, kernel)):
    create()
  layer.threshold = layer.add_weight(name="threshold", shape=[], initializer=tf.compat.v1.zeros_initializer(),
                                     trainable=False, dtype=layer.dtype)
  # Add masked_weights in the weights namescope so as to make it easier
  # for the quantization library to add quant ops.
  layer.masked_kernel = tf.multiply(layer.mask, layer.kernel, MASKED_WEIGHT_NAME)
  tf.compat.v1.add_to_collection(MASK_COLLECTION, layer.mask)
  tf.compat.v1.add_to_collection(MASKED_WEIGHT_COLLECTION, layer.masked_kernel)
  tf.compat.v1.add_to_collection(THRESHOLD_COLLECTION, layer.threshold)
  tf.compat.v1.add_to_collection(WEIGHT_COLLECTION, layer.kernel)

class _MaskedConv(base.Layer):
  """Abstract nD convolution layer whose kernel is multiplied by a mask before use."""

  def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format="channels_last",
               dilation_rate=1, activation=None, use_bias=True, kernel_initializer=None,
               bias_initializer=tf.compat.v1.zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
               activity_regularizer=None, trainable=True, name=None, **kwargs):
    super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
    self.rank = rank
    self.filters = filters
    self.kernel_size = conv_utils.normalize_tuple(kernel_size, rank, "kernel_size")
    self.strides = conv_utils.normalize_tuple(strides, rank, "strides")
    self.padding = conv_utils.normalize_padding(padding)
    self.data_format = conv_utils.normalize_data_format(data_format)
    self.dilation_rate = conv_utils.normalize_tuple(dilation_rate, rank, "dilation_rate")
    self.activation = activation
    self.use_bias = use_bias
    self.kernel_initializer = kernel_initializer
    self.bias_initializer = bias_initializer
    self.kernel_regularizer = kernel_regularizer
    self.bias_regularizer = bias_regularizer
    self.input_spec = InputSpec(ndim=self.rank + 2)

  def build(self, input_shape):
    input_shape = tf.TensorShape(input_shape)
    channel_axis = 1 if self.data_format == "channels_first" else -1
    input_dim = tf.compat.dimension_value(input_shape[channel_axis])
    if input_dim is None:
      raise ValueError("The channel dimension of the inputs should be defined. Found `None`.")
    kernel_shape = self.kernel_size + (input_dim, self.filters)
    _add_mask_and_threshold(self, kernel_shape, create_kernel_first=False)
    if self.use_bias:
      self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer=self.bias_initializer,
                                  regularizer=self.bias_regularizer, trainable=True, dtype=self.dtype)
    else:
      self.bias = None
    self.input_spec = InputSpec(ndim=self.rank + 2, axes={channel_axis: input_dim})
    self.built = True

  def call(self, inputs):
    outputs = tf.compat.v1.nn.convolution(
        input=inputs, filter=self.masked_kernel, dilation_rate=self.dilation_rate, strides=self.strides,
        padding=self.padding.upper(), data_format=conv_utils.convert_data_format(self.data_format, self.rank + 2))
    if self.bias is not None:
      if self.data_format == "channels_first":
        if self.rank == 1:
          # nn.bias_add does not accept a 1D input tensor.
          outputs += tf.reshape(self.bias, (1, self.filters, 1))
        if self.rank == 2:
          outputs = tf.nn.bias_add(outputs, self.bias, data_format="NCHW")
        if self.rank == 3:
          # bias_add on a 4D view: Z and Y collapsed into one dimension.
          outputs_shape = outputs.shape.as_list()
          outputs_4d = tf.reshape(outputs, [outputs_shape[0], outputs_shape[1],
                                            outputs_shape[2] * outputs_shape[3], outputs_shape[4]])
          outputs_4d = tf.nn.bias_add(outputs_4d, self.bias, data_format="NCHW")
          outputs = tf.reshape(outputs_4d, outputs_shape)
      else:
        outputs = tf.nn.bias_add(outputs, self.bias, data_format="NHWC")
    if self.activation is not None:
      return self.activation(outputs)
    return outputs

  def compute_output_shape(self, input_shape):
    input_shape = tf.TensorShape(input_shape).as_list()
    space = input_shape[1:-1] if self.data_format == "channels_last" else input_shape[2:]
    new_space = [conv_utils.conv_output_length(dim, self.kernel_size[i], padding=self.padding,
                                               stride=self.strides[i], dilation=self.dilation_rate[i])
                 for i, dim in enumerate(space)]
    if self.data_format == "channels_last":
      return tf.TensorShape([input_shape[0]] + new_space + [self.filters])
    return tf.TensorShape([input_shape[0], self.filters] + new_space)

class MaskedConv2D(_MaskedConv):
  """2D convolution layer whose kernel is masked (see `_MaskedConv`)."""

  def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format="channels_last",
               dilation_rate=(1, 1), activation=None, use_bias=True, kernel_initializer=None,
               bias_initializer=tf.compat.v1.zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
               activity_regularizer=None, trainable=True, name=None, **kwargs):
    super().__init__(
        rank=2, filters=filters, kernel_size=kernel_size, strides=strides, padding=padding,
        data_format=data_format, dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
        kernel_initializer=kernel_initializer, bias_initializer=bias_initializer,
        kernel_regularizer=kernel_regularizer, bias_regularizer=bias_regularizer,
        activity_regularizer=activity_regularizer, trainable=trainable, name=name, **kwargs)

class MaskedFullyConnected(base.Layer):
  """Fully-connected layer `activation(inputs . (mask * kernel) + bias)` with a masked weight matrix.

  Inputs of rank > 2 are contracted over their last axis (tensordot), as TF 1.15's did.
  """

  def __init__(self, units, activation=None, use_bias=True, kernel_initializer=None,
               bias_initializer=tf.compat.v1.zeros_initializer(), kernel_regularizer=None, bias_regularizer=None,
               activity_regularizer=None, trainable=True, name=None, **kwargs):
    super().__init__(trainable=trainable, name=name, activity_regularizer=activity_regularizer, **kwargs)
    self.units = units
    self.activation = activation
    self.use_bias = use_bias
    self.kernel_initializer = kernel_initializer
    self.bias_initializer = bias_initializer
    self.kernel_regularizer = kernel_regularizer
    self.bias_regularizer = bias_regularizer
    self.input_spec = InputSpec(min_ndim=2)

  def build(self, input_shape):
    input_shape = tf.TensorShape(input_shape)
    last = tf.compat.dimension_value(input_shape[-1])
    if last is None:
      raise ValueError("The last dimension of the inputs to `Dense` should be defined. Found `None`.")
    self.input_spec = InputSpec(min_ndim=2, axes={-1: last})
    _add_mask_and_threshold(self, [last, self.units], create_kernel_first=True)
    if self.use_bias:
      self.bias = self.add_weight("bias", shape=[self.units], initializer=self.bias_initializer,
                                  regularizer=self.bias_regularizer, dtype=self.dtype, trainable=True)
    else:
      self.bias = None
    self.built = True

  def call(self, inputs):
    inputs = tf.convert_to_tensor(inputs, dtype=self.dtype)
    shape = inputs.get_shape().as_list()
    output_shape = shape[:-1] + [self.units]
    if len(output_shape) > 2:
      # Broadcasting is required for the inputs.
      outputs = tf.tensordot(inputs, self.masked_kernel, [[len(shape) - 1], [0]])
      # Reshape the output back to the original ndim of the input.
      outputs.set_shape(output_shape)
    else:
      outputs = tf.matmul(inputs, self.masked_kernel)
    if self.use_bias:
      outputs = tf.nn.bias_add(outputs, self.bias)
    if self.activation is not None:
      return self.activation(outputs)  # pylint: disable=not-callable
    return outputs

  def compute_output_shape(self, input_shape):
    input_shape = tf.TensorShape(input_shape).with_rank_at_least(2)
    if tf.compat.dimension_value(input_shape[-1]) is None:
      raise ValueError("The innermost dimension of input_shape must be defined, but saw: %s" % input_shape)
    return input_shape[:-1].concatenate(self.units)

