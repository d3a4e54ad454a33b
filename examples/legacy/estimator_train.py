"""Train a small classifier with tf.estimator the 2018 way: model_fn, train_and_evaluate, export.

Written for TensorFlow 1.12-1.15 (tf.flags, tf.contrib.estimator.clip_gradients_by_norm,
tf.estimator.train_and_evaluate, export_saved_model). Run it unchanged on TensorFlow 2.21:

  tf1clip run examples/legacy/estimator_train.py --model_dir build/estimator

The loss is printed as it falls; checkpoints and event files go to --model_dir, the exported
SavedModel to --model_dir/export/<timestamp>. Running it again resumes from the last checkpoint.
"""

from __future__ import print_function

import os

import numpy as np
import tensorflow as tf

tf.flags.DEFINE_string("model_dir", "build/estimator", "checkpoints, events and the export go here")
tf.flags.DEFINE_integer("train_steps", 300, "train until the global step reaches this")
tf.flags.DEFINE_integer("batch_size", 32, "examples per step")
tf.flags.DEFINE_float("learning_rate", 0.01, "Adam's learning rate")
tf.flags.DEFINE_float("clip_norm", 1.0, "clip each gradient tensor at this norm")
tf.flags.DEFINE_integer("log_every", 25, "print the mean loss of every this many steps")
FLAGS = tf.flags.FLAGS

NUM_FEATURES = 4
NUM_CLASSES = 3


def make_data(num_examples, seed):
  """Three Gaussian blobs in 4-D, one per class."""
  rng = np.random.RandomState(seed)
  centers = 1.5 * np.random.RandomState(42).randn(NUM_CLASSES, NUM_FEATURES)
  labels = rng.randint(0, NUM_CLASSES, size=num_examples)
  features = centers[labels] + rng.randn(num_examples, NUM_FEATURES)
  return features.astype(np.float32), labels.astype(np.int64)


def input_fn(features, labels, training):
  def _input_fn():
    dataset = tf.data.Dataset.from_tensor_slices(({"x": features}, labels))
    if training:
      dataset = dataset.shuffle(1000, seed=1).repeat()
    return dataset.batch(FLAGS.batch_size)
  return _input_fn


class PrintLossHook(tf.train.SessionRunHook):
  """Prints the mean training loss of every `every_n` steps (tf.logging stays at WARN: quiet)."""

  def __init__(self, loss, every_n):
    self._loss = loss
    self._every_n = every_n
    self._losses = []

  def before_run(self, run_context):
    return tf.train.SessionRunArgs([tf.train.get_global_step(), self._loss])

  def after_run(self, run_context, run_values):
    step, loss = run_values.results
    self._losses.append(loss)
    if (step + 1) % self._every_n == 0:
      print("step %d: loss %.4f" % (step + 1, np.mean(self._losses)))
      self._losses = []


def model_fn(features, labels, mode, params):
  net = tf.layers.dense(features["x"], params["hidden_units"], activation=tf.nn.relu, name="hidden")
  logits = tf.layers.dense(net, NUM_CLASSES, name="logits")
  predictions = {"class_ids": tf.argmax(logits, axis=1),
                 "probabilities": tf.nn.softmax(logits)}
  if mode == tf.estimator.ModeKeys.PREDICT:
    return tf.estimator.EstimatorSpec(
        mode, predictions=predictions,
        export_outputs={"serving_default": tf.estimator.export.PredictOutput(predictions)})

  loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
  accuracy = tf.metrics.accuracy(labels=labels, predictions=predictions["class_ids"])
  if mode == tf.estimator.ModeKeys.EVAL:
    return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})

  optimizer = tf.train.AdamOptimizer(params["learning_rate"])
  optimizer = tf.contrib.estimator.clip_gradients_by_norm(optimizer, params["clip_norm"])
  train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
  return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                    training_hooks=[PrintLossHook(loss, FLAGS.log_every)])


def serving_input_receiver_fn():
  x = tf.placeholder(tf.float32, [None, NUM_FEATURES], name="x")
  return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})


def main(_):
  tf.logging.set_verbosity(tf.logging.WARN)
  train_x, train_y = make_data(2000, seed=0)
  eval_x, eval_y = make_data(500, seed=1)
  config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, tf_random_seed=7,
                                  save_checkpoints_steps=max(FLAGS.train_steps // 2, 1),
                                  log_step_count_steps=None)
  estimator = tf.estimator.Estimator(
      model_fn=model_fn, config=config,
      params={"hidden_units": 16, "learning_rate": FLAGS.learning_rate,
              "clip_norm": FLAGS.clip_norm})

  train_spec = tf.estimator.TrainSpec(input_fn(train_x, train_y, True), max_steps=FLAGS.train_steps)
  eval_spec = tf.estimator.EvalSpec(input_fn(eval_x, eval_y, False), steps=None, throttle_secs=0)
  tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
  if not config.is_chief:  # under TF_CONFIG, only the chief evaluates at the end and exports the model
    return
  metrics = estimator.evaluate(input_fn(eval_x, eval_y, False))
  print("eval after step %d: loss %.4f, accuracy %.3f" % (
      metrics["global_step"], metrics["loss"], metrics["accuracy"]))

  export_dir = estimator.export_saved_model(os.path.join(FLAGS.model_dir, "export"),
                                            serving_input_receiver_fn)
  print("exported SavedModel to %s" % export_dir.decode())


if __name__ == "__main__":
  tf.app.run()
