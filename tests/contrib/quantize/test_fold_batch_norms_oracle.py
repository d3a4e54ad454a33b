"""contrib.quantize's batch-norm folding (python/fold_batch_norms.py) against TF 1.15, on a small conv + batch_norm +
relu model: a slim conv2d and an atrous depthwise conv (separable_conv2d, rate 2) with fused or unfused batch
norms, a tf.layers conv2d with a fused batch_normalization, and an FC head; with reference variables, and with
resource variables (rewritten inside a use_resource scope, where the unfused folding reads ReadVariableOps).

For each rewrite the whole rewritten graph is compared: every op the rewrite added (name, type, the names of its
inputs), every existing op whose inputs it changed (and the inputs it changed), the gradient override it put on
the fused batch norms, the variables and the checkpoint keys; then the values: the losses of the training steps,
the forward pass after them and every variable (moving mean / variance included, so `freeze_bn_delay`'s frozen
updates are seen), and an eval graph restored from the training checkpoint.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.quantize." + n for n in (
    "create_training_graph", "create_eval_graph", "experimental_create_training_graph"))

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
  net = slim.conv2d(x, 4, [3, 3], scope="conv1", activation_fn=tf.nn.relu, normalizer_fn=slim.batch_norm,
                    normalizer_params={"is_training": is_training, "fused": fused})
  net = slim.separable_conv2d(net, None, [3, 3], depth_multiplier=1, rate=2, scope="dw", activation_fn=tf.nn.relu6,
                              normalizer_fn=slim.batch_norm,
                              normalizer_params={"is_training": is_training, "fused": fused})
  net = tf.layers.conv2d(net, 4, 3, use_bias=False, name="conv2")
  net = tf.layers.batch_normalization(net, training=is_training, fused=True, name="bn2")
  net = tf.nn.relu(net, name="relu2")
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

def train(key, rewrite, fused, steps=4, resource=False):
  with tf.Graph().as_default(), tf.variable_scope(tf.get_variable_scope(), use_resource=resource):
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

for fused in (True, False):
  name = "fused" if fused else "unfused"
  ckpt = train(name + "_train", lambda: Q.create_training_graph(), fused)
  evaluate(name + "_eval", lambda: Q.create_eval_graph(), fused, ckpt)
  train(name + "_freeze", lambda: Q.experimental_create_training_graph(freeze_bn_delay=2), fused)
  train(name + "_resource", lambda: Q.create_training_graph(), fused, steps=2, resource=True)
'''


@requires_tf115
def test_folded_conv_bn_relu_graph_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
