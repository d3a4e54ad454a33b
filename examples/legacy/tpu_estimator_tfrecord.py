"""TPUEstimator(use_tpu=False) with a TFRecord input_fn, as research code of 2018-2019 wrote it.

Written for TensorFlow 1.13-1.15: tf.contrib.tpu.TPUEstimator with use_tpu=False so the same script
trains on CPU/GPU, tf.contrib.data.map_and_batch, tf.parse_single_example / tf.FixedLenFeature, and
tf.python_io.TFRecordWriter for the data it writes itself. Run it unchanged on TensorFlow 2.21:

  tf1clip run examples/legacy/tpu_estimator_tfrecord.py --model_dir build/tpu_estimator

The TFRecord files go to --data_dir (default: --model_dir/data); checkpoints, events and the exported
SavedModel (--model_dir/export/<timestamp>) to --model_dir. The loss is printed as it falls.
"""

from __future__ import print_function

import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", "build/tpu_estimator", "checkpoints, events and the export go here")
flags.DEFINE_string("data_dir", None, "TFRecord files are written here (default: model_dir/data)")
flags.DEFINE_bool("use_tpu", False, "train on a TPU (needs --tpu_name)")
flags.DEFINE_string("tpu_name", None, "the Cloud TPU to use with --use_tpu")
flags.DEFINE_integer("train_steps", 200, "train until the global step reaches this")
flags.DEFINE_integer("train_batch_size", 32, "global batch size")
flags.DEFINE_integer("iterations_per_loop", 50, "steps per TPU loop (and per printed loss)")
flags.DEFINE_float("learning_rate", 0.05, "learning rate")
FLAGS = flags.FLAGS

NUM_FEATURES = 6


def write_tfrecords(path, num_examples, seed):
  """Writes y = x . w + noise as tf.train.Examples (the true w is fixed)."""
  rng = np.random.RandomState(seed)
  true_w = np.linspace(-1.0, 1.0, NUM_FEATURES)
  with tf.python_io.TFRecordWriter(path) as writer:
    for _ in range(num_examples):
      x = rng.randn(NUM_FEATURES)
      y = x.dot(true_w) + 0.1 * rng.randn()
      example = tf.train.Example(features=tf.train.Features(feature={
          "x": tf.train.Feature(float_list=tf.train.FloatList(value=x)),
          "y": tf.train.Feature(float_list=tf.train.FloatList(value=[y])),
      }))
      writer.write(example.SerializeToString())


def make_input_fn(pattern, is_training):
  def parse(record):
    parsed = tf.parse_single_example(record, {
        "x": tf.FixedLenFeature([NUM_FEATURES], tf.float32),
        "y": tf.FixedLenFeature([1], tf.float32),
    })
    return {"x": parsed["x"]}, parsed["y"]

  def input_fn(params):
    batch_size = params["batch_size"]  # TPUEstimator passes the per-shard batch size
    files = tf.data.Dataset.list_files(pattern, shuffle=False)
    dataset = files.apply(tf.contrib.data.parallel_interleave(
        tf.data.TFRecordDataset, cycle_length=2))
    if is_training:
      dataset = dataset.apply(tf.contrib.data.shuffle_and_repeat(buffer_size=1024, seed=1))
    dataset = dataset.apply(tf.contrib.data.map_and_batch(
        parse, batch_size=batch_size, drop_remainder=True))
    return dataset.prefetch(2)

  return input_fn


class PrintLossHook(tf.train.SessionRunHook):
  """Prints the loss every `every_n` steps."""

  def __init__(self, loss, every_n):
    self._loss, self._every_n = loss, every_n

  def before_run(self, run_context):
    return tf.train.SessionRunArgs([tf.train.get_global_step(), self._loss])

  def after_run(self, run_context, run_values):
    step, loss = run_values.results
    if step % self._every_n == 0:
      print("step %d: loss %.4f" % (step, loss))


def model_fn(features, labels, mode, params):
  predictions = tf.layers.dense(features["x"], 1, name="linear")
  if mode == tf.estimator.ModeKeys.PREDICT:
    return tf.contrib.tpu.TPUEstimatorSpec(mode, predictions={"y": predictions})
  loss = tf.losses.mean_squared_error(labels, predictions)
  if mode == tf.estimator.ModeKeys.EVAL:
    def metric_fn(labels, predictions):
      return {"rmse": tf.metrics.root_mean_squared_error(labels, predictions)}
    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss,
                                           eval_metrics=(metric_fn, [labels, predictions]))
  optimizer = tf.train.MomentumOptimizer(params["learning_rate"], momentum=0.9)
  if FLAGS.use_tpu:
    optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
  train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
  return tf.contrib.tpu.TPUEstimatorSpec(
      mode, loss=loss, train_op=train_op,
      training_hooks=[PrintLossHook(loss, FLAGS.iterations_per_loop)])


def serving_input_fn():
  serialized = tf.placeholder(tf.string, [None], name="examples")
  features = tf.parse_example(serialized, {"x": tf.FixedLenFeature([NUM_FEATURES], tf.float32)})
  return tf.estimator.export.ServingInputReceiver(features, {"examples": serialized})


def main(_):
  tf.logging.set_verbosity(tf.logging.WARN)
  data_dir = FLAGS.data_dir or os.path.join(FLAGS.model_dir, "data")
  tf.gfile.MakeDirs(data_dir)
  for i in range(2):
    write_tfrecords(os.path.join(data_dir, "train-%d.tfrecord" % i), 512, seed=i)
  write_tfrecords(os.path.join(data_dir, "eval-0.tfrecord"), 256, seed=10)

  tpu_cluster_resolver = None
  if FLAGS.use_tpu:
    tpu_cluster_resolver = tf.contrib.cluster_resolver.TPUClusterResolver(FLAGS.tpu_name)
  run_config = tf.contrib.tpu.RunConfig(
      cluster=tpu_cluster_resolver,
      model_dir=FLAGS.model_dir,
      save_checkpoints_steps=FLAGS.iterations_per_loop,
      tpu_config=tf.contrib.tpu.TPUConfig(
          iterations_per_loop=FLAGS.iterations_per_loop,
          per_host_input_for_training=tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2))
  estimator = tf.contrib.tpu.TPUEstimator(
      model_fn=model_fn, config=run_config, use_tpu=FLAGS.use_tpu,
      train_batch_size=FLAGS.train_batch_size, eval_batch_size=FLAGS.train_batch_size,
      predict_batch_size=FLAGS.train_batch_size, params={"learning_rate": FLAGS.learning_rate})

  estimator.train(make_input_fn(os.path.join(data_dir, "train-*"), True),
                  max_steps=FLAGS.train_steps)
  metrics = estimator.evaluate(make_input_fn(os.path.join(data_dir, "eval-*"), False),
                               steps=256 // FLAGS.train_batch_size)
  print("eval after step %d: loss %.4f, rmse %.4f" % (
      metrics["global_step"], metrics["loss"], metrics["rmse"]))
  export_dir = estimator.export_saved_model(os.path.join(FLAGS.model_dir, "export"),
                                            serving_input_fn)
  print("exported SavedModel to %s" % export_dir.decode())


if __name__ == "__main__":
  tf.app.run()
