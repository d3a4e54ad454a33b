"""Rerouting edges: make consumers read another tensor, swap two tensors' consumers (TF 1.15's reroute).

Place in the data flow (DESIGN.md): select / subgraph choose -> **reroute** changes existing ops' inputs
and control inputs (through in_place, the one module that touches TF private API) -> edit / transform
build on it. Gradient checkpointing calls `reroute_ts(stopped, checkpoints, can_modify=copied_ops)` so
the recomputed forward pass starts from the kept activations.

`reroute_ts(ts0, ts1)`: for each pair, the consumers of t1 now read t0 (t1 is left without them).
`swap_ts(ts0, ts1)`: the consumers of t0 and of t1 exchange. `can_modify` / `cannot_modify` restrict
which consumers change. The return value is the number of inputs updated.

As in TF 1.x, edit the graph before running it: a tf.Session that already ran a fetch keeps running
the edges it saw then; run the edited graph in a new Session.
"""

import tensorflow as tf

from tf1clip.contrib.graph_editor import _connections
from tf1clip.contrib.graph_editor import _in_place
from tf1clip.contrib.graph_editor import _op_lists
from tf1clip.contrib.graph_editor import subgraph

_SWAP, _A2B, _B2A = "swap", "a2b", "b2a"


def _check_ts_compatibility(ts0, ts1):
  if len(ts0) != len(ts1):
    raise ValueError("ts0 and ts1 have different sizes: %d != %d" % (len(ts0), len(ts1)))
  for t0, t1 in zip(ts0, ts1):
    if not t0.dtype.is_compatible_with(t1.dtype):
      raise ValueError("Dtypes %s (%s) and %s (%s) are not compatible."
                       % (t0.dtype.name, t0.name, t1.dtype.name, t1.name))
    if not t0.shape.is_compatible_with(t1.shape):
      raise ValueError("Shapes %s (%s) and %s (%s) are not compatible."
                       % (t0.shape, t0.name, t1.shape, t1.name))


def _planned_updates(t_new, t_old, consumers, can_modify, cannot_modify):
  """(consumer, input index, t_new) for each input of `consumers` that reads `t_old`."""
  if can_modify is not None:
    consumers = [op for op in consumers if op in can_modify]
  if cannot_modify is not None:
    consumers = [op for op in consumers if op not in cannot_modify]
  return [(consumer, i, t_new) for consumer in consumers
          for i, t in enumerate(consumer.inputs) if t is t_old]


def _reroute_ts(ts0, ts1, mode, can_modify=None, cannot_modify=None):
  ts0 = _op_lists.make_list_of_t(ts0)
  ts1 = _op_lists.make_list_of_t(ts1)
  _check_ts_compatibility(ts0, ts1)
  _in_place.check_available()
  if cannot_modify is not None:
    cannot_modify = frozenset(_op_lists.make_list_of_op(cannot_modify))
  if can_modify is not None:
    can_modify = frozenset(_op_lists.make_list_of_op(can_modify))
  # Every update is planned on the graph as it was, then applied: an op reading both t0 and t1
  # (c = t0 + t1) must end up reading (t1, t0) after a swap, not (t0, t0) then (t1, t1).
  updates = []
  for t0, t1 in zip(ts0, ts1):
    if t0 is t1:
      continue
    if mode in (_SWAP, _A2B):
      updates += _planned_updates(t0, t1, _op_lists.unique(t1.consumers()), can_modify, cannot_modify)
    if mode in (_SWAP, _B2A):
      updates += _planned_updates(t1, t0, _op_lists.unique(t0.consumers()), can_modify, cannot_modify)
  for consumer, index, tensor in updates:
    _in_place.update_input(consumer, index, tensor)
  return len(updates)


def swap_ts(ts0, ts1, can_modify=None, cannot_modify=None):
  """For each pair (t0, t1), the consumers of t0 read t1 and the consumers of t1 read t0.

  Args:
    ts0, ts1: tensors (one or an iterable; the same number, compatible dtypes and shapes).
    can_modify: if given, only these ops are changed.
    cannot_modify: if given, these ops are not changed.

  Returns:
    The number of op inputs updated.

  Raises:
    TypeError: arguments that are not tensors / ops.
    ValueError: lists of different lengths, or incompatible dtypes or shapes.
  """
  return _reroute_ts(ts0, ts1, _SWAP, can_modify, cannot_modify)


def reroute_ts(ts0, ts1, can_modify=None, cannot_modify=None):
  """For each pair (t0, t1), the consumers of t1 read t0 instead (t1 is left dangling).

  Args:
    ts0: the new tensors (one or an iterable).
    ts1: the tensors whose consumers move (same number, compatible dtypes and shapes).
    can_modify: if given, only these consumers move.
    cannot_modify: if given, these consumers stay.

  Returns:
    The number of op inputs updated.

  Raises:
    TypeError: arguments that are not tensors / ops.
    ValueError: lists of different lengths, or incompatible dtypes or shapes.
  """
  return _reroute_ts(ts0, ts1, _A2B, can_modify, cannot_modify)


def _reroute_sgv_remap(sgv0, sgv1, mode):
  """After rerouting inputs, the views follow (in place, as TF 1.15's): a view whose ops now read the other's
  inputs takes those inputs (and passthroughs), and a passthrough output follows the input it now is."""
  _op_lists.check_graphs(sgv0, sgv1)
  sgv0_ = sgv0.copy()
  sgv1_ = sgv1.copy()
  # pylint: disable=protected-access
  if mode == _SWAP:
    sgv0_._input_ts, sgv1_._input_ts = sgv1_._input_ts, sgv0_._input_ts
    sgv0_._passthrough_ts, sgv1_._passthrough_ts = sgv1_._passthrough_ts, sgv0_._passthrough_ts
  elif mode == _A2B:
    sgv1_._input_ts = sgv0_._input_ts[:]
    sgv1_._passthrough_ts = sgv0_._passthrough_ts[:]
  else:
    sgv0_._input_ts = sgv1_._input_ts[:]
    sgv0_._passthrough_ts = sgv1_._passthrough_ts[:]

  def update_passthrough_outputs(a, b):
    for i, t in enumerate(b._output_ts):
      if _op_lists.contains(a._passthrough_ts, t):
        b._output_ts[i] = b._input_ts[a.input_index(t)]

  if mode in (_SWAP, _A2B):
    update_passthrough_outputs(sgv0_, sgv1_)
  if mode in (_SWAP, _B2A):
    update_passthrough_outputs(sgv1_, sgv0_)
  sgv0._assign_from(sgv0_)
  sgv1._assign_from(sgv1_)
  # pylint: enable=protected-access


def _reroute_sgv_inputs(sgv0, sgv1, mode):
  sgv0 = subgraph.make_view(sgv0)
  sgv1 = subgraph.make_view(sgv1)
  _op_lists.check_graphs(sgv0, sgv1)
  can_modify = list(sgv0.ops) + list(sgv1.ops)
  can_modify += _connections.get_consuming_ops(sgv0.passthroughs)
  can_modify += _connections.get_consuming_ops(sgv1.passthroughs)
  _reroute_ts(sgv0.inputs, sgv1.inputs, mode, can_modify=can_modify)
  _reroute_sgv_remap(sgv0, sgv1, mode)
  return sgv0, sgv1


def _reroute_sgv_outputs(sgv0, sgv1, mode):
  sgv0 = subgraph.make_view(sgv0)
  sgv1 = subgraph.make_view(sgv1)
  _op_lists.check_graphs(sgv0, sgv1)
  cannot_modify = list(sgv0.ops) + list(sgv1.ops)
  _reroute_ts(sgv0.outputs, sgv1.outputs, mode, cannot_modify=cannot_modify)
  return sgv0, sgv1


def swap_inputs(sgv0, sgv1):
  """Swaps the inputs of two subgraph views (anything `make_view` accepts); returns both views.

  A SubGraphView given is changed in place, as in TF 1.15: each view then lists the inputs its ops read.
  """
  return _reroute_sgv_inputs(sgv0, sgv1, _SWAP)


def reroute_inputs(sgv0, sgv1):
  """The ops of `sgv1` read the inputs of `sgv0` instead of their own; returns both views."""
  return _reroute_sgv_inputs(sgv0, sgv1, _A2B)


def swap_outputs(sgv0, sgv1):
  """The consumers of the two views' outputs exchange; returns both views."""
  return _reroute_sgv_outputs(sgv0, sgv1, _SWAP)


def reroute_outputs(sgv0, sgv1):
  """The consumers of `sgv1`'s outputs read `sgv0`'s outputs instead; returns both views."""
  return _reroute_sgv_outputs(sgv0, sgv1, _A2B)


def swap_ios(sgv0, sgv1):
  """`swap_outputs` then `swap_inputs`; returns `(sgv0, sgv1)` as given (TF 1.15 did not convert them)."""
  _reroute_sgv_outputs(sgv0, sgv1, _SWAP)
  _reroute_sgv_inputs(sgv0, sgv1, _SWAP)
  return sgv0, sgv1


def reroute_ios(sgv0, sgv1):
  """`reroute_outputs` then `reroute_inputs`: `sgv0` takes `sgv1`'s place; returns `(sgv0, sgv1)` as given."""
  _reroute_sgv_outputs(sgv0, sgv1, _A2B)
  _reroute_sgv_inputs(sgv0, sgv1, _A2B)
  return sgv0, sgv1


def _check_op(op):
  if not isinstance(op, tf.Operation):
    raise TypeError("Expected a tf.Operation, got: %s" % type(op).__name__)


def remove_control_inputs(op, cops):
  """Removes the ops `cops` from the control inputs of `op`.

  Args:
    op: a tf.Operation.
    cops: one tf.Operation or an iterable of them, each a control input of `op`.

  Raises:
    TypeError: `op` is not a tf.Operation.
    ValueError: one of `cops` is not a control input of `op`.
  """
  _check_op(op)
  cops = _op_lists.make_list_of_op(cops, allow_graph=False)
  for cop in cops:
    if not _op_lists.contains(op.control_inputs, cop):
      raise ValueError("%s is not a control_input of %s" % (cop.name, op.name))
  _in_place.check_available()
  _in_place.set_control_inputs(op, [c for c in op.control_inputs if not _op_lists.contains(cops, c)])


def add_control_inputs(op, cops):
  """Adds the ops `cops` to the control inputs of `op`.

  Args:
    op: a tf.Operation.
    cops: one tf.Operation or an iterable of them, none a control input of `op` yet.

  Raises:
    TypeError: `op` is not a tf.Operation.
    ValueError: one of `cops` is already a control input of `op`.
  """
  _check_op(op)
  cops = _op_lists.make_list_of_op(cops, allow_graph=False)
  for cop in cops:
    if _op_lists.contains(op.control_inputs, cop):
      raise ValueError("%s is already a control_input of %s" % (cop.name, op.name))
  _in_place.check_available()
  _in_place.add_control_inputs(op, cops)
