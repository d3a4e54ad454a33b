"""`tf.contrib.eager` (`tfe`): TF 1.x eager scripts' names, served as the TensorFlow 2.21 objects that continued them.

Mirrors TF 1.15's `tensorflow/contrib/eager/__init__.py`. A script
that starts with `tf.enable_eager_execution()` (or `tfe.enable_eager_execution()`) runs eagerly under
`tf1clip run` with the TF1 API; `tfe.Variable`, `GradientTape`, `implicit_gradients` /
`implicit_value_and_gradients` / `gradients_function` / `value_and_gradients_function`, `Checkpoint`,
`defun` / `function`, `py_func`, `Iterator`, `make_template`, the execution-mode constants and test decorators
are TensorFlow's own (`catalog.SERVED`), and so are the remote-execution setup `set_server_def` and
`enable_remote_eager_execution`. TF 1.15's own code: `tfe.metrics` (the metrics module), `Saver`,
`restore_variables_on_create` and `get_optimizer_variables` (saver), the execution callbacks, `seterr` and
`errstate` (execution_callbacks), `Network`, `Sequential`, `save_network_checkpoint` and
`restore_network_checkpoint` (network, on tf.layers), `list_devices` (tf1clip.python.eager.context) and `run`
(tf1clip.python.framework.ops' eager_run).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.eager.python import metrics  # noqa: F401  (tfe.metrics)

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.eager", lazy=_catalog.served("tf.contrib.eager"))
