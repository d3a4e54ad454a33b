"""tf.contrib.estimator's RNN estimators, replicate_model_fn / TowerOptimizer and layer-annotated DNNs vs TF 1.15.

The estimators' model_fns are built in one graph (TRAIN, then EVAL and PREDICT reusing the variables), the
trainable variables get the same values on both sides, and the snippet compares the variable names, the losses
before and after two training steps (the default Adagrad with gradient clipping, and given optimizers), the eval
metrics, the predictions and the layer annotations' collections. replicate_model_fn runs one tower (devices=None:
the CPU) and two towers on two CPU devices through tf.estimator.Estimator (train, evaluate, predict), with
constant-initialized variables. Then the bad arguments TF 1.15 rejects.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.estimator." + n for n in (
    "RNNClassifier", "RNNEstimator", "replicate_model_fn", "TowerOptimizer", "DNNClassifierWithLayerAnnotations",
    "DNNRegressorWithLayerAnnotations"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
from tensorflow_estimator.python.estimator.head import sequential_head
E = tf.contrib.estimator
FC = tf.contrib.feature_column
Modes = tf.estimator.ModeKeys
config = tf.estimator.RunConfig()

# ---- RNNClassifier / RNNEstimator on sequences of lengths 3, 2, 1, 3
def sparse(values, dtype):
    lengths = [3, 2, 1, 3]
    indices = [[i, j] for i, n in enumerate(lengths) for j in range(n)]
    return tf.SparseTensor(indices, tf.constant(values[:len(indices)], dtype), [4, 3])
def features():
    return {"s": sparse(np.linspace(-1.0, 1.0, 9), tf.float32), "t": sparse([1, 2, 0, 4, 3, 3, 1, 0, 2], tf.int64),
            "c": tf.constant([[0.5], [-1.0], [2.0], [0.0]])}
s_col = FC.sequence_numeric_column("s")
t_emb = tf.feature_column.embedding_column(FC.sequence_categorical_column_with_identity("t", 5), 2)
c_col = tf.feature_column.numeric_column("c")
gd = lambda: tf.train.GradientDescentOptimizer(0.2)
rnn_cases = (
    ("clf", lambda: E.RNNClassifier([s_col, t_emb], context_feature_columns=[c_col], num_units=[4, 3],
                                    cell_type="lstm", n_classes=3, config=config),
     tf.constant([[1], [2], [0], [2]])),
    ("gru", lambda: E.RNNClassifier([s_col], num_units=[3], cell_type="gru", label_vocabulary=["no", "yes"],
                                    loss_reduction=tf.losses.Reduction.SUM, config=config),
     tf.constant([["yes"], ["no"], ["no"], ["yes"]])),
    ("reg", lambda: E.RNNEstimator(E.regression_head(label_dimension=2), [t_emb],
                                   rnn_cell_fn=lambda mode: tf.nn.rnn_cell.BasicRNNCell(3), optimizer=gd(),
                                   config=config),
     tf.constant([[0.5, 1.0], [-1.0, 0.0], [2.0, 1.0], [0.0, -0.5]])),
    ("seq", lambda: E.RNNEstimator(sequential_head.SequentialHeadWrapper(tf.estimator.BinaryClassHead()), [s_col],
                                   num_units=[2], return_sequences=True, optimizer=gd(), config=config),
     tf.constant([[1, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0]])),
)
specs = {}
for name, make, labels in rnn_cases:
    with tf.variable_scope(tf.get_variable_scope() if name == "clf" else name) as scope:
        est = make()
        train = est.model_fn(features(), labels, Modes.TRAIN, config)
    with tf.variable_scope(scope, reuse=True):
        evaluation = est.model_fn(features(), labels, Modes.EVAL, config)  # has the predictions too
        if name == "clf":
            report("export_keys", sorted(est.model_fn(features(), None, Modes.PREDICT, config).export_outputs))
    specs[name] = (train, evaluation)
    report("metric_keys_" + name, sorted(evaluation.eval_metric_ops))

# ---- DNN*WithLayerAnnotations: shared embeddings are v1-only columns (the old input layer, annotated)
ids = lambda values: tf.SparseTensor([[0, 0], [1, 0], [2, 0], [3, 0]], tf.constant(values, tf.int64), [4, 1])
dnn_features = lambda: {"x": tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2) / 4.0),
                        "k": ids([1, 3, 0, 2]), "k2": ids([2, 2, 1, 0])}
x_col = tf.feature_column.numeric_column("x", shape=(2,))
shared = tf.feature_column.shared_embedding_columns(
    [tf.feature_column.categorical_column_with_identity("k", 4),
     tf.feature_column.categorical_column_with_identity("k2", 4)], 2)
with tf.variable_scope("annotated"):
    ann = E.DNNClassifierWithLayerAnnotations([3], shared + [x_col], n_classes=3, config=config)
    specs["ann"] = (ann.model_fn(dnn_features(), tf.constant([[0], [2], [1], [1]]), Modes.TRAIN, config),)
with tf.variable_scope("plain"):  # v2 columns only: DenseFeatures, nothing annotated (as TF 1.15)
    reg = E.DNNRegressorWithLayerAnnotations([2], [x_col], label_dimension=1, optimizer=gd(), config=config)
    specs["ann_reg"] = (reg.model_fn(dnn_features(), tf.constant([[1.0], [0.0], [2.0], [-1.0]]), Modes.TRAIN,
                                     config),)
graph = tf.get_default_graph()
report("annotation_collections", sorted([key, len(graph.get_collection(key))] for key in graph.get_all_collection_keys()
                                        if key.startswith("layer_annot")))
report("annotation_keys", [graph.get_collection("layer_annotations/unprocessed_features/keys"),
                           graph.get_collection("layer_annotatons/processed_features/keys")])
def tensor_info(any_proto):
    from tensorflow.core.protobuf import meta_graph_pb2
    info = meta_graph_pb2.TensorInfo()
    any_proto.Unpack(info)
    return [info.name, info.dtype, [d.size for d in info.tensor_shape.dim]]
report("annotation_values", [[tensor_info(a) for a in graph.get_collection(
    "layer_annotations/unprocessed_features/values")], [tensor_info(a) for a in graph.get_collection(
    "layer_annotatons/processed_features/values")]])
report_variables()

with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer(), tf.tables_initializer()])
    init_from_numpy(sess, seed=7, scale=0.5, var_list=tf.trainable_variables())
    losses = {name: [spec.loss for spec in parts if spec.loss is not None] for name, parts in specs.items()}
    first = sess.run({"losses": losses, "predictions": {name: parts[1].predictions for name, parts in specs.items()
                                                        if len(parts) == 2}})
    for name, value in sorted(first["predictions"].items()):
        report("predictions_" + name, value)
    report("losses_before", first["losses"])
    train_ops = [parts[0].train_op for parts in specs.values()]
    for _ in range(2):
        sess.run(train_ops)
    sess.run({name: {k: u for k, (_, u) in parts[1].eval_metric_ops.items()} for name, parts in specs.items()
              if len(parts) == 2})
    after = sess.run({"losses": losses, "metrics": {name: {k: v for k, (v, _) in parts[1].eval_metric_ops.items()}
                                                    for name, parts in specs.items() if len(parts) == 2}})
    report("losses_after", after["losses"])
    for name, value in sorted(after["metrics"].items()):
        report("metrics_" + name, value)

# ---- replicate_model_fn / TowerOptimizer: one tower (devices=None: the CPU) and two CPU towers, in an Estimator
def linear_model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(params["w"]))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    y = tf.matmul(features["x"], w) + b
    predictions = {"y": y, "double": 2.0 * y}
    if mode == Modes.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions, export_outputs={
            "serving_default": tf.estimator.export.PredictOutput(predictions),
            "regress": tf.estimator.export.RegressionOutput(y)})
    loss = tf.losses.mean_squared_error(labels, y)
    optimizer = E.TowerOptimizer(tf.train.GradientDescentOptimizer(0.1))
    return tf.estimator.EstimatorSpec(mode, loss=loss, predictions=predictions,
                                      train_op=optimizer.minimize(loss, tf.train.get_global_step()),
                                      eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, y)})
rng = np.random.RandomState(3)
x_data, y_data = rng.randn(4, 3).astype(np.float32), rng.randn(4, 1).astype(np.float32)
def input_fn():
    return {"x": tf.constant(x_data)}, tf.constant(y_data)
two_cpus = tf.ConfigProto(device_count={"CPU": 2})
replicated = tf.estimator.Estimator(E.replicate_model_fn(linear_model_fn, devices=["/cpu:0", "/cpu:1"]),
                                    model_dir=os.path.join(os.getcwd(), "replicated"), params={"w": 0.5},
                                    config=tf.estimator.RunConfig(session_config=two_cpus))
replicated.train(input_fn, steps=3)
report("replicated_eval", replicated.evaluate(input_fn, steps=1))
report("replicated_predict", list(replicated.predict(lambda: tf.data.Dataset.from_tensors({"x": x_data}))))
report("replicated_variables", [sorted(replicated.get_variable_names()), replicated.get_variable_value("w")])
for name, devices in (("one", None), ("two", ["/cpu:0", "/cpu:1"])):  # the graphs: names, devices, values
    with tf.Graph().as_default():
        replicated_fn = E.replicate_model_fn(linear_model_fn, devices=devices)
        tf.train.create_global_step()
        train = replicated_fn(*input_fn(), mode=Modes.TRAIN, params={"w": 0.5})
        with tf.variable_scope(tf.get_variable_scope(), reuse=True):
            evaluation = replicated_fn(*input_fn(), mode=Modes.EVAL, params={"w": 0.5})
            predict = replicated_fn(input_fn()[0], None, Modes.PREDICT, {"w": 0.5})
        report("replicated_graph_" + name, {
            "variables": sorted([v.op.name, v.device] for v in tf.global_variables()),
            "loss": train.loss.op.name, "predictions": sorted(t.op.name for t in predict.predictions.values()),
            "export_outputs": {k: type(v).__name__ for k, v in predict.export_outputs.items()},
            "metrics": sorted(evaluation.eval_metric_ops)})
        with tf.Session(config=two_cpus) as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            before = sess.run(train.loss)
            sess.run(train.train_op)
            sess.run({k: update for k, (_, update) in evaluation.eval_metric_ops.items()})
            report("replicated_run_" + name, [before, sess.run({
                "loss": train.loss, "predictions": predict.predictions,
                "metrics": {k: value for k, (value, _) in evaluation.eval_metric_ops.items()}})])

# ---- bad arguments
def model_fn_error(make, features_fn=features, labels=None, mode=Modes.TRAIN):
    def call():
        with tf.Graph().as_default():
            est = make()
            est.model_fn(features_fn(), labels, mode, config)
    return call
def untowered_model_fn(features, labels, mode):
    w = tf.get_variable("w", [3, 1])
    loss = tf.reduce_sum(tf.matmul(features["x"], w))
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.train.GradientDescentOptimizer(0.1).minimize(loss))
def replicated_error(model_fn, batch, **kwargs):
    def call():
        with tf.Graph().as_default():
            E.replicate_model_fn(model_fn, devices=["/cpu:0", "/cpu:0"], **kwargs)(
                {"x": tf.zeros([batch, 3])}, tf.zeros([batch, 1]), Modes.TRAIN, {"w": 0.5})
    return call
report_errors("errors", (
    ("num_units_and_cell_fn", lambda: E.RNNClassifier([s_col], num_units=[2], rnn_cell_fn=lambda m: None)),
    ("cell_type_and_cell_fn", lambda: E.RNNClassifier([s_col], cell_type="gru", rnn_cell_fn=lambda m: None)),
    ("return_sequences_plain_head", lambda: E.RNNEstimator(E.regression_head(), [s_col], num_units=[2],
                                                           return_sequences=True)),
    ("one_class", lambda: E.RNNClassifier([s_col], num_units=[2], n_classes=1)),
    ("unknown_cell_name", model_fn_error(lambda: E.RNNClassifier([s_col], num_units=[2], cell_type="foo"),
                                         labels=tf.constant([[1], [0], [0], [1]]))),
    ("cell_type_not_a_cell", model_fn_error(lambda: E.RNNClassifier([s_col], num_units=[2], cell_type=dict),
                                            labels=tf.constant([[1], [0], [0], [1]]))),
    ("no_num_units", model_fn_error(lambda: E.RNNClassifier([s_col]), labels=tf.constant([[1], [0], [0], [1]]))),
    ("features_not_dict", model_fn_error(lambda: E.RNNClassifier([s_col], num_units=[2]),
                                         features_fn=lambda: tf.zeros([4, 3]), mode=Modes.PREDICT)),
    ("reduction_none", lambda: E.replicate_model_fn(linear_model_fn, loss_reduction=tf.losses.Reduction.NONE)),
    ("no_tower_optimizer", replicated_error(untowered_model_fn, 4)),
    ("batch_not_divisible", replicated_error(linear_model_fn, 3)),
))
'''


@requires_tf115
def test_contrib_estimator_extra_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=400)
  assert tf115["annotation_keys"][0] == ["k", "k2", "x"], tf115["annotation_keys"]
  assert "auc_precision_recall" in tf115["metric_keys_gru"], tf115["metric_keys_gru"]
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
