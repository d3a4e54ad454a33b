"""`tf.contrib.compiler.jit`: `experimental_jit_scope` is `tf.compat.v1.xla.experimental.jit_scope` (the same
function TF 1.15 had here)."""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.compat.v1.xla.experimental import jit_scope as experimental_jit_scope

__getattr__ = _catalog.module_getattr(__name__)
