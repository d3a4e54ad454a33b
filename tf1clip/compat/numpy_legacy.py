"""The NumPy 1.x names legacy scripts use, put back for `tf1clip run` (never on `import tf1clip`).

Place in the data flow (DESIGN.md): compat.runner calls `install()` before it runs the script;
nothing else does. TF1-era scripts were written against NumPy 1.x and use aliases NumPy has since
removed: `np.int`, `np.float`, `np.bool`, `np.object`, `np.str`, `np.long`, `np.unicode` (removed in
1.24 / 2.0) and the functions `np.asscalar` (1.23) and `np.rank` (1.18). `install()` serves each
missing one again as what it was, with one DeprecationWarning per name on its first use, naming
the spelling to use instead. A name the installed NumPy has (NumPy 2 brought `np.bool` and
`np.long` back, as NumPy scalar types) is left alone.

How: NumPy answers unknown attributes through its module-level `__getattr__` (PEP 562), which
raises AttributeError for these names. `install()` replaces that function in `numpy.__dict__` with
one that answers the legacy names first and hands every other name to NumPy's own; after a name's
first use its value is stored in `numpy.__dict__`, so later uses are plain attribute reads. It works
for `np.int`, `numpy.int` and `from numpy import int` alike.

The other NumPy 2 change legacy scripts meet, `int()`/`float()` of a one-element array (e.g.
`int(np.searchsorted(cdf, np.random.rand(1) * s))`), still works up to NumPy 2.3 with a
DeprecationWarning and fails from 2.4: tf1clip pins numpy below 2.4 for that reason.
"""

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


def _legacy_value(numpy_module, name):
  if name in _ALIASES:
    return _ALIASES[name]
  if name == "asscalar":
    return _asscalar, "a.item()"
  if name == "rank":
    return numpy_module.ndim, "np.ndim(a)"
  return None


LEGACY_NAMES = tuple(sorted(_ALIASES)) + ("asscalar", "rank")


def install():
  """Makes numpy answer the legacy names it no longer has (idempotent).

  Returns:
    The names this call made available (those the installed NumPy lacks); empty if already done.
  """
  import numpy  # pylint: disable=import-outside-toplevel
  original = numpy.__dict__.get("__getattr__")
  if getattr(original, "_tf1clip_legacy", False):
    return []
  missing = tuple(name for name in LEGACY_NAMES if name not in numpy.__dict__)

  def __getattr__(name):  # pylint: disable=invalid-name
    if name in missing:
      value, instead = _legacy_value(numpy, name)
      warnings.warn(
          "np.%s was removed from NumPy; tf1clip run serves it as %s for this legacy script. "
          "Use %s instead." % (name, getattr(value, "__name__", value), instead),
          DeprecationWarning, stacklevel=2)
      numpy.__dict__[name] = value  # warn once: later uses find the attribute directly
      return value
    if original is not None:
      return original(name)
    raise AttributeError("module 'numpy' has no attribute %r" % name)

  __getattr__._tf1clip_legacy = True  # pylint: disable=protected-access
  numpy.__getattr__ = __getattr__
  return list(missing)
