"""Distributed training, TensorFlow 1.x style (2017): between-graph replication with parameter servers.

The shape of TF 1.x's `mnist_replica.py`: every task runs this same script with its role in flags;
ps tasks serve the variables (`server.join()`), workers build the same graph with
`replica_device_setter`, aggregate their gradients synchronously with `SyncReplicasOptimizer`, clip
with `tf.contrib.estimator.clip_gradients_by_norm`, and train under `MonitoredTrainingSession`, whose
chief (worker 0) initializes and checkpoints; every worker prints its loss as it trains. The data is an MNIST-shaped synthetic
set the script makes itself (784 features, 10 classes), each worker reading its own shard.

Run a cluster of 1 ps and 2 workers on this machine, unchanged, on TensorFlow 2.21:

  tf1clip cluster --ps 1 --workers 2 examples/legacy/distributed_mnist_style.py --train_steps 200
"""

from __future__ import print_function

import tempfile

import numpy as np

import tensorflow as tf

flags = tf.app.flags
flags.DEFINE_string("job_name", None, "ps or worker")
flags.DEFINE_integer("task_index", 0, "index of the task within its job")
flags.DEFINE_string("ps_hosts", "", "comma-separated host:port of the ps tasks")
flags.DEFINE_string("worker_hosts", "", "comma-separated host:port of the worker tasks")
flags.DEFINE_boolean("sync_replicas", True, "aggregate the workers' gradients synchronously")
flags.DEFINE_integer("train_steps", 200, "global steps to train")
flags.DEFINE_integer("batch_size", 64, "examples per worker step")
flags.DEFINE_integer("hidden_units", 64, "hidden layer size")
flags.DEFINE_float("learning_rate", 0.01, "Adam learning rate")
flags.DEFINE_float("clip_norm", 5.0, "clip gradients at this global norm")
flags.DEFINE_string("train_dir", None, "checkpoint directory (chief); default: a new folder per run (pass one "
                    "to resume a run)")
flags.DEFINE_integer("log_every", 20, "each worker prints the loss every this many of its own steps")
FLAGS = flags.FLAGS

IMAGE_PIXELS = 28


def make_shard(task_index, num_workers, num_examples=4096):
  """An MNIST-shaped labelled set (a fixed random linear teacher), this worker's shard of it."""
  rng = np.random.RandomState(1234)
  teacher = rng.randn(IMAGE_PIXELS * IMAGE_PIXELS, 10).astype(np.float32)
  images = rng.rand(num_examples, IMAGE_PIXELS * IMAGE_PIXELS).astype(np.float32)
  labels = np.argmax(images.dot(teacher) + 0.5 * rng.randn(num_examples, 10), axis=1)
  return images[task_index::num_workers], labels[task_index::num_workers].astype(np.int64)


def main(unused_argv):
  if FLAGS.job_name is None or FLAGS.job_name == "":
    raise ValueError("Must specify an explicit `job_name`")
  ps_spec = FLAGS.ps_hosts.split(",")
  worker_spec = FLAGS.worker_hosts.split(",")
  num_workers = len(worker_spec)
  cluster = tf.train.ClusterSpec({"ps": ps_spec, "worker": worker_spec})
  server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
  if FLAGS.job_name == "ps":
    server.join()
    return

  is_chief = (FLAGS.task_index == 0)
  if is_chief and not FLAGS.train_dir:
    FLAGS.train_dir = tempfile.mkdtemp(prefix="distributed_mnist_style-")
    print("checkpoints go to %s (pass --train_dir to resume a run)" % FLAGS.train_dir)
  images, labels = make_shard(FLAGS.task_index, num_workers)
  dataset = tf.data.Dataset.from_tensor_slices((images, labels))
  dataset = dataset.shuffle(1024, seed=FLAGS.task_index).repeat().batch(FLAGS.batch_size)

  worker_device = "/job:worker/task:%d" % FLAGS.task_index
  with tf.device(tf.train.replica_device_setter(worker_device=worker_device, cluster=cluster)):
    global_step = tf.train.get_or_create_global_step()
    x, y = dataset.make_one_shot_iterator().get_next()
    hidden = tf.layers.dense(x, FLAGS.hidden_units, activation=tf.nn.relu, name="hidden")
    logits = tf.layers.dense(hidden, 10, name="logits")
    loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)

    opt = tf.train.AdamOptimizer(FLAGS.learning_rate)
    opt = tf.contrib.estimator.clip_gradients_by_norm(opt, FLAGS.clip_norm)
    hooks = [tf.train.StopAtStepHook(last_step=FLAGS.train_steps)]
    if FLAGS.sync_replicas:
      opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=num_workers,
                                           total_num_replicas=num_workers, name="mnist_sync_replicas")
      hooks.append(opt.make_session_run_hook(is_chief))
    train_op = opt.minimize(loss, global_step=global_step)

  # Each worker talks to the ps tasks and itself only: without the filter, a worker's session would
  # wait for every other worker to answer (and hang once the chief has finished and exited).
  sess_config = tf.ConfigProto(allow_soft_placement=True, device_filters=[
      "/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
  with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief, config=sess_config,
                                         checkpoint_dir=FLAGS.train_dir if is_chief else None,
                                         hooks=hooks, save_checkpoint_secs=None,
                                         save_checkpoint_steps=max(FLAGS.train_steps // 2, 1),
                                         log_step_count_steps=0) as sess:
    local_step = 0
    while not sess.should_stop():
      _, step, loss_value = sess.run([train_op, global_step, loss])
      local_step += 1
      if local_step == 1 or local_step % FLAGS.log_every == 0:
        print("worker %d: local step %d, global step %d, loss %.4f"
              % (FLAGS.task_index, local_step, step, loss_value))
  print("worker %d: done after %d local steps" % (FLAGS.task_index, local_step))


if __name__ == "__main__":
  tf.app.run()
