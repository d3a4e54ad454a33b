"""tf.contrib.slim against TF 1.15: a slim model built under arg_scope (conv, pooling, batch norm, dropout, repeat,
stack, separable and transposed convolutions, fully connected layers), its variable names and collections, the
losses, a train op's step, the streaming metrics, variable helpers and checkpoint assignment, and the names
TF 1.15's slim leaked from contrib.layers / framework / metrics (served from those modules here)."""

from harness import assert_same, requires_tf115, run_both

SLIM = ("arg_scope", "conv2d", "max_pool2d", "avg_pool2d", "batch_norm", "dropout", "flatten", "fully_connected",
        "repeat", "stack", "separable_conv2d", "conv2d_transpose", "l2_regularizer", "xavier_initializer",
        "one_hot_encoding", "softmax", "unit_norm", "layer_norm", "losses", "learning", "metrics",
        "get_variables_to_restore", "get_model_variables", "get_variables_by_name", "get_variables",
        "get_trainable_variables", "model_variable", "variable", "assign_from_checkpoint_fn", "assign_from_values",
        "get_or_create_global_step", "add_arg_scope", "arg_scoped_arguments", "has_arg_scope", "bias_add",
        "contrib_framework", "metric_ops", "loss_ops", "embedding_ops", "safe_embedding_lookup_sparse")
ORACLE_TESTED = tuple("tf.contrib.slim." + n for n in SLIM) + (
    "tf.contrib.slim.losses.softmax_cross_entropy", "tf.contrib.slim.losses.get_total_loss",
    "tf.contrib.slim.learning.create_train_op", "tf.contrib.slim.metrics.streaming_accuracy",
    "tf.contrib.slim.metrics.aggregate_metric_map", "tf.contrib.slim.metric_ops.streaming_mean",
    "tf.contrib.slim.contrib_framework.get_variables_by_suffix", "tf.contrib.slim.loss_ops.mean_squared_error")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim
rng = np.random.RandomState(0)
images = tf.constant(rng.uniform(0, 1, [2, 8, 8, 3]).astype(np.float32))
labels = tf.constant([1, 3])
is_training = tf.placeholder_with_default(True, [])
report("arg_scoped", [slim.has_arg_scope(slim.conv2d), sorted(slim.arg_scoped_arguments(slim.max_pool2d))[:4]])
with slim.arg_scope([slim.conv2d, slim.fully_connected, slim.separable_conv2d, slim.conv2d_transpose],
                    weights_initializer=slim.xavier_initializer(seed=1),
                    weights_regularizer=slim.l2_regularizer(0.01),
                    normalizer_fn=slim.batch_norm, normalizer_params={"is_training": is_training, "decay": 0.9}):
    net = slim.repeat(images, 2, slim.conv2d, 4, [3, 3], scope="conv")
    net = slim.max_pool2d(net, [2, 2], scope="pool")
    net = slim.separable_conv2d(net, 6, [3, 3], depth_multiplier=1, scope="sep")
    up = slim.conv2d_transpose(net, 2, [3, 3], stride=2, scope="up")
    net = slim.avg_pool2d(net, [2, 2], scope="avg")
    net = slim.flatten(net)
    net = slim.dropout(net, 0.5, is_training=False)
    net = slim.stack(net, slim.fully_connected, [8, 6], scope="fc")
    logits = slim.fully_connected(net, 4, activation_fn=None, normalizer_fn=None, scope="logits")
normed = slim.layer_norm(slim.unit_norm(logits, 1), scope="ln")
probs = slim.softmax(logits)
biased = slim.bias_add(logits, scope="extra_bias")
onehot = slim.one_hot_encoding(labels, 4)
loss = slim.losses.softmax_cross_entropy(logits, onehot)
mse = slim.loss_ops.mean_squared_error(probs, onehot)
total = slim.losses.get_total_loss()
step = slim.get_or_create_global_step()
train = slim.learning.create_train_op(total, tf.train.GradientDescentOptimizer(0.1), global_step=step,
                                      clip_gradient_norm=1.0)
with tf.variable_scope("extra"):
    mv = slim.model_variable("mv", shape=[2], initializer=tf.ones_initializer())
    plain = slim.variable("plain", shape=[3], initializer=tf.zeros_initializer())
names = lambda vs: sorted(v.op.name for v in vs)
report("variables", names(slim.get_variables()))
report("model_variables", names(slim.get_model_variables()))
report("trainable", names(slim.get_trainable_variables()))
report("to_restore", names(slim.get_variables_to_restore(exclude=["fc", "extra/mv"])))
report("by_name", names(slim.get_variables_by_name("weights")))
report("by_suffix", names(slim.contrib_framework.get_variables_by_suffix("moving_mean")))
report("update_ops", len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)))
# (TF 1.15's slim.metric_ops was contrib.metrics' metric_ops module, whose functions tf.contrib.metrics exported)
report("leaked", [slim.metric_ops.streaming_mean is tf.contrib.metrics.streaming_mean,
                  slim.contrib_framework is tf.contrib.framework,
                  slim.embedding_ops.safe_embedding_lookup_sparse is tf.contrib.layers.safe_embedding_lookup_sparse,
                  slim.safe_embedding_lookup_sparse is tf.contrib.layers.safe_embedding_lookup_sparse])
names_to_values, names_to_updates = slim.metrics.aggregate_metric_map({
    "accuracy": slim.metrics.streaming_accuracy(tf.argmax(logits, 1), labels),
    "mean": slim.metric_ops.streaming_mean(probs)})
path = os.path.join(os.getcwd(), "slim.ckpt")
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    init_from_numpy(sess, seed=5, scale=0.3)
    report("forward", sess.run({"logits": logits, "normed": normed, "up": up, "biased": biased, "loss": loss,
                                "mse": mse, "total": total}))
    report("train_steps", [sess.run(train) for _ in range(3)])
    report("after", sess.run({"logits": logits, "step": step}))
    sess.run(list(names_to_updates.values()))
    report("metrics", sess.run(names_to_values))
    tf.train.Saver().save(sess, path)
    conv_weights = [v for v in slim.get_variables_by_name("weights") if v.op.name.startswith("conv/conv_1")][0]
    sess.run(conv_weights.assign(tf.zeros_like(conv_weights)))
    slim.assign_from_checkpoint_fn(path, slim.get_variables_to_restore(include=["conv"]))(sess)
    report("restored", sess.run(conv_weights))
    op, feed = slim.assign_from_values({"extra/plain": np.array([1.0, 2.0, 3.0], np.float32)})
    sess.run(op, feed)
    report("assigned", sess.run(plain))
'''


@requires_tf115
def test_contrib_slim_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["leaked"] == [True, True, True, True]
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
