"""`tf.contrib.learn.RunConfig`: TF 1.15's constructor on tf.estimator's RunConfig (tensorflow-estimator 2.15).

Place in the data flow (DESIGN.md): tensorflow_estimator (through shims.tensorflow_estimator) <-
**contrib.learn.run_config** <- contrib.learn.estimator, contrib.learn.experiment.

TF 1.15's class was tf.estimator's RunConfig plus the older arguments `master`, `num_cores`,
`log_device_placement`, `gpu_memory_fraction` and `evaluation_master`. Those four build `tf_config` (the
ConfigProto TF 1.15 exposed); the session itself uses `session_config` (or tf.estimator's default), as
TF 1.15's estimators did. Cluster fields (`cluster_spec`, `task_type`, `is_chief`, ...) come from
`TF_CONFIG` as tf.estimator reads it.
"""

import functools


@functools.lru_cache(maxsize=None)
def _run_config_class():
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  from tf1clip.shims import tensorflow_estimator as estimator_shim  # pylint: disable=import-outside-toplevel
  core = estimator_shim.v1_api().RunConfig

  class RunConfig(core):
    """TF 1.15's `tf.contrib.learn.RunConfig` (its arguments, defaults and `tf_config`)."""

    def __init__(self, master=None, num_cores=0, log_device_placement=False,
                 gpu_memory_fraction=1, tf_random_seed=None, save_summary_steps=100,
                 save_checkpoints_secs=0, save_checkpoints_steps=None,
                 keep_checkpoint_max=5, keep_checkpoint_every_n_hours=10000,
                 log_step_count_steps=100, protocol=None, evaluation_master="", model_dir=None,
                 session_config=None, session_creation_timeout_secs=7200):
      if not isinstance(num_cores, int) or num_cores < 0:
        raise ValueError("RunConfig: num_cores must be an integer >= 0; got %r" % (num_cores,))
      if not 0 < gpu_memory_fraction <= 1:
        raise ValueError("RunConfig: gpu_memory_fraction must be in (0, 1]; got %r"
                         % (gpu_memory_fraction,))
      if save_checkpoints_secs == 0:  # TF 1.15's _USE_DEFAULT: 600 s unless steps are given
        save_checkpoints_secs = 600 if save_checkpoints_steps is None else None
      super(RunConfig, self).__init__(
          model_dir=model_dir, tf_random_seed=tf_random_seed,
          save_summary_steps=save_summary_steps,
          save_checkpoints_steps=save_checkpoints_steps,
          save_checkpoints_secs=save_checkpoints_secs, session_config=session_config,
          keep_checkpoint_max=keep_checkpoint_max,
          keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
          log_step_count_steps=log_step_count_steps, protocol=protocol,
          session_creation_timeout_secs=session_creation_timeout_secs)
      if master is not None:
        self._master = master
      self._evaluation_master = evaluation_master or ""
      self._num_cores = num_cores
      self._gpu_memory_fraction = gpu_memory_fraction
      self._tf_config = tf.ConfigProto(
          log_device_placement=log_device_placement,
          inter_op_parallelism_threads=num_cores, intra_op_parallelism_threads=num_cores,
          gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=gpu_memory_fraction))

    @property
    def tf_config(self):
      return self._tf_config

    @property
    def evaluation_master(self):
      return self._evaluation_master

    @property
    def environment(self):
      return "local" if not self.cluster_spec else "cloud"

    def uid(self, whitelist=None):
      """A string naming this config's values (TF 1.15's, for comparing configs)."""
      del whitelist
      return repr(sorted((k, repr(v)) for k, v in vars(self).items()
                         if k not in ("_tf_config", "_session_config")))

    def get_task_id(self):
      return self.task_id

  RunConfig.__module__ = __name__
  return RunConfig


def __getattr__(name):  # pylint: disable=invalid-name
  if name == "RunConfig":
    return _run_config_class()
  raise AttributeError("module %r has no attribute %r" % (__name__, name))
