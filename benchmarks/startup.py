"""How much does `tf1clip run` add to starting a script, next to importing TensorFlow alone -- and where is the floor?

Times and peak memory (the child's ru_maxrss), each in a fresh subprocess, interleaved round by round:
  (a) python -c "import tensorflow"  (TF_USE_LEGACY_KERAS=1, as under tf1clip)
  (b) python -m tf1clip run <a trivial TF1 script> (imports TF, installs the compat layer, runs it)
  (c) python -c "import tensorflow" with Keras 3 (TF_USE_LEGACY_KERAS unset): does skipping tf-keras help?
  (d) the trivial script on TensorFlow 1.15 (where the oracle exists, `make oracle`)
and prints the median wall seconds and MiB of each and (b) - (a). Target: (b) - (a) <= 0.5 s. (d) is the
baseline of issue 23's start-up target; (a) and (c) show what TensorFlow 2.21's own import costs.

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


def _measure(argv, env):
  """(wall seconds, peak RSS MiB) of one child process."""
  start = time.perf_counter()
  proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
  _, status, usage = os.wait4(proc.pid, 0)
  if os.waitstatus_to_exitcode(status) != 0:
    raise RuntimeError("%s failed" % " ".join(argv))
  return time.perf_counter() - start, usage.ru_maxrss / 1024.0


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  env = {k: v for k, v in os.environ.items() if k not in ("TF2_BEHAVIOR", "TF_USE_LEGACY_KERAS")}
  env["TF_CPP_MIN_LOG_LEVEL"] = "2"
  legacy = dict(env, TF_USE_LEGACY_KERAS="1")
  with tempfile.TemporaryDirectory() as tmp:
    script = os.path.join(tmp, "trivial_tf1.py")
    with open(script, "w") as f:
      f.write(SCRIPT)
    variants = {"(a) python -c 'import tensorflow'": ([sys.executable, "-c", "import tensorflow"], legacy),
                "(b) tf1clip run trivial_tf1.py": ([sys.executable, "-m", "tf1clip", "run", script], env),
                "(c) import tensorflow, Keras 3": ([sys.executable, "-c", "import tensorflow"], env)}
    if timing.oracle_python():
      variants["(d) TF 1.15: python trivial_tf1.py"] = ([timing.oracle_python(), script], env)
    samples = {name: [] for name in variants}
    for _ in range(FLAGS.rounds):
      for name, (command, variant_env) in variants.items():
        samples[name].append(_measure(command, variant_env))
  wall = {name: statistics.median(x[0] for x in s) for name, s in samples.items()}
  names = list(variants)
  extra = wall[names[1]] - wall[names[0]]
  verdict = "<= +%.1f s: %s" % (TARGET_SECONDS, "met" if extra <= TARGET_SECONDS else "MISSED")
  rows = [[name, "%.2f" % wall[name], "%.2f..%.2f" % (min(x[0] for x in s), max(x[0] for x in s)),
           "%.0f" % statistics.median(x[1] for x in s), "", ""] for name, s in samples.items()]
  rows[1][4:] = ["%+.2f" % extra, verdict]
  timing.print_table("start-up, fresh process each (%d rounds, median)" % FLAGS.rounds,
                     ["command", "wall s", "range", "peak MiB", "(b) - (a)", "target"], rows)


if __name__ == "__main__":
  app.run(main)
