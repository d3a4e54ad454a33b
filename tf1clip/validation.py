"""Argument checks shared by every public entry point: one wording per condition.

Place in the data flow (DESIGN.md): used by clipping <- transforms <- optimizer <- accumulation <- v2; it
imports nothing of tf1clip. Each function checks one condition and raises early, naming the argument, the
value and what is accepted. Values only known at run time (Tensors) pass through; the clip functions add
run-time asserts for them.

The wordings (a test greps for them; keep them unique):

- bad type:       "`clip_norm` must be a number or a scalar Tensor; got a str: 'abc'."
- not positive:   "`clip_norm` must be > 0; got -1."   (NaN included)
- negative:       "`scale` must be >= 0; got -1."      (NaN included)
- not finite:     "`clip_norm` must be finite; got inf."
- NaN:            "`clip_value_min` must not be NaN; got nan."
- out of range:   "`decay` must be in [0, 1]; got 1.5."
- open range:     "`alpha` must be in (0, 1); got 1.0."
- bad count:      "`num_micro_batches` must be an int in [1, 2147483647]; got ..."
- not float:      "`t` must have a floating-point dtype; got int32."
"""

import math
import numbers
import re
from typing import Any, Optional

import numpy as np

# A window counter is an int64 variable; keeping the count in int32's range keeps every comparison exact.
MAX_COUNT = 2**31 - 1


def _is_tensor_like(value: Any) -> bool:
  return hasattr(value, "dtype") and hasattr(value, "shape") and not isinstance(
      value, (np.ndarray, np.generic))


def _type_error(value: Any, arg: str, accepted: str) -> TypeError:
  return TypeError("`%s` must be %s; got a %s: %r." % (arg, accepted, type(value).__name__, value))


def number(value: Any, arg: str, allow_tensor: bool = True) -> Optional[float]:
  """Checks that `value` is a real number (or, if allowed, a Tensor); returns it as float, None if a Tensor.

  Raises:
    TypeError: a bool, a string, None or anything that is not a real number or a Tensor.
  """
  accepted = "a number or a scalar Tensor" if allow_tensor else "a number"
  if isinstance(value, (bool, np.bool_, str, bytes)) or value is None:
    raise _type_error(value, arg, accepted)
  if isinstance(value, (numbers.Real, np.number)):
    return float(value)
  if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf":
    return float(value)
  if allow_tensor and _is_tensor_like(value):
    dtype = getattr(value.dtype, "base_dtype", value.dtype)
    if not (getattr(dtype, "is_floating", False) or getattr(dtype, "is_integer", False)):
      raise TypeError("`%s` must be %s; got a Tensor of dtype %s." % (arg, accepted, dtype.name))
    return None
  raise _type_error(value, arg, accepted)


def positive(value: Any, arg: str, allow_tensor: bool = True) -> Any:
  """Checks a finite number > 0 (a Tensor passes); returns `value`.

  Raises:
    TypeError: see `number`.
    ValueError: the number is <= 0, infinite or NaN.
  """
  x = number(value, arg, allow_tensor)
  if x is not None:
    if not x > 0:  # NaN included
      raise ValueError("`%s` must be > 0; got %r." % (arg, value))
    if math.isinf(x):
      raise ValueError("`%s` must be finite; got %r." % (arg, value))
  return value


def non_negative(value: Any, arg: str, allow_tensor: bool = True) -> Any:
  """Checks a finite number >= 0 (a Tensor passes); returns `value`.

  Raises:
    TypeError: see `number`.
    ValueError: the number is < 0, infinite or NaN.
  """
  x = number(value, arg, allow_tensor)
  if x is not None:
    if not x >= 0:  # NaN included
      raise ValueError("`%s` must be >= 0; got %r." % (arg, value))
    if math.isinf(x):
      raise ValueError("`%s` must be finite; got %r." % (arg, value))
  return value


def not_nan(value: Any, arg: str) -> Any:
  """Checks that a number (or a numpy array of them) holds no NaN; Tensors pass. Returns `value`.

  Raises:
    TypeError: a bool or a string.
    ValueError: a NaN.
  """
  if isinstance(value, (bool, np.bool_, str, bytes)):
    raise _type_error(value, arg, "a number or a Tensor")
  if isinstance(value, (numbers.Real, np.number, np.ndarray)):
    array = np.asarray(value)
    if array.dtype.kind == "f" and np.isnan(array).any():
      raise ValueError("`%s` must not be NaN; got %r." % (arg, value))
  return value


def in_range(value: Any, arg: str, low: float, high: float, allow_tensor: bool = True) -> Any:
  """Checks a number in the closed interval [low, high] (a Tensor passes); returns `value`.

  Raises:
    TypeError: see `number`.
    ValueError: the number is outside [low, high] or NaN.
  """
  x = number(value, arg, allow_tensor)
  if x is not None and not low <= x <= high:
    raise ValueError("`%s` must be in [%g, %g]; got %r." % (arg, low, high, value))
  return value


def in_open_range(value: Any, arg: str, low: float, high: float, allow_tensor: bool = True) -> Any:
  """Checks a number in the open interval (low, high) (a Tensor passes); returns `value`.

  Raises:
    TypeError: see `number`.
    ValueError: the number is outside (low, high) or NaN.
  """
  x = number(value, arg, allow_tensor)
  if x is not None and not low < x < high:
    raise ValueError("`%s` must be in (%g, %g); got %r." % (arg, low, high, value))
  return value


def count(value: Any, arg: str) -> int:
  """Checks a Python int in [1, MAX_COUNT]; returns it as int.

  Raises:
    ValueError: not an int (a bool is not), or out of range (2**63 would overflow the counter).
  """
  accepted = "an int in [1, %d]" % MAX_COUNT
  if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Integral, np.integer)):
    raise ValueError("`%s` must be %s; got a %s: %r." % (arg, accepted, type(value).__name__, value))
  if not 1 <= value <= MAX_COUNT:
    raise ValueError("`%s` must be %s; got %d." % (arg, accepted, value))
  return int(value)


def floating_dtype(dtype: Any, arg: str) -> None:
  """Checks that a TF dtype is floating point (clipping an int or string tensor is a mistake).

  Raises:
    TypeError: any other dtype.
  """
  dtype = getattr(dtype, "base_dtype", dtype)
  if not getattr(dtype, "is_floating", False):
    raise TypeError("`%s` must have a floating-point dtype; got %s." % (arg, getattr(dtype, "name", dtype)))


def string(value: Any, arg: str) -> str:
  """Checks a str (or None); returns it.

  Raises:
    TypeError: anything else.
  """
  if value is not None and not isinstance(value, str):
    raise _type_error(value, arg, "a string")
  return value


def regex(pattern: Any, arg: str) -> "re.Pattern":
  """Compiles a regular expression given by the user.

  Raises:
    TypeError: not a string.
    ValueError: not a valid regular expression (re.error's reason and position).
  """
  string(pattern, arg)
  try:
    return re.compile(pattern)
  except re.error as e:
    raise ValueError("`%s` must be a valid regular expression; got %r (%s)." % (arg, pattern, e)) from None
