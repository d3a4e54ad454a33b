"""`tf.contrib.tfprof.tfprof_logger`: TF 1.15's `write_op_log`, on `tf.compat.v1.profiler.write_op_log`.

Mirrors TF 1.15's `tensorflow/contrib/tfprof/tfprof_logger.py`.

TF 1.15's contrib function was a deprecated wrapper of `tf.profiler.write_op_log`: it writes the graph's
OpLogProto (the op types, the trainable-variable marks, the float-op counts, and the Python code traces when
`add_trace`) to `log_dir/tfprof_log` for the tfprof command line, and returns None.
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# The op type tfprof gives trainable variables (TF 1.15's tfprof_logger.TRAINABLE_VARIABLES), for
# `account_type_regexes`.
TRAINABLE_VARIABLES = "_trainable_variables"

def write_op_log(graph, log_dir, op_log=None, run_meta=None, add_trace=True):
  """Writes `graph`'s OpLogProto (merged with `op_log`) to `log_dir`/tfprof_log (TF 1.15's contrib wrapper)."""
  tf.compat.v1.profiler.write_op_log(graph, log_dir, op_log, run_meta, add_trace)

__getattr__ = _catalog.module_getattr(__name__)
