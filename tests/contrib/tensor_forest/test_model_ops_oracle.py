"""TF 1.15's tensor_forest model_ops against TF 1.15, on small trees: `tree_variable` (its handle op's name, the
saveable and resource it registers, a Saver's keys, a restore), `TreeVariable` / `TreeVariableSavable` used directly,
and the ops it re-exports on a hand-written three-node tree and on a fresh one-leaf tree: tree_size, the serialized
tree, traverse_tree_v4's leaf ids, tree_predictions_v4's probabilities (or regression values) and tree paths,
update_model_v4's new counts, feature_usage_counts, dense and sparse input, and gradients (none flow)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.tensor_forest.model_ops." + n for n in (
    "tree_variable", "TreeVariable", "TreeVariableSavable"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
from google.protobuf import text_format
from tensorflow.contrib.tensor_forest.python import tensor_forest
from tensorflow.contrib.tensor_forest.python.ops import data_ops, model_ops, stats_ops
tf.logging.set_verbosity(tf.logging.ERROR)
try:
    from tensorflow.contrib.decision_trees.proto import generic_tree_model_pb2 as tree_pb2
except ImportError:
    from tf1clip.contrib.tensor_forest.proto import generic_tree_model_pb2 as tree_pb2

# x0 <= 0.5 ? leaf 1 : (x1 <= 0.25 ? leaf 3 : leaf 4); the root without a node_id, as TF 1.15's own trees have it
# (tf1clip's kernels write a root's id 0 as absent: a tree given with `node_id { value: 0 }` comes back without it)
TREE = """
decision_tree {
  nodes { binary_node { left_child_id { value: 1 } right_child_id { value: 2 }
          inequality_left_child_test { feature_id { id { value: "0" } } threshold { float_value: 0.5 } } } }
  nodes { node_id { value: 1 } leaf { vector { value { float_value: 3 } value { float_value: 1 } } } }
  nodes { node_id { value: 2 } binary_node { left_child_id { value: 3 } right_child_id { value: 4 }
          inequality_left_child_test { feature_id { id { value: "1" } } threshold { float_value: 0.25 } } } }
  nodes { node_id { value: 3 } leaf { vector { value { float_value: 0 } value { float_value: 4 } } } }
  nodes { node_id { value: 4 } leaf { vector { value { float_value: 2 } value { float_value: 2 } } } }
}
"""
X = np.array([[0.1, 0.9], [0.7, 0.1], [0.9, 0.8], [0.5, 0.25], [0.6, 0.3]], np.float32)

def nodes(serialized):
    model = tree_pb2.Model()
    model.ParseFromString(serialized)
    out = []
    for n in model.decision_tree.nodes:
        if n.HasField("leaf"):
            out.append(["leaf", n.node_id.value, [v.float_value for v in n.leaf.vector.value]])
        else:
            t = n.binary_node.inequality_left_child_test
            out.append([n.node_id.value, t.feature_id.id.value, t.threshold.float_value,
                        n.binary_node.left_child_id.value, n.binary_node.right_child_id.value])
    return out

def params_of(**kw):
    base = dict(num_classes=2, num_features=2, num_trees=1, max_nodes=9, split_after_samples=3,
                inference_tree_paths=True)
    base.update(kw)
    params = tensor_forest.ForestHParams(**base).fill()
    params.serialized_params_proto = tensor_forest.build_params_proto(params).SerializeToString()
    return params

def serialized_tree(text):
    model = tree_pb2.Model()
    text_format.Merge(text, model)
    return model.SerializeToString()

def tree_ops(params, tree, spec, data):
    leaves = model_ops.traverse_tree_v4(tree, data, [], [], [], input_spec=spec,
                                        params=params.serialized_params_proto)
    probs, paths = model_ops.tree_predictions_v4(tree, data, [], [], [], input_spec=spec,
                                                 params=params.serialized_params_proto)
    return leaves, probs, paths

with case("classification"):
    with tf.Graph().as_default():
        params = params_of()
        x = tf.placeholder(tf.float32, [None, 2])
        _, _, spec = data_ops.ParseDataTensorOrDict(x)
        spec = spec.SerializeToString()
        stats = stats_ops.fertile_stats_variable(params, "", "stats")
        tree = model_ops.tree_variable(params, serialized_tree(TREE), stats, "tree")
        fresh = model_ops.tree_variable(params, "", stats, None)
        leaves, probs, paths = tree_ops(params, tree, spec, x)
        fresh_ops = tree_ops(params, fresh, spec, x)
        labels = tf.constant([1.0, 0.0, 0.0, 1.0, 1.0])
        update = model_ops.update_model_v4(tree, leaves, labels, [], params=params.serialized_params_proto)
        weighted = model_ops.update_model_v4(fresh, fresh_ops[0], labels, tf.constant([1.0, 2.0, 0.5, 1.0, 3.0]),
                                             params=params.serialized_params_proto)
        usage = model_ops.feature_usage_counts(tree, params=params.serialized_params_proto)
        sizes = [model_ops.tree_size(tree), model_ops.tree_size(fresh)]
        serialize = [model_ops.gen_model_ops.tree_serialize(t) for t in (tree, fresh)]
        report("graph/handle_dtype", tree.dtype.name)
        report("graph/probabilities_width", probs.get_shape().as_list()[1:])
        report("graph", [tree.op.name, fresh.op.name, stats.op.name,
                         [(type(s).__name__, s.name, [spec_.name for spec_ in s.specs])
                          for s in tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)],
                         len(tf.get_collection(tf.GraphKeys.RESOURCES)), leaves.dtype.name, probs.dtype.name,
                         paths.dtype.name,
                         tf.gradients(tf.reduce_sum(probs), x)])
        saver = tf.train.Saver()
        with tf.Session() as sess:
            report("uninitialized", sess.run(tf.report_uninitialized_variables()))
            sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
            report("before", sess.run([leaves, probs, sizes, usage] + list(fresh_ops[:2]), {x: X}))
            report("paths", [p for p in sess.run(paths, {x: X[:2]})])
            report("serialized", sess.run(serialize))
            report("nodes", [nodes(s) for s in sess.run(serialize)])
            path = saver.save(sess, "model_ops_tree")
            sess.run([update, weighted], {x: X})
            report("after", sess.run([probs, fresh_ops[1], sizes], {x: X}))
            report("after/nodes", [nodes(s) for s in sess.run(serialize)])
            saver.restore(sess, path)
            report("restored", sess.run([probs, fresh_ops[1]], {x: X}))
        report("checkpoint", sorted(tf.train.list_variables(path)))

with case("regression"):
    with tf.Graph().as_default():
        params = params_of(num_classes=1, regression=True, inference_tree_paths=False)
        regression_tree = TREE.replace("value { float_value: 1 } }", "} ").replace(
            "value { float_value: 4 } }", "} ").replace("value { float_value: 2 } }", "} ")
        x = tf.constant(X)
        _, _, spec = data_ops.ParseDataTensorOrDict(x)
        stats = stats_ops.fertile_stats_variable(params, "", "regression_stats")
        tree = model_ops.tree_variable(params, serialized_tree(regression_tree), stats, "regression_tree")
        leaves, values, paths = tree_ops(params, tree, spec.SerializeToString(), x)
        with tf.Session() as sess:
            sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
            report("regression", sess.run([leaves, values, paths, model_ops.tree_size(tree)]))

with case("sparse"):
    with tf.Graph().as_default():
        params = params_of(inference_tree_paths=False)
        features = {"s": tf.SparseTensor([[0, 0], [1, 1], [2, 0], [2, 1]], tf.constant([1, 7, 2, 3], tf.int64),
                                         [3, 2])}
        _, sparse, spec = data_ops.ParseDataTensorOrDict(features)
        stats = stats_ops.fertile_stats_variable(params, "", "sparse_stats")
        tree = model_ops.tree_variable(params, serialized_tree(TREE), stats, "sparse_tree")
        probs, _ = model_ops.tree_predictions_v4(tree, [], sparse.indices, sparse.values, sparse.dense_shape,
                                                 input_spec=spec.SerializeToString(),
                                                 params=params.serialized_params_proto)
        with tf.Session() as sess:
            sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
            report("sparse", sess.run(probs))

with case("classes"):
    with tf.Graph().as_default():
        params = params_of()
        with tf.name_scope("direct"):
            stats = stats_ops.fertile_stats_variable(params, "", "stats")
            variable = model_ops.TreeVariable(params, serialized_tree(TREE), stats, "direct_tree")
        saveable = model_ops.TreeVariableSavable(params, variable.resource_handle, stats, variable.initializer,
                                                 "saved_tree")
        factories = variable._gather_saveables_for_checkpoint()
        restore = saveable.restore([tf.constant(serialized_tree(TREE.replace("0.25", "0.75")))], None)
        with tf.Session() as sess:
            report("classes/before_create", sess.run(variable.is_initialized()))
            sess.run(variable.initializer)
            report("classes", [variable.resource_handle.op.name, variable.initializer is variable.initializer,
                               sess.run(variable.is_initialized()), saveable.name, saveable.specs[0].name,
                               sorted(factories), nodes(sess.run(saveable.specs[0].tensor))])
            sess.run(restore)
            report("classes/restored", nodes(sess.run(model_ops.gen_model_ops.tree_serialize(
                variable.resource_handle))))
'''


@requires_tf115
def test_model_ops_trees_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["before"][0].tolist() == [1, 3, 4, 1, 4]
  assert tf115["graph/handle_dtype"] == "resource" and ours["graph/handle_dtype"] == "string"
  assert tf115["graph/probabilities_width"] == [None] and ours["graph/probabilities_width"] == [2]
  assert_same(tf115, ours, rtol=1e-6, atol=1e-7, differences={
      "graph/handle_dtype": "tf1clip's tree and stats handles are string tensors naming a resource its NumPy kernels "
                            "keep in the process (TF 1.15's were resource tensors)",
      "graph/probabilities_width": "tf1clip's tree_predictions_v4 knows its static width (num_outputs); TF 1.15's "
                                   "left it unknown"})
