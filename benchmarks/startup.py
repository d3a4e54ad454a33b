"""How much does `tf1clip run` add to starting a script, next to importing TensorFlow alone?

Times, each in a fresh subprocess, interleaved round by round:
  (a) python -c "import tensorflow"
  (b) python -m tf1clip run <a trivial TF1 script> (imports TF, installs the compat layer, runs it)
and prints the median wall seconds of each and (b) - (a). Target: (b) - (a) <= 0.5 s.

Run:  python -m benchmarks.startup [--rounds 5]
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags

from benchmarks import timing

FLAGS = flags.FLAGS
flags.DEFINE_integer("rounds", 5, "interleaved rounds (one start of each variant per round)")

TARGET_SECONDS = 0.5
SCRIPT = """import tensorflow as tf
x = tf.placeholder(tf.float32, [])
with tf.Session() as sess:
  print(sess.run(x * 2.0, {x: 1.0}))
"""


def _seconds(argv, env):
  start = time.perf_counter()
  subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
  return time.perf_counter() - start


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  with tempfile.TemporaryDirectory() as tmp:
    script = os.path.join(tmp, "trivial_tf1.py")
    with open(script, "w") as f:
      f.write(SCRIPT)
    variants = {"(a) python -c 'import tensorflow'": [sys.executable, "-c", "import tensorflow"],
                "(b) tf1clip run trivial_tf1.py": [sys.executable, "-m", "tf1clip", "run", script]}
    samples = {name: [] for name in variants}
    for _ in range(FLAGS.rounds):
      for name, command in variants.items():
        samples[name].append(_seconds(command, env))
  a, b = (statistics.median(s) for s in samples.values())
  extra = b - a
  verdict = "<= +%.1f s: %s" % (TARGET_SECONDS, "met" if extra <= TARGET_SECONDS else "MISSED")
  rows = [[name, "%.2f" % statistics.median(s), "%.2f..%.2f" % (min(s), max(s)), "", ""]
          for name, s in samples.items()]
  rows[1][3:] = ["%+.2f" % extra, verdict]
  timing.print_table("start-up, fresh process each (%d rounds, median)" % FLAGS.rounds,
                     ["command", "wall s", "range", "(b) - (a)", "target"], rows)


if __name__ == "__main__":
  app.run(main)
