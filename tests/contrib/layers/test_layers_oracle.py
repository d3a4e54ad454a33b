"""tf.contrib.layers and tf.contrib.framework.arg_scope on TF 1.15 and under `tf1clip run`: values, variables, errors.

The two bugs the oracle found first: `flatten` of a tensor whose batch size is unknown, and
`arg_scope([layers.conv2d, layers.fully_connected])` ("not decorated with @add_arg_scope") -- both came from
tf1clip's own copies of functions tf-slim has; tf.contrib.layers now serves tf-slim's objects.

The rest of the layer functions (LAYERS): outputs from the same weights, variable names, collections.
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

LAYERS = ("GDN", "avg_pool2d", "avg_pool3d", "batch_norm", "bias_add", "conv1d", "conv2d_in_plane",
          "conv2d_transpose", "conv3d", "conv3d_transpose", "convolution", "convolution1d", "convolution2d",
          "convolution2d_in_plane", "convolution2d_transpose", "convolution3d", "convolution3d_transpose",
          "dense_to_sparse", "dropout", "elu", "gdn", "group_norm", "images_to_sequence", "instance_norm",
          "legacy_fully_connected", "legacy_linear", "legacy_relu", "linear", "max_pool2d", "max_pool3d", "maxout",
          "one_hot_encoding", "relu", "relu6", "repeat", "scale_gradient", "separable_conv2d",
          "separable_convolution2d", "sequence_to_images", "softmax", "spatial_softmax", "stack", "unit_norm",
          "xavier_initializer_conv2d", "recompute_grad")
ORACLE_TESTED = ORACLE_TESTED + tuple("tf.contrib.layers." + n for n in LAYERS)

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


LAYER_FUNCTIONS_SNIPPET = r'''
import numpy as np
import tensorflow as tf
L = tf.contrib.layers
rng = np.random.RandomState(0)
img = tf.constant(rng.uniform(0, 1, [2, 6, 6, 4]).astype(np.float32))
vol = tf.constant(rng.uniform(0, 1, [2, 4, 4, 4, 2]).astype(np.float32))
seq = tf.constant(rng.uniform(0, 1, [2, 5, 3]).astype(np.float32))
vec = tf.constant(rng.uniform(-1, 1, [2, 6]).astype(np.float32))
out = {
    "avg_pool2d": L.avg_pool2d(img, 2), "avg_pool3d": L.avg_pool3d(vol, 2), "max_pool2d": L.max_pool2d(img, 3, 1),
    "max_pool3d": L.max_pool3d(vol, 2),
    "batch_norm": L.batch_norm(img, is_training=True, scale=True, scope="bn"),
    "batch_norm_fused": L.batch_norm(img, is_training=False, fused=True, scope="bn_fused"),
    "bias_add": L.bias_add(vec, scope="bias"), "conv1d": L.conv1d(seq, 3, 2, scope="c1d"),
    "conv2d_in_plane": L.conv2d_in_plane(img, [2, 2], scope="inplane"),
    "conv2d_transpose": L.conv2d_transpose(img, 2, 3, stride=2, scope="c2t"),
    "conv3d": L.conv3d(vol, 2, 2, scope="c3d"), "conv3d_transpose": L.conv3d_transpose(vol, 2, 2, stride=2, scope="c3t"),
    "convolution": L.convolution(img, 3, [3, 3], rate=2, scope="atrous"),
    "dense_to_sparse": tf.sparse.to_dense(L.dense_to_sparse(tf.constant([[1, 0, 2], [0, 0, 3]]))),
    "dropout": L.dropout(vec, 0.5, is_training=False), "elu": L.elu(vec, 2, scope="elu"),
    "gdn": L.gdn(img, name="gdn"), "GDN": L.GDN(inverse=True)(img),
    "group_norm": L.group_norm(img, groups=2, scope="gn"), "instance_norm": L.instance_norm(img, scope="in"),
    "images_to_sequence": L.images_to_sequence(img),
    "sequence_to_images": L.sequence_to_images(tf.reshape(img, [12, 6, 4]), 6),
    "legacy_fully_connected": L.legacy_fully_connected(vec, 3, name="legacy_fc"),
    "legacy_linear": L.legacy_linear(vec, 2, name="legacy_lin"), "legacy_relu": L.legacy_relu(vec, 2, name="lrelu"),
    "linear": L.linear(vec, 3, scope="lin"), "relu": L.relu(vec, 2, scope="relu"), "relu6": L.relu6(vec, 2, scope="r6"),
    "maxout": L.maxout(vec, 3), "one_hot_encoding": L.one_hot_encoding(tf.constant([0, 2]), 3),
    "repeat": L.repeat(img, 2, L.conv2d, 4, [1, 1], scope="rep"),
    "stack": L.stack(vec, L.fully_connected, [5, 4], scope="stk"),
    "scale_gradient": tf.gradients(tf.reduce_sum(L.scale_gradient(vec, 0.25) ** 2), vec)[0],
    "separable_conv2d": L.separable_conv2d(img, 3, [3, 3], 2, scope="sep"),
    "separable_depthwise": L.separable_conv2d(img, None, [3, 3], 1, scope="depthwise"),
    "softmax": L.softmax(vec), "spatial_softmax": L.spatial_softmax(img, name="ss"), "unit_norm": L.unit_norm(vec, 1),
    "xavier_conv": tf.get_variable("xconv", [3, 3, 2, 2], initializer=L.xavier_initializer_conv2d(seed=3)),
}
report("aliases", [L.convolution1d is L.conv1d, L.convolution2d is L.conv2d, L.convolution3d is L.conv3d,
                   L.convolution2d_in_plane is L.conv2d_in_plane, L.convolution2d_transpose is L.conv2d_transpose,
                   L.convolution3d_transpose is L.conv3d_transpose, L.separable_convolution2d is L.separable_conv2d])
recomputed = L.recompute_grad(lambda x: tf.tanh(x) * 2.0)
out["recompute_grad"] = tf.gradients(tf.reduce_sum(recomputed(vec)), vec)[0]
report_variables()
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    init_from_numpy(sess, seed=9, scale=0.4)
    for key, value in sorted(out.items()):
        report(key, sess.run(value))
'''


@requires_tf115
def test_contrib_layers_layer_functions_match_tf115():
  tf115, ours = run_both(LAYER_FUNCTIONS_SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
