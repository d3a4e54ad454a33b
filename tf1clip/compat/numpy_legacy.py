"""The NumPy 1.x that legacy scripts were written for, put back for `tf1clip run` (never on `import tf1clip`).

Place in the data flow (DESIGN.md): compat.runner calls `install(is_legacy_file)` before it runs the script;
nothing else does. TF1-era scripts were written against NumPy 1.16-1.18 and use names NumPy has since
removed: the aliases `np.int`, `np.float`, `np.bool`, `np.object`, `np.str`, `np.long`, `np.unicode`
(removed in 1.24 / 2.0), NumPy 2.0's removals (`np.NaN`, `np.Inf`, `np.float_`, `np.complex_`,
`np.string_`, `np.unicode_`, `np.product`, `np.cumproduct`, `np.alltrue`, `np.sometrue`, `np.asfarray`,
`np.round_`, `np.msort`, `np.find_common_type`, `np.cast`, ...) and the functions `np.asscalar` (1.23)
and `np.rank` (1.18). `install()` serves each missing one again as what it was, with one
DeprecationWarning per name on its first use, naming the spelling to use instead. A name the installed
NumPy has (NumPy 2 brought `np.bool` and `np.long` back, as NumPy scalar types) is left alone.

Behaviour too: NumPy <= 1.23 turned a ragged nested sequence (`np.array([[1, 2], [3]])`, a data helper's
list of unequal sentences) into an object array; NumPy 1.24+ raises "setting an array element with a
sequence. The requested array has an inhomogeneous shape ...". Under the runner, `np.array` and
`np.asarray` called without a dtype *from the script's own files* (`is_legacy_file`) retry such a
sequence as `dtype=object`, NumPy 1.x's result, with one DeprecationWarning naming the call site; every
other caller (TensorFlow, libraries) gets NumPy's own error, and the fast path is untouched.

How: NumPy answers unknown attributes through its module-level `__getattr__` (PEP 562), which
raises AttributeError for these names. `install()` replaces that function in `numpy.__dict__` with
one that answers the legacy names first and hands every other name to NumPy's own; after a name's
first use its value is stored in `numpy.__dict__`, so later uses are plain attribute reads. It works
for `np.int`, `numpy.int` and `from numpy import int` alike.

The other NumPy 2 change legacy scripts meet, `int()`/`float()` of a one-element array (e.g.
`int(np.searchsorted(cdf, np.random.rand(1) * s))`), still works up to NumPy 2.3 with a
DeprecationWarning and fails from 2.4: tf1clip pins numpy below 2.4 for that reason.
"""

import functools
import sys
import warnings

# Name -> (the value it had, what to write instead).
_ALIASES = {
    "int": (int, "int (or np.int64)"),
    "float": (float, "float (or np.float64)"),
    "bool": (bool, "bool (or np.bool_)"),
    "object": (object, "object (or np.object_)"),
    "str": (str, "str (or np.str_)"),
    "long": (int, "int (or np.int64)"),
    "unicode": (str, "str (or np.str_)"),
}


def _asscalar(a):
  """NumPy 1.x's `np.asscalar(a)`: `a.item()`."""
  return a.item()


def _asfarray(a, dtype=None):
  """NumPy 1.x's `np.asfarray`: `a` as an inexact array (float64 unless `dtype` is inexact)."""
  import numpy as np  # pylint: disable=import-outside-toplevel
  dtype = np.float64 if dtype is None else dtype
  if not np.issubdtype(dtype, np.inexact):
    dtype = np.float64
  return np.asarray(a, dtype=dtype)


def _msort(a):
  """NumPy 1.x's `np.msort`: a sorted copy along the first axis."""
  import numpy as np  # pylint: disable=import-outside-toplevel
  b = np.array(a, subok=True, copy=True)
  b.sort(0)
  return b


class _Cast(dict):
  """NumPy 1.x's `np.cast`: `np.cast[np.float32](x)` is `np.asarray(x).astype(np.float32)`."""

  def __missing__(self, key):
    import numpy as np  # pylint: disable=import-outside-toplevel
    scalar_type = np.dtype(key).type
    self[key] = lambda x, k=scalar_type: np.asarray(x).astype(k)
    return self[key]


def _find_common_type(array_types, scalar_types):
  """NumPy 1.x's `np.find_common_type` (removed in 2.0): the array types' common type, unless a scalar

  type is of a higher kind (bool < unsigned < signed < float < complex < object), which then wins.
  """
  import numpy as np  # pylint: disable=import-outside-toplevel
  order = "?" + np.typecodes["AllInteger"][:-2] + np.typecodes["AllFloat"] + "O"

  def can_coerce_all(dtypes, start=0):
    if not dtypes:
      return None
    if len(dtypes) == 1:
      return dtypes[0]
    for code in order[start:]:
      candidate = np.dtype(code)
      if all(np.can_cast(t, candidate) for t in dtypes):
        return candidate
    return None

  array_types = [np.dtype(t) for t in array_types]
  scalar_types = [np.dtype(t) for t in scalar_types]
  maxa, maxsc = can_coerce_all(array_types), can_coerce_all(scalar_types)
  if maxa is None:
    return maxsc
  if maxsc is None:
    return maxa
  kinds = "biufcO"
  try:
    index_a, index_sc = kinds.index(maxa.kind), kinds.index(maxsc.kind)
  except ValueError:
    return None
  if index_sc > index_a:
    if maxsc > maxa:
      return maxsc
    return can_coerce_all([maxsc, maxa], start=order.index(maxsc.char))
  return maxa


def _numpy_attr(name):
  return lambda np: getattr(np, name)


# NumPy 2.0's removals: name -> (how to get the value it had from numpy, what to write instead)
_REMOVED_IN_2 = {
    "float_": (_numpy_attr("float64"), "np.float64"),
    "complex_": (_numpy_attr("complex128"), "np.complex128"),
    "string_": (_numpy_attr("bytes_"), "np.bytes_"),
    "unicode_": (_numpy_attr("str_"), "np.str_"),
    "int0": (_numpy_attr("intp"), "np.intp"),
    "uint0": (_numpy_attr("uintp"), "np.uintp"),
    "bool8": (_numpy_attr("bool_"), "np.bool_"),
    "object0": (_numpy_attr("object_"), "np.object_"),
    "str0": (_numpy_attr("str_"), "np.str_"),
    "bytes0": (_numpy_attr("bytes_"), "np.bytes_"),
    "void0": (_numpy_attr("void"), "np.void"),
    "longfloat": (_numpy_attr("longdouble"), "np.longdouble"),
    "singlecomplex": (_numpy_attr("complex64"), "np.complex64"),
    "cfloat": (_numpy_attr("complex128"), "np.complex128"),
    "longcomplex": (_numpy_attr("clongdouble"), "np.clongdouble"),
    "clongfloat": (_numpy_attr("clongdouble"), "np.clongdouble"),
    "Inf": (lambda np: np.inf, "np.inf"),
    "Infinity": (lambda np: np.inf, "np.inf"),
    "infty": (lambda np: np.inf, "np.inf"),
    "PINF": (lambda np: np.inf, "np.inf"),
    "NINF": (lambda np: -np.inf, "-np.inf"),
    "NaN": (lambda np: np.nan, "np.nan"),
    "PZERO": (lambda np: 0.0, "0.0"),
    "NZERO": (lambda np: -0.0, "-0.0"),
    "asfarray": (lambda np: _asfarray, "np.asarray(a, dtype=np.float64)"),
    "cast": (lambda np: _Cast(), "np.asarray(x).astype(dtype)"),
    "find_common_type": (lambda np: _find_common_type, "np.result_type or np.promote_types"),
    "round_": (_numpy_attr("round"), "np.round"),
    "product": (_numpy_attr("prod"), "np.prod"),
    "cumproduct": (_numpy_attr("cumprod"), "np.cumprod"),
    "sometrue": (_numpy_attr("any"), "np.any"),
    "alltrue": (_numpy_attr("all"), "np.all"),
    "msort": (lambda np: _msort, "np.sort(a, axis=0)"),
    "issubclass_": (lambda np: issubclass, "issubclass"),
    "mat": (_numpy_attr("asmatrix"), "np.asmatrix"),
}


def _legacy_value(numpy_module, name):
  if name in _ALIASES:
    return _ALIASES[name]
  if name == "asscalar":
    return _asscalar, "a.item()"
  if name == "rank":
    return numpy_module.ndim, "np.ndim(a)"
  if name in _REMOVED_IN_2:
    make, instead = _REMOVED_IN_2[name]
    return make(numpy_module), instead
  return None


LEGACY_NAMES = tuple(sorted(_ALIASES)) + ("asscalar", "rank") + tuple(sorted(_REMOVED_IN_2))
RAGGED_FUNCTIONS = ("array", "asarray")


def _ragged_as_object(original, name, is_legacy_file):
  """`np.<name>` that gives a legacy caller NumPy 1.x's object array for a ragged sequence."""
  warned_sites = set()

  @functools.wraps(original)
  def wrapper(*args, **kwargs):
    try:
      return original(*args, **kwargs)
    except ValueError as e:
      if ("inhomogeneous shape" not in str(e) or len(args) != 1 or kwargs.get("dtype") is not None):
        raise
      caller = sys._getframe(1)  # pylint: disable=protected-access
      if not is_legacy_file(caller.f_code.co_filename):
        raise
      site = (caller.f_code.co_filename, caller.f_lineno)
      if site not in warned_sites:
        warned_sites.add(site)
        warnings.warn(
            "np.%s of a ragged nested sequence: NumPy 1.x made an object array, NumPy 1.24+ raises; "
            "tf1clip run gives this legacy script the object array. Pass dtype=object to say so."
            % name, DeprecationWarning, stacklevel=2)
      return original(args[0], dtype=object, **kwargs)

  wrapper._tf1clip_legacy = True  # pylint: disable=protected-access
  return wrapper


def install(is_legacy_file=None):
  """Makes numpy answer the legacy names it no longer has, and legacy callers' ragged arrays (idempotent).

  Args:
    is_legacy_file: `filename -> bool`, true for the script's own files (compat.importer's); None leaves
      np.array / np.asarray alone.

  Returns:
    The names this call made available (those the installed NumPy lacks); empty if already done.
  """
  import numpy  # pylint: disable=import-outside-toplevel
  if is_legacy_file is not None:
    for name in RAGGED_FUNCTIONS:
      function = numpy.__dict__[name]
      if not getattr(function, "_tf1clip_legacy", False):
        setattr(numpy, name, _ragged_as_object(function, name, is_legacy_file))
  original = numpy.__dict__.get("__getattr__")
  if getattr(original, "_tf1clip_legacy", False):
    return []
  missing = tuple(name for name in LEGACY_NAMES if name not in numpy.__dict__)

  def __getattr__(name):  # pylint: disable=invalid-name
    if name in missing:
      value, instead = _legacy_value(numpy, name)
      warnings.warn(
          "np.%s was removed from NumPy; tf1clip run serves it as NumPy 1.x had it for this legacy "
          "script. Use %s instead." % (name, instead), DeprecationWarning, stacklevel=2)
      numpy.__dict__[name] = value  # warn once: later uses find the attribute directly
      return value
    if original is not None:
      return original(name)
    raise AttributeError("module 'numpy' has no attribute %r" % name)

  __getattr__._tf1clip_legacy = True  # pylint: disable=protected-access
  numpy.__getattr__ = __getattr__
  return list(missing)
