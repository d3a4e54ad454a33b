"""How `tf1clip check` and `tf1clip upgrade` scale with the size of what they read (targets: near-linear).

    python -m benchmarks.cli_scaling [--check_sites 3000,30000,300000] [--upgrade_lines 5000,50000,500000]
                                     [--timeout 600]

check: one file of N use sites (`tf.contrib.layers.xavier_initializer()` and friends, a TF1 name per line), read
by `tf1clip check` in a fresh interpreter: seconds, use sites per second, peak resident memory.
upgrade: one module of N lines (functions of TF1 graph code with contrib names and imports, as a real training
script) upgraded at stage 2 by `tf1clip upgrade` in a fresh interpreter: seconds, lines per second, peak resident
memory (the child's ru_maxrss). A size that runs past --timeout is printed as such (the row says so) instead of
stopping the table.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_SITES = ("tf.contrib.layers.xavier_initializer()", "tf.placeholder(tf.float32)", "tf.contrib.rnn.BasicLSTMCell(8)",
          "tf.layers.dense(x, 4)", "tf.contrib.framework.get_or_create_global_step()")

_FUNCTION = '''\


def block_{i}(x, labels):
  """Generated block {i}."""
  w = tf.get_variable("w_{i}", [16, 16], initializer=tf.contrib.layers.xavier_initializer())
  h = tf.nn.relu(tf.matmul(x, w))
  cell = tf.contrib.rnn.BasicLSTMCell(8)
  outputs, _ = tf.nn.dynamic_rnn(cell, tf.expand_dims(h, 1), dtype=tf.float32)
  loss = tf.reduce_mean(tf.square(tf.layers.dense(outputs[:, -1], 1) - labels))
  tf.summary.scalar("loss_{i}", loss)
  return loss
'''
_HEADER = "import numpy as np\nimport tensorflow as tf\nfrom tensorflow.contrib import rnn\n"


def check_source(sites):
  lines = ["import tensorflow as tf", "x = tf.placeholder(tf.float32)"]
  lines += ["y%d = %s" % (i, _SITES[i % len(_SITES)]) for i in range(sites)]
  return "\n".join(lines) + "\n"


def upgrade_source(n_lines):
  per = _FUNCTION.count("\n")
  return _HEADER + "".join(_FUNCTION.format(i=i) for i in range(max(1, (n_lines - 3) // per)))


_CHILD = """
import io, resource, sys, time, contextlib
from tf1clip import cli
argv = sys.argv[1:]
buf = io.StringIO()
t = time.perf_counter()
with contextlib.redirect_stdout(buf):
  status = cli.main(argv)
usage = resource.getrusage(resource.RUSAGE_SELF)
print(status, time.perf_counter() - t, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def _run(argv, timeout):
  """(exit status, wall seconds, CPU seconds, peak RSS in MB) of `tf1clip ARGV` in a fresh interpreter, or None
  past `timeout`. CPU seconds include the interpreter's start-up and imports (about 1 s)."""
  env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
  try:
    proc = subprocess.run([sys.executable, "-c", _CHILD] + argv, capture_output=True, text=True, env=env,
                          timeout=timeout, check=False)
  except subprocess.TimeoutExpired:
    return None
  fields = proc.stdout.split()[-4:]
  if len(fields) != 4:
    raise RuntimeError("tf1clip %s failed:\n%s" % (" ".join(argv), proc.stderr[-2000:]))
  return int(fields[0]), float(fields[1]), float(fields[2]), int(fields[3]) / 1024.0


def main(argv=None):
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--check_sites", default="3000,30000,300000")
  parser.add_argument("--upgrade_lines", default="5000,50000,500000")
  parser.add_argument("--timeout", type=float, default=600.0, help="seconds allowed per size")
  args = parser.parse_args(argv)
  rows = []
  with tempfile.TemporaryDirectory() as root:
    for sites in [int(s) for s in args.check_sites.split(",") if s]:
      path = os.path.join(root, "sites_%d.py" % sites)
      with open(path, "w") as f:
        f.write(check_source(sites))
      result = _run(["check", path], args.timeout)
      rows.append(("check", "%d use sites" % sites, sites, "sites/s", result))
    for n_lines in [int(s) for s in args.upgrade_lines.split(",") if s]:
      path = os.path.join(root, "module_%d.py" % n_lines)
      source = upgrade_source(n_lines)
      with open(path, "w") as f:
        f.write(source)
      lines = source.count("\n")
      result = _run(["upgrade", path, "--out", os.path.join(root, "out_%d" % n_lines), "--stage", "2"],
                    args.timeout)
      rows.append(("upgrade", "%d lines" % lines, lines, "lines/s", result))
  # The rate is per CPU second: on a shared machine the wall time also counts other processes' turns.
  row = "| %s | %s | %s | %s | %s | %s | %s |"
  print(row % ("command", "input", "exit", "wall s", "CPU s", "rate (per CPU s)", "peak RSS MB"))
  print("|---|---|---:|---:|---:|---:|---:|")
  for command, label, size, unit, result in rows:
    if result is None:
      print(row % (command, label, "-", "> %g" % args.timeout, "-", "(timed out)", "-"))
      continue
    status, wall, cpu, peak = result
    print(row % (command, label, status, "%.2f" % wall, "%.2f" % cpu, "%.0f %s" % (size / max(cpu, 1e-9), unit),
                 "%.0f" % peak))

if __name__ == "__main__":
  main()
