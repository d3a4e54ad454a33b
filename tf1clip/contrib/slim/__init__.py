"""`tf.contrib.slim`: the maintained `tf-slim` 1.1.0 package, made to run on TensorFlow 2.21 by a shim.

Place in the data flow (DESIGN.md): TensorFlow internals <- (shim) <- tf_slim <- **contrib.slim**
<- compat (the runner serves this module as `tensorflow.contrib.slim`) <- cli.

tf-slim is TF 1.15's `tf.contrib.slim` moved to its own package. Its code reaches into TensorFlow's
private modules (`tensorflow.python.framework.ops`, `...ops.control_flow_ops`, ...), and TensorFlow
has since moved a few names out of them; tf-keras moved one module. The shim "tf_slim"
(`tf1clip.shims.tf_slim.PATCHES`, applied by `tf1clip.shims.apply("tf_slim")` when this
module or `tf_slim` is first imported through the runner) puts each moved name back where tf-slim looks
for it, pointing at the object that now lives elsewhere — the same object, so nothing is
re-implemented; an entry whose source moved again is skipped and reported by `tf1clip doctor`:

| where tf-slim looks                         | the object now                                   | what needs it |
| ---                                         | ---                                              | --- |
| module `tf_keras.legacy_tf_layers`          | `tf_keras.src.legacy_tf_layers`                  | `batch_norm` (TF's own `tensorflow.python.layers.normalization` lazily imports the old path) |
| module `tf_keras.legacy_tf_layers.normalization` | `tf_keras.src.legacy_tf_layers.normalization` | the same |
| `framework.ops.Tensor`                      | `framework.tensor.Tensor`                        | fused `batch_norm`, `dropout`/`smart_cond`, `create_train_op(gradient_multipliers=)`, `optimize_loss` |
| `framework.ops.IndexedSlices`               | `framework.indexed_slices.IndexedSlices`         | `create_train_op` multipliers/clipping, `clip_gradient_norms`, `optimize_loss` |
| `ops.array_ops.stack`, `unstack`            | `ops.array_ops_stack.stack`, `unstack`           | metrics, `tf_slim.data`, `layers` (`spatial_softmax`, ...) |
| `ops.control_flow_ops.cond`                 | `ops.cond.cond` (`tf.compat.v1.cond`)            | fused `batch_norm`, `utils.smart_cond`, metrics, `tf_slim.data` |
| `ops.control_flow_ops.case`                 | `ops.control_flow_case.case`                     | `tf_slim.data.tfexample_decoder` |
| `ops.control_flow_ops.while_loop`           | `ops.while_loop.while_loop`                      | `losses.metric_learning` |
| `ops.control_flow_ops.Assert`               | `ops.control_flow_assert.Assert`                 | `metrics.histogram_ops` |
| `ops.variable_scope.variable`               | `ops.variable_v1.VariableV1` (`tf.compat.v1.Variable`; TF 1.15 defined it as this alias) | `local_variable`, `global_variable` |

The shim only ADDS names that are missing (it never replaces an attribute or module that exists), so
TensorFlow, tf-keras and every other library see exactly what they saw before. These were all the
missing names: every `module.attr` that tf-slim 1.1.0's non-test sources read from a TensorFlow
module was checked against TensorFlow 2.21. The shim works whenever it is installed before tf-slim
runs (tf-slim reads these names at call time), so `import tf_slim` in the same process gets the
working package too.

This module re-exports `tf_slim` (`slim.conv2d`, `slim.arg_scope`, `slim.learning`, `slim.losses`,
`slim.metrics`, ...); names tf-slim loads lazily (`slim.nets`) resolve on first access. The names TF 1.15's
slim leaked from its star imports of contrib.layers and contrib.framework (`slim.real_valued_column`,
`slim.contrib_framework`, `slim.metric_ops`, `slim.fc`, ...), which tf-slim dropped, are served from the
tf1clip.contrib modules that serve them (`LEAKED_MODULES`), only where the inventory says TF 1.15 had them.
"""

import importlib

from tf1clip import tf115
from tf1clip.contrib import catalog as _catalog  # installs the hook that shims tf-slim before its first import

import tf_slim  # pylint: disable=g-import-not-at-top,wrong-import-position
from tf_slim import *  # pylint: disable=wildcard-import,unused-wildcard-import,wrong-import-position,g-import-not-at-top

# The declaration: tf.contrib.slim is the tf_slim package served whole (every name tf-slim has is served, below
# every module of it); catalog.tsv lists its TF 1.15 names once.
WHOLE = "tf_slim"

# TF 1.15's slim.metrics *was* tf.contrib.metrics (tf-slim's metrics plus confusion_matrix and the set ops).
from tf1clip.contrib import metrics  # pylint: disable=g-import-not-at-top,wrong-import-position


# TF 1.15's contrib.slim star-imported contrib.layers and contrib.framework, and with them the modules those
# imported (tf-slim dropped these): each leaked module -> the tf1clip.contrib module that serves its names
# (the same objects TF 1.15's module held; a name that module does not serve is its clear error). The table is
# catalog.MODULE_ALIASES, which also gives these names their module's advice and signature notes.
LEAKED_MODULES = {alias.rsplit(".", 1)[1]: "tf1clip.contrib" + module[len("tf.contrib"):]
                  for alias, module in _catalog.MODULE_ALIASES.items() if alias.startswith("tf.contrib.slim.")}
# ... and its top-level names: contrib.layers' first (TF 1.15's last star import), then contrib.framework's.
LEAKED_FROM = ("tf1clip.contrib.layers", "tf1clip.contrib.framework")


def _module_named(dotted):
  """The module served under a TF 1.15 name: a module of that path, else its package's attribute (a module at
  TF 1.15's file path, `tf1clip.contrib.layers.python.layers.feature_column`, is contrib.layers' `feature_column`)."""
  try:
    return importlib.import_module(dotted)
  except ModuleNotFoundError:
    package, _, leaf = dotted.rpartition(".")
    return getattr(importlib.import_module(package), leaf)


def _leaked(name):
  """The object TF 1.15's slim leaked as `name`, from the contrib module tf1clip serves it in; else None."""
  if name in LEAKED_MODULES:
    return _module_named(LEAKED_MODULES[name])
  for module_name in LEAKED_FROM:
    try:
      return getattr(importlib.import_module(module_name), name)
    except (AttributeError, _catalog.ContribNotProvidedError):
      continue
  return None


def __getattr__(name):  # pylint: disable=invalid-name
  if name.startswith("__"):
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
  try:
    return getattr(tf_slim, name)
  except AttributeError:
    pass
  try:
    return importlib.import_module("tf_slim." + name)  # subpackages tf-slim does not import itself
  except ModuleNotFoundError as e:
    if e.name != "tf_slim." + name:
      raise
  found = _leaked(name) if tf115.has("tf.contrib.slim." + name) else None  # only what TF 1.15 had
  if found is not None:
    return found
  # A name TF 1.15's contrib.slim had that tf1clip does not serve (a target column, ...) or never had:
  # either way the error names it and says what to use (catalog.explain).
  return _catalog.deep_module("tf.contrib.slim", name)


def __dir__():  # pylint: disable=invalid-name
  return sorted(set(globals()) | set(dir(tf_slim)))
