"""Run-time argument checks for labeled_tensor: TF 1.15's `labeled_tensor.python.ops._typecheck` (`tc`).

A check is an `isinstance` target built from Python types, so `isinstance(value, tc.List(str))` reads as what it
tests: `Union`, `Optional`, `List`, `Sequence`, `Collection`, `Tuple`, `Mapping` and `Dict` combine types and
check every element of a container. `accepts(name=check, ...)` checks a function's arguments when it is called,
and raises `Error` (a TypeError) naming the function, the argument and what it needed, as TF 1.15 did.

What TF 1.15 checked, and only that: the arguments passed by position (and the declared defaults, once, when the
function is defined). A keyword argument is not checked, because TF 1.15 let `lt.constant([1.0], dtype='float32')`
through to TensorFlow, which accepts the string; checking it would refuse a call that worked. tf1clip's own
decorator takes the checks by parameter name (TF 1.15's took them by position) and has no `returns` (TF 1.15's
checked its own results, which tf1clip's tests do instead).
"""

import collections.abc
import functools
import inspect


class Error(TypeError):
  """An argument of a labeled_tensor function has the wrong type."""


def _describe(kind):
  if isinstance(kind, type):
    return kind.__name__
  if isinstance(kind, tuple):
    return " or ".join(_describe(k) for k in kind)
  return repr(kind)


class Type(object):
  """An `isinstance` target made of other types; subclasses say what `_holds(value)` means."""

  def __init__(self, *types):
    self._types = types

  def __instancecheck__(self, value):
    return self._holds(value)

  def _holds(self, value):
    raise NotImplementedError

  def __repr__(self):
    return "%s(%s)" % (type(self).__name__, ", ".join(_describe(t) for t in self._types))


def _all_are(values, kind):
  return all(isinstance(v, kind) for v in values)


class Union(Type):
  """Any one of the given types."""

  def _holds(self, value):
    return isinstance(value, self._types)


class Optional(Type):
  """The given type, or None."""

  def _holds(self, value):
    return value is None or isinstance(value, self._types)


class List(Type):
  """A list whose every element has the given type."""

  def _holds(self, value):
    return isinstance(value, list) and _all_are(value, self._types)


class Sequence(Type):
  """A sequence (list, tuple, str, ...) whose every element has the given type."""

  def _holds(self, value):
    return isinstance(value, collections.abc.Sequence) and _all_are(value, self._types)


class Collection(Type):
  """A sized, iterable container whose every element has the given type.

  Sized and a container, not just iterable: checking the elements must not use up a generator.
  """

  def _holds(self, value):
    return isinstance(value, collections.abc.Collection) and _all_are(value, self._types)


class Tuple(Type):
  """A tuple of exactly these types, position by position."""

  def _holds(self, value):
    return (isinstance(value, tuple) and len(value) == len(self._types) and
            all(isinstance(v, t) for v, t in zip(value, self._types)))


class Mapping(Type):
  """A mapping whose keys have the first type and values the second."""

  def __init__(self, key_type, value_type):
    super(Mapping, self).__init__(key_type, value_type)

  def _holds(self, value):
    key_type, value_type = self._types
    return (isinstance(value, collections.abc.Mapping) and _all_are(value.keys(), key_type) and
            _all_are(value.values(), value_type))


class Dict(Mapping):
  """A dict whose keys have the first type and values the second."""

  def _holds(self, value):
    return isinstance(value, dict) and super(Dict, self)._holds(value)


def accepts(**checks):
  """Decorates a function so that its positionally passed arguments are checked against `checks`.

  Args:
    **checks: parameter name -> type (or `Type`) its value must be an instance of.

  Returns:
    The decorator. A default value that fails its own check is an `Error` when the function is defined.

  Raises:
    Error: `checks` names a parameter the function does not have.
  """

  def decorate(function):
    parameters = list(inspect.signature(function).parameters.values())
    unknown = set(checks) - set(p.name for p in parameters)
    if unknown:
      raise Error("accepts(): %s has no parameter %s" % (function.__qualname__, ", ".join(sorted(unknown))))
    by_position = [(i, p.name, checks[p.name]) for i, p in enumerate(parameters)
                   if p.name in checks and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for p in parameters:
      if p.name in checks and p.default is not p.empty and not isinstance(p.default, checks[p.name]):
        raise Error("%s(): the default %r of `%s` is not a %s" % (
            function.__qualname__, p.default, p.name, _describe(checks[p.name])))

    @functools.wraps(function)
    def checked(*args, **kwargs):
      for index, name, kind in by_position:
        if index < len(args) and not isinstance(args[index], kind):
          raise Error("%s(): `%s` must be a %s, got %r of type %s" % (
              function.__qualname__, name, _describe(kind), args[index], type(args[index]).__name__))
      return function(*args, **kwargs)

    return checked

  return decorate
