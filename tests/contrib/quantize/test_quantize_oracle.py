"""contrib.quantize's FakeQuant insertion (python/quantize.py, python/quant_ops.py) against TF 1.15, on a small conv +
batch_norm + relu model with a post-activation bypass (a residual Add after the second block's relu).

The rewrites: create_training_graph with a quant_delay (four steps: two passed through, two quantized),
experimental_create_training_graph with 4 / 6 bits, symmetric ranges, a quant_delay and a freeze_bn_delay, the
same restricted to one scope, and create_eval_graph / experimental_create_eval_graph restored from the training
checkpoints. Compared, as for folding: every op the rewrite added (name, type, inputs' names), the inputs it
rerouted, the variables and checkpoint keys, the losses, the forward pass and every variable after training, the
restored eval graph's forward pass.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.quantize." + n for n in (
    "create_training_graph", "create_eval_graph", "experimental_create_training_graph",
    "experimental_create_eval_graph"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim
Q = tf.contrib.quantize
X = np.random.RandomState(1).uniform(-1, 1, [4, 8, 8, 3]).astype(np.float32)
LABELS = np.eye(3, dtype=np.float32)[[0, 1, 2, 1]]

def model(is_training, fused):
  x = tf.placeholder(tf.float32, [4, 8, 8, 3], name="x")
  net = first = slim.conv2d(x, 4, [3, 3], scope="conv1", activation_fn=tf.nn.relu, normalizer_fn=slim.batch_norm,
                          normalizer_params={"is_training": is_training, "fused": fused})
  net = tf.layers.conv2d(net, 4, 3, use_bias=False, padding="same", name="conv2")
  net = tf.layers.batch_normalization(net, training=is_training, fused=True, name="bn2")
  net = tf.nn.relu(net, name="relu2") + first
  return x, slim.fully_connected(slim.flatten(net), 3, activation_fn=None, scope="logits")

def rewrite_and_report(key, rewrite):
  g = tf.get_default_graph()
  before = {op.name: [t.name for t in op.inputs] for op in g.get_operations()}
  rewrite()
  added, rerouted, overrides = [], [], []
  for op in g.get_operations():
    inputs = [t.name for t in op.inputs]
    if op.name not in before:
      added.append([op.name, op.type, inputs])
    elif inputs != before[op.name]:
      # only the inputs the rewrite changed: the others are the model's (a few are named differently by TF 2)
      rerouted.append([op.name, [[i, n] for i, (n, old) in enumerate(zip(inputs, before[op.name])) if n != old]])
    if op.type.startswith("FusedBatchNorm"):
      try:
        overrides.append([op.name, op.get_attr("_gradient_op_type").decode()])
      except ValueError:
        overrides.append([op.name, None])
  report(key + "_added", sorted(added))
  report(key + "_rerouted", sorted(rerouted))
  report(key + "_grad_override", sorted(overrides))
  report_variables(key + "_vars")

def init(sess):
  sess.run(tf.global_variables_initializer())
  init_from_numpy(sess, var_list=[v for v in tf.global_variables()
                                  if "quant" not in v.op.name and "fake_quantization_step" not in v.op.name])
  for v in tf.global_variables():
    if v.op.name.endswith("moving_variance"):
      sess.run(v.assign(tf.abs(v) + 0.5))

def train(key, rewrite, fused, steps=4):
  with tf.Graph().as_default():
    with case(key):
      x, logits = model(True, fused)
      rewrite_and_report(key, rewrite)
      loss = tf.losses.softmax_cross_entropy(LABELS, logits)
      step = tf.train.GradientDescentOptimizer(0.3).minimize(loss)
      with tf.control_dependencies([step]):
        train_op = tf.identity(loss)
      with tf.Session() as sess:
        init(sess)
        report(key + "_losses", [sess.run(train_op, {x: X}) for _ in range(steps)])
        report(key + "_forward", sess.run(logits, {x: X}))
        report(key + "_values", sess.run({v.op.name: v for v in tf.global_variables()}))
        report_checkpoint(sess, key + "_ckpt")
        return tf.train.Saver().save(sess, os.path.join(os.getcwd(), key))

def evaluate(key, rewrite, fused, checkpoint):
  with tf.Graph().as_default():
    with case(key):
      x, logits = model(False, fused)
      rewrite_and_report(key, rewrite)
      with tf.Session() as sess:
        tf.train.Saver().restore(sess, checkpoint)
        report(key + "_forward", sess.run(logits, {x: X}))

ckpt = train("delay", lambda: Q.create_training_graph(quant_delay=2), True)
evaluate("delay_eval", lambda: Q.create_eval_graph(), True, ckpt)
ckpt = train("symmetric", lambda: Q.experimental_create_training_graph(
    weight_bits=4, activation_bits=6, symmetric=True, quant_delay=1, freeze_bn_delay=3), False)
evaluate("symmetric_eval", lambda: Q.experimental_create_eval_graph(weight_bits=4, activation_bits=6, symmetric=True),
         False, ckpt)
train("scope", lambda: Q.experimental_create_training_graph(scope="conv2", quant_delay=1), True)
'''


@requires_tf115
def test_quantized_conv_bn_relu_graph_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
