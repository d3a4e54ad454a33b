"""Detaching, connecting and bypassing subgraphs (TF 1.15's edit).

Place in the data flow (DESIGN.md): built on reroute (which changes existing ops' inputs): cut a
subgraph off its inputs / outputs (the cut ends become placeholders), plug one subgraph's outputs into
another's inputs, or take a subgraph out of the data path.
"""

import tensorflow as tf

from tf1clip.contrib.graph_editor import _connections
from tf1clip.contrib.graph_editor import _naming
from tf1clip.contrib.graph_editor import _op_lists
from tf1clip.contrib.graph_editor import reroute
from tf1clip.contrib.graph_editor import select
from tf1clip.contrib.graph_editor import subgraph


def detach_control_inputs(sgv):
  """Removes the control inputs that come from outside the subgraph `sgv` (anything make_view takes)."""
  sgv = subgraph.make_view(sgv)
  for op in sgv.ops:
    cops = [cop for cop in op.control_inputs if not _op_lists.contains(sgv.ops, cop)]
    if cops:
      reroute.remove_control_inputs(op, cops)


def detach_control_outputs(sgv, control_outputs):
  """Removes the subgraph's ops from the control inputs of ops outside it.

  Args:
    sgv: anything make_view accepts.
    control_outputs: a _connections.ControlOutputs of the graph.

  Raises:
    TypeError: `control_outputs` is not a ControlOutputs.
  """
  if not isinstance(control_outputs, _connections.ControlOutputs):
    raise TypeError("Expected a ControlOutputs, got: %s" % type(control_outputs).__name__)
  control_outputs.update()
  sgv = subgraph.make_view(sgv)
  for op in sgv.ops:
    for cop in control_outputs.get(op):
      if not _op_lists.contains(sgv.ops, cop):
        reroute.remove_control_inputs(cop, op)


def detach_inputs(sgv, control_inputs=False):
  """Cuts the subgraph off its inputs: its ops read new placeholders instead.

  Args:
    sgv: anything make_view accepts.
    control_inputs: also remove control inputs from outside.

  Returns:
    (the view, the list of placeholders). A SubGraphView given is that view, changed in place (its inputs
    are the placeholders), as in TF 1.15.
  """
  sgv = subgraph.make_view(sgv)
  with sgv.graph.as_default():
    input_placeholders = [
        tf.compat.v1.placeholder(dtype=t.dtype, name=_naming.placeholder_name(t)) for t in sgv.inputs]
  reroute.swap_inputs(sgv, input_placeholders)
  if control_inputs:
    detach_control_inputs(sgv)
  return sgv, input_placeholders


def detach_outputs(sgv, control_outputs=None):
  """Cuts the subgraph off its consumers: they read new placeholders instead.

  Args:
    sgv: anything make_view accepts.
    control_outputs: a _connections.ControlOutputs to also cut control edges, or None.

  Returns:
    (the view of the outputs that had consumers; the list of placeholders).
  """
  sgv = subgraph.make_view(sgv)
  sgv_ = sgv.remap_outputs([i for i, t in enumerate(sgv.outputs) if t.consumers()])
  consumers_sgv = subgraph.SubGraphView(sgv_.consumers())
  consumers_sgv = consumers_sgv.remap_inputs(
      [i for i, t in enumerate(consumers_sgv.inputs) if _op_lists.contains(sgv_.outputs, t)])
  with sgv_.graph.as_default():
    output_placeholders = [_naming.make_placeholder_from_tensor(t) for t in consumers_sgv.inputs]
  reroute.swap_outputs(sgv_, output_placeholders)
  if control_outputs is not None:
    detach_control_outputs(sgv_, control_outputs)
  return sgv_, output_placeholders


def detach(sgv, control_inputs=False, control_outputs=None, control_ios=None):
  """`detach_inputs` and `detach_outputs`.

  Returns:
    (`sgv` as given, input placeholders, output placeholders). A SubGraphView given is changed in place.
  """
  control_inputs, control_outputs = select.check_cios(control_inputs, control_outputs, control_ios)
  _, detached_inputs = detach_inputs(sgv, control_inputs)
  _, detached_outputs = detach_outputs(sgv, control_outputs)
  return sgv, detached_inputs, detached_outputs


def connect(sgv0, sgv1, disconnect_first=False):
  """Makes `sgv1`'s inputs read `sgv0`'s outputs (in order).

  Args:
    sgv0, sgv1: anything make_view accepts (same graph).
    disconnect_first: detach `sgv0`'s outputs from their consumers first.

  Returns:
    (sgv0, sgv1) as views; a SubGraphView given is changed in place (sgv1's inputs are sgv0's outputs).
  """
  sgv0 = subgraph.make_view(sgv0)
  sgv1 = subgraph.make_view(sgv1)
  _op_lists.check_graphs(sgv0, sgv1)
  if disconnect_first:
    detach_outputs(sgv0)
  sgv0_outputs = subgraph.SubGraphView(passthrough_ts=sgv0.outputs)
  reroute.reroute_inputs(sgv0_outputs, sgv1)
  return sgv0, sgv1


def bypass(sgv):
  """Takes the subgraph out of the data path: its consumers read its inputs, it reads placeholders.

  Only for subgraphs with as many inputs as outputs, in matching order.

  Returns:
    (the view, the input placeholders).
  """
  sgv = subgraph.make_view(sgv)
  sgv_inputs = list(sgv.inputs)
  sgv, detached_inputs = detach_inputs(sgv)
  reroute.reroute_ts(sgv_inputs, sgv.outputs)
  return sgv, detached_inputs
