"""Stand-in for `tensorflow.python.distribute.estimator_training` (TF <= 2.15), read by tensorflow-estimator.

Replaces: the module that ran Estimator training through the Distribute Coordinator (multi-worker
`tf.distribute` strategies driven by a TF_CONFIG cluster). TensorFlow 2.16 deleted it.

Needed by: every `tf.estimator.RunConfig` built with `train_distribute=` / `eval_distribute=` /
`experimental_distribute=` (run_config.py), and `Estimator.train`, `Estimator.evaluate` and
`train_and_evaluate`, which ask whether to use the coordinator.

What works: local training (the coordinator is never involved), and a distribution strategy on one
machine (e.g. `MirroredStrategy` with no TF_CONFIG cluster, or a cluster with a "master" job), set up
as TF 2.15's `init_run_config` did. What fails: a multi-worker TF_CONFIG cluster (or
`experimental_distribute.remote_cluster`) with a distribution strategy: `RunConfig(...)` raises
RemovedInternalError, as soon as the config is built.

Data flow: see tf1clip.shims.standins.
"""

from tensorflow.python.training import server_lib

from tf1clip.shims.standins import RemovedInternalError

_FEATURE = ("multi-worker Estimator training through the Distribute Coordinator "
            "(RunConfig(train_distribute=...) with a TF_CONFIG cluster)")
_INTERNAL = "tensorflow.python.distribute.estimator_training"
_INSTEAD = ("train with tf.distribute.MultiWorkerMirroredStrategy or ParameterServerStrategy and "
            "Keras / a custom loop; one-machine strategies still work with the Estimator")


def _coordinator_error():
  return RemovedInternalError(_FEATURE, _INTERNAL, _INSTEAD)


def init_run_config(config, tf_config):
  """Sets up a RunConfig that has a distribution strategy, as TF 2.15 did for one machine.

  Args:
    config: the `tf.estimator.RunConfig` being built.
    tf_config: the parsed TF_CONFIG environment variable (a dict, maybe empty).

  Raises:
    ValueError: a strategy is given both directly and through `experimental_distribute`.
    RemovedInternalError: the configuration needs the Distribute Coordinator (multi-worker).
  """
  # pylint: disable=protected-access
  experimental = config._experimental_distribute
  for field in ("train_distribute", "eval_distribute"):
    chosen = getattr(experimental, field, None) if experimental else None
    if chosen:
      if getattr(config, "_" + field):
        raise ValueError("Either `%s` or `experimental_distribute.%s` can be set." % (field, field))
      setattr(config, "_" + field, chosen)
  cluster_spec = server_lib.ClusterSpec(tf_config.get("cluster", {}))
  remote = config._train_distribute and experimental and experimental.remote_cluster
  if remote or (tf_config and "master" not in cluster_spec.jobs and config._train_distribute):
    raise _coordinator_error()
  config._distribute_coordinator_mode = None
  config._init_distributed_setting_from_environment_var(tf_config)
  config._maybe_overwrite_session_config_for_distributed_training()


def should_run_distribute_coordinator(config):
  """Whether `config` asks for the Distribute Coordinator (never, when built by `init_run_config`)."""
  return bool(getattr(config, "_distribute_coordinator_mode", None))


def train_and_evaluate(estimator, train_spec, eval_spec, executor_cls):
  """Raises RemovedInternalError: the Distribute Coordinator is gone (see the module docstring)."""
  del estimator, train_spec, eval_spec, executor_cls
  raise _coordinator_error()


def estimator_train(estimator, train_distributed_fn, hooks):
  """Raises RemovedInternalError: the Distribute Coordinator is gone (see the module docstring)."""
  del estimator, train_distributed_fn, hooks
  raise _coordinator_error()


def estimator_evaluate(estimator, evaluate_distributed_fn, hooks):
  """Raises RemovedInternalError: the Distribute Coordinator is gone (see the module docstring)."""
  del estimator, evaluate_distributed_fn, hooks
  raise _coordinator_error()
