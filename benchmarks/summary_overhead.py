"""What does recording the gradient pipeline (tf1clip.summaries.observe) cost per training step?

Times one training step of graphs/lstm_classifier.py, each variant in its own tf.Graph and
Session from the same seed and batch (benchmarks.variants):
  (a) WrappedOptimizer([clip_by_global_norm], summaries=False)     no recording
  (b) WrappedOptimizer([observe(clip_by_global_norm)])             summary ops built, not fetched
  (c) (b) with tf.compat.v1.summary.merge_all() run every step     the worst case: every step
                                                                    serialised (not written)
  (d) WrappedOptimizer([autoclip(10)])                             adaptive, no recording
  (e) WrappedOptimizer([observe(autoclip(10))]) + merge_all        reuses autoclip's norm
  (f) WrappedOptimizer([clip_by_global_norm]) (default summaries)  the wrapper's own recording
                                                                    (no counters), not fetched
  (g) (f) + merge_all every step
  (h) WrappedOptimizer([clip_by_global_norm], summaries=True)      with counters (clip_rate),
      + merge_all every step
and prints ms/step with the ratio to its unrecorded twin (b/a, c/a, e/d, f/a, g/a, h/a).
Variants (a)-(c) and (f)-(h) take the same step; so do (d) and (e), checked after one step.

Run:  python -m benchmarks.summary_overhead [--rounds 11 --iters 20]
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags
import tensorflow as tf

import tf1clip
from benchmarks import timing
from benchmarks import variants
from graphs import lstm_classifier
from tf1clip import adaptive
from tf1clip import summaries
from tf1clip import transforms

FLAGS = flags.FLAGS
flags.DEFINE_enum("optimizer", "sgd", ["sgd", "adam"], "inner optimizer of every variant")
flags.DEFINE_float("clip_norm", 1.0, "clip norm of the clip_by_global_norm variants")
flags.DEFINE_integer("batch_size", 64, "examples per step")
flags.DEFINE_integer("num_steps", 20, "LSTM unrolled length")
flags.DEFINE_integer("hidden_size", 128, "LSTM units")
flags.DEFINE_integer("input_size", 32, "LSTM features per step")
flags.DEFINE_integer("warmup", 5, "untimed steps of each variant")
flags.DEFINE_integer("rounds", 11, "interleaved timing rounds")
flags.DEFINE_integer("iters", 20, "steps of each variant per round")

WRAPPER_VARIANTS = ("wrapper default", "wrapper default+merge_all",
                    "wrapper summaries=True+merge_all")
VARIANTS = ("clip", "observe(clip)", "observe(clip)+merge_all", "autoclip",
            "observe(autoclip)+merge_all") + WRAPPER_VARIANTS
# variant -> the unrecorded variant it is compared with
TWIN = {"observe(clip)": "clip", "observe(clip)+merge_all": "clip",
        "observe(autoclip)+merge_all": "autoclip"}
TWIN.update((v, "clip") for v in WRAPPER_VARIANTS)


def _train_op(loss, variant):
  """Builds one variant's training step in the default graph."""
  if "autoclip" in variant:
    transform = adaptive.autoclip(10.0, history=1000)
  else:
    transform = transforms.clip_by_global_norm(FLAGS.clip_norm)
  if variant.startswith("observe"):
    transform = summaries.observe(transform)
  if hasattr(transform, "build"):
    transform.build(tf.compat.v1.trainable_variables())
  # The wrapper's own recording: off (False) unless the variant is about it.
  wrapper_summaries = False
  if variant.startswith("wrapper"):
    wrapper_summaries = True if "summaries=True" in variant else None
  opt = tf1clip.WrappedOptimizer(variants.optimizer_named(FLAGS.optimizer), [transform],
                                 summaries=wrapper_summaries)
  train_op = opt.minimize(loss)
  if variant.endswith("merge_all"):
    return tf.group(train_op, tf.compat.v1.summary.merge_all())
  return train_op


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  build = lambda: lstm_classifier.build(num_steps=FLAGS.num_steps, input_size=FLAGS.input_size,
                                        hidden_size=FLAGS.hidden_size, num_classes=10)
  seconds, op_counts, difference = variants.time_variants(
      build, _train_op, VARIANTS, FLAGS.batch_size, reference="clip",
      compared=("observe(clip)", "observe(clip)+merge_all") + WRAPPER_VARIANTS,
      warmup=FLAGS.warmup,
      rounds=FLAGS.rounds, iters=FLAGS.iters)
  rows = []
  for variant in VARIANTS:
    twin = TWIN.get(variant)
    rows.append([variant, "%.3f" % (seconds[variant] * 1e3), str(op_counts[variant]),
                 ("%.3f (/%s)" % (seconds[variant] / seconds[twin], twin)) if twin else ""])
  timing.print_table(
      "summary overhead per training step (lstm_classifier, %s, batch %d; %d rounds x %d "
      "steps, median)" % (FLAGS.optimizer, FLAGS.batch_size, FLAGS.rounds, FLAGS.iters),
      ["variant", "ms/step", "ops", "ratio with/without recording"], rows)
  print("observe(clip) and wrapper variants after one step differ from clip by at most %.2e" % difference)


if __name__ == "__main__":
  app.run(main)
