"""Big batches on a small device: three ways to train with a batch k times what fits.

The same model (graphs/big_batch_mlp.py) and the same data are trained four times, each in
its own graph, starting from the same weights:
  big batch   `optimizer.minimize(loss)` fed all k * m examples at once (the reference)
  recipe 1    tf1clip.GradientAccumulationOptimizer: k `sess.run`s of m examples, the k-th
              applies the mean gradient
  recipe 2    tf1clip.HostGradientAverager: gradients of each micro-batch fetched to numpy,
              averaged on the host, fed back through placeholders
  recipe 3    tf1clip.fused_accumulation_step: one `sess.run` of k * m examples, a
              tf.while_loop over the micro-batches inside the graph
and the script prints how far each recipe's weights end up from the big batch's (they agree
to float32 rounding), then exits non-zero if one does not.

Run:  python examples/big_batch.py [--num_micro_batches 4 --micro_batch_size 32 --updates 5]
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

from graphs import big_batch_mlp

FLAGS = flags.FLAGS
flags.DEFINE_integer("num_micro_batches", 4, "k: micro-batches per update", lower_bound=1)
flags.DEFINE_integer("micro_batch_size", 32, "m: examples per micro-batch", lower_bound=1)
flags.DEFINE_integer("updates", 5, "applied updates", lower_bound=1)
flags.DEFINE_float("learning_rate", 0.01, "Adam learning rate")
flags.DEFINE_float("tolerance", 1e-5, "largest weight difference counted as agreement")
flags.DEFINE_integer("seed", 0, "seed of the initial weights and of the batches", lower_bound=0)


def big_batches(model):
  """The feed dicts of the big batches, one per update."""
  k, m = FLAGS.num_micro_batches, FLAGS.micro_batch_size
  return [model.make_batch(FLAGS.seed * 1000 + u, k * m) for u in range(FLAGS.updates)]


def micro_batches(feed):
  """Splits a big batch's feed dict into k feed dicts of m examples."""
  k = FLAGS.num_micro_batches
  return [{p: a for p, a in zip(feed, arrays)}
          for arrays in zip(*[np.split(a, k) for a in feed.values()])]


def optimizer():
  return tf.compat.v1.train.AdamOptimizer(FLAGS.learning_rate)


def train(recipe):
  """Trains with `recipe`; returns the final weights and the losses seen."""
  k = FLAGS.num_micro_batches
  with tf.Graph().as_default():
    model = big_batch_mlp.build(seed=FLAGS.seed)
    losses = []
    if recipe == "big batch":
      train_op = optimizer().minimize(model.loss)
    elif recipe == "GradientAccumulationOptimizer":
      accumulating = tf1clip.GradientAccumulationOptimizer(optimizer(), k)
      train_op = accumulating.minimize(model.loss)
    elif recipe == "HostGradientAverager":
      averager = tf1clip.HostGradientAverager(optimizer(), model.loss)
    else:
      inputs, labels = model.placeholders["inputs"], model.placeholders["labels"]
      step = tf1clip.fused_accumulation_step(
          lambda batch: model.loss_fn(batch["inputs"], batch["labels"]),
          {"inputs": inputs, "labels": labels}, k, optimizer(), var_list=model.variables)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for feed in big_batches(model):
        if recipe == "big batch":
          losses.append(sess.run([train_op, model.loss], feed)[1])
        elif recipe == "GradientAccumulationOptimizer":
          window = [sess.run([train_op, model.loss, accumulating.applied], f)
                    for f in micro_batches(feed)]
          assert [applied for _, _, applied in window] == [False] * (k - 1) + [True]
          losses.append(np.mean([loss for _, loss, _ in window]))
        elif recipe == "HostGradientAverager":
          computed = [averager.compute(sess, f, fetches=model.loss) for f in micro_batches(feed)]
          averager.apply(sess, [grads for grads, _ in computed])
          losses.append(np.mean([loss for _, loss in computed]))
        else:
          losses.append(sess.run([step.train_op, step.loss], feed)[1])
      return sess.run(model.variables), losses


def main(argv):
  del argv
  k, m = FLAGS.num_micro_batches, FLAGS.micro_batch_size
  print("Adam on big_batch_mlp, %d updates of a %d-example batch = %d micro-batches of %d"
        % (FLAGS.updates, k * m, k, m))
  reference, reference_losses = train("big batch")
  print("%-30s loss %s" % ("big batch", " ".join("%.4f" % l for l in reference_losses)))
  all_agree = True
  for recipe in ("GradientAccumulationOptimizer", "HostGradientAverager",
                 "fused_accumulation_step"):
    weights, losses = train(recipe)
    diff = max(float(np.max(np.abs(w - r))) for w, r in zip(weights, reference))
    agree = diff <= FLAGS.tolerance
    all_agree &= agree
    print("%-30s loss %s  max |weights - big batch| = %.2e  %s"
          % (recipe, " ".join("%.4f" % l for l in losses), diff,
             "agree" if agree else "DISAGREE"))
  print("all three recipes agree with the big batch" if all_agree
        else "a recipe disagrees with the big batch")
  return 0 if all_agree else 1


if __name__ == "__main__":
  app.run(main)
