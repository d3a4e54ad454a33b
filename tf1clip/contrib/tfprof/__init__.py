"""`tf.contrib.tfprof`: TF 1.15's tfprof names (`model_analyzer`, `tfprof_logger`, `ProfileContext`).

Mirrors TF 1.15's `tensorflow/contrib/tfprof/__init__.py`.

TF 1.15's contrib.tfprof re-exported TensorFlow's profiler: `model_analyzer.print_model_analysis` / `advise`
and `tfprof_logger.write_op_log` were deprecated wrappers of `tf.profiler.profile` / `advise` /
`write_op_log`, served here on tf.compat.v1.profiler (the same tfprof library). `ProfileContext` is TF 1.15's
code (TensorFlow 2.21 dropped it), ported in `model_analyzer` onto `tf.compat.v1.profiler.Profiler`.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.tfprof import model_analyzer  # noqa: F401
from tf1clip.contrib.tfprof import tfprof_logger  # noqa: F401
from tf1clip.contrib.tfprof.model_analyzer import ProfileContext  # noqa: F401

__getattr__ = _catalog.module_getattr(__name__)
