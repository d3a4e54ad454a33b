"""`tf.contrib.labeled_tensor`'s `tc`: the minimal runtime type checking library its functions are decorated with.

Place in the data flow (DESIGN.md): Python <- **contrib.labeled_tensor** (`_typecheck`) <- compat <- cli.

TF 1.15's contrib/labeled_tensor/python/ops/_typecheck.py, ported to Python 3 (`inspect` and `collections.abc`
where TF 1.15 used its tf_inspect and six shims). Types are instances (`List(int)`, `Union(str, Axis)`,
`Optional(int)`, `Mapping(str, int)`, ...) that implement `__instancecheck__`; `accepts(*types)` checks a call's
positional arguments (and the defaults, once, at decoration) and `returns(*types)` its result, raising `Error`,
a TypeError, as TF 1.15 did. Not public API in TF 1.15 either.
"""

import collections.abc
import functools
import inspect
import re

# used for register_type_abbreviation and _type_repr below.
_TYPE_ABBREVIATIONS = {}


class Type(object):
  """Base class for type checker types: instances, storing their argument types in `_types`."""

  def __init__(self, *types):
    self._types = types

  def __repr__(self):
    args_repr = ", ".join(repr(t) for t in self._types)
    return "typecheck.%s(%s)" % (type(self).__name__, args_repr)


class _SingleArgumentType(Type):
  """Use this subclass for parametric types that accept only one argument."""

  def __init__(self, tpe):
    super(_SingleArgumentType, self).__init__(tpe)

  @property
  def _type(self):
    tpe, = self._types  # pylint: disable=unbalanced-tuple-unpacking
    return tpe


class _TwoArgumentType(Type):
  """Use this subclass for parametric types that accept two arguments."""

  def __init__(self, first_type, second_type):
    super(_TwoArgumentType, self).__init__(first_type, second_type)


class Union(Type):
  """A sum type: any of the types provided."""

  def __instancecheck__(self, instance):
    return isinstance(instance, self._types)


class Optional(_SingleArgumentType):
  """The provided type or NoneType."""

  def __instancecheck__(self, instance):
    return isinstance(instance, (self._type, type(None)))


class List(_SingleArgumentType):
  """A list whose elements all have the single provided type."""

  def __instancecheck__(self, instance):
    return isinstance(instance, list) and all(isinstance(x, self._type) for x in instance)


class Sequence(_SingleArgumentType):
  """A sequence whose elements all have the single provided type."""

  def __instancecheck__(self, instance):
    return isinstance(instance, collections.abc.Sequence) and all(isinstance(x, self._type) for x in instance)


class Collection(_SingleArgumentType):
  """A sized, iterable container whose elements all have the single provided type.

  Used in preference to Iterable because each element is checked at runtime, so iterables that could be exhausted
  are excluded.
  """

  def __instancecheck__(self, instance):
    return (isinstance(instance, collections.abc.Iterable) and isinstance(instance, collections.abc.Sized) and
            isinstance(instance, collections.abc.Container) and all(isinstance(x, self._type) for x in instance))


class Tuple(Type):
  """A tuple of the right length whose elements have the corresponding types."""

  def __instancecheck__(self, instance):
    return (isinstance(instance, tuple) and len(instance) == len(self._types) and
            all(isinstance(x, t) for x, t in zip(instance, self._types)))


class Mapping(_TwoArgumentType):
  """A mapping with the parametric types for keys and values."""

  def __instancecheck__(self, instance):
    key_type, value_type = self._types  # pylint: disable=unbalanced-tuple-unpacking
    return (isinstance(instance, collections.abc.Mapping) and all(isinstance(k, key_type) for k in instance.keys())
            and all(isinstance(k, value_type) for k in instance.values()))


class Dict(Mapping):
  """A dict with the parametric types for keys and values."""

  def __instancecheck__(self, instance):
    return isinstance(instance, dict) and super(Dict, self).__instancecheck__(instance)


def _replace_forward_references(t, context):
  """Replace forward references (type names as strings) in the given type."""
  if isinstance(t, str):
    return context[t]
  elif isinstance(t, Type):
    return type(t)(*[_replace_forward_references(t, context) for t in t._types])  # pylint: disable=protected-access
  else:
    return t


def register_type_abbreviation(name, alias):
  """Register an abbreviation (`alias`, a string) for a type `name` in typecheck tracebacks."""
  _TYPE_ABBREVIATIONS[name] = alias


def _type_repr(t):
  """A more succinct repr for typecheck tracebacks."""
  string = repr(t)
  for type_, alias in _TYPE_ABBREVIATIONS.items():
    string = string.replace(repr(type_), alias)
  string = re.sub(r"<(class|type) '([\w.]+)'>", r"\2", string)
  string = re.sub(r"typecheck\.(\w+)", r"\1", string)
  return string


class Error(TypeError):
  """Exception for typecheck failures."""


def accepts(*types):
  """A decorator which checks the types of a function's positional arguments (and its defaults, at once).

  Args:
    *types: A type (or typecheck Type) for each argument of the decorated function.

  Returns:
    A function to use as a decorator.
  """

  def check_accepts(f):
    """Check the types."""
    spec = inspect.getfullargspec(f)

    num_function_arguments = len(spec.args)
    if len(types) != num_function_arguments:
      raise Error("Function %r has %d arguments but only %d types were provided in the "
                  "annotation." % (f, num_function_arguments, len(types)))

    if spec.defaults:
      num_defaults = len(spec.defaults)
      for (name, a, t) in zip(spec.args[-num_defaults:], spec.defaults, types[-num_defaults:]):
        allowed_type = _replace_forward_references(t, f.__globals__)
        if not isinstance(a, allowed_type):
          raise Error("default argument value %r of type %r is not an instance "
                      "of the allowed type %s for the %s argument to %r" %
                      (a, type(a), _type_repr(allowed_type), name, f))

    @functools.wraps(f)
    def new_f(*args, **kwds):
      """A helper function."""
      for (a, t) in zip(args, types):
        allowed_type = _replace_forward_references(t, f.__globals__)
        if not isinstance(a, allowed_type):
          raise Error("%r of type %r is not an instance of the allowed type %s "
                      "for %r" % (a, type(a), _type_repr(allowed_type), f))
      return f(*args, **kwds)

    return new_f

  return check_accepts


def returns(*types):
  """A decorator which checks the return types of a function.

  Args:
    *types: One type for a single return value, several for a function returning that many values (a function
      without an explicit return value returns NoneType).

  Returns:
    A function to use as a decorator.
  """

  def check_returns(f):
    """Check the types."""
    if not types:
      raise TypeError("A return type annotation must contain at least one type")

    @functools.wraps(f)
    def new_f(*args, **kwds):
      """A helper function."""
      return_value = f(*args, **kwds)

      if len(types) == 1:
        # The function has a single return value.
        allowed_type = _replace_forward_references(types[0], f.__globals__)
        if not isinstance(return_value, allowed_type):
          raise Error("%r of type %r is not an instance of the allowed type %s "
                      "for %r" % (return_value, type(return_value), _type_repr(allowed_type), f))

      else:
        if len(return_value) != len(types):
          raise Error("Function %r has %d return values but only %d types were "
                      "provided in the annotation." % (f, len(return_value), len(types)))

        for (r, t) in zip(return_value, types):
          allowed_type = _replace_forward_references(t, f.__globals__)
          if not isinstance(r, allowed_type):
            raise Error("%r of type %r is not an instance of allowed type %s "
                        "for %r" % (r, type(r), _type_repr(allowed_type), f))

      return return_value

    return new_f

  return check_returns
