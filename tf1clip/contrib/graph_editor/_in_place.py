"""The one module of graph_editor that changes existing `tf.Operation`s in place (TF private API).

Place in the data flow (DESIGN.md): contrib.graph_editor's reroute / edit / transform modules ->
**in_place** -> TensorFlow's graph. TensorFlow 2.21's public `tf.Graph` / `tf.Operation` API can only
*create* ops: once built, an op's inputs and control inputs are fixed, and there is no public way to
change them. Rerouting (`reroute_ts`, `swap_ts`), control-input editing and the second pass of copying
a cyclic subgraph need exactly that, so the graph editor calls these four private methods, which
TensorFlow 2.21 still has (TensorFlow's own v1 control flow uses them), and nothing else private:

  `Operation._update_input(index, tensor)`       reroute one data input (C API `UpdateEdge`)
  `Operation._add_control_inputs(ops)`           add control inputs
  `Operation._remove_all_control_inputs()`       clear control inputs (then re-add the kept ones)

Copying ops does not need them: `tf.Operation.from_node_def` (public) builds a copy from the original's
NodeDef, keeping its attributes (so its gradient and its `_gradient_op_type` override), device and
colocation. If a later TensorFlow drops one of these methods, `check_available` names it.

The `op._outputs` / `op._inputs` aliases graph-editor scripts read are the "graph_editor" shim's
(tf1clip/shims/graph_editor.py).
"""

import tensorflow as tf

_PRIVATE_METHODS = ("_update_input", "_add_control_inputs", "_remove_all_control_inputs")


def check_available():
  """Raises NotImplementedError naming the private `tf.Operation` method this TensorFlow lacks.

  Raises:
    NotImplementedError: `tf.Operation` has no `_update_input`, `_add_control_inputs` or
      `_remove_all_control_inputs` (a TensorFlow newer than 2.21 removed it).
  """
  for method in _PRIVATE_METHODS:
    if not hasattr(tf.Operation, method):
      raise NotImplementedError(
          "tf.contrib.graph_editor needs tf.Operation.%s to change an existing op, and TensorFlow %s "
          "has none; rerouting and control-input edits cannot work on this version"
          % (method, tf.__version__))


def update_input(op, index, tensor):
  """Makes input `index` of `op` read `tensor` instead (same graph, compatible dtype).

  Args:
    op: a tf.Operation.
    index: the input's position in `op.inputs`.
    tensor: a tf.Tensor of `op`'s graph.
  """
  op._update_input(index, tensor)  # pylint: disable=protected-access


def add_control_inputs(op, control_ops):
  """Adds the tf.Operations `control_ops` to `op.control_inputs`."""
  if control_ops:
    op._add_control_inputs(list(control_ops))  # pylint: disable=protected-access


def set_control_inputs(op, control_ops):
  """Replaces `op.control_inputs` by the tf.Operations `control_ops`."""
  op._remove_all_control_inputs()  # pylint: disable=protected-access
  add_control_inputs(op, control_ops)

