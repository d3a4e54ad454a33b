"""tf.estimator (tensorflow-estimator 2.15 through tf1clip's shim) and TPUEstimator(use_tpu=False) against TF 1.15.

A 2018-style model_fn (tf.layers, tf.losses, an optimizer wrapped by tf.contrib.estimator.clip_gradients_by_norm,
eval metrics) trains from fixed initial weights on fixed data on both sides; the losses the estimator logs,
the evaluation, the predictions and the checkpoint's variable names must agree.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.estimator.Estimator", "tf.estimator.EstimatorSpec", "tf.estimator.RunConfig",
                 "tf.estimator.inputs.numpy_input_fn", "tf.contrib.tpu.TPUEstimator",
                 "tf.contrib.tpu.TPUEstimatorSpec", "tf.contrib.tpu.RunConfig", "tf.contrib.tpu.TPUConfig",
                 "tf.estimator.ModeKeys")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
rng = np.random.RandomState(4)
X = rng.standard_normal([64, 5]).astype(np.float32)
Y = (X[:, :1] * 2.0 - X[:, 1:2] + 0.1).astype(np.float32)
W0 = (rng.standard_normal([5, 8]) * 0.3).astype(np.float32)
W1 = (rng.standard_normal([8, 1]) * 0.3).astype(np.float32)

def model_fn(features, labels, mode, params):
    h = tf.layers.dense(features["x"], 8, tf.nn.relu, kernel_initializer=tf.constant_initializer(W0), name="h")
    out = tf.layers.dense(h, 1, kernel_initializer=tf.constant_initializer(W1), name="out")
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": out})
    loss = tf.losses.mean_squared_error(labels, out)
    opt = tf.contrib.estimator.clip_gradients_by_norm(tf.train.AdamOptimizer(params["lr"]), 1.0)
    train_op = opt.minimize(loss, global_step=tf.train.get_global_step())
    metrics = {"mae": tf.metrics.mean_absolute_error(labels, out)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)

def tpu_model_fn(features, labels, mode, params):
    spec = model_fn(features, labels, mode, {"lr": 0.05})
    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=spec.loss, train_op=spec.train_op,
                                           predictions=spec.predictions)

train_fn = tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=16, num_epochs=None, shuffle=False)
eval_fn = tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=32, num_epochs=1, shuffle=False)
pred_fn = tf.estimator.inputs.numpy_input_fn({"x": X[:4]}, batch_size=4, num_epochs=1, shuffle=False)
config = tf.estimator.RunConfig(model_dir=os.path.abspath("est"), tf_random_seed=1, save_summary_steps=5,
                                log_step_count_steps=1000)
est = tf.estimator.Estimator(model_fn, config=config, params={"lr": 0.05})
est.train(train_fn, steps=12)
ev = est.evaluate(eval_fn)
report("eval", {k: float(v) for k, v in ev.items()})
report("predictions", np.array([p["y"] for p in est.predict(pred_fn)]))
report("checkpoint", sorted(n for n, _ in tf.train.list_variables(est.model_dir)))

tpu_config = tf.contrib.tpu.RunConfig(model_dir=os.path.abspath("tpu"), tpu_config=tf.contrib.tpu.TPUConfig(
    iterations_per_loop=2))
tpu_est = tf.contrib.tpu.TPUEstimator(tpu_model_fn, config=tpu_config, use_tpu=False, train_batch_size=16,
                                      eval_batch_size=16, predict_batch_size=4)
def tpu_input(params):
    return tf.data.Dataset.from_tensor_slices(({"x": X}, Y)).repeat().batch(params["batch_size"], True)
tpu_est.train(tpu_input, max_steps=6)
report("tpu_checkpoint", sorted(n for n, _ in tf.train.list_variables(tpu_est.model_dir)))
report("tpu_out_kernel", tf.train.load_variable(tpu_est.model_dir, "out/kernel"))
'''


@requires_tf115
def test_estimator_and_tpu_estimator_train_evaluate_predict_like_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["eval"]["global_step"] == 12
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
