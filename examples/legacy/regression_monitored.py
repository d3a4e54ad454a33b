"""Fit a small MLP with tf.contrib.layers, optimize_loss and MonitoredTrainingSession (TensorFlow 1.x, 2017).

Run it unchanged on TensorFlow 2.21 with tf1clip:

  tf1clip run examples/legacy/regression_monitored.py --model_dir /tmp/regression --max_steps 200

Checkpoints and summaries go to --model_dir; running it again resumes from the last checkpoint.
"""

from __future__ import print_function

import numpy as np
import tensorflow as tf

tf.flags.DEFINE_string("model_dir", "/tmp/regression_model", "checkpoint and summary directory")
tf.flags.DEFINE_integer("max_steps", 200, "train until the global step reaches this")
tf.flags.DEFINE_integer("batch_size", 64, "examples per step")
tf.flags.DEFINE_float("learning_rate", 0.01, "initial learning rate")
tf.flags.DEFINE_float("clip_gradients", 5.0, "clip gradients at this global norm")
FLAGS = tf.flags.FLAGS


def make_data(num_examples=1024, dim=8):
  rng = np.random.RandomState(0)
  true_w = rng.randn(dim, 1)
  x = rng.randn(num_examples, dim).astype(np.float32)
  y = (np.sin(x).dot(true_w) + 0.05 * rng.randn(num_examples, 1)).astype(np.float32)
  return x, y


def model(features):
  net = tf.contrib.layers.fully_connected(
      features, 32,
      weights_initializer=tf.contrib.layers.xavier_initializer(),
      weights_regularizer=tf.contrib.layers.l2_regularizer(1e-4),
      scope="hidden")
  net = tf.contrib.layers.layer_norm(net)
  return tf.contrib.layers.fully_connected(net, 1, activation_fn=None, scope="output")


def main(_):
  tf.logging.set_verbosity(tf.logging.INFO)
  x_data, y_data = make_data()
  dataset = tf.data.Dataset.from_tensor_slices((x_data, y_data))
  dataset = dataset.shuffle(1024, seed=1).repeat().batch(FLAGS.batch_size)
  features, labels = dataset.make_one_shot_iterator().get_next()

  predictions = model(features)
  loss = tf.losses.mean_squared_error(labels, predictions) + tf.losses.get_regularization_loss()
  global_step = tf.contrib.framework.get_or_create_global_step()
  train_op = tf.contrib.layers.optimize_loss(
      loss, global_step,
      learning_rate=FLAGS.learning_rate,
      optimizer="Adam",
      clip_gradients=FLAGS.clip_gradients,
      learning_rate_decay_fn=lambda lr, step: tf.train.exponential_decay(lr, step, 100, 0.9),
      summaries=["loss", "learning_rate", "gradient_norm"])

  hooks = [
      tf.train.StopAtStepHook(last_step=FLAGS.max_steps),
      tf.train.NanTensorHook(loss),
      tf.train.LoggingTensorHook({"step": global_step, "loss": loss}, every_n_iter=20),
  ]
  with tf.train.MonitoredTrainingSession(checkpoint_dir=FLAGS.model_dir, hooks=hooks,
                                         save_summaries_steps=50) as sess:
    while not sess.should_stop():
      sess.run(train_op)
  print("trained to step %d; checkpoints in %s" % (FLAGS.max_steps, FLAGS.model_dir))


if __name__ == "__main__":
  tf.app.run()
