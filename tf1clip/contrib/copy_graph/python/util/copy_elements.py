"""`tf.contrib.copy_graph`: copy ops and variables from one graph into another, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/copy_graph/python/util/copy_elements.py`.

`copy_variable_to_graph(var, to_graph, scope)` makes a new variable in `to_graph` (named `scope/<name>`) holding
the value the original has after its initializer (read in a throwaway session on the original graph).
`copy_op_to_graph(op_or_tensor, to_graph, variables, scope)` copies an op and, recursively, every op it needs
(inputs, control inputs, original op) under `scope/`; a tensor whose scoped name is one of `variables` is that
variable's tensor in `to_graph`. `get_copied_op(op_or_tensor, graph, scope)` finds a copy by its scoped name.

TF 1.15 builds the copied op from its NodeDef; TensorFlow 2.21 has no public way to add a given NodeDef to a
graph, so this uses `tf.Operation.from_node_def` and the graph's own bookkeeping (`_record_op_seen_by_control_
dependencies`, `_device_functions_outer_to_inner`, `Operation._set_device`), as TF 1.15 did.
"""

import copy

import tensorflow as tf

__all__ = ["copy_op_to_graph", "copy_variable_to_graph", "get_copied_op"]

def _scoped(name, scope):
  return scope + "/" + name if scope != "" else name

def _collections_holding(element):
  """The names of the collections of `element`'s graph that hold `element` itself."""
  graph = element.graph
  return [key for key in graph.get_all_collection_keys()
          if any(member is element for member in graph.get_collection(key))]

def copy_variable_to_graph(org_instance, to_graph, scope=""):
  """Returns a copy of the `Variable` `org_instance` in `to_graph`, named `scope/<name>`, with its initial value.

  Args:
    org_instance: A `Variable` from some `Graph`.
    to_graph: The `Graph` to copy the `Variable` to.
    scope: A scope for the new `Variable` (default `""`).

  Returns:
    The copied `Variable` from `to_graph`.

  Raises:
    TypeError: If `org_instance` is not a `Variable`.
  """
  if not isinstance(org_instance, tf.Variable):
    raise TypeError(str(org_instance) + " is not a Variable")
  new_name = _scoped(org_instance.name[:org_instance.name.index(":")], scope)
  # The copy joins the collections of the original; all but the global and trainable variables under `scope/`.
  graph_keys = tf.compat.v1.GraphKeys
  collections = [name if name in (graph_keys.GLOBAL_VARIABLES, graph_keys.TRAINABLE_VARIABLES) or scope == ""
                 else scope + "/" + name for name in _collections_holding(org_instance)]
  trainable = any(v is org_instance for v in org_instance.graph.get_collection(graph_keys.TRAINABLE_VARIABLES))
  with org_instance.graph.as_default():
    # TF 1.15's `initialized_value()` (TensorFlow 2.21's ResourceVariable no longer has it)
    with tf.init_scope():
      initialized_value = tf.compat.v1.cond(tf.compat.v1.is_variable_initialized(org_instance),
                                            org_instance.read_value, lambda: org_instance.initial_value)
    with tf.compat.v1.Session() as temp_session:
      init_value = temp_session.run(initialized_value)
  with to_graph.as_default():
    return tf.compat.v1.Variable(init_value, trainable, name=new_name, collections=collections,
                                 validate_shape=False)

def copy_op_to_graph(org_instance, to_graph, variables, scope=""):
  """Returns a copy of the `Operation` (or `Tensor`) `org_instance` in `to_graph`, under `scope`.

  The copying is recursive: every op needed to evaluate `org_instance` is copied too (unless already there).
  Variables are copied separately (copy_variable_to_graph) and passed in `variables`.

  Args:
    org_instance: An `Operation` from some `Graph`. Could be a `Placeholder` as well.
    to_graph: The `Graph` to copy `org_instance` to.
    variables: An iterable of `Variable` instances to copy `org_instance` to.
    scope: A scope for the new `Variable` (default `""`).

  Returns:
    The copied `Operation` from `to_graph`.

  Raises:
    TypeError: If `org_instance` is not an `Operation` or `Tensor`.
  """
  new_name = _scoped(org_instance.name, scope)
  copied_variables = dict((x.name, x) for x in variables)
  if new_name in copied_variables:
    return to_graph.get_tensor_by_name(copied_variables[new_name].name)
  try:
    return to_graph.as_graph_element(new_name, allow_tensor=True, allow_operation=True)
  except Exception:  # pylint: disable=broad-except  (TF 1.15: whatever the lookup raises means "not there yet")
    pass
  collections = [_scoped(name, scope) for name in _collections_holding(org_instance)]

  if isinstance(org_instance, tf.Tensor):
    # A tensor is an output of its op: copy the op, return the same output of the copy.
    op = org_instance.op
    new_op = copy_op_to_graph(op, to_graph, variables, scope)
    new_tensor = new_op.outputs[list(op.outputs).index(org_instance)]
    for collection in collections:
      to_graph.add_to_collection(collection, new_tensor)
    return new_tensor

  if isinstance(org_instance, tf.Operation):
    op = org_instance
    # pylint: disable=protected-access  (no public API adds a given NodeDef to a graph)
    new_original_op = (copy_op_to_graph(op._original_op, to_graph, variables, scope)
                       if op._original_op is not None else None)
    new_control_inputs = [copy_op_to_graph(x, to_graph, variables, scope) for x in op.control_inputs]
    new_inputs = [copy_op_to_graph(x, to_graph, variables, scope) for x in op.inputs]
    new_node_def = copy.deepcopy(op.node_def)
    new_node_def.name = new_name
    new_op = tf.Operation.from_node_def(new_node_def, to_graph, new_inputs, list(op._output_types),
                                        new_control_inputs, list(op._input_types), new_original_op,
                                        copy.deepcopy(op.op_def))
    to_graph._record_op_seen_by_control_dependencies(new_op)
    for device_function in to_graph._device_functions_outer_to_inner:
      new_op._set_device(device_function(new_op))
    # pylint: enable=protected-access
    return new_op

  raise TypeError("Could not copy instance: " + str(org_instance))

def get_copied_op(org_instance, graph, scope=""):
  """Returns the copy of `org_instance` (an `Operation` or `Tensor`) in `graph` under `scope`.

  Args:
    org_instance: An `Operation` from some `Graph`.
    graph: The `Graph` to be searched for a copy of `org_instance`.
    scope: The scope `org_instance` is present in.

  Returns:
    The `Operation` copy from `graph`.
  """
  return graph.as_graph_element(_scoped(org_instance.name, scope), allow_tensor=True, allow_operation=True)

