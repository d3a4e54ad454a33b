"""The differential harness: run the same TF1 snippet on TensorFlow 1.15 and under `tf1clip run`, compare.

DESIGN.md, "TF 1.15 as the oracle": what TF 1.15 did is run, not recalled. A snippet is ordinary TF1 code
(`import tensorflow as tf`) that records what must agree with the functions of prelude.py (`report`,
`case`, `init_from_numpy`, `report_variables`, `report_checkpoint`). `run_both(snippet)` writes prelude +
snippet to one file and runs it twice, at the same time: with the oracle's Python 3.7 (tensorflow 1.15.5, in
.venv-tf115, built by `make oracle`) and with `python -m tf1clip run` of this environment; `assert_same`
compares the two records key by key (numbers allclose with stated tolerances, everything else equal) and
names the key that differs. Batch many cases into one snippet: a process start costs 1-4 s.

Where no oracle is installed, `requires_tf115` skips, saying how to build one.
"""

import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PRELUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "prelude.py")


def oracle_python():
  """The TF 1.15 interpreter: $TF1CLIP_TF115_PYTHON, else <repo>/.venv-tf115/bin/python; None if neither."""
  for candidate in (os.environ.get("TF1CLIP_TF115_PYTHON"), os.path.join(REPO, ".venv-tf115", "bin", "python")):
    if candidate and os.path.exists(candidate):
      return candidate
  return None


requires_tf115 = pytest.mark.skipif(
    oracle_python() is None,
    reason="no TF 1.15 oracle: `make oracle` builds .venv-tf115 where a Python 3.7 exists "
           "(or set TF1CLIP_TF115_PYTHON to a python with tensorflow==1.15.5)")


class SideFailed(AssertionError):
  """One side of a comparison exited non-zero; the message names the side and ends with its output."""


def _env(out, shared):
  env = dict(os.environ, ORACLE_OUT=out, ORACLE_SHARED=shared, TF_CPP_MIN_LOG_LEVEL="3",
             PYTHONWARNINGS="ignore", CUDA_VISIBLE_DEVICES="")
  env.pop("PYTHONPATH", None)
  # TensorFlow 2.21 sets TF2_BEHAVIOR=1 in os.environ when imported (this test process has it); TF 1.15
  # reads it and would start eagerly.
  env.pop("TF2_BEHAVIOR", None)
  return env


def _start(side, script, workdir, shared):
  out = os.path.join(workdir, "result.json")
  if side == "tf115":
    python = oracle_python()
    if python is None:
      raise SideFailed("tf115: no oracle interpreter (make oracle)")
    argv = [python, script]
  else:
    argv = [sys.executable, "-m", "tf1clip", "run", script]
  proc = subprocess.Popen(argv, cwd=workdir, env=_env(out, shared), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
  return proc, out


def _finish(side, proc, out, timeout):
  try:
    output, _ = proc.communicate(timeout=timeout)
  except subprocess.TimeoutExpired:
    proc.kill()
    output, _ = proc.communicate()
    raise SideFailed("%s: no answer in %d s; last output:\n%s" % (side, timeout, output[-3000:]))
  if proc.returncode != 0:
    raise SideFailed("%s: exit %d; last output:\n%s" % (side, proc.returncode, output[-3000:]))
  with open(out) as f:
    return Record(side, json.load(f), output)


class Record(dict):
  """What one side reported: {key: value}, with `.side` and `.output` (its stdout and stderr)."""

  def __init__(self, side, values, output):
    super().__init__({k: _decode(v) for k, v in values.items()})
    self.side = side
    self.output = output
    self.raw = values  # as the side wrote it (JSON), for the batch file other xdist workers read


def _decode(value):
  if isinstance(value, dict):
    if "__nd__" in value:
      return np.array(value["__nd__"], dtype=np.float64 if value["dtype"] != "bool" else bool).reshape(
          value["shape"])
    if "__strings__" in value:
      return np.array([_decode(v) for v in value["__strings__"]], dtype=object).reshape(value["shape"])
    if "__bytes__" in value:
      return value["__bytes__"].encode("latin-1")
    return {k: _decode(v) for k, v in value.items()}
  if isinstance(value, list):
    return [_decode(v) for v in value]
  return value


def snippet_file(snippet, folder):
  with open(PRELUDE) as f:
    prelude = f.read()
  path = os.path.join(folder, "snippet.py")
  with open(path, "w") as f:
    f.write(prelude + "\n" + snippet)
  return path


def run(sides, snippet, shared=None, timeout=300):
  """Runs `snippet` on each of `sides` ("tf115", "tf1clip") at the same time; returns their Records in order."""
  with tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
    shared = shared or os.path.join(tmp, "shared")
    os.makedirs(shared, exist_ok=True)
    started = []
    for side in sides:
      workdir = os.path.join(tmp, side)
      os.makedirs(workdir)
      script = snippet_file(snippet, workdir)
      started.append((side,) + _start(side, script, workdir, shared))
    try:
      return [_finish(side, proc, out, timeout) for side, proc, out in started]
    finally:
      # A side that failed or timed out must not leave the other one running (a hung snippet can
      # build graph ops forever and take the machine's memory).
      for _, proc, _ in started:
        if proc.poll() is None:
          proc.kill()
          proc.communicate()


# Batching (tests/conftest.py registers the snippets that may share a process): a process start costs
# 2-5 s a side, more than most snippets, so the first run_both of a registered snippet runs every registered
# snippet in one process a side (prelude.run_batch: a fresh graph, Keras session and folder each) and keeps the
# records; a snippet the batch could not run (it raised, or a side died) runs on its own as before. Under
# pytest-xdist the batch runs once per test session, not once per worker: the first worker to need it runs it
# under a file lock and writes the records to a file beside the lock; the others wait for the lock and read
# that file (the waiting costs nothing: the batch's two processes keep both cores busy meanwhile).
_BATCH = {"snippets": {}, "records": None}
BATCH_TIMEOUT = 1800


def register_batch(name, snippet):
  """Lets `snippet` (the module-level SNIPPET of test module `name`) run in the shared batch."""
  _BATCH["snippets"].setdefault(snippet, name.replace(".", "_"))


def batch_folder():
  """The folder the xdist workers of one test session share the batch in (conftest sets it); None outside xdist."""
  return _BATCH.get("folder")


def _run_batch():
  """{"outputs": [the two sides' outputs], "ran": {name: [tf115 raw record, tf1clip raw record]}}."""
  parts = [[name, snippet] for snippet, name in _BATCH["snippets"].items()]
  with tempfile.TemporaryDirectory(prefix="oracle-batch-") as tmp:
    parts_file = os.path.join(tmp, "parts.json")
    with open(parts_file, "w") as f:
      json.dump(parts, f)
    try:
      tf115, ours = run(("tf115", "tf1clip"), "run_batch(%r)\n" % parts_file, timeout=BATCH_TIMEOUT)
    except SideFailed:
      return {"outputs": ["", ""], "ran": {}}  # every snippet runs on its own
  ran = {}
  for name, _ in parts:
    a, b = tf115.raw.get("__batch__", {}).get(name), ours.raw.get("__batch__", {}).get(name)
    if a is not None and b is not None:
      ran[name] = [a, b]
  return {"outputs": [tf115.output, ours.output], "ran": ran}


def _shared_batch(folder):
  import fcntl  # pylint: disable=import-outside-toplevel  (POSIX; only under xdist)
  os.makedirs(folder, exist_ok=True)
  records = os.path.join(folder, "records.json")
  with open(os.path.join(folder, "lock"), "w") as lock:
    fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
    if not os.path.exists(records):
      batch = _run_batch()
      with open(records + ".part", "w") as f:
        json.dump(batch, f)
      os.replace(records + ".part", records)
    with open(records) as f:
      return json.load(f)


def _batch_records():
  if _BATCH["records"] is None:
    folder = batch_folder()
    batch = _shared_batch(folder) if folder else _run_batch()
    a_out, b_out = batch["outputs"]
    _BATCH["records"] = {name: (Record("tf115", a, a_out), Record("tf1clip", b, b_out))
                         for name, (a, b) in batch["ran"].items()}
  return _BATCH["records"]


def run_both(snippet, shared=None, timeout=300):
  """(tf115 Record, tf1clip Record) of one snippet, both run at the same time (or taken from the batch)."""
  if shared is None and snippet in _BATCH["snippets"]:
    records = _batch_records().get(_BATCH["snippets"][snippet])
    if records is not None:
      return records
  tf115, ours = run(("tf115", "tf1clip"), snippet, shared=shared, timeout=timeout)
  return tf115, ours


def run_tf115(snippet, shared=None, timeout=300):
  return run(("tf115",), snippet, shared=shared, timeout=timeout)[0]


def run_tf1clip(snippet, shared=None, timeout=300):
  return run(("tf1clip",), snippet, shared=shared, timeout=timeout)[0]


def assert_same(tf115, ours, rtol=1e-5, atol=1e-6, keys=None, differences=None):
  """Every key both must report agrees: arrays allclose(rtol, atol), the rest equal.

  Args:
    tf115, ours: the Records of run_both.
    rtol, atol: numpy allclose tolerances for numbers.
    keys: only these keys (default: all; the two key sets must then be equal).
    differences: {key: reason} of deliberate differences, skipped here (the reason is the documentation).
  """
  differences = differences or {}
  if keys is None:
    missing = sorted((set(tf115) ^ set(ours)) - set(differences))
    assert not missing, "only one side reported %s\ntf115: %s\ntf1clip: %s" % (
        missing, {k: tf115.get(k) for k in missing}, {k: ours.get(k) for k in missing})
    keys = sorted(set(tf115) - set(differences))
  for key in keys:
    if key in differences:
      continue
    assert key in tf115 and key in ours, "%r not reported by %s" % (key, "tf115" if key not in tf115 else "tf1clip")
    _assert_equal(key, tf115[key], ours[key], rtol, atol)


def _assert_equal(key, a, b, rtol, atol):
  if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, "%s: shape %s on TF 1.15, %s under tf1clip" % (key, a.shape, b.shape)
    if a.dtype == object or b.dtype == object:
      assert a.tolist() == b.tolist(), "%s: %r on TF 1.15, %r under tf1clip" % (key, a, b)
      return
    if not np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
      worst = np.max(np.abs(a - b)) if a.size else 0
      raise AssertionError("%s differs: largest difference %g (rtol %g, atol %g)\nTF 1.15: %s\ntf1clip: %s" % (
          key, worst, rtol, atol, a.ravel()[:8], b.ravel()[:8]))
    return
  if isinstance(a, float) or isinstance(b, float):
    assert np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True), "%s: %r on TF 1.15, %r under tf1clip" % (
        key, a, b)
    return
  if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
    for i, (x, y) in enumerate(zip(a, b)):
      _assert_equal("%s[%d]" % (key, i), x, y, rtol, atol)
    return
  if isinstance(a, dict) and isinstance(b, dict) and set(a) == set(b):
    for k in a:
      _assert_equal("%s.%s" % (key, k), a[k], b[k], rtol, atol)
    return
  assert a == b, "%s: %r on TF 1.15, %r under tf1clip" % (key, a, b)
