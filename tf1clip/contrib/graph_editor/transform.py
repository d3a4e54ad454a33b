"""Copying subgraphs: Transformer, copy, copy_with_input_replacements, graph_replace (TF 1.15's transform).

Place in the data flow (DESIGN.md): select / subgraph choose -> **transform** builds a copy of the chosen
ops (in the same or another graph, optionally under a new name scope) -> reroute / tf.gradients use the
copy. Gradient checkpointing copies the forward pass with `copy_with_input_replacements(sgv(ops), {})`
and differentiates the copy; `graph_replace(target, {t: replacement})` rebuilds what `target` depends on
with `t` replaced.

How an op is copied: `copy_op_handler` builds the new op with `tf.Operation.from_node_def` from a copy
of the original's NodeDef, so every attribute (dtype attrs, `_class` colocation, `_gradient_op_type`
from gradient_override_map, ...) and the device are kept, and `tf.gradients` finds the same gradient
function. Ops are copied in creation order; an input produced inside the subgraph but not copied yet (a
cycle: v1 while loops) gets a temporary placeholder, rerouted to the copy once it exists. Control
inputs are connected last.

Inputs of the subgraph (tensors produced outside it) become, by default, placeholders named like TF
1.15's ("geph__<op>_<i>"), one for each consumer as in TF 1.15 (the view `copy` returns lists no
inputs, and `info.transformed(input)` is None, as there); `copy_with_input_replacements` keeps them
(same graph) or maps them through `replacement_ts`. Differences from TF 1.15: ops inside a v1 control-flow context are copied without it
(as TF 1.15 did), and `graph_replace` does not add the missing half of a partially selected v1 while
loop (TF 1.15 did, through private control-flow internals).
"""

import copy as _copy

import tensorflow as tf

from tf1clip.contrib.graph_editor import _connections
from tf1clip.contrib.graph_editor import _in_place
from tf1clip.contrib.graph_editor import _naming
from tf1clip.contrib.graph_editor import _op_lists
from tf1clip.contrib.graph_editor import select
from tf1clip.contrib.graph_editor import subgraph


def replace_t_with_placeholder_handler(info, t):
  """Transform handler: a new placeholder of `t`'s dtype and shape in the destination graph."""
  with info.graph_.as_default():
    return _naming.make_placeholder_from_tensor(t, scope=info.scope_)


def keep_t_if_possible_handler(info, t):
  """Transform handler: `t` itself when copying within its graph, else a placeholder."""
  if info.graph is info.graph_:
    return t
  return replace_t_with_placeholder_handler(info, t)


def assign_renamed_collections_handler(info, elem, elem_):
  """Transform handler: puts the copy `elem_` in the collections holding `elem`.

  Collections that tf.compat.v1.GraphKeys predefines keep their name; others are renamed from the
  source scope to the destination scope (a collection not under the source scope keeps its name).
  """
  known = set(_naming.get_predefined_collection_names())
  for name, ids in info.collection_ids.items():
    if id(elem) not in ids:
      continue
    if name in known or not name.startswith(info.scope):
      transformed_name = name
    else:
      transformed_name = info.new_name(name)
    info.graph_.add_to_collection(transformed_name, elem_)


def transform_op_if_inside_handler(info, op, keep_if_possible=True):
  """Transform handler: the copy of `op` if `op` is in the subgraph, else `op` (same graph) or None."""
  if op in info.ops:
    return info.transformed_ops[op]
  if keep_if_possible and info.graph is info.graph_:
    return op
  return None


def _unique_name(graph, name):
  # `unique_name` prefixes the current name scope; a copy's name must not depend on the caller's scope.
  with graph.as_default(), tf.compat.v1.name_scope(None):
    return graph.unique_name(name)


def _copied_frame_name(info, frame):
  """The v1 while-loop frame of a copied loop: moved to the destination scope, and made unique in the
  same graph (two loops sharing a frame name fail at run time: "more than one LoopCond node")."""
  if frame not in info.frame_names:
    name = frame.decode()
    if name.startswith(info.scope):
      name = info.new_name(name)
    if info.graph_ is info.graph:
      name = _unique_name(info.graph_, name)
    info.frame_names[frame] = name.encode()
  return info.frame_names[frame]


def copy_op_handler(info, op, new_inputs, copy_shape=False, nodedef_fn=None):
  """Transform handler: a copy of `op` reading `new_inputs`, in `info.graph_`.

  Args:
    info: the transformation's _TmpInfo.
    op: the tf.Operation to copy.
    new_inputs: the tensors the copy reads, one per input of `op`.
    copy_shape: also copy the static shapes of `op`'s outputs onto the copy's.
    nodedef_fn: optional function NodeDef -> NodeDef applied to the copy's NodeDef.

  Returns:
    (the new tf.Operation, its outputs).

  Raises:
    TypeError: `new_inputs` is not a list of tensors.
  """
  if isinstance(new_inputs, bool):
    raise TypeError("the new_inputs argument must be a list of tensors (TF 1.15 changed this "
                    "argument from copy_shape)")
  node_def_ = _copy.deepcopy(op.node_def)
  node_def_.name = _unique_name(info.graph_, info.new_name(op.name))
  if node_def_.op in ("Enter", "RefEnter"):
    node_def_.attr["frame_name"].s = _copied_frame_name(info, node_def_.attr["frame_name"].s)
  if nodedef_fn is not None:
    node_def_ = nodedef_fn(node_def_)
  # Input dtypes (ref types included) come from `new_inputs`; the op_def checks them.
  op_ = tf.Operation.from_node_def(node_def_, info.graph_, inputs=list(new_inputs), op_def=op.op_def)
  if copy_shape:
    for t, t_ in zip(op.outputs, op_.outputs):
      t_.set_shape(t.shape)
  return op_, op_.outputs


class TransformerInfo:
  """What a transformation did: the copy of each original op and tensor, and back.

  `transformed(original)` / `original(transformed)` accept an op, a tensor, its name, or a nested
  structure of them. `_transformed_ops` / `_transformed_ts` are the dicts original -> copy (TF 1.x
  scripts, e.g. memory_saving_gradients, read them directly).
  """

  def __init__(self, info):
    self._graph = info.graph
    self._scope = info.scope
    self._graph_ = info.graph_
    self._scope_ = info.scope_
    self._transformed_ops = info.transformed_ops
    self._transformed_ts = info.transformed_ts

  def _get_transformed_map(self, top):
    if isinstance(top, tf.Operation):
      return self._transformed_ops
    if isinstance(top, tf.Tensor):
      return self._transformed_ts
    raise TypeError("Expected a tf.Tensor or a tf.Operation, got a %s" % type(top).__name__)

  def _lookup(self, top, forward, missing_fn):
    if isinstance(top, str):
      # A name: ":" marks a tensor name ("op:0").
      mapping = self._transformed_ts if ":" in top else self._transformed_ops
      pairs = mapping.items() if forward else ((v, k) for k, v in mapping.items())
      for key, value in pairs:
        if key.name == top:
          return value
      return None if missing_fn is None else missing_fn(top)
    mapping = self._get_transformed_map(top)
    if forward:
      if top in mapping:
        return mapping[top]
    else:
      for key, value in mapping.items():
        if value is top:
          return key
    return None if missing_fn is None else missing_fn(top)

  def transformed(self, original, missing_fn=None):
    """The copy of `original` (op, tensor, name, or nested structure); `missing_fn(x)` or None if none."""
    return _op_lists.transform_tree(original, lambda x: self._lookup(x, True, missing_fn))

  def original(self, transformed, missing_fn=None):
    """The original of the copy `transformed` (op, tensor, name, or nested structure)."""
    return _op_lists.transform_tree(transformed, lambda x: self._lookup(x, False, missing_fn))

  def __str__(self):
    lines = ["Transform result info:"]  # TF 1.15's text, line for line
    if self._graph is self._graph_:
      lines.append("  Within graph[%d]%s" % (id(self._graph), "" if self._scope_ else " IN-PLACE"))
    else:
      lines.append("  graph[%d] => graph[%d]" % (id(self._graph), id(self._graph_)))
    if self._scope:
      lines.append("  Relative to source scope: %s" % self._scope)
    if self._scope_:
      lines.append("  Scope destination: %s" % self._scope_)
    lines.append("Operations mapping:")
    lines += ["  %s => %s" % (op.name, op_.name) for op, op_ in self._transformed_ops.items()]
    return "\n".join(lines) + "\n"


class _TmpInfo:
  """State of one transformation while it runs (handlers receive it as `info`)."""

  def __init__(self, sgv, dst_graph, dst_scope, src_scope):
    self.sgv = sgv
    self.sgv_input_ids = {id(t) for t in sgv.inputs}
    self.ops = frozenset(sgv.ops)
    self.control_outputs = _connections.ControlOutputs(sgv.graph)
    self.graph = sgv.graph
    self.scope = src_scope
    self.graph_ = dst_graph
    self.scope_ = dst_scope
    self.transformed_ops = {}
    self.transformed_ts = {}
    self.collections = {key: self.graph.get_collection(key)
                        for key in self.graph.get_all_collection_keys()}
    # Membership by identity, computed once (a copy tests every op and tensor against every collection).
    self.collection_ids = {key: {id(x) for x in items} for key, items in self.collections.items()}
    # (original tensor, temporary tensor, consumer op, input index): inputs met before their producer
    # was copied (cycles); `_finalize_cycles` reroutes them to the copies.
    self.tmp_cyclic_ts = []
    self.frame_names = {}  # v1 while-loop frame name -> its copy's

  def new_name(self, name):
    """`name` moved from the source scope to the destination scope.

    Raises:
      ValueError: `name` is not under the source scope.
    """
    if not name.startswith(self.scope):
      raise ValueError("%s does not belong to source scope: %s." % (name, self.scope))
    return self.scope_ + name[len(self.scope):]


class Transformer:
  """Copies a subgraph, calling replaceable handlers for each decision (TF 1.15's Transformer).

  Attributes (handlers, replaceable before calling):
    transform_op_handler(info, op, new_inputs) -> (op_, outputs_): how an op is copied.
    transform_external_input_handler(info, t) -> t_: what a subgraph input becomes
      (default: a placeholder).
    transform_external_hidden_input_handler(info, t) -> t_: what an input that is not one of the
      view's (remapped-away) inputs becomes (default: kept if possible).
    transform_control_input_handler(info, op) -> op_ or None: what a control input becomes.
    assign_collections_handler(info, elem, elem_): collections of the copies.
  """

  def __init__(self):
    self.transform_control_input_handler = transform_op_if_inside_handler
    self.assign_collections_handler = assign_renamed_collections_handler
    self.transform_op_handler = copy_op_handler
    self.transform_external_input_handler = replace_t_with_placeholder_handler
    self.transform_external_hidden_input_handler = keep_t_if_possible_handler
    self.transform_original_op_handler = transform_op_if_inside_handler

  def __call__(self, sgv, dst_graph, dst_scope, src_scope="", reuse_dst_scope=False):
    """Copies the subgraph `sgv` into `dst_graph` under `dst_scope`.

    Args:
      sgv: anything `make_view` accepts.
      dst_graph: the destination tf.Graph.
      dst_scope: the destination name scope ("" keeps the names, made unique).
      src_scope: the part of the names replaced by `dst_scope`.
      reuse_dst_scope: use `dst_scope` as is even if it exists (default: make it unique).

    Returns:
      (SubGraphView of the copy, with inputs / outputs in the order of `sgv`'s, TransformerInfo).

    Raises:
      TypeError: `dst_graph` is not a tf.Graph.
      ValueError: an op name not under `src_scope`.
    """
    sgv = subgraph.make_view(sgv)
    if not isinstance(dst_graph, tf.Graph):
      raise TypeError("Expected a tf.Graph for dst_graph, got: %s" % type(dst_graph).__name__)
    src_scope = _naming.scope_finalize(src_scope)
    dst_scope = _naming.scope_finalize(dst_scope)
    if dst_scope and not reuse_dst_scope:
      dst_scope = _naming.scope_finalize(_unique_name(dst_graph, dst_scope[:-1]))
    info = _TmpInfo(sgv, dst_graph, dst_scope, src_scope)
    self._copy_ops(info)
    self._finalize_cycles(info)
    self._connect_control_inputs(info)
    return self._transform_sgv(info, sgv), TransformerInfo(info)

  def _copy_ops(self, info):
    """Copies the ops in creation order, without control inputs."""
    order = {op: i for i, op in enumerate(info.graph.get_operations())}
    for op in sorted(info.sgv.ops, key=order.__getitem__):
      new_inputs = [self._transformed_t(info, t, op, i) for i, t in enumerate(op.inputs)]
      op_, op_outputs_ = self.transform_op_handler(info, op, new_inputs)
      if op is op_:
        raise ValueError("In-place transformation not allowed.")
      info.transformed_ops[op] = op_
      self.assign_collections_handler(info, op, op_)
      for t, t_ in zip(op.outputs, op_outputs_):
        info.transformed_ts[t] = t_
        self.assign_collections_handler(info, t, t_)

  def _finalize_cycles(self, info):
    """Reroutes the temporary placeholders of cycles to the copies of the tensors they stood for."""
    for t, _, consumer_op, index in info.tmp_cyclic_ts:
      if t not in info.transformed_ts:
        raise ValueError("The tensor %s should be transformed by now." % t.name)
      _in_place.update_input(info.transformed_ops[consumer_op], index, info.transformed_ts[t])

  def _connect_control_inputs(self, info):
    for op in info.sgv.ops:
      op_ = info.transformed_ops[op]
      control_inputs_ = [self.transform_control_input_handler(info, ci) for ci in op.control_inputs]
      control_inputs_ = [ci for ci in control_inputs_ if ci is not None]
      control_inputs_ = [ci for ci in control_inputs_ if not _op_lists.contains(op_.control_inputs, ci)]
      if control_inputs_:
        _in_place.add_control_inputs(op_, control_inputs_)

  def _transform_sgv(self, info, sgv):
    """The view of the copy, its inputs and outputs in the order of `sgv`'s."""
    sgv_ = subgraph.SubGraphView(list(info.transformed_ops.values()))
    input_map_ = []
    for input_t in sgv.inputs:
      input_t_ = info.transformed_ts.get(input_t)
      if input_t_ is not None and _op_lists.contains(sgv_.inputs, input_t_):
        input_map_.append(sgv_.input_index(input_t_))
    output_map_ = []
    for output_t in sgv.outputs:
      output_t_ = info.transformed_ts.get(output_t)
      if output_t_ is not None and _op_lists.contains(sgv_.outputs, output_t_):
        output_map_.append(sgv_.output_index(output_t_))
    return sgv_.remap(input_map_, output_map_)

  def _transformed_t(self, info, t, consumer_op, index):
    """What the copy of `consumer_op` reads for its input number `index`, `t`."""
    if t in info.transformed_ts:
      return info.transformed_ts[t]
    if id(t) in info.sgv_input_ids:
      # As in TF 1.15: the handler runs for each consumer (the default one makes a placeholder for each) and
      # its result is not recorded, so `TransformerInfo.transformed(input)` is None and the view of the copy
      # lists no inputs.
      return self.transform_external_input_handler(info, t)
    if t.op in info.ops:
      # Produced inside the subgraph but not copied yet: a cycle (v1 while loop).
      if consumer_op.type == "Merge":
        # A Merge's inputs must share a dtype and a frame: stand in with its first input.
        tmp_t_ = self._transformed_t(info, consumer_op.inputs[0], consumer_op, 0)
      elif t.op.type == "Enter":
        tmp_t_ = self._transformed_t(info, t.op.inputs[0], consumer_op, index)
      else:
        with info.graph_.as_default():
          tmp_t_ = _naming.make_placeholder_from_tensor(t, scope=info.scope_, prefix="geph_tmp")
      info.tmp_cyclic_ts.append((t, tmp_t_, consumer_op, index))
      return tmp_t_
    return self.transform_external_hidden_input_handler(info, t)


def copy(sgv, dst_graph=None, dst_scope="", src_scope="", reuse_dst_scope=False):  # pylint: disable=redefined-builtin
  """Copies a subgraph; its inputs become placeholders.

  Args:
    sgv: anything `make_view` accepts.
    dst_graph: the destination graph (default: the subgraph's own).
    dst_scope: the destination name scope.
    src_scope: the source name scope.
    reuse_dst_scope: see Transformer.

  Returns:
    (SubGraphView of the copy, TransformerInfo).

  Raises:
    TypeError: `dst_graph` is not a tf.Graph.
  """
  sgv = subgraph.make_view(sgv)
  if dst_graph is None:
    dst_graph = sgv.graph
  if not isinstance(dst_graph, tf.Graph):
    raise TypeError("Expected a tf.Graph for dst_graph, got: %s" % type(dst_graph).__name__)
  return Transformer()(sgv, dst_graph, dst_scope, src_scope, reuse_dst_scope=reuse_dst_scope)


def copy_with_input_replacements(sgv, replacement_ts, dst_graph=None, dst_scope="", src_scope="",
                                 reuse_dst_scope=False):
  """Copies a subgraph whose inputs are replaced by `replacement_ts` or else kept.

  Args:
    sgv: anything `make_view` accepts.
    replacement_ts: dict original input tensor -> tensor the copy reads instead ({} keeps every
      input when copying within the same graph).
    dst_graph: the destination graph (default: the subgraph's own).
    dst_scope: the destination name scope.
    src_scope: the source name scope.
    reuse_dst_scope: see Transformer.

  Returns:
    (SubGraphView of the copy, TransformerInfo).

  Raises:
    TypeError: `dst_graph` is not a tf.Graph, or `replacement_ts` is not a dict.
  """
  if not isinstance(replacement_ts, dict):
    raise TypeError("replacement_ts must be a dict tensor -> tensor, got: %s"
                    % type(replacement_ts).__name__)
  sgv = subgraph.make_view(sgv)
  if dst_graph is None:
    dst_graph = sgv.graph
  if not isinstance(dst_graph, tf.Graph):
    raise TypeError("Expected a tf.Graph for dst_graph, got: %s" % type(dst_graph).__name__)
  copier = Transformer()

  def replace_t_with_replacement_handler(info, t):
    if t in replacement_ts:
      return replacement_ts[t]
    return keep_t_if_possible_handler(info, t)

  copier.transform_external_input_handler = replace_t_with_replacement_handler
  return copier(sgv, dst_graph, dst_scope, src_scope, reuse_dst_scope=reuse_dst_scope)


def graph_replace(target_ts, replacement_ts, dst_scope="", src_scope="", reuse_dst_scope=False):
  """Rebuilds what `target_ts` computes with some tensors replaced (the originals stay as they were).

  Args:
    target_ts: a tensor or nested structure of tensors to recompute.
    replacement_ts: dict original tensor -> replacement tensor (same graph).
    dst_scope: the name scope of the copied ops.
    src_scope: the source name scope.
    reuse_dst_scope: see Transformer.

  Returns:
    `target_ts`' structure with each tensor replaced by its recomputed copy (a target that does not
    depend on any replaced tensor is returned as is).

  Raises:
    ValueError: the targets do not depend on any of the replaced tensors.
  """
  flatten_target_ts = _op_lists.flatten_tree(target_ts)
  graph = _op_lists.get_unique_graph(flatten_target_ts, check_types=tf.Tensor)
  control_ios = _connections.ControlOutputs(graph)
  ops = select.get_walks_intersection_ops(list(replacement_ts), flatten_target_ts,
                                          control_ios=control_ios)
  if not ops:
    raise ValueError("Targets and replacements are not connected!")
  _, info = copy_with_input_replacements(ops, replacement_ts, None, dst_scope, src_scope,
                                         reuse_dst_scope)
  return info.transformed(target_ts, missing_fn=lambda original_t: original_t)
