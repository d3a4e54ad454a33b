"""Write TF 1.15's public API as data: run inside the oracle environment (Python 3.7, tensorflow 1.15.5).

    .venv-tf115/bin/python tf1clip/tf115/generate.py > tf1clip/tf115/api.tsv
    (or: make inventory)

Walks `tf.*` (every v1 submodule of TF 1.15's generated API, tf.estimator included; tf.compat.v1 and
tf.compat.v2 are left out as copies of the rest) and every `tf.contrib.<module>` with its public
submodules, and prints one line a name: `name<TAB>kind<TAB>signature<TAB>same_as`, sorted. kind is module, class,
function or constant; signature is tf115/signature.py's form for classes and functions ("" otherwise);
same_as, for a module, class or function that TF 1.15 served under more than one inventory name (the same
object: `tf.contrib.slim.metrics.streaming_auc` is `tf.contrib.metrics.streaming_auc`), is the first of those
names in sorted order (the column is left out on the first name itself and on every other line).
A contrib module that fails to import in TF 1.15 itself gets one line of kind `import-error`.

What counts as public, for contrib (TF 1.15 has no generated API there): the non-underscore attributes of
`tf.contrib.<module>` (most call `remove_undocumented`, which leaves only the documented ones), less
`from __future__` features and, in `tf.contrib.quantization` only, the ~700 generated raw-op wrappers its
`import *` of math_ops/nn_ops leaks (`tf.contrib.quantization.Abs`, ...): there only the three ops its
__init__ names (dequantize, quantize_v2, quantized_concat) count. A submodule counts only if it is a module of tensorflow.contrib (so
`slim.array_ops`, leaked from `import`s, is left out), not `python` (the implementation package) and not
`gen_*` (and, below `tf.contrib.<module>`, only a package's own submodules: `slim.optimizers.contrib_framework`
is an import alias), plus `framework.nest` (contrib.framework re-exported TensorFlow's nest on purpose). Below
`tf.contrib.<module>`, a submodule's names are its `__all__` where it has one, else what it or its own
submodules define (a package's re-exports count; names imported from elsewhere are not counted twice);
submodules are walked to three levels.

`generate.py --deprecations > tf1clip/tf115/deprecations.tsv` writes, instead, what TF 1.15 itself warned about
(the table compat.deprecations keeps a legacy run's notices to): every function and method of TF 1.15's
modules (tensorflow_core, its contrib, tensorflow_estimator) that carries TF's deprecation decorator, one line
each as `kind<TAB>qualname<TAB>module<TAB>args` with kind function, arguments or argument-values (qualname and
module as TF's warning prints them: "BasicLSTMCell.__init__", "tensorflow.python.ops.rnn_cell_impl"; args the
deprecated argument names), and every public API name whose object TF 1.15's module wrapper counted as
deprecated, as `api<TAB>tf.layers.dense<TAB><TAB>`.

This file runs under Python 3.7 with only TensorFlow 1.15 and the standard library: it imports nothing from
tf1clip except signature.py beside it, loaded by path.
"""

import __future__
import importlib.util
import inspect
import os
import re
import sys
import types
import warnings

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("tf115_signature", os.path.join(_HERE, "signature.py"))
signature = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(signature)

# Where TF 1.15 generated its v1 API modules (tf.keras and tf.estimator live outside tensorflow._api).
V1_API_PACKAGES = ("tensorflow._api.v1", "tensorflow.python.keras.api._v1",
                   "tensorflow_estimator.python.estimator.api._v1")
CORE_SKIP = ("tf.compat.v1", "tf.compat.v2", "tf.contrib")
CONTRIB_DEPTH = 3
# Re-exports of non-contrib modules that TF 1.15's contrib documented as its own.
CONTRIB_FOREIGN_MODULES = {"tf.contrib.framework.nest"}


def kind_of(obj):
  if isinstance(obj, types.ModuleType):
    return "module"
  if inspect.isclass(obj):
    return "class"
  if callable(obj):
    return "function"
  return "constant"


def sig_of(obj, kind):
  if kind in ("class", "function"):
    try:
      return signature.text(obj)
    except Exception:  # pylint: disable=broad-except
      return "?"
  return ""


def public_names(module):
  try:
    names = dir(module)
  except Exception:  # pylint: disable=broad-except
    return []
  return sorted(n for n in names if not n.startswith("_"))


def walk_core(tf, rows):
  """tf.* through the generated v1 API modules (V1_API_PACKAGES)."""
  seen = set()

  def visit(path, module):
    for name in public_names(module):
      dotted = path + "." + name
      if dotted in CORE_SKIP:
        continue
      try:
        obj = getattr(module, name)
      except Exception as e:  # pylint: disable=broad-except
        rows.append((dotted, "import-error", type(e).__name__))
        continue
      kind = kind_of(obj)
      rows.append((dotted, kind, sig_of(obj, kind)))
      if kind == "module":
        modname = getattr(obj, "__name__", "")
        if modname.startswith(V1_API_PACKAGES) and (
            modname, dotted) not in seen:
          seen.add((modname, dotted))
          visit(dotted, obj)

  visit("tf", tf)


def walk_contrib(contrib, rows):
  for name in public_names(contrib):
    dotted = "tf.contrib." + name
    try:
      module = getattr(contrib, name)
      if isinstance(module, types.ModuleType):
        public_names(module)  # a LazyLoader imports here
    except Exception as e:  # pylint: disable=broad-except
      rows.append((dotted, "import-error", "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:120])))
      continue
    if not isinstance(module, types.ModuleType):
      kind = kind_of(module)
      rows.append((dotted, kind, sig_of(module, kind)))
      continue
    rows.append((dotted, "module", ""))
    visit_contrib(dotted, module, rows, 1, [id(module)])


# module -> the generated ops it imports by name (everything else generated there is a leak)
LEAKS_RAW_OPS = {"tf.contrib.quantization": {"dequantize", "quantize_v2", "quantized_concat"}}


def _leaked(path, name, obj):
  if isinstance(obj, __future__._Feature):  # pylint: disable=protected-access
    return True
  module = getattr(obj, "__module__", None) or ""
  return (path in LEAKS_RAW_OPS and name not in LEAKS_RAW_OPS[path]
          and module.startswith("tensorflow.python.ops.gen_"))


def visit_contrib(path, module, rows, depth, stack):
  names = public_names(module)
  exported = getattr(module, "__all__", None)
  if depth > 1 and exported is not None:
    names = sorted(set(names) & set(exported))
  for name in names:
    dotted = path + "." + name
    try:
      obj = getattr(module, name)
    except Exception as e:  # pylint: disable=broad-except
      rows.append((dotted, "import-error", type(e).__name__))
      continue
    kind = kind_of(obj)
    if kind != "module":
      if _leaked(path, name, obj):
        continue
      if depth > 1 and exported is None and not (getattr(obj, "__module__", None) or "").startswith(
          module.__name__):
        continue
    if kind == "module":
      modname = getattr(obj, "__name__", "")
      leaf = modname.rsplit(".", 1)[-1]
      ours = (modname.startswith("tensorflow.contrib.") and not leaf.startswith("gen_")
              and name != "python")
      if depth > 1 and not modname.startswith(module.__name__ + "."):
        ours = False  # below the top: only the package's own submodules, not siblings it imports
      if not ours and dotted not in CONTRIB_FOREIGN_MODULES:
        continue
      rows.append((dotted, "module", ""))
      if depth < CONTRIB_DEPTH and id(obj) not in stack:
        visit_contrib(dotted, obj, rows, depth + 1, stack + [id(obj)])
      continue
    rows.append((dotted, kind, sig_of(obj, kind)))


_DEPRECATION_MARKERS = (
    ("function", re.compile(r"THIS (?:FUNCTION|CLASS) IS DEPRECATED")),
    ("arguments", re.compile(r"SOME ARGUMENTS ARE DEPRECATED: `\((.*?)\)`")),
    ("argument-values", re.compile(r"SOME ARGUMENT VALUES ARE DEPRECATED: `\((.*?)\)`")),
)
# TF 1.15 loads tensorflow_core under both names ("tensorflow.python.ops...", "tensorflow_core.python...").
DEPRECATION_MODULES = ("tensorflow.", "tensorflow_core.", "tensorflow_estimator.")


def _deprecations_of(func, tf_decorator):
  """[(kind, detail)] for the deprecation decorators around `func` (TF 1.15's tf_decorator chain)."""
  try:
    decorators, _ = tf_decorator.unwrap(func)
  except Exception:  # pylint: disable=broad-except
    return []
  found = []
  for decorator in decorators:
    doc = getattr(decorator, "decorator_doc", None) or ""
    for kind, marker in _DEPRECATION_MARKERS:
      for match in marker.finditer(doc):
        detail = ""
        if match.groups():
          detail = ",".join(sorted(a.strip().split("=")[0] for a in match.group(1).split(",") if a.strip()))
        found.append((kind, detail))
  return found


def _callables_of(module):
  """(qualname, function) for the functions a module defines and the methods of the classes it defines."""
  for obj in list(vars(module).values()):
    if getattr(obj, "__module__", None) != module.__name__:
      continue
    if inspect.isclass(obj):
      for attr in list(vars(obj).values()):
        if isinstance(attr, (staticmethod, classmethod)):
          attr = attr.__func__
        elif isinstance(attr, property):
          attr = attr.fget
        if callable(attr) and hasattr(attr, "__qualname__"):
          yield attr.__qualname__, attr
    elif callable(obj) and hasattr(obj, "__qualname__"):
      yield obj.__qualname__, obj


def deprecation_rows(rows):
  """TF 1.15's deprecated callables (by the qualname its warning prints) and deprecated public names."""
  # pylint: disable=g-import-not-at-top
  from tensorflow.python.util import module_wrapper
  from tensorflow.python.util import tf_decorator
  out = set()
  seen = set()
  for name, module in sorted(sys.modules.items()):
    if module is None or not name.startswith(DEPRECATION_MODULES) or id(module) in seen:
      continue
    seen.add(id(module))
    for qualname, func in _callables_of(module):
      for kind, detail in _deprecations_of(func, tf_decorator):
        module_name = getattr(func, "__module__", None) or name
        out.add((kind, qualname, module_name.replace("tensorflow_core.", "tensorflow.", 1), detail))
  resolved = {}
  for dotted, kind, _ in rows:
    if kind in ("class", "function"):
      resolved[dotted] = True
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  for dotted in sorted(resolved):
    obj = tf
    try:
      for part in dotted.split(".")[1:]:
        obj = getattr(obj, part)
      if module_wrapper.has_deprecation_decorator(obj):
        out.add(("api", dotted, "", ""))
    except Exception:  # pylint: disable=broad-except
      continue
  return sorted(out)


def same_as_column(tf, rows):
  """rows, with a fourth column where an earlier (sorted) inventory name is the same object: that name."""
  first = {}
  keep = []  # the objects, so that no id is reused while the table is built
  named = {}
  for dotted in sorted({row[0] for row in rows if row[1] in ("module", "class", "function")}):
    obj = tf
    try:
      for part in dotted.split(".")[1:]:
        obj = getattr(obj, part)
    except Exception:  # pylint: disable=broad-except
      continue
    keep.append(obj)
    named[dotted] = first.setdefault(id(obj), dotted)
  return [row + (named[row[0]],) if named.get(row[0], row[0]) != row[0] else row for row in rows]


def main():
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  warnings.filterwarnings("ignore")
  import tensorflow as tf  # pylint: disable=g-import-not-at-top
  tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
  assert tf.__version__.startswith("1.15"), "run me with TensorFlow 1.15, not %s" % tf.__version__
  rows = []
  walk_core(tf, rows)
  walk_contrib(tf.contrib, rows)
  out = sys.stdout
  if "--deprecations" in sys.argv[1:]:
    out.write("# TensorFlow %s deprecation warnings (tf1clip/tf115/generate.py --deprecations): "
              "kind\tname\tmodule\targs\n" % tf.__version__)
    for row in deprecation_rows(rows):
      out.write("\t".join(row) + "\n")
    return
  out.write("# TensorFlow %s public API (tf1clip/tf115/generate.py): name\tkind\tsignature\tsame_as\n"
            % tf.__version__)
  for row in same_as_column(tf, sorted(set(rows))):
    out.write("\t".join(row).replace("\n", " ") + "\n")


if __name__ == "__main__":
  main()
