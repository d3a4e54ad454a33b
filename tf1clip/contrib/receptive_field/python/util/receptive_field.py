"""The receptive field of a convolutional network: size, effective stride and effective padding per axis.

TF 1.15's `tensorflow/contrib/receptive_field/python/util/receptive_field.py`, written by tf1clip.
`compute_receptive_field_from_graph_def(graph_def, input_node, output_node)` walks the graph from the output node
back to the input node in reverse topological order (graph_compute_order), carrying for every node reached the field
an output position sees there, axis by axis:

    size_in = stride * size_out + kernel - stride,  stride_in = stride * stride_out,
    padding_in = stride * padding_out + padding.

Where two paths reach a node, their strides and centre shifts ((size - 1) / 2 - padding) must agree (else the graph
is "not aligned", a ValueError) and the larger field is kept, per axis. Once a layer's padding is unknown (SAME
padding without the input size), the padding of everything after it in the walk is None and alignment goes
unchecked, as in TF 1.15. `ReceptiveField` converts between feature and input coordinates.
"""

import collections

import numpy as np
import tensorflow as tf

from tf1clip.contrib.receptive_field.python.util import graph_compute_order
from tf1clip.contrib.receptive_field.python.util import parse_layer_parameters

# The field seen from the output node, at one node, along one axis.
_Field = collections.namedtuple("_Field", "size stride padding")
_AXES = ("horizontal", "vertical")


class ReceptiveField(object):
  """A network's receptive field: `size`, `stride` and `padding`, arrays with one entry per axis (x, y).

  Iterating gives size, then stride, then padding, axis by axis (`rf_x, rf_y, stride_x, ... = field`).
  """

  def __init__(self, size, stride, padding):
    self.size = np.asarray(size)
    self.stride = np.asarray(stride)
    self.padding = np.asarray(padding)

  def _along(self, coordinates, axis, name, what):
    axis = list(range(self.size.size) if axis is None else axis)  # a list: a tuple would index another way
    coordinates = np.asarray(coordinates)
    if coordinates.shape[-1] != len(axis):
      raise ValueError("Dimensionality of the %s `%s` (%d) does not match dimensionality of `axis` (%d)" %
                       (what, name, coordinates.shape[-1], len(axis)))
    return coordinates, axis

  def compute_input_center_coordinates(self, y, axis=None):
    """The input coordinates of the centres of the fields that made the features at `y` (shape `(..., d)`).

    Args:
      y: feature coordinates, the last dimension one per entry of `axis`.
      axis: the axes the coordinates are along (default: all).

    Raises:
      ValueError: `y`'s last dimension is not the number of axes.
    """
    y, axis = self._along(y, axis, "y", "feature coordinates")
    return -self.padding[axis] + y * self.stride[axis] + (self.size[axis] - 1) / 2

  def compute_feature_coordinates(self, x, axis=None):
    """The coordinates of the features whose fields are centred at the input coordinates `x` (`(..., d)`).

    Raises:
      ValueError: `x`'s last dimension is not the number of axes.
    """
    x, axis = self._along(x, axis, "x", "input center coordinates")
    return (x + self.padding[axis] + (1 - self.size[axis]) / 2) / self.stride[axis]

  def __iter__(self):
    return iter(np.concatenate([self.size, self.stride, self.padding]))


def _through_layer(field, layer, padding_known):
  """The field at a layer's input, given the field at its output and the layer's parameters along the axis."""
  padding = layer.stride * field.padding + layer.padding if padding_known else None
  return _Field(layer.stride * field.size + layer.kernel_size - layer.stride, layer.stride * field.stride, padding)


def _check_aligned(seen, arriving):
  """Raises ValueError when two paths reach a node with different strides or centre shifts (per axis)."""
  for axis, old, new in zip(_AXES, seen, arriving):
    if old.stride != new.stride:
      raise ValueError("Graph is not aligned since effective stride from different paths is different in %s "
                       "direction" % axis)
  for axis, old, new in zip(_AXES, seen, arriving):
    if (old.size - 1) / 2 - old.padding != (new.size - 1) / 2 - new.padding:
      raise ValueError("Graph is not aligned since center shift from different paths is different in %s "
                       "direction" % axis)


def compute_receptive_field_from_graph_def(graph_def, input_node, output_node, stop_propagation=None,
                                           input_resolution=None):
  """The receptive field of `output_node` at `input_node`.

  Args:
    graph_def: a GraphDef or tf.Graph.
    input_node: the input's node name (or a tensor of it).
    output_node: the output's node name (or a tensor of it).
    stop_propagation: input names (or name prefixes, such as a scope) where the walk stops, e.g. to take the
      field of one branch of an inception block.
    input_resolution: [height, width] of the input when it is fixed; SAME padding depends on it, so without it
      some paddings may be unknown (None).

  Returns:
    The ReceptiveField, (x, y) for each of size, stride and padding.

  Raises:
    ValueError: the network is not aligned, the input or output node is not found, or a layer on the way is
      unknown to parse_layer_parameters.
  """
  if isinstance(graph_def, tf.Graph):
    graph_def = graph_def.as_graph_def()
  if isinstance(input_node, tf.Tensor):
    input_node = input_node.op.name
  if isinstance(output_node, tf.Tensor):
    output_node = output_node.op.name
  stops = tuple(stop_propagation or ())

  node_info, name_to_node = graph_compute_order.get_compute_order(
      graph_def=graph_def, input_node_name=input_node, input_node_size=input_resolution)
  fields = {output_node: (_Field(1, 1, 0), _Field(1, 1, 0))}  # node name -> (x, y) fields
  found_output = False
  padding_known = True  # stays False once any layer's padding was unknown
  for name, info in sorted(node_info.items(), key=lambda item: -item[1].order):  # outputs first
    if name == input_node:
      break
    found_output = found_output or name == output_node
    if not found_output or name not in fields:
      continue  # before the output, or not on a path from it
    layers = parse_layer_parameters.layer_axes(info.node, name_to_node, info.input_size)
    padding_known = padding_known and None not in (layers[0].padding, layers[1].padding)
    arriving = tuple(_through_layer(f, layer, padding_known) for f, layer in zip(fields[name], layers))
    for input_name in parse_layer_parameters.feature_inputs(info.node):
      if input_name.startswith(stops) or input_name.startswith("^"):
        continue
      name_to_node[input_name]  # pylint: disable=pointless-statement  (TF 1.15's KeyError for an "op:1" input)
      seen = fields.get(input_name)
      if seen is None:
        fields[input_name] = arriving
        continue
      if padding_known:
        _check_aligned(seen, arriving)
      fields[input_name] = tuple(new if old.size < new.size else old for old, new in zip(seen, arriving))
  if not found_output:
    raise ValueError("Output node was not found")
  if input_node not in fields:
    raise ValueError("Input node was not found")
  x, y = fields[input_node]
  return ReceptiveField((x.size, y.size), (x.stride, y.stride), (x.padding, y.padding))
