"""tf.contrib.receptive_field (TF 1.15's receptive_field/python/util/: receptive_field, graph_compute_order,
parse_layer_parameters) against TF 1.15.

receptive_field: a small slim / tf.layers net (VALID and SAME convs with strides, a Pad, SAME max pool, a 1x1
conv and a 3x3 conv + separable conv branch concatenated, an average pool, dropout): the receptive field of
several outputs with and without the input resolution (undefined SAME padding gives None), `stop_propagation`,
ReceptiveField's coordinate conversions, get_compute_order's orders and resolutions, and the ValueErrors /
KeyError TF 1.15 raises (unknown input / output node, unaligned branches in center and stride, a dropout's
random mask or a batch norm in the path, Const conv weights, a split output, coordinate dimensions).

Not a tf1clip difference, but TensorFlow 2.21's graph: it names some ops differently (`tf.add` is AddV2, dropout is
`.../SelectV2` over `.../Mul` where TF 1.15 had `.../mul_1` over `.../mul`); the snippet reports AddV2 as Add and
the dropout nodes by order and size only.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.receptive_field.compute_receptive_field_from_graph_def", "tf.contrib.receptive_field.get_compute_order")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim
rf = tf.contrib.receptive_field

# ---- receptive_field ----
g = tf.Graph()
with g.as_default():
    image = tf.placeholder(tf.float32, [1, 64, 64, 3], name="image")
    with slim.arg_scope([slim.conv2d], activation_fn=tf.nn.relu6):
        net = slim.conv2d(image, 8, [3, 3], stride=2, padding="VALID", scope="conv1")
    net = tf.pad(net, [[0, 0], [1, 1], [1, 1], [0, 0]])
    net = slim.max_pool2d(net, [3, 3], stride=2, padding="SAME", scope="pool1")
    b1 = slim.conv2d(net, 4, [1, 1], scope="b1")
    b2 = tf.layers.conv2d(net, 4, 3, padding="same", name="b2")
    b2 = slim.separable_conv2d(b2, 4, [3, 3], depth_multiplier=1, scope="b2sep")
    cat = tf.concat([b1, b2], 3, name="cat")
    avg = tf.nn.avg_pool(cat, [1, 2, 2, 1], [1, 2, 2, 1], "VALID", name="avg")
    dropped = tf.nn.dropout(avg, keep_prob=0.5)
    top = slim.conv2d(dropped, 2, [1, 1], scope="top")
    # unaligned: a Pad shifts one branch's center
    shifted = slim.conv2d(tf.pad(image, [[0, 0], [2, 0], [2, 0], [0, 0]]), 2, [3, 3], padding="VALID", scope="sh")
    straight = slim.conv2d(image, 2, [1, 1], scope="st")
    misaligned = tf.concat([shifted, straight], 3, name="misaligned")
    # unaligned in stride: a 1x1 map (stride 64) broadcast onto a stride-2 map
    fine = slim.conv2d(image, 2, [2, 2], stride=2, padding="VALID", scope="fine")
    coarse = slim.avg_pool2d(image, [64, 64], stride=64, padding="VALID", scope="coarse")
    strided = tf.add(fine, slim.conv2d(coarse, 2, [1, 1], scope="coarse_conv"), name="strided")
    with tf.variable_scope("bnnet"):
        bn = slim.batch_norm(slim.conv2d(image, 2, [1, 1], scope="c"), scope="bn")
    halves = tf.split(image, 2, axis=1)
    split_out = tf.identity(halves[1], name="split_out")
# a conv with Const weights fails get_compute_order's sizes for the whole graph: a graph of its own
g_const = tf.Graph()
with g_const.as_default():
    tf.nn.conv2d(tf.placeholder(tf.float32, [1, 8, 8, 3], name="image"), tf.constant(np.ones([3, 3, 3, 2],
                 np.float32)), [1, 1, 1, 1], "SAME", name="const_conv")


def rf_of(output, **kwargs):
    field = rf.compute_receptive_field_from_graph_def(g.as_graph_def(), "image", output, **kwargs)
    return [list(field.size), list(field.stride), list(field.padding)]


report("rf_cat_res", rf_of("cat", input_resolution=[64, 64]))
report("rf_cat_nores", rf_of("cat"))
report("rf_avg", rf_of("avg", input_resolution=[64, 64]))
report("rf_b1_only", rf_of("cat", stop_propagation=["b2"], input_resolution=[64, 64]))
report("rf_b2_only", rf_of("cat", stop_propagation=["b1/"]))
report("rf_top_dropout_mask_stopped", rf_of("top/Relu", input_resolution=[64, 64],
                                            stop_propagation=["dropout/random_uniform"]))
report("rf_from_graph_and_tensors", list(rf.compute_receptive_field_from_graph_def(g, image, cat)))
field = rf.compute_receptive_field_from_graph_def(g, "image", "cat", input_resolution=[64, 64])
report("centers", field.compute_input_center_coordinates([[0, 0], [3, 5]]))
report("centers_axis", field.compute_input_center_coordinates([[2], [7]], axis=[1]))
report("features", field.compute_feature_coordinates([[6.5, 10.5], [30.5, 46.5]]))
report("features_axis", field.compute_feature_coordinates([[6.5]], axis=(0,)))
report_errors("rf_errors", (
    ("unknown_input", lambda: rf.compute_receptive_field_from_graph_def(g.as_graph_def(), "no_such_input", "cat")),
    ("unknown_output", lambda: rf_of("no_such_output")),
    ("misaligned_center", lambda: rf_of("misaligned", input_resolution=[64, 64])),
    ("misaligned_stride", lambda: rf_of("strided", input_resolution=[64, 64])),
    ("dropout_random_mask", lambda: rf_of("top/Relu", input_resolution=[64, 64])),
    ("batch_norm", lambda: rf_of("bnnet/bn/FusedBatchNormV3")),
    ("const_weights", lambda: rf.compute_receptive_field_from_graph_def(g_const, "image", "const_conv")),
    ("split_output", lambda: rf_of("split_out")),
    ("center_dims", lambda: field.compute_input_center_coordinates([[1, 2, 3]])),
    ("feature_dims", lambda: field.compute_feature_coordinates([[1, 2]], axis=[0])),
))

node_info, name_to_node = rf.get_compute_order(g.as_graph_def(), input_node_name="image", input_node_size=[64, 64])
named = {}
dropout_nodes = []
for name, info in node_info.items():
    if info.input_size is None:
        continue
    if name.startswith("dropout/"):
        dropout_nodes.append([info.order, info.input_size, info.output_size])
    else:
        # `tf.add` builds AddV2 on TensorFlow 2.21 (Add on TF 1.15); both leave the receptive field unchanged
        named[name] = [info.order, info.input_size, info.output_size, {"AddV2": "Add"}.get(info.node.op,
                                                                                             info.node.op)]
report("compute_order_sizes", named)
report("compute_order_dropout", sorted(dropout_nodes))
report("compute_order_types", [type(node_info).__name__, sorted(name_to_node) == sorted(n.name for n in
                                                                                       g.as_graph_def().node)])
plain_info, _ = rf.get_compute_order(g.as_graph_def())
report("compute_order_plain", {name: [plain_info[name].order, plain_info[name].input_size,
                                      plain_info[name].output_size]
                               for name in ("image", "conv1/Conv2D", "Pad", "pool1/MaxPool", "cat", "avg",
                                            "b2sep/separable_conv2d/depthwise", "misaligned")})
'''


@requires_tf115
def test_receptive_field_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours)
