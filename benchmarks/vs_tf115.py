"""The legacy programs on TensorFlow 1.15 and under `tf1clip run`: whole-process wall time and peak memory.

Each program (the scripts of examples/legacy/ and a trivial start-up script) runs on both sides, same flags,
same data and the same initial weights (tools.compare_init: the values TF 1.15's first run initialized its
variables with are given to every later run, on both sides), interleaved A B, B A, ... round by round. Per run:
wall seconds and peak RSS (the child's own `ru_maxrss`, from os.wait4). Per program: the ratios tf1clip / TF
1.15 (median, min-max over rounds), and whether both sides trained the same model (the final checkpoints
agree variable by variable at rtol 1e-3 / atol 1e-4, tools.compare's rule) -- so a speed-up never comes from
doing less. Inside each child (tools.compare_init.install_timing, the same code on both sides) every
`Session.run` is timed: the step time is the median call after the first five (initializers, the first run's
graph optimization), "to 1st run" the seconds from spawning the process to its first `sess.run` (start-up:
imports, graph building), "build" from TensorFlow imported to the first run. Targets (issue 23): step <= 1.0x
on every program, wall <= 1.0x for programs that run over 10 s, start-up (to the first run) <= 1.5x, peak
RSS <= 1.25x.

Where no TF 1.15 oracle exists (`make oracle`), its table says so and it exits 0.

Run:  python -m benchmarks.vs_tf115 [--rounds 3] [--programs char_rnn,ptb,...]
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags

from benchmarks import timing
from tf1clip.tools import compare

FLAGS = flags.FLAGS
flags.DEFINE_integer("rounds", 3, "interleaved rounds (each program once per side per round)")
flags.DEFINE_list("programs", [], "only these programs (default: all)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEGACY = os.path.join(ROOT, "examples", "legacy")
STARTUP = os.path.join(ROOT, "tests", "fixtures", "compare", "startup_tf1.py")
# name -> (script, arguments ({out}: the run's own folder), trains long enough for the wall target)
PROGRAMS = {
    "startup": (STARTUP, [], False),
    "tiny": (os.path.join(ROOT, "tests", "fixtures", "compare", "tiny_train.py"),
             ["--save_dir", "{out}", "--steps", "40", "--save_every", "20"], False),
    "char_rnn": (os.path.join(LEGACY, "char_rnn_train.py"),
                 ["--save_dir", "{out}", "--max_steps", "120", "--save_every", "60"], True),
    "ptb": (os.path.join(LEGACY, "ptb_word_lm.py"), ["--save_path", "{out}", "--max_max_epoch", "1",
                                                      "--max_epoch", "1"], True),
    "regression": (os.path.join(LEGACY, "regression_monitored.py"), ["--model_dir", "{out}", "--max_steps", "200"],
                   False),
    "estimator": (os.path.join(LEGACY, "estimator_train.py"), ["--model_dir", "{out}", "--train_steps", "200"],
                  True),
    # wave 3: TF 1.15's C++ kernels that tf1clip runs in NumPy (tf.contrib.tensor_forest, tf.estimator.BoostedTrees*)
    "forest": (os.path.join(ROOT, "tests", "fixtures", "compare", "forest_train.py"),
               ["--save_dir", "{out}", "--batches", "60"], False),
    "boosted_trees": (os.path.join(ROOT, "tests", "fixtures", "compare", "boosted_trees_train.py"),
                      ["--model_dir", "{out}", "--steps", "80"], False),
}
TARGET_STEP, TARGET_WALL, TARGET_STARTUP, TARGET_RSS = 1.0, 1.0, 1.5, 1.25


WARM_UP_RUNS = 5  # Session.run calls left out of the step time (initializers, first-run graph optimization)


def _run(argv, log):
  """One child process: a dict of wall s, peak RSS MiB, time to the first sess.run s, graph build s (TensorFlow
  imported -> first run) and median sess.run ms after warm-up (tools.compare_init.install_timing); raises
  with its log when it fails."""
  times_path = log + ".times.json"
  env = dict(compare._side_env(), TF1CLIP_STEP_TIMES=times_path)  # pylint: disable=protected-access
  spawned = time.time()
  start = time.perf_counter()
  with open(log, "w") as f:
    proc = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
  wall = time.perf_counter() - start
  proc.returncode = os.waitstatus_to_exitcode(status)
  if proc.returncode != 0:
    with open(log, errors="replace") as f:
      raise RuntimeError("%s failed (exit %d):\n%s" % (" ".join(argv), proc.returncode, f.read()[-2000:]))
  with open(times_path) as f:
    times = json.load(f)
  runs = times["runs"]
  steps = [seconds for _, seconds in runs[WARM_UP_RUNS:]] or [seconds for _, seconds in runs]
  return {"wall": wall, "rss": usage.ru_maxrss / 1024.0,
          "first_run": runs[0][0] - spawned if runs else float("nan"),
          "build": runs[0][0] - times["imported"] if runs else float("nan"),
          "step_ms": 1000.0 * statistics.median(steps) if steps else float("nan"),
          "runs": len(runs)}


def _side_argv(side, mode, values, script, args):
  if side == "tf115":
    return [timing.oracle_python(), compare._INIT, "python", mode, values, script] + args  # pylint: disable=protected-access
  return [sys.executable, "-m", "tf1clip.tools.compare_init", "run", mode, values, script] + args


def _measure(name, work, rounds):
  script, args, long_running = PROGRAMS[name]
  values = os.path.join(work, name + "_values.npz")
  samples = {"tf115": [], "tf1clip": []}
  outs = {}
  for r in range(rounds):
    for side in (("tf115", "tf1clip") if r % 2 == 0 else ("tf1clip", "tf115")):
      out = os.path.join(work, "%s_%s_%d" % (name, side, r))
      os.makedirs(out)
      mode = "record" if (r == 0 and side == "tf115") else "restore"
      if not os.path.exists(values) and mode == "restore":
        mode = "record" if side == "tf115" else "restore"
      argv = _side_argv(side, mode, values, script, [a.replace("{out}", out) for a in args])
      samples[side].append(_run(argv, out + ".log"))
      outs[side] = out
  same = "-"
  found = {side: compare.checkpoints(outs[side]) for side in outs}
  if found["tf115"] and found["tf1clip"]:
    final = compare._final(found["tf115"])  # pylint: disable=protected-access
    if final in found["tf1clip"]:
      rows = compare.compare_weights(compare._read(found["tf115"][final]),  # pylint: disable=protected-access
                                     compare._read(found["tf1clip"][final]), 1e-3, 1e-4)  # pylint: disable=protected-access
      bad = [r for r in rows if r[3] != "agree"]
      same = "yes (%d vars)" % len(rows) if not bad else "NO: %d of %d differ" % (len(bad), len(rows))
  return samples, same, long_running


def _ratio(ours, theirs):
  ratios = [a / b for a, b in zip(ours, theirs)]
  return statistics.median(ratios), min(ratios), max(ratios)


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  if timing.oracle_python() is None:
    timing.print_table("tf1clip run vs TensorFlow 1.15", ["program", "result"], [[
        "all", "skipped: no TF 1.15 oracle here (`make oracle` builds .venv-tf115 where a Python 3.7 exists)"]])
    return
  names = FLAGS.programs or list(PROGRAMS)
  unknown = sorted(set(names) - set(PROGRAMS))
  if unknown:
    raise app.UsageError("unknown --programs %s (choose from %s)" % (unknown, ", ".join(PROGRAMS)))
  work = tempfile.mkdtemp(prefix="vs_tf115-")
  rows = []
  try:
    for name in names:
      samples, same, long_running = _measure(name, work, FLAGS.rounds)
      ratio = lambda key: _ratio([s[key] for s in samples["tf1clip"]], [s[key] for s in samples["tf115"]])
      pair = lambda key, fmt: fmt % (statistics.median(s[key] for s in samples["tf1clip"]),
                                     statistics.median(s[key] for s in samples["tf115"]))
      wall, rss, step, first = ratio("wall"), ratio("rss"), ratio("step_ms"), ratio("first_run")
      wall_target = TARGET_WALL if long_running else None
      verdicts = []
      if name == "startup":
        verdicts.append("start-up <= %.2f: %s" % (TARGET_STARTUP, "met" if first[0] <= TARGET_STARTUP else "MISSED"))
      else:
        verdicts.append("step <= %.2f: %s" % (TARGET_STEP, "met" if step[0] <= TARGET_STEP else "MISSED"))
      if wall_target is not None:
        verdicts.append("wall <= %.2f: %s" % (wall_target, "met" if wall[0] <= wall_target else "MISSED"))
      verdicts.append("rss <= %.2f: %s" % (TARGET_RSS, "met" if rss[0] <= TARGET_RSS else "MISSED"))
      rows.append([name, pair("step_ms", "%.2f / %.2f"), "%.2f (%.2f-%.2f)" % step,
                   pair("first_run", "%.1f / %.1f"), "%.2f (%.2f-%.2f)" % first, pair("build", "%.2f / %.2f"),
                   pair("wall", "%.1f / %.1f"), "%.2f (%.2f-%.2f)" % wall,
                   pair("rss", "%.0f / %.0f"), "%.2f (%.2f-%.2f)" % rss, same, "; ".join(verdicts)])
  finally:
    shutil.rmtree(work, ignore_errors=True)
  timing.print_table("tf1clip run vs TensorFlow 1.15, %d interleaved rounds (medians; ratio tf1clip / TF 1.15, "
                     "min-max over rounds)" % FLAGS.rounds,
                     ["program", "step ms (tf1clip / 1.15)", "step ratio", "to 1st run s", "ratio",
                      "build s", "wall s", "wall ratio", "peak MiB", "RSS ratio", "same model", "targets"], rows)


if __name__ == "__main__":
  app.run(main)
