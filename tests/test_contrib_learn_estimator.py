"""tf.contrib.learn's estimator adapters, the parts the TF 1.15 oracle test does not pin down: ValidationMonitor's
early stopping (timing-free here: a checkpoint every step, no check interval), and clear errors for bad input."""

import numpy as np
import pytest
import tensorflow.compat.v1 as tf

from tf1clip.contrib import learn

X = np.random.RandomState(0).randn(20, 3).astype(np.float32)
Y = X.dot([1.0, -1.0, 0.5]).astype(np.float32)


def _model_fn(features, labels, mode, params):
  w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
  pred = tf.squeeze(tf.matmul(features, w), 1)
  loss = tf.reduce_mean(tf.square(pred - labels))
  train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(
      loss, global_step=tf.train.get_global_step())
  return learn.ModelFnOps(mode=mode, predictions=pred, loss=loss, train_op=train_op)


def _estimator(tmp_path, lr):
  config = learn.RunConfig(save_checkpoints_steps=1, model_dir=str(tmp_path / "model"))
  return learn.Estimator(model_fn=_model_fn, config=config, params={"lr": lr})


def test_validation_monitor_stops_when_the_metric_stops_improving(tmp_path):
  est = _estimator(tmp_path, lr=-0.05)  # gradient ascent: the loss only grows
  monitor = learn.monitors.ValidationMonitor(X, Y, every_n_steps=1, early_stopping_rounds=3,
                                             check_interval_secs=0)
  est.fit(x=X, y=Y, steps=40, monitors=[monitor])
  assert monitor.early_stopped
  step = est.get_variable_value("global_step")
  assert step < 40 and step - monitor.best_step >= 3
  assert monitor.best_value == pytest.approx(monitor.best_metrics["loss"])


def test_validation_monitor_lets_an_improving_model_train_to_the_end(tmp_path):
  est = _estimator(tmp_path, lr=0.05)
  monitor = learn.monitors.ValidationMonitor(X, Y, every_n_steps=1, early_stopping_rounds=3,
                                             check_interval_secs=0)
  est.fit(x=X, y=Y, steps=8, monitors=[monitor])
  assert not monitor.early_stopped and est.get_variable_value("global_step") == 8
  assert monitor.best_step >= 5


def test_bad_input_is_named(tmp_path):
  with pytest.raises(ValueError, match="every_n_steps"):
    learn.monitors.ValidationMonitor(X, Y, every_n_steps=0)
  with pytest.raises(ValueError, match="Either x or input_fn"):
    learn.monitors.ValidationMonitor()
  # TF 1.15's: a linear model's gradient_clip_norm=0 clips nothing; centered bias is its head's
  learn.LinearRegressor(learn.infer_real_valued_columns_from_input(X), gradient_clip_norm=0)
  learn.DNNClassifier([3], learn.infer_real_valued_columns_from_input(X), enable_centered_bias=True)
  with pytest.raises(TypeError, match="SKCompat: estimator"):
    learn.SKCompat(object())
  with pytest.raises(ValueError, match="monitors"):
    _estimator(tmp_path, 0.1).fit(x=X, y=Y, steps=1, monitors=[object()])
