"""How long does a TF1 script take to build a graph of contrib layers and cells under `tf1clip run`, next to TF 1.15?

One TF1 script builds, `--repeats` times in its own variable scopes, a Grid2LSTMCell in `tf.nn.dynamic_rnn`, an
AttentionWrapper(BahdanauAttention) around an LSTMBlockCell in `dynamic_rnn`, and slim's conv2d + contrib.layers'
fully_connected (graph construction only: no session), and prints the seconds it took. Each variant runs it in a fresh
process, interleaved round by round:
  (a) `tf1clip run` as shipped: AutoGraph leaves tf1clip.contrib and tf-slim unconverted (the "contrib_autograph"
      shim, compat/autograph_shim.py), as TF 1.15's AutoGraph never converted contrib;
  (b) `tf1clip run` with that shim's rules taken out again after the first touch of tf.contrib: every contrib
      layer's `call` goes through AutoGraph's converter, as before the shim;
  (c) the same script on TensorFlow 1.15 (where the oracle exists, `make oracle`): the baseline.
It prints the median build seconds of each and the ratios (a) / (c) and (b) / (a). Nothing is asserted.

Run:  python -m benchmarks.contrib_build [--rounds 3] [--repeats 6]
"""

import os
import re
import statistics
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags

from benchmarks import timing

FLAGS = flags.FLAGS
flags.DEFINE_integer("rounds", 3, "interleaved rounds (one process of each variant per round)")
flags.DEFINE_integer("repeats", 6, "how many copies of the three models the script builds")

SCRIPT = """import time
import numpy as np
import tensorflow as tf
contrib = tf.contrib
%(prepare)s
start = time.time()
x = tf.constant(np.random.RandomState(0).rand(4, 6, 8).astype(np.float32))
for i in range(%(repeats)d):
    with tf.variable_scope("grid%%d" %% i):
        tf.nn.dynamic_rnn(contrib.grid_rnn.Grid2LSTMCell(4), x, dtype=tf.float32)
    with tf.variable_scope("attention%%d" %% i):
        cell = contrib.seq2seq.AttentionWrapper(contrib.rnn.LSTMBlockCell(4),
                                                contrib.seq2seq.BahdanauAttention(4, x))
        tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    with tf.variable_scope("slim%%d" %% i):
        y = contrib.slim.conv2d(tf.reshape(x, [4, 6, 8, 1]), 3, [3, 3])
        contrib.layers.fully_connected(contrib.layers.flatten(y), 5)
print("BUILD %%.4f" %% (time.time() - start))
"""
# (b): the shim's DoNotConvert rules taken out again (tf.contrib, touched above, applied them)
WITHOUT_SHIM = """from tensorflow.python.autograph.core import config
from tf1clip.shims import contrib_autograph as autograph_shim
config.CONVERSION_RULES = tuple(rule for rule in config.CONVERSION_RULES
                                if getattr(rule, "_prefix", None) not in autograph_shim.UNCONVERTED)"""


def _build_seconds(argv, env):
  proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
  found = re.search(r"^BUILD ([0-9.]+)$", proc.stdout, re.M)
  if proc.returncode != 0 or not found:
    raise RuntimeError("%s failed:\n%s" % (" ".join(argv), proc.stderr[-2000:]))
  return float(found.group(1))


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  env = {k: v for k, v in os.environ.items() if k not in ("TF2_BEHAVIOR", "TF_USE_LEGACY_KERAS")}
  env["TF_CPP_MIN_LOG_LEVEL"] = "2"
  with tempfile.TemporaryDirectory() as tmp:
    scripts = {}
    for name, prepare in (("shipped", ""), ("without_shim", WITHOUT_SHIM)):
      scripts[name] = os.path.join(tmp, name + ".py")
      with open(scripts[name], "w") as f:
        f.write(SCRIPT % {"prepare": prepare, "repeats": FLAGS.repeats})
    variants = {"(a) tf1clip run (contrib unconverted)": [sys.executable, "-m", "tf1clip", "run",
                                                          scripts["shipped"]],
                "(b) tf1clip run, AutoGraph converting contrib": [sys.executable, "-m", "tf1clip", "run",
                                                                  scripts["without_shim"]]}
    oracle = timing.oracle_python()
    if oracle:
      variants["(c) TF 1.15"] = [oracle, scripts["shipped"]]
    samples = {name: [] for name in variants}
    for _ in range(FLAGS.rounds):
      for name, command in variants.items():
        samples[name].append(_build_seconds(command, env))
  median = {name: statistics.median(s) for name, s in samples.items()}
  names = list(variants)
  rows = [[name, "%.2f" % median[name], "%.2f..%.2f" % (min(s), max(s)), ""] for name, s in samples.items()]
  rows[1][3] = "(b) / (a) = %.2f" % (median[names[1]] / median[names[0]])
  if oracle:
    rows[0][3] = "(a) / (c) = %.2f" % (median[names[0]] / median[names[2]])
  timing.print_table("building %d x (Grid2LSTM, attention LSTM, slim conv + fc), fresh process each (%d rounds, "
                     "median build seconds)" % (FLAGS.repeats, FLAGS.rounds),
                     ["variant", "build s", "range", "ratio"], rows)
  if not oracle:
    print("no TF 1.15 oracle here (make oracle): its column was not run")


if __name__ == "__main__":
  app.run(main)
