"""tf.contrib.layers and tf.contrib.framework.arg_scope on TF 1.15 and under `tf1clip run`: values, variables, errors.

The two bugs the oracle found first: `flatten` of a tensor whose batch size is unknown, and
`arg_scope([layers.conv2d, layers.fully_connected])` ("not decorated with @add_arg_scope") -- both came from
tf1clip's own copies of functions tf-slim has; tf.contrib.layers now serves tf-slim's objects.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.layers.flatten", "tf.contrib.layers.fully_connected", "tf.contrib.layers.layer_norm",
    "tf.contrib.framework.arg_scope", "tf.contrib.layers.conv2d", "tf.contrib.layers.l2_regularizer",
    "tf.contrib.layers.l1_regularizer", "tf.contrib.layers.l1_l2_regularizer",
    "tf.contrib.layers.apply_regularization", "tf.contrib.layers.embed_sequence",
    "tf.contrib.layers.bow_encoder", "tf.contrib.layers.xavier_initializer",
    "tf.contrib.layers.variance_scaling_initializer", "tf.contrib.layers.sum_regularizer",
    "tf.contrib.layers.summaries", "tf.contrib.layers.summarize_activation") + tuple(
        "tf.contrib.layers.summaries." + n for n in (
            "summarize_activation", "summarize_activations", "summarize_tensor", "summarize_tensors",
            "summarize_collection", "summarize_variables", "summarize_weights", "summarize_biases"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
layers = tf.contrib.layers

x = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5) / 100.0
unknown_batch = tf.placeholder(tf.float32, [None, 3, 4, 5])
with case("flatten_unknown_batch"):
    flat = layers.flatten(unknown_batch)
    report("flatten_unknown_batch_shape", flat.shape.as_list())
with case("flatten_unknown_everything"):
    report("flatten_unknown_shape", layers.flatten(tf.placeholder(tf.float32, [None, None, 4])).shape.as_list())
with case("flatten_rank1"):
    layers.flatten(tf.placeholder(tf.float32, [3]))

with case("arg_scope_conv_fc"):
    with tf.contrib.framework.arg_scope([layers.conv2d, layers.fully_connected],
                                       weights_regularizer=layers.l2_regularizer(0.01)):
        net = layers.conv2d(unknown_batch, 6, [3, 3], scope="conv")
        net = layers.flatten(net)
        logits = layers.fully_connected(net, 7, activation_fn=None, scope="fc")
        normed = layers.layer_norm(logits, scope="ln")

ids = tf.constant([[1, 2, 3], [4, 0, 5]])
embedded = layers.embed_sequence(ids, vocab_size=8, embed_dim=4)
bow = layers.bow_encoder(ids, vocab_size=8, embed_dim=4)
reg = layers.apply_regularization(layers.l1_l2_regularizer(0.1, 0.2), [tf.constant([1.0, -2.0])])
summed = layers.sum_regularizer([layers.l1_regularizer(0.5), None])(tf.constant([3.0, -4.0]))
xavier = tf.get_variable("xavier", [5, 6], initializer=layers.xavier_initializer(seed=1))
scaled = tf.get_variable("scaled", [5, 6], initializer=layers.variance_scaling_initializer(seed=1))

# the summaries module: which summaries each summarizer writes (tags), and their values
S = layers.summaries
relu6 = tf.nn.relu6(tf.constant([[-1.0, 3.0, 7.0]]), name="act6")
tf.add_to_collection(tf.GraphKeys.ACTIVATIONS, relu6)
tf.add_to_collection(tf.GraphKeys.WEIGHTS, xavier)
tf.add_to_collection(tf.GraphKeys.BIASES, scaled)
summary_ops = [S.summarize_activations(), S.summarize_tensor(tf.constant(2.5, name="scalar")),
               S.summarize_tensors([tf.constant([1.0, 2.0], name="vec"), tf.constant([True])]),
               S.summarize_collection(tf.GraphKeys.GLOBAL_VARIABLES, name_filter="x.*"),
               S.summarize_variables(name_filter="scaled"), S.summarize_weights(), S.summarize_biases(),
               layers.summarize_activation(tf.nn.relu(tf.constant([-2.0, 1.0]), name="act"))]
report("summary_ops", [[None if t is None else t.op.type for t in (ops if isinstance(ops, list) else [ops])]
                       for ops in summary_ops])
merged = tf.summary.merge_all()

report_variables()
report("regularization_losses", len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=3)
    out = sess.run({"flat": flat, "logits": logits, "normed": normed, "embedded": embedded, "bow": bow,
                    "reg": reg, "summed": summed, "reg_total": tf.losses.get_regularization_loss()},
                   {unknown_batch: x})
    for k, v in sorted(out.items()):
        report(k, v)
    proto = tf.Summary.FromString(sess.run(merged, {unknown_batch: x}))
    report("summaries", sorted((v.tag, v.simple_value if v.HasField("simple_value") else list(v.histo.bucket))
                               for v in proto.value))
    report_checkpoint(sess)
'''


@requires_tf115
def test_contrib_layers_match_tf115_flatten_unknown_batch_and_arg_scope():
  tf115, ours = run_both(SNIPPET)
  assert tf115["flatten_unknown_batch_shape"] == [None, 60]
  assert "arg_scope_conv_fc:error" not in tf115
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
