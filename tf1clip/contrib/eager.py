"""`tf.contrib.eager` (`tfe`): TF 1.x eager scripts' names, served as the TensorFlow 2.21 objects that continued them.

Place in the data flow (DESIGN.md): TensorFlow's eager runtime <- **contrib.eager** <- compat <- cli. A script
that starts with `tf.enable_eager_execution()` (or `tfe.enable_eager_execution()`) runs eagerly under
`tf1clip run` with the TF1 API; `tfe.Variable`, `GradientTape`, `implicit_gradients` /
`implicit_value_and_gradients` / `gradients_function` / `value_and_gradients_function`, `Checkpoint`,
`defun` / `function`, `py_func`, `Iterator`, `make_template`, the execution-mode constants and test decorators
are TensorFlow's own (`catalog.SERVED`). Not provided, each with its replacement: `tfe.metrics` (tf.keras.metrics),
`Saver` / `Network` / `Sequential` / the network-checkpoint helpers (tf.train.Checkpoint, tf.keras), execution
callbacks and `seterr` (tf.debugging.enable_check_numerics), remote execution setup.
"""

from tf1clip.contrib import catalog

__getattr__ = catalog.missing_attribute_hook("tf.contrib.eager", lazy=catalog.served("tf.contrib.eager"))
