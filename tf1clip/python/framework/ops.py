"""`eager_run` (served as `tfe.run`) and `RegisterShape` of TF 1.15's `tensorflow/python/framework/ops.py`.

TensorFlow 2.21 still has an `eager_run`, but it hands `argv` to absl's flag parsing, which drops a leading "--"
that TF 1.15's `tf.app.run` passed on to `main`; this one goes through `tf.compat.v1.app.run` as served under
`tf1clip run`, so `main` gets TF 1.15's argv. `RegisterShape`, a decorator TF 2.21 dropped, is TF 1.15's no-op:
shape functions had long been the C++ op's (its docstring: "No longer used"). The rest of that module is
TensorFlow's own (compat.paths serves these two at TF 1.15's path and the rest from TensorFlow).
"""

import tensorflow as tf


def eager_run(main=None, argv=None):
  """Enables eager execution, then runs the program's `main(argv)` as `tf.app.run` does."""
  tf.compat.v1.enable_eager_execution()
  tf.compat.v1.app.run(main, argv)


class RegisterShape:
  """`@ops.RegisterShape("OpType")`: kept for old op libraries; the function is returned unchanged and unused,
  as on TF 1.15, whose shape inference was the C++ op's own.

  Args:
    op_type: the op's type name (a string).
  """

  def __init__(self, op_type):
    if not isinstance(op_type, str):
      raise TypeError("op_type must be a string")
    self._op_type = op_type

  def __call__(self, f):
    return f
