"""`tf.contrib.quantize`'s graph_matcher: tree patterns of op types matched against a tf.Graph (TF 1.15's code).

Place in the data flow (DESIGN.md): tf.Graph <- **contrib.quantize.graph_matcher** <- fold_batch_norms / quantize
<- quantize_graph <- compat <- cli.

`OpTypePattern(op_type, inputs=[...], ordered_inputs=)` matches an op whose type is one of `op_type` ('A|B', or
'*') and whose inputs match the input patterns (in any order when `ordered_inputs=False`); `OneofPattern` matches
the first sub-pattern that matches. `GraphMatcher(pattern).match_graph(graph)` yields a `MatchResult` (pattern ->
op and tensor) for each op of the graph, in creation order, that matches.
"""

import abc
import itertools


class Pattern(abc.ABC):
  """The parent class of all patterns (e.g. OpTypePattern and OneofPattern)."""

  @abc.abstractmethod
  def match(self, op, tensor):
    """Returns the result of matching op/tensor against this pattern."""
    raise NotImplementedError('Method "match" not implemented.')


class OpTypePattern(Pattern):
  """A tree pattern that matches TF expressions with certain op types."""

  def __init__(self, op_type, name=None, inputs=None, ordered_inputs=True):
    """A pattern of op type `op_type` ('Conv2D', '*' or 'Relu|Relu6') whose inputs match `inputs`.

    Args:
      op_type: the allowed types of the root: a type, '*', or types separated by '|'.
      name: optional name to look the pattern up in a MatchResult.
      inputs: optional list of `Pattern`s or op-type strings for the inputs; None accepts any inputs.
      ordered_inputs: if False, any permutation of the inputs may match.

    Raises:
      ValueError: more than 8 inputs.
    """
    self._op_type = op_type
    self._name = name
    if inputs is None:
      inputs = []
    if len(inputs) > 8:
      raise ValueError('Only < 8 inputs are allowed when ordered_inputs is False.')
    self._inputs = [
        input_pattern if isinstance(input_pattern, Pattern) else OpTypePattern(input_pattern)
        for input_pattern in inputs
    ]
    self._ordered_inputs = ordered_inputs

  @property
  def name(self):
    return self._name

  def match(self, op, tensor):
    if self._op_type != '*':
      if op.type not in self._op_type.split('|'):
        return None

    match_result = MatchResult()
    match_result.add(self, op, tensor)

    if not self._inputs:
      # If pattern.inputs is empty, skips the rest and accepts all the inputs.
      return match_result

    if len(op.inputs) != len(self._inputs):
      return None

    input_patterns_list = [self._inputs]
    # If order doesn't matter for the inputs, then make sure we match at least one permutation of the inputs.
    if not self._ordered_inputs:
      input_patterns_list = list(itertools.permutations(self._inputs))

    for input_patterns in input_patterns_list:
      match_failed = False
      for input_tensor, input_pattern in zip(op.inputs, input_patterns):
        input_match_result = input_pattern.match(input_tensor.op, input_tensor)
        if input_match_result is None:
          match_failed = True
          break
        match_result.merge_from(input_match_result)
      if not match_failed:
        return match_result
    return None


class OneofPattern(Pattern):
  """Matches one of the given sub-patterns."""

  def __init__(self, sub_patterns):
    self._sub_patterns = sub_patterns

  def match(self, op, tensor):
    for sub_pattern in self._sub_patterns:
      match_result = sub_pattern.match(op, tensor)
      if match_result is not None:
        return match_result
    return None


class MatchResult(object):
  """The result of a match: a map from Pattern (or its name) to the matching op and tensor.

  When the matching op has several outputs, the matching tensor is the output the parent pattern's op reads.
  """

  def __init__(self):
    self._pattern_to_op_tensor = {}
    self._name_to_pattern = {}

  def add(self, pattern, op, tensor):
    self._pattern_to_op_tensor[pattern] = op, tensor
    if pattern.name is not None:
      if pattern.name in self._name_to_pattern:
        raise ValueError('Name %s is already bound to another pattern' % pattern.name)
      self._name_to_pattern[pattern.name] = pattern

  def _to_pattern(self, pattern_or_name):
    if isinstance(pattern_or_name, Pattern):
      return pattern_or_name

    if isinstance(pattern_or_name, str):
      if pattern_or_name not in self._name_to_pattern:
        return None
      return self._name_to_pattern[pattern_or_name]

    raise ValueError('pattern_or_name has type %s. Expect Pattern or str.' % type(pattern_or_name))

  def _get_op_tensor(self, pattern_or_name):
    pattern = self._to_pattern(pattern_or_name)
    if pattern is None:
      return None

    if pattern not in self._pattern_to_op_tensor:
      return None

    return self._pattern_to_op_tensor[pattern]

  def get_op(self, pattern_or_name):
    op_tensor = self._get_op_tensor(pattern_or_name)
    return op_tensor[0] if op_tensor else None

  def get_tensor(self, pattern_or_name):
    op_tensor = self._get_op_tensor(pattern_or_name)
    return op_tensor[1] if op_tensor else None

  def merge_from(self, other_match_result):
    # pylint: disable=protected-access
    self._pattern_to_op_tensor.update(other_match_result._pattern_to_op_tensor)
    self._name_to_pattern.update(other_match_result._name_to_pattern)
    # pylint: enable=protected-access


class GraphMatcher(object):
  """Checks if a particular subgraph matches a given pattern."""

  def __init__(self, pattern):
    """A matcher of `pattern` (a `Pattern`)."""
    self._pattern = pattern

  def _match_pattern(self, pattern, op, tensor):
    """Whether the expression rooted at `op` matches `pattern` (the match is merged into the result)."""
    match_result = pattern.match(op, tensor)
    if match_result is None:
      return False
    self._match_result.merge_from(match_result)
    return True

  def match_op(self, op):
    """A `MatchResult` if `op` matches the pattern, else None."""
    self._match_result = MatchResult()
    if not self._match_pattern(self._pattern, op, tensor=None):
      return None
    return self._match_result

  def match_ops(self, ops):
    """Yields a `MatchResult` for each op of `ops` that matches the pattern."""
    for op in ops:
      match_result = self.match_op(op)
      if match_result:
        yield match_result

  def match_graph(self, graph):
    """Yields a `MatchResult` for each op of `graph` that matches the pattern."""
    yield from self.match_ops(graph.get_operations())
