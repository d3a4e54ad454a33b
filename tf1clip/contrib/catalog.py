"""What tf1clip provides under `tf.contrib`, what it does not, and the error a script gets for the rest.

Place in the data flow (DESIGN.md): optimizer/clipping <- **contrib** <- compat (facade, runner,
`tf1clip check`) <- cli. This module is the one table both sides read: the contrib package's
module-level `__getattr__` hooks raise from it while a script runs, and `tf1clip check` reads it
without running anything. It imports neither TensorFlow nor Keras itself.

- Every contrib package declares what it serves beside its code (its imports, NOT_SERVED, SIGNATURE_DIFFERENCES,
  SUCCESSOR, WHOLE); `collect()` gathers the declarations into catalog.tsv (`make catalog`), which `index()` and
  everything that explains a name read without importing TensorFlow.
- `UNSUPPORTED` maps dotted names and prefixes (e.g. "tf.contrib.tpu") to what to use instead.
- `explain(name)` gives the one sentence for any name; `ContribNotProvidedError` carries it.

Why the error is an `ImportError`: Python turns an `AttributeError` raised by a module's
`__getattr__` into its own "cannot import name 'tpu' from 'tensorflow.contrib'" during
`from tensorflow.contrib import tpu`, losing the replacement; an `ImportError` reaches the user as
raised, from both `from tensorflow.contrib import tpu` and `tf.contrib.tpu.TPUEstimator`. (A class
cannot derive from both: CPython rejects the two instance layouts.) Dunder lookups (`__path__`,
`__wrapped__`, ...) still get a plain `AttributeError`, so the import system and introspection
work as for any module.
"""

import collections
import functools
import os
import sys
import types

from tf1clip import shims
from tf1clip import tf115
from tf1clip.tf115 import module_paths

# A contrib module may import tf-slim or tensorflow-estimator at its top: their shims go in first (tf1clip.shims).
shims.install_import_hook()

# Every tf.contrib submodule TensorFlow 1.15 had. A name in this list that tf1clip does not
# provide gets a stub module (see `unsupported_module`), so `tf.contrib.tpu.TPUEstimator` can
# name the whole dotted path; a name not in it was never in tf.contrib.
TF115_SUBMODULES = frozenset("""
    all_reduce autograph batching bayesflow bigtable boosted_trees checkpoint cloud cluster_resolver
    coder compiler constrained_optimization copy_graph crf cudnn_rnn data decision_trees deprecated
    distribute distributions eager estimator factorization feature_column ffmpeg framework gan
    graph_editor grid_rnn hadoop image input_pipeline integrate keras kernel_methods kinesis
    labeled_tensor layers learn legacy_seq2seq libsvm linear_optimizer lookup losses memory_stats
    meta_graph_transform metrics mixed_precision model_pruning nccl nearest_neighbor nn opt
    optimizer_v2 periodic_resample predictor proto quantization quantize rate receptive_field
    recurrent reduce_slice_ops remote_fused_graph resampler rnn rpc saved_model seq2seq
    session_bundle signal slim solvers sparsemax specs staging stat_summarizer stateless summary
    tensor_forest tensorboard testing text tfprof timeseries tpu training util
    """.split())

# Served names whose parameters differ from TF 1.15's in a way a TF 1.15 call can notice (not just a new
# parameter with a default), and why. A package declares its own names' (its SIGNATURE_DIFFERENCES); this table holds
# what no one package can: a key ending in "." covers every name below it, and a module served as another library's
# module object (contrib.framework.nest). tests/oracle/test_inventory.py compares every served signature with the
# inventory (TF 1.15's own) and fails on a difference that is declared nowhere; docs/contrib.md shows them.
_TFP = ("tensorflow-probability 0.25's class (TF 1.15's contrib.distributions continued there; the same "
        "object tfp users get): ")
SIGNATURE_DIFFERENCES = {
    **{"tf.contrib.framework.nest." + name: (
        "TensorFlow 2.21's nest (TF 1.15's contrib.framework re-exported TensorFlow's own): "
        "`check_subtrees_length` is gone; shallow structures are always checked in full")
       for name in ("assert_shallow_structure", "flatten_up_to", "flatten_with_tuple_paths_up_to")},
    "tf.contrib.eager.": (
        "TensorFlow 2.21's own objects that continued tfe's (tf.function for defun, OwnedIterator for Iterator, "
        "tf.py_function for py_func, ...): their parameters evolved with TensorFlow (experimental_relax_shapes "
        "became reduce_retracing, arguments gained defaults); TF 1.15's calls work"),
    # every class contrib.distributions serves from tfp (and its bijectors): tfp's constructors grew
    # parameters and renamed a few since TF 1.15 (InverseGamma's rate -> scale, MultivariateNormalDiag
    # lost scale_identity_multiplier, Mixture lost use_static_graph, ...)
    "tf.contrib.distributions.": _TFP + "check the class's tfp documentation for what changed",
}

_CELLS = "tf_keras.src.layers.rnn.legacy_cells"
_WRAPPERS = "tf_keras.src.layers.rnn.legacy_cell_wrappers"
_PORT = "tf1clip's port of TF 1.15 contrib"
_SLIM = "tf-slim 1.1.0, through tf1clip.contrib.slim's shim: tf_slim"
_ESTIMATOR = "tensorflow-estimator 2.15, through tf1clip's shim (shims.tensorflow_estimator): "

# The contrib modules tf1clip serves: the packages of tf1clip/contrib/ (read from the tree, nothing imported).
PROVIDED_SUBMODULES = frozenset(
    entry for entry in os.listdir(os.path.dirname(os.path.abspath(__file__)))
    if os.path.isfile(os.path.join(os.path.dirname(os.path.abspath(__file__)), entry, "__init__.py")))

_ADDONS = "tensorflow-addons (archived in 2024, no release for TensorFlow 2.16+)"
_SEQ2SEQ_V2 = ("the TF1 graph-mode class %s (provided; TF 1.15's Keras-layer V2 variants are not "
               "ported)")

# Dotted name or prefix -> what to use instead. `explain` uses the longest matching prefix.
UNSUPPORTED = {
    # contrib modules TF 1.15 had that tf1clip does not serve (no package here to declare it): the successor, or why
    # there is none.
    "tf.contrib.ffmpeg": ("tf.audio.decode_wav / encode_wav, or tensorflow-io's audio "
        "ops (the FFmpeg ops were removed)"),
    "tf.contrib.remote_fused_graph": ("no successor: remote fused-graph execution (Hexagon DSP) "
        "was removed from TensorFlow"),
    "tf.contrib.rpc": ("no successor op: call the gRPC service from Python "
        "(tf.py_function) or outside the graph"),
    "tf.contrib.stat_summarizer": "tf.profiler.experimental and TensorBoard's profiler",
    "tf.contrib": "no maintained replacement",
    "tf.contrib.all_reduce": "tf.distribute (MirroredStrategy's cross-device ops)",
    "tf.contrib.boosted_trees": "TensorFlow Decision Forests (tensorflow-decision-forests)",
    "tf.contrib.cloud": "tf.io.gfile with gs:// paths",
    "tf.contrib.decision_trees": "TensorFlow Decision Forests (tensorflow-decision-forests)",
    "tf.contrib.gan": "TF-GAN (the tensorflow-gan package)",
    "tf.contrib.nccl": "tf.distribute.NcclAllReduce",
    "tf.contrib.text": "tensorflow-text",
}


class ContribNotProvidedError(ImportError):
  """A `tf.contrib` name that tf1clip does not provide; raised where the script first uses it.

  Attributes:
    symbol: the dotted name, spelled "tf.contrib...." whatever the script wrote.
  """

  def __init__(self, symbol):
    self.symbol = normalize(symbol)
    # Raised because the lookup failed: never "is provided", even inside a package served whole (slim).
    super().__init__(explain(self.symbol, missing=True), name=self.symbol)

  def __reduce__(self):  # pickle (multiprocessing) must rebuild it from the symbol, not the message
    return type(self), (self.symbol,)


def normalize(name):
  """Spells a contrib name as "tf.contrib.<...>" ("tensorflow.contrib.rnn" -> "tf.contrib.rnn")."""
  name = name.strip()
  for prefix in ("tensorflow.contrib", "tf1clip.contrib", "contrib"):
    if name == prefix or name.startswith(prefix + "."):
      return "tf.contrib" + name[len(prefix):]
  return name


def is_provided(name):
  """True when `name` (a dotted contrib name, or a served submodule) is served by tf1clip (read from the index)."""
  name = normalize(name)
  if name == "tf.contrib":
    return True
  record = index().get(name)
  if record is not None:
    return record.status != NOT_SERVED_STATUS
  whole = _whole_package_of(name)
  return whole is not None


# Modules whose TF 1.15 names were another contrib module's (leaked by TF 1.15's imports): tf1clip serves them
# from that module (contrib.slim's LEAKED_MODULES is read from here), and a name there has that module's advice
# and documented signature differences. "tf.contrib.slim" itself: the names slim leaked from contrib.layers.
MODULE_ALIASES = {
    "tf.contrib.grid_rnn.layers": "tf.contrib.layers",
    "tf.contrib.grid_rnn.rnn": "tf.contrib.rnn",
    "tf.contrib.specs.layers": "tf.contrib.layers",
    "tf.contrib.slim": "tf.contrib.layers",
    "tf.contrib.slim.contrib_framework": "tf.contrib.framework",
    "tf.contrib.slim.contrib_variables": "tf.contrib.framework",
    "tf.contrib.slim.checkpoint_utils": "tf.contrib.framework",
    "tf.contrib.slim.metric_ops": "tf.contrib.metrics",
    "tf.contrib.slim.loss_ops": "tf.contrib.losses",
    "tf.contrib.slim.lookup": "tf.contrib.lookup",
    "tf.contrib.slim.fc": "tf.contrib.layers.feature_column",
    "tf.contrib.slim.feature_column": "tf.contrib.layers.feature_column",
    "tf.contrib.slim.feature_column_ops": "tf.contrib.layers",
    "tf.contrib.slim.embedding_ops": "tf.contrib.layers",
    "tf.contrib.slim.encoders": "tf.contrib.layers",
    "tf.contrib.slim.contrib_sparse_ops": "tf.contrib.layers",
    "tf.contrib.slim.target_column": "tf.contrib.layers.target_column",
    "tf.contrib.slim.sparse_feature_cross_op": "tf.contrib.layers.sparse_feature_cross_op",
    "tf.contrib.slim.loader": "tf.contrib.util.loader",
}


def canonical(name):
  """The name a leaked alias stands for ("tf.contrib.slim.metric_ops.auc" -> "tf.contrib.metrics.auc")."""
  name = normalize(name)
  parts = name.split(".")
  for end in range(len(parts) - 1, 2, -1):
    module = ".".join(parts[:end])
    if module in MODULE_ALIASES:
      return ".".join([MODULE_ALIASES[module]] + parts[end:])
  return name


def signature_difference(name):
  """Why a served name's parameters differ from TF 1.15's (SIGNATURE_DIFFERENCES, through aliases), or None."""
  for candidate in dict.fromkeys((normalize(name), canonical(name))):
    record = index().get(candidate)
    if record is not None and record.difference:
      return record.difference
  return None


def replacement(name):
  """What to use instead of an unsupported contrib name: the longest matching UNSUPPORTED prefix, of the name or of a
  name TF 1.15 served as the same object (`tf.contrib.slim.DataFrameColumn` gets `tf.contrib.layers.feature_column`'s
  advice, not slim's)."""
  name = normalize(name)
  candidates = [name] + [n for n in _same_object_names(name) if n != name]
  best, best_length = None, 2
  for candidate in candidates:
    parts = candidate.split(".")
    for end in range(len(parts), best_length, -1):
      advice = _declared_advice(".".join(parts[:end]))
      if advice is not None:
        best, best_length = advice, end
        break
  if best is not None:
    return best
  if canonical(name) != name and tf115.has(name):
    return replacement(canonical(name))
  return NO_REPLACEMENT


def _same_object_names(name):
  """The names TF 1.15 served as the same object as `name` (the inventory's same_as column), `name` included."""
  entry = tf115.entries().get(name)
  if entry is None:
    return [name]
  return tf115.same_object_groups().get(entry.same_as or name, [name])


def explain(name, missing=False):
  """The one sentence `tf1clip run` raises and `tf1clip check` prints for a contrib name.

  Args:
    name: a dotted name such as "tf.contrib.tpu.TPUEstimator" (or "tensorflow.contrib...").
    missing: the name was looked up and is not there (the error's case): skip the "provided" answers
      the table would give for a package served whole.

  Returns:
    "tf.contrib.rnn.BasicLSTMCell is provided by tf1clip (from ...)" for provided names, else
    "tf.contrib.tpu.TPUEstimator is not provided by tf1clip; use instead: ...".
  """
  name = normalize(name)
  record = index().get(name)
  if record is not None and record.status != NOT_SERVED_STATUS and not missing:
    return "%s is provided by tf1clip (from %s)" % (name, record.origin)
  parts = name.split(".")
  whole = _whole_package_of(name) if record is None else None
  if whole is not None and not missing:
    return "%s is provided by tf1clip (from %s)" % (name, _below_whole(whole, name))
  if record is not None and record.status == NOT_SERVED_STATUS and record.advice:
    return "%s is not provided by tf1clip; use instead: %s" % (name, record.advice)
  if len(parts) >= 3 and parts[:2] == ["tf", "contrib"] and parts[2] not in TF115_SUBMODULES:
    return ("%s is not provided by tf1clip (TensorFlow 1.15 had no tf.contrib.%s either)"
            % (name, parts[2]))
  parent = ".".join(parts[:-1])
  if len(parts) >= 4 and not tf115.has(name) and tf115.kind_of(parent) == "module":
    # TF 1.15's public API had no such name (it moved earlier, or never existed): say so, and keep
    # the advice the table has for it or its module.
    module_path = "tensorflow." + parent[len("tf."):]
    if module_paths.pair(module_path, parts[-1]) is not None:  # TF 1.15's module had it, but not as a public name
      message = ("%s is not provided by tf1clip (TensorFlow 1.15 had it in the module %s, not in its public API)"
                 % (name, module_path))
    else:
      message = ("%s is not provided by tf1clip (TensorFlow 1.15's %s had no public %s either)"
                 % (name, parent, parts[-1]))
    advice = replacement(name)
    if advice != NO_REPLACEMENT:
      message += "; use instead: " + advice
    return message
  return "%s is not provided by tf1clip; use instead: %s" % (name, replacement(name))


class UnsupportedModule(types.ModuleType):
  """Stands for an unsupported `tf.contrib.<name>` so the error can name the whole dotted path.

  Touching any public attribute raises ContribNotProvidedError("tf.contrib.<name>.<attr>");
  calling it raises for "tf.contrib.<name>". Dunder lookups raise AttributeError so importlib,
  pickle and introspection treat it as an ordinary (empty) module.
  """

  def __init__(self, symbol):
    super().__init__(normalize(symbol), explain(symbol))
    self.__dict__["_symbol"] = normalize(symbol)

  def __getattr__(self, attr):
    if attr.startswith("__"):
      raise AttributeError(attr)
    return deep_module(self._symbol, attr)

  def __call__(self, *args, **kwargs):
    raise ContribNotProvidedError(self._symbol)

  def __repr__(self):
    return "<tf1clip stand-in for %s: not provided>" % self._symbol


def unsupported_module(symbol):
  """The stand-in module for an unsupported contrib submodule (e.g. "tf.contrib.tpu")."""
  return UnsupportedModule(symbol)


def resolve(source):
  """The object at "package.module:attr.path" (tf-slim's shim installed first for tf_slim).

  Args:
    source: "package.module:attr.path"; an empty attribute path means the module itself. tf-slim and
      tensorflow-estimator get their shims first.

  Returns:
    The object.
  """
  import importlib  # pylint: disable=import-outside-toplevel
  module_name, _, path = source.partition(":")
  obj = importlib.import_module(module_name)  # tf-slim / tensorflow-estimator: shimmed by the import hook
  for attr in filter(None, path.split(".")):
    obj = getattr(obj, attr)
  return obj


# Set by compat.paths when it is imported (the importer and the facade import it): serves TF 1.15's module paths
# below a contrib module. A hook, not an import: compat depends on contrib, not the other way round.
PATH_SERVER = None


def mirror_getattr(module_name):
  """The `__getattr__` of a package of ours at a TF 1.15 path below a contrib module (`tf1clip.contrib.layers.
  python.layers`, which holds some of that path's files): the names TF 1.15's module had there that the package
  does not define, as compat.paths serves them (`import tensorflow.contrib.layers.python.layers as m` walks by
  attribute into this package, and `m.batch_norm` must be tf.contrib.layers.batch_norm)."""
  path = "tensorflow." + module_name[len("tf1clip."):]

  def __getattr__(attr):  # pylint: disable=invalid-name
    if attr.startswith("__") or PATH_SERVER is None:
      raise AttributeError("module %r has no attribute %r" % (module_name, attr))
    import importlib.util  # pylint: disable=import-outside-toplevel
    if importlib.util.find_spec(module_name + "." + attr) is not None:
      # our own submodule, not imported yet (`from package import submodule` asks here first)
      return importlib.import_module(module_name + "." + attr)
    found = PATH_SERVER(path, attr)
    if found is None:
      raise AttributeError("module %r has no attribute %r" % (module_name, attr))
    return found

  return __getattr__


def deep_module(module_symbol, attr, module_name=None):
  """`tf.contrib.X.<attr>` that the package does not serve itself: where TF 1.15 had the module
  `tensorflow.contrib.X.<attr>` (`.python`), that path's module as compat.paths serves it (so that `import
  tensorflow.contrib.X.python.ops as m` walks to it); a name TF 1.15's module had (outside the index), what
  compat.paths' rules serve for it (its home module, TensorFlow 2.21's or tf-slim's module); else the
  ContribNotProvidedError naming it."""
  declared = vars(sys.modules[module_name]).get("NOT_SERVED") or {} if module_name in sys.modules else {}
  if PATH_SERVER is None or attr in declared or normalize(module_symbol) + "." + attr in _indexed_names():
    # a public TF 1.15 name: the catalog's own verdict and advice stand (the package serves it or declares why not)
    raise ContribNotProvidedError(module_symbol + "." + attr)
  # TF 1.15's path of this module: its file's (tf1clip.contrib.X... mirrors tensorflow.contrib.X...), else its name's.
  module_path = "tensorflow." + normalize(module_name or module_symbol)[len("tf."):]
  found = PATH_SERVER(module_path, attr)
  if found is None:
    raise ContribNotProvidedError(module_symbol + "." + attr)
  return found


# --- The index: what every TF 1.15 tf.contrib name is under tf1clip, collected from the packages -------------------
#
# Each contrib package declares what it serves beside its code: its public attributes are the served names (real
# imports), `NOT_SERVED` maps a TF 1.15 name of the module that tf1clip does not serve to what to use instead,
# `SIGNATURE_DIFFERENCES` a served name whose parameters differ from TF 1.15's to why, `SUCCESSOR` says what replaced
# the whole module in TF 2, and `WHOLE` names a library package served whole (slim: every name tf-slim has).
# `collect()` imports every package and writes what it finds, for every name of TF 1.15's inventory (tf115/api.tsv),
# to catalog.tsv; `tf1clip check`, `explain`, docs/contrib.md and the tests read that file without importing
# TensorFlow. tests/contrib/test_catalog_index.py fails when it is stale: `make catalog` writes it again.


INDEX_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalog.tsv")
SERVED_STATUS, WHOLE_STATUS, NOT_SERVED_STATUS = "served", "whole", "not served"
NO_REPLACEMENT = "no maintained replacement"

Record = collections.namedtuple("Record", "name status origin advice difference alias")
Record.__doc__ = """One TF 1.15 contrib name as tf1clip serves it.

status: "served", "whole" (a module served as a whole library package: every name the library has below it), or
"not served". origin: where the served object comes from ("tf-slim 1.1.0: tf_slim.layers.layers.conv2d").
advice: what to use instead (a name tf1clip does not serve) or what replaced the module in TF 2 (a served module).
difference: why its parameters differ from TF 1.15's, if they do. alias: a public TF name outside tf.contrib that is
the same object on TensorFlow 2.21 (what `tf1clip upgrade` writes instead), if any.
"""

_INDEX_HEADER = "# name\tstatus\torigin\tadvice\tdifference\talias  (written by `make catalog`: python -m tf1clip.contrib --write)"


@functools.lru_cache(maxsize=None)
def index():
  """{contrib name: Record} from catalog.tsv (no TensorFlow import)."""
  found = {}
  if not os.path.exists(INDEX_FILE):
    return found
  with open(INDEX_FILE, encoding="utf-8") as f:
    for line in f:
      if line.startswith("#") or not line.strip():
        continue
      fields = (line.rstrip("\n").split("\t") + [""] * 6)[:6]
      found[fields[0]] = Record(*fields)
  return found


@functools.lru_cache(maxsize=None)
def _indexed_names():
  return frozenset(index())


def provided_names():
  """The contrib names tf1clip serves, as in the index (modules included; names below a whole package are not)."""
  return [name for name, record in index().items() if record.status != NOT_SERVED_STATUS]


def origin(name):
  """Where the object tf1clip serves for `name` comes from, or None when it is not served."""
  name = normalize(name)
  record = index().get(name)
  if record is not None:
    return record.origin if record.status != NOT_SERVED_STATUS else None
  whole = _whole_package_of(name)
  return _below_whole(whole, name) if whole is not None else None


def _below_whole(whole, name):
  """"tf-slim 1.1.0: tf_slim.nets.resnet_v1" for a name below a whole package's record ("tf.contrib.slim")."""
  label, _, package = whole.origin.partition(": package ")
  return "%s: %s" % (label, ".".join([package] + name.split(".")[len(whole.name.split(".")):]))


def tf_alias(name):
  """A public TF name outside tf.contrib that is the very object tf1clip serves for `name` ("tf.nn.static_rnn"), or
  None."""
  record = index().get(normalize(name))
  return record.alias or None if record is not None else None


def _whole_package_of(name):
  """The index record of the whole-package module `name` lies below, unless the index lists `name` itself."""
  records = index()
  if name in records:
    return None
  parts = name.split(".")
  for end in range(len(parts) - 1, 2, -1):
    record = records.get(".".join(parts[:end]))
    if record is not None:
      return record if record.status == WHOLE_STATUS else None
  return None


def _package_of(name):
  """The loaded tf1clip module that serves the contrib module `name`, or None ("tf.contrib.rnn" -> tf1clip.contrib.rnn).

  A module whose file is at TF 1.15's path rather than at its public name (`tf.contrib.layers.feature_column` is
  tf1clip.contrib.layers.python.layers.feature_column) is found as its package's attribute.
  """
  if not name.startswith("tf.contrib."):
    return None
  module = sys.modules.get("tf1clip" + name[len("tf"):])
  parent = _package_of(name.rpartition(".")[0]) if module is None and name.count(".") > 2 else None
  if parent is not None:  # its own submodule, not another package it imports (tf.contrib.grid_rnn.layers)
    attr = vars(parent).get(name.rpartition(".")[2])
    if isinstance(attr, types.ModuleType) and attr.__name__.startswith(parent.__name__ + "."):
      module = attr
  return module


def _declaration(module, attr, default=None):
  """A declaration a contrib module makes (NOT_SERVED, SUCCESSOR, ...), read from its namespace: a module's
  `__getattr__` would answer a missing one with ContribNotProvidedError."""
  return vars(module).get(attr, default) if module is not None else default


def _declared_advice(name):
  """What to use instead of `name` (a contrib name or module), as declared: the live package's NOT_SERVED /
  SUCCESSOR, else the index, else the table of modules tf1clip does not serve."""
  module, _, leaf = name.rpartition(".")
  package = _package_of(module)
  if leaf in _declaration(package, "NOT_SERVED", {}):
    return package.NOT_SERVED[leaf]
  successor = _declaration(_package_of(name), "SUCCESSOR")
  if successor:
    return successor
  record = index().get(name)
  if record is not None and record.advice:
    return record.advice
  return UNSUPPORTED.get(name)


def module_getattr(module_name, lazy=None, symbol=None, delegate=None):
  """The module-level `__getattr__` of a contrib package or module (`__getattr__ = module_getattr(__name__)`).

  Args:
    module_name: the module's `__name__` ("tf1clip.contrib.rnn"); errors name it as "tf.contrib.rnn.<attr>".
    symbol: the TF 1.15 name errors use when it is not the module's path (a module at TF 1.15's file path that
      serves TF 1.15's public alias: "tf.contrib.specs.specs_lib" for tf1clip.contrib.specs.python.specs_lib).
    delegate: a module that answers every other public name (imported on first use): TF 1.15's submodules of
      contrib.layers reached the whole package's names (`tf.contrib.layers.target_column.fully_connected`), and their
      package imports them, so they look names up in it only when asked.
    lazy: optional {attr: callable returning the object}, for the rare name whose import must wait for its first
      use (a cycle, or a heavy library few users of the package touch). The value is kept in the module.

  Returns:
    A `__getattr__(attr)` that serves `lazy` names and raises ContribNotProvidedError, with the package's declared
    reason (NOT_SERVED) or the module's successor, for every other public name.
  """
  lazy = dict(lazy or {})
  symbol = symbol or normalize(module_name)

  def __getattr__(attr):  # pylint: disable=invalid-name
    if attr in lazy:
      value = lazy[attr]()
      setattr(sys.modules[module_name], attr, value)
      return value
    if attr.startswith("__"):
      raise AttributeError("module %r has no attribute %r" % (module_name, attr))
    if delegate is not None:
      import importlib  # pylint: disable=import-outside-toplevel
      return getattr(importlib.import_module(delegate), attr)
    return deep_module(symbol, attr, module_name)

  return __getattr__


_LIBRARIES = (  # top-level package -> (what to call it, its distribution for the version)
    ("tf1clip", "tf1clip's own code", None),
    ("tf_slim", "tf-slim", "tf-slim"),
    ("tensorflow_estimator", "tensorflow-estimator", "tensorflow-estimator"),
    ("tensorflow_probability", "tensorflow-probability", "tensorflow-probability"),
    ("tf_keras", "tf-keras", "tf-keras"),
    ("tensorboard", "TensorBoard", "tensorboard"),
    ("keras", "Keras", "keras"),
    ("tensorflow", "TensorFlow", "tensorflow"),
)


def _library_label(module_name):
  from importlib import metadata  # pylint: disable=import-outside-toplevel
  root = module_name.split(".")[0]
  for package, label, distribution in _LIBRARIES:
    if root == package:
      if distribution:
        try:
          label += " " + metadata.version(distribution)
        except metadata.PackageNotFoundError:
          pass
      return label
  return root


def describe_origin(obj, holder):
  """"<library>: <module>.<name>" for a served object (`holder`: the module it was found in, for plain values)."""
  if isinstance(obj, types.ModuleType):
    return "%s: module %s" % (_library_label(obj.__name__), obj.__name__)
  module = getattr(obj, "__module__", None) if isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType)) \
      or callable(obj) else None
  if not isinstance(module, str) or not module:
    return "%s: a value of %s" % (_library_label(holder), holder)
  qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
  return "%s: %s.%s" % (_library_label(module), module, qualname)


def _contrib_modules():
  """TF 1.15's tf.contrib names of kind module, shallow first."""
  return sorted((name for name, entry in tf115.entries().items()
                 if name.startswith("tf.contrib.") and entry.kind == "module"), key=lambda n: (n.count("."), n))


def collect():
  """Every TF 1.15 tf.contrib name as tf1clip serves it now: a list of Records, in the inventory's order.

  Imports TensorFlow and every contrib package (and applies the shims contrib needs, as the facade does).
  """
  import importlib  # pylint: disable=import-outside-toplevel
  shims.apply("graph_editor")
  shims.apply("contrib_autograph")
  contrib = importlib.import_module("tf1clip.contrib")
  tf_v1 = importlib.import_module("tensorflow").compat.v1
  inventory = tf115.entries()
  groups = tf115.same_object_groups()
  records = []

  def lookup(root, parts):
    obj = root
    for part in parts:
      obj = getattr(obj, part)
    return obj

  for name, entry in inventory.items():
    if not name.startswith("tf.contrib.") or entry.kind == "import-error":
      continue
    parts = name.split(".")
    module_name, _, leaf = name.rpartition(".")
    try:
      obj = lookup(contrib, parts[2:])
      found = not isinstance(obj, UnsupportedModule)
    except (ImportError, AttributeError):
      obj, found = None, False
    holder = _package_of(module_name) or contrib
    package = _package_of(name)
    whole = _declaration(package, "WHOLE")
    if found:
      status = WHOLE_STATUS if whole else SERVED_STATUS
      source = ("%s: package %s" % (_library_label(whole), whole)) if whole else describe_origin(
          obj, getattr(holder, "__name__", "tf1clip.contrib"))
      advice = _declaration(package, "SUCCESSOR") or (
          UNSUPPORTED.get(name, "") if entry.kind == "module" else "")
      difference = _declared_difference(name, holder)
      alias = ""
      # a public TF name outside contrib for the same object: TF 1.15's same-object group, else the names TensorFlow
      # 2.21 exports the object under (its tf_export record)
      exported = vars(obj).get("_tf_api_names_v1", ()) if hasattr(obj, "__dict__") else ()
      for other in [n for n in groups.get(entry.same_as or name, ()) if not n.startswith("tf.contrib.")] + [
          "tf." + n for n in exported]:
        try:
          if other.startswith("tf.") and lookup(tf_v1, other.split(".")[1:]) is obj:
            alias = other
            break
        except AttributeError:
          continue
      records.append(Record(name, status, source, advice or "", difference or "", alias))
    else:
      records.append(Record(name, NOT_SERVED_STATUS, "", replacement(name) if not _declared_advice(name)
                            else _declared_advice(name), "", ""))
  return records


def _declared_difference(name, holder):
  """A served name's declared signature difference: the SIGNATURE_DIFFERENCES of the package that serves it (or of
  the module a leaked alias stands for), else the central table of module-wide differences."""
  for candidate in dict.fromkeys((name, canonical(name))):
    module, _, leaf = candidate.rpartition(".")
    declared = _declaration(holder if candidate == name else _package_of(module), "SIGNATURE_DIFFERENCES", {})
    if leaf in declared:
      return declared[leaf]
    why = SIGNATURE_DIFFERENCES.get(candidate) or next(
        (v for k, v in SIGNATURE_DIFFERENCES.items() if k.endswith(".") and candidate.startswith(k)), None)
    if why:
      return why
  return None


def _clean(text):
  return " ".join(str(text).split())


def index_text(records):
  """catalog.tsv's text for `records`."""
  lines = [_INDEX_HEADER]
  for r in records:
    lines.append("\t".join(_clean(v) for v in r))
  return "\n".join(lines) + "\n"


def main(argv=None):
  """`python -m tf1clip.contrib [--write | --check]`: write catalog.tsv, or exit 1 when it is stale."""
  import argparse  # pylint: disable=import-outside-toplevel
  parser = argparse.ArgumentParser(prog="python -m tf1clip.contrib", description=main.__doc__)
  parser.add_argument("--write", action="store_true", help="write %s" % INDEX_FILE)
  parser.add_argument("--check", action="store_true", help="exit 1 when the file differs from the tree")
  args = parser.parse_args(argv)
  text = index_text(collect())
  current = open(INDEX_FILE, encoding="utf-8").read() if os.path.exists(INDEX_FILE) else ""
  if args.write:
    with open(INDEX_FILE, "w", encoding="utf-8") as f:
      f.write(text)
    print("wrote %s (%d names)" % (INDEX_FILE, text.count("\n") - 1))
    return 0
  if args.check:
    if text != current:
      print("%s is stale: run `make catalog`" % INDEX_FILE)
      print("".join(__import__("difflib").unified_diff(current.splitlines(True), text.splitlines(True),
                                                      "catalog.tsv", "the tree", n=0))[:4000])
      return 1
    return 0
  sys.stdout.write(text)
  return 0

