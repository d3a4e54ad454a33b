"""The rest of contrib.layers' layer functions, contrib.framework's variable and arg_scope helpers, and
contrib.cluster_resolver's resolvers against TF 1.15: outputs from the same weights, variable names, collections,
checkpoint helpers, cluster specs."""

from harness import assert_same, requires_tf115, run_both

LAYERS = ("GDN", "avg_pool2d", "avg_pool3d", "batch_norm", "bias_add", "conv1d", "conv2d_in_plane",
          "conv2d_transpose", "conv3d", "conv3d_transpose", "convolution", "convolution1d", "convolution2d",
          "convolution2d_in_plane", "convolution2d_transpose", "convolution3d", "convolution3d_transpose",
          "dense_to_sparse", "dropout", "elu", "gdn", "group_norm", "images_to_sequence", "instance_norm",
          "legacy_fully_connected", "legacy_linear", "legacy_relu", "linear", "max_pool2d", "max_pool3d", "maxout",
          "one_hot_encoding", "relu", "relu6", "repeat", "scale_gradient", "separable_conv2d",
          "separable_convolution2d", "sequence_to_images", "softmax", "spatial_softmax", "stack", "unit_norm",
          "xavier_initializer_conv2d", "recompute_grad")
FRAMEWORK = ("add_arg_scope", "add_model_variable", "arg_scoped_arguments", "argsort", "assert_global_step",
             "assert_or_get_global_step", "assign_from_checkpoint", "assign_from_checkpoint_fn", "assign_from_values",
             "assign_from_values_fn", "convert_to_tensor_or_sparse_tensor", "create_global_step",
             "current_arg_scope", "filter_variables", "get_global_step", "get_local_variables",
             "get_model_variables", "get_name_scope", "get_or_create_global_step", "get_trainable_variables",
             "get_unique_variable", "get_variable_full_name", "get_variables", "get_variables_by_name",
             "get_variables_by_suffix", "get_variables_to_restore", "global_variable", "has_arg_scope",
             "init_from_checkpoint", "is_tensor", "list_variables", "load_checkpoint", "load_variable",
             "local_variable", "model_variable", "smart_cond", "sort", "variable", "VariableDeviceChooser")
RESOLVERS = ("ClusterResolver", "SimpleClusterResolver", "TFConfigClusterResolver", "UnionClusterResolver")
ORACLE_TESTED = (tuple("tf.contrib.layers." + n for n in LAYERS) + tuple("tf.contrib.framework." + n for n in FRAMEWORK)
                 + tuple("tf.contrib.cluster_resolver." + n for n in RESOLVERS))

SNIPPET = r'''
import json
import os
import numpy as np
import tensorflow as tf
L, F = tf.contrib.layers, tf.contrib.framework
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
# framework
step = F.create_global_step()
report("global_step", [F.get_global_step() is step, F.get_or_create_global_step() is step,
                       F.assert_or_get_global_step() is step])
F.assert_global_step(step)
with tf.variable_scope("fw"):
    mv = F.model_variable("mv", shape=[2], initializer=tf.ones_initializer())
    lv = F.local_variable([1.0, 2.0], name="lv")
    gv = F.global_variable([3.0], name="gv")
    v = F.variable("v", shape=[2], initializer=tf.zeros_initializer())
    extra = tf.Variable(1.0, name="extra")
    F.add_model_variable(extra)
names = lambda vs: sorted(x.op.name for x in vs)
report("framework_variables", [names(F.get_model_variables("fw")), names(F.get_local_variables("fw")),
                               names(F.get_trainable_variables("fw")), names(F.get_variables("fw")),
                               names(F.get_variables_by_name("v", "fw")), names(F.get_variables_by_suffix("mv")),
                               names(F.get_variables_to_restore(include=["fw"], exclude=["fw/mv"])),
                               names(F.filter_variables(F.get_variables("fw"), include_patterns=["v$"])),
                               F.get_unique_variable("fw/v").op.name, F.get_variable_full_name(v)])
@F.add_arg_scope
def scaled(x, factor=1.0):
    return x * factor
with F.arg_scope([scaled], factor=3.0) as sc:
    report("arg_scope", [F.has_arg_scope(scaled), F.arg_scoped_arguments(scaled), len(F.current_arg_scope()),
                         sorted(sc)[0][1] if isinstance(sorted(sc)[0], tuple) else None])
    out["scaled"] = scaled(tf.constant(2.0))
with tf.name_scope("outer"):
    report("name_scope", F.get_name_scope())
with tf.Graph().as_default():  # placed on ps tasks this process has not got: built, never run
    chooser = F.VariableDeviceChooser(num_tasks=2, job_name="ps", device_type="CPU")
    with tf.device(chooser):
        placed = [tf.Variable(1.0, name="p%d" % i).device for i in range(3)]
    report("device_chooser", placed)
out["sort"] = [F.sort(tf.constant([3, 1, 2]), direction="DESCENDING"), F.argsort(tf.constant([3.0, 1.0, 2.0]))]
out["smart_cond"] = F.smart_cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2))
report("tensor_checks", [F.is_tensor(vec), F.is_tensor(3), isinstance(F.convert_to_tensor_or_sparse_tensor([1]), tf.Tensor)])
# cluster resolvers
spec = {"worker": ["w0:2222", "w1:2222"], "ps": ["ps0:2222"]}
simple = tf.contrib.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(spec), task_type="worker", task_id=1)
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"chief": ["c0:1"], "worker": ["w9:1"]},
                                      "task": {"type": "worker", "index": 0}})
from_config = tf.contrib.cluster_resolver.TFConfigClusterResolver()
union = tf.contrib.cluster_resolver.UnionClusterResolver(simple, tf.contrib.cluster_resolver.SimpleClusterResolver(
    tf.train.ClusterSpec({"evaluator": ["e0:1"]})))
report("resolvers", [simple.cluster_spec().as_dict(), simple.master(), simple.task_type, simple.task_id,
                     from_config.cluster_spec().as_dict(), from_config.task_type, from_config.task_id,
                     from_config.master(), union.cluster_spec().as_dict(),
                     isinstance(union, tf.contrib.cluster_resolver.ClusterResolver)])
del os.environ["TF_CONFIG"]
report_variables()
path = os.path.join(os.getcwd(), "fw.ckpt")
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    init_from_numpy(sess, seed=9, scale=0.4)
    for key, value in sorted(out.items()):
        report(key, sess.run(value))
    saved = tf.train.Saver().save(sess, path)
    report("checkpoint_utils", [sorted(n for n, _ in F.list_variables(saved))[:6], F.load_variable(saved, "fw/v"),
                                F.load_checkpoint(saved).get_tensor("fw/mv")])
    sess.run(v.assign([7.0, 8.0]))
    op, feed = F.assign_from_checkpoint(saved, [v])
    sess.run(op, feed)
    restored_v = sess.run(v)
    sess.run(v.assign([7.0, 8.0]))
    F.assign_from_checkpoint_fn(saved, {"fw/v": v})(sess)
    op, feed = F.assign_from_values({"fw/gv": np.array([5.0], np.float32)})
    sess.run(op, feed)
    F.assign_from_values_fn({"fw/mv": np.array([4.0, 4.0], np.float32)})(sess)
    report("assigned", [restored_v] + sess.run([v, gv, mv]))
with tf.Graph().as_default():
    with tf.variable_scope("fw"):
        fresh = tf.get_variable("v", [2], initializer=tf.zeros_initializer())
    F.init_from_checkpoint(path, {"fw/": "fw/"})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        report("init_from_checkpoint", sess.run(fresh))
'''


@requires_tf115
def test_contrib_layers_framework_cluster_resolver_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
