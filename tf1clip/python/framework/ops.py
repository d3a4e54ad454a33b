"""`eager_run` of TF 1.15's `tensorflow/python/framework/ops.py` (served as `tfe.run`), the way TF 1.15 ran it.

TensorFlow 2.21 still has an `eager_run`, but it hands `argv` to absl's flag parsing, which drops a leading "--"
that TF 1.15's `tf.app.run` passed on to `main`; this one goes through `tf.compat.v1.app.run` as served under
`tf1clip run`, so `main` gets TF 1.15's argv. The rest of that module is TensorFlow's own.
"""

import tensorflow as tf


def eager_run(main=None, argv=None):
  """Enables eager execution, then runs the program's `main(argv)` as `tf.app.run` does."""
  tf.compat.v1.enable_eager_execution()
  tf.compat.v1.app.run(main, argv)
