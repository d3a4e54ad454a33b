"""How long `tf1clip check` takes on a generated 100-file project (target: under 2 s, no TensorFlow import).

    python benchmarks/check_speed.py [--files 100] [--repeats 3]

Writes a project of --files modules into a temporary directory -- an entry script importing every module,
each module using a dozen TF1 names (tf.placeholder, tf.layers.dense, tf.contrib.rnn cells, tf.train
optimizers, tf.nn ops) and some a NumPy removal or an unsupported contrib name -- and times `tf1clip check`
on it in a fresh interpreter (what a user waits for, interpreter start-up included), then prints a table.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_SECONDS = 2.0

MODULE = '''\
"""Generated module {i}."""
import numpy as np
import tensorflow as tf
from tensorflow.contrib import rnn


def build_{i}(inputs, labels):
  x = tf.placeholder(tf.float32, [None, 16], name="x_{i}")
  h = tf.layers.dense(x, 32, activation=tf.nn.relu)
  cell = rnn.MultiRNNCell([tf.contrib.rnn.BasicLSTMCell(8) for _ in range(2)])
  outputs, _ = tf.nn.dynamic_rnn(cell, tf.expand_dims(h, 1), dtype=tf.float32)
  loss = tf.reduce_mean(tf.square(tf.layers.dense(outputs[:, -1], 1) - labels))
  optimizer = tf.train.AdamOptimizer(1e-3)
  grads, _ = tf.clip_by_global_norm(tf.gradients(loss, tf.trainable_variables()), 5.0)
  tf.summary.scalar("loss_{i}", loss)
  return optimizer.apply_gradients(zip(grads, tf.trainable_variables())), {extra}
'''


def make_project(root, n_files):
  """Writes the generated project; returns the entry script's path."""
  os.makedirs(os.path.join(root, "models"))
  with open(os.path.join(root, "models", "__init__.py"), "w") as f:
    f.write("")
  for i in range(n_files - 2):
    extra = ("np.float_(1.0)" if i % 10 == 3 else "tf.contrib.graph_editor.reroute_ts" if i % 25 == 7
             else "np.float64(1.0)")
    with open(os.path.join(root, "models", "m%03d.py" % i), "w") as f:
      f.write(MODULE.format(i=i, extra=extra))
  entry = os.path.join(root, "train.py")
  with open(entry, "w") as f:
    f.write("import tensorflow as tf\n")
    for i in range(n_files - 2):
      f.write("from models import m%03d\n" % i)
    f.write("\nif __name__ == '__main__':\n  tf.app.run()\n")
  return entry


def time_check(root):
  """Seconds for `python -m tf1clip check root` in a fresh interpreter, and whether it imported TF."""
  code = ("import sys, time; t = time.perf_counter(); from tf1clip import cli; "
          "import io, contextlib; buf = io.StringIO()\n"
          "with contextlib.redirect_stdout(buf): status = cli.main(['check', sys.argv[1]])\n"
          "print(status, 'tensorflow' in sys.modules, time.perf_counter() - t)")
  env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
  start = time.perf_counter()
  out = subprocess.run([sys.executable, "-c", code, root], capture_output=True, text=True, env=env,
                       check=True).stdout.split()
  wall = time.perf_counter() - start
  return wall, float(out[2]), out[1] == "True", int(out[0])


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--files", type=int, default=100)
  parser.add_argument("--repeats", type=int, default=3)
  args = parser.parse_args(argv)
  with tempfile.TemporaryDirectory() as root:
    make_project(root, args.files)
    runs = [time_check(root) for _ in range(args.repeats)]
  walls = sorted(r[0] for r in runs)
  insides = sorted(r[1] for r in runs)
  imported_tf = any(r[2] for r in runs)
  print("tf1clip check on a generated %d-file project (%d runs)" % (args.files, args.repeats))
  print("| measure | min | median | max | target |")
  print("|---|---|---|---|---|")
  print("| wall clock, interpreter start included (s) | %.3f | %.3f | %.3f | < %.1f |" % (
      walls[0], walls[len(walls) // 2], walls[-1], TARGET_SECONDS))
  print("| inside the process (s) | %.3f | %.3f | %.3f | |" % (
      insides[0], insides[len(insides) // 2], insides[-1]))
  print("| imported tensorflow | %s | | | no |" % ("yes" if imported_tf else "no"))
  print("| exit status | %d | | | 1 (the project has blockers) |" % runs[0][3])
  met = walls[len(walls) // 2] < TARGET_SECONDS and not imported_tf
  print("target met: %s" % ("yes" if met else "NO"))
  return 0


if __name__ == "__main__":
  sys.exit(main())
