"""The TF1 API as one module: `import tf1clip.compat.v1 as tf` is the one-line migration of a TF1 script.

Importing it puts the process in TF1 mode (`tf.compat.v1.disable_v2_behavior()`: graph mode, v1 control
flow and variables), the way a TF 1.x process started. Every `tf.<name>` then resolves as compat.surface
describes: `tf.contrib` is tf1clip.contrib, `tf.keras` / `tf.layers` / `tf.nn.rnn_cell` come from tf-keras,
`tf.compat.v1` is this module again, and everything else is `tf.compat.v1.<name>` of TensorFlow 2.21
(including `tf.flags`, `tf.app.run`, `tf.logging`, `tf.gfile`, `tf.train`, `tf.summary`, `tf.test`).
`tf.estimator` is tensorflow-estimator 2.15's v1 API, imported (after shims.tensorflow_estimator is applied)
the first time a script touches it. The names TF 1.15 had that TensorFlow 2.21 or such a library dropped
(surface.TF1CLIP_NAMES: the MNIST tutorial reader, tf.keras.wrappers.scikit_learn, the BoostedTrees estimators)
are tf1clip's ports, added to the namespace that serves the rest.

`tf1clip run` hands this same module to a script's `import tensorflow` (see compat.importer).

Data flow: compat.surface <- compat.v1 <- compat.importer <- compat.runner <- cli.
"""

import os as _os

# TensorFlow picks Keras 3 or tf-keras for its own `tf.keras` from this variable; setting it before
# TensorFlow is imported makes `tf.keras` of third-party code in this process agree with ours.
_os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

import importlib as _importlib
import sys as _sys
import types as _types

import tensorflow as _tf
from tensorflow.python.util import deprecation as _deprecation

from tf1clip import shims as _shims
from tf1clip.compat import paths as _paths
from tf1clip.compat import surface as _surface

# tf.estimator, tf.contrib.slim, ...: their libraries get their shims before their first import (tf1clip.shims).
_shims.install_import_hook()

_V1 = _tf.compat.v1
with _deprecation.silence():  # TF 1.x printed nothing at start-up; 2.21 warns about its own toggles
  _V1.disable_v2_behavior()

# tf.logging writes "INFO:tensorflow:..." through its own handler; once `tf.app.run()` installs absl's
# handler on the root logger every message would also come out a second time in absl's format.
_TF_LOGGER = _tf.get_logger()
if _TF_LOGGER.handlers:
  _TF_LOGGER.propagate = False


class _Namespace(_types.ModuleType):
  """A TF namespace (e.g. `tf.nn`) whose listed attributes are replaced and the rest come from the original."""

  def __init__(self, name, base, replacements):
    super().__init__(name, getattr(base, "__doc__", None))
    self.__dict__["_tf1clip_base"] = base
    self.__dict__["_tf1clip_replacements"] = replacements

  def __getattr__(self, name):
    replacements = self.__dict__["_tf1clip_replacements"]
    if name in replacements:
      value = replacements[name]()
      setattr(self, name, value)
      return value
    return getattr(self.__dict__["_tf1clip_base"], name)

  def __dir__(self):
    return sorted(set(dir(self.__dict__["_tf1clip_base"])) | set(self.__dict__["_tf1clip_replacements"]))


def _import(module_name):
  return lambda: _importlib.import_module(module_name)


def _this_module():
  return _sys.modules[__name__]


def _contrib():
  # TF 1.x graph-editor scripts read `op._outputs`; put that alias back before contrib is used. TF 1.15's AutoGraph
  # never converted contrib code: nor does TF 2.21's convert tf1clip.contrib / tf-slim (shims.contrib_autograph).
  _shims.apply("graph_editor")
  _shims.apply("contrib_autograph")
  try:
    return _importlib.import_module(_surface.CONTRIB_PACKAGE)
  except ModuleNotFoundError as e:
    if e.name != _surface.CONTRIB_PACKAGE:
      raise
    raise _surface.NotProvidedError(_surface.not_provided_message(
        "tf.contrib", "this tf1clip installation has no tf1clip.contrib package")) from None


def _with_tf1clip_names(dotted, base=None):
  """The namespace `tf.<dotted>`: `base` (what serves it, or nothing) with surface.TF1CLIP_NAMES below it added.

  E.g. `tf.keras` is tf-keras' TF1 API with `wrappers.scikit_learn`, which tf-keras dropped, tf1clip's; a
  namespace no one else serves (`tf.examples`, `tf.examples.tutorials`) is built. A wrapped namespace keeps
  `base`'s name: everything else in it is `base`'s.
  """
  prefix = dotted + "."
  replacements = {}
  for key, source in _surface.TF1CLIP_NAMES.items():
    if not key.startswith(prefix):
      continue
    name = key[len(prefix):]
    if "." in name:  # below a sub-namespace: add to that one (built if base has none)
      child = name.split(".", 1)[0]
      replacements[child] = lambda c=child: _with_tf1clip_names(prefix + c, getattr(base, c, None))
    else:
      module_name, _, attribute = source.partition(":")
      replacements[name] = lambda m=module_name, a=attribute: (
          getattr(_importlib.import_module(m), a) if a else _importlib.import_module(m))
  if base is None:
    base = _types.ModuleType(__name__ + "." + dotted)
  return _Namespace(base.__name__, base, replacements) if replacements else base


def _library_namespace(name):
  # E.g. tensorflow-estimator 2.15 imports on TF 2.21 only once its shim put back what it reads.
  module_name, _, function = _surface.LIBRARY_NAMESPACES[name][0].partition(":")
  return lambda: _with_tf1clip_names(name, getattr(_importlib.import_module(module_name), function)())


# Top-level TF1 names this module resolves itself; each maker runs once, on first use.
_REPLACEMENTS = {
    "contrib": _contrib,
    **{name: _library_namespace(name) for name in _surface.LIBRARY_NAMESPACES},
    "keras": lambda: _with_tf1clip_names("keras", _importlib.import_module(_surface.TF_KERAS_MODULES["keras"])),
    "layers": _import(_surface.TF_KERAS_MODULES["layers"]),
    "nn": lambda: _Namespace(__name__ + ".nn", _V1.nn, {
        "rnn_cell": _import(_surface.TF_KERAS_MODULES["nn.rnn_cell"])}),
    "examples": lambda: _with_tf1clip_names("examples"),
    "distributions": lambda: _with_tf1clip_names("distributions", _V1.distributions),
    # `tf1clip run --record-clipping`: TF's own function, also writing tf1clip/ summaries for `tf1clip report`.
    "clip_by_global_norm": lambda: (
        _importlib.import_module("tf1clip.summaries").recording_clip_by_global_norm
        if _os.environ.get("TF1CLIP_RECORD_CLIPPING") == "1" else _V1.clip_by_global_norm),
    # TF's own class with the chief's end-of-training hang removed (tf1clip.replicas explains it).
    "train": lambda: _Namespace(__name__ + ".train", _V1.train, {
        "SyncReplicasOptimizer": lambda: _importlib.import_module(
            "tf1clip.replicas").SyncReplicasOptimizer}),
    "compat": lambda: _Namespace(__name__ + ".compat", _V1.compat, {
        "v1": _this_module,
        "v2": lambda: _tf.compat.v2}),
}


_NOTHING = object()


def __getattr__(name):
  """`tf.<name>` of a TF1 script (PEP 562): see the module docstring for where each name comes from."""
  if name in _REPLACEMENTS:
    value = _REPLACEMENTS[name]()
  elif name.startswith("__") and name.endswith("__") and name != "__version__":
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
  else:
    value = _NOTHING
    try:
      value = getattr(_V1, name)
    except AttributeError:
      # tf.python, tf.pywrap_tensorflow, ...: TF 1.15's module at that path, as compat.paths serves it.
      value = _paths.public_module("tf." + name) or _NOTHING
      if value is _NOTHING and _paths.is_path("tensorflow." + name):
        value = _paths.module("tensorflow." + name)
    if value is _NOTHING:
      suggestion = _surface.removed_suggestion(name)
      if suggestion is not None:
        raise _surface.NotProvidedError(
            _surface.not_provided_message("tf." + name, suggestion)) from None
      # tensorflow.python, tensorflow.core, ...: the real packages, for scripts that reach into internals.
      real = _sys.modules.get("tensorflow." + name)
      if real is None:
        raise AttributeError(
            "module 'tensorflow' has no attribute %r (tf1clip's TF1 API is tf.compat.v1 of "
            "TensorFlow %s plus tf.contrib)" % (name, _tf.__version__)) from None
      value = real
  # Cache so the next `tf.<name>` is a plain module-dict lookup.
  globals()[name] = value
  return value


def __dir__():
  return sorted(set(dir(_V1)) | set(_REPLACEMENTS))
