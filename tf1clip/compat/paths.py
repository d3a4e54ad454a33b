"""TF 1.15's module paths under `tf1clip run`: `from tensorflow.contrib.layers.python.layers import utils`, ...

Real TF1 code reaches TensorFlow by module path as well as by public name. Every module TF 1.15 imported (the
module-path inventory, tf115.module_paths) is served here as a `PathModule` named by its TF 1.15 path; each of its
names is looked up once, on first use, by these rules in order:

  1. a submodule (inventory kind `module`): the module served for its target path (numpy, six, ...: imported);
  2. a public alias (same_as `tf.X`): the facade's object for `tf.X`, so that one TF1 name is one object whichever
     path reaches it (`rnn_cell_impl.LSTMCell is tf.nn.rnn_cell.LSTMCell`: tf-keras' class);
  3. a tf1clip port at the mirrored path (tensorflow.contrib.X... -> tf1clip.contrib.X..., tensorflow.python... ->
     tf1clip.python...; in a package whose files are not yet at TF 1.15's paths, its module of the same name):
     tf1clip's own code for that module, or the names TF 2.21 dropped from it;
  4. the pair the name is at home in (same_as `tensorflow.m:name`): what that pair resolves to;
  5. TensorFlow 2.21's own module of that path, or where TF 2.21 / a library moved it (MOVED: training.tracking ->
     trackable, tensorflow.python.estimator -> tensorflow-estimator's, contrib.layers' code -> tf-slim, ...);
  6. a raw op (kind `raw-op`): TF 2.21's tf.raw_ops.<op>;
  7. else a NotProvidedError that names the module path and why (TF 1.15 had the name: the message never says it
     did not).

A name the inventory does not record (a private helper) is looked up by rules 3 and 5 only, and a path TF 1.15
never had raises Python's own ModuleNotFoundError / AttributeError.

Data flow: tf115.module_paths + compat.v1 (the facade) <- **compat.paths** <- compat.importer, compat.v1 (its
`tf.python`, `tf.pywrap_tensorflow`), contrib.catalog (a public contrib module's deep submodules).
"""

import functools
import gzip
import importlib
import os
import importlib.util
import types

from tf1clip.compat import surface
from tf1clip.tf115 import module_paths

_FACADE = "tf1clip.compat.v1"
_PORTS = "tf1clip"
INVENTORY_TREES = ("contrib", "python", "core", "examples", "lite", "tools", "compiler")  # tensorflow.<tree>
_PORT_TREES = ("contrib", "python")  # tf1clip.<tree> mirrors tensorflow.<tree> (tf1clip.tools is not TF's tools)

_PYBIND = tuple("tensorflow.python." + m for m in (
    "_pywrap_tfe", "client._pywrap_tf_session", "lib.io._pywrap_file_io", "_pywrap_py_exception_registry",
    "util._pywrap_utils", "grappler._pywrap_tf_cluster", "util._pywrap_tfprof", "util._pywrap_util_port",
    "grappler._pywrap_tf_item", "lib.io._pywrap_record_io", "client._pywrap_events_writer",
    "_pywrap_quantize_training", "_pywrap_toco_api", "util._pywrap_stat_summarizer", "util._pywrap_checkpoint_reader",
    "util._pywrap_kernel_registry", "util._pywrap_transform_graph", "platform._pywrap_stacktrace_handler",
    "grappler._pywrap_tf_optimizer", "framework._pywrap_python_op_gen", "client._pywrap_device_lib"))

# TF 1.15 module path (or path prefix, ending in ".") -> where TF 2.21 or the library that took the code over has
# it, tried after the path itself. Prefix entries map every module below the prefix.
MOVED = {
    "tensorflow.python.training.tracking.": ("tensorflow.python.trackable.",),
    "tensorflow.python.training.tracking.util": ("tensorflow.python.checkpoint.checkpoint",),
    "tensorflow.python.training.tracking.graph_view": ("tensorflow.python.checkpoint.graph_view",),
    "tensorflow.python.training.tracking.tracking": ("tensorflow.python.trackable.autotrackable",
                                                     "tensorflow.python.trackable.resource"),
    "tensorflow.python.distribute.distribution_strategy_context": ("tensorflow.python.distribute.distribute_lib",),
    "tensorflow.python.estimator.": ("tensorflow_estimator.python.estimator.",),
    # the tree proto tensor_forest's kernels read and write lives with them
    "tensorflow.contrib.decision_trees.proto.generic_tree_model_pb2": (
        "tf1clip.contrib.tensor_forest.proto.generic_tree_model_pb2",),
    "tensorflow.python.keras.": ("tf_keras.src.",),
    "tensorflow.python.keras.engine.network": ("tf_keras.src.engine.functional", "tf_keras.src.engine.training"),
    "tensorflow.python.keras.layers.": ("tf_keras.src.layers.", "tf_keras.src.layers.rnn."),
    "tensorflow.python.ops.rnn_cell_impl": ("tf_keras.src.layers.rnn.legacy_cells",
                                           "tf_keras.src.layers.rnn.legacy_cell_wrappers"),
    "tensorflow.python.ops.rnn_cell": ("tf_keras.src.layers.rnn.legacy_cells",
                                      "tf_keras.src.layers.rnn.legacy_cell_wrappers"),
    "tensorflow.python.layers.": ("tf_keras.src.legacy_tf_layers.",),
    "tensorflow.python.layers.layers": ("tf_keras.api._v1.keras.__internal__.legacy.layers",),
    # TF 1.15's one SWIG module became pybind11 modules, one a C++ library: the same functions, TF 2.21's binding.
    "tensorflow.python.pywrap_tensorflow": ("tensorflow.python.training.py_checkpoint_reader",) + _PYBIND,
    "tensorflow.python.pywrap_tensorflow_internal": _PYBIND,
    "tensorflow.python.ops.variables": ("tensorflow.python.ops.ref_variable",),
    # tf-slim 1.1.0 is contrib.slim and the parts of contrib.layers / framework / losses / metrics / training it
    # was made of, module for module.
    "tensorflow.contrib.slim.python.slim.": ("tf_slim.",),
    "tensorflow.contrib.slim.nets": ("tf_slim.nets",),
    "tensorflow.contrib.slim.python.slim.nets.": ("tf_slim.nets.",),
    "tensorflow.contrib.layers.python.layers.": ("tf_slim.layers.",),
    "tensorflow.contrib.layers.python.ops.bucketization_op": ("tf_slim.layers.bucketization_op",),
    "tensorflow.contrib.layers.python.ops.sparse_ops": ("tf_slim.layers.sparse_ops",),
    "tensorflow.contrib.framework.python.ops.arg_scope": ("tf_slim.ops.arg_scope",),
    "tensorflow.contrib.framework.python.ops.variables": ("tf_slim.ops.variables",),
    "tensorflow.contrib.framework.python.ops.ops": ("tf_slim.ops.framework_ops",),
    "tensorflow.contrib.losses.python.losses.loss_ops": ("tf_slim.losses.loss_ops",),
    "tensorflow.contrib.losses.python.metric_learning.metric_loss_ops": ("tf_slim.losses.metric_learning",),
    "tensorflow.contrib.metrics.python.ops.metric_ops": ("tf_slim.metrics.metric_ops",),
    "tensorflow.contrib.metrics.python.ops.histogram_ops": ("tf_slim.metrics.histogram_ops",),
    "tensorflow.contrib.metrics.python.metrics.classification": ("tf_slim.metrics.classification",),
    "tensorflow.contrib.training.python.training.training": ("tf_slim.training.training",),
    "tensorflow.contrib.training.python.training.evaluation": ("tf_slim.training.evaluation",),
    "tensorflow.contrib.rnn.python.ops.core_rnn_cell": ("tf_keras.src.layers.rnn.legacy_cells",
                                                       "tf_keras.src.layers.rnn.legacy_cell_wrappers"),
}

# Why a whole module's unserved names are not served (more precise than the general reason).
_PYWRAP_REASON = (
    "it was TF 1.15's SWIG binding of TensorFlow's C++ internals, which TensorFlow 2.21 split into private pybind11 "
    "modules without this function; tf1clip serves the checkpoint reader (NewCheckpointReader) and every function "
    "those modules still have")
REASONS = {
    "tensorflow.python.pywrap_tensorflow": _PYWRAP_REASON,
    "tensorflow.python.pywrap_tensorflow_internal": _PYWRAP_REASON,
}


# The pairs tf1clip refuses, with their messages: written by `python -m tf1clip.tools.module_coverage --write` from
# a `tf1clip run` survey, read by `tf1clip check` (which imports no TensorFlow) so its verdict is the run's.
REFUSALS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "paths_refused.tsv.gz")


@functools.lru_cache(maxsize=None)
def refusals():
  """{(module path, name): the refusal's message} from REFUSALS_FILE ({} when it was not written)."""
  found = {}
  if os.path.exists(REFUSALS_FILE):
    with gzip.open(REFUSALS_FILE, "rt", encoding="utf-8") as f:
      for line in f:
        if not line.startswith("#"):
          module, name, message = line.rstrip("\n").split("\t", 2)
          found[(module, name)] = message
  return found


class PathModule(types.ModuleType):
  """The module TF 1.15 had at `path`: its names resolve on first use by the rules of the module docstring."""

  def __init__(self, path):
    super().__init__(path, "TensorFlow 1.15's %s, served by tf1clip (tf1clip.compat.paths)." % path)
    self.__dict__["_tf1clip_path"] = path

  def __getattr__(self, name):
    if name.startswith("__") and name.endswith("__") and module_paths.pair(self._tf1clip_path, name) is None:
      if name == "__all__":
        value = [n for n in module_paths.star_names(self._tf1clip_path) if _serves(self._tf1clip_path, n)]
        self.__dict__["__all__"] = value
        return value
      raise AttributeError("module %r has no attribute %r" % (self._tf1clip_path, name))
    value = resolve(self._tf1clip_path, name)
    self.__dict__[name] = value
    return value

  def __dir__(self):
    return sorted(set(module_paths.names(self._tf1clip_path)) | set(self.__dict__))

  def __repr__(self):
    return "<module %r (TensorFlow 1.15's path, served by tf1clip)>" % self._tf1clip_path


def serve_below_contrib(module_path, name):
  """contrib.catalog's PATH_SERVER: the module TF 1.15 had at `module_path.name`, else what the rules serve for
  TF 1.15's pair (module_path, name); None when neither (the catalog then raises its own error)."""
  if is_path(module_path + "." + name):
    return module(module_path + "." + name)
  if module_paths.pair(module_path, name) is not None:
    try:
      return resolve(module_path, name)
    except AttributeError:
      return None
  return None


def is_path(path):
  """True when TF 1.15 had a module at `path` (module() serves it, or says why TF 1.15's own import failed)."""
  return path in module_paths.modules()


def public_module(public_name):
  """The module served for a public TF1 module name whose object is a TF 1.15 module path ("tf.pywrap_tensorflow"
  -> tensorflow.python.pywrap_tensorflow's), or None when no inventory module is that name."""
  path = _module_of_public().get(public_name)
  return module(path) if path is not None else None


def module_of_public(public_name):
  """The TF 1.15 module path whose module was the public name ("tf.pywrap_tensorflow"), or None."""
  return _module_of_public().get(public_name)


@functools.lru_cache(maxsize=None)
def _module_of_public():
  return {entry.same_as: path for path, entry in sorted(module_paths.modules().items())
          if entry.kind == "module" and entry.same_as.startswith("tf.")}


@functools.lru_cache(maxsize=None)
def module(path):
  """The module served for TF 1.15's module `path` ("tensorflow.contrib.layers.python.layers").

  A contrib module that was a public one is the facade's, one module whichever name reaches it: always for
  `tensorflow.contrib.X` (tf1clip.contrib.X), and for a deep path where tf1clip's module is at the mirrored path
  (tf1clip.contrib.specs.python.specs_lib = tf.contrib.specs.specs_lib); every other path is a PathModule.

  Raises:
    ModuleNotFoundError: TF 1.15 had no module at `path` (Python's own error, as on TF 1.15).
    surface.NotProvidedImportError: TF 1.15's own import of `path` failed (the inventory's kind import-error).
  """
  entry = module_paths.modules().get(path)
  if entry is None:
    raise ModuleNotFoundError("No module named %r" % path, name=path)
  if entry.kind != "module":
    raise surface.NotProvidedImportError(
        "%s is not provided by tf1clip: TensorFlow 1.15's own import of it failed (%s)" % (path, entry.error),
        name=path)
  if path.startswith("tensorflow.contrib") and entry.same_as.startswith("tf."):
    found, _ = _public(entry.same_as)
    public = module_paths.area_of(path) == "contrib public"
    if isinstance(found, types.ModuleType) and (public or found.__name__ == _PORTS + path[len("tensorflow"):]):
      return found
  if path.startswith("tensorflow.contrib."):
    # A package that declares TF 1.15's deep path as one of its modules (contrib.tensor_forest's python/ops
    # package: sys.modules["tf1clip.contrib.tensor_forest.python.ops.stats_ops"] is its stats_ops): that module.
    port = _import_if_exists(_PORTS + path[len("tensorflow"):])
    if port is not None and port.__name__ != _PORTS + path[len("tensorflow"):]:
      return port
  return PathModule(path)


def resolve(path, name):
  """The object served for `from <path> import <name>` (path: a module TF 1.15 imported).

  Raises:
    surface.NotProvidedError: TF 1.15 had the name and tf1clip does not serve it (the message says why).
    AttributeError: TF 1.15's module had no such name (Python's own message).
  """
  key = (path, name)
  if key in _ACTIVE:  # a public alias that leads back here (tf.pywrap_tensorflow.X is this module's X)
    raise _Cycle("%s.%s is being resolved" % key)
  _ACTIVE.add(key)
  try:
    return _resolve(path, name)
  finally:
    _ACTIVE.discard(key)


class _Cycle(AttributeError):
  """A public alias whose facade object is the very pair being resolved: the next rule decides."""


_ACTIVE = set()


def _install():
  catalog = importlib.import_module(surface.CONTRIB_PACKAGE + ".catalog")
  catalog.PATH_SERVER = serve_below_contrib


def _resolve(path, name):
  entry = module_paths.pair(path, name)
  if entry is None:
    if module_paths.has_module(path + "." + name):
      return module(path + "." + name)
    found = _from_port(path, name)
    if found is _MISSING:
      found = _from_tensorflow(path, name)
    if found is _MISSING:
      raise AttributeError("module %r has no attribute %r" % (path, name))
    return found
  reasons = []
  if entry.kind == "module":
    return _submodule(path, name, entry.target)
  if entry.same_as.startswith("tf."):
    found, error = _public(entry.same_as)
    if found is not None:
      return found
    if error is not None:
      reasons.append("its public name %s: %s" % (entry.same_as, error))
  found = _from_port(path, name)
  if found is not _MISSING:
    return found
  if entry.same_as.startswith("tensorflow."):
    home_module, _, home_name = entry.same_as.partition(":")
    try:
      return resolve(home_module, home_name)
    except surface.NotProvidedError as e:
      reasons.append("the module it came from: %s" % e)
  found = _from_tensorflow(path, name)
  if found is not _MISSING:
    return found
  if entry.kind == "raw-op":
    found = _raw_op(entry.target, name)
    if found is not None:
      return found
    reasons.append("TensorFlow 2.21 has no op %s" % entry.target)
  raise surface.NotProvidedError(refusal(path, name, reasons))


def refusal(path, name, reasons=()):
  """The message of a TF 1.15 (module, name) pair that tf1clip does not serve."""
  why = REASONS.get(path)
  if why is None:
    where = _tensorflow_candidates(path)
    if where:
      why = "TensorFlow 2.21 has no %s in %s and tf1clip has no port of it" % (name, " or ".join(where))
    else:
      why = "TensorFlow 2.21 has no module at this path and tf1clip has no port of it"
  message = "%s.%s (TensorFlow 1.15's %s) is not provided by tf1clip: %s" % (path, name, _kind_word(path, name), why)
  if reasons:
    message += "; " + "; ".join(reasons)
  return message


def _kind_word(path, name):
  entry = module_paths.pair(path, name)
  return {"class": "class", "function": "function", "raw-op": "op wrapper"}.get(entry.kind, "name") if entry else "name"


_MISSING = object()


def _serves(path, name):
  try:
    resolve(path, name)
  except (AttributeError, ImportError):
    return False
  return True


def _submodule(path, name, target):
  if target.startswith("tensorflow.") and module_paths.modules().get(target) is not None:
    return module(target)
  if target == "tensorflow":
    return importlib.import_module(_FACADE)
  try:
    return importlib.import_module(target)
  except ImportError as e:
    raise surface.NotProvidedError(
        "%s.%s (TensorFlow 1.15's module %s) is not provided by tf1clip: importing it fails here (%s)"
        % (path, name, target, e)) from None


def _public(public_name):
  """(the facade's object for a public TF1 name, None) or (None, why the facade refuses it)."""
  obj = importlib.import_module(_FACADE)
  for part in public_name.split(".")[1:]:
    try:
      obj = getattr(obj, part)
    except _Cycle:
      return None, None
    except (AttributeError, ImportError) as e:
      return None, (str(e).splitlines() or [type(e).__name__])[0]
  catalog = importlib.import_module(surface.CONTRIB_PACKAGE + ".catalog")
  if isinstance(obj, catalog.UnsupportedModule):
    return None, catalog.explain(public_name)
  return obj, None


def _from_port(path, name):
  """`name` of tf1clip's own module at the mirrored path (tensorflow.X.Y -> tf1clip.X.Y), or _MISSING."""
  if path.split(".")[1] not in _PORT_TREES:
    return _MISSING
  for candidate in _port_candidates(path):
    port = _import_if_exists(candidate)
    if port is None:
      continue
    try:
      return getattr(port, name)
    except AttributeError:
      continue
  return _MISSING


# The contrib packages whose files are not yet at TF 1.15's paths (named after their TF 1.15 module, one level
# down: tf1clip.contrib.timeseries.ar_model is tensorflow.contrib.timeseries.python.timeseries.ar_model).
_FLAT_PACKAGES = ("timeseries", "tensor_forest", "learn", "estimator")


def _port_candidates(path):
  """tf1clip's module at the mirrored path, then, in a package of _FLAT_PACKAGES, the module of the same name at
  the package's top (deep path `tensorflow.contrib.P.python....M` -> tf1clip.contrib.P.M)."""
  yield _PORTS + path[len("tensorflow"):]
  parts = path.split(".")
  if len(parts) > 4 and parts[1] == "contrib" and parts[2] in _FLAT_PACKAGES and parts[3] == "python":
    yield "%s.contrib.%s.%s" % (_PORTS, parts[2], parts[-1])


def _from_tensorflow(path, name):
  for candidate in _tensorflow_candidates(path):
    real = _import_if_exists(candidate)
    if hasattr_quiet(real, name):
      return getattr(real, name)
  return _MISSING


def hasattr_quiet(obj, name):
  """hasattr that also treats a module `__getattr__`'s own errors (ImportError, a NotProvidedError) as absent."""
  if obj is None:
    return False
  try:
    getattr(obj, name)
  except (AttributeError, ImportError):
    return False
  return True


@functools.lru_cache(maxsize=None)
def _tensorflow_candidates(path):
  """The modules that may hold what TF 1.15 had at `path` on TF 2.21: the path itself, then MOVED's."""
  found = [path] if not path.startswith("tensorflow.contrib") else []
  for key, targets in MOVED.items():
    if key == path:
      found += targets
    elif key.endswith(".") and path.startswith(key):
      found += [t + path[len(key):] for t in targets]
  return tuple(c for c in found if _module_exists(c))


@functools.lru_cache(maxsize=None)
def _import_if_exists(name):
  if not _module_exists(name):
    return None
  try:
    return importlib.import_module(name)
  except Exception:  # pylint: disable=broad-except  # a module that fails on TF 2.21 serves nothing
    return None


def _module_exists(name):
  try:
    return importlib.util.find_spec(name) is not None
  except (ImportError, ValueError):  # a parent package is missing, or fails to import
    return False
  except Exception:  # pylint: disable=broad-except  # a parent package that fails to import on TF 2.21
    return False


def _raw_op(op_name, name):
  """TF 2.21's op `op_name` for a TF 1.15 op wrapper: tf.raw_ops' function itself, or a positional adapter of it
  for the snake_case wrapper (`concat_v2(values, axis)`); None when TF 2.21 has no such op."""
  raw_ops = importlib.import_module("tensorflow").raw_ops
  op = getattr(raw_ops, op_name, None)
  if op is None or name.endswith("_eager_fallback"):
    return None
  if name == op_name:
    return op
  return _positional_op(op, name)


def _positional_op(op, name):
  import inspect  # pylint: disable=import-outside-toplevel
  order = [p.name for p in inspect.signature(op).parameters.values()]

  def wrapper(*args, **kwargs):
    if len(args) > len(order):
      raise TypeError("%s() takes %d arguments, got %d" % (name, len(order), len(args)))
    kwargs.update(zip(order, args))
    return op(**kwargs)

  wrapper.__name__ = wrapper.__qualname__ = name
  wrapper.__doc__ = op.__doc__
  return wrapper


_install()
