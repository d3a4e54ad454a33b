"""contrib.memory_stats on a GPU, where this machine has none: TensorFlow's device list and allocator statistics
are replaced by a stand-in GPU, so the path a GPU user runs (the op reads the allocator of the GPU it is built
for) is exercised; the CPU path is compared with TF 1.15 in tests/contrib/memory_stats/test_memory_stats_oracle.py.
"""

import tensorflow as tf

import tf1clip.contrib.memory_stats as memory_stats


class _Device:
  def __init__(self, name):
    self.name = name


def _fake_gpus(monkeypatch, stats):
  real = tf.config.list_logical_devices
  monkeypatch.setattr(tf.config, "list_logical_devices", lambda kind=None: (
      [_Device("/device:GPU:0"), _Device("/device:GPU:1")] if kind == "GPU" else real(kind)))
  monkeypatch.setattr(tf.config.experimental, "get_memory_info", lambda device: stats[device])


def _soft_placement_session(graph):
  # the stand-in GPUs do not exist for the session: soft placement runs their ops on the CPU
  return tf.compat.v1.Session(graph=graph, config=tf.compat.v1.ConfigProto(allow_soft_placement=True))


def test_ops_read_the_allocator_of_the_gpu_they_are_built_for(graph, monkeypatch):
  _fake_gpus(monkeypatch, {"GPU:0": {"current": 1024, "peak": 4096}, "GPU:1": {"current": 7, "peak": 9}})
  default = memory_stats.BytesInUse()  # no device scope: the first GPU, as TF 1.15's placer chose
  with tf.device("/GPU:1"):
    second_in_use, second_peak = memory_stats.BytesInUse(), memory_stats.MaxBytesInUse()
  assert [default.dtype, default.shape.rank] == [tf.int64, 0]
  with _soft_placement_session(graph) as sess:
    assert sess.run([default, second_in_use, second_peak]) == [1024, 7, 9]


def test_a_cpu_or_absent_gpu_fails_at_run_time_naming_the_op(graph, monkeypatch):
  _fake_gpus(monkeypatch, {})
  with tf.device("/CPU:0"):
    on_cpu = memory_stats.BytesInUse()
  with tf.device("/GPU:3"):
    absent = memory_stats.MaxBytesInUse()
  for op, name in ((on_cpu, "BytesInUse"), (absent, "MaxBytesInUse")):
    try:
      with _soft_placement_session(graph) as sess:
        sess.run(op)
    except tf.errors.InvalidArgumentError as error:
      assert name in str(error) and "reads a GPU allocator" in str(error)
    else:
      raise AssertionError("%s ran on a device without a GPU allocator" % name)
