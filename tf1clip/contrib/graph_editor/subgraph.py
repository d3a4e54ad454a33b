"""SubGraphView: a set of ops seen as one box with ordered inputs and outputs (TF 1.15's subgraph).

Place in the data flow (DESIGN.md): select chooses ops -> **subgraph** wraps them (`make_view`, alias
`sgv`) -> reroute / edit / transform act on the view's inputs and outputs.

A view of ops O has as inputs the tensors O consumes but does not produce, and as outputs the tensors O
produces that are consumed outside O (or not consumed at all). A "passthrough" tensor is both an input
and an output of the view without going through any op (a view made of tensors only). `remap_inputs` /
`remap_outputs` reorder, drop or (outputs only) repeat entries; they return a new view.
"""

import copy

import tensorflow as tf

from tf1clip.contrib.graph_editor import _op_lists
from tf1clip.contrib.graph_editor import select


def _finalize_index(index_or_t, ts):
  if isinstance(index_or_t, int):
    return index_or_t
  for i, t in enumerate(ts):
    if t is index_or_t:
      return i
  raise ValueError("Can't find index for tensor %s." % getattr(index_or_t, "name", index_or_t))


def _check_within_range(mapping, n, repetition):
  for i in mapping:
    if not 0 <= i < n:
      raise ValueError("Out of [0, %d[ range: %d" % (n, i))
  if not repetition and len(set(mapping)) != len(mapping):
    raise ValueError("Found repetition in mapping: %s" % (mapping,))


class SubGraphView:
  """A view of a subgraph: its ops, and its inputs and outputs in a chosen order.

  Args:
    inside_ops: the ops of the subgraph (one op or an iterable).
    passthrough_ts: tensors that are both inputs and outputs without going through an op.

  Raises:
    TypeError: arguments that are not ops / tensors.
    ValueError: ops and tensors from different graphs.
  """

  def __init__(self, inside_ops=(), passthrough_ts=()):
    inside_ops = _op_lists.make_list_of_op(inside_ops)  # a repeated op stays repeated, as in TF 1.15
    passthrough_ts = _op_lists.make_list_of_t(passthrough_ts)
    if inside_ops or passthrough_ts:
      self._graph = _op_lists.get_unique_graph(inside_ops + passthrough_ts)
      self._ops = inside_ops
      inputs, outputs, insides = select.compute_boundary_ts(inside_ops)
      boundary = {id(t) for t in inputs + outputs + list(insides)}
      self._passthrough_ts = [t for t in passthrough_ts if id(t) not in boundary]
      self._input_ts = inputs + self._passthrough_ts
      self._output_ts = outputs + self._passthrough_ts
    else:
      self._graph = None
      self._ops = []
      self._passthrough_ts = []
      self._input_ts = []
      self._output_ts = []

  def __copy__(self):
    cls = self.__class__
    result = cls.__new__(cls)
    result._assign_from(self)  # pylint: disable=protected-access
    return result

  def _assign_from(self, other):
    if not isinstance(other, SubGraphView):
      raise TypeError("Expected SubGraphView, got: %s" % type(other).__name__)
    self._graph = other._graph  # pylint: disable=protected-access
    self._ops = list(other._ops)  # pylint: disable=protected-access
    self._passthrough_ts = list(other._passthrough_ts)  # pylint: disable=protected-access
    self._input_ts = list(other._input_ts)  # pylint: disable=protected-access
    self._output_ts = list(other._output_ts)  # pylint: disable=protected-access

  def copy(self):
    """A copy of this view (the ops are shared, the lists are not)."""
    return copy.copy(self)

  def _remap_default(self, remove_input_map=True, remove_output_map=True):
    if not remove_input_map and not remove_output_map:
      return
    inputs, outputs, _ = select.compute_boundary_ts(self._ops)
    if remove_input_map:
      self._input_ts = list(inputs) + self._passthrough_ts
    if remove_output_map:
      self._output_ts = list(outputs) + self._passthrough_ts

  def remap_default(self, remove_input_map=True, remove_output_map=True):
    """A copy with the default order of inputs and/or outputs (as `SubGraphView(ops)` has)."""
    res = self.copy()
    res._remap_default(remove_input_map, remove_output_map)  # pylint: disable=protected-access
    return res

  def _remap_inputs(self, new_input_indices):
    new_input_indices = [_finalize_index(i, self._input_ts) for i in new_input_indices]
    _check_within_range(new_input_indices, len(self._input_ts), repetition=False)
    self._input_ts = [self._input_ts[i] for i in new_input_indices]

  def _remap_outputs(self, new_output_indices):
    new_output_indices = [_finalize_index(i, self._output_ts) for i in new_output_indices]
    _check_within_range(new_output_indices, len(self._output_ts), repetition=True)
    self._output_ts = [self._output_ts[i] for i in new_output_indices]

  def _remap_outputs_make_unique(self):
    self._output_ts = _op_lists.unique(self._output_ts)

  def _remap_outputs_to_consumers(self):
    self._remap_outputs_make_unique()
    output_ts = list(self._output_ts)
    self._output_ts = []
    for t in output_ts:
      self._output_ts += [t] * len(t.consumers())

  def remap_outputs_make_unique(self):
    """A copy whose outputs are each listed once."""
    res = self.copy()
    res._remap_outputs_make_unique()  # pylint: disable=protected-access
    return res

  def remap_outputs_to_consumers(self):
    """A copy whose outputs are each listed once per consumer."""
    res = self.copy()
    res._remap_outputs_to_consumers()  # pylint: disable=protected-access
    return res

  def _remove_unused_ops(self, control_inputs=True):
    ops = set(select.get_walks_union_ops(
        self.connected_inputs, self.connected_outputs, within_ops=self._ops,
        control_inputs=control_inputs))
    self._ops = [op for op in self._ops if op in ops]

  def remove_unused_ops(self, control_inputs=True):
    """A copy without the ops connected to neither its inputs nor its outputs."""
    res = self.copy()
    res._remove_unused_ops(control_inputs)  # pylint: disable=protected-access
    return res

  def remap_inputs(self, new_input_indices):
    """A copy whose inputs are `[inputs[i] for i in new_input_indices]` (indices or tensors, no repeats).

    Raises:
      ValueError: an index out of range, a repeated index, or a tensor that is not an input.
    """
    res = self.copy()
    res._remap_inputs(new_input_indices)  # pylint: disable=protected-access
    return res

  def remap_outputs(self, new_output_indices):
    """A copy whose outputs are `[outputs[i] for i in new_output_indices]` (indices or tensors).

    Raises:
      ValueError: an index out of range, or a tensor that is not an output.
    """
    res = self.copy()
    res._remap_outputs(new_output_indices)  # pylint: disable=protected-access
    return res

  def remap(self, new_input_indices=None, new_output_indices=None):
    """`remap_inputs` and `remap_outputs` in one copy (None leaves that side as it is)."""
    res = self.copy()
    if new_input_indices is not None:
      res._remap_inputs(new_input_indices)  # pylint: disable=protected-access
    if new_output_indices is not None:
      res._remap_outputs(new_output_indices)  # pylint: disable=protected-access
    return res

  def find_op_by_name(self, op_name):
    """The op of this view named `op_name`.

    Raises:
      ValueError: no such op, or several.
    """
    matches = [op for op in self._ops if op.name == op_name]
    if not matches:
      raise ValueError("%s not in subgraph." % op_name)
    if len(matches) > 1:
      raise AssertionError("More than 1 op named: %s!" % op_name)
    return matches[0]

  def __str__(self):
    if not self:
      return "SubGraphView: empty"

    def listing(name, items, get_name):
      if not items:
        return ["** %s: empty" % name]
      return ["** %s[%d]:" % (name, len(items))] + ["  %s" % get_name(x) for x in items]

    def tensor_name(t):
      return "%s *" % t.name if _op_lists.contains(self._passthrough_ts, t) else t.name

    lines = ["SubGraphView (graphid=%d):" % id(self._graph)]  # TF 1.15's text, line for line
    lines += listing("ops", self._ops, lambda op: op.name)
    lines += listing("inputs", self._input_ts, tensor_name)
    lines += listing("outputs", self._output_ts, tensor_name)
    return "\n".join(lines) + "\n"

  __repr__ = __str__

  @property
  def graph(self):
    """The tf.Graph of the view (None when empty)."""
    return self._graph

  @property
  def ops(self):
    """The ops of the view (the view's own list, as in TF 1.15)."""
    return self._ops

  @property
  def inputs(self):
    """The input tensors, in the view's order (passthroughs included)."""
    return _op_lists.ListView(self._input_ts)

  @property
  def connected_inputs(self):
    """The inputs that are not passthroughs."""
    return [t for t in self._input_ts if not _op_lists.contains(self._passthrough_ts, t)]

  @property
  def outputs(self):
    """The output tensors, in the view's order (passthroughs included)."""
    return _op_lists.ListView(self._output_ts)

  @property
  def connected_outputs(self):
    """The outputs that are not passthroughs."""
    return [t for t in self._output_ts if not _op_lists.contains(self._passthrough_ts, t)]

  @property
  def passthroughs(self):
    """The passthrough tensors."""
    return _op_lists.ListView(self._passthrough_ts)

  def __bool__(self):
    return self._graph is not None

  def op(self, op_id):
    """The op at position `op_id`."""
    return self._ops[op_id]

  def is_passthrough(self, t):
    """True when `t` is a passthrough tensor of this view."""
    return _op_lists.contains(self._passthrough_ts, t)

  def __enter__(self):
    return self

  def __exit__(self, exc_type, exc_value, traceback):
    pass

  def input_index(self, t):
    """The position of `t` in the inputs.

    Raises:
      ValueError: `t` is not an input.
    """
    return _finalize_index(t, self._input_ts)

  def output_index(self, t):
    """The position of `t` in the outputs.

    Raises:
      ValueError: `t` is not an output.
    """
    return _finalize_index(t, self._output_ts)

  def consumers(self):
    """The ops outside the view that consume its outputs, each once."""
    op_ids = {id(op) for op in self._ops}
    res = []
    for t in self._output_ts:
      _op_lists.concatenate_unique(res, [op for op in t.consumers() if id(op) not in op_ids])
    return res


def _check_graph(sgv, graph):
  if not isinstance(sgv, SubGraphView):
    raise TypeError("Expected a SubGraphView, got: %s" % type(sgv).__name__)
  if graph is None or not sgv.graph:
    return sgv
  if not isinstance(graph, tf.Graph):
    raise TypeError("Expected a tf.Graph, got: %s" % type(graph).__name__)
  if sgv.graph is not graph:
    raise ValueError("Graph mismatch: the selected ops are not in the graph given as graph=.")
  return sgv


def make_view(*args, **kwargs):
  """A SubGraphView of what `args` select (see select.select_ops_and_ts); `ge.sgv` is this function.

  Args:
    *args: a SubGraphView (returned as is), or ops, tensors (as passthroughs), graphs and regexes
      (tensor regexes start with "(?#ts)").
    **kwargs: graph (required with regexes), positive_filter.

  Returns:
    A SubGraphView.

  Raises:
    ValueError: a regex without graph=, or ops not in graph=.
  """
  graph = kwargs.get("graph")
  if len(args) == 1 and isinstance(args[0], SubGraphView):
    return _check_graph(args[0], graph)
  ops, ts = select.select_ops_and_ts(*args, **kwargs)
  return _check_graph(SubGraphView(ops, ts), graph)


def make_view_from_scope(scope, graph):
  """A SubGraphView of the ops of `graph` under the name scope `scope` (`ge.sgv_scope`)."""
  return SubGraphView(select.get_name_scope_ops(graph, scope))
