"""`tf.contrib.model_pruning`'s slim-style layers: masked_convolution (masked_conv2d) and masked_fully_connected.

Mirrors TF 1.15's `tensorflow/contrib/model_pruning/python/layers/layers.py`.

TF 1.15's code (branched from contrib.layers): the layer's variables go through tf-slim's model-variable getter
(tf-slim is TF 1.15's contrib.layers moved out; its `_build_variable_getter` / `_add_variable_to_collections` are
the ones contrib.layers used), so `kernel` / `bias` become `<scope>/weights` / `<scope>/biases` model variables next
to `<scope>/mask` and `<scope>/threshold`; both functions are `@add_arg_scope`d with tf-slim's decorator, the one
`tf.contrib.framework.arg_scope` reads.
"""

import tensorflow as tf

import tf1clip.contrib.slim as slim  # first: installs tf-slim's shim (tf1clip.contrib.slim re-exports tf_slim)
from tf_slim.layers import layers as slim_layers  # pylint: disable=g-bad-import-order
from tf_slim.layers import utils

import tf1clip.contrib.model_pruning.python.layers.core_layers as core

# tf-slim's layers module keeps contrib.layers' variable getter and collection helper, the ones TF 1.15's copy of
# this code used: the layer's `kernel` / `bias` become the model variables `weights` / `biases`.
_build_variable_getter = slim_layers._build_variable_getter  # pylint: disable=protected-access
_add_variable_to_collections = slim_layers._add_variable_to_collections  # pylint: disable=protected-access

@slim.add_arg_scope
def masked_convolution(inputs, num_outputs, kernel_size, stride=1, padding="SAME", data_format=None, rate=1,
                       activation_fn=tf.nn.relu, normalizer_fn=None, normalizer_params=None,
                       weights_initializer=slim.xavier_initializer(), weights_regularizer=None,
                       biases_initializer=tf.compat.v1.zeros_initializer(), biases_regularizer=None, reuse=None,
                       variables_collections=None, outputs_collections=None, trainable=True, scope=None):
  """A 2D convolution with a masked kernel, then an optional normalizer and activation (TF 1.15's).

  Only rank-4 inputs (NHWC or NCHW) are supported, as in TF 1.15: other ranks raise ValueError.

  Args:
    inputs: a rank-4 Tensor.
    num_outputs: the number of output filters.
    kernel_size: int or pair, the spatial size of the filters.
    stride: int or pair.
    padding: "VALID" or "SAME".
    data_format: None, "NHWC" or "NCHW".
    rate: the dilation rate.
    activation_fn: applied last (None: linear).
    normalizer_fn: applied instead of biases (e.g. batch_norm).
    normalizer_params: its keyword arguments.
    weights_initializer: the kernel's initializer.
    weights_regularizer: the kernel's regularizer.
    biases_initializer: the biases' initializer (None: no biases).
    biases_regularizer: the biases' regularizer.
    reuse: reuse the scope's variables.
    variables_collections: extra collections for the variables (list or dict per variable).
    outputs_collections: collections for the output.
    trainable: whether the kernel and biases are trainable.
    scope: the variable scope (default "Conv").

  Returns:
    The output Tensor.

  Raises:
    ValueError: for an invalid data_format or an input that is not rank 4.
  """
  if data_format not in [None, "NWC", "NCW", "NHWC", "NCHW", "NDHWC", "NCDHW"]:
    raise ValueError("Invalid data_format: %r" % (data_format,))

  layer_variable_getter = _build_variable_getter({"bias": "biases", "kernel": "weights"})

  with tf.compat.v1.variable_scope(scope, "Conv", [inputs], reuse=reuse,
                                   custom_getter=layer_variable_getter) as sc:
    inputs = tf.convert_to_tensor(inputs)
    input_rank = inputs.get_shape().ndims

    if input_rank == 4:
      layer_class = core.MaskedConv2D
    else:
      raise ValueError("Sparse Convolution not supported for input with rank", input_rank)

    if data_format is None or data_format == "NHWC":
      df = "channels_last"
    elif data_format == "NCHW":
      df = "channels_first"
    else:
      raise ValueError("Unsupported data format", data_format)

    layer = layer_class(
        filters=num_outputs, kernel_size=kernel_size, strides=stride, padding=padding, data_format=df,
        dilation_rate=rate, activation=None, use_bias=not normalizer_fn and biases_initializer,
        kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
        kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer, activity_regularizer=None,
        trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc, _reuse=reuse)
    outputs = layer.apply(inputs)

    # Add variables to collections.
    _add_variable_to_collections(layer.kernel, variables_collections, "weights")
    if layer.use_bias:
      _add_variable_to_collections(layer.bias, variables_collections, "biases")

    if normalizer_fn is not None:
      normalizer_params = normalizer_params or {}
      outputs = normalizer_fn(outputs, **normalizer_params)

    if activation_fn is not None:
      outputs = activation_fn(outputs)
    return utils.collect_named_outputs(outputs_collections, sc.original_name_scope, outputs)

masked_conv2d = masked_convolution

@slim.add_arg_scope
def masked_fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, normalizer_fn=None, normalizer_params=None,
                           weights_initializer=slim.xavier_initializer(), weights_regularizer=None,
                           biases_initializer=tf.compat.v1.zeros_initializer(), biases_regularizer=None,
                           reuse=None, variables_collections=None, outputs_collections=None, trainable=True,
                           scope=None):
  """A fully connected layer with a masked weight matrix, then an optional normalizer and activation (TF 1.15's).

  Args:
    inputs: a Tensor of rank >= 2 with a known last dimension (higher ranks are contracted over the last axis).
    num_outputs: int, the number of output units.
    activation_fn: applied last (None: linear).
    normalizer_fn: applied instead of biases (e.g. batch_norm).
    normalizer_params: its keyword arguments.
    weights_initializer: the weights' initializer.
    weights_regularizer: the weights' regularizer.
    biases_initializer: the biases' initializer (None: no biases).
    biases_regularizer: the biases' regularizer.
    reuse: reuse the scope's variables.
    variables_collections: extra collections for the variables (list or dict per variable).
    outputs_collections: collections for the output.
    trainable: whether the weights and biases are trainable.
    scope: the variable scope (default "fully_connected").

  Returns:
    The output Tensor.

  Raises:
    ValueError: if num_outputs is not an int, or the input's rank is < 2 or its last dimension unknown.
  """
  if not isinstance(num_outputs, int):
    raise ValueError("num_outputs should be int or long, got %s." % (num_outputs,))

  layer_variable_getter = _build_variable_getter({"bias": "biases", "kernel": "weights"})

  with tf.compat.v1.variable_scope(scope, "fully_connected", [inputs], reuse=reuse,
                                   custom_getter=layer_variable_getter) as sc:
    inputs = tf.convert_to_tensor(inputs)
    layer = core.MaskedFullyConnected(
        units=num_outputs, activation=None, use_bias=not normalizer_fn and biases_initializer,
        kernel_initializer=weights_initializer, bias_initializer=biases_initializer,
        kernel_regularizer=weights_regularizer, bias_regularizer=biases_regularizer, activity_regularizer=None,
        trainable=trainable, name=sc.name, dtype=inputs.dtype.base_dtype, _scope=sc, _reuse=reuse)
    outputs = layer.apply(inputs)

    # Add variables to collections.
    _add_variable_to_collections(layer.kernel, variables_collections, "weights")
    if layer.bias is not None:
      _add_variable_to_collections(layer.bias, variables_collections, "biases")

    # Apply normalizer function / layer.
    if normalizer_fn is not None:
      if not normalizer_params:
        normalizer_params = {}
      outputs = normalizer_fn(outputs, **normalizer_params)

    if activation_fn is not None:
      outputs = activation_fn(outputs)

    return utils.collect_named_outputs(outputs_collections, sc.original_name_scope, outputs)
