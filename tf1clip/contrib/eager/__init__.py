"""`tf.contrib.eager` (`tfe`): TF 1.x eager scripts' names, served as the TensorFlow 2.21 objects that continued them.

Place in the data flow (DESIGN.md): TensorFlow's eager runtime <- **contrib.eager** <- compat <- cli. A script
that starts with `tf.enable_eager_execution()` (or `tfe.enable_eager_execution()`) runs eagerly under
`tf1clip run` with the TF1 API; `tfe.Variable`, `GradientTape`, `implicit_gradients` /
`implicit_value_and_gradients` / `gradients_function` / `value_and_gradients_function`, `Checkpoint`,
`defun` / `function`, `py_func`, `Iterator`, `make_template`, the execution-mode constants and test decorators
are TensorFlow's own (`catalog.SERVED`), and so are the remote-execution setup `set_server_def` and
`enable_remote_eager_execution`. TF 1.15's own code: `tfe.metrics` (the metrics module), `Saver`,
`restore_variables_on_create` and `get_optimizer_variables` (saver), the execution callbacks, `seterr` and
`errstate` (execution_callbacks), `Network`, `Sequential`, `save_network_checkpoint` and
`restore_network_checkpoint` (network, on tf.layers), `run` and `list_devices` (here).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.eager import metrics  # noqa: F401  (tfe.metrics)


def run(main=None, argv=None):
  """Enables eager execution, then runs the program's main like tf.app.run (TF 1.15's tfe.run)."""
  tf.compat.v1.enable_eager_execution()
  tf.compat.v1.app.run(main, argv)


def list_devices():
  """The names of the devices eager ops can run on ("/job:localhost/replica:0/task:0/device:CPU:0", ...)."""
  return ["/job:localhost/replica:0/task:0" + device.name for device in tf.config.list_logical_devices()]


__getattr__ = _catalog.missing_attribute_hook("tf.contrib.eager", lazy=_catalog.served("tf.contrib.eager"))
