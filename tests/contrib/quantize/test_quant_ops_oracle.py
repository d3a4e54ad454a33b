"""contrib.quantize's quant_ops module (tensorflow.contrib.quantize.python.quant_ops) against TF 1.15.

The fake-quantization layers called directly, as a script importing the module path calls them: LastValueQuantize
and MovingAvgQuantize per tensor and per channel (1-D, 2-D and 4-D inputs), symmetric and narrow ranges, 4 bits, a
second layer of the same name, reuse, eval mode and FixedQuantize. Compared: the ops built (names, types), the
variables and their collections, the quantized values and the min / max after three runs on changing inputs,
and the errors of a 3-D per-channel input and of reuse without a scope name.
"""

from harness import assert_same, requires_tf115, run_both

SNIPPET = r'''
import numpy as np
import tensorflow as tf
from tensorflow.contrib.quantize.python import quant_ops

RNG = np.random.RandomState(4)

def layers():
  x4 = tf.placeholder(tf.float32, [2, 3, 3, 4], name="x4")
  x2 = tf.placeholder(tf.float32, [5, 3], name="x2")
  x1 = tf.placeholder(tf.float32, [3], name="x1")
  outs = {
      "last": quant_ops.LastValueQuantize(x4),
      "last_channel": quant_ops.LastValueQuantize(x4, per_channel=True, narrow_range=True, num_bits=4),
      "last_sym": quant_ops.LastValueQuantize(x2, symmetric=True, vars_collection=tf.GraphKeys.GLOBAL_VARIABLES),
      "last_sym_narrow": quant_ops.LastValueQuantize(x2, symmetric=True, narrow_range=True, per_channel=True),
      "ema": quant_ops.MovingAvgQuantize(x2, ema_decay=0.5),
      "ema_channel_1d": quant_ops.MovingAvgQuantize(x1, per_channel=True, ema_decay=0.5, init_min=-1.0),
      "ema_sym": quant_ops.MovingAvgQuantize(x4, symmetric=True, num_bits=6, name_prefix="act", ema_decay=0.9),
      "eval": quant_ops.MovingAvgQuantize(x2, is_training=False, name_prefix="frozen", init_max=2.0),
      "eval_last": quant_ops.LastValueQuantize(x4, is_training=False, per_channel=True, name_prefix="w"),
      "fixed": quant_ops.FixedQuantize(x2, init_min=-0.5, init_max=0.5),
  }
  return (x4, x2, x1), outs

with tf.Graph().as_default() as g:
  (x4, x2, x1), outs = layers()
  report("ops", [[op.name, op.type] for op in g.get_operations()])
  report_variables("vars")
  report("collections", {k: sorted(v.op.name for v in tf.get_collection(k)) for k in (
      tf.GraphKeys.GLOBAL_VARIABLES, tf.GraphKeys.MOVING_AVERAGE_VARIABLES, tf.GraphKeys.TRAINABLE_VARIABLES)})
  with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(3):
      feed = {x4: RNG.uniform(-3, 2 + step, [2, 3, 3, 4]), x2: RNG.uniform(-1 - step, 4, [5, 3]),
              x1: RNG.uniform(-2, 2, [3])}
      report("out_%d" % step, sess.run(outs, feed))
    report("bounds", sess.run({v.op.name: v for v in tf.global_variables()}))

def three_d():
  with tf.Graph().as_default():
    quant_ops.LastValueQuantize(tf.zeros([2, 3, 4]), per_channel=True)

def reuse_without_scope():
  with tf.Graph().as_default():
    quant_ops.MovingAvgQuantize(tf.zeros([2, 3]), name_prefix="frozen", reuse=True)

report_errors("errors", [("per_channel_3d", three_d), ("reuse_without_scope", reuse_without_scope)])
'''


@requires_tf115
def test_quant_ops_layers_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
