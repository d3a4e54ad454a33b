"""Selecting ops and tensors: filters, regexes, name scopes, forward / backward walks (TF 1.15's select).

Place in the data flow (DESIGN.md): the first step of every graph edit — choose what to copy, reroute or
detach — before subgraph (SubGraphView) and transform / reroute act on it. Gradient checkpointing
("memory_saving_gradients") finds the forward pass with `get_backward_walk_ops` / `get_forward_walk_ops`
and the tensors to keep with `filter_ts` / `filter_ts_from_regex`.

`get_backward_walk_ops(only_differentiable=True)` asks TensorFlow's gradient registry through
`tensorflow.python.framework.ops.get_gradient_function` (what tf.gradients itself calls; no public
alias exists).

Walk results are in discovery order: the seeds first, then each wave in the order the edges were met.
(TF 1.15 built each wave from a set, so its order within a wave varied from run to run.)
"""

import re

import tensorflow as tf
from tensorflow.python.framework import ops as tf_ops

from tf1clip.contrib.graph_editor import _connections
from tf1clip.contrib.graph_editor import _op_lists

_RE_TYPE = type(re.compile(""))


def can_be_regex(obj):
  """True when `obj` is a string or a compiled regular expression."""
  return isinstance(obj, (str, _RE_TYPE))


def make_regex(obj):
  """A compiled regular expression from a string (a compiled one is returned as is).

  Raises:
    ValueError: `obj` is neither (TF 1.15's error type).
  """
  if isinstance(obj, _RE_TYPE):
    return obj
  if isinstance(obj, str):
    return re.compile(obj)
  raise ValueError("Expected a string or a regex, got: %s" % type(obj))


def _get_input_ts(ops):
  return _op_lists.unique(t for op in ops for t in op.inputs)


def _get_output_ts(ops):
  return [t for op in ops for t in op.outputs]


def filter_ts(ops, positive_filter):
  """The input and output tensors of `ops` that pass `positive_filter`.

  Args:
    ops: a tf.Graph, one tf.Operation or an iterable of them.
    positive_filter: a function tensor -> bool, or True (keep all).

  Returns:
    A list of tf.Tensor: the inputs of `ops` in order, then their outputs, each once.
  """
  ops = _op_lists.make_list_of_op(ops)
  ts = _op_lists.concatenate_unique(_get_input_ts(ops), _get_output_ts(ops))
  if positive_filter is not True:
    ts = [t for t in ts if positive_filter(t)]
  return ts


def filter_ts_from_regex(ops, regex):
  """The input and output tensors of `ops` whose name matches `regex` (`re.search`).

  Args:
    ops: a tf.Graph, one tf.Operation or an iterable of them.
    regex: a string or compiled regular expression.

  Returns:
    A list of tf.Tensor.
  """
  ops = _op_lists.make_list_of_op(ops)
  regex_obj = make_regex(regex)
  return filter_ts(ops, positive_filter=lambda t: regex_obj.search(t.name))


def filter_ops(ops, positive_filter):
  """The ops of `ops` that pass `positive_filter` (a function op -> bool, or True: all of them)."""
  ops = _op_lists.make_list_of_op(ops, check_graph=False)
  if positive_filter is not True:
    ops = [op for op in ops if positive_filter(op)]
  return ops


def filter_ops_from_regex(ops, regex):
  """The ops of `ops` whose name matches `regex` (`re.search`)."""
  ops = _op_lists.make_list_of_op(ops)
  regex_obj = make_regex(regex)
  return filter_ops(ops, lambda op: regex_obj.search(op.name))


def get_name_scope_ops(ops, scope):
  """The ops of `ops` inside the name scope `scope` (the op named `scope` included)."""
  if scope and scope[-1] == "/":
    scope = scope[:-1]
  return filter_ops_from_regex(ops, "^%s(/.*)?$" % re.escape(scope))


def check_cios(control_inputs=False, control_outputs=None, control_ios=None):
  """Checks the control-edge arguments of the walks; returns (control_inputs, control_outputs).

  Args:
    control_inputs: follow control inputs.
    control_outputs: a _connections.ControlOutputs to follow control outputs, or None.
    control_ios: a ControlOutputs meaning both (exclusive with `control_outputs`).

  Raises:
    TypeError: a control_outputs / control_ios that is not a ControlOutputs.
    ValueError: both `control_outputs` and `control_ios` given.
  """
  if control_ios is not None:
    if not isinstance(control_ios, _connections.ControlOutputs):
      raise TypeError("control_ios must be a ControlOutputs, got %s" % type(control_ios).__name__)
    if control_outputs is not None:
      raise ValueError("control_outputs should be None when control_ios is given")
    return True, control_ios
  if control_outputs is not None:
    if not isinstance(control_outputs, _connections.ControlOutputs):
      raise TypeError("control_outputs must be a ControlOutputs, got %s"
                      % type(control_outputs).__name__)
    return control_inputs, control_outputs
  return control_inputs, None


def get_ops_ios(ops, control_inputs=False, control_outputs=None, control_ios=None):
  """The ops connected to `ops` by an edge (their producers and consumers).

  Args:
    ops: one tf.Operation or an iterable of them.
    control_inputs, control_outputs, control_ios: see `check_cios`.

  Returns:
    A list of tf.Operation, each once.
  """
  control_inputs, control_outputs = check_cios(control_inputs, control_outputs, control_ios)
  ops = _op_lists.make_list_of_op(ops)
  res = []
  for op in ops:
    _op_lists.concatenate_unique(res, [t.op for t in op.inputs])
    for t in op.outputs:
      _op_lists.concatenate_unique(res, t.consumers())
    if control_outputs is not None:
      _op_lists.concatenate_unique(res, control_outputs.get(op))
    if control_inputs:
      _op_lists.concatenate_unique(res, op.control_inputs)
  return res


def compute_boundary_ts(ops):
  """The tensors at the border of the subgraph formed by `ops`.

  Args:
    ops: one tf.Operation or an iterable of them.

  Returns:
    (outside_input_ts, outside_output_ts, inside_ts): the inputs produced outside `ops`; the
    outputs consumed outside `ops` or not consumed at all; the tensors produced and consumed inside.
  """
  ops = _op_lists.make_list_of_op(ops)
  input_ts = _get_input_ts(ops)
  output_ts = _get_output_ts(ops)
  output_ids = {id(t) for t in output_ts}
  op_ids = {id(op) for op in ops}
  inside_ts = []
  only_inside_ids = set()
  for t in input_ts:
    if id(t) not in output_ids:
      continue
    inside_ts.append(t)
    if all(id(consumer) in op_ids for consumer in t.consumers()):
      only_inside_ids.add(id(t))
  inside_ids = {id(t) for t in inside_ts}
  outside_output_ts = [t for t in output_ts if id(t) not in only_inside_ids]
  outside_input_ts = [t for t in input_ts if id(t) not in inside_ids]
  return outside_input_ts, outside_output_ts, inside_ts


def get_within_boundary_ops(ops, seed_ops, boundary_ops=(), inclusive=True, control_inputs=False,
                            control_outputs=None, control_ios=None):
  """The ops of `ops` reachable from `seed_ops` (in both directions) without crossing `boundary_ops`.

  Args:
    ops: the ops to choose from (a tf.Graph or iterable of ops).
    seed_ops: where the search starts.
    boundary_ops: ops the search does not go through.
    inclusive: include the boundary ops that were reached.
    control_inputs, control_outputs, control_ios: see `check_cios`.

  Returns:
    A list of tf.Operation, in the order of `ops`.

  Raises:
    ValueError: `boundary_ops` and `seed_ops` intersect.
  """
  control_inputs, control_outputs = check_cios(control_inputs, control_outputs, control_ios)
  ops = _op_lists.make_list_of_op(ops)
  seed_ops = _op_lists.make_list_of_op(seed_ops, allow_graph=False)
  boundary = set(_op_lists.make_list_of_op(boundary_ops))
  res = set(seed_ops)
  if boundary & res:
    raise ValueError("Boundary is intersecting with the seeds.")
  wave = set(seed_ops)
  while wave:
    new_wave = set()
    for op in get_ops_ios(wave, control_inputs, control_outputs):
      if op in res:
        continue
      if op in boundary:
        if inclusive:
          res.add(op)
      else:
        new_wave.add(op)
    res.update(new_wave)
    wave = new_wave
  return [op for op in ops if op in res]


def _seed_ops(seed_ops, tensor_to_ops):
  if not _op_lists.is_iterable(seed_ops):
    seed_ops = [seed_ops]
  seed_ops = list(seed_ops)
  if not seed_ops:
    return []
  if isinstance(seed_ops[0], tf.Tensor):
    return tensor_to_ops(_op_lists.make_list_of_t(seed_ops, allow_graph=False))
  return _op_lists.unique(_op_lists.make_list_of_op(seed_ops, allow_graph=False))


def _walk(seeds, inclusive, within_ops, within_ops_fn, next_ops):
  """Breadth-first walk from `seeds` through `next_ops(op)`, restricted to `within_ops`/`within_ops_fn`."""
  if within_ops:
    within = set(_op_lists.make_list_of_op(within_ops, allow_graph=False))
    seeds = [op for op in seeds if op in within]
  else:
    within = None

  def is_within(op):
    return (within is None or op in within) and (within_ops_fn is None or within_ops_fn(op))

  result = list(seeds)
  seen = set(seeds)
  wave = list(seeds)
  while wave:
    new_wave = []
    for op in wave:
      for new_op in next_ops(op):
        if new_op not in seen and is_within(new_op):
          seen.add(new_op)
          new_wave.append(new_op)
    result.extend(new_wave)
    wave = new_wave
  if not inclusive:
    seed_set = set(seeds)
    result = [op for op in result if op not in seed_set]
  return result


def get_forward_walk_ops(seed_ops, inclusive=True, within_ops=None, within_ops_fn=None,
                         stop_at_ts=(), control_outputs=None):
  """The ops reachable from `seed_ops` by following outputs to their consumers.

  Args:
    seed_ops: one op / tensor or an iterable of ops, or of tensors (then their consumers are the seeds).
    inclusive: include the seed ops in the result.
    within_ops: if given, the walk stays inside these ops (seeds outside them are dropped).
    within_ops_fn: if given, the walk only enters ops for which it returns True.
    stop_at_ts: tensors the walk does not go through.
    control_outputs: a _connections.ControlOutputs to follow control edges too.

  Returns:
    A list of tf.Operation in discovery order.
  """
  _, control_outputs = check_cios(False, control_outputs)
  seeds = _seed_ops(seed_ops, _connections.get_consuming_ops)
  if not seeds:
    return []
  stop_ids = {id(t) for t in _op_lists.make_list_of_t(stop_at_ts)}

  def next_ops(op):
    found = []
    for t in op.outputs:
      if id(t) not in stop_ids:
        found.extend(t.consumers())
    if control_outputs is not None:
      found.extend(control_outputs.get(op))
    return found

  return _walk(seeds, inclusive, within_ops, within_ops_fn, next_ops)


def _is_differentiable(op):
  try:
    return tf_ops.get_gradient_function(op) is not None
  except LookupError:
    return False


def get_backward_walk_ops(seed_ops, inclusive=True, within_ops=None, within_ops_fn=None,
                          stop_at_ts=(), control_inputs=False, only_differentiable=False):
  """The ops reachable from `seed_ops` by following inputs back to their producers.

  Args:
    seed_ops: one op / tensor or an iterable of ops, or of tensors (then their producers are the seeds).
    inclusive: include the seed ops in the result.
    within_ops: if given, the walk stays inside these ops (seeds outside them are dropped).
    within_ops_fn: if given, the walk only enters ops for which it returns True.
    stop_at_ts: tensors the walk does not go through.
    control_inputs: follow control inputs too.
    only_differentiable: do not go past ops that have no registered gradient.

  Returns:
    A list of tf.Operation in discovery order.
  """
  control_inputs, _ = check_cios(control_inputs)
  seeds = _seed_ops(seed_ops, _connections.get_generating_ops)
  if not seeds:
    return []
  stop_ids = {id(t) for t in _op_lists.make_list_of_t(stop_at_ts)}

  def next_ops(op):
    found = []
    if not only_differentiable or _is_differentiable(op):
      found.extend(t.op for t in op.inputs if id(t) not in stop_ids)
    if control_inputs:
      found.extend(op.control_inputs)
    return found

  return _walk(seeds, inclusive, within_ops, within_ops_fn, next_ops)


def get_walks_intersection_ops(forward_seed_ops, backward_seed_ops, forward_inclusive=True,
                               backward_inclusive=True, within_ops=None, within_ops_fn=None,
                               control_inputs=False, control_outputs=None, control_ios=None):
  """The ops both downstream of `forward_seed_ops` and upstream of `backward_seed_ops`.

  Args:
    forward_seed_ops: seeds of the forward walk (ops or tensors).
    backward_seed_ops: seeds of the backward walk (ops or tensors).
    forward_inclusive: include the forward seeds.
    backward_inclusive: include the backward seeds.
    within_ops, within_ops_fn: restrict both walks (see `get_forward_walk_ops`).
    control_inputs, control_outputs, control_ios: see `check_cios`.

  Returns:
    A list of tf.Operation, in the forward walk's order.
  """
  control_inputs, control_outputs = check_cios(control_inputs, control_outputs, control_ios)
  forward_ops = get_forward_walk_ops(forward_seed_ops, inclusive=forward_inclusive,
                                     within_ops=within_ops, within_ops_fn=within_ops_fn,
                                     control_outputs=control_outputs)
  backward_ops = set(get_backward_walk_ops(backward_seed_ops, inclusive=backward_inclusive,
                                           within_ops=within_ops, within_ops_fn=within_ops_fn,
                                           control_inputs=control_inputs))
  return [op for op in forward_ops if op in backward_ops]


def get_walks_union_ops(forward_seed_ops, backward_seed_ops, forward_inclusive=True,
                        backward_inclusive=True, within_ops=None, within_ops_fn=None,
                        control_inputs=False, control_outputs=None, control_ios=None):
  """The ops downstream of `forward_seed_ops` or upstream of `backward_seed_ops` (arguments as above)."""
  control_inputs, control_outputs = check_cios(control_inputs, control_outputs, control_ios)
  forward_ops = get_forward_walk_ops(forward_seed_ops, inclusive=forward_inclusive,
                                     within_ops=within_ops, within_ops_fn=within_ops_fn,
                                     control_outputs=control_outputs)
  backward_ops = get_backward_walk_ops(backward_seed_ops, inclusive=backward_inclusive,
                                       within_ops=within_ops, within_ops_fn=within_ops_fn,
                                       control_inputs=control_inputs)
  return _op_lists.concatenate_unique(forward_ops, backward_ops)


def _select_keywords(kwargs, restrict_key, other_restrict_key):
  """(graph, positive_filter, restrict); the other kind's restrict_* keyword is accepted and ignored (TF 1.15)."""
  graph, positive_filter, restrict = None, None, False
  for key, value in kwargs.items():
    if key == "graph":
      graph = value
      if graph is not None and not isinstance(graph, tf.Graph):
        raise TypeError("Expected a tf.Graph for graph=, got: %s" % type(graph).__name__)
    elif key == "positive_filter":
      positive_filter = value
    elif key == restrict_key:
      restrict = value
    elif key == other_restrict_key:
      pass
    else:
      raise ValueError("Wrong keywords argument: %s." % key)
  return graph, positive_filter, restrict


def _select(args, graph, positive_filter, restrict, own_tag, other_tag, from_regex, as_list):
  """select_ops / select_ts: each arg's items (a regex via `from_regex`, else `as_list`), each once.

  A regex tagged `other_tag` is for the other kind and skipped; with `restrict`, only regexes
  tagged `own_tag` are used.
  """
  selected = []
  for arg in args:
    if can_be_regex(arg):
      if graph is None:
        raise ValueError("Use the keyword argument 'graph' to use regex.")
      regex = make_regex(arg)
      if regex.pattern.startswith(other_tag):
        continue
      if restrict and not regex.pattern.startswith(own_tag):
        continue
      found = from_regex(graph, regex)
    else:
      found = as_list(arg)
    if positive_filter is not None:
      found = [x for x in found if positive_filter(x)]
    _op_lists.concatenate_unique(selected, found)
  return selected


def select_ops(*args, **kwargs):
  """The ops named by `args`: ops, lists of ops, a tf.Graph, or regexes matched against op names.

  A regex starting with "(?#ts)" is for tensors only and skipped here.

  Args:
    *args: tf.Operation, iterables of them (tensors in them are ignored), tf.Graph, or regexes.
    **kwargs: graph (required with a regex), positive_filter (op -> bool), restrict_ops_regex
      (only use regexes starting with "(?#ops)").

  Returns:
    A list of tf.Operation, each once.

  Raises:
    ValueError: a regex without graph=, or an unknown keyword.
    TypeError: graph= is not a tf.Graph.
  """
  graph, positive_filter, restrict = _select_keywords(kwargs, "restrict_ops_regex",
                                                      "restrict_ts_regex")
  return _select(args, graph, positive_filter, restrict, "(?#ops)", "(?#ts)", filter_ops_from_regex,
                 lambda arg: _op_lists.make_list_of_op(arg, ignore_ts=True))


def select_ts(*args, **kwargs):
  """The tensors named by `args`: tensors, lists of tensors, a tf.Graph, or regexes on tensor names.

  A regex starting with "(?#ops)" is for ops only and skipped here.

  Args:
    *args: tf.Tensor, iterables of them (ops in them are ignored), tf.Graph, or regexes.
    **kwargs: graph (required with a regex), positive_filter (tensor -> bool), restrict_ts_regex
      (only use regexes starting with "(?#ts)").

  Returns:
    A list of tf.Tensor, each once.

  Raises:
    ValueError: a regex without graph=, or an unknown keyword.
    TypeError: graph= is not a tf.Graph.
  """
  graph, positive_filter, restrict = _select_keywords(kwargs, "restrict_ts_regex",
                                                      "restrict_ops_regex")
  return _select(args, graph, positive_filter, restrict, "(?#ts)", "(?#ops)", filter_ts_from_regex,
                 lambda arg: _op_lists.make_list_of_t(arg, ignore_ops=True))


def select_ops_and_ts(*args, **kwargs):
  """(select_ops(*args), select_ts(*args)): tensor regexes must start with "(?#ts)" here."""
  ops = select_ops(*args, restrict_ops_regex=False, **kwargs)
  ts = select_ts(*args, restrict_ts_regex=True, **kwargs)
  return ops, ts
