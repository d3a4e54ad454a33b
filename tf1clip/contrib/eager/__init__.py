"""`tf.contrib.eager` (`tfe`): TF 1.x eager scripts' names, served as the TensorFlow 2.21 objects that continued them.

Mirrors TF 1.15's `tensorflow/contrib/eager/__init__.py`. A script
that starts with `tf.enable_eager_execution()` (or `tfe.enable_eager_execution()`) runs eagerly under
`tf1clip run` with the TF1 API; `tfe.Variable`, `GradientTape`, `implicit_gradients` /
`implicit_value_and_gradients` / `gradients_function` / `value_and_gradients_function`, `Checkpoint`,
`defun` / `function`, `py_func`, `Iterator`, `make_template`, the execution-mode constants and test decorators
are TensorFlow's own (imported below), and so are the remote-execution setup `set_server_def` and
`enable_remote_eager_execution`. TF 1.15's own code: `tfe.metrics` (the metrics module), `Saver`,
`restore_variables_on_create` and `get_optimizer_variables` (saver), the execution callbacks, `seterr` and
`errstate` (execution_callbacks), `Network`, `Sequential`, `save_network_checkpoint` and
`restore_network_checkpoint` (network, on tf.layers), `list_devices` (tf1clip.python.eager.context) and `run`
(tf1clip.python.framework.ops' eager_run).
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow import (
    custom_gradient, executing_eagerly, executing_eagerly as in_eager_mode, function, function as defun, GradientTape,
    py_function as py_func, TensorSpec)
from tensorflow.compat.v1 import enable_eager_execution, make_template
from tensorflow.compat.v1.train import Checkpoint
from tensorflow.python.data.ops.iterator_ops import OwnedIterator as Iterator
from tensorflow.python.eager.backprop import (
    gradients_function, implicit_grad as implicit_gradients, implicit_val_and_grad as implicit_value_and_gradients,
    val_and_grad_function as value_and_gradients_function)
from tensorflow.python.eager.context import (
    ASYNC, async_clear_error, async_wait, DEVICE_PLACEMENT_EXPLICIT, DEVICE_PLACEMENT_SILENT, DEVICE_PLACEMENT_WARN,
    execution_mode, num_gpus, set_execution_mode, set_server_def, SYNC)
from tensorflow.python.eager.remote import connect_to_remote_host
from tensorflow.python.framework.ops import enable_eager_execution_internal as enable_remote_eager_execution
from tensorflow.python.framework.test_util import (
    run_all_in_graph_and_eager_modes as run_all_tests_in_graph_and_eager_modes, run_in_graph_and_eager_modes as
    run_test_in_graph_and_eager_modes)
from tensorflow.python.ops.resource_variable_ops import ResourceVariable as Variable
from tensorflow.python.ops.variable_scope import EagerVariableStore
from tensorflow.python.trackable.autotrackable import AutoTrackable as Checkpointable
from tf1clip.contrib.eager.python.network import (
    Network, restore_network_checkpoint, save_network_checkpoint, Sequential)
from tf1clip.contrib.eager.python.saver import get_optimizer_variables, restore_variables_on_create, Saver
from tf1clip.python.eager.context import list_devices
from tf1clip.python.eager.execution_callbacks import (
    add_execution_callback, clear_execution_callbacks, errstate, ExecutionCallback, inf_callback, inf_nan_callback,
    nan_callback, seterr)
from tf1clip.python.framework.ops import eager_run as run
from tf1clip.contrib.eager.python import metrics  # noqa: F401  (tfe.metrics)

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'TensorFlow 2 runs eagerly by default (tf.function, tf.GradientTape)'

__getattr__ = _catalog.module_getattr(__name__)
