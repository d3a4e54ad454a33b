"""Train only some variables: var_list vs tf.stop_gradient vs a frozen scope vs tf.gradients.

Four recipes that look alike and are not:
- `minimize(loss, var_list=...)`: only the listed variables get a gradient, Adam slots and
  an update.
- `tf.stop_gradient` inside the loss: blocks one *path*; variables behind it get a None
  gradient (and so no slots), but a variable reachable another way would still learn.
- a wrapped optimizer with `tf1clip.transforms.freeze(tf1clip.select_variables(scope=...))`:
  the same effect as var_list, decided by scope, inside a reusable optimizer.
- evaluating `tf.gradients(loss, embedding)` (e.g. for an adversarial perturbation): computes
  numbers and updates nothing. If "my loss changes" while doing this, a train op is being run
  in the same `sess.run`, not the gradient.

Runs each recipe on graphs/frozen_product (w1 learns w2 * w3 behind stop_gradient) and on
graphs/cbow (sparse embedding gradients), then prints which variables moved and which have
Adam slots.

Run:  python examples/freeze_and_stop.py [--steps 200] [--learning_rate 0.05]
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

from graphs import cbow
from graphs import frozen_product

FLAGS = flags.FLAGS
flags.DEFINE_integer("steps", 200, "training steps per recipe", lower_bound=1)
flags.DEFINE_float("learning_rate", 0.05, "Adam learning rate")
flags.DEFINE_integer("batch_size", 32, "examples per step", lower_bound=1)

V1 = tf.compat.v1


def _short(var):
  return var.op.name.split("/", 1)[1]


def _frozen_product_recipes():
  """(title, train-op builder) pairs; a builder takes the Model and returns (optimizer, op)."""
  def minimize_all(model):
    opt = V1.train.AdamOptimizer(FLAGS.learning_rate)
    return opt, opt.minimize(model.loss)

  def var_list(model):
    opt = V1.train.AdamOptimizer(FLAGS.learning_rate)
    return opt, opt.minimize(model.loss, var_list=[model.w1])

  def frozen_scope(model):
    frozen = tf1clip.select_variables(regex=r"/w[23]$")
    opt = tf1clip.WrappedOptimizer(V1.train.AdamOptimizer(FLAGS.learning_rate),
                                   [tf1clip.transforms.freeze(frozen)])
    return opt, opt.minimize(model.loss)

  return [("stop_gradient in the loss, minimize(loss)", minimize_all),
          ("minimize(loss, var_list=[w1])", var_list),
          ("WrappedOptimizer + freeze(select_variables(regex='/w[23]$'))", frozen_scope)]


def _cbow_recipes():
  def minimize_all(model):
    opt = V1.train.AdamOptimizer(FLAGS.learning_rate)
    return opt, opt.minimize(model.loss)

  def var_list(model):
    opt = V1.train.AdamOptimizer(FLAGS.learning_rate)
    return opt, opt.minimize(model.loss,
                             var_list=tf1clip.select_variables(exclude="cbow/embedding"))

  def frozen_scope(model):
    opt = tf1clip.WrappedOptimizer(
        V1.train.AdamOptimizer(FLAGS.learning_rate),
        [tf1clip.transforms.freeze(tf1clip.select_variables(scope="cbow/embedding"))])
    return opt, opt.minimize(model.loss)

  def gradients_only(model):
    adv = cbow.adversarial_gradients(model)
    return None, [adv.embedding.values, adv.embedded]

  return [("minimize(loss)", minimize_all),
          ("minimize(loss, var_list=select_variables(exclude='cbow/embedding'))", var_list),
          ("WrappedOptimizer + freeze(select_variables(scope='cbow/embedding'))", frozen_scope),
          ("evaluate tf.gradients(loss, [embedding, embedded]) only", gradients_only)]


def run_recipe(build_model, make_train_op):
  """Builds a fresh graph, runs FLAGS.steps steps of the recipe.

  Returns:
    dict with "moved" and "slots" (short variable names), "loss" (first, last) and the
    model's extra numbers ("gap": max |w1 - w2*w3| before and after, for frozen_product).
  """
  with tf.Graph().as_default():
    model = build_model()
    opt, train_op = make_train_op(model)
    gap = (tf.reduce_max(tf.abs(model.w1 - model.target))
           if hasattr(model, "target") else tf.constant(np.nan))
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      before = sess.run(model.variables)
      first_batch = model.make_batch(0, FLAGS.batch_size)
      loss_first, gap_first = sess.run([model.loss, gap], first_batch)
      for step in range(FLAGS.steps):
        sess.run(train_op, model.make_batch(step, FLAGS.batch_size))
      after = sess.run(model.variables)
      loss_last, gap_last = sess.run([model.loss, gap], first_batch)
      slots = [] if opt is None else [
          _short(v) for v in model.variables
          if any(opt.get_slot(v, s) is not None for s in opt.get_slot_names())]
  moved = [_short(v) for v, b, a in zip(model.variables, before, after)
           if not np.array_equal(b, a)]
  return {"moved": moved, "slots": slots, "loss": (loss_first, loss_last),
          "gap": (gap_first, gap_last)}


def _show(names):
  return ", ".join(names) if names else "(none)"


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  print("%d Adam steps (lr %g) per recipe; 'moved' compares the variables before and after.\n"
        % (FLAGS.steps, FLAGS.learning_rate))
  for graph_name, build_model, recipes in [
      ("frozen_product", frozen_product.build, _frozen_product_recipes()),
      ("cbow", lambda: cbow.build(vocab_size=32, embedding_dim=8), _cbow_recipes())]:
    for title, make_train_op in recipes:
      r = run_recipe(build_model, make_train_op)
      print("[%s] %s" % (graph_name, title))
      extra = ("   max|w1 - w2*w3| %.4f -> %.4f" % r["gap"]) if graph_name == "frozen_product" else ""
      print("    moved: %-36s slots: %-36s loss %.4f -> %.4f%s"
            % (_show(r["moved"]), _show(r["slots"]), r["loss"][0], r["loss"][1], extra))
    print()


if __name__ == "__main__":
  app.run(main)
