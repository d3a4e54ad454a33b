"""tf.contrib.learn's heads and head-based estimators against TF 1.15: every head's ModelFnOps in TRAIN / EVAL /
INFER from the same logits and labels (prediction keys and values, the loss, every eval metric key and value after
one update, output alternatives, the centered bias and the `logits_input` layer's variables, the "loss" summary
tag), multi_head / loss_only_head merging, the head errors; DNNEstimator / LinearEstimator /
DNNLinearCombinedEstimator (variable names and shapes, the linear model's numbers from its zero start, evaluate
keys, predictions, wide-and-deep's global step), LogisticRegressor's metrics and KMeansClustering's API."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.learn.head.Head", "tf.contrib.learn.head.regression_head",
    "tf.contrib.learn.head.poisson_regression_head", "tf.contrib.learn.head.multi_class_head",
    "tf.contrib.learn.head.binary_svm_head", "tf.contrib.learn.head.multi_label_head",
    "tf.contrib.learn.head.loss_only_head", "tf.contrib.learn.head.multi_head",
    "tf.contrib.learn.head.no_op_train_fn", "tf.contrib.learn.regression_head",
    "tf.contrib.learn.multi_class_head", "tf.contrib.learn.multi_label_head", "tf.contrib.learn.multi_head",
    "tf.contrib.learn.binary_svm_head", "tf.contrib.learn.poisson_regression_head",
    "tf.contrib.learn.no_op_train_fn", "tf.contrib.learn.Head", "tf.contrib.learn.ProblemType",
    "tf.contrib.learn.PredictionKey", "tf.contrib.learn.DNNEstimator", "tf.contrib.learn.LinearEstimator",
    "tf.contrib.learn.DNNLinearCombinedEstimator", "tf.contrib.learn.LogisticRegressor",
    "tf.contrib.learn.KMeansClustering")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
learn = tf.contrib.learn
H = learn.head
root = os.path.abspath("models")
report("problem_type", [learn.ProblemType.UNSPECIFIED, learn.ProblemType.CLASSIFICATION,
                        learn.ProblemType.LINEAR_REGRESSION, learn.ProblemType.LOGISTIC_REGRESSION])
report("prediction_key", [learn.PredictionKey.CLASSES, learn.PredictionKey.PROBABILITIES,
                          learn.PredictionKey.LOGITS, learn.PredictionKey.LOGISTIC, learn.PredictionKey.SCORES,
                          learn.PredictionKey.TOP_K, learn.PredictionKey.GENERIC])
report("same_functions", [learn.regression_head is H.regression_head, learn.Head is H.Head,
                          learn.multi_head is H.multi_head, learn.no_op_train_fn is H.no_op_train_fn])

# -- every head from fixed logits and labels, in one graph --------------------------------------------------
rng = np.random.RandomState(0)
graph = tf.Graph()
fetch = {}
with graph.as_default():
    tf.train.create_global_step()
    w = np.array([[1.0], [2.0], [0.5], [1.0]], np.float32)
    features = {"x": tf.constant(rng.randn(4, 3).astype(np.float32)), "w": tf.constant(w)}
    def train_fn(loss):
        return tf.no_op(name="user_train")
    def build(key, head, labels, logits=None, logits_input=None, modes=("train", "eval", "infer")):
        for mode in modes:
            ops = head.create_model_fn_ops(features=features, mode=mode, labels=labels if mode != "infer" else None,
                                           train_op_fn=train_fn, logits=logits, logits_input=logits_input)
            k = key + "/" + mode
            preds = ops.predictions or {}
            fetch[k + "/predictions"] = {"/".join(p) if isinstance(p, tuple) else p: v for p, v in preds.items()}
            if ops.loss is not None:
                fetch[k + "/loss"] = ops.loss
            if mode == "eval":
                fetch[k + "/metrics"] = {m: v for m, v in ops.eval_metric_ops.items()}
            alternatives = ops.output_alternatives or {}
            report(k + "/alternatives", sorted((str(n), a[0], sorted(a[1].keys())) for n, a in alternatives.items()))
            report(k + "/train_op", ops.train_op is not None)
    l1 = tf.constant(rng.randn(4, 1).astype(np.float32))
    l3 = tf.constant(rng.randn(4, 3).astype(np.float32))
    build("regression", H.regression_head(), tf.constant([[0.5], [1.0], [-1.0], [2.0]]), logits=l1,
          modes=("eval", "infer"))
    build("regression_weighted", H.regression_head(weight_column_name="w", head_name="r"),
          tf.constant([0.5, 1.0, -1.0, 2.0]), logits=l1, modes=("eval",))
    build("regression_2d", H.regression_head(label_dimension=2, enable_centered_bias=True),
          tf.constant(rng.randn(4, 2).astype(np.float32)), logits=tf.constant(rng.randn(4, 2).astype(np.float32)),
          modes=("train",))
    build("poisson", H.poisson_regression_head(), tf.constant([[1.0], [0.0], [3.0], [2.0]]), logits=l1,
          modes=("eval",))
    build("binary", H.multi_class_head(2, thresholds=[0.3, 0.5]), tf.constant([[1], [0], [1], [1]]), logits=l1,
          modes=("eval", "infer"))
    build("binary_weighted", H.multi_class_head(2, weight_column_name="w", enable_centered_bias=True),
          tf.constant([[1], [0], [1], [1]]), logits=l1, modes=("train",))
    build("multi_class", H.multi_class_head(3, metric_class_ids=[0, 2], head_name="mc"),
          tf.constant([[2], [0], [1], [2]]), logits=l3, modes=("eval", "infer"))
    build("multi_class_keys", H.multi_class_head(3, label_keys=["a", "b", "c"]),
          tf.constant([["c"], ["a"], ["b"], ["a"]]), logits=l3, modes=("eval", "infer"))
    build("svm", H.binary_svm_head(), tf.constant([[1], [0], [1], [0]]), logits=l1, modes=("train", "eval"))
    build("multi_label", H.multi_label_head(3, metric_class_ids=[1]),
          tf.constant([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 0]]), logits=l3, modes=("eval",))
    build("multi_label_sparse", H.multi_label_head(3),
          tf.SparseTensor([[0, 0], [1, 2], [2, 1], [3, 0], [3, 1]], tf.constant([0, 2, 1, 0, 1], tf.int64),
                          [4, 2]), logits=l3, modes=("train",))
    build("logits_input", H.regression_head(head_name="from_input"), tf.constant([[0.5], [1.0], [-1.0], [2.0]]),
          logits_input=tf.constant(rng.randn(4, 5).astype(np.float32)), modes=("train",))
    def custom_loss(labels, logits, weights=None):
        return tf.losses.sigmoid_cross_entropy(tf.cast(labels, tf.float32), logits)
    build("custom_loss", H.multi_class_head(2, loss_fn=custom_loss), tf.constant([[1], [0], [1], [1]]), logits=l1,
          modes=("train",))
    multi = H.multi_head([H.regression_head(head_name="reg", label_name="r"),
                          H.multi_class_head(3, head_name="cls", label_name="c"),
                          H.loss_only_head(lambda: [tf.constant(0.25), tf.constant(0.5)], head_name="extra")],
                         loss_weights=[1.0, 2.0, 0.5])
    labels = {"r": tf.constant([[0.5], [1.0], [-1.0], [2.0]]), "c": tf.constant([[2], [0], [1], [2]])}
    build("multi_head", multi, labels, logits=tf.concat([l1, l3], 1))
    build("multi_head_dict", H.multi_head([H.regression_head(head_name="reg", label_name="r"),
                                           H.multi_class_head(3, head_name="cls", label_name="c")]),
          labels, logits={"reg": l1, "cls": l3}, modes=("infer",))
    report("multi_head_dimension", multi.logits_dimension)
    report("no_op_train_fn", H.no_op_train_fn(tf.constant(1.0)).type)
    report("summary_tags", sorted(tf.make_ndarray(s.op.inputs[0].op.get_attr("value")).tolist()
                                  for s in tf.get_collection(tf.GraphKeys.SUMMARIES) if s.op.type == "ScalarSummary"))
    report("head_variables", sorted([v.op.name, v.shape.as_list()] for v in tf.global_variables()))
    report_errors("head_errors", [
        ("n_classes_1", lambda: H.multi_class_head(1)),
        ("binary_metric_ids", lambda: H.multi_class_head(2, metric_class_ids=[1])),
        ("binary_label_keys", lambda: H.multi_class_head(2, label_keys=["a", "b"])),
        ("label_keys_length", lambda: H.multi_class_head(3, label_keys=["a", "b"])),
        ("class_id_range", lambda: H.multi_class_head(3, metric_class_ids=[3])),
        ("loss_fn_args", lambda: H.multi_class_head(3, loss_fn=lambda labels, logits: labels)),
        ("multi_label_1", lambda: H.multi_label_head(1)),
        ("multi_head_unnamed", lambda: H.multi_head([H.regression_head()])),
        ("multi_head_weights", lambda: H.multi_head([H.regression_head(head_name="a")], loss_weights=[1.0, 2.0])),
        ("both_logits", lambda: H.regression_head().create_model_fn_ops(
            features, "infer", logits=l1, logits_input=l1)),
        ("no_logits", lambda: H.regression_head().create_model_fn_ops(features, "infer")),
        ("bad_mode", lambda: H.regression_head().create_model_fn_ops(features, "fit", logits=l1)),
        ("no_train_op_fn", lambda: H.regression_head().create_model_fn_ops(
            features, "train", labels=tf.constant([[1.0]] * 4), logits=l1)),
        ("logits_dimension", lambda: H.regression_head().create_model_fn_ops(features, "infer", logits=l3)),
        ("missing_weights", lambda: H.regression_head(weight_column_name="nope").create_model_fn_ops(
            features, "eval", labels=tf.constant([[1.0]] * 4), logits=l1)),
        ("float_class_labels", lambda: H.multi_class_head(3).create_model_fn_ops(
            features, "eval", labels=tf.constant([[1.0]] * 4), logits=l3)),
        ("sparse_regression_labels", lambda: H.regression_head().create_model_fn_ops(
            features, "eval", labels=tf.SparseTensor([[0, 0]], [1.0], [4, 1]), logits=l1)),
    ])
    metric_updates = [m[1] for k, v in fetch.items() if k.endswith("/metrics") for m in v.values()]
    values = {k: v for k, v in fetch.items() if not k.endswith("/metrics")}
    metric_values = {k: {m: t[0] for m, t in v.items()} for k, v in fetch.items() if k.endswith("/metrics")}
    with tf.Session() as sess:
        init_from_numpy(sess, seed=3)
        sess.run([tf.local_variables_initializer(), tf.tables_initializer()])
        sess.run(metric_updates)
        got = sess.run({"values": values, "metrics": metric_values})
    for k, v in sorted(got["values"].items()):
        report(k, v)
    for k, v in sorted(got["metrics"].items()):
        report(k, v)

# -- the head-based estimators -------------------------------------------------------------------------------
x = rng.randn(16, 3).astype(np.float32)
y3 = (x[:, 0] > 0).astype(np.int64) + (x[:, 1] > 0)
yr = (x.dot([1.0, -2.0, 0.5]) + 0.3).astype(np.float32)
columns = [tf.feature_column.numeric_column("x", shape=(3,))]
def names(est):
    return sorted([n, list(est.get_variable_value(n).shape)] for n in est.get_variable_names())
def train_input():
    return {"x": tf.constant(x), "w": tf.constant(np.linspace(0.5, 2.0, 16).astype(np.float32))}, tf.constant(y3.reshape(-1, 1))
def predict_input():
    return {"x": tf.constant(x[:5])}
lin = learn.LinearEstimator(feature_columns=columns, head=H.multi_class_head(3, weight_column_name="w"),
                            model_dir=root + "/lin")
lin.fit(input_fn=train_input, steps=3)
report("lin_variables", names(lin))
report("lin_weights", [lin.get_variable_value(n) for n in lin.get_variable_names() if n.startswith("linear/")
                       and "Ftrl" not in n])
report("lin_eval", lin.evaluate(input_fn=train_input, steps=1))
report("lin_predict", lin.predict(input_fn=predict_input, as_iterable=False))
dnn = learn.DNNEstimator(head=H.regression_head(), hidden_units=[4, 3], feature_columns=columns,
                         model_dir=root + "/dnn", config=learn.RunConfig(tf_random_seed=1))
dnn.fit(input_fn=lambda: ({"x": tf.constant(x)}, tf.constant(yr)), steps=2)
report("dnn_variables", names(dnn))
report("dnn_predict_shape", list(dnn.predict(input_fn=predict_input, as_iterable=False)["scores"].shape))
wd = learn.DNNLinearCombinedEstimator(head=H.multi_class_head(2), linear_feature_columns=columns,
                                      dnn_feature_columns=columns, dnn_hidden_units=[3], model_dir=root + "/wd")
wd.fit(input_fn=lambda: ({"x": tf.constant(x)}, tf.constant((y3 > 0).astype(np.int64))), steps=3)
report("wd_variables", names(wd))
report("wd_global_step", wd.get_variable_value("global_step"))   # two increments a step: 4 (TF 1.15's default)
report_errors("estimator_errors", [
    ("wd_no_columns", lambda: learn.DNNLinearCombinedEstimator(head=H.regression_head())),
    ("dnn_bad_activation", lambda: learn.DNNEstimator(
        head=H.regression_head(), hidden_units=[2], feature_columns=columns, activation_fn="nope",
        model_dir=root + "/bad").fit(input_fn=lambda: ({"x": tf.constant(x)}, tf.constant(yr)), steps=1)),
])

def logistic_model_fn(features, labels, mode):
    v = tf.get_variable("v", [3, 1], initializer=tf.constant_initializer(0.1))
    p = tf.sigmoid(tf.matmul(features["x"], v))
    loss = tf.losses.log_loss(tf.cast(labels, tf.float32), p)
    return p, loss, tf.train.GradientDescentOptimizer(0.5).minimize(loss, tf.train.get_global_step())
logistic = learn.LogisticRegressor(logistic_model_fn, thresholds=[0.4, 0.6], model_dir=root + "/logistic")
binary_input = lambda: ({"x": tf.constant(x)}, tf.constant((y3 > 0).astype(np.float32).reshape(-1, 1)))
logistic.fit(input_fn=binary_input, steps=3)
report("logistic_eval", logistic.evaluate(input_fn=binary_input, steps=1))

points = np.concatenate([rng.randn(6, 2) * 0.1 + [2, 2], rng.randn(6, 2) * 0.1 - [2, 2]]).astype(np.float32)
km = learn.KMeansClustering(2, model_dir=root + "/km", use_mini_batch=False,
                            initial_clusters=learn.KMeansClustering.KMEANS_PLUS_PLUS_INIT, relative_tolerance=1e-6)
km.fit(input_fn=lambda: (tf.constant(points), None), steps=5)
centers = km.clusters()
report("km_clusters", centers[np.argsort(centers[:, 0])])
idx = list(km.predict_cluster_idx(input_fn=lambda: (tf.constant(points[:4]), None)))
report("km_same_cluster", [int(i) == int(idx[0]) for i in idx])
report("km_variables", sorted(n for n in km.get_variable_names()))
'''


@requires_tf115
def test_contrib_learn_heads_against_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
