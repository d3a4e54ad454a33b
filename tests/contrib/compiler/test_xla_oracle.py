"""tf.contrib.compiler.xla.estimator_model_fn against TF 1.15: an Estimator whose model_fn is decorated (both
forms: `@estimator_model_fn()` and `estimator_model_fn(model_fn)`) trains with its step compiled by XLA (the same
weights and losses from the same start), evaluates with TPUEstimatorSpec-style `eval_metrics` (tensors as a list
and as a dict), and gives TF 1.15's errors: `eval_metric_ops` refused, a metric_fn argument missing from the
tensors, PREDICT not implemented, labels returned to a model_fn that takes none."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.compiler.xla.estimator_model_fn",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
# XLA takes resource variables only, the Estimator's global step included: TF 1.15's documentation of
# estimator_model_fn says to call this first with a base Estimator (so this snippet runs in a process of its own)
tf.enable_resource_variables()
xla = tf.contrib.compiler.xla
rng = np.random.RandomState(0)
x = rng.randn(8, 3).astype(np.float32)
y = x.dot([[1.0], [-2.0], [0.5]]).astype(np.float32) + 0.3

def input_fn():
    return {"x": tf.constant(x)}, tf.constant(y)

def predictions_of(features):
    with tf.variable_scope("linear", use_resource=True):
        w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer([[0.1], [0.2], [-0.1]]))
        b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    return tf.matmul(features["x"], w) + b

def make_model_fn(metrics="list"):
    def model_fn(features, labels, mode, params):
        predictions = predictions_of(features)
        loss = tf.losses.mean_squared_error(labels, predictions)
        if mode == tf.estimator.ModeKeys.TRAIN:
            train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(
                loss, global_step=tf.train.get_global_step())
            return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)
        if metrics == "ops":
            return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
                "mae": tf.metrics.mean_absolute_error(labels, predictions)})
        def metric_fn(labels, predictions):
            return {"mae": tf.metrics.mean_absolute_error(labels, predictions),
                    "rmse": tf.metrics.root_mean_squared_error(labels, predictions)}
        tensors = {"list": [labels, predictions], "dict": {"labels": labels, "predictions": predictions},
                   "missing": {"labels": labels}}[metrics]
        return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, eval_metrics=(metric_fn, tensors))
    return model_fn

@xla.estimator_model_fn()
def decorated_model_fn(features, labels, mode, params):
    return make_model_fn("dict")(features, labels, mode, params)

for key, model_fn in (("list", xla.estimator_model_fn(make_model_fn("list"))), ("dict", decorated_model_fn)):
    estimator = tf.estimator.Estimator(model_fn, model_dir=os.path.abspath(key), params={"lr": 0.1})
    estimator.train(input_fn, steps=3)
    report(key + "_eval", estimator.evaluate(input_fn, steps=1))
    report(key + "_weights", [estimator.get_variable_value("linear/w"), estimator.get_variable_value("linear/b")])
    report(key + "_variables", sorted(estimator.get_variable_names()))
report("decorated_name", decorated_model_fn.__name__)

errors = tf.estimator.Estimator(xla.estimator_model_fn(make_model_fn("list")), model_dir=os.path.abspath("list"),
                                params={"lr": 0.1})
with case("predict"):
    list(errors.predict(lambda: {"x": tf.constant(x)}))
for metrics in ("ops", "missing"):
    with case("eval_" + metrics):
        tf.estimator.Estimator(xla.estimator_model_fn(make_model_fn(metrics)), model_dir=os.path.abspath("list"),
                               params={"lr": 0.1}).evaluate(input_fn, steps=1)

def no_labels(features, mode, params):
    raise AssertionError("not reached")
with case("labels_not_taken"):
    tf.estimator.Estimator(xla.estimator_model_fn(no_labels), model_dir=os.path.abspath("nolabels"),
                           params={}).train(input_fn, steps=1)
'''


@requires_tf115
def test_xla_estimator_model_fn_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["predict:error"] == "NotImplementedError"
  assert tf115["eval_ops:error"] == tf115["eval_missing:error"] == tf115["labels_not_taken:error"] == "ValueError"
  assert tf115["list_eval"]["global_step"] == 3
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
