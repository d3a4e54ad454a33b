"""Normalising the graph editor's arguments: ops, tensors, graphs, nested trees (TF 1.15's util, part 1).

Place in the data flow (DESIGN.md): contrib.graph_editor's select / subgraph / reroute / edit /
transform modules all take "one op, a list of ops, or a whole graph" (likewise for tensors); this module
turns those into plain lists and checks that they come from one graph. It imports TensorFlow only for
the `tf.Operation`, `tf.Tensor` and `tf.Graph` types.

Membership tests use identity (`is`), never `==`: a tf.Tensor's `==` may build an op under TF2 behaviour.
"""

import collections.abc

import tensorflow as tf


def is_iterable(obj):
  """True when `obj` can be iterated over; a tf.Operation or tf.Tensor counts as a single element."""
  if isinstance(obj, (tf.Operation, tf.Tensor)):
    return False
  try:
    iter(obj)
  except Exception:  # pylint: disable=broad-except
    return False
  return True


def concatenate_unique(la, lb):
  """Appends to the list `la` each element of `lb` not already in it (by identity); returns `la`."""
  seen = {id(x) for x in la}
  for x in lb:
    if id(x) not in seen:
      la.append(x)
      seen.add(id(x))
  return la


def unique(items):
  """The elements of `items` in order, each once (by identity)."""
  return concatenate_unique([], items)


def contains(items, x):
  """`x in items`, by identity."""
  return any(y is x for y in items)


class ListView(collections.abc.Sequence):
  """A read-only view of a list (what SubGraphView.inputs / outputs return)."""

  def __init__(self, list_):
    if not isinstance(list_, list):
      raise TypeError("ListView expects a list, got %s" % type(list_).__name__)
    self._list = list_

  def __iter__(self):
    return iter(self._list)

  def __len__(self):
    return len(self._list)

  def __bool__(self):
    return bool(self._list)

  def __getitem__(self, i):
    return self._list[i]

  def __add__(self, other):
    if not isinstance(other, list):
      other = list(other)
    return list(self) + other

  def __repr__(self):
    return "ListView(%r)" % (self._list,)


def flatten_tree(tree, leaves=None):
  """The leaves of a nested structure of tuples / lists / dict values, in order.

  Args:
    tree: a leaf, or a tuple, list or dict (its values, in insertion order) of trees.
    leaves: a list the leaves are appended to (a new one by default).

  Returns:
    The list of leaves.
  """
  if leaves is None:
    leaves = []
  if isinstance(tree, dict):
    for child in tree.values():
      flatten_tree(child, leaves)
  elif is_iterable(tree) and not isinstance(tree, (str, bytes)):
    for child in tree:
      flatten_tree(child, leaves)
  else:
    leaves.append(tree)
  return leaves


def transform_tree(tree, fn, iterable_type=tuple):
  """Applies `fn` to each leaf of `tree`, keeping its structure (lists, tuples, namedtuples, dicts).

  Args:
    tree: a leaf or a nested structure of lists / tuples / dicts.
    fn: called on each leaf.
    iterable_type: the type other iterables (e.g. sets) are rebuilt as.

  Returns:
    The same structure with each leaf replaced by `fn(leaf)`.
  """
  if isinstance(tree, dict):
    return type(tree)((k, transform_tree(v, fn, iterable_type)) for k, v in tree.items())
  if isinstance(tree, (str, bytes)) or not is_iterable(tree):
    return fn(tree)
  children = [transform_tree(child, fn, iterable_type) for child in tree]
  if isinstance(tree, tuple) and hasattr(tree, "_fields"):  # namedtuple
    return type(tree)(*children)
  if isinstance(tree, (list, tuple)):
    return type(tree)(children)
  return iterable_type(children)


def get_unique_graph(tops, check_types=None, none_if_empty=False):
  """The one tf.Graph that all ops / tensors in `tops` belong to.

  Args:
    tops: a tf.Graph (returned as is), or an iterable of tf.Operation / tf.Tensor.
    check_types: the accepted element types (default: tf.Operation and tf.Tensor).
    none_if_empty: return None instead of raising when `tops` is empty.

  Returns:
    The tf.Graph.

  Raises:
    TypeError: `tops` is not iterable, or holds an element of another type.
    ValueError: the elements come from several graphs, or `tops` is empty.
  """
  if isinstance(tops, tf.Graph):
    return tops
  if not is_iterable(tops):
    raise TypeError("get_unique_graph expects an iterable of ops/tensors, got %s" % type(tops).__name__)
  if check_types is None:
    check_types = (tf.Operation, tf.Tensor)
  elif not is_iterable(check_types):
    check_types = (check_types,)
  check_types = tuple(check_types)
  graph = None
  for top in tops:
    if not isinstance(top, check_types):
      raise TypeError("Expected a type in (%s), got: %s" % (
          ", ".join(t.__name__ for t in check_types), type(top).__name__))
    if graph is None:
      graph = top.graph
    elif top.graph is not graph:
      raise ValueError("%s does not belong to the same graph as the other elements" % top.name)
  if graph is None and not none_if_empty:
    raise ValueError("Can't find the unique graph of an empty list")
  return graph


def check_graphs(*args):
  """Raises ValueError unless every argument with a `.graph` (ops, tensors, subgraph views) shares one."""
  graph = None
  for i, arg in enumerate(args):
    arg_graph = getattr(arg, "graph", None)
    if arg_graph is None:
      continue
    if graph is None:
      graph = arg_graph
    elif arg_graph is not graph:
      raise ValueError("argument %d is in another graph than the preceding ones" % i)


def make_list_of_op(ops, check_graph=True, allow_graph=True, ignore_ts=False):
  """The list of tf.Operation that `ops` stands for.

  Args:
    ops: a tf.Graph (all its ops), one tf.Operation, or an iterable of them (a SubGraphView: its ops).
    check_graph: check that all ops belong to one graph.
    allow_graph: accept a tf.Graph.
    ignore_ts: silently drop tf.Tensor elements instead of raising.

  Returns:
    A new list of tf.Operation.

  Raises:
    TypeError: a tf.Graph while `allow_graph` is False, or an element that is not an op.
  """
  if isinstance(ops, tf.Graph):
    if not allow_graph:
      raise TypeError("allow_graph is False: cannot convert a tf.Graph.")
    return ops.get_operations()
  if hasattr(ops, "ops") and hasattr(ops, "passthroughs"):  # a SubGraphView
    ops = ops.ops
  if not is_iterable(ops):
    ops = [ops]
  ops = list(ops)
  if not ops:
    return []
  if check_graph:
    get_unique_graph(ops, check_types=None if ignore_ts else tf.Operation)
  return [op for op in ops if isinstance(op, tf.Operation)]


def get_tensors(graph):
  """Every output tensor of every op of `graph` (a tf.Graph), in creation order."""
  if not isinstance(graph, tf.Graph):
    raise TypeError("get_tensors expects a tf.Graph, got %s" % type(graph).__name__)
  return [t for op in graph.get_operations() for t in op.outputs]


def make_list_of_t(ts, check_graph=True, allow_graph=True, ignore_ops=False):
  """The list of tf.Tensor that `ts` stands for.

  Args:
    ts: a tf.Graph (all its tensors), one tf.Tensor, or an iterable of them.
    check_graph: check that all tensors belong to one graph.
    allow_graph: accept a tf.Graph.
    ignore_ops: silently drop tf.Operation elements instead of raising.

  Returns:
    A new list of tf.Tensor.

  Raises:
    TypeError: a tf.Graph while `allow_graph` is False, or an element that is not a tensor.
  """
  if isinstance(ts, tf.Graph):
    if not allow_graph:
      raise TypeError("allow_graph is False: cannot convert a tf.Graph.")
    return get_tensors(ts)
  if not is_iterable(ts):
    ts = [ts]
  ts = list(ts)
  if not ts:
    return []
  if check_graph:
    get_unique_graph(ts, check_types=None if ignore_ops else tf.Tensor)
  return [t for t in ts if isinstance(t, tf.Tensor)]
