"""Runs every benchmark in benchmarks/ (what `make bench` does), one subprocess each.

A benchmark is a module `benchmarks/<name>.py` with a top-level `def main` and an
`if __name__ == "__main__":` block; it is found by reading the source (not importing it),
so a new benchmark needs no registration here. Each runs as `python -m benchmarks.<name>`
from the repository root in its own process: benchmarks define absl flags with clashing
names and build their own TF graphs, so they must not share an interpreter.

Run:  python benchmarks/run_all.py [--only clip_overhead,...] [--list]
"""

import ast
import pathlib
import re
import subprocess
import sys
import time

from absl import app
from absl import flags

FLAGS = flags.FLAGS
flags.DEFINE_list("only", [], "run only these benchmarks (module names); default all")
flags.DEFINE_bool("list", False, "print the benchmarks found and exit")

BENCHMARKS_DIR = pathlib.Path(__file__).resolve().parent
# A line stating a target's verdict, as every benchmark prints them ("<= 1.02: met").
VERDICT = re.compile(r"\b(met|missed|MISSED)\b")


def find_benchmarks(directory=BENCHMARKS_DIR):
  """Returns the sorted module names of the runnable benchmarks in `directory`.

  Args:
    directory: a pathlib.Path of the benchmarks package.

  Returns:
    list of module names (file stems) with a top-level `main` function and a
    `__name__ == "__main__"` guard, excluding this runner.
  """
  names = []
  for path in sorted(directory.glob("*.py")):
    if path.stem in ("__init__", "run_all"):
      continue
    tree = ast.parse(path.read_text(), filename=str(path))
    has_main = any(isinstance(node, ast.FunctionDef) and node.name == "main"
                   for node in tree.body)
    if has_main and any(_is_main_guard(node) for node in tree.body):
      names.append(path.stem)
  return names


def _is_main_guard(node):
  if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
    return False
  operands = [node.test.left] + list(node.test.comparators)
  return (any(isinstance(o, ast.Name) and o.id == "__name__" for o in operands)
          and any(isinstance(o, ast.Constant) and o.value == "__main__" for o in operands))


def _run_streaming(command):
  """Runs `command` from the repository root, echoing its stdout; returns (exit code, lines)."""
  proc = subprocess.Popen(command, cwd=BENCHMARKS_DIR.parent, stdout=subprocess.PIPE, text=True)
  lines = []
  for line in proc.stdout:
    sys.stdout.write(line)
    sys.stdout.flush()
    lines.append(line.rstrip("\n"))
  return proc.wait(), lines


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  names = find_benchmarks()
  unknown = sorted(set(FLAGS.only) - set(names))
  if unknown:
    raise app.UsageError("no benchmark named %s; found: %s" % (", ".join(unknown), ", ".join(names)))
  if FLAGS.only:
    names = [n for n in names if n in FLAGS.only]
  if FLAGS.list:
    print("\n".join(names))
    return 0
  failed, verdicts = [], []
  for name in names:
    print("=== benchmarks.%s" % name, flush=True)
    start = time.perf_counter()
    code, lines = _run_streaming([sys.executable, "-m", "benchmarks.%s" % name])
    verdicts += ["%s: %s" % (name, " ".join(line.split())) for line in lines
                 if VERDICT.search(line)]
    print("=== benchmarks.%s: %s in %.0f s" % (
        name, "ok" if code == 0 else "FAILED (exit %d)" % code, time.perf_counter() - start),
          flush=True)
    if code != 0:
      failed.append(name)
  print("\n=== every target (met / MISSED), as the benchmarks printed them")
  print("\n".join(verdicts) if verdicts else "(none printed)")
  if failed:
    print("failed: %s" % ", ".join(failed))
    return 1
  return 0


if __name__ == "__main__":
  app.run(main)
