"""tf.contrib.quantize against TF 1.15: the quantization-aware-training rewrites of a slim conv + batch_norm + relu6
net (fused batch norm), an FC net (unfused batch norm), a tf.layers net, and a net with an atrous depthwise conv,
a residual block, Keras layers and resource variables, for training and eval graphs.

Compared: the FakeQuant ops (names, types, their inputs' names and op types), the variables the rewrite adds, the
outputs after `init_from_numpy` for a fixed input, the losses of a few training steps (quant_delay 0, a delay, and
the experimental API's freeze_bn_delay / 4-bit / symmetric options; the fused batch norm's folded gradient
`FoldFusedBatchNormGrad` is in them), and the errors TF 1.15 raises. A slim dropout in training (TF 2.21's
Mul + SelectV2 where TF 1.15 had mul + mul_1) gets TF 1.15's two `activation_Mul_quant` FakeQuants and variable
names; only the names of the dropout ops they read differ (they are TensorFlow 2's), so those are not compared.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.quantize." + n for n in (
    "create_training_graph", "create_eval_graph", "experimental_create_training_graph",
    "experimental_create_eval_graph"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim
Q = tf.contrib.quantize
X = np.random.RandomState(0).uniform(-1, 1, [4, 8, 8, 3]).astype(np.float32)
LABELS = np.eye(3, dtype=np.float32)[[0, 1, 2, 1]]

def slim_net(is_training, fused=True, fc_only=False):
  x = tf.placeholder(tf.float32, [4, 8, 8, 3], name="x")
  with slim.arg_scope([slim.conv2d, slim.fully_connected], normalizer_fn=slim.batch_norm,
                      activation_fn=tf.nn.relu6):
    with slim.arg_scope([slim.batch_norm], is_training=is_training, fused=fused):
      net = x
      if not fc_only:
        net = slim.conv2d(net, 4, [3, 3], scope="conv1")
        net = slim.conv2d(net, 4, [3, 3], scope="conv2", activation_fn=tf.nn.relu)
      net = slim.flatten(net)
      net = slim.fully_connected(net, 6, scope="fc1", normalizer_params={"fused": False})
      logits = slim.fully_connected(net, 3, activation_fn=None, normalizer_fn=None, scope="logits")
  return x, logits

def layers_net():
  x = tf.placeholder(tf.float32, [4, 8, 8, 3], name="x")
  net = tf.layers.conv2d(x, 4, 3, use_bias=False, name="c")
  net = tf.layers.batch_normalization(net, training=True, fused=True, name="bn")
  net = tf.nn.relu6(net, name="act")
  net = tf.layers.dense(tf.layers.flatten(net), 3, name="d")
  return x, net

def dropout_net():
  # TF 2.21's dropout is Mul + SelectV2 (TF 1.15's mul + mul_1): the FakeQuants and their variables keep TF 1.15's
  # names; the dropout ops they read are TensorFlow 2's (only their names are left out of the comparison).
  tf.set_random_seed(3)
  x = tf.placeholder(tf.float32, [4, 8, 8, 3], name="x")
  net = slim.conv2d(x, 4, [3, 3], scope="c", normalizer_fn=slim.batch_norm,
                    normalizer_params={"is_training": True})
  net = slim.dropout(net, 0.5, is_training=True, seed=5)
  return x, slim.fully_connected(slim.flatten(net), 3, activation_fn=None, scope="fc")

def fake_quants(key):
  ops = [op for op in tf.get_default_graph().get_operations() if op.type.startswith("FakeQuant")]
  report(key, sorted([op.name, op.type, [[t.name, t.op.type] for t in op.inputs]] for op in ops))

def init(sess):
  # The model's variables from numpy (the same on both sides), the rewrite's own (min / max, EMA debias
  # variables, the step counter) from their constant initializers; moving variances made positive.
  sess.run(tf.global_variables_initializer())
  init_from_numpy(sess, var_list=[v for v in tf.global_variables()
                                  if "quant" not in v.op.name and "fake_quantization_step" not in v.op.name])
  for v in tf.global_variables():
    if v.op.name.endswith("moving_variance"):
      sess.run(v.assign(tf.abs(v) + 0.5))

def train(key, logits, x, steps=3):
  loss = tf.losses.softmax_cross_entropy(LABELS, logits)
  step = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
  with tf.control_dependencies([step]):
    train_op = tf.identity(loss)
  with tf.Session() as sess:
    init(sess)
    report(key, [sess.run(train_op, {x: X}) for _ in range(steps)] + [sess.run(logits, {x: X})])
    report(key + "_minmax", sess.run({v.op.name: v for v in tf.global_variables()
                                      if v.op.name.endswith(("_quant/min", "_quant/max"))}))

def case_graph(key, build, rewrite, run=None):
  with tf.Graph().as_default():
    with case(key):
      x, logits = build()
      rewrite()
      fake_quants(key + "_fq")
      report_variables(key + "_vars")
      if run:
        run(key, logits, x)

def evaluate(key, logits, x):
  with tf.Session() as sess:
    init(sess)
    report(key + "_out", sess.run(logits, {x: X}))

case_graph("train0", lambda: slim_net(True), lambda: Q.create_training_graph(), train)
case_graph("train_delay", lambda: slim_net(True),
           lambda: Q.create_training_graph(tf.get_default_graph(), quant_delay=2), train)
case_graph("exp_train", lambda: slim_net(True), lambda: Q.experimental_create_training_graph(
    weight_bits=4, activation_bits=6, symmetric=True, quant_delay=1, freeze_bn_delay=2), train)
case_graph("exp_train_scope", lambda: slim_net(True),
           lambda: Q.experimental_create_training_graph(scope="conv2"), None)
case_graph("layers_train", layers_net, lambda: Q.create_training_graph(), train)
with tf.Graph().as_default():
  x, logits = dropout_net()
  Q.create_training_graph()
  fq = [op for op in tf.get_default_graph().get_operations() if op.type.startswith("FakeQuant")]
  report("dropout_fq", sorted([op.name, [t.name for t in op.inputs[1:]]] for op in fq))
  report_variables("dropout_vars")
  train("dropout", logits, x)
case_graph("eval", lambda: slim_net(False), lambda: Q.create_eval_graph(), evaluate)
case_graph("eval_unfused", lambda: slim_net(False, fused=False), lambda: Q.create_eval_graph(), evaluate)
case_graph("exp_eval", lambda: slim_net(False), lambda: Q.experimental_create_eval_graph(
    weight_bits=5, symmetric=True, quant_delay=3, scope="conv1"), evaluate)

def more_patterns(is_training):
  # An atrous depthwise conv (SpaceToBatchND / BatchToSpaceND), a residual block (bypass and post-activation
  # bypass adds), Keras layers and resource variables.
  x = tf.placeholder(tf.float32, [4, 8, 8, 3], name="x")
  bn = {"normalizer_fn": slim.batch_norm, "normalizer_params": {"is_training": is_training}}
  net = slim.separable_conv2d(x, None, [3, 3], depth_multiplier=1, rate=2, scope="dw", activation_fn=tf.nn.relu6,
                              **bn)
  with tf.variable_scope("block", use_resource=True):
    res = slim.conv2d(net, 3, [3, 3], scope="conv", activation_fn=None, **bn)
  net = tf.nn.relu(net + res) + net
  net = tf.keras.layers.Conv2D(4, 3, use_bias=False, name="kc")(net)
  net = tf.keras.layers.BatchNormalization(name="kbn")(net, training=is_training)
  net = tf.keras.layers.ReLU(6.0, name="krelu")(net)
  return x, tf.keras.layers.Dense(3, name="kd")(tf.keras.layers.Flatten()(net))

case_graph("more_train", lambda: more_patterns(True), lambda: Q.create_training_graph(), None)
case_graph("more_eval", lambda: more_patterns(False), lambda: Q.create_eval_graph(), evaluate)

def twice(rewrite):
  with tf.Graph().as_default():
    slim_net(True)
    rewrite()
    rewrite()
    fake_quants("twice_fq_%d" % len([k for k in _RESULTS if k.startswith("twice_fq")]))

def after_optimizer(**options):
  with tf.Graph().as_default():
    _, logits = slim_net(True, fc_only=True)
    tf.train.GradientDescentOptimizer(0.1).minimize(tf.reduce_sum(logits))
    Q.create_training_graph(**options)

def no_layers():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [2, 3])
    tf.nn.relu(x * 2.0 + 1.0)
    Q.create_training_graph()
    Q.create_eval_graph()
    fake_quants("no_layers_fq")

def bad_delay(delay):
  with tf.Graph().as_default():
    slim_net(True, fc_only=True)
    Q.create_training_graph(quant_delay=delay)

def bad_freeze(delay):
  with tf.Graph().as_default():
    slim_net(True, fc_only=True)
    Q.experimental_create_training_graph(freeze_bn_delay=delay)

report_errors("errors", [
    ("twice_training", lambda: twice(lambda: Q.create_training_graph())),
    ("twice_eval", lambda: twice(lambda: Q.create_eval_graph())),
    ("after_optimizer", after_optimizer),
    ("after_optimizer_delay_string", lambda: after_optimizer(quant_delay="3")),
    ("no_layers", no_layers),
    ("delay_string", lambda: bad_delay("3")),
    ("delay_negative", lambda: bad_delay(-2)),
    ("delay_float", lambda: bad_delay(1.5)),
    ("delay_numpy_int", lambda: bad_delay(np.int64(2))),
    ("freeze_float", lambda: bad_freeze(1.5)),
    ("freeze_string", lambda: bad_freeze("2")),
    ("freeze_numpy_int", lambda: bad_freeze(np.int32(2))),
    ("not_a_graph", lambda: Q.create_eval_graph(input_graph=3)),
])
'''


@requires_tf115
def test_contrib_quantize_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
