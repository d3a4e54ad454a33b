"""What `tf1clip upgrade --check-run` compares in two runs' standard output: masked, then number by number.

Two runs of one program print different wall-clock facts: timestamps (`2026-12-02 17:11:03`, `20261202-171103`,
`1796230822.45`), durations (`time/batch = 0.113`, `took 2.1s`), object addresses, and the paths of the folders
each run was given (its `{tmp}`, its working folder, a `runs/<timestamp>` directory it made). `mask(text,
folders)` replaces those with placeholders, so what is left is what the program computed. `compare(a, b, rtol)`
then compares the two outputs as a user would read them: the text between the numbers must be equal, and the
numbers equal within a relative tolerance (a printed loss may differ in its last digit between TF builds).

Data flow: tools.run_output <- tools.upgrade_cli (check_run). Imports no TensorFlow.
"""

import re

# Dates and times first (they contain numbers the later patterns would split).
_TIMESTAMPS = [
    r"\b\d{4}-\d{2}-\d{2}[T _]\d{2}[:.\-]?\d{2}[:.\-]?\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?",
    r"\b\d{4}-\d{2}-\d{2}\b",
    r"\b\d{8}[-_T]?\d{6}(?:[.,]\d+)?\b",  # 20261202-171103, the usual run-directory name
    r"\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b",
    r"\b1[5-9]\d{8}(?:\.\d+)?\b",  # Unix time, 2017-2033
    r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d+\b",
]
# Durations: a number right after a word about time, or followed by a time unit.
_DURATIONS = [
    r"(?i)\b(?:time|elapsed|took|duration|sec/batch|secs?/step|examples/sec|steps?/sec|speed)\w*(?:/\w+)?"
    r"\s*[=:]?\s*[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?",
    r"(?i)\b\d+(?:\.\d+)?\s*(?:s|sec|secs|seconds|ms|msec|minutes?|min)\b(?!\w)",
    r"(?i)\(\s*\d+(?:\.\d+)?\s*sec\s*\)",
]
_ADDRESSES = r"\b0x[0-9a-fA-F]{6,}\b"
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")


def mask(text, folders=()):
  """`text` with run-specific facts replaced: each of `folders` by <dir>, timestamps, durations, addresses.

  Args:
    text: one run's standard output.
    folders: the paths that differ between the runs (their {tmp}, their working folder), longest first.

  Returns:
    The masked text.
  """
  for folder in sorted((f for f in folders if f), key=len, reverse=True):
    text = text.replace(folder, "<dir>")
  for pattern in _TIMESTAMPS:
    text = re.sub(pattern, "<time>", text)
  for pattern in _DURATIONS:
    text = re.sub(pattern, "<duration>", text)
  return re.sub(_ADDRESSES, "<address>", text)


def _split(text):
  numbers = [m.group(0) for m in NUMBER.finditer(text)]
  return NUMBER.sub("#", text), numbers


def compare(first, second, rtol=1e-5, atol=1e-6):
  """Compares two masked outputs: the same text around the numbers, the numbers within tolerance.

  Args:
    first, second: masked outputs (see `mask`).
    rtol, atol: tolerances for the printed numbers (as numpy.isclose).

  Returns:
    (number count, list of difference sentences; empty when they agree).
  """
  skeleton_a, numbers_a = _split(first)
  skeleton_b, numbers_b = _split(second)
  if skeleton_a != skeleton_b:
    lines_a, lines_b = skeleton_a.splitlines(), skeleton_b.splitlines()
    for i, (a, b) in enumerate(zip(lines_a, lines_b)):
      if a != b:
        return len(numbers_a), ["output line %d differs beyond its numbers: %r vs %r" % (
            i + 1, first.splitlines()[i][:200], second.splitlines()[i][:200])]
    return len(numbers_a), ["the outputs have %d and %d lines" % (len(lines_a), len(lines_b))]
  problems = []
  for i, (a, b) in enumerate(zip(numbers_a, numbers_b)):
    x, y = float(a), float(b)
    if x != y and not (x != x and y != y) and abs(x - y) > atol + rtol * abs(y):
      problems.append("printed number %d: %s vs %s" % (i + 1, a, b))
  return len(numbers_a), problems
