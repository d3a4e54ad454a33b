"""contrib.memory_stats against TF 1.15 (its GPU path: tests/contrib/memory_stats/test_memory_stats.py).

BytesInUse / MaxBytesInUse are int64 scalars that fail with InvalidArgumentError when run on a CPU,
as TF 1.15's GPU-only kernels did (soft placement on, a /GPU:0 scope on a machine without one). A stated
difference: TF 1.15 could not place any graph holding one of these ops on a CPU, so every run of that graph failed;
under tf1clip only running the op itself fails.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.memory_stats.BytesInUse", "tf.contrib.memory_stats.MaxBytesInUse")

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# memory_stats: GPU-allocator ops; built anywhere, failing at run time on a CPU (no kernel) on both sides. In their
# own graph: TF 1.15 could not place a graph holding one on a CPU at all (every run of that graph failed).
for key in ("in_use", "peak", "in_use_gpu"):
    with tf.Graph().as_default():
        with tf.device("/GPU:0" if key == "in_use_gpu" else None):
            op = c.memory_stats.MaxBytesInUse() if key == "peak" else c.memory_stats.BytesInUse()
        report("memory_stats_op_" + key, [str(op.dtype), str(op.shape)])
        with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
            with case("memory_stats_run_" + key):
                sess.run(op)
'''


@requires_tf115
def test_memory_stats_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
