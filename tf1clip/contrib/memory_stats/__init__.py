"""`tf.contrib.memory_stats`: the ops that read a GPU allocator's bytes in use and peak bytes, as in TF 1.15.

TF 1.15's `BytesInUse()` / `MaxBytesInUse()` were GPU-only ops (int64 scalars): a graph built them anywhere, and a
session ran them on a GPU; placed on a CPU they failed at run time with an InvalidArgumentError (no kernel). Here
they are built the same way: under a GPU device scope on a machine with that GPU, a `tf.py_function` reads
TensorFlow's allocator (`tf.config.experimental.get_memory_info`, its "current" and "peak"); anywhere else the op
raises the same InvalidArgumentError when run (a stated difference: TF 1.15 could not place a graph holding such an op
on a CPU at all, so every run of that graph failed; here only running the op fails). `BytesLimit` is not served: TensorFlow 2.21 does not expose the
allocator's limit (catalog.UNSUPPORTED says what to use instead).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog


def _gpu_of(device):
  """The visible GPU named by a device string ("/device:GPU:1" -> "GPU:1"), or None (CPU, unset, not present)."""
  spec = tf.DeviceSpec.from_string(device or "")
  gpus = [d.name.split("device:")[-1] for d in tf.config.list_logical_devices("GPU")]
  if spec.device_type is None:
    return gpus[0] if gpus else None
  wanted = "GPU:%d" % (spec.device_index or 0)
  return wanted if spec.device_type.upper() == "GPU" and wanted in gpus else None


def _memory_stat(op_type, key):
  """An int64 scalar op named `op_type` reading the allocator statistic `key` of the device it is built for."""
  probe = tf.constant(0, tf.int64, name=op_type + "/probe")
  gpu = _gpu_of(probe.op.device)
  if gpu is None:
    missing = tf.compat.v1.Assert(False, [
        "No OpKernel was registered to support Op '%s' on this device: it reads a GPU allocator "
        "(run it under tf.device('/GPU:0') on a machine with a GPU)" % op_type], name=op_type + "/no_gpu_kernel")
    with tf.control_dependencies([missing]):
      return tf.identity(probe, name=op_type)
  stat = tf.py_function(lambda: tf.constant(tf.config.experimental.get_memory_info(gpu)[key], tf.int64), [],
                        tf.int64, name=op_type)
  stat.set_shape([])
  return stat


def BytesInUse():  # pylint: disable=invalid-name
  """Generates an op that computes the current memory of a device."""
  return _memory_stat("BytesInUse", "current")


def MaxBytesInUse():  # pylint: disable=invalid-name
  """Generates an op that computes the peak memory of a device."""
  return _memory_stat("MaxBytesInUse", "peak")


# The declaration (catalog.tsv): what replaced the module in TF 2, and the TF 1.15 names not served.
SUCCESSOR = "tf.config.experimental.get_memory_info('GPU:0') (peak and current bytes in use)"
NOT_SERVED = {
    "BytesLimit": ("no successor: TensorFlow 2.21 does not expose a GPU allocator's limit "
                     "(tf.config.experimental.get_memory_info('GPU:0') gives the current and peak bytes)"),
}

__getattr__ = _catalog.module_getattr(__name__)
