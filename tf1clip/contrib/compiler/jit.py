"""`tf.contrib.compiler.jit`: `experimental_jit_scope` is `tf.compat.v1.xla.experimental.jit_scope` (the same
function TF 1.15 had here)."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.compiler.jit",
                                              lazy=_catalog.served("tf.contrib.compiler.jit"))
