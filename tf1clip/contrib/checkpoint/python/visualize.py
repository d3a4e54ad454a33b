"""`dot_graph_from_checkpoint`: an object-based checkpoint's dependency graph as Graphviz DOT text.

TF 1.15's `tensorflow/contrib/checkpoint/python/visualize.py`, written by tf1clip on tf.train.load_checkpoint and
TensorFlow's object_metadata (the checkpoint's TrackableObjectGraph; an internal function, TF 1.15's too). The text is
TF 1.15's: a node per object (variables blue, slot variables orange, optimizers red), an edge per dependency, dotted
edges from an optimizer to its slots and from a variable to its slot.

    python -c "import tensorflow as tf; print(tf.contrib.checkpoint.dot_graph_from_checkpoint('/path/ckpt'))" \\
        | dot -Tsvg > checkpoint.svg
"""

import tensorflow as tf
from tensorflow.python.checkpoint import checkpoint as _checkpoint  # pylint: disable=g-direct-tensorflow-import
from tensorflow.python.trackable import base as _trackable  # pylint: disable=g-direct-tensorflow-import


def _quoted(name):
  return name.replace('"', '\\"')


def _node_line(node_id, node, slot_ids, shapes, dtypes):
  """The DOT statement of one object of the graph."""
  attributes = node.attributes
  if len(attributes) == 1 and attributes[0].name == _trackable.VARIABLE_VALUE_KEY:
    color, kind = ("orange", "Slot variable") if node_id in slot_ids else ("blue", "Variable")
    key = attributes[0].checkpoint_key
    return 'N_%d [shape=point label="" color=%s width=.25 tooltip="%s %s shape=%s %s"]' % (
        node_id, color, kind, _quoted(attributes[0].full_name), shapes[key], dtypes[key].name)
  if node.slot_variables:
    return 'N_%d [shape=point label="" width=.25 color=red,tooltip="Optimizer"]' % node_id
  return 'N_%d [shape=point label="" width=.25]' % node_id


def dot_graph_from_checkpoint(save_path):
  """The object graph of the checkpoint at `save_path` (a prefix, as `tf.train.Checkpoint.save` returns), in DOT."""
  reader = tf.train.load_checkpoint(save_path)
  shapes, dtypes = reader.get_variable_to_shape_map(), reader.get_variable_to_dtype_map()
  nodes = _checkpoint.object_metadata(save_path).nodes
  slot_ids = {slot.slot_variable_node_id for node in nodes for slot in node.slot_variables}
  lines = ["digraph {"]
  for node_id, node in enumerate(nodes):
    lines.append(_node_line(node_id, node, slot_ids, shapes, dtypes))
    lines.extend('N_%d -> N_%d [label="%s"]' % (node_id, child.node_id, _quoted(child.local_name))
                 for child in node.children)
    for slot in node.slot_variables:
      lines.append('N_%d -> N_%d [label="%s" style=dotted]' % (node_id, slot.slot_variable_node_id,
                                                              _quoted(slot.slot_name)))
      lines.append("N_%d -> N_%d [style=dotted]" % (slot.original_variable_node_id, slot.slot_variable_node_id))
  return "\n".join(lines + ["}"]) + "\n"
