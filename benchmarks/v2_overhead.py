"""TF2: what does tf1clip.v2.WrappedOptimizer's global-norm clip cost next to Keras 3's own?

One training step of the same small Keras 3 MLP inside a `tf.function`, two ways, from the same
initial weights and batch:
  (a) keras.optimizers.Adam(1e-3, global_clipnorm=c).apply_gradients(...)
  (b) tf1clip.v2.WrappedOptimizer(keras.optimizers.Adam(1e-3),
                                  [tf1clip.transforms.clip_by_global_norm(c)]).apply_gradients(...)
After a few steps the weights must agree within 1e-6; then both are timed interleaved
(benchmarks.timing). Target: (b) <= 1.05 x (a).

Run:  python -m benchmarks.v2_overhead [--layers 8 --width 256 --batch_size 64]
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

import tf1clip
from benchmarks import timing

FLAGS = flags.FLAGS
flags.DEFINE_integer("layers", 8, "dense layers of the MLP")
flags.DEFINE_integer("width", 256, "units per layer")
flags.DEFINE_integer("batch_size", 64, "examples per step")
flags.DEFINE_float("clip_norm", 0.1, "global norm both variants clip to")
flags.DEFINE_integer("check_steps", 3, "steps after which the weights are compared")
flags.DEFINE_integer("warmup", 5, "untimed steps of each variant")
flags.DEFINE_integer("rounds", 7, "interleaved timing rounds")
flags.DEFINE_integer("iters", 20, "steps of each variant per round")

TARGET = 1.05
TOLERANCE = 1e-6
VARIANTS = ("(a) Keras Adam(global_clipnorm)", "(b) tf1clip.v2.WrappedOptimizer + clip")


def _model(keras):
  keras.utils.set_random_seed(0)
  layers = [keras.Input((FLAGS.width,))]
  layers += [keras.layers.Dense(FLAGS.width, activation="tanh") for _ in range(FLAGS.layers)]
  return keras.Sequential(layers)


def _step_fn(keras, variant, x, y):
  model = _model(keras)
  if variant.startswith("(a)"):
    optimizer = keras.optimizers.Adam(1e-3, global_clipnorm=FLAGS.clip_norm)
  else:
    optimizer = tf1clip.v2.WrappedOptimizer(
        keras.optimizers.Adam(1e-3), [tf1clip.transforms.clip_by_global_norm(FLAGS.clip_norm)])

  @tf.function
  def step():
    with tf.GradientTape() as tape:
      loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss

  return model, lambda: step()


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  import keras  # pylint: disable=g-import-not-at-top
  rng = np.random.default_rng(0)
  x = tf.constant(rng.standard_normal((FLAGS.batch_size, FLAGS.width)).astype(np.float32))
  y = tf.constant(rng.standard_normal((FLAGS.batch_size, FLAGS.width)).astype(np.float32))
  models, steps = {}, {}
  for variant in VARIANTS:
    models[variant], steps[variant] = _step_fn(keras, variant, x, y)
    for _ in range(FLAGS.check_steps):
      steps[variant]()
  difference = max(float(np.max(np.abs(a.numpy() - b.numpy()))) for a, b in zip(
      models[VARIANTS[0]].trainable_variables, models[VARIANTS[1]].trainable_variables))
  if difference > TOLERANCE:
    raise AssertionError("after %d steps the weights differ by %g > %g"
                         % (FLAGS.check_steps, difference, TOLERANCE))
  seconds = timing.median_seconds(steps, warmup=FLAGS.warmup, rounds=FLAGS.rounds,
                                  iters=FLAGS.iters)
  a, b = (seconds[v] for v in VARIANTS)
  ratio = b / a
  rows = [[VARIANTS[0], "%.3f" % (a * 1e3), "1.000", ""],
          [VARIANTS[1], "%.3f" % (b * 1e3), "%.3f" % ratio,
           "<= %.2f: %s" % (TARGET, "met" if ratio <= TARGET else "MISSED")]]
  timing.print_table(
      "TF2 step in tf.function, Keras 3 Adam, %d x Dense(%d), batch %d, clip %g (%d rounds x %d)"
      % (FLAGS.layers, FLAGS.width, FLAGS.batch_size, FLAGS.clip_norm, FLAGS.rounds, FLAGS.iters),
      ["variant", "ms/step", "x/(a)", "target"], rows)
  print("after %d steps from the same start the weights differ by at most %.1e (<= %g)"
        % (FLAGS.check_steps, difference, TOLERANCE))


if __name__ == "__main__":
  app.run(main)
