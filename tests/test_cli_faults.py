"""The command-line tools against what a user's disk, files and flags can be: a sweep per class of fault (issue 38).

Every case runs `python -m tf1clip ...` in a subprocess of its own (so a traceback, a hang or a silent exit is
seen as the user sees it) and is classified:

  clear    the expected exit status, a message holding every expected part (the path, the reason), no traceback
  unclear  the expected kind of failure, but the message lacks what it should name, or the wrong exit status
  silent   exit 0 (or the expected status) with nothing said where something had to be said, or data lost
  crash    a Python traceback
  hang     no answer within the case's time limit

Classes: writing output (every writing command onto a read-only and a full file system -- small tmpfs mounts,
so only as root where mount(2) is allowed, else skipped with the reason --, a missing parent, a file where a
folder goes and back); reading source as Python does (latin-1 with a coding line, binary, a looping link, a
FIFO, for check, upgrade and notebooks); size (deeply nested expressions); flags (tolerances, ports, counts,
`run -m`/`-c` with nothing after, `exec` of what a shell runs, `compare --tf115` of a wrong interpreter); saying
what was read (truncated and CRC-damaged event files, non-finite norms, a notebook of another language).

`python tests/test_cli_faults.py [--root DIR]` prints the table (command x fault: class, exit status, first line
of the message) for the tf1clip found at DIR (default: this checkout), e.g. to compare with an older one.
"""

import argparse
import concurrent.futures
import contextlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLASSES = ("clear", "unclear", "silent", "crash", "hang")


class Case:
  """One command x fault: argv (after `tf1clip`), the expected exit status and message parts, a check."""

  def __init__(self, name, argv, status, parts=(), timeout=60, cwd=None, check=None, needs=None):
    self.name, self.argv, self.status, self.parts = name, argv, status, tuple(parts)
    self.timeout, self.cwd, self.check, self.needs = timeout, cwd, check, needs


def _mount_tmpfs(path, options):
  """Mounts a tmpfs at `path`; returns None, or the reason it cannot be done here."""
  if os.geteuid() != 0:
    return "needs root to mount a small tmpfs (running as uid %d)" % os.geteuid()
  os.makedirs(path, exist_ok=True)
  proc = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path], capture_output=True, text=True,
                        check=False)
  return None if proc.returncode == 0 else "mount -t tmpfs failed: %s" % proc.stderr.strip()


def _fill(path):
  """Fills the file system at `path` up to the last byte."""
  fd = os.open(os.path.join(path, "filler"), os.O_WRONLY | os.O_CREAT)
  try:
    for size in (65536, 4096, 1):
      with contextlib.suppress(OSError):
        while os.write(fd, b"\0" * size):
          pass
  finally:
    os.close(fd)


def _event_run(folder, damage=None, nan_steps=()):
  """A run folder with tf1clip/global_norm for 40 steps; damage: None, "truncate" or "crc"."""
  import tensorflow as tf  # pylint: disable=import-outside-toplevel
  os.makedirs(folder)
  writer = tf.summary.create_file_writer(folder)
  with writer.as_default():
    for step in range(40):
      tf.summary.scalar("tf1clip/global_norm", float("nan") if step in nan_steps else 1.0 + step, step=step)
  writer.close()
  path = [os.path.join(folder, n) for n in os.listdir(folder)][0]
  with open(path, "rb") as f:
    data = bytearray(f.read())
  if damage == "truncate":
    data = data[:len(data) * 2 // 3 + 3]
  elif damage == "crc":
    data[len(data) // 2] ^= 0xFF
  with open(path, "wb") as f:
    f.write(bytes(data))
  return folder


SCRIPT = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\nprint('ok')\n"
LATIN1 = b"# -*- coding: latin-1 -*-\nimport tensorflow as tf\nname = '\xe9t\xe9'\nx = tf.placeholder(tf.float32)\n"
BINARY = b"\x00\x01\xfe\xff\x81binary model weights\x00" * 20


def _notebook(language="python", name="python3", text="print('cell')"):
  return json.dumps({"nbformat": 4, "nbformat_minor": 5,
                     "metadata": {"kernelspec": {"name": name, "display_name": language, "language": language}},
                     "cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {},
                                "outputs": [], "source": text}]})


def build_cases(root):
  """Writes the inputs under `root`; returns (cases, {fault kind: reason it is unavailable})."""
  unavailable = {}
  j = lambda *p: os.path.join(root, *p)  # pylint: disable=unnecessary-lambda-assignment
  os.makedirs(j("src"))
  with open(j("src", "train.py"), "w") as f:
    f.write(SCRIPT)
  with open(j("script.py"), "w") as f:
    f.write(SCRIPT)
  with open(j("latin1.py"), "wb") as f:
    f.write(LATIN1)
  with open(j("model.py"), "wb") as f:
    f.write(BINARY)
  os.makedirs(j("loop_tree", "pkg"))
  with open(j("loop_tree", "train.py"), "w") as f:
    f.write(SCRIPT)
  os.symlink(j("loop_tree"), j("loop_tree", "pkg", "back"))
  os.symlink(j("loop_tree", "self.py"), j("loop_tree", "self.py"))
  os.makedirs(j("fifo_tree"))
  with open(j("fifo_tree", "train.py"), "w") as f:
    f.write(SCRIPT)
  os.mkfifo(j("fifo_tree", "pipe.py"))
  os.mkfifo(j("pipe.ipynb"))
  with open(j("deep.py"), "w") as f:
    f.write("import tensorflow as tf\nx = " + "+".join(["tf.a"] * 50000) + "\n")
  with open(j("r.ipynb"), "w") as f:
    f.write(_notebook("R", "ir"))
  with open(j("latin1.ipynb"), "wb") as f:
    f.write(_notebook(text="print('\u00e9t\u00e9')").encode("utf-8").replace(b"\\u00e9", b"\xe9"))
  with open(j("noshebang"), "w") as f:
    f.write("echo ran-by-sh \"$1\"\n")
  os.chmod(j("noshebang"), 0o755)
  with open(j("a_file"), "w") as f:
    f.write("not a folder\n")
  os.makedirs(j("a_dir"))
  run = _event_run(j("run_ok"))
  truncated = _event_run(j("run_truncated"), "truncate")
  damaged = _event_run(j("run_crc"), "crc")
  nan = _event_run(j("run_nan"), nan_steps=(5, 9))
  ro, full = j("ro"), j("full")
  reason = _mount_tmpfs(ro, "ro,size=256k")
  if reason:
    unavailable["read-only fs"] = reason
  reason = _mount_tmpfs(full, "size=256k")
  if reason:
    unavailable["full fs"] = reason
  else:
    _fill(full)
  py = sys.executable

  def nothing_at(path):
    return lambda: "left %s behind" % path if os.path.lexists(path) else None

  def latin1_copy():
    if not os.path.exists(j("up_latin1", "latin1.py")):
      return "no copy written"
    with open(j("up_latin1", "latin1.py"), "rb") as f:
      data = f.read()
    return None if b"\xe9t\xe9" in data and b"tf1clip.compat.v1" in data else "the copy is not latin-1: %r" % data[:80]

  cases = [
      # -- writing output: read-only and full file systems, missing parents, file vs folder
      Case("report --out DIR on a read-only fs", ["report", run, "--out", j("ro", "rep")], 2,
           ["--out", j("ro"), "read-only"], needs="read-only fs"),
      Case("report --out page.html on a read-only fs", ["report", run, "--out", j("ro", "p.html")], 2,
           ["--out", "read-only"], needs="read-only fs"),
      Case("report --out DIR on a full fs", ["report", run, "--out", j("full", "rep")], 2,
           ["--out", "no space left"], needs="full fs", check=nothing_at(j("full", "rep")), timeout=240),
      Case("report --out page.html on a full fs", ["report", run, "--out", j("full", "p.html")], 2,
           ["--out", "no space left"], needs="full fs", timeout=240),
      Case("report --out onto an existing file", ["report", run, "--out", j("a_file")], 2,
           ["--out", "a_file", "existing file"], timeout=240),
      Case("report --out page.html in a missing folder (created)", ["report", run, "--out",
           j("new", "deeper", "p.html")], 0, ["wrote", "p.html"], timeout=240),
      Case("upgrade tree --out on a read-only fs", ["upgrade", j("src"), "--out", j("ro", "up")], 2,
           ["--out", "read-only"], needs="read-only fs"),
      Case("upgrade tree --out on a full fs", ["upgrade", j("src"), "--out", j("full", "up")], 2,
           ["--out", "no space left"], needs="full fs", check=nothing_at(j("full", "up"))),
      Case("upgrade file --out on a full fs", ["upgrade", j("script.py"), "--out", j("full", "s.py")], 2,
           ["s.py", "no space left"], needs="full fs", check=nothing_at(j("full", "s.py"))),
      Case("upgrade --report into a missing folder", ["upgrade", j("src"), "--out", j("up_r1"), "--report",
           j("missing", "r.json")], 2, ["--report", "does not exist"], check=nothing_at(j("up_r1"))),
      Case("upgrade --report onto a directory", ["upgrade", j("src"), "--out", j("up_r2"), "--report", j("a_dir")],
           2, ["--report", "a_dir", "directory"], check=nothing_at(j("up_r2"))),
      Case("upgrade --report on a read-only fs", ["upgrade", j("src"), "--out", j("up_r3"), "--report",
           j("ro", "r.json")], 2, ["--report", "read-only"], needs="read-only fs", check=nothing_at(j("up_r3"))),
      Case("upgrade --out onto an existing file (tree)", ["upgrade", j("src"), "--out", j("a_file")], 2,
           ["--out", "a_file"]),
      Case("compare --keep onto an existing file", ["compare", "--tf115", py, "--keep", j("a_file"), j("script.py"),
           "{out}"], 2, ["--keep", "a_file", "not a directory"]),
      Case("compare --keep on a read-only fs", ["compare", "--tf115", py, "--keep", j("ro", "k"), j("script.py"),
           "{out}"], 2, ["--keep", "read-only"], needs="read-only fs"),
      # -- reading source as Python reads it
      Case("check latin-1 with a coding line", ["check", "--all", j("latin1.py")], 0, ["tf.placeholder"]),
      Case("check a binary model.py", ["check", j("model.py")], 2, ["model.py", "binary"]),
      Case("check a tree with a link loop", ["check", j("loop_tree")], 0, ["back", "loops", "self.py"]),
      Case("check a tree with a FIFO", ["check", j("fifo_tree")], 0, ["pipe.py", "FIFO"], timeout=30),
      Case("check a FIFO notebook", ["check", j("pipe.ipynb")], 2, ["pipe.ipynb", "FIFO"], timeout=30),
      Case("upgrade latin-1 with a coding line", ["upgrade", j("latin1.py"), "--out", j("up_latin1") + os.sep], 0,
           ["1 file"], check=latin1_copy),
      Case("upgrade a binary model.py", ["upgrade", j("model.py"), "--out", j("up_bin.py")], 2,
           ["model.py", "binary"], check=nothing_at(j("up_bin.py"))),
      Case("upgrade a tree with a link loop", ["upgrade", j("loop_tree"), "--out", j("up_loop")], 0,
           ["back", "loops", "self.py"]),
      Case("upgrade a tree with a FIFO", ["upgrade", j("fifo_tree"), "--out", j("up_fifo")], 0, ["pipe.py", "FIFO"],
           timeout=30),
      Case("run a notebook that is not UTF-8", ["run", j("latin1.ipynb")], 2, ["latin1.ipynb", "UTF-8"]),
      Case("run a FIFO notebook", ["run", j("pipe.ipynb")], 2, ["pipe.ipynb", "FIFO"], timeout=30),
      # -- size
      Case("check a 50,000-term expression", ["check", j("deep.py")], 2, ["deep.py", "too deeply nested"],
           timeout=120),
      Case("upgrade a 50,000-term expression", ["upgrade", j("deep.py"), "--out", j("up_deep.py")], 2,
           ["deep.py", "too deeply nested"], timeout=300),
      # -- flags
      Case("compare --rtol -1", ["compare", "--tf115", py, "--rtol", "-1", j("script.py"), "{out}"], 2,
           ["--rtol", "at least 0"]),
      Case("compare --atol nan", ["compare", "--tf115", py, "--atol", "nan", j("script.py"), "{out}"], 2,
           ["--atol", "finite"]),
      Case("compare --tf115 of a TF 2 Python", ["compare", "--tf115", py, j("script.py"), "{out}"], 2,
           ["--tf115", "1.15"], timeout=120),
      Case("compare --tf115 of a program that is no Python", ["compare", "--tf115", shutil.which("true") or "/bin/true",
           j("script.py"), "{out}"], 2, ["--tf115", "not a Python"]),
      Case("upgrade --rtol -1", ["upgrade", j("src"), "--out", j("up_f"), "--rtol", "-1"], 2, ["--rtol", "at least 0"]),
      Case("report --percentile 101", ["report", run, "--percentile", "101"], 2, ["--percentile", "[0, 100]"],
           timeout=240),
      Case("parity --atol nan", ["parity", "--atol", "nan"], 2, ["--atol", "finite"], timeout=300),
      Case("cluster --port 70000", ["cluster", "--port", "70000", j("script.py")], 2, ["--port", "65535"]),
      Case("cluster ports past 65535", ["cluster", "--hosts", "h1", "--port", "65535", "--workers", "2",
                                        j("script.py")], 2, ["--port", "65535"]),
      Case("cluster --workers -1", ["cluster", "--workers", "-1", j("script.py")], 2, ["--workers", "at least 0"]),
      Case("run -m with nothing after", ["run", "-m"], 2, ["-m", "argument expected"]),
      Case("run -c with nothing after", ["run", "-c"], 2, ["-c", "argument expected"]),
      Case("exec --verbose", ["exec", "--verbose", "true"], 0),
      Case("exec of a script without #!", ["exec", j("noshebang"), "arg"], 0, ["ran-by-sh arg"]),
      Case("exec of a directory", ["exec", j("a_dir")], 126, ["a_dir", "is a directory"]),
      Case("exec of an unknown option", ["exec", "--bogus", "true"], 2, ["--bogus", "unknown option"]),
      # -- saying what was read
      Case("report of a truncated event file", ["report", truncated, "--out", j("rep_t")], 0,
           ["damaged record", "truncated", "not read"], timeout=240),
      Case("report of a CRC-damaged event file", ["report", damaged, "--out", j("rep_c")], 0,
           ["damaged record", "CRC", "not read"], timeout=240),
      Case("report of non-finite norms", ["report", nan, "--out", j("rep_n")], 0,
           ["non-finite", "2 step(s): 5, 9"], timeout=240),
      Case("run a notebook with an R kernel", ["run", j("r.ipynb")], 2, ["r.ipynb", "R", "not Python"]),
  ]
  return cases, unavailable


def unmount(root):
  for name in ("ro", "full"):
    path = os.path.join(root, name)
    if os.path.ismount(path):
      subprocess.run(["umount", "-l", path], check=False)


def run_case(case, tf1clip_root):
  """(class, exit status, message) of one case against the tf1clip package found at `tf1clip_root`."""
  env = dict(os.environ, PYTHONPATH=tf1clip_root + os.pathsep + os.environ.get("PYTHONPATH", ""),
             TF_CPP_MIN_LOG_LEVEL="3")
  try:
    proc = subprocess.run([sys.executable, "-m", "tf1clip"] + case.argv, capture_output=True, text=True,
                          timeout=case.timeout, env=env, cwd=case.cwd or tempfile.gettempdir(), stdin=subprocess.DEVNULL, check=False)
  except subprocess.TimeoutExpired:
    return "hang", None, "no answer in %d s" % case.timeout
  text = proc.stdout + proc.stderr
  lines = [l for l in proc.stderr.splitlines() if l.strip() and not l.startswith(("I0000", "W0000", "WARNING:"))]
  message = next((l for l in reversed(lines) if "tf1clip" in l or "error" in l.lower()), lines[-1] if lines else "")
  if "Traceback (most recent call last)" in proc.stderr:
    return "crash", proc.returncode, [l for l in proc.stderr.splitlines() if l.strip()][-1]
  problem = case.check() if case.check else None
  missing = [p for p in case.parts if p not in text]
  if proc.returncode == case.status and not missing and problem is None:
    return "clear", proc.returncode, message
  if problem is not None or (case.parts and not text.strip()) or (proc.returncode == 0 != case.status):
    return "silent", proc.returncode, problem or message or "(nothing said)"
  return "unclear", proc.returncode, "%s (missing: %s)" % (message, ", ".join(missing)) if missing else message


def sweep(tf1clip_root=REPO, workers=3):
  """Runs every case; returns [(case, class, status, message)] and the unavailable faults."""
  root = tempfile.mkdtemp(prefix="tf1clip-faults-")
  try:
    cases, unavailable = build_cases(root)
    runnable = [c for c in cases if c.needs not in unavailable]
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
      results = list(pool.map(lambda c: run_case(c, tf1clip_root), runnable))
    return [(c,) + r for c, r in zip(runnable, results)], cases, unavailable
  finally:
    unmount(root)
    for directory, _, names in os.walk(root):
      for name in names:
        with contextlib.suppress(OSError):
          path = os.path.join(directory, name)
          if stat.S_ISFIFO(os.lstat(path).st_mode):
            os.unlink(path)
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def results():
  done, cases, unavailable = sweep()
  return {c.name: (cls, status, message) for c, cls, status, message in done}, cases, unavailable


# (name, needs) of every case, in build_cases' order; test_the_index_matches_the_cases keeps them in step.
_CASE_INDEX = [
    ("report --out DIR on a read-only fs", "read-only fs"), ("report --out page.html on a read-only fs", "read-only fs"),
    ("report --out DIR on a full fs", "full fs"), ("report --out page.html on a full fs", "full fs"),
    ("report --out onto an existing file", None), ("report --out page.html in a missing folder (created)", None),
    ("upgrade tree --out on a read-only fs", "read-only fs"), ("upgrade tree --out on a full fs", "full fs"),
    ("upgrade file --out on a full fs", "full fs"), ("upgrade --report into a missing folder", None),
    ("upgrade --report onto a directory", None), ("upgrade --report on a read-only fs", "read-only fs"),
    ("upgrade --out onto an existing file (tree)", None), ("compare --keep onto an existing file", None),
    ("compare --keep on a read-only fs", "read-only fs"), ("check latin-1 with a coding line", None),
    ("check a binary model.py", None), ("check a tree with a link loop", None), ("check a tree with a FIFO", None),
    ("check a FIFO notebook", None), ("upgrade latin-1 with a coding line", None), ("upgrade a binary model.py", None),
    ("upgrade a tree with a link loop", None), ("upgrade a tree with a FIFO", None),
    ("run a notebook that is not UTF-8", None), ("run a FIFO notebook", None),
    ("check a 50,000-term expression", None), ("upgrade a 50,000-term expression", None),
    ("compare --rtol -1", None), ("compare --atol nan", None), ("compare --tf115 of a TF 2 Python", None),
    ("compare --tf115 of a program that is no Python", None), ("upgrade --rtol -1", None),
    ("report --percentile 101", None), ("parity --atol nan", None), ("cluster --port 70000", None),
    ("cluster ports past 65535", None), ("cluster --workers -1", None), ("run -m with nothing after", None),
    ("run -c with nothing after", None), ("exec --verbose", None), ("exec of a script without #!", None),
    ("exec of a directory", None), ("exec of an unknown option", None), ("report of a truncated event file", None),
    ("report of a CRC-damaged event file", None), ("report of non-finite norms", None),
    ("run a notebook with an R kernel", None),
]


def test_the_index_matches_the_cases(results):
  _, cases, _ = results
  assert [(c.name, c.needs) for c in cases] == _CASE_INDEX


@pytest.mark.parametrize("name,needs", _CASE_INDEX, ids=[n for n, _ in _CASE_INDEX])
def test_fault_is_answered_clearly(results, name, needs):
  done, _, unavailable = results
  if needs in unavailable:
    pytest.skip("%s: %s" % (needs, unavailable[needs]))
  cls, status, message = done[name]
  assert cls == "clear", "%s: %s (exit %s): %s" % (name, cls, status, message)


def main(argv=None):
  parser = argparse.ArgumentParser(description="Print the fault sweep's table (command x fault).")
  parser.add_argument("--root", default=REPO, help="the folder holding the tf1clip package to sweep")
  args = parser.parse_args(argv)
  done, _, unavailable = sweep(os.path.abspath(args.root))
  counts = {c: 0 for c in CLASSES}
  for case, cls, status, message in done:
    counts[cls] += 1
    print("| %s | %s | %s | %s |" % (case.name, cls, "-" if status is None else status,
                                      str(message).replace("|", "/")[:150]))
  for need, reason in unavailable.items():
    print("(skipped: %s: %s)" % (need, reason))
  print("%d cases: %s" % (len(done), ", ".join("%d %s" % (counts[c], c) for c in CLASSES)))


if __name__ == "__main__":
  main()
