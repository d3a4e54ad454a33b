"""`tf.contrib.tensor_forest.tensor_forest` (python/tensor_forest.py) against TF 1.15: ForestHParams after fill()
(defaults, every model / finish / pruning / split name, feature bagging, extra keywords, a param file, the errors),
the params proto, and forests grown batch by batch with RandomForestGraphs (every tree's nodes, tests, thresholds and
leaf counts or means, parsed from the serialized tree): classification, weighted, regression, pruned, collated,
averaged splits, many leaves split in one batch, 'all_sparse' counts, integer and string columns, sparse columns,
bagged examples, trees split among trainers, a forest built from serialized trees for inference only; predictions,
variances, tree paths, sizes, losses, feature importances, variable names, checkpoint keys and a restore; every
signature. Also what the forest graphs rest on, as tensor_forest uses it (input parsing, the resources, the metric
functions) and the package's module tree as TF 1.15 exported it (every module, each alias under client / ops the same
object, the data-spec classes' text serialization, the remaining proto messages' bytes).

The trees are TF 1.15's exactly, random split candidates included: both sides draw them with TensorFlow's Philox
from `base_random_seed` (+ the tree's index), and the leaves one batch finishes are split in the order of TF 1.15's
`std::unordered_set` (the "many_leaves" case). Batches stay at 100 examples or fewer, and sessions ask for one intra-op
thread: TF 1.15 sharded a bigger batch over its intra-op threads (which it sizes once per process), and which examples
created a leaf's candidates, so its trees, then changed from run to run (tf1clip visits them in order, as TF 1.15 with
one thread). Feature bagging draws its column subsets with Python's unseeded `random`: only their sizes are compared.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    *("tf.contrib.tensor_forest.tensor_forest." + n for n in (
        "ForestHParams", "RandomForestGraphs", "RandomTreeGraphs", "TreeVariables", "ForestVariables",
        "build_params_proto", "get_epoch_variable", "parse_number_or_string_to_proto")),
    *("tf.contrib.tensor_forest.proto.tensor_forest_params_pb2." + n for n in (
        "TensorForestParams", "DepthDependentParam", "LinearParam", "ExponentialParam", "SplitFinishConfig",
        "SplitPruningConfig", "ThresholdParam")),
    "tf.contrib.tensor_forest.client.eval_metrics.get_metric",
    "tf.contrib.tensor_forest.client.eval_metrics.get_prediction_key",
    "tf.contrib.tensor_forest.eval_metrics.get_metric", "tf.contrib.tensor_forest.eval_metrics.get_prediction_key",
    *("tf.contrib.tensor_forest." + n for n in (
        "data_ops.ParseDataTensorOrDict", "data_ops.ParseLabelTensorOrDict", "data_ops.CastToFloat",
        "data_ops.GetColumnName", "data_ops.TensorForestDataSpec", "data_ops.DataColumn",
        "data_ops.DataColumnCollection", "ops.data_ops.ParseDataTensorOrDict", "ops.data_ops.DataColumn",
        "ops.data_ops.DataColumnCollection", "ops.data_ops.CastToFloat", "ops.data_ops.GetColumnName",
        "ops.data_ops.ParseLabelTensorOrDict", "ops.data_ops.TensorForestDataSpec", "model_ops.tree_variable",
        "model_ops.TreeVariable", "model_ops.TreeVariableSavable", "ops.model_ops.TreeVariable",
        "ops.model_ops.TreeVariableSavable", "ops.model_ops.tree_variable", "stats_ops.fertile_stats_variable",
        "stats_ops.FertileStatsVariable", "stats_ops.FertileStatsVariableSavable", "ops.stats_ops.FertileStatsVariable",
        "ops.stats_ops.FertileStatsVariableSavable", "ops.stats_ops.fertile_stats_variable")),
    # the module tree ("modules" / "aliases_same" in the snippet)
    *("tf.contrib.tensor_forest" + ("." + m if m else "") for m in (
        "", "client", "client.eval_metrics", "client.random_forest", "data_ops", "eval_metrics", "model_ops", "ops",
        "ops.data_ops", "ops.model_ops", "ops.stats_ops", "ops.tensor_forest_ops", "proto",
        "proto.tensor_forest_params_pb2", "random_forest", "stats_ops", "tensor_forest", "tensor_forest_ops")))

SNIPPET = r'''
import time
import numpy as np
import tensorflow as tf
from google.protobuf import text_format
from tensorflow.contrib.tensor_forest.python import tensor_forest
from tensorflow.contrib.tensor_forest.python.ops import data_ops, model_ops, stats_ops, tensor_forest_ops
from tensorflow.contrib.tensor_forest.client import eval_metrics, random_forest
from tensorflow.contrib.tensor_forest.proto import tensor_forest_params_pb2
from tensorflow.contrib import tensor_forest as contrib_tf
tf.logging.set_verbosity(tf.logging.ERROR)
try:  # the tree's proto: TF 1.15's generated module, or tf1clip's, built from TF 1.15's descriptors
    from tensorflow.contrib.decision_trees.proto import generic_tree_model_pb2 as tree_pb2
except ImportError:
    from tf1clip.contrib.tensor_forest.proto import generic_tree_model_pb2 as tree_pb2
ONE_THREAD = tf.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)

rng = np.random.RandomState(3)
N = 60
X = rng.rand(N, 4).astype(np.float32)
Y3 = (X[:, 0] * 2 + X[:, 2]).astype(np.int32).astype(np.float32)  # 0, 1, 2
YR = (X[:, 0] - 2 * X[:, 1] + 0.1 * rng.randn(N)).astype(np.float32)
W = rng.uniform(0.5, 2.0, N).astype(np.float32)

def nodes(serialized):
    model = tree_pb2.Model()
    model.ParseFromString(serialized)
    out = []
    for n in model.decision_tree.nodes:
        if n.HasField("leaf"):
            out.append(["leaf", [v.float_value for v in n.leaf.vector.value],
                        sorted([int(k), v.float_value] for k, v in n.leaf.sparse_vector.sparse_value.items())])
        else:
            t = n.binary_node.inequality_left_child_test
            out.append([t.feature_id.id.value, t.type, t.threshold.float_value,
                        n.binary_node.left_child_id.value, n.binary_node.right_child_id.value])
    return out

def hparams(**kw):
    base = dict(num_classes=3, num_features=4, num_trees=3, max_nodes=15, split_after_samples=8,
                base_random_seed=11)
    base.update(kw)
    return tensor_forest.ForestHParams(**base).fill()

def grow(key, params, labels, weights=False, steps=4, batch=30, paths=False, data=X, raw=True):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, data.shape[1]])
        y = tf.placeholder(tf.float32, [None])
        w = tf.placeholder(tf.float32, [None])
        forest = tensor_forest.RandomForestGraphs(params)
        train = forest.training_graph(x, y, input_weights=w) if weights else forest.training_graph(x, y)
        probs, tree_paths, variance = forest.inference_graph(x)
        size = forest.average_size()
        loss = forest.training_loss(x, y)
        importances = forest.feature_importances()
        serialized = [model_ops.gen_model_ops.tree_serialize(forest.variables[i].tree)
                      for i in range(params.num_trees)]
        report(key + "/classes", [isinstance(forest.variables, tensor_forest.ForestVariables),
                                  isinstance(forest.variables[0], tensor_forest.TreeVariables),
                                  isinstance(forest.trees[0], tensor_forest.RandomTreeGraphs)])
        saver = tf.train.Saver()
        with tf.Session(config=ONE_THREAD) as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            sess.run(tf.group(*[r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)]))
            start = time.time()
            for step in range(steps):
                lo = (step * batch) % len(data)
                feed = {x: data[lo:lo + batch], y: labels[lo:lo + batch], w: W[lo % N:lo % N + batch]}
                sess.run(train, feed)
                report(key + "/trees_%d" % step, [nodes(s) for s in sess.run(serialized)])
            print(key, "train", time.time() - start)
            if raw:  # the bytes a checkpoint holds (a sparse leaf's map has no order to compare)
                report(key + "/serialized", sess.run(serialized))
            report(key + "/predictions", sess.run([probs, variance], {x: data}))
            if paths:
                report(key + "/paths", [[p.decode("latin-1") for p in row]
                                        for row in sess.run(tree_paths, {x: data[:3]})])
            report(key + "/size_loss_importances", sess.run([size, loss, importances], {x: data}))
            report(key + "/variables", sorted(v.op.name for v in tf.global_variables()))
            path = saver.save(sess, "forest_" + key)
        report(key + "/checkpoint", sorted(n for n, _ in tf.train.list_variables(path)))
        with tf.Session(config=ONE_THREAD) as sess:
            saver.restore(sess, path)
            report(key + "/restored", sess.run(probs, {x: data[:10]}))

def main():
    with case("hparams"):
        report("hparams/defaults", {k: v for k, v in hparams().values().items()
                                    if k not in ("params_proto", "serialized_params_proto")})
        report("hparams/regression", {k: v for k, v in tensor_forest.ForestHParams(
            num_classes=2, num_features=7, regression=True, split_after_samples="5").fill().values().items()})
        report("hparams/proto", text_format.MessageToString(tensor_forest.build_params_proto(hparams(
            num_splits_to_consider="linear { slope: 2 y_intercept: 1 min_val: 1 max_val: 4 }",
            split_pruning_name="half", prune_every_samples=4, inference_tree_paths=True, split_name="less")),
                                                             as_utf8=True))
        p = tensor_forest_params_pb2.DepthDependentParam()
        tensor_forest.parse_number_or_string_to_proto(p, "17")
        q = tensor_forest_params_pb2.DepthDependentParam()
        tensor_forest.parse_number_or_string_to_proto(q, "exponential { bias: 1 base: 2 multiplier: 3 }")
        report("hparams/parse", [p.constant_value, q.exponential.bias, q.exponential.base, q.exponential.multiplier])
    report_errors("hparams/errors", [
        ("no num_classes", lambda: tensor_forest.ForestHParams(num_features=3).fill()),
        ("bad model", lambda: hparams(model_name="nope")),
        ("pruning without prune_every_samples", lambda: hparams(split_pruning_name="half")),
        ("bad split", lambda: hparams(split_name="greater")),
    ])

    with case("classification"):
        grow("classification", hparams(), Y3)
    with case("weighted"):
        grow("weighted", hparams(num_trees=2, num_splits_to_consider=2, split_name="less"), Y3, weights=True,
             steps=3)
    with case("regression"):
        grow("regression", hparams(num_classes=1, regression=True, num_trees=2, max_nodes=11,
                                   inference_tree_paths=True), YR, paths=True)
    with case("pruned"):
        grow("pruned", hparams(num_trees=1, split_after_samples=12, split_pruning_name="quarter",
                               prune_every_samples=4, num_splits_to_consider=8, max_nodes=9), Y3, steps=3)
    with case("all_sparse"):  # sparse class counts (SparseClassificationGrowStats), weighted, 9 of 12 classes
        X9 = rng.rand(300, 4).astype(np.float32)
        grow("all_sparse", hparams(num_classes=12, model_name="all_sparse", num_trees=2, max_nodes=41,
                                   split_after_samples=6, num_splits_to_consider=5),
             ((X9[:, 0] * 3).astype(np.int32) * 3 + (X9[:, 1] * 3).astype(np.int32)).astype(np.float32),
             weights=True, steps=5, batch=50, data=X9, raw=False)
    with case("many_leaves"):  # up to 13 leaves split in one batch: their order numbers the children
        X6 = rng.rand(500, 6).astype(np.float32)
        grow("many_leaves", hparams(num_features=6, num_classes=4, num_trees=1, max_nodes=300, split_after_samples=2,
                                    num_splits_to_consider=3), ((X6[:, 0] + X6[:, 1] * X6[:, 2]) * 2).astype(
                                        np.int32).astype(np.float32), steps=5, batch=100, data=X6)
    with case("categorical"):  # integer and string columns: splits that match one value (MatchingValuesTest)
        with tf.Graph().as_default():
            n = 200
            f = rng.rand(n, 2).astype(np.float32)
            c = rng.randint(0, 4, size=(n, 1)).astype(np.int64)
            s = np.array([["red", "green", "blue"][i] for i in rng.randint(0, 3, n)]).reshape(n, 1)
            labels = ((c[:, 0] == 2) | (f[:, 0] > 0.7) | (s[:, 0] == "red")).astype(np.float32)
            params = hparams(num_classes=2, num_trees=2, max_nodes=31, split_after_samples=5, num_splits_to_consider=4,
                             checkpoint_stats=True)
            feeds = {"f": tf.placeholder(tf.float32, [None, 2]), "c": tf.placeholder(tf.int64, [None, 1]),
                     "s": tf.placeholder(tf.string, [None, 1])}
            y = tf.placeholder(tf.float32, [None])
            forest = tensor_forest.RandomForestGraphs(params)
            train = forest.training_graph(feeds, y)
            probs, _, _ = forest.inference_graph(feeds)
            serialized = [model_ops.gen_model_ops.tree_serialize(forest.variables[i].tree) for i in range(2)]
            with tf.Session(config=ONE_THREAD) as sess:
                sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
                for step in range(4):
                    part = slice(step * 50, step * 50 + 50)
                    sess.run(train, {feeds["f"]: f[part], feeds["c"]: c[part], feeds["s"]: s[part], y: labels[part]})
                report("categorical/serialized", sess.run(serialized))
                report("categorical/predictions", sess.run([probs, forest.feature_importances()],
                                                           {feeds["f"]: f[:8], feeds["c"]: c[:8], feeds["s"]: s[:8]}))
    with case("sparse"):  # a sparse integer column beside dense ones, and sparse input alone
        n = 120
        rows, cols, ids = [], [], []
        for i in range(n):
            for j, c in enumerate(sorted(rng.choice(6, rng.randint(0, 4), replace=False))):
                rows.append(i)
                cols.append(j)
                ids.append(c)
        indices, ids = np.array([rows, cols], np.int64).T, np.array(ids, np.int64)
        f = rng.rand(n, 2).astype(np.float32)
        has3 = np.zeros(n, bool)
        has3[indices[ids == 3, 0]] = True
        labels = (has3 | (f[:, 0] > 0.6)).astype(np.float32)
        for mode in ("dict", "alone"):
            with tf.Graph().as_default():
                def features(lo, hi):
                    m = (indices[:, 0] >= lo) & (indices[:, 0] < hi)
                    if mode == "alone":
                        return tf.SparseTensor(indices[m] - [lo, 0], ids[m].astype(np.float32), [hi - lo, 4])
                    return {"f": tf.constant(f[lo:hi]),
                            "ids": tf.SparseTensor(indices[m] - [lo, 0], ids[m], [hi - lo, 4])}
                params = hparams(num_classes=2, num_features=2 if mode == "dict" else 1, num_trees=2, max_nodes=31,
                                 split_after_samples=5, num_splits_to_consider=4)
                forest = tensor_forest.RandomForestGraphs(params)
                trains = [forest.training_graph(features(lo, lo + 40), tf.constant(labels[lo:lo + 40]))
                          for lo in range(0, n, 40)]
                probs, _, _ = forest.inference_graph(features(0, 8))
                serialized = [model_ops.gen_model_ops.tree_serialize(forest.variables[i].tree) for i in range(2)]
                with tf.Session(config=ONE_THREAD) as sess:
                    sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
                    for train in trains * 2:
                        sess.run(train)
                    report("sparse/" + mode, [sess.run(serialized), sess.run(probs)])
    with case("pruned_hoeffding"):
        grow("pruned_hoeffding", hparams(num_trees=1, split_after_samples=12, split_pruning_name="hoeffding",
                                         prune_every_samples=3, num_splits_to_consider=10, dominate_fraction=0.9,
                                         max_nodes=9), Y3, steps=3)
    with case("collated"):
        grow("collated", hparams(num_trees=2, collate_examples=True), Y3, steps=3)
    with case("average_splits"):
        grow("average_splits", hparams(num_trees=2, initialize_average_splits=True, use_running_stats_method=True),
             Y3, steps=3)

    with case("resources"):
        with tf.Graph().as_default():
            params = hparams(num_trees=1)
            params.serialized_params_proto = tensor_forest.build_params_proto(params).SerializeToString()
            stats = stats_ops.fertile_stats_variable(params, "", "my_stats")
            tree = model_ops.tree_variable(params, "", stats, "my_tree")
            epoch = tensor_forest.get_epoch_variable()
            with tf.Session() as sess:
                sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
                report("resources/handles", [stats.op.name, tree.op.name, epoch,
                                             sess.run(model_ops.tree_size(tree)),
                                             nodes(sess.run(model_ops.gen_model_ops.tree_serialize(tree))),
                                             [type(s).__name__ for s in tf.get_collection(
                                                 tf.GraphKeys.SAVEABLE_OBJECTS)]])
        proto = tensor_forest_params_pb2.TensorForestParams(num_trees=2)
        proto.num_splits_to_consider.linear.CopyFrom(tensor_forest_params_pb2.LinearParam(slope=1.5))
        report("resources/proto", text_format.MessageToString(proto))
    with case("data_ops"):
        with tf.Graph().as_default():
            features = {"b_int": tf.constant([[1, 2], [3, 4]], tf.int64), "a_float": tf.constant([[0.5], [1.5]]),
                        "c_str": tf.constant([["red"], ["a much longer string value"]])}
            dense, sparse, spec = data_ops.ParseDataTensorOrDict(features)
            dense2, _, spec2 = data_ops.ParseDataTensorOrDict(tf.constant(X[:2]))
            labels = data_ops.ParseLabelTensorOrDict(tf.constant([[1], [2]], tf.int32))
            labels2 = data_ops.ParseLabelTensorOrDict({"b": tf.constant([[1.0], [2.0]]),
                                                       "a": tf.constant([[3.0], [4.0]])})
            with tf.Session() as sess:
                report("data_ops/dense", sess.run([dense, dense2, labels, labels2]))
            report("data_ops/specs", [spec.SerializeToString(), spec2.SerializeToString(), sparse is None,
                                      data_ops.GetColumnName("k", 3), data_ops.GetColumnName(7, 3)])
            report_errors("data_ops/errors", [  # TF 1.15 concatenated a 1-D column as it is
                ("1-D column", lambda: data_ops.ParseDataTensorOrDict({"a": tf.constant([1.0, 2.0]),
                                                                     "b": tf.constant([[1.0], [2.0]])}))])
            report("data_ops/cast", [str(data_ops.CastToFloat(tf.constant([1, 2])).dtype),
                                     data_ops.TensorForestDataSpec().SerializeToString()])
            hashed = tensor_forest_ops.reinterpret_string_to_float(tf.constant(["", "x", "12345678", "tensor forest"]))
            with tf.Session() as sess:
                report("data_ops/hashed", sess.run(hashed))

    with case("eval_metrics"):
        names = ["auc", "sigmoid_entropy", "softmax_entropy", "accuracy", "r2", "predictions",
                 "classification_log_loss", "precision", "recall", "top_5"]
        report("eval_metrics/keys", [eval_metrics.get_prediction_key(n) for n in names])
        with tf.Graph().as_default():
            probs = tf.constant([[0.2, 0.8], [0.7, 0.3], [0.4, 0.6], [0.9, 0.1]])
            classes = tf.constant([1, 0, 1, 0])
            targets = tf.constant([[1], [0], [0], [0]])
            ops = {n: eval_metrics.get_metric(n)(probs if "entropy" in n or n in ("auc", "classification_log_loss")
                                                 else classes, targets)
                   for n in ("auc", "accuracy", "precision", "recall", "sigmoid_entropy", "classification_log_loss")}
            ops["r2"] = eval_metrics.get_metric("r2")(tf.constant([[1.0], [2.5], [2.0]]),
                                                      tf.constant([[1.0], [2.0], [3.0]]))
            with tf.Session() as sess:
                sess.run(tf.local_variables_initializer())
                sess.run({k: v[1] for k, v in ops.items()})
                report("eval_metrics/values", sess.run({k: v[0] for k, v in ops.items()}))
    report_errors("eval_metrics/errors", [("unknown", lambda: eval_metrics.get_metric("nope"))])

    report("public", [type(getattr(contrib_tf, n)).__name__ for n in (
        "data_ops", "eval_metrics", "model_ops", "random_forest", "stats_ops", "tensor_forest",
        "tensor_forest_ops")])

main()
# The module tree TF 1.15 exported (each a module on both sides), every alias the same
# object as the name the cases above judge, the data-spec classes' serialization, the remaining proto messages' bytes
# and the hook that runs ops at the end of a session.
tfo = tf.contrib.tensor_forest
MODULES = ("", "client", "client.eval_metrics", "client.random_forest", "data_ops", "eval_metrics", "model_ops", "ops",
           "ops.data_ops", "ops.model_ops", "ops.stats_ops", "ops.tensor_forest_ops", "proto",
           "proto.tensor_forest_params_pb2", "random_forest", "stats_ops", "tensor_forest", "tensor_forest_ops")

def module_of(dotted):
    # as the inventory names them: an attribute of the package (data_ops, leaked by its imports), or a subpackage
    # a script imports (client, ops, proto: TF 1.15 bound them only once imported)
    node, path = __import__("tensorflow.contrib.tensor_forest", fromlist=["__name__"]), "tensorflow.contrib.tensor_forest"
    for part in filter(None, dotted.split(".")):
        path += "." + part
        node = getattr(node, part) if hasattr(node, part) else __import__(path, fromlist=["__name__"])
    return node

import types
report("modules", {m: isinstance(module_of(m), types.ModuleType) for m in MODULES})
ALIASES = (("client.random_forest", "random_forest"), ("client.eval_metrics", "eval_metrics"),
           ("ops.data_ops", "data_ops"), ("ops.model_ops", "model_ops"), ("ops.stats_ops", "stats_ops"),
           ("ops.tensor_forest_ops", "tensor_forest_ops"))
same = {}
for left, right in ALIASES:
    for name in dir(module_of(left)):
        if not name.startswith("_") and hasattr(module_of(right), name) and not type(getattr(module_of(left), name)).__name__ == "module":
            same[left + "." + name] = getattr(module_of(left), name) is getattr(module_of(right), name)
report("aliases_same", sorted(k for k, v in same.items() if v and k.split(".")[-1] in (
    "CastToFloat DataColumn DataColumnCollection GetColumnName ParseDataTensorOrDict ParseLabelTensorOrDict "
    "TensorForestDataSpec TreeVariable TreeVariableSavable tree_variable FertileStatsVariable "
    "FertileStatsVariableSavable fertile_stats_variable CoreTensorForestEstimator ModelBuilderOutputType "
    "MultiForestMultiHeadEstimator TensorForestLossHook TensorForestRunOpAtEndHook TensorForestEstimator "
    "get_combined_model_fn get_model_fn get_metric get_prediction_key").split()))
spec = tfo.data_ops.TensorForestDataSpec()
column = spec.dense.add()
column.name, column.original_type, column.size = "x", 1, 3
sparse = spec.sparse.add()
sparse.name, sparse.original_type, sparse.size = "ids", 2, 1
spec.dense_features_size = 3
lone = tfo.data_ops.DataColumn()
lone.name = "z"
collection = tfo.data_ops.DataColumnCollection()
collection.add().name = "y"
report("data_spec", [spec.SerializeToString(), collection.SerializeToString(), collection.size(),
                     type(spec.dense).__name__, lone.SerializeToString()])
pb = module_of("proto.tensor_forest_params_pb2")
params_pb = pb.TensorForestParams()
params_pb.finish_type.type = pb.SPLIT_FINISH_DOMINATE_HOEFFDING
params_pb.finish_type.check_every_steps.constant_value = 5
params_pb.pruning_type.type = pb.SPLIT_PRUNE_HOEFFDING
params_pb.pruning_type.prune_every_samples.exponential.bias = 2.0
params_pb.pruning_type.prune_every_samples.exponential.base = 3.0
params_pb.pruning_type.prune_every_samples.exponential.multiplier = 0.5
params_pb.pruning_type.prune_every_samples.exponential.depth_multiplier = 4.0
params_pb.split_after_samples.threshold.on_value = 7.0
params_pb.split_after_samples.threshold.off_value = 1.0
params_pb.split_after_samples.threshold.threshold = 0.25
report("params_bytes", [params_pb.SerializeToString(), pb.SplitFinishConfig(type=1).SerializeToString(),
                        pb.SplitPruningConfig(type=2).SerializeToString(),
                        pb.ThresholdParam(on_value=1.0).SerializeToString(),
                        pb.ExponentialParam(base=2.0).SerializeToString()])

def signature(function):
    """Parameter names and defaults (a class default by its name)."""
    import inspect
    out = []
    for p in inspect.signature(function).parameters.values():
        default = p.default
        if default is inspect.Parameter.empty:
            default = "<required>"
        elif not isinstance(default, (bool, int, float, str, tuple, type(None))):
            default = getattr(default, "__name__", None) or type(default).__name__
        out.append([p.name, p.kind.name, default])
    return out


def filled(**kw):
    """A filled ForestHParams' values, the random feature subsets by their sizes only."""
    values = dict(tensor_forest.ForestHParams(**kw).fill().values())
    bagged = values.pop("bagged_features")
    values["bagged_sizes"] = None if bagged is None else [len(set(b)) for b in bagged]
    return values


def new_cases():
    tfm = tensor_forest
    report("signatures", {name: signature(obj) for name, obj in (
        ("ForestHParams", tfm.ForestHParams.__init__), ("fill", tfm.ForestHParams.fill),
        ("values", tfm.ForestHParams.values), ("build_params_proto", tfm.build_params_proto),
        ("parse_number_or_string_to_proto", tfm.parse_number_or_string_to_proto),
        ("get_epoch_variable", tfm.get_epoch_variable), ("TreeVariables", tfm.TreeVariables.__init__),
        ("get_tree_name", tfm.TreeVariables.get_tree_name), ("ForestVariables", tfm.ForestVariables.__init__),
        ("RandomForestGraphs", tfm.RandomForestGraphs.__init__),
        ("forest.training_graph", tfm.RandomForestGraphs.training_graph),
        ("forest.inference_graph", tfm.RandomForestGraphs.inference_graph),
        ("forest.average_size", tfm.RandomForestGraphs.average_size),
        ("forest.training_loss", tfm.RandomForestGraphs.training_loss),
        ("forest.validation_loss", tfm.RandomForestGraphs.validation_loss),
        ("forest.average_impurity", tfm.RandomForestGraphs.average_impurity),
        ("forest.feature_importances", tfm.RandomForestGraphs.feature_importances),
        ("forest.get_all_resource_handles", tfm.RandomForestGraphs.get_all_resource_handles),
        ("RandomTreeGraphs", tfm.RandomTreeGraphs.__init__),
        ("tree.training_graph", tfm.RandomTreeGraphs.training_graph),
        ("tree.inference_graph", tfm.RandomTreeGraphs.inference_graph),
        ("tree.size", tfm.RandomTreeGraphs.size),
        ("tree.feature_usage_counts", tfm.RandomTreeGraphs.feature_usage_counts))})
    report("tables", [tfm.CLASSIFICATION_LEAF_MODEL_TYPES, tfm.REGRESSION_MODEL_TYPE, tfm.FINISH_TYPES,
                      tfm.PRUNING_TYPES, tfm.SPLIT_TYPES])

    with case("fill"):
        report("fill/variants", {
            "sparse_then_dense": filled(num_classes=5, num_features=400, model_name="sparse_then_dense"),
            "hoeffding_finish": filled(num_classes=2, num_features=3, split_finish_name="hoeffding",
                                       early_finish_check_every_samples=7),
            "bootstrap_pruned": filled(num_classes=2, num_features=3, split_finish_name="bootstrap",
                                       early_finish_check_every_samples=5, split_pruning_name="10_percent",
                                       prune_every_samples=9),
            "many_features": filled(num_classes=2, num_features=4000000, num_trees=1),
            "regression_ignores_names": filled(num_classes=2, num_features=3, regression=True, model_name="nope",
                                               split_finish_name="nope"),
            "extra_keywords": filled(num_classes=2, num_features=3, base_random_seed=4, my_setting="x"),
            "depth_dependent": filled(num_classes=2, num_features=3, split_after_samples="linear { slope: 1 }"),
            "feature_bagging": filled(num_classes=2, num_features=10, num_trees=3, feature_bagging_fraction=0.35),
            "given_splits": filled(num_classes=2, num_features=3, num_splits_to_consider=7, bagging_fraction=0.5),
        })
        bagged = tensor_forest.ForestHParams(num_classes=2, num_features=10, num_trees=4,
                                             feature_bagging_fraction=0.5).fill()
        report("fill/bagged_range", all(0 <= c < 10 for b in bagged.bagged_features for c in b))
        h = tensor_forest.ForestHParams(num_classes=2, num_features=3)
        report("fill/identity", [h.fill() is h, h.values() is h.__dict__])
        with open("params.txt", "w") as f:
            f.write("max_nodes: 77 dominate_fraction { constant_value: 0.5 } num_select_features: 2")
        report("fill/param_file", text_format.MessageToString(
            tensor_forest.build_params_proto(hparams(param_file="params.txt", split_pruning_name="half",
                                                     prune_every_samples=4.5)), as_utf8=True))
    report_errors("fill/errors", [
        ("finish without its check count", lambda: tensor_forest.ForestHParams(
            num_classes=2, num_features=3, split_finish_name="hoeffding").fill()),
        ("bad finish", lambda: hparams(split_finish_name="nope")),
        ("bad pruning", lambda: hparams(split_pruning_name="nope")),
        ("no num_features", lambda: tensor_forest.ForestHParams(num_classes=2).fill()),
        ("proto of unfilled", lambda: tensor_forest.build_params_proto(
            tensor_forest.ForestHParams(num_classes=2, num_features=3))),
    ])

    with case("bagged_examples"):  # each tree trains on the examples its seeded uniform draw keeps
        grow("bagged_examples", hparams(num_trees=2, bagging_fraction=0.6), Y3, steps=3)
    with case("trainers"):  # trainer 1 of 2 grows trees 1 and 2 of 3; tree 0 stays a root
        with tf.Graph().as_default():
            params = hparams()
            x = tf.placeholder(tf.float32, [None, 4])
            y = tf.placeholder(tf.float32, [None])
            forest = tensor_forest.RandomForestGraphs(params)
            train = forest.training_graph(x, y, num_trainers=2, trainer_id=1)
            sizes = [tree.size() for tree in forest.trees]
            losses = [forest.training_loss(x, y), forest.training_loss(x, y, name="my_loss"),
                      forest.validation_loss(x, y)]
            handles = forest.get_all_resource_handles()
            with tf.Session(config=ONE_THREAD) as sess:
                sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
                for lo in (0, 30, 0):
                    sess.run(train, {x: X[lo:lo + 30], y: Y3[lo:lo + 30]})
                report("trainers/sizes", sess.run(sizes))
                report("trainers/losses", sess.run(losses))
            report("trainers/names", [train.name, losses[0].op.name, losses[1].op.name,
                                      [h.op.name for h in handles],
                                      [d.op.name for d in forest.variables.device_dummies],
                                      [forest.variables[0].get_tree_name("stats", 7)]])
            report_errors("trainers/errors", [("average_impurity", forest.average_impurity)])
    with case("configs"):  # a forest built from serialized trees, for inference only (no stats resources)
        with tf.Graph().as_default():
            params = hparams(num_trees=2)
            x = tf.placeholder(tf.float32, [None, 4])
            y = tf.placeholder(tf.float32, [None])
            forest = tensor_forest.RandomForestGraphs(params)
            train = forest.training_graph(x, y)
            serialized = [model_ops.gen_model_ops.tree_serialize(forest.variables[i].tree) for i in range(2)]
            with tf.Session(config=ONE_THREAD) as sess:
                sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
                for lo in (0, 30, 0):
                    sess.run(train, {x: X[lo:lo + 30], y: Y3[lo:lo + 30]})
                trees = sess.run(serialized)
        with tf.Graph().as_default():
            params = hparams(num_trees=2)
            x = tf.placeholder(tf.float32, [None, 4])
            forest = tensor_forest.RandomForestGraphs(params, tree_configs=trees, training=False)
            probs, _, variance = forest.inference_graph(x)
            with tf.Session(config=ONE_THREAD) as sess:
                sess.run([r.create for r in tf.get_collection(tf.GraphKeys.RESOURCES)])
                report("configs/predictions", sess.run([probs, variance], {x: X[:12]}))
            report("configs/stats", [forest.variables[i].stats is None for i in range(2)])
            report("configs/variables", sorted(v.op.name for v in tf.global_variables()))
            report("configs/resources", sorted(r.handle.op.name for r in tf.get_collection(tf.GraphKeys.RESOURCES)))
    with tf.Graph().as_default():
        sparse_input = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
        report_errors("bagging/errors", [
            ("bagged sparse examples", lambda: tensor_forest.RandomForestGraphs(hparams(
                num_features=2, bagging_fraction=0.5)).training_graph(sparse_input, tf.constant([0.0, 1.0]))),
        ])


new_cases()
'''


@requires_tf115
def test_tensor_forest_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert not [k for k in tf115 if k.endswith(":error")], sorted(tf115)  # every case ran to its end on TF 1.15
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
