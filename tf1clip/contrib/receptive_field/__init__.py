"""`tf.contrib.receptive_field`: receptive field size, effective stride and padding of a CNN, TF 1.15's code.

Place in the data flow (DESIGN.md): GraphDef <- **contrib.receptive_field** <- compat <- cli.

TF 1.15's three modules in one: `get_compute_order(graph_def, ...)` (graph_compute_order.py) sorts a GraphDef
topologically and, given the input node's resolution, computes each node's input and output resolution;
`compute_receptive_field_from_graph_def(graph_def, input_node, output_node, ...)` (receptive_field.py) walks the
graph from the output back to the input with the kernel size, stride and padding of each layer read from its
NodeDef (parse_layer_parameters.py: Conv2D, DepthwiseConv2dNative, Pad, MaxPool, MaxPoolV2, AvgPool and the ops
that leave the receptive field unchanged) and returns a `ReceptiveField`.

TensorFlow 2.21 builds the ops of a TF 1.x network as TF 1.15 did (Conv2D, MaxPool, BiasAdd, FusedBatchNormV3,
...; `Add` is `AddV2`, which TF 1.15's list has too), but for `tf.nn.dropout` (and so slim's / tf.layers'
dropout): TF 1.15 multiplied by a mask, TensorFlow 2.21 selects (`SelectV2(mask, x * scale, 0)`). That SelectV2
counts as an op that leaves the receptive field unchanged, with its data input taken as its first (see
`_feature_inputs`), so a network with dropout gives TF 1.15's results (and errors). The ops TF 1.15 did not know
stay unknown here as there (a ValueError, or None sizes in get_compute_order): FusedBatchNormV3 (slim's /
tf.layers' batch norm on both), ReadVariableOp weights (resource variables), EXPLICIT padding, dilated
convolutions (SpaceToBatchND).
"""

import collections
import math

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

_logging = tf.compat.v1.logging

# ---- parse_layer_parameters.py ----

_UNCHANGED_RF_LAYER_OPS = [
    "Add", "AddV2", "BiasAdd", "Cast", "Ceil", "ConcatV2", "Const", "Floor", "FusedBatchNorm", "Identity", "Log",
    "Mul", "Pow", "RealDiv", "Relu", "Relu6", "Round", "Rsqrt", "Softplus", "Sub", "VariableV2", "LRN",
    "GreaterEqual"
]

_VALID_PADDING = ["VALID", b"VALID"]
_SAME_PADDING = ["SAME", b"SAME"]


def _stride_size(node, name_to_node):
  """(stride_x, stride_y) of a conv / pool node (MaxPoolV2: from its `strides` Const input)."""
  if node.op == "MaxPoolV2":
    strides_input_name = node.input[2]
    if not strides_input_name.endswith("/strides"):
      raise ValueError("Strides name does not end with '/strides'")
    strides_node = name_to_node[strides_input_name]
    t = tf.make_ndarray(strides_node.attr["value"].tensor)
    stride_y = t[1]
    stride_x = t[2]
  else:
    strides_attr = node.attr["strides"]
    stride_y = strides_attr.list.i[1]
    stride_x = strides_attr.list.i[2]
  return stride_x, stride_y


def _conv_kernel_size(node, name_to_node):
  """(kernel_size_x, kernel_size_y) of a convolution, from the shape of its `<weights>/read` input's variable."""
  weights_layer_read_name = node.input[1]
  if not weights_layer_read_name.endswith("/read"):
    raise ValueError("Weight layer's name input to conv layer does not end with '/read'")
  weights_layer_param_name = weights_layer_read_name[:-5]
  weights_node = name_to_node[weights_layer_param_name]
  if weights_node.op == "VariableV2":
    shape_dim = weights_node.attr["shape"].shape.dim
  elif weights_node.op == "Const":
    shape_dim = weights_node.attr["value"].tensor.tensor_shape.dim
  else:
    raise ValueError("Weight layer {} is not of type VariableV2 or Const: {}".format(weights_layer_param_name,
                                                                                    weights_node.op))
  if len(shape_dim) != 4:
    raise ValueError("Weight layer {} does not have rank 4. Instead, it has: {}".format(weights_layer_param_name,
                                                                                       len(shape_dim)))
  kernel_size_y = shape_dim[0].size
  kernel_size_x = shape_dim[1].size
  return kernel_size_x, kernel_size_y


def _padding_size_conv_pool(node, kernel_size, stride, input_resolution=None):
  """(total_padding, padding at the left / top) of a conv / pool node along one axis; None where unknown."""
  padding_attr = node.attr["padding"]
  if padding_attr.s in _VALID_PADDING:
    total_padding = 0
    padding = 0
  elif padding_attr.s in _SAME_PADDING:
    if input_resolution is None:
      # Without the input resolution, SAME padding is known only in some cases.
      if kernel_size == 1:
        total_padding = 0
        padding = 0
      elif stride == 1:
        total_padding = kernel_size - 1
        padding = int(math.floor(float(total_padding) / 2))
      elif stride == 2 and kernel_size % 2 == 0:
        # The left / top padding is known, the total is not.
        total_padding = None
        padding = int(math.floor((float(kernel_size) - 1) / 2))
      else:
        total_padding = None
        padding = None
        _logging.warning(
            "Padding depends on input size, which means that the effective "
            "padding may be different depending on the input image "
            "dimensionality. In this case, alignment check will be skipped. If"
            " you know the input resolution, please set it.")
    else:
      if input_resolution % stride == 0:
        total_padding = int(max(float(kernel_size - stride), 0.0))
      else:
        total_padding = int(max(float(kernel_size - (input_resolution % stride)), 0.0))
      padding = int(math.floor(float(total_padding) / 2))
  else:
    raise ValueError("Invalid padding operation %s" % padding_attr.s)
  return total_padding, padding


def _pool_kernel_size(node, name_to_node):
  """(kernel_size_x, kernel_size_y) of a pooling node (MaxPoolV2: from its `ksize` Const input)."""
  if node.op == "MaxPoolV2":
    ksize_input_name = node.input[1]
    if not ksize_input_name.endswith("/ksize"):
      raise ValueError("Kernel size name does not end with '/ksize'")
    ksize_node = name_to_node[ksize_input_name]
    ksize = tf.make_ndarray(ksize_node.attr["value"].tensor)
  else:
    ksize = node.attr["ksize"].list.i
  kernel_size_y = ksize[1]
  kernel_size_x = ksize[2]
  if ksize[0] != 1:
    raise ValueError("pool ksize for first dim is not 1")
  if ksize[3] != 1:
    raise ValueError("pool ksize for last dim is not 1")
  return kernel_size_x, kernel_size_y


def _padding_size_pad_layer(node, name_to_node):
  """(total_padding_x, padding_x, total_padding_y, padding_y) of a Pad node, from its `paddings` Const."""
  paddings_layer_name = node.input[1]
  if not paddings_layer_name.endswith("/paddings"):
    raise ValueError("Padding layer name does not end with '/paddings'")
  paddings_node = name_to_node[paddings_layer_name]
  if paddings_node.op != "Const":
    raise ValueError("Padding op is not Const")
  t = tf.make_ndarray(paddings_node.attr["value"].tensor)
  padding_y = t[1][0]
  padding_x = t[2][0]
  total_padding_y = padding_y + t[1][1]
  total_padding_x = padding_x + t[2][1]
  if (t[0][0] != 0) or (t[0][1] != 0):
    raise ValueError("padding is not zero for first tensor dim")
  if (t[3][0] != 0) or (t[3][1] != 0):
    raise ValueError("padding is not zero for last tensor dim")
  return total_padding_x, padding_x, total_padding_y, padding_y


def get_layer_params(node, name_to_node, input_resolution=None, force=False):
  """Gets the layer parameters relevant for the receptive field of a NodeDef (TF 1.15's).

  Args:
    node: NodeDef.
    name_to_node: Dict from node name to NodeDef.
    input_resolution: [height, width] of the layer's input, or None (SAME padding may then be unknown).
    force: If True, an unknown op gives None for every parameter instead of a ValueError.

  Returns:
    (kernel_size_x, kernel_size_y, stride_x, stride_y, padding_x, padding_y, total_padding_x, total_padding_y).

  Raises:
    ValueError: If the layer op is unknown and force is False.
  """
  if node.op == "Conv2D" or node.op == "DepthwiseConv2dNative":
    stride_x, stride_y = _stride_size(node, name_to_node)
    kernel_size_x, kernel_size_y = _conv_kernel_size(node, name_to_node)
    total_padding_x, padding_x = _padding_size_conv_pool(
        node, kernel_size_x, stride_x, input_resolution[1] if input_resolution is not None else None)
    total_padding_y, padding_y = _padding_size_conv_pool(
        node, kernel_size_y, stride_y, input_resolution[0] if input_resolution is not None else None)
  elif node.op == "Pad":
    kernel_size_x = kernel_size_y = stride_x = stride_y = 1
    total_padding_x, padding_x, total_padding_y, padding_y = _padding_size_pad_layer(node, name_to_node)
  elif node.op == "MaxPool" or node.op == "MaxPoolV2" or node.op == "AvgPool":
    stride_x, stride_y = _stride_size(node, name_to_node)
    kernel_size_x, kernel_size_y = _pool_kernel_size(node, name_to_node)
    total_padding_x, padding_x = _padding_size_conv_pool(
        node, kernel_size_x, stride_x, input_resolution[1] if input_resolution is not None else None)
    total_padding_y, padding_y = _padding_size_conv_pool(
        node, kernel_size_y, stride_y, input_resolution[0] if input_resolution is not None else None)
  elif node.op in _UNCHANGED_RF_LAYER_OPS or _is_dropout_select(node):
    kernel_size_x = kernel_size_y = stride_x = stride_y = 1
    total_padding_x = padding_x = total_padding_y = padding_y = 0
  elif force:
    kernel_size_x = kernel_size_y = stride_x = stride_y = None
    total_padding_x = padding_x = total_padding_y = padding_y = None
  else:
    raise ValueError("Unknown layer for operation '%s': %s" % (node.name, node.op))
  return (kernel_size_x, kernel_size_y, stride_x, stride_y, padding_x, padding_y, total_padding_x,
          total_padding_y)


# ---- TensorFlow 2.21's dropout ----

def _is_dropout_select(node):
  """Whether `node` is the SelectV2 of TensorFlow 2.21's dropout.

  That is `<scope>/SelectV2(<scope>/GreaterEqual, <scope>/Mul, <scope>/Const...)`, all four in one name scope.
  """
  if node.op != "SelectV2" or len(node.input) < 3 or "/" not in node.name:
    return False
  scope = node.name.rsplit("/", 1)[0] + "/"
  return (node.input[0] == scope + "GreaterEqual" and node.input[1] == scope + "Mul"
          and node.input[2].startswith(scope + "Const"))


def _feature_inputs(node):
  """`node`'s inputs, the feature map first (TensorFlow 2.21's dropout has its keep-mask first).

  TF 1.15's dropout was `Mul(Mul(x, 1 / keep), Cast(GreaterEqual(RandomUniform, rate)))`, the feature map first;
  TensorFlow 2.21's is `SelectV2(GreaterEqual(RandomUniform, rate), Mul(x, scale), 0)`. With the data input moved
  first, the sizes of get_compute_order and the walk of compute_receptive_field_from_graph_def are TF 1.15's
  (including its ValueError for the RandomUniform of the mask, unless `stop_propagation` skips it).
  """
  if _is_dropout_select(node):
    return [node.input[1], node.input[0]] + list(node.input[2:])
  return list(node.input)


# ---- graph_compute_order.py ----

def parse_graph_nodes(graph_def):
  """Dict from node name to NodeDef for the nodes of `graph_def`."""
  name_to_node = {}
  for node_def in graph_def.node:
    name_to_node[node_def.name] = node_def
  return name_to_node


_node_info = collections.namedtuple("NodeInfo", field_names=["order", "node", "input_size", "output_size"])


def _compute_output_resolution(input_spatial_resolution, kernel_size, stride, total_padding):
  """Output resolution along one axis, or None if any argument is None."""
  if (input_spatial_resolution is None) or (kernel_size is None) or (stride is None) or (total_padding is None):
    return None
  return int(math.ceil((input_spatial_resolution + total_padding - kernel_size + 1) / stride))


def _get_computed_nodes(name_to_node, current, node_info, input_node_name="", input_node_size=None):
  """Recursively fills `node_info` for `current` and its inputs; returns (order, input_size, output_size)."""
  if current in node_info:
    return (node_info[current].order, node_info[current].input_size, node_info[current].output_size)
  node_def = name_to_node[current]
  if current == input_node_name:
    order = 0
    input_size = None
    output_size = input_node_size
    node_info[current] = _node_info(order, node_def, input_size, output_size)
    return (order, input_size, output_size)

  input_size = None
  output_size = None
  order = 0
  number_inputs = 0
  for each in _feature_inputs(node_def):
    if each.startswith("^"):
      # A control dependency.
      continue
    each = each.split(":")[0]
    (parent_order, _, parent_output_size) = _get_computed_nodes(name_to_node, each, node_info, input_node_name,
                                                                input_node_size)
    order = max(order, parent_order + 1)
    if number_inputs == 0:
      # The first input is the feature map.
      input_size = parent_output_size
    number_inputs += 1

  if input_size is None:
    output_size = None
  else:
    (kernel_size_x, kernel_size_y, stride_x, stride_y, _, _, total_padding_x, total_padding_y) = (
        get_layer_params(node_def, name_to_node, input_size, force=True))
    output_size = [None] * 2
    output_size[0] = _compute_output_resolution(input_size[0], kernel_size_x, stride_x, total_padding_x)
    output_size[1] = _compute_output_resolution(input_size[1], kernel_size_y, stride_y, total_padding_y)
  node_info[current] = _node_info(order, node_def, input_size, output_size)
  return order, input_size, output_size


def get_compute_order(graph_def, input_node_name="", input_node_size=None):
  """Computes the order of computation of a CNN graph, and optionally each node's input / output resolution.

  Args:
    graph_def: GraphDef object.
    input_node_name: Name of node with fixed input resolution (optional). This is usually the node name for the
      input image in a CNN.
    input_node_size: 2D list of integers, fixed input resolution to use (optional), e.g. [224, 224].

  Returns:
    node_info: Default dict keyed by node name, mapping to a named tuple with the fields order (topological
      order), node (NodeDef), input_size and output_size (2D lists of integers, or None).
    name_to_node: Dict keyed by node name, each entry containing the node's NodeDef.
  """
  name_to_node = parse_graph_nodes(graph_def)
  node_info = collections.defaultdict(_node_info)
  for each in graph_def.node:
    _get_computed_nodes(name_to_node, each.name, node_info, input_node_name, input_node_size)
  return node_info, name_to_node


# ---- receptive_field.py ----

def _get_rf_size_node_input(stride, kernel_size, rf_size_output):
  return stride * rf_size_output + kernel_size - stride


def _get_effective_stride_node_input(stride, effective_stride_output):
  return stride * effective_stride_output


def _get_effective_padding_node_input(stride, padding, effective_padding_output):
  return stride * effective_padding_output + padding


class ReceptiveField(object):
  """Receptive field of a convolutional neural network.

  Args:
    size: Receptive field size.
    stride: Effective stride.
    padding: Effective padding.
  """

  def __init__(self, size, stride, padding):
    self.size = np.asarray(size)
    self.stride = np.asarray(stride)
    self.padding = np.asarray(padding)

  def compute_input_center_coordinates(self, y, axis=None):
    """Center of the receptive field that generated the features at coordinates `y` (shape `(..., d)`).

    Args:
      y: An array of feature coordinates with shape `(..., d)`.
      axis: The dimensions to compute (default: all).

    Returns:
      The centers at the input of the network.

    Raises:
      ValueError: If `y`'s last dimension does not match the number of elements in `axis`.
    """
    if axis is None:
      axis = range(self.size.size)
    axis = list(axis)
    y = np.asarray(y)
    if y.shape[-1] != len(axis):
      raise ValueError("Dimensionality of the feature coordinates `y` (%d) "
                       "does not match dimensionality of `axis` (%d)" % (y.shape[-1], len(axis)))
    return -self.padding[axis] + y * self.stride[axis] + (self.size[axis] - 1) / 2

  def compute_feature_coordinates(self, x, axis=None):
    """Coordinates of the features whose receptive fields are centered at `x` (shape `(..., d)`).

    Args:
      x: An array of input center coordinates with shape `(..., d)`.
      axis: The dimensions to compute (default: all).

    Returns:
      The feature coordinates.

    Raises:
      ValueError: If `x`'s last dimension does not match the number of elements in `axis`.
    """
    if axis is None:
      axis = range(self.size.size)
    axis = list(axis)
    x = np.asarray(x)
    if x.shape[-1] != len(axis):
      raise ValueError("Dimensionality of the input center coordinates `x` "
                       "(%d) does not match dimensionality of `axis` (%d)" % (x.shape[-1], len(axis)))
    return (x + self.padding[axis] + (1 - self.size[axis]) / 2) / self.stride[axis]

  def __iter__(self):
    return iter(np.concatenate([self.size, self.stride, self.padding]))


def compute_receptive_field_from_graph_def(graph_def, input_node, output_node, stop_propagation=None,
                                           input_resolution=None):
  """Computes the receptive field (RF) parameters of `output_node` with respect to `input_node`.

  The computation stops at the inputs named in `stop_propagation` (operations or scope names), e.g. to get the
  receptive field of one branch of an inception block.

  Args:
    graph_def: Graph or GraphDef object.
    input_node: Name of the input node or Tensor object from graph.
    output_node: Name of the output node or Tensor object from graph.
    stop_propagation: List of operations or scope names for which to stop the propagation of the receptive
      field.
    input_resolution: 2D list. The input resolution of the model, if it is fixed and known (SAME padding
      depends on it); if None, some RF parameters may be unknown (None).

  Returns:
    A `ReceptiveField` with size, stride and padding, each (x, y).

  Raises:
    ValueError: If the network is not aligned or if either input or output nodes cannot be found.
  """
  if isinstance(graph_def, tf.Graph):
    graph_def = graph_def.as_graph_def()
  if isinstance(input_node, tf.Tensor):
    input_node = input_node.op.name
  if isinstance(output_node, tf.Tensor):
    output_node = output_node.op.name
  stop_propagation = stop_propagation or []

  node_info, name_to_node = get_compute_order(graph_def=graph_def, input_node_name=input_node,
                                              input_node_size=input_resolution)
  # Reverse topological order.
  ordered_node_info = sorted(node_info.items(), key=lambda x: -x[1].order)

  rf_sizes_x = {output_node: 1}
  rf_sizes_y = {output_node: 1}
  effective_strides_x = {output_node: 1}
  effective_strides_y = {output_node: 1}
  effective_paddings_x = {output_node: 0}
  effective_paddings_y = {output_node: 0}

  # Nodes before the output node (in reverse order) are skipped.
  found_output_node = False
  # SAME padding whose size depends on the (unknown) input size: alignment checks are skipped and the
  # effective padding is None.
  undefined_padding = False

  for _, (_, node, _, _) in ordered_node_info:
    if not node:
      continue
    if node.name == input_node:
      break
    if not found_output_node:
      if node.name == output_node:
        found_output_node = True
    if found_output_node:
      if node.name not in rf_sizes_x:
        assert node.name not in rf_sizes_y, ("Node %s is in rf_sizes_y, but not in rf_sizes_x" % node.name)
        # Not part of the computation of interest.
        continue

      (kernel_size_x, kernel_size_y, stride_x, stride_y, padding_x, padding_y, _, _) = get_layer_params(
          node, name_to_node, node_info[node.name].input_size)
      if padding_x is None or padding_y is None:
        undefined_padding = True

      rf_size_input_x = _get_rf_size_node_input(stride_x, kernel_size_x, rf_sizes_x[node.name])
      rf_size_input_y = _get_rf_size_node_input(stride_y, kernel_size_y, rf_sizes_y[node.name])
      effective_stride_input_x = _get_effective_stride_node_input(stride_x, effective_strides_x[node.name])
      effective_stride_input_y = _get_effective_stride_node_input(stride_y, effective_strides_y[node.name])
      if not undefined_padding:
        effective_padding_input_x = _get_effective_padding_node_input(stride_x, padding_x,
                                                                      effective_paddings_x[node.name])
        effective_padding_input_y = _get_effective_padding_node_input(stride_y, padding_y,
                                                                      effective_paddings_y[node.name])
      else:
        effective_padding_input_x = None
        effective_padding_input_y = None

      for inp_name in _feature_inputs(node):
        if any(inp_name.startswith(stop) for stop in stop_propagation):
          continue
        if inp_name.startswith("^"):
          # A control dependency.
          continue
        name_to_node[inp_name]  # pylint: disable=pointless-statement  (TF 1.15: a KeyError for "op:1" inputs)
        if inp_name in rf_sizes_x:
          assert inp_name in rf_sizes_y, ("Node %s is in rf_sizes_x, but not in rf_sizes_y" % inp_name)
          # Reached before through another path: the graph must be aligned (unless the padding is unknown).
          if not undefined_padding:
            if effective_strides_x[inp_name] != effective_stride_input_x:
              raise ValueError("Graph is not aligned since effective stride from different "
                               "paths is different in horizontal direction")
            if effective_strides_y[inp_name] != effective_stride_input_y:
              raise ValueError("Graph is not aligned since effective stride from different "
                               "paths is different in vertical direction")
            if (rf_sizes_x[inp_name] - 1) / 2 - effective_paddings_x[inp_name] != (
                rf_size_input_x - 1) / 2 - effective_padding_input_x:
              raise ValueError("Graph is not aligned since center shift from different "
                               "paths is different in horizontal direction")
            if (rf_sizes_y[inp_name] - 1) / 2 - effective_paddings_y[inp_name] != (
                rf_size_input_y - 1) / 2 - effective_padding_input_y:
              raise ValueError("Graph is not aligned since center shift from different "
                               "paths is different in vertical direction")
          # Keep the path with the largest RF, in each direction.
          if rf_sizes_x[inp_name] < rf_size_input_x:
            rf_sizes_x[inp_name] = rf_size_input_x
            effective_strides_x[inp_name] = effective_stride_input_x
            effective_paddings_x[inp_name] = effective_padding_input_x
          if rf_sizes_y[inp_name] < rf_size_input_y:
            rf_sizes_y[inp_name] = rf_size_input_y
            effective_strides_y[inp_name] = effective_stride_input_y
            effective_paddings_y[inp_name] = effective_padding_input_y
        else:
          assert inp_name not in rf_sizes_y, ("Node %s is in rf_sizes_y, but not in rf_sizes_x" % inp_name)
          rf_sizes_x[inp_name] = rf_size_input_x
          rf_sizes_y[inp_name] = rf_size_input_y
          effective_strides_x[inp_name] = effective_stride_input_x
          effective_strides_y[inp_name] = effective_stride_input_y
          effective_paddings_x[inp_name] = effective_padding_input_x
          effective_paddings_y[inp_name] = effective_padding_input_y

  if not found_output_node:
    raise ValueError("Output node was not found")
  if input_node not in rf_sizes_x:
    raise ValueError("Input node was not found")
  return ReceptiveField((rf_sizes_x[input_node], rf_sizes_y[input_node]),
                        (effective_strides_x[input_node], effective_strides_y[input_node]),
                        (effective_paddings_x[input_node], effective_paddings_y[input_node]))


__getattr__ = _catalog.missing_attribute_hook("tf.contrib.receptive_field",
                                              lazy=_catalog.served("tf.contrib.receptive_field"))
