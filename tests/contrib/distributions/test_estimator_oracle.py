"""tf.contrib.distributions.estimator_head_distribution_regression against TF 1.15: a contrib.learn regression
head whose loss is -log_prob under the user's distribution. From the same logits and labels, in TRAIN / EVAL /
INFER: the loss, the predictions (the distribution's mean), every eval metric after one update, the
distributions the head kept; with and without a head name, with an event shape (label_dimension 2,
a diagonal normal) and with a centered bias; in a contrib.learn Estimator trained for a few steps from zeros; and
the errors for a weight column (TF 1.15 refused every one) and a distribution function that is not callable."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.distributions.estimator_head_distribution_regression",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
ds = tf.contrib.distributions
rng = np.random.RandomState(0)

def normal(logits):
    return ds.Normal(loc=logits[..., 0], scale=tf.nn.softplus(logits[..., 1]) + 1e-3)

def diag_normal(logits):
    return ds.MultivariateNormalDiag(loc=logits[..., :2], scale_diag=tf.nn.softplus(logits[..., 2:]) + 1e-3)

fetch = {}
graph = tf.Graph()
with graph.as_default():
    tf.train.create_global_step()
    features = {"x": tf.constant(rng.randn(4, 3).astype(np.float32)),
                "w": tf.constant([1.0, 2.0, 0.5, 1.0])}
    cases = (
        ("plain", ds.estimator_head_distribution_regression(normal, logits_dimension=2),
         tf.constant([[0.5], [1.0], [-1.0], [2.0]]), 2),
        ("named", ds.estimator_head_distribution_regression(normal, logits_dimension=2, head_name="dist"),
         tf.constant([[0.5], [1.0], [-1.0], [2.0]]), 2),
        ("event", ds.estimator_head_distribution_regression(diag_normal, label_dimension=2, logits_dimension=4),
         tf.constant(rng.randn(4, 2).astype(np.float32)), 4),
        ("centered", ds.estimator_head_distribution_regression(normal, logits_dimension=2,
                                                               enable_centered_bias=True),
         tf.constant([[0.5], [1.0], [-1.0], [2.0]]), 2))
    for key, head, labels, width in cases:
        logits = tf.constant(rng.randn(4, width).astype(np.float32))
        for mode in ("train", "eval", "infer"):
            ops = head.create_model_fn_ops(features=features, mode=mode, labels=labels if mode != "infer" else None,
                                           train_op_fn=lambda loss: tf.no_op(), logits=logits)
            k = key + "/" + mode
            fetch[k + "/predictions"] = dict(ops.predictions)
            if ops.loss is not None:
                fetch[k + "/loss"] = ops.loss
            if mode == "eval":
                fetch[k + "/metrics"] = dict(ops.eval_metric_ops)
        report(key + "/distributions", [type(d).__name__ for d in head.distributions.values()])
    # a weight column: contrib.learn's head makes the weights [batch, 1], log_prob's losses are [batch], and TF
    # 1.15 refused the pair when building (any weight column, for any distribution whose log_prob drops the
    # last axis)
    with case("weight_column"):
        ds.estimator_head_distribution_regression(normal, logits_dimension=2, weight_column_name="w").\
            create_model_fn_ops(features=features, mode="train", labels=tf.constant([[0.5], [1.0], [-1.0], [2.0]]),
                                train_op_fn=lambda loss: tf.no_op(), logits=tf.zeros([4, 2]))
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        ups = {k: {m: v[1] for m, v in ops_.items()} for k, ops_ in fetch.items() if k.endswith("/metrics")}
        sess.run(ups)
        plain = {k: v for k, v in fetch.items() if not k.endswith("/metrics")}
        plain.update({k: {m: v[0] for m, v in ops_.items()} for k, ops_ in fetch.items() if k.endswith("/metrics")})
        for k, v in sorted(sess.run(plain).items()):
            report(k, v)
    report("variables", sorted([v.op.name, v.shape.as_list()] for v in tf.global_variables()))

with case("not_callable"):
    ds.estimator_head_distribution_regression("normal")

# in a contrib.learn Estimator: a linear model of the distribution's two parameters, trained from zeros
x = rng.randn(16, 3).astype(np.float32)
y = (x.dot([[1.0], [-2.0], [0.5]]) + 0.1).astype(np.float32)
head = ds.estimator_head_distribution_regression(normal, logits_dimension=2)

def model_fn(features, labels, mode):
    with tf.variable_scope("linear"):
        w = tf.get_variable("w", [3, 2], initializer=tf.zeros_initializer())
        logits = tf.matmul(features["x"], w)
    optimizer = tf.train.GradientDescentOptimizer(0.1)
    return head.create_model_fn_ops(features, mode, labels, train_op_fn=lambda loss: optimizer.minimize(
        loss, global_step=tf.train.get_global_step()), logits=logits)

def input_fn():
    return {"x": tf.constant(x)}, tf.constant(y)

estimator = tf.contrib.learn.Estimator(model_fn=model_fn, model_dir=os.path.abspath("model"))
estimator.fit(input_fn=input_fn, steps=5)
report("estimator_eval", estimator.evaluate(input_fn=input_fn, steps=1))
report("estimator_predictions", [p["scores"] for p in estimator.predict(input_fn=input_fn, as_iterable=True)][:4])
report("estimator_weights", estimator.get_variable_value("linear/w"))
'''


@requires_tf115
def test_distribution_regression_head_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["not_callable:error"] == "TypeError"
  assert tf115["plain/distributions"] == ["Normal"]
  assert tf115["weight_column:error"] == "ValueError"
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
