"""`tf.contrib.distribute`: TF 1.15's distribution strategies, as TensorFlow's v1 strategies with TF 1.15's arguments.

Place in the data flow (DESIGN.md): tf.compat.v1.distribute <- **contrib.distribute** <- compat <- cli
(`tf.estimator.RunConfig(train_distribute=...)`, `strategy.scope()`).

TF 1.15's contrib strategies were TensorFlow's core strategies with older constructors and one behaviour
of their own: `make_dataset_iterator` gave every replica a whole batch of the dataset (per-replica
batching; core strategies split a global batch). Here:
- `MirroredStrategy(devices, num_gpus, num_gpus_per_worker, cross_device_ops, auto_shard_dataset,
  cross_tower_ops)` is a `tf.compat.v1.distribute.MirroredStrategy` on those devices (all local GPUs, or the
  CPU, by default) whose `make_dataset_iterator` batches per replica, as TF 1.15's did. Estimators behave as
  in TF 1.15 (their input_fn is batched per replica in both).
- `ParameterServerStrategy(num_gpus_per_worker)` and `CollectiveAllReduceStrategy(num_gpus_per_worker,
  communication)` are TensorFlow's v1 strategies on the cluster TF_CONFIG names, with that many GPUs per
  worker (TF 1.15 built the same SimpleClusterResolver).
- `AllReduceCrossDeviceOps(all_reduce_alg, num_packs, ...)` is TensorFlow's; the small-gradient
  packing arguments TF 2 removed are accepted without effect (the reduced values are the same).
- `Monitor` (run a step function until the input ends) is TF 1.15's code.
- `UpdateContext(device)` is TF 1.15's on TensorFlow's (which holds a replica id): the device's replica in the
  strategy in scope.
- The rest are TensorFlow's own objects (imported below): OneDeviceStrategy, TPUStrategy, CrossDeviceOps,
  DistributionStrategy (StrategyV1), ReplicaContext, DistributeConfig, the context
  functions (get_replica_context, get_strategy, has_strategy, ... and TF 1.15's older names for them),
  initialize_tpu_system and run_standard_tensorflow_server.
"""

import tensorflow as tf
from tensorflow.python.distribute import cross_device_ops as _cross_device_ops
from tensorflow.python.distribute import distribute_lib
from tensorflow.python.distribute import mirrored_strategy as _core_mirrored
from tensorflow.python.distribute.v1 import input_lib as _input_lib_v1

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow import distribute as _distribute
from tensorflow.compat.v1.distribute import (
    get_loss_reduction, get_replica_context, get_strategy, get_strategy as get_distribution_strategy, has_strategy,
    has_strategy as has_distribution_strategy, in_cross_replica_context, OneDeviceStrategy, ReplicaContext, Strategy
    as DistributionStrategy)
from tensorflow.compat.v1.distribute.experimental import TPUStrategy
from tensorflow.python.distribute.distribute_config import DistributeConfig
from tensorflow.python.distribute.distribute_coordinator import run_standard_tensorflow_server
from tensorflow.python.distribute.distribute_lib import get_cross_replica_context, require_replica_context
from tensorflow.python.distribute.step_fn import StandardInputStep, StandardSingleLossStep, Step
from tensorflow.tpu.experimental import initialize_tpu_system
from tf1clip.python.distribute.cross_device_ops import MultiWorkerAllReduce
CrossDeviceOps = _distribute.CrossDeviceOps
from tf1clip.python.distribute.cross_device_ops import AllReduceCrossDeviceOps  # TF 1.15's core class


class _PerReplicaBatchMirroredExtended(_core_mirrored.MirroredExtended):
  """MirroredExtended whose make_dataset_iterator gives each replica a whole batch (TF 1.15's contrib)."""

  def _make_dataset_iterator(self, dataset):
    return _input_lib_v1.DatasetIterator(dataset, self._input_workers, self._container_strategy())

  @property
  def _global_batch_size(self):
    return False


class MirroredStrategy(_core_mirrored.MirroredStrategyV1):
  """TF 1.15's `tf.contrib.distribute.MirroredStrategy`: synchronous replicas on one machine's devices."""

  def __init__(self, devices=None, num_gpus=None, num_gpus_per_worker=None, cross_device_ops=None,
               auto_shard_dataset=False, cross_tower_ops=None):
    if cross_device_ops and cross_tower_ops:
      raise ValueError("MirroredStrategy: give cross_device_ops or its old name cross_tower_ops, "
                       "not both")
    if num_gpus is not None and num_gpus_per_worker is not None:
      raise ValueError("You cannot specify both `num_gpus` and `num_gpus_per_worker`.")
    if num_gpus is None:
      num_gpus = num_gpus_per_worker
    if devices is None:
      devices = _core_mirrored.all_local_devices(num_gpus)
    elif num_gpus is not None:
      raise ValueError("Must only specify one of `devices` and `num_gpus_per_worker`.")
    del auto_shard_dataset  # TF 1.15's multi-worker sharding option; one machine here
    # StrategyV1's constructor with our extended (MirroredStrategyV1's would build the core one)
    distribute_lib.StrategyV1.__init__(  # pylint: disable=non-parent-init-called
        self, _PerReplicaBatchMirroredExtended(self, devices, cross_device_ops or cross_tower_ops))


def _cluster_resolver(num_gpus_per_worker):
  resolvers = tf.distribute.cluster_resolver
  tf_config = resolvers.TFConfigClusterResolver()
  return resolvers.SimpleClusterResolver(
      cluster_spec=tf_config.cluster_spec(), task_type=tf_config.task_type,
      task_id=tf_config.task_id, num_accelerators={"GPU": num_gpus_per_worker},
      rpc_layer=tf_config.rpc_layer)


class ParameterServerStrategy(tf.compat.v1.distribute.experimental.ParameterServerStrategy):
  """TF 1.15's: TensorFlow's v1 ParameterServerStrategy on TF_CONFIG's cluster, `num_gpus_per_worker` GPUs."""

  def __init__(self, num_gpus_per_worker=0):
    super().__init__(cluster_resolver=_cluster_resolver(num_gpus_per_worker))
    extended = self.extended
    if extended._cluster_spec is None:  # pylint: disable=protected-access
      # One machine: TF 1.15 kept the parameter device as it named it ("/device:CPU:0", or "/device:GPU:0" with
      # one GPU); TensorFlow 2.21 canonicalizes it ("/replica:0/task:0/device:CPU:0"). The same device.
      device = "/device:GPU:0" if num_gpus_per_worker == 1 else "/device:CPU:0"
      extended._variable_device = device  # pylint: disable=protected-access
      extended._parameter_devices = (device,)  # pylint: disable=protected-access


class CollectiveAllReduceStrategy(tf.compat.v1.distribute.experimental.MultiWorkerMirroredStrategy):
  """TF 1.15's: TensorFlow's v1 multi-worker mirrored strategy on TF_CONFIG's cluster."""

  def __init__(self, num_gpus_per_worker=0,
               communication=tf.distribute.experimental.CommunicationImplementation.AUTO):
    super().__init__(communication=communication,
                     cluster_resolver=_cluster_resolver(num_gpus_per_worker))


class UpdateContext(distribute_lib.UpdateContext):
  """TF 1.15's `UpdateContext(device)`: inside it a mirrored variable is its component on `device`.

  TensorFlow 2.21's UpdateContext (which its strategies enter in `extended.update`) holds a replica id; this
  one finds the replica whose device is `device` among the current strategy's worker devices when entered
  (inside `strategy.scope()`, where TF 1.15's strategies entered it). A device the strategy does not have, or
  no strategy in scope, leaves the replica unset: the variable then acts as outside the context (TF 1.15
  raised ValueError on its assign there).
  """

  __slots__ = ["_device"]

  def __init__(self, device):
    super().__init__(replica_id=None)
    self._device = device

  def __enter__(self):
    self._replica_id = _replica_on(self._device)
    super().__enter__()


def _replica_on(device):
  if device is None or isinstance(device, int):  # an int: a replica id, as TensorFlow 2.21's context takes
    return device
  try:
    devices = tf.distribute.get_strategy().extended.worker_devices
  except (AttributeError, NotImplementedError, RuntimeError):
    return None
  wanted = tf.DeviceSpec.from_string(device)
  for replica, candidate in enumerate(devices):
    spec = tf.DeviceSpec.from_string(candidate)
    if (spec.device_type, spec.device_index) == (wanted.device_type, wanted.device_index or 0) and (
        wanted.task is None or wanted.task == spec.task) and (wanted.job is None or wanted.job == spec.job):
      return replica
  return None


class Monitor(object):
  """Runs a step function (a contrib.distribute Step) until its input ends (TF 1.15's)."""

  def __init__(self, step_callable, session=None):
    if tf.executing_eagerly():
      if session is not None:
        raise ValueError("Should not provide a `session` in Eager mode.")
      self._run_step = step_callable
    else:
      if session is None:
        raise ValueError("Should provide a `session` in Graph mode.")
      session.run(step_callable.initialize())
      self._run_step = session.make_callable(step_callable())
      session.run(tf.compat.v1.global_variables_initializer())

  def run_steps(self, num_steps=None):
    step = 0
    while num_steps is None or step < num_steps:
      try:
        self._run_step()
        step += 1
      except tf.errors.OutOfRangeError:
        break


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = "tf.distribute (tf1clip serves contrib.distribute's strategies and context functions on it)"

__getattr__ = _catalog.module_getattr(__name__)
