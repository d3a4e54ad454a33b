"""The one place that patches TensorFlow internals so a maintained legacy library imports on TF 2.21.

Place in the data flow (DESIGN.md, "Legacy surface"): a shim is step (2) of serving a removed TF1 name —
the maintained library that held it (tf-slim, tensorflow-estimator 2.15) made to import by putting back
the few TensorFlow internals it reads that have moved. Each shim is a tuple of `Patch` entries declared
in its own module (`SHIMS` below names them); this module applies them, and only when asked: by the
runner / the TF1 facade (`apply(name)` before the library is first imported), never as a side effect of
`import tf1clip`. `tf1clip doctor` prints `report()`.

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
    "tf_slim": "tf1clip.contrib.slim_shim:PATCHES",
    "graph_editor": "tf1clip.compat.graph_editor_shim:PATCHES",
    "tensorflow_estimator": "tf1clip.compat.estimator_shim:PATCHES",
    "contrib_autograph": "tf1clip.compat.autograph_shim:PATCHES",
}

_REPORTS = {}


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
