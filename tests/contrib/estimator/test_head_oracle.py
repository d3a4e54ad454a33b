"""tf.contrib.estimator's heads and export functions against TF 1.15.

Each head builds its EstimatorSpec in TRAIN, EVAL and PREDICT mode over the same logits (a linear map of fixed
features, with the same weights on both sides): the training loss, the weights after one step of the train op,
every eval metric's name and value, the predictions, and the export signatures' keys; then the heads' bad input.
An Estimator with a multi-label head exports one SavedModel per mode and for all modes at once.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.estimator." + n for n in (
    "binary_classification_head", "multi_class_head", "regression_head", "poisson_regression_head",
    "logistic_regression_head", "multi_label_head", "multi_head", "export_saved_model_for_mode",
    "export_all_saved_models"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
E = tf.contrib.estimator
Modes = tf.estimator.ModeKeys
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(4, 3).astype(np.float32))
features = {"x": x, "w": tf.constant([[1.0], [2.0], [0.5], [0.0]])}
sparse_ids = tf.SparseTensor([[0, 0], [1, 0], [1, 1], [3, 0]], tf.constant([2, 0, 1, 1], tf.int64), [4, 2])
sparse_names = tf.SparseTensor([[0, 0], [2, 0], [2, 1]], tf.constant(["y", "x", "z"]), [4, 2])
cases = (
    ("binary", lambda: E.binary_classification_head(thresholds=[0.3], name="bin"),
     tf.constant([[1], [0], [1], [1]])),
    ("multi_class", lambda: E.multi_class_head(3, label_vocabulary=["a", "b", "c"]),
     tf.constant([["a"], ["c"], ["b"], ["c"]])),
    ("regression", lambda: E.regression_head(label_dimension=2, weight_column="w"),
     tf.constant(rng.randn(4, 2).astype(np.float32))),
    ("poisson", lambda: E.poisson_regression_head(), tf.constant([[0.0], [3.0], [1.0], [2.0]])),
    ("poisson_sum", lambda: E.poisson_regression_head(loss_reduction=tf.losses.Reduction.SUM,
                                                      compute_full_loss=False), tf.constant([[0.0], [3.0], [1.0], [2.0]])),
    ("logistic", lambda: E.logistic_regression_head(weight_column="w"), tf.constant([[0.2], [1.0], [0.0], [0.7]])),
    ("multi_label", lambda: E.multi_label_head(3, thresholds=[0.5, 0.8], classes_for_class_based_metrics=[0, 2]),
     tf.constant([[1, 0, 1], [0, 0, 0], [0, 1, 1], [1, 1, 1]])),
    ("multi_label_ids", lambda: E.multi_label_head(3, weight_column="w", loss_reduction=tf.losses.Reduction.SUM),
     sparse_ids),
    ("multi_label_names", lambda: E.multi_label_head(3, label_vocabulary=["x", "y", "z"],
                                                     classes_for_class_based_metrics=["y"], name="named"),
     sparse_names),
    ("multi_head", lambda: E.multi_head([E.multi_label_head(3, name="ml"), E.regression_head(name="reg")],
                                        head_weights=[1.0, 2.0]),
     {"ml": tf.constant([[1, 0, 1], [0, 0, 0], [0, 1, 1], [1, 1, 1]]), "reg": tf.constant([[0.5], [1.0], [-1.0], [0.0]])}),
)
results = {}
for name, make, labels in cases:
    with tf.variable_scope(name):
        head = make()
        kernel = tf.get_variable("kernel", [3, head.logits_dimension])
        logits = tf.matmul(x, kernel)
        tf.train.get_or_create_global_step()
        train = head.create_estimator_spec(features, Modes.TRAIN, logits, labels,
                                           optimizer=tf.train.GradientDescentOptimizer(0.1))
        evaluation = head.create_estimator_spec(features, Modes.EVAL, logits, labels)
        predict = head.create_estimator_spec(features, Modes.PREDICT, logits)
        results[name] = (head, kernel, train, evaluation, predict)
        report("export_keys_" + name, sorted(predict.export_outputs))
        report("metric_keys_" + name, sorted(evaluation.eval_metric_ops))
        report("name_dims_" + name, [head.name, head.logits_dimension])
report_errors("errors", (
    ("one_class", lambda: E.multi_label_head(1)),
    ("threshold", lambda: E.multi_label_head(3, thresholds=[1.5])),
    ("vocabulary_length", lambda: E.multi_label_head(3, label_vocabulary=["a"])),
    ("vocabulary_type", lambda: E.multi_label_head(2, label_vocabulary="ab")),
    ("reduction_none", lambda: E.multi_label_head(3, loss_reduction=tf.losses.Reduction.NONE)),
    ("class_out_of_range", lambda: E.multi_label_head(3, classes_for_class_based_metrics=[3])),
    ("class_names_without_vocabulary", lambda: E.multi_label_head(3, classes_for_class_based_metrics=["a"])),
    ("bad_loss_fn", lambda: E.multi_label_head(3, loss_fn=lambda a, b: a)),
    ("no_heads", lambda: E.multi_head([])),
    ("unnamed_head", lambda: E.multi_head([E.regression_head()])),
    ("head_weights", lambda: E.multi_head([E.regression_head(name="a")], head_weights=[1.0, 2.0])),
    ("multi_head_bad_logits", lambda: E.multi_head([E.regression_head(name="a"), E.regression_head(name="b")])
     .create_estimator_spec(features, Modes.PREDICT, tf.zeros([4, 5]))),
    ("multi_head_labels_not_dict", lambda: E.multi_head([E.regression_head(name="a")])
     .create_estimator_spec(features, Modes.EVAL, tf.zeros([4, 1]), tf.zeros([4, 1]))),
    ("no_optimizer", lambda: E.multi_label_head(3).create_estimator_spec(
        features, Modes.TRAIN, tf.zeros([4, 3]), tf.ones([4, 3], tf.int64))),
))
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
    init_from_numpy(sess, seed=4, scale=0.5)
    sess.run(tf.local_variables_initializer())
    for name, (head, kernel, train, evaluation, predict) in sorted(results.items()):
        report("predictions_" + name, {str(k): v for k, v in sess.run(predict.predictions).items()})
        report("eval_loss_" + name, sess.run(evaluation.loss))
        sess.run({k: update for k, (_, update) in evaluation.eval_metric_ops.items()})
        report("metrics_" + name, sess.run({k: value for k, (value, _) in evaluation.eval_metric_ops.items()}))
        report("train_loss_" + name, sess.run(train.loss))
        sess.run(train.train_op)
        report("kernel_after_step_" + name, sess.run(kernel))

# an Estimator with a multi-label head: one SavedModel per mode, and all modes at once
def model_fn(features, labels, mode):
    logits = tf.layers.dense(features["x"], 3)
    return E.multi_label_head(3).create_estimator_spec(features, mode, logits, labels,
                                                       optimizer=tf.train.GradientDescentOptimizer(0.1))
def input_fn():
    return {"x": tf.constant(rng.randn(8, 3).astype(np.float32))}, tf.constant(rng.randint(0, 2, (8, 3)))
estimator = tf.estimator.Estimator(model_fn, model_dir=os.path.join(os.getcwd(), "heads_model"))
estimator.train(input_fn, steps=2)
receiver = tf.estimator.export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 3])})
supervised = tf.contrib.estimator.build_raw_supervised_input_receiver_fn(
    {"x": tf.placeholder(tf.float32, [None, 3])}, tf.placeholder(tf.int64, [None, 3]))
one = E.export_saved_model_for_mode(estimator, os.path.join(os.getcwd(), "export_one"), supervised,
                                    mode=Modes.EVAL)
every = E.export_all_saved_models(estimator, os.path.join(os.getcwd(), "export_all"),
                                  {Modes.PREDICT: receiver, Modes.EVAL: supervised})
def signatures(path):
    from tensorflow.core.protobuf import saved_model_pb2
    proto = saved_model_pb2.SavedModel()
    with open(os.path.join(path, b"saved_model.pb" if isinstance(path, bytes) else "saved_model.pb"), "rb") as f:
        proto.ParseFromString(f.read())
    return sorted([sorted(m.meta_info_def.tags), sorted(m.signature_def)] for m in proto.meta_graphs)
report("export_one", signatures(one))
report("export_all", signatures(every))
'''


@requires_tf115
def test_contrib_estimator_heads_and_exports_match_tf115():
  tf115, ours = run_both(SNIPPET, timeout=400)
  assert "auc/class2" in tf115["metric_keys_multi_label"], tf115["metric_keys_multi_label"]
  # TF 1.15's multi_head tests `if labels` on a Tensor: the graph refuses a Tensor as a bool (kept, as TF 1.15)
  for side in (tf115, ours):
    assert side["errors"].pop("multi_head_labels_not_dict") == "OperatorNotAllowedInGraphError"
  assert set(tf115["errors"].values()) == {"ValueError"}, tf115["errors"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
