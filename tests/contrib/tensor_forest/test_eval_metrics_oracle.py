"""TF 1.15's tensor_forest eval_metrics against TF 1.15: every metric `get_metric` names (auc, sigmoid and softmax
entropy, accuracy, r2, predictions, classification_log_loss, precision, recall, their *_at_thresholds, top_5) on small
batches, unweighted and weighted, their values after two updates and the local variables they make;
`get_prediction_key` of each, the module's constants, and the error for an unknown name."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.tensor_forest.eval_metrics.get_metric",
                 "tf.contrib.tensor_forest.eval_metrics.get_prediction_key",
                 "tf.contrib.tensor_forest.client.eval_metrics.get_metric",
                 "tf.contrib.tensor_forest.client.eval_metrics.get_prediction_key")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
from tensorflow.contrib.tensor_forest.client import eval_metrics
tf.logging.set_verbosity(tf.logging.ERROR)

NAMES = ["auc", "sigmoid_entropy", "softmax_entropy", "accuracy", "r2", "predictions", "classification_log_loss",
         "precision", "precision_at_thresholds", "recall", "recall_at_thresholds", "top_5"]
report("keys", {n: eval_metrics.get_prediction_key(n) for n in NAMES})
report("constants", [eval_metrics.INFERENCE_PROB_NAME, eval_metrics.INFERENCE_PRED_NAME,
                     eval_metrics.FEATURE_IMPORTANCE_NAME])
report_errors("errors", [("get_metric", lambda: eval_metrics.get_metric("nope")),
                         ("get_prediction_key", lambda: eval_metrics.get_prediction_key("top_1"))])

rng = np.random.RandomState(2)
def batch(n, classes):
    raw = rng.rand(n, classes).astype(np.float32) + 0.05
    probs = raw / raw.sum(1, keepdims=True)
    targets = rng.randint(0, classes, (n, 1)).astype(np.int64)
    return probs, targets
BATCHES = {2: [batch(6, 2), batch(5, 2)], 7: [batch(6, 7), batch(5, 7)]}
WEIGHTS = [rng.uniform(0.2, 2.0, (6, 1)).astype(np.float32), rng.uniform(0.2, 2.0, (5, 1)).astype(np.float32)]

def inputs(name, probs, targets):
    if eval_metrics.get_prediction_key(name) == eval_metrics.INFERENCE_PRED_NAME:
        return np.argmax(probs, 1).astype(np.int64), targets[:, 0] if name != "predictions" else targets
    return probs, targets

def run(key, names, classes, weighted):
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None, classes])
        c = tf.placeholder(tf.int64, [None])
        t = tf.placeholder(tf.int64, [None, 1])
        t1 = tf.placeholder(tf.int64, [None])
        w = tf.placeholder(tf.float32, [None, 1])
        built = {}
        for name in names:
            by_class = eval_metrics.get_prediction_key(name) == eval_metrics.INFERENCE_PRED_NAME
            predictions, targets = (c, t1) if by_class and name != "predictions" else (p, t)
            if name == "predictions":
                predictions = c
            if name == "top_5":
                built[name] = eval_metrics.get_metric(name)(predictions, targets)
            elif weighted:  # the losses are scalars: their mean takes one weight
                weights = 2.0 if "entropy" in name or "loss" in name else w[:, 0] if by_class else w
                built[name] = eval_metrics.get_metric(name)(predictions, targets, weights=weights)
            else:
                built[name] = eval_metrics.get_metric(name)(predictions, targets)
        report(key + "/locals", sorted(v.op.name for v in tf.local_variables()))
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for (probs, targets), weights in zip(BATCHES[classes], WEIGHTS):
                feed = {p: probs, c: np.argmax(probs, 1), t: targets, t1: targets[:, 0], w: weights}
                ops = {n: m if n == "predictions" else m[1] for n, m in built.items()}
                report("%s/update_%d" % (key, len(probs)), sess.run(ops, feed))
            values = {n: m[0] for n, m in built.items() if n != "predictions"}
            report(key + "/values", sess.run(values))

BINARY = ["auc", "sigmoid_entropy", "softmax_entropy", "accuracy", "predictions", "classification_log_loss",
          "precision", "precision_at_thresholds", "recall", "recall_at_thresholds", "top_5"]
with case("binary"):
    run("binary", BINARY, 2, False)
with case("binary_weighted"):
    run("binary_weighted", [n for n in BINARY if n != "predictions"], 2, True)
with case("seven_classes"):
    run("seven_classes", ["sigmoid_entropy", "softmax_entropy", "classification_log_loss", "top_5", "accuracy"], 7,
        False)
with case("r2"):
    with tf.Graph().as_default():
        scores = tf.constant([[1.0, 0.5], [2.5, 1.0], [2.0, -1.0], [0.0, 0.0]])
        targets = tf.constant([[1.0, 0.0], [2.0, 1.5], [3.0, -0.5], [0.5, 0.25]])
        plain = eval_metrics.get_metric("r2")(scores, targets)
        weighted = eval_metrics.get_metric("r2")(scores[:, :1], tf.constant([[1], [2], [3], [1]]), weights=2.0)
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            sess.run([plain[1], weighted[1]])
            report("r2", sess.run([plain[0], weighted[0]]))
with case("top_5_vector_targets"):  # 1-D targets are taken as they are
    with tf.Graph().as_default():
        probs, targets = BATCHES[7][0]
        value, update = eval_metrics.get_metric("top_5")(tf.constant(probs), tf.constant(targets[:, 0]))
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            report("top_5_vector_targets", sess.run(update))
'''


@requires_tf115
def test_eval_metrics_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"] == {"get_metric": "KeyError", "get_prediction_key": "KeyError"}
  assert len(tf115["binary/values"]) == 10
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
