"""Clip an exploding LSTM's gradients where clipping belongs: between compute and apply.

`optimizer.minimize(loss)` is `compute_gradients` followed by `apply_gradients`; to clip,
split it and put `tf1clip.clip_by_global_norm` in between (the TF1 recipe, with TF1's
signature, keeping `None` and sparse gradients intact). The model is
graphs/lstm_classifier.py in its EXPLODING setting (large recurrent weights, 20 unrolled
steps), whose raw global gradient norm jumps between tens and hundreds from one batch to
the next. Every `--print_every` steps this prints the mean loss of the window and the
global norm before and after clipping; at the end, whether the loss fell.

Run:  python examples/clip_lstm.py --steps 60 [--clip_norm 1.0] [--learning_rate 0.01]
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

import tf1clip

# graphs/ is the repository's folder of reference graphs, not an installed package.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphs import lstm_classifier

FLAGS = flags.FLAGS
flags.DEFINE_integer("steps", 200, "training steps", lower_bound=1)
flags.DEFINE_float("clip_norm", 1.0, "global norm the gradients are clipped to (> 0)")
flags.DEFINE_float("learning_rate", 0.01, "Adam learning rate")
flags.DEFINE_integer("print_every", 10, "print a line every this many steps", lower_bound=1)
flags.DEFINE_integer("batch_size", 64, "sequences per step", lower_bound=1)
flags.DEFINE_bool("explode", True, "use lstm_classifier.EXPLODING (else the calm default init)")
flags.DEFINE_integer("seed", 0, "seed of the initial weights and of the batches", lower_bound=0)
flags.register_validator("clip_norm", lambda value: value > 0, message="--clip_norm must be > 0")


def build_train_op(loss, learning_rate, clip_norm):
  """compute_gradients -> tf1clip.clip_by_global_norm -> apply_gradients.

  Args:
    loss: scalar loss Tensor.
    learning_rate: Adam's learning rate.
    clip_norm: the global norm gradients are scaled down to when they exceed it.

  Returns:
    (train_op, norm_before, norm_after): the update, and the global gradient norm
    before and after clipping.
  """
  optimizer = tf.compat.v1.train.AdamOptimizer(learning_rate)
  grads, variables = zip(*optimizer.compute_gradients(loss))
  clipped, norm_before = tf1clip.clip_by_global_norm(grads, clip_norm)
  norm_after = tf1clip.global_norm(clipped)
  global_step = tf.compat.v1.train.get_or_create_global_step()
  train_op = optimizer.apply_gradients(zip(clipped, variables), global_step=global_step)
  return train_op, norm_before, norm_after


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  settings = lstm_classifier.EXPLODING if FLAGS.explode else {}
  with tf.Graph().as_default():
    model = lstm_classifier.build(seed=FLAGS.seed, **settings)
    train_op, norm_before, norm_after = build_train_op(
        model.loss, FLAGS.learning_rate, FLAGS.clip_norm)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      print("LSTM classifier, %d unrolled steps, settings %s; clip_norm %g, Adam lr %g"
            % (model.placeholders["inputs"].shape[1], settings or "default",
               FLAGS.clip_norm, FLAGS.learning_rate))
      window_means = []
      window = []
      for step in range(1, FLAGS.steps + 1):
        loss, before, after, _ = sess.run(
            [model.loss, norm_before, norm_after, train_op],
            model.make_batch(FLAGS.seed * 1_000_003 + step, FLAGS.batch_size))
        window.append(loss)
        if step % FLAGS.print_every == 0 or step == FLAGS.steps:
          window_means.append(float(np.mean(window)))
          print("step %5d  loss %.4f  global norm before clip %10.3f  after %7.3f"
                % (step, window_means[-1], before, after))
          window = []
      first, last = window_means[0], window_means[-1]
      print("loss %s from %.4f (first window) to %.4f (last window)"
            % ("fell" if last < first else "did not fall", first, last))


if __name__ == "__main__":
  app.run(main)
