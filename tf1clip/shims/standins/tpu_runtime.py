"""Stand-in for `tensorflow.python.tpu.session_support` and `.tpu_embedding_gradient` (TF <= 2.15).

Replaces: session_support (the watchdog and graceful-shutdown hooks that restart TPU workers) and
tpu_embedding_gradient (the dummy variables that route gradients to TPU embedding tables). TensorFlow
2.16 deleted both; the shim registers this one module under both names.

Needed by: `TPUEstimator`'s TPU code path only (`tpu_estimator.py` imports both at module level).

What fails: `TPUEstimator(use_tpu=True)` training on a real TPU (its shutdown hooks and embedding
gradients) raises RemovedInternalError where it reaches them; with `use_tpu=False` (the CPU/GPU path
research scripts kept for local runs) nothing here is called. Without a reachable TPU, `use_tpu=True`
stops earlier, at the TPU cluster resolver's own error.

Data flow: see tf1clip.shims.standins.
"""

from tf1clip.shims.standins import RemovedInternalError

_INSTEAD = "TPUEstimator(use_tpu=False) on CPU/GPU, or tf.distribute.TPUStrategy for TPUs"


def _removed(feature, internal):
  def raise_removed(*args, **kwargs):
    del args, kwargs
    raise RemovedInternalError(feature, internal, _INSTEAD)
  raise_removed.__doc__ = "Raises RemovedInternalError: %s needs %s." % (feature, internal)
  return raise_removed


_SHUTDOWN = "TPUEstimator's TPU worker watchdog and graceful-shutdown hooks (use_tpu=True)"
_GRADIENT = "TPU embedding gradients (TPUEstimator(use_tpu=True, embedding_config_spec=...))"

# tensorflow.python.tpu.session_support
start_worker_watchdog = _removed(_SHUTDOWN, "tensorflow.python.tpu.session_support")
ShutdownLameWorkers = _removed(_SHUTDOWN, "tensorflow.python.tpu.session_support.ShutdownLameWorkers")
ShutdownAllWorkers = _removed(_SHUTDOWN, "tensorflow.python.tpu.session_support.ShutdownAllWorkers")
ResetComputation = _removed(_SHUTDOWN, "tensorflow.python.tpu.session_support.ResetComputation")
GracefulShutdownHook = _removed(_SHUTDOWN,
                                "tensorflow.python.tpu.session_support.GracefulShutdownHook")

# tensorflow.python.tpu.tpu_embedding_gradient
create_dummy_table_variables = _removed(_GRADIENT, "tensorflow.python.tpu.tpu_embedding_gradient")
hook_dummy_table_variables_to_activations = _removed(
    _GRADIENT, "tensorflow.python.tpu.tpu_embedding_gradient")
get_gradients_through_dummy_table_variables = _removed(
    _GRADIENT, "tensorflow.python.tpu.tpu_embedding_gradient")
