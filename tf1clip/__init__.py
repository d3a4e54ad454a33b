"""tf1clip: legacy TensorFlow 1 training code on current TensorFlow, with a better gradient pipeline.

The public names mirror TF1's where a TF1 counterpart exists, so that
``tf.clip_by_global_norm`` becomes ``tf1clip.clip_by_global_norm`` with the same
signature and the same numbers (see DESIGN.md, "Numerical contract").

Data flow (one-way): clipping <- transforms <- optimizer <- accumulation <- contrib/compat/v2 <- cli.

Names load on first use: `tf1clip run` must set TF_USE_LEGACY_KERAS before anything imports
TensorFlow, and `tf1clip --version` / `tf1clip check` should not pay for importing it.
"""

import importlib

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    # clipping (issue 2)
    "clip_by_average_norm": "tf1clip.clipping",
    "clip_by_global_norm": "tf1clip.clipping",
    "clip_by_norm": "tf1clip.clipping",
    "clip_by_value": "tf1clip.clipping",
    "global_norm": "tf1clip.clipping",
    # optimizer wrappers (issue 3)
    "WrappedOptimizer": "tf1clip.optimizer",
    "clip_gradients_by_norm": "tf1clip.optimizer",
    "optimize_loss": "tf1clip.training_op",
    "adaptive_clipping_fn": "tf1clip.training_op",
    "OPTIMIZER_CLS_NAMES": "tf1clip.training_op",
    "select_variables": "tf1clip.variables",
    "block_gradient": "tf1clip.variables",
    "scale_gradient": "tf1clip.variables",
    "reverse_gradient": "tf1clip.variables",
    # gradient accumulation (issue 4)
    "GradientAccumulationOptimizer": "tf1clip.accumulation",
    "HostGradientAverager": "tf1clip.accumulation",
    "average_gradients": "tf1clip.accumulation",
    "fused_accumulation_step": "tf1clip.accumulation",
    "FusedStep": "tf1clip.accumulation",
    # synchronous replicas on TF's ps/worker runtime (issue 13)
    "SyncReplicasOptimizer": "tf1clip.replicas",
    "clip_aggregated_gradients": "tf1clip.replicas",
}
_SUBMODULES = ("clipping", "transforms", "optimizer", "training_op", "variables", "accumulation",
               "replicas", "adaptive", "summaries", "contrib", "compat", "v2")

__all__ = sorted(_EXPORTS) + list(_SUBMODULES)


def __getattr__(name):
  if name in _EXPORTS:
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value
  if name in _SUBMODULES:
    return importlib.import_module("tf1clip." + name)
  raise AttributeError("module 'tf1clip' has no attribute %r" % name)


def __dir__():
  return __all__ + ["__version__"]


def load_ipython_extension(ipython):
  """`%load_ext tf1clip` in IPython / Jupyter: the notebook's cells get the TF1 API (compat.notebook)."""
  from tf1clip.compat import notebook  # pylint: disable=import-outside-toplevel
  notebook.load_ipython_extension(ipython)
