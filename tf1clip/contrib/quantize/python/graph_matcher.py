"""Tree patterns over op types, TF 1.15's `tensorflow/contrib/quantize/python/graph_matcher.py` rewritten.

A pattern describes an expression that ends at one op: `OpTypePattern('Relu|Relu6', inputs=[...])` is an op of one
of those types (or of any type, '*') whose inputs match the input patterns (in order, or in any order with
`ordered_inputs=False`; no `inputs` accepts any); `OneofPattern([...])` is the first of its sub-patterns that
matches. `GraphMatcher(pattern).match_graph(graph)` yields a `MatchResult` for each op, in the graph's order,
where the pattern matches; it maps each matched pattern (or its `name`) to its op and the tensor its parent read.

As in TF 1.15, trying the input orders of an unordered pattern keeps what the inputs that matched bound in an order
that failed later (a later order binds the same patterns again when it succeeds); fold_batch_norms and quantize
depend on the matches being exactly TF 1.15's.
"""

import abc
import itertools

_MAX_INPUTS = 8


class Pattern(abc.ABC):
  """A pattern an op (and the expression ending at it) can match."""

  @abc.abstractmethod
  def match(self, op, tensor):
    """A `MatchResult` if `op` (read as `tensor` by the parent) matches, else None."""


class OpTypePattern(Pattern):
  """An op of the given type(s) whose inputs match the given patterns."""

  def __init__(self, op_type, name=None, inputs=None, ordered_inputs=True):
    """A pattern of op type `op_type`: a type, '*' (any), or types joined by '|' ('Relu|Relu6').

    Args:
      op_type: the types the op may have.
      name: a name to look the match up by in a `MatchResult`.
      inputs: patterns (or op-type strings) the op's inputs must match, one per input; None or [] accepts any.
      ordered_inputs: False accepts any order of the inputs.

    Raises:
      ValueError: more than 8 input patterns (their orders would be too many to try).
    """
    inputs = list(inputs or [])
    if len(inputs) > _MAX_INPUTS:
      raise ValueError('Only < 8 inputs are allowed when ordered_inputs is False.')
    self._types = None if op_type == '*' else frozenset(op_type.split('|'))
    self._name = name
    self._inputs = [p if isinstance(p, Pattern) else OpTypePattern(p) for p in inputs]
    self._ordered = ordered_inputs

  @property
  def name(self):
    return self._name

  def match(self, op, tensor):
    if self._types is not None and op.type not in self._types:
      return None
    result = MatchResult()
    result.add(self, op, tensor)
    if not self._inputs:
      return result
    if len(op.inputs) != len(self._inputs):
      return None
    orders = [self._inputs] if self._ordered else itertools.permutations(self._inputs)
    for order in orders:
      if all(_bind(result, pattern, t) for t, pattern in zip(op.inputs, order)):
        return result
    return None


def _bind(result, pattern, tensor):
  """Whether `tensor`'s op matches `pattern`; a match is merged into `result`."""
  found = pattern.match(tensor.op, tensor)
  if found is None:
    return False
  result.merge_from(found)
  return True


class OneofPattern(Pattern):
  """The first of `sub_patterns` that matches."""

  def __init__(self, sub_patterns):
    self._sub_patterns = list(sub_patterns)

  def match(self, op, tensor):
    for pattern in self._sub_patterns:
      found = pattern.match(op, tensor)
      if found is not None:
        return found
    return None


class MatchResult(object):
  """Pattern (or pattern name) -> the op it matched and the tensor of that op its parent pattern's op read.

  An op with several outputs can match: the tensor says which output was read (None for the root).
  """

  def __init__(self):
    self._bound = {}
    self._names = {}

  def add(self, pattern, op, tensor):
    """Binds `pattern` to `op` and `tensor`; ValueError if its name is another pattern's already."""
    if pattern.name is not None:
      if self._names.get(pattern.name, pattern) is not pattern:
        raise ValueError('Name %s is already bound to another pattern' % pattern.name)
      self._names[pattern.name] = pattern
    self._bound[pattern] = (op, tensor)

  def _lookup(self, pattern_or_name):
    if isinstance(pattern_or_name, str):
      pattern_or_name = self._names.get(pattern_or_name)
    elif not isinstance(pattern_or_name, Pattern):
      raise ValueError('pattern_or_name has type %s. Expect Pattern or str.' % type(pattern_or_name))
    return self._bound.get(pattern_or_name, (None, None))

  def get_op(self, pattern_or_name):
    """The op `pattern_or_name` matched, or None."""
    return self._lookup(pattern_or_name)[0]

  def get_tensor(self, pattern_or_name):
    """The tensor `pattern_or_name` matched, or None."""
    return self._lookup(pattern_or_name)[1]

  def merge_from(self, other_match_result):
    """Adds every binding of `other_match_result` (a later binding of a pattern wins)."""
    self._bound.update(other_match_result._bound)  # pylint: disable=protected-access
    self._names.update(other_match_result._names)  # pylint: disable=protected-access


class GraphMatcher(object):
  """Finds where one pattern matches."""

  def __init__(self, pattern):
    self._pattern = pattern

  def match_op(self, op):
    """A `MatchResult` if `op` matches the pattern, else None."""
    return self._pattern.match(op, None)

  def match_ops(self, ops):
    """Yields a `MatchResult` for each of `ops` that matches, in order."""
    for op in ops:
      found = self.match_op(op)
      if found is not None:
        yield found

  def match_graph(self, graph):
    """Yields a `MatchResult` for each op of `graph` that matches, in the graph's order."""
    yield from self.match_ops(graph.get_operations())
