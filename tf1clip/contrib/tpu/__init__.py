"""`tf.contrib.tpu`: TPUEstimator and its configuration from tensorflow-estimator 2.15, TPU ops from TF 2.21.

Research code of 2018-2019 wrapped its model in `tf.contrib.tpu.TPUEstimator(use_tpu=False, ...)` so
the same script trained on CPU/GPU. These names are the same objects TF 2.15 served as
`tf.compat.v1.estimator.tpu.*` (TPUEstimator, TPUEstimatorSpec, RunConfig, TPUConfig,
InputPipelineConfig, and `experimental.EmbeddingConfigSpec`) and TF 2.21's `tf.compat.v1.tpu.*`
(CrossShardOptimizer, rewrite, shard, replicate, batch_parallel, bfloat16_scope, outside_compilation,
initialize_system, shutdown_system, cross_replica_sum). With `use_tpu=False` everything runs on
CPU/GPU; `use_tpu=True` without a TPU stops with the library's own error ("Cannot find any TPU
cores in the system"). The TPU program's building blocks (InfeedQueue, the infeed / outfeed ops,
repeat, while_loop) and export_estimator_savedmodel are TensorFlow's and the library's own
objects, AsyncCheckpointSaverHook is TF 1.15's hook (tpu_async_checkpoint), Topology / DeviceAssignment /
device_assignment are TF 1.15's 3-D mesh ones (tpu_topology) (imported below). The rest (keras_to_tpu_model,
TPUDistributionStrategy, profiler: they need TPU hardware or TF 1.15's Keras-on-TPU runtime) raises ContribNotProvidedError naming what to use instead.
"""

import importlib

from tf1clip.contrib import catalog as _catalog

# Names of TF 1.15's tf.contrib.tpu served by tensorflow-estimator's v1 `tf.estimator.tpu`.
FROM_ESTIMATOR = ("TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig",
                  "InputPipelineConfig", "experimental")
# Names of TF 1.15's tf.contrib.tpu that TF 2.21 still has in tf.compat.v1.tpu.
FROM_TF = ("CrossShardOptimizer", "rewrite", "shard", "replicate", "batch_parallel",
           "bfloat16_scope", "outside_compilation", "initialize_system", "shutdown_system",
           "cross_replica_sum", "core")

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv); imported
# last, as the modules they come from import this package:
from tensorflow.python.tpu.ops.tpu_ops import (
    infeed_dequeue, infeed_dequeue_tuple, infeed_enqueue, infeed_enqueue_tuple, outfeed_dequeue,
    outfeed_dequeue_tuple, outfeed_enqueue, outfeed_enqueue_tuple)
from tensorflow.python.tpu.tpu_feed import InfeedQueue
from tensorflow.python.tpu.training_loop import repeat, while_loop
from tensorflow_estimator.python.estimator.tpu.tpu_estimator import export_estimator_savedmodel
from tf1clip.contrib.tpu.python.tpu.async_checkpoint import AsyncCheckpointSaverHook
from tf1clip.contrib.tpu.python.tpu.topology import device_assignment, DeviceAssignment, Topology

# The declaration (catalog.tsv): what replaced the module in TF 2, and the TF 1.15 names not served.
SUCCESSOR = ('tf.distribute.TPUStrategy (tf1clip provides TPUEstimator and its configuration, and the ops still in'
             ' tf.compat.v1.tpu)')
NOT_SERVED = {
    "keras_to_tpu_model": 'tf.distribute.TPUStrategy with Keras',
    "TPUDistributionStrategy": 'tf.distribute.TPUStrategy',
    "profiler": 'the TensorBoard profiler plugin (tf.profiler.experimental)',
}

_hook = _catalog.module_getattr(__name__)


def __getattr__(name):  # pylint: disable=invalid-name
  if name in FROM_ESTIMATOR:
    from tf1clip.shims import tensorflow_estimator as estimator_shim  # pylint: disable=import-outside-toplevel
    value = getattr(estimator_shim.v1_api().tpu, name)
  elif name in FROM_TF:
    value = getattr(importlib.import_module("tensorflow").compat.v1.tpu, name)
  else:
    return _hook(name)
  globals()[name] = value
  return value


def __dir__():  # pylint: disable=invalid-name
  return sorted(set(globals()) | set(FROM_ESTIMATOR) | set(FROM_TF))
