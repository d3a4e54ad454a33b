"""Who reads what, TF 1.15's `tensorflow/contrib/quantize/python/input_to_ops.py` rewritten.

`InputToOps(graph)` indexes, once, the ops reading each tensor (gradient, slot and summary ops left out:
common.SKIPPED_PREFIXES); `ConsumerOperations(op)` is the set of ops reading any output of `op`. The index is not
updated while the rewrite inserts ops: the insertion points are never next to each other, so it stays right for
the ops the rewrite asks about.
"""

import collections

from tf1clip.contrib.quantize.python import common


class InputToOps(object):
  """The readers of every tensor of a graph, as the graph was when the index was made."""

  def __init__(self, graph):
    self.mapping = collections.defaultdict(set)  # tensor -> the ops reading it
    for op in graph.get_operations():
      if not op.name.startswith(common.SKIPPED_PREFIXES):
        for tensor in op.inputs:
          self.mapping[tensor].add(op)

  def ConsumerOperations(self, producer_op):  # pylint: disable=invalid-name
    """The set of ops reading any output of `producer_op`."""
    return set().union(*(self.mapping[t] for t in producer_op.outputs))
