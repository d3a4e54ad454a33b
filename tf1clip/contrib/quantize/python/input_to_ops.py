"""`tf.contrib.quantize`'s input_to_ops: which ops read each tensor of a graph (TF 1.15's code).

Place in the data flow (DESIGN.md): tf.Graph <- **contrib.quantize.input_to_ops** <- fold_batch_norms / quantize
<- quantize_graph <- compat <- cli.

`InputToOps(graph)` indexes the consumers of every tensor once (skipping gradient and summary ops, as
common.SKIPPED_PREFIXES says); `ConsumerOperations(op)` is the set of ops reading any output of `op`. The index is
not updated as the rewrite inserts ops (insertion points are never adjacent, so it stays correct enough).
"""

import collections

import tf1clip.contrib.quantize.python.common as common

# pylint: disable=invalid-name  (TF 1.15's CamelCase function names)


class InputToOps(object):
  """Holds a mapping from tensor's name to ops that take it as input."""

  def __init__(self, graph):
    """Maps each tensor of `graph` to the set of ops (outside SKIPPED_PREFIXES) reading it."""
    self.mapping = collections.defaultdict(set)
    for op in graph.get_operations():
      if op.name.startswith(common.SKIPPED_PREFIXES):
        continue
      for op_input in op.inputs:
        self.mapping[op_input].add(op)

  def ConsumerOperations(self, producer_op):
    """The set of operations taking input from any output of `producer_op`."""
    result = set()
    for inp in producer_op.outputs:
      result.update(self.mapping[inp])
    return result
