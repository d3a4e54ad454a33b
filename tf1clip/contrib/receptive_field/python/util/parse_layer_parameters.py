"""The receptive-field parameters of one layer, read from its NodeDef: kernel size, stride and padding per axis.

TF 1.15's `tensorflow/contrib/receptive_field/python/util/parse_layer_parameters.py`, written by tf1clip. Known
layers: Conv2D and DepthwiseConv2dNative (the kernel from their `<weights>/read` variable or Const), MaxPool,
MaxPoolV2 (ksize and strides from Const inputs), AvgPool, Pad (a Const `paddings` input), and the ops that leave
the receptive field as it is (`_UNCHANGED_RF_LAYER_OPS`, TF 1.15's list). SAME padding may depend on the input
size: without it, the padding is known only in a few cases (else None, with TF 1.15's warning).

TensorFlow 2.21's `tf.nn.dropout` (so tf-slim's and tf.layers' dropout) is a `SelectV2(keep-mask, x * scale, 0)`
where TF 1.15's multiplied; that SelectV2 counts as an unchanged op here, and `feature_inputs` lists its data input
first, so a network with dropout gives TF 1.15's results (and TF 1.15's ValueError for the random mask, which
`stop_propagation` can skip).
"""

import collections

import tensorflow as tf

_logging = tf.compat.v1.logging

_UNCHANGED_RF_LAYER_OPS = [
    "Add", "AddV2", "BiasAdd", "Cast", "Ceil", "ConcatV2", "Const", "Floor", "FusedBatchNorm", "Identity", "Log",
    "Mul", "Pow", "RealDiv", "Relu", "Relu6", "Round", "Rsqrt", "Softplus", "Sub", "VariableV2", "LRN",
    "GreaterEqual"]

_VALID_PADDING = ["VALID", b"VALID"]
_SAME_PADDING = ["SAME", b"SAME"]

# One axis of a layer: its kernel size, stride, left / top padding and total padding (None where unknown).
_AxisParams = collections.namedtuple("_AxisParams", "kernel_size stride padding total_padding")
_UNCHANGED = _AxisParams(1, 1, 0, 0)
_UNKNOWN = _AxisParams(None, None, None, None)


def _is_dropout_select(node):
  """Whether `node` is the SelectV2 of TensorFlow 2.21's dropout: `<scope>/SelectV2(<scope>/GreaterEqual,
  <scope>/Mul, <scope>/Const...)`, all in one name scope."""
  if node.op != "SelectV2" or len(node.input) < 3 or "/" not in node.name:
    return False
  scope = node.name.rsplit("/", 1)[0] + "/"
  return (node.input[0] == scope + "GreaterEqual" and node.input[1] == scope + "Mul" and
          node.input[2].startswith(scope + "Const"))


def feature_inputs(node):
  """`node`'s input names with its feature map first (tf1clip's: only TensorFlow 2.21's dropout has its mask first,
  see the module docstring)."""
  if _is_dropout_select(node):
    return [node.input[1], node.input[0]] + list(node.input[2:])
  return list(node.input)


def _const_input(node, name_to_node, index, suffix, what):
  """The value of the Const input `index` of `node`, whose name must end with `suffix`."""
  name = node.input[index]
  if not name.endswith(suffix):
    raise ValueError("%s name does not end with '%s'" % (what, suffix))
  return tf.make_ndarray(name_to_node[name].attr["value"].tensor)


def _strides(node, name_to_node):
  """(stride_x, stride_y): NHWC strides from the attribute, or MaxPoolV2's `/strides` Const."""
  if node.op == "MaxPoolV2":
    strides = _const_input(node, name_to_node, 2, "/strides", "Strides")
  else:
    strides = node.attr["strides"].list.i
  return strides[2], strides[1]


def _conv_kernel_size(node, name_to_node):
  """(kernel_x, kernel_y) from the shape [height, width, in, out] of the conv's `<weights>/read` weights."""
  read_name = node.input[1]
  if not read_name.endswith("/read"):
    raise ValueError("Weight layer's name input to conv layer does not end with '/read'")
  weights_name = read_name[:-len("/read")]
  weights = name_to_node[weights_name]
  if weights.op == "VariableV2":
    dims = weights.attr["shape"].shape.dim
  elif weights.op == "Const":
    dims = weights.attr["value"].tensor.tensor_shape.dim
  else:
    raise ValueError("Weight layer {} is not of type VariableV2 or Const: {}".format(weights_name, weights.op))
  if len(dims) != 4:
    raise ValueError("Weight layer {} does not have rank 4. Instead, it has: {}".format(weights_name, len(dims)))
  return dims[1].size, dims[0].size


def _pool_kernel_size(node, name_to_node):
  """(kernel_x, kernel_y) of a pooling node: its ksize (MaxPoolV2: the `/ksize` Const), 1 on batch and depth."""
  if node.op == "MaxPoolV2":
    ksize = _const_input(node, name_to_node, 1, "/ksize", "Kernel size")
  else:
    ksize = node.attr["ksize"].list.i
  if ksize[0] != 1:
    raise ValueError("pool ksize for first dim is not 1")
  if ksize[3] != 1:
    raise ValueError("pool ksize for last dim is not 1")
  return ksize[2], ksize[1]


def _conv_pool_padding(node, kernel_size, stride, input_resolution):
  """(padding at the left / top, total padding) of a conv or pool along one axis; None where not known."""
  mode = node.attr["padding"].s
  if mode in _VALID_PADDING:
    return 0, 0
  if mode not in _SAME_PADDING:
    raise ValueError("Invalid padding operation %s" % mode)
  if input_resolution is not None:
    # TensorFlow's SAME: the output has ceil(input / stride) positions
    remainder = input_resolution % stride
    total = max(kernel_size - (stride if remainder == 0 else remainder), 0)
    return total // 2, total
  # without the input size: known when it cannot matter, and the left padding also for an even kernel at stride 2
  if kernel_size == 1:
    return 0, 0
  if stride == 1:
    return (kernel_size - 1) // 2, kernel_size - 1
  if stride == 2 and kernel_size % 2 == 0:
    return (kernel_size - 1) // 2, None
  _logging.warning("Padding depends on input size, which means that the effective padding may be different "
                   "depending on the input image dimensionality. In this case, alignment check will be skipped. "
                   "If you know the input resolution, please set it.")
  return None, None


def _pad_layer_axes(node, name_to_node):
  """The two axes of a Pad node from its `/paddings` Const ([[0, 0], [top, bottom], [left, right], [0, 0]])."""
  name = node.input[1]
  if not name.endswith("/paddings"):
    raise ValueError("Padding layer name does not end with '/paddings'")
  paddings_node = name_to_node[name]
  if paddings_node.op != "Const":
    raise ValueError("Padding op is not Const")
  amounts = tf.make_ndarray(paddings_node.attr["value"].tensor)
  if amounts[0][0] != 0 or amounts[0][1] != 0:
    raise ValueError("padding is not zero for first tensor dim")
  if amounts[3][0] != 0 or amounts[3][1] != 0:
    raise ValueError("padding is not zero for last tensor dim")
  return tuple(_AxisParams(1, 1, amounts[i][0], amounts[i][0] + amounts[i][1]) for i in (2, 1))


def layer_axes(node, name_to_node, input_resolution=None, force=False):
  """(x, y) `_AxisParams` of a layer (tf1clip's form of `get_layer_params`'s eight values).

  Raises:
    ValueError: an unknown op (unless `force`: every parameter None), or a known one built in a way it cannot read.
  """
  if node.op in ("Conv2D", "DepthwiseConv2dNative", "MaxPool", "MaxPoolV2", "AvgPool"):
    strides = _strides(node, name_to_node)
    kernels = (_conv_kernel_size if node.op.startswith(("Conv", "Depthwise")) else _pool_kernel_size)(
        node, name_to_node)
    resolutions = (None, None) if input_resolution is None else (input_resolution[1], input_resolution[0])
    return tuple(_AxisParams(k, s, *_conv_pool_padding(node, k, s, r))
                 for k, s, r in zip(kernels, strides, resolutions))
  if node.op == "Pad":
    return _pad_layer_axes(node, name_to_node)
  if node.op in _UNCHANGED_RF_LAYER_OPS or _is_dropout_select(node):
    return _UNCHANGED, _UNCHANGED
  if force:
    return _UNKNOWN, _UNKNOWN
  raise ValueError("Unknown layer for operation '%s': %s" % (node.name, node.op))


def get_layer_params(node, name_to_node, input_resolution=None, force=False):
  """The receptive-field parameters of a layer.

  Args:
    node: its NodeDef.
    name_to_node: node name -> NodeDef of its graph (for the inputs holding weights, ksize, strides, paddings).
    input_resolution: [height, width] of its input, or None (SAME padding may then be unknown).
    force: for an unknown op, every parameter None instead of a ValueError.

  Returns:
    (kernel_size_x, kernel_size_y, stride_x, stride_y, padding_x, padding_y, total_padding_x, total_padding_y).

  Raises:
    ValueError: an unknown op (unless `force`), or a layer built in a way it cannot read.
  """
  x, y = layer_axes(node, name_to_node, input_resolution, force)
  return (x.kernel_size, y.kernel_size, x.stride, y.stride, x.padding, y.padding, x.total_padding,
          y.total_padding)
