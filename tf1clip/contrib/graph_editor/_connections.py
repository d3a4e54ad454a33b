"""Who produces and who consumes what: generating ops, consuming ops, control outputs (TF 1.15's util, part 2).

Place in the data flow (DESIGN.md): contrib.graph_editor's select walks and edits read the graph's edges
through these functions; `ControlOutputs` is the reverse index of control edges that tf.Graph does not
keep (an op knows its control inputs, not the ops waiting on it).
"""

import tensorflow as tf

from tf1clip.contrib.graph_editor import _op_lists


def get_generating_ops(ts):
  """The ops that produce the tensors `ts` (one tf.Tensor or a list), in the same order."""
  return [t.op for t in _op_lists.make_list_of_t(ts, allow_graph=False)]


def get_consuming_ops(ts):
  """The ops that consume any of the tensors `ts`, each once, in order of first use.

  Args:
    ts: one tf.Tensor or an iterable of them.

  Returns:
    A list of tf.Operation.

  Raises:
    TypeError: `ts` holds something other than tensors.
  """
  ops = []
  for t in _op_lists.make_list_of_t(ts, allow_graph=False):
    _op_lists.concatenate_unique(ops, t.consumers())
  return ops


class ControlOutputs:
  """The control outputs of every op of a graph: op -> the ops that have it as a control input.

  The index is built when constructed; call `update()` after the graph changed.

  Args:
    graph: a tf.Graph.

  Raises:
    TypeError: `graph` is not a tf.Graph.
  """

  def __init__(self, graph):
    if not isinstance(graph, tf.Graph):
      raise TypeError("ControlOutputs expects a tf.Graph, got %s" % type(graph).__name__)
    self._graph = graph
    self._control_outputs = {}
    self._version = None
    self._build()

  def update(self):
    """Rebuilds the index if ops were added to the graph since it was built; returns self."""
    if self._version != self._graph.version:
      self._build()
    return self

  def _build(self):
    self._control_outputs = {}
    for op in self._graph.get_operations():
      for control_input in op.control_inputs:
        self._control_outputs.setdefault(control_input, [])
        _op_lists.concatenate_unique(self._control_outputs[control_input], [op])
    self._version = self._graph.version

  def get_all(self):
    """The whole index, as a dict op -> list of ops."""
    return self._control_outputs

  def get(self, op):
    """The ops that have `op` as a control input (an empty tuple when none)."""
    return self._control_outputs.get(op, ())

  @property
  def graph(self):
    """The tf.Graph this index describes."""
    return self._graph
