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

`add_operation_io_aliases` is what the "graph_editor" shim (compat/graph_editor_shim.py) applies:
TF 1.x scripts built on the graph editor (openai's memory_saving_gradients) read `op._outputs[0]` of
copied ops and filter ops by `op._inputs`; TF 2.21's Operation has neither, so the shim adds read-only
aliases of `op.outputs` and `op.inputs`.
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


def add_operation_io_aliases():
  """Adds `tf.Operation._outputs` and `_inputs`, read-only aliases of `outputs` / `inputs`, when missing.

  This is the "graph_editor" shim's patch (compat/graph_editor_shim.py).

  Returns:
    True when an alias was added, False when `tf.Operation` had both already.
  """
  added = False
  for alias, public in (("_outputs", "outputs"), ("_inputs", "inputs")):
    if not hasattr(tf.Operation, alias):
      setattr(tf.Operation, alias, property(lambda self, name=public: getattr(self, name),
                                            doc="TF 1.x alias of `%s`." % public))
      added = True
  return added
