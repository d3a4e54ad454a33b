"""Every patch that makes a maintained library run on TensorFlow 2.21, and the one place that applies them.

A shim is step (2) of serving a removed TF1 name (DESIGN.md, "Legacy surface"): the maintained library that held
it (tf-slim, tensorflow-estimator 2.15) made to import by putting back the few TensorFlow internals it reads that
have moved. Each shim is a module of this package holding a tuple of `Patch` entries (`SHIMS` names them):
`tf_slim`, `tensorflow_estimator` (with `standins/`, the modules it puts back), `graph_editor` (an Operation alias
graph-editor scripts read) and `contrib_autograph` (AutoGraph leaves contrib code unconverted, as TF 1.15 did).

Who applies them, and when: a library's shims are applied just before that library is first imported, by the
import hook `install_import_hook()` puts in `sys.meta_path` (`ON_FIRST_IMPORT`); the runner, the TF1 facade
(compat.v1) and the contrib catalog install it, so no contrib module applies a shim itself, and `import tf1clip`
alone changes nothing. The facade applies `graph_editor` and `contrib_autograph` when a script first touches
`tf.contrib`. `tf1clip doctor` prints `report()`.

A patch only ADDS what is missing: a target that exists already is left alone ("present"), so TensorFlow
and every other library keep seeing what they saw. A patch whose source has moved again (a newer
TensorFlow) is skipped and reported, not fatal: the library may still work for the script at hand.
"""

import dataclasses
import importlib
import importlib.util
import sys


@dataclasses.dataclass(frozen=True)
class Patch:
  """One missing internal put back.

  Attributes:
    target: "pkg.module" (a module that must be importable) or "pkg.module:attr" (an attribute that
      must exist), as the legacy library reads it.
    source: "pkg.module" or "pkg.module:attr": the object to put at `target` (the same object that
      now lives elsewhere, or a stand-in tf1clip writes). With `call=True`, "pkg.module:function": a
      function called with no argument that applies the patch and returns True (applied) or False
      (already present), or raises ImportError/AttributeError/LookupError when its own target moved.
    needed_by: what in the library needs it (shown by docs and `tf1clip doctor`).
    if_used: for stand-ins, what fails if a script really needs the replaced feature.
    call: see `source`.
  """
  target: str
  source: str
  needed_by: str
  if_used: str = ""
  call: bool = False


@dataclasses.dataclass
class ShimReport:
  """What `apply` did for one shim: lists of (patch, detail) pairs."""
  name: str
  applied: list = dataclasses.field(default_factory=list)
  present: list = dataclasses.field(default_factory=list)
  skipped: list = dataclasses.field(default_factory=list)


# Shim name -> "module:attribute" of its tuple of Patch entries (imported only when applied).
SHIMS = {
    "tf_slim": "tf1clip.shims.tf_slim:PATCHES",
    "graph_editor": "tf1clip.shims.graph_editor:PATCHES",
    "tensorflow_estimator": "tf1clip.shims.tensorflow_estimator:PATCHES",
    "contrib_autograph": "tf1clip.shims.contrib_autograph:PATCHES",
}

_REPORTS = {}

# Library (top-level package) -> the shims applied just before its first import (install_import_hook).
ON_FIRST_IMPORT = {
    "tf_slim": ("tf_slim", "contrib_autograph"),  # AutoGraph leaves tf-slim unconverted, as TF 1.15 left contrib
    "tensorflow_estimator": ("tensorflow_estimator",),
}


def _resolve(dotted):
  module_name, _, attr = dotted.partition(":")
  module = importlib.import_module(module_name)
  return getattr(module, attr) if attr else module


def _exists(target):
  module_name, _, attr = target.partition(":")
  if not attr:
    if module_name in sys.modules:
      return True
    try:
      return importlib.util.find_spec(module_name) is not None
    except ModuleNotFoundError:  # a parent package is missing
      return False
  try:
    module = importlib.import_module(module_name)
  except ImportError:
    return False
  return hasattr(module, attr)


def _apply_one(patch):
  """Applies `patch`; returns "applied" or "present"; raises when its source cannot be found."""
  if patch.call:
    return "applied" if _resolve(patch.source)() else "present"
  if _exists(patch.target):
    return "present"
  value = _resolve(patch.source)
  module_name, _, attr = patch.target.partition(":")
  if attr:
    setattr(importlib.import_module(module_name), attr, value)
  else:
    sys.modules[module_name] = value
    parent, _, child = module_name.rpartition(".")
    if parent and parent in sys.modules and not hasattr(sys.modules[parent], child):
      setattr(sys.modules[parent], child, value)
  return "applied"


def apply(name):
  """Applies the shim `name` (a key of SHIMS) once per process; returns its ShimReport.

  Raises:
    KeyError: `name` is not a shim tf1clip knows (the message lists the known ones).
  """
  if name not in SHIMS:
    raise KeyError("no shim named %r; known shims: %s" % (name, ", ".join(sorted(SHIMS))))
  if name in _REPORTS:
    return _REPORTS[name]
  result = ShimReport(name)
  for patch in _resolve(SHIMS[name]):
    try:
      outcome = _apply_one(patch)
    except (ImportError, AttributeError, LookupError) as e:
      result.skipped.append((patch, "%s: %s" % (type(e).__name__, e)))
      continue
    getattr(result, outcome).append((patch, ""))
  _REPORTS[name] = result
  return result


def report():
  """The ShimReports of the shims applied in this process so far, by name."""
  return dict(_REPORTS)


class _ShimBeforeFirstImport:
  """A `sys.meta_path` finder that finds nothing: it applies a library's shims when the library is first imported.

  It sits first in `sys.meta_path` and returns None, so the usual finders still find and load the library; the
  patches are in place before the library's first module runs. Once a library is in `sys.modules` its entry is
  never asked for again (Python looks there first), so the hook costs nothing after the first import.
  """

  def __init__(self):
    self._applying = False

  def find_spec(self, fullname, path=None, target=None):  # pylint: disable=unused-argument
    library = fullname.partition(".")[0]
    if library in ON_FIRST_IMPORT and library not in sys.modules and not self._applying:
      self._applying = True  # a patch that imports the library's own dependencies must not recurse
      try:
        for name in ON_FIRST_IMPORT[library]:
          apply(name)
      finally:
        self._applying = False
    return None


_HOOK = _ShimBeforeFirstImport()


def install_import_hook():
  """Applies each library's shims before its first import from now on (idempotent); see ON_FIRST_IMPORT.

  A library imported before this call gets its shims now.
  """
  if _HOOK not in sys.meta_path:
    sys.meta_path.insert(0, _HOOK)
  for library, names in ON_FIRST_IMPORT.items():
    if library in sys.modules:
      for name in names:
        apply(name)
