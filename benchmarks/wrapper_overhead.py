"""What does wrapping the optimizer cost per step, next to writing compute/clip/apply by hand?

Times one training step four ways, each in its own tf.Graph and Session built from the same
seed and fed the same batch:
  (a) compute_gradients -> tf.clip_by_global_norm -> apply_gradients       (TF1 by hand)
  (b) compute_gradients -> tf1clip.clip_by_global_norm -> apply_gradients  (tf1clip by hand)
  (c) tf1clip.clip_gradients_by_norm(optimizer, clip_norm).minimize(loss)  (the one-line wrapper)
  (d) (c) with skip_non_finite=True                                       (+ the NaN/Inf guard)
and prints the number of ops in each graph, ms/step, and the ratios c/a (target <= 1.02),
c/b (the wrapper alone: (b) and (c) build the same ops, so it is 1 up to noise) and d/a.
The graphs: graphs/lstm_classifier.py, and a 100-layer MLP with 200 variables, where
per-variable costs (the guard's finiteness checks) show most.

Run:  python -m benchmarks.wrapper_overhead [--rounds 15 --iters 50] [--graphs lstm,mlp200]
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

import tf1clip
from benchmarks import timing
from benchmarks import variants

# graphs/ is the repository's folder of reference graphs, not an installed package.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphs import lstm_classifier
from graphs import model as model_lib

FLAGS = flags.FLAGS
flags.DEFINE_list("graphs", ["lstm", "mlp200"], "which row groups to time: lstm, mlp200")
flags.DEFINE_enum("optimizer", "adam", ["sgd", "adam"], "inner optimizer of every variant")
flags.DEFINE_float("clip_norm", 1.0, "global norm every variant clips to")
flags.DEFINE_integer("batch_size", 64, "examples per step")
flags.DEFINE_integer("num_steps", 20, "LSTM unrolled length")
flags.DEFINE_integer("hidden_size", 128, "LSTM units")
flags.DEFINE_integer("input_size", 32, "LSTM features per step")
flags.DEFINE_integer("mlp_width", 16, "width of the 200-variable MLP's layers")
flags.DEFINE_integer("mlp_layers", 100, "dense layers of the many-variable MLP (2 variables each)")
flags.DEFINE_integer("warmup", 5, "untimed steps of each variant")
flags.DEFINE_integer("rounds", 7, "interleaved timing rounds")
flags.DEFINE_integer("iters", 20, "steps of each variant per round")

TARGET = 1.02
VARIANTS = ("by hand, tf.clip_by_global_norm", "by hand, tf1clip.clip_by_global_norm",
            "clip_gradients_by_norm", "clip_gradients_by_norm + skip_non_finite")


def build_mlp200(width=16, layers=100, seed=0):
  """A tanh MLP of `layers` dense layers (kernel + bias each: 2 * layers variables).

  Placeholders: "x" [batch, width] float32, "y" [batch, width] float32; the loss is the mean
  squared error.
  """
  V1 = tf.compat.v1
  x = V1.placeholder(tf.float32, [None, width], name="x")
  y = V1.placeholder(tf.float32, [None, width], name="y")
  h, variables = x, []
  with V1.variable_scope("mlp200"):
    for i in range(layers):
      with V1.variable_scope("layer%d" % i):
        w = V1.get_variable("w", [width, width], initializer=V1.orthogonal_initializer(
            seed=model_lib.op_seed(seed, i)))
        b = V1.get_variable("b", [width], initializer=V1.zeros_initializer())
      variables += [w, b]
      h = tf.tanh(tf.matmul(h, w) + b) + h  # residual: keeps 100 layers trainable
    loss = tf.reduce_mean(tf.square(h - y), name="loss")

  def make_arrays(batch_seed, batch_size):
    rng = model_lib.batch_rng(batch_seed)
    return {"x": rng.standard_normal((batch_size, width)).astype(np.float32),
            "y": rng.standard_normal((batch_size, width)).astype(np.float32)}

  return model_lib.Model(placeholders={"x": x, "y": y}, loss=loss, variables=variables,
                         make_arrays=make_arrays)


def _train_op(loss, variant):
  """Builds one variant's training step in the default graph."""
  global_step = tf.compat.v1.train.get_or_create_global_step()
  if variant.startswith("by hand"):
    clip = tf.clip_by_global_norm if "tf.clip" in variant else tf1clip.clip_by_global_norm
    optimizer = variants.optimizer_named(FLAGS.optimizer)
    grads, variables = zip(*optimizer.compute_gradients(loss))
    clipped, _ = clip(grads, FLAGS.clip_norm)
    return optimizer.apply_gradients(zip(clipped, variables), global_step)
  optimizer = tf1clip.WrappedOptimizer(
      variants.optimizer_named(FLAGS.optimizer), [tf1clip.transforms.clip_by_global_norm(FLAGS.clip_norm)],
      skip_non_finite=variant.endswith("skip_non_finite"))
  return optimizer.minimize(loss, global_step)


def _time_group(label, build, batch_size):
  seconds, op_counts, difference = variants.time_variants(
      build, _train_op, VARIANTS, batch_size, reference=VARIANTS[0],
      compared=VARIANTS[1:], warmup=FLAGS.warmup,
      rounds=FLAGS.rounds, iters=FLAGS.iters)
  a, b, c, d = (seconds[v] for v in VARIANTS)
  ratios = {"c": ("%.3f" % (c / a), "%.3f" % (c / b),
                  "<= %.2f: %s" % (TARGET, "met" if c / a <= TARGET else "missed")),
            "d": ("%.3f" % (d / a), "", "")}
  rows = []
  for tag, variant in zip("abcd", VARIANTS):
    rows.append([label, "(%s) %s" % (tag, variant), op_counts[variant],
                 "%.3f" % (seconds[variant] * 1e3)]
                + list(ratios.get(tag, ("", "", ""))))
  return rows, difference


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  unknown = set(FLAGS.graphs) - {"lstm", "mlp200"}
  if unknown:
    raise app.UsageError("--graphs takes lstm and/or mlp200; got %s" % ", ".join(sorted(unknown)))
  groups = []
  if "lstm" in FLAGS.graphs:
    groups.append(("lstm_classifier", lambda: lstm_classifier.build(
        num_steps=FLAGS.num_steps, input_size=FLAGS.input_size,
        hidden_size=FLAGS.hidden_size, num_classes=10)))
  if "mlp200" in FLAGS.graphs:
    groups.append(("mlp, %d variables" % (2 * FLAGS.mlp_layers),
                   lambda: build_mlp200(width=FLAGS.mlp_width, layers=FLAGS.mlp_layers)))
  rows, notes = [], []
  for label, build in groups:
    group_rows, difference = _time_group(label, build, FLAGS.batch_size)
    rows += group_rows
    notes.append("%s: after one step from the same start, variants differ from (a) by at most "
                 "%.2e" % (label, difference))
  timing.print_table(
      "optimizer wrapper overhead per training step (%s, batch %d, clip_norm %g; %d rounds x "
      "%d steps, median)" % (FLAGS.optimizer, FLAGS.batch_size, FLAGS.clip_norm, FLAGS.rounds,
                             FLAGS.iters),
      ["graph", "variant", "graph ops", "ms/step", "x/a", "c/b", "target c/a"], rows)
  for note in notes:
    print(note)


if __name__ == "__main__":
  app.run(main)
