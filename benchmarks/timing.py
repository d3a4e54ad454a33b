"""Timing, table printing and the TF 1.15 oracle's interpreter, shared by the benchmarks (never used by tests: tests
do not time).

Each benchmark builds its variants in one process, times them with `median_seconds`
interleaved round by round (so machine noise hits every variant alike), and prints one
table with `print_table`. Run any benchmark as `python -m benchmarks.<name>`.
"""

import platform
import statistics
import time

import os


def median_seconds(variants, warmup=5, rounds=7, iters=20):
  """Times callables round-robin and returns the median seconds per call of each.

  Args:
    variants: dict name -> zero-argument callable (one training step each).
    warmup: calls of each variant before timing.
    rounds: timing rounds; each round times `iters` calls of every variant in turn.
    iters: calls per variant per round.

  Returns:
    dict name -> median over rounds of the mean seconds per call.
  """
  for fn in variants.values():
    for _ in range(warmup):
      fn()
  samples = {name: [] for name in variants}
  for _ in range(rounds):
    for name, fn in variants.items():
      start = time.perf_counter()
      for _ in range(iters):
        fn()
      samples[name].append((time.perf_counter() - start) / iters)
  return {name: statistics.median(s) for name, s in samples.items()}


def oracle_python():
  """The TF 1.15 oracle's Python ($TF1CLIP_TF115_PYTHON, else .venv-tf115 of this checkout), or None."""
  root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
  for candidate in (os.environ.get("TF1CLIP_TF115_PYTHON"), os.path.join(root, ".venv-tf115", "bin", "python")):
    if candidate and os.path.exists(candidate):
      return candidate
  return None


def machine_line():
  """One line naming the machine, for the header of every table."""
  return "machine: %s, %d cores, python %s" % (
      platform.machine(), os.cpu_count() or 0, platform.python_version())


def print_table(title, header, rows):
  """Prints a plain-text table (also valid Markdown) with a title line.

  Args:
    title: printed above the table.
    header: list of column names.
    rows: list of lists of cells (already formatted strings or numbers).
  """
  cells = [[str(c) for c in header]] + [[_fmt(c) for c in row] for row in rows]
  widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
  print("\n%s\n%s\n" % (title, machine_line()))
  line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"
  print(line(cells[0]))
  print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
  for r in cells[1:]:
    print(line(r))
  print()


def _fmt(cell):
  if isinstance(cell, float):
    return "%.3f" % cell
  return str(cell)
