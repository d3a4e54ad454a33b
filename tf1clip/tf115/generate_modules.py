"""Write TF 1.15's module paths as data: run inside the oracle environment (Python 3.7, tensorflow 1.15.5).

    .venv-tf115/bin/python tf1clip/tf115/generate_modules.py --out tf1clip/tf115/modules.tsv.gz
    (or: make inventory, after api.tsv, which this reads; without --out the text goes to stdout)

api.tsv lists TF 1.15's public *names* (`tf.contrib.layers.batch_norm`); real TF1 code also reaches TensorFlow by
*module path* (`from tensorflow.contrib.layers.python.layers import layers`). This walks TF 1.15's package tree as
a user's `import tensorflow.<path>` saw it and writes one line a module and one line a (module, name) pair:

    module<TAB>name<TAB>kind<TAB>same_as<TAB>target<TAB>flags

Which modules: every `.py` module, package and Python extension module in tensorflow_core/{contrib, python, core,
examples, lite, tools, compiler}, under the `tensorflow.` name TF 1.15's virtual pip package gave it (TF 1.15 loads
tensorflow_core under that name; `tensorflow.python.estimator.*` are its stubs that forward to tensorflow_estimator,
so their names are tensorflow-estimator 1.15's objects, as TF 1.15 served them). Left out: test files (`*_test`:
programs bazel runs, not libraries; test *helpers* such as test_util, testing, kernel_tests' utilities stay, user
test suites import them), private modules (a path component starting with `_`: `_pywrap_tensorflow_internal`, the
generated `keras.api._v1`, whose names api.tsv has as tf.keras.*), and directories without `__init__.py` (data, not
code). Each module is imported once, in sorted order, in this one process after `import tensorflow` (as a script
does first), and all are listed after the last import; a module TF 1.15 itself fails to import gets kind
`import-error` and the error in `target`. (tests/oracle/test_module_paths.py lists a sample again in a fresh process,
where only those modules are imported, and finds the same.)

Module lines (name empty): kind `module`; same_as the public name (api.tsv) that is this module, if any
(`tensorflow.contrib.layers` is `tf.contrib.layers`); flags say how TF 1.15 let it be imported: `i` = `import a.b.c`
works, `f` = `from a.b import c` gives this module (not another object its parent binds to `c`: TF 1.15's
`from tensorflow.python import ops` gives framework.ops), `s` = `import a.b.c as d` gives it (Python 3.7 walks
the attributes from `tensorflow`), `A` = the module defines `__all__` (so `from a.b.c import *` takes the names
flagged `a`, else its public names). A module is identified by its name, not its object: TF 1.15 ran some package
__init__s twice, as tensorflow_core.X (what `from tensorflow.contrib import lookup` and `tf.contrib.lookup` give)
and as tensorflow.X (what `import tensorflow.contrib.lookup` puts in sys.modules); module_name() calls both
"tensorflow.X". Their names are the same objects but for what such an __init__ defines itself (tf2.enable/disable/
enabled, tools.graph_transforms.TransformGraph): the inventory lists sys.modules' copy.

Which names (what "public" means here): every attribute in `dir(module)` that does not start with `_`, regardless
of `__all__` (`from m import x` reaches any attribute), less the `from __future__` features every module has;
the package's submodules are among them (kind module, target the submodule). Names starting with `_` count only
(1) when `__all__` lists them, (2) in the forwarding stubs TF 1.15 marked `_HAS_DYNAMIC_ATTRIBUTES = True`
(tensorflow.python.estimator.*, tensorflow.contrib.estimator.*: they copy tensorflow_estimator's single-underscore
names on purpose; flag `d`), (3) in the backwards-compatibility stubs (docstring COMPAT_STUB_DOC: contrib.tpu's
modules, python.tpu.tpu_estimator), whose `_` names are the few they import by name on purpose ("used by tests";
flag `s`), or (4) when real TF1-era code imports them from that module: USED_PRIVATE below, each entry with the
public-code evidence docs/oracle.md lists (flag `p`). `__all__`'s names have flag `a`.

kind: module, class, function, constant (bool/int/float/complex/str/bytes/None, or a tuple/frozenset of those:
compared by value, no identity), other (any other object: a DType, a dict, a registry ...: identity counts) or
`raw-op`. same_as: `tf.<name>`, an api.tsv name that is the very same object in TF 1.15 (canonical_name()'s
choice of them; tf115.same_object_groups() has the others); else
`tensorflow.<module>:<name>`, the pair this object is "at home" in when several inventory pairs hold it (the pair in
the module that defines it, else the first sorted), empty on the home pair itself and on constants; a module-kind
name's same_as is the public name of the module it is (matched by module_name). target: for a module-kind name,
the module_name of the module it is (`tensorflow.python.framework.ops`, or `numpy`); for a raw op, the op's name.

Raw ops: an op wrapper TF generated (an object whose module is a `gen_*` module: the snake_case wrapper
`gen_array_ops.concat_v2`, its `concat_v2_eager_fallback`, the keyword-only `ConcatV2` that tf.raw_ops exports)
has kind `raw-op` and the op name (`ConcatV2`) as target, wherever it appears: in the `gen_*_ops` modules and where
they leak (contrib.quantization's `import *` of array_ops/math_ops/nn_ops copies ~700 of them into each of its
modules). They are recorded, not dropped, because real code does call gen ops by module path
(`gen_nn_ops.relu_grad`, `gen_array_ops.reverse_v2`) and TF 2.21 still has most of them; but they are one rule,
not thousands of names: a later step serves them from TF 2.21's gen module / tf.raw_ops by op name, and the
coverage tools count them apart (tools.module_coverage's raw-op column).

This file runs under Python 3.7 with only TensorFlow 1.15 and the standard library.
"""

import __future__
import gzip
import importlib
import inspect
import io
import mmap
import os
import sys
import types
import warnings

_HERE = os.path.dirname(os.path.abspath(__file__))
API_FILE = os.path.join(_HERE, "api.tsv")
AREAS = ("contrib", "python", "core", "examples", "lite", "tools", "compiler")
CONSTANT_TYPES = (bool, int, float, complex, str, bytes, type(None))
FUTURE_FEATURES = frozenset(__future__.all_feature_names)
# The docstring of TF 1.15's forwarding modules (contrib.tpu's, python.tpu.tpu_estimator): their `_` names are
# the ones they import by name from the module they forward to, on purpose ("used by tests").
COMPAT_STUB_DOC = "Stub file to maintain backwards compatibility."

# Single-underscore names real TF1-era code imports by module path and TF 1.15 had there (find_string over public
# code; the queries, and the names real code imports that TF 1.15 no longer had, are in docs/oracle.md, "The
# module-path inventory"). The generator warns about an entry TF 1.15 lacks and leaves it out.
USED_PRIVATE = {
    "tensorflow.python.ops.rnn_cell_impl": (
        "_zero_state_tensors", "_concat", "_WEIGHTS_VARIABLE_NAME", "_BIAS_VARIABLE_NAME"),
    "tensorflow.contrib.rnn.python.ops.core_rnn_cell": ("_linear", "_Linear"),
    "tensorflow.python.ops.rnn": (
        "_transpose_batch_time", "_rnn_step", "_dynamic_rnn_loop", "_best_effort_input_batch_size",
        "_should_cache", "_is_keras_rnn_cell", "_infer_state_dtype", "_reverse_seq"),
    "tensorflow.contrib.seq2seq.python.ops.attention_wrapper": (
        "_BaseAttentionMechanism", "_BaseMonotonicAttentionMechanism", "_bahdanau_score", "_maybe_mask_score",
        "_prepare_memory", "_compute_attention"),
    "tensorflow.contrib.seq2seq.python.ops.beam_search_decoder": (
        "_beam_search_step", "_mask_probs", "_get_scores", "_tensor_gather_helper", "_maybe_tensor_gather_helper"),
    "tensorflow.contrib.seq2seq.python.ops.helper": ("_unstack_ta", "_transpose_batch_time"),
    "tensorflow.contrib.seq2seq.python.ops.decoder": ("_transpose_batch_time",),
    "tensorflow.contrib.layers.python.layers.layers": ("_build_variable_getter", "_add_variable_to_collections"),
    "tensorflow.python.ops.gradients_impl": ("_hessian_vector_product",),
    "tensorflow.python.ops.nn_impl": ("_compute_sampled_logits",),
    "tensorflow.python.ops.init_ops": ("_compute_fans",),
    "tensorflow.python.ops.nn_ops": ("_get_noise_shape", "_get_sequence", "_flatten_outer_dims"),
    "tensorflow.python.ops.math_ops": ("_bucketize", "_ReductionDims", "_truediv_python3"),
    "tensorflow.python.ops.array_ops": ("_all_dimensions", "_constant_if_small"),
    "tensorflow.python.ops.variable_scope": (
        "_pure_variable_scope", "_get_default_variable_store", "_VariableStore", "_VariableScopeStore",
        "_VARSCOPESTORE_KEY"),
    "tensorflow.python.framework.ops": (
        "_get_graph_from_inputs", "_EagerTensorBase", "_DefaultStack", "_run_using_default_session",
        "_DTYPES_INTERN_TABLE"),
    "tensorflow.python.training.optimizer": (
        "_deduplicate_indexed_slices", "_OptimizableVariable", "_get_processor", "_TensorProcessor",
        "_RefVariableProcessor", "_DenseResourceVariableProcessor"),
    "tensorflow.python.ops.resource_variable_ops": (
        "_maybe_set_handle_data", "_handle_graph", "_from_proto_fn", "_dense_var_to_tensor"),
    "tensorflow.python.keras.backend": (
        "_get_available_gpus", "_to_tensor", "_broadcast_normalize_batch_in_training",
        "_regular_normalize_batch_in_training", "_LOCAL_DEVICES"),
    "tensorflow.python.layers.base": ("_add_elements_to_collection",),
    "tensorflow.python.ops.control_flow_ops": ("_summarize_eager",),
}


def candidates(root):
  """[(dotted name, reason it is left out or None)] for every module file below root/AREAS, sorted."""
  found = []
  for area in AREAS:
    for folder, subdirs, files in os.walk(os.path.join(root, area)):
      subdirs[:] = sorted(d for d in subdirs if d != "__pycache__")
      package = "tensorflow." + os.path.relpath(folder, root).replace(os.sep, ".")
      if "__init__.py" not in files:
        subdirs[:] = []  # not a package: neither it nor what is below it imports as TF 1.15 code
        continue
      found.append(package)
      for f in sorted(files):
        if f.endswith(".py") and f != "__init__.py":
          found.append(package + "." + f[:-3])
        elif f.endswith(".so") and _is_extension_module(os.path.join(folder, f)):
          found.append(package + "." + f.split(".")[0])
  return sorted(n for n in found if not excluded(n))


def excluded(name):
  parts = name.split(".")
  return parts[-1].endswith("_test") or any(p.startswith("_") for p in parts)


def _is_extension_module(path):
  """True for a Python extension module (it exports PyInit_<stem>), False for an op kernel library."""
  stem = os.path.basename(path).split(".")[0]
  with open(path, "rb") as f:
    with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
      return data.find(b"PyInit_" + stem.encode()) >= 0


def kind_of(obj):
  if isinstance(obj, types.ModuleType):
    return "module"
  if inspect.isclass(obj):
    return "class"
  if callable(obj):
    return "function"
  if _is_constant(obj):
    return "constant"
  return "other"


def _is_constant(obj):
  if isinstance(obj, (tuple, frozenset)):
    return all(_is_constant(o) for o in obj)
  return isinstance(obj, CONSTANT_TYPES)


def module_name(module):
  """A module's name as a user imports it: TF 1.15 loaded some package __init__s twice, once as tensorflow_core.X
  (what `from tensorflow.contrib import lookup` gives) and once as tensorflow.X (what `import tensorflow.contrib.lookup`
  puts in sys.modules); both are "tensorflow.X" here."""
  name = getattr(module, "__name__", None) or ""
  if name == "tensorflow_core" or name.startswith("tensorflow_core."):
    return "tensorflow" + name[len("tensorflow_core"):]
  return name


def public_objects(tf):
  """{key: public name} for TF 1.15's public objects that identity means something for, and the objects.

  key is id(obj), or for a module its module_name (its two copies are one module to a user). Of an object's
  api.tsv names the one written is canonical_name()'s choice.
  """
  names_of_key, keep = {}, []
  with open(API_FILE, encoding="utf-8") as f:
    names = sorted(line.split("\t", 1)[0] for line in f if not line.startswith("#") and line.strip())
  for dotted in names:
    obj = tf
    try:
      for part in dotted.split(".")[1:]:
        obj = getattr(obj, part)
    except Exception:  # pylint: disable=broad-except
      continue
    if _is_constant(obj):
      continue
    keep.append(obj)
    names_of_key.setdefault(_key(obj), (obj, []))[1].append(dotted)
  return {key: canonical_name(obj, dotted) for key, (obj, dotted) in names_of_key.items()}, keep


def canonical_name(obj, names):
  """The public name to write for an object TF 1.15 served under `names` (any of them is the same object).

  A module's own name first (tensorflow.contrib.layers is tf.contrib.layers, not grid_rnn's leaked
  tf.contrib.grid_rnn.layers); else a name in the package that defines the object (batch_norm, defined in
  contrib.layers, is tf.contrib.layers.batch_norm, not tf.contrib.grid_rnn.layers.batch_norm); else one outside
  tf.contrib (tf.nn.rnn_cell.LSTMCell before tf.contrib.rnn.LSTMCell); then the shortest; then the first sorted.
  """
  home = module_name(obj) if isinstance(obj, types.ModuleType) else _defining_module(obj)
  home = home.replace("tensorflow_core.", "tensorflow.", 1)

  def rank(dotted):
    package = "tensorflow." + dotted[len("tf."):]
    if not isinstance(obj, types.ModuleType):
      package = package.rsplit(".", 1)[0]
    own = home == package if isinstance(obj, types.ModuleType) else (home + ".").startswith(package + ".")
    return (not own, dotted.startswith("tf.contrib."), dotted.count("."), dotted)

  return min(names, key=rank)


def _key(obj):
  return module_name(obj) if isinstance(obj, types.ModuleType) else id(obj)


def raw_op_names(module, tf_decorator):
  """{python name: op name} for the op wrappers of a generated `gen_*` module."""
  ops = {}
  for name, obj in vars(module).items():
    if not callable(obj) or name.startswith("_") or not name[:1].isupper():
      continue
    # The keyword-only `ConcatV2` wraps a function that calls the snake_case wrapper (`concat_v2`).
    _, inner = tf_decorator.unwrap(obj)
    ops[name] = name
    for called in getattr(getattr(inner, "__code__", None), "co_names", ()):
      if called in vars(module) and not called[:1].isupper():
        ops.setdefault(called, name)
        ops.setdefault(called + "_eager_fallback", name)
  return ops


def _defining_module(obj):
  module = getattr(obj, "__module__", None)
  return module if isinstance(module, str) else ""


def import_forms(name, module):
  """The flags of how TF 1.15 let `name` be imported (see the module docstring), from the statements themselves."""
  flags = "i"
  parent, _, leaf = name.rpartition(".")
  if _is_module_named(_run("from %s import %s as found" % (parent, leaf)), name):
    flags += "f"
  if _is_module_named(_run("import %s as found" % name), name):
    flags += "s"
  if isinstance(getattr(module, "__all__", None), (list, tuple)):
    flags += "A"
  return flags


def _run(statement):
  """What `statement` binds to `found`, or None if it raises."""
  namespace = {}
  try:
    exec(statement, namespace)  # pylint: disable=exec-used
  except Exception:  # pylint: disable=broad-except
    return None
  return namespace.get("found")


def _is_module_named(obj, name):
  return isinstance(obj, types.ModuleType) and module_name(obj) == name


def names_of(name, module):
  """[(attribute, flags)] of a module (see "Which names" in the module docstring)."""
  try:
    attributes = set(dir(module))
  except Exception:  # pylint: disable=broad-except
    attributes = set(vars(module))
  exported = getattr(module, "__all__", None)
  exported = set(exported) if isinstance(exported, (list, tuple)) else set()
  dynamic = vars(module).get("_HAS_DYNAMIC_ATTRIBUTES") is True
  stub = (getattr(module, "__doc__", None) or "").strip() == COMPAT_STUB_DOC
  chosen = []
  for attr in sorted(attributes):
    if attr in FUTURE_FEATURES and isinstance(getattr(module, attr, None), __future__._Feature):  # pylint: disable=protected-access
      continue
    private = attr.startswith("_")
    flags = "a" if attr in exported else ""
    if private and attr.startswith("__"):
      if not flags:
        continue
    elif private and not flags:
      if attr in USED_PRIVATE.get(name, ()):
        flags = "p"
      elif dynamic:
        flags = "d"
      elif stub:
        flags = "s"
      else:
        continue
    chosen.append((attr, flags))
  return chosen


def start_tensorflow():
  """Import TF 1.15 as a script does first; returns (tf, tf_decorator, tensorflow_core's folder)."""
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  warnings.filterwarnings("ignore")
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  import tensorflow_core  # pylint: disable=g-import-not-at-top
  from tensorflow.python.util import tf_decorator  # pylint: disable=g-import-not-at-top
  tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
  assert tf.__version__.startswith("1.15"), "run me with TensorFlow 1.15, not %s" % tf.__version__
  sys.argv = ["python"]  # a module that parses flags on import (pip_package.setup) must not see ours
  return tf, tf_decorator, os.path.dirname(tensorflow_core.__file__)


def import_each(names, root):
  """({name: module} of the names that import, {name: error text} of the rest), imported in order."""
  modules, errors = {}, {}
  site_packages = os.path.dirname(root) + os.sep
  for name in names:
    try:
      importlib.import_module(name)
      modules[name] = sys.modules[name]
    except BaseException as e:  # pylint: disable=broad-except  # a module's SystemExit too
      message = (str(e).splitlines() or [""])[0].replace(site_packages, "")
      errors[name] = "%s: %s" % (type(e).__name__, message[:200])
  return modules, errors


def rows_of(modules, errors, tf_decorator):
  """[(module, name, kind, object or None, target, flags)]: the module lines and their names' lines."""
  rows = []
  raw_ops = {}  # gen module -> raw_op_names(); any gen module a name comes from, listed here or not

  def op_of(obj, attr, home):
    if not home.rsplit(".", 1)[-1].startswith("gen_") or home not in sys.modules:
      return None
    if home not in raw_ops:
      raw_ops[home] = raw_op_names(sys.modules[home], tf_decorator)
    return raw_ops[home].get(getattr(obj, "__name__", attr), raw_ops[home].get(attr))

  for name, error in errors.items():
    rows.append((name, "", "import-error", None, error.replace("\t", " "), ""))
  for name, module in sorted(modules.items()):
    rows.append((name, "", "module", module, "", import_forms(name, module)))
    for attr, flags in names_of(name, module):
      try:
        obj = getattr(module, attr)
      except Exception as e:  # pylint: disable=broad-except
        rows.append((name, attr, "import-error", None, "%s: %s" % (type(e).__name__, str(e)[:120]), flags))
        continue
      kind, target = kind_of(obj), ""
      home = _defining_module(obj)
      if kind == "module":
        target = module_name(obj)
      elif kind in ("class", "function") and op_of(obj, attr, home):
        kind, target = "raw-op", op_of(obj, attr, home)
      rows.append((name, attr, kind, obj, target, flags))
  return rows


def main(argv):
  out_path = argv[argv.index("--out") + 1] if "--out" in argv else None
  tf, tf_decorator, root = start_tensorflow()
  modules, errors = import_each(candidates(root), root)
  public, _keep = public_objects(tf)  # _keep holds the objects, so that no id is reused
  rows = rows_of(modules, errors, tf_decorator)
  out = sys.stdout
  if out_path:
    # gzip with no time in its header: the same inventory gives the same bytes
    out = io.TextIOWrapper(gzip.GzipFile(out_path, "wb", compresslevel=9, mtime=0), encoding="utf-8", newline="\n")
  out.write("# TensorFlow %s module paths (tf1clip/tf115/generate_modules.py): "
            "module\tname\tkind\tsame_as\ttarget\tflags\n" % tf.__version__)
  for row in with_same_as(rows, public):
    out.write("\t".join(row).replace("\n", " ") + "\n")
  if out_path:
    out.close()
  missing = sorted("%s:%s" % (m, n) for m, names in USED_PRIVATE.items() for n in names
                   if m in modules and not hasattr(modules[m], n))
  if missing:
    sys.stderr.write("USED_PRIVATE names TF 1.15 did not have (left out): %s\n" % ", ".join(missing))


def with_same_as(rows, public):
  """The rows as text columns, with same_as filled in (see the module docstring)."""
  pairs = {}  # id -> [(module, name)] over the non-constant pairs
  for module, attr, kind, obj, _, _ in rows:
    if attr and kind not in ("module", "constant", "import-error"):
      pairs.setdefault(id(obj), []).append((module, attr))
  home = {}
  for key, where in pairs.items():
    if len(where) > 1:
      home[key] = _home_of(where)
  out = []
  for module, attr, kind, obj, target, flags in rows:
    same_as = ""
    if kind not in ("constant", "import-error") and obj is not None:
      same_as = public.get(_key(obj), "")
      if not same_as and attr and id(obj) in home and home[id(obj)] != (module, attr):
        same_as = "%s:%s" % home[id(obj)]
    out.append((module, attr, kind, same_as, target, flags))
  return out


def _home_of(where):
  """The pair an object is at home in: in the module whose __name__ its __module__ names, else the first."""
  where = sorted(where)
  for module, attr in where:
    obj = getattr(sys.modules.get(module), attr, None)
    if _defining_module(obj) == module and getattr(obj, "__name__", None) == attr:
      return module, attr
  return where[0]


if __name__ == "__main__":
  main(sys.argv[1:])
