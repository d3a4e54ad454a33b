"""`tf.contrib.compiler`: `jit.experimental_jit_scope` and `xla.compile`, TensorFlow 2.21's XLA scope and compile.

`jit.experimental_jit_scope(compile_ops=True, separate_compiled_gradients=False)` marks the ops built in it for
XLA auto-clustering (`tf.compat.v1.xla.experimental.jit_scope`, the same function); `xla.compile` is
`tf.compat.v1.xla.experimental.compile`; `xla.estimator_model_fn` is TF 1.15's decorator on it (compiler.xla).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.compiler import jit
from tf1clip.contrib.compiler import xla

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.function(jit_compile=True)'

__getattr__ = _catalog.module_getattr(__name__)
