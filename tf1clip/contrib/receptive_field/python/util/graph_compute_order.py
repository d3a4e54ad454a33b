"""The order in which a graph's nodes compute, and (given an input size) each node's spatial input / output size.

TF 1.15's `tensorflow/contrib/receptive_field/python/util/graph_compute_order.py`, written by tf1clip:
`get_compute_order(graph_def, input_node_name, input_node_size)` gives each node its topological order (0 for a
node without inputs and for the input node, else one more than its latest input) and, below the input node, the
[height, width] its feature map (its first data input, control inputs ignored) has and the one it produces (None
where a layer is unknown or the size cannot be known).

tf1clip walks the graph with a stack where TF 1.15 recursed (same orders, sizes and dict order; a deep network no
longer hits Python's recursion limit), and a graph with a cycle (a while loop) is a ValueError naming the node
where TF 1.15 recursed until RecursionError.
"""

import collections
import math

from tf1clip.contrib.receptive_field.python.util import parse_layer_parameters

_node_info = collections.namedtuple("NodeInfo", field_names=["order", "node", "input_size", "output_size"])


def parse_graph_nodes(graph_def):
  """node name -> NodeDef, for the nodes of `graph_def`."""
  return {node.name: node for node in graph_def.node}


def _compute_output_resolution(input_spatial_resolution, kernel_size, stride, total_padding):
  """The size along one axis after a layer, or None when any of its arguments is None."""
  if None in (input_spatial_resolution, kernel_size, stride, total_padding):
    return None
  return int(math.ceil((input_spatial_resolution + total_padding - kernel_size + 1) / stride))


def _data_inputs(node):
  """The names of the nodes `node` reads, feature map first, without control inputs ("^x") or ":<i>" endings."""
  return [name.split(":")[0] for name in parse_layer_parameters.feature_inputs(node) if not name.startswith("^")]


def _output_size(node, name_to_node, input_size):
  if input_size is None:
    return None
  axes = parse_layer_parameters.layer_axes(node, name_to_node, input_size, force=True)
  return [_compute_output_resolution(size, axis.kernel_size, axis.stride, axis.total_padding)
          for size, axis in zip(input_size, axes)]


def _fill_node_info(name_to_node, start, node_info, input_node_name, input_node_size):
  """Adds `start` and every node it depends on to `node_info`, each after its inputs (depth first, in input order)."""
  pending = [(start, False)]
  expanding = set()
  while pending:
    name, inputs_done = pending.pop()
    if name in node_info:
      continue
    node = name_to_node[name]
    if name == input_node_name:
      node_info[name] = _node_info(0, node, None, input_node_size)
      continue
    parents = _data_inputs(node)
    if not inputs_done:
      if name in expanding:
        raise ValueError("get_compute_order: the graph has a cycle through node %r" % name)
      expanding.add(name)
      pending.append((name, True))
      pending.extend((parent, False) for parent in reversed(parents))
      continue
    expanding.discard(name)
    order = max([node_info[p].order + 1 for p in parents], default=0)
    input_size = node_info[parents[0]].output_size if parents else None
    node_info[name] = _node_info(order, node, input_size, _output_size(node, name_to_node, input_size))


def get_compute_order(graph_def, input_node_name="", input_node_size=None):
  """The topological order of a CNN graph's nodes, and optionally their input and output resolutions.

  Args:
    graph_def: the GraphDef.
    input_node_name: the node whose output size is given (usually the input image); optional.
    input_node_size: [height, width] of that node's output, e.g. [224, 224]; optional.

  Returns:
    (node_info, name_to_node): node_info is a defaultdict from node name to a NodeInfo(order, node (the NodeDef),
    input_size, output_size) (sizes [height, width] or None), in the order the nodes were reached;
    name_to_node maps names to NodeDefs.

  Raises:
    ValueError: a layer (on the way to any node) is built in a way parse_layer_parameters cannot read, or the
      graph has a cycle.
  """
  name_to_node = parse_graph_nodes(graph_def)
  node_info = collections.defaultdict(_node_info)
  for node in graph_def.node:
    _fill_node_info(name_to_node, node.name, node_info, input_node_name, input_node_size)
  return node_info, name_to_node
