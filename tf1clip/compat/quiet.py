"""TensorFlow's C++ start-up lines, kept out of tf1clip's stderr (`TF1CLIP_TF_LOG=1` / `run --verbose` keeps them).

Place in the data flow (DESIGN.md): cli.main (every command) and compat.runner.prepare (run, exec's children,
notebooks) -> **compat.quiet**. Importing TensorFlow 2.21 prints,
from C++ and twice (two shared libraries), lines a TF1 user never saw and that no environment variable turns
off (TF_CPP_MIN_LOG_LEVEL does not reach the ones logged before absl is initialised): "WARNING: All log
messages before absl::InitializeLog() ...", "I0000 ... port.cc ... oneDNN custom operations are on",
"... cudart_stub.cc ... Could not find cuda drivers", "... cpu_feature_guard.cc ..." and its "To enable the
following instructions" line, and on a machine without a GPU an error-level "E0000 ... failed call to cuInit".
At shutdown, a session or server cancels its pending receives with "W... local_rendezvous.cc ... Local
rendezvous is aborting with status: CANCELLED" lines (TF 1.15 was silent there); those go too.

`install()` puts a filter on file descriptor 2 (where C++ writes): a pipe read by a thread that drops exactly
those lines and passes everything else through unchanged, line by line (the script's own warnings,
tracebacks, TensorFlow's real errors). With TF1CLIP_TF_LOG=1 nothing is dropped, and the cuInit line becomes
one plain line from tf1clip. Every C++ INFO line goes too (MLIR pass notices, device listings): TF 1.15's
few INFO lines were start-up chatter as well. Children started with the process's stderr write through the
same filter.
"""

import atexit
import os
import re
import sys
import threading

_NOISE = re.compile(
    rb"^(WARNING: All log messages before absl::InitializeLog\(\) is called are written to STDERR"
    rb"|I\d{4} [0-9:. ]+\d+ [a-z0-9_]+\.cc:\d+\] .*"  # every C++ INFO line (MLIR passes, devices, ...)
    rb"|W\d{4} [0-9:. ]+\d+ (port|cudart_stub|cpu_feature_guard|cuda_executor|cuda_dnn|cuda_fft|cuda_blas)"
    rb"\.cc:\d+\] .*"
    rb"|To enable the following instructions: .*, in other operations, rebuild TensorFlow with the appropriate "
    rb"compiler flags\."
    rb"|E\d{4} [0-9:. ]+\d+ cuda_(platform|executor|diagnostics)\.cc:\d+\] failed call to cuInit.*)\r?$")
# A session or server that shuts down cancels its pending receives: a W line per cancelled rendezvous (and a
# "\t [[{{node ...}}]]" line after some), printed after a successful run (ps tasks, ptb_word_lm's queues).
_RENDEZVOUS = re.compile(
    rb"^W\d{4} [0-9:. ]+\d+ local_rendezvous\.cc:\d+\] Local rendezvous is aborting with status: "
    rb"(CANCELLED|ABORTED): .*\r?$")
_CONTINUATION = re.compile(rb"^\t \[\[\{\{node .*\r?$")
_CUINIT = re.compile(rb"failed call to cuInit")
NO_GPU_LINE = b"tf1clip: no GPU here (CUDA could not initialise); TensorFlow runs on the CPU\n"
_state = {}


def verbose():
  """True when TensorFlow's start-up lines are wanted (TF1CLIP_TF_LOG=1, or `tf1clip run --verbose`)."""
  return os.environ.get("TF1CLIP_TF_LOG", "").lower() in ("1", "true", "yes", "all")


def keep(line, after_dropped=False):
  """The bytes to write for one stderr line (b"" to drop it); `after_dropped`: the line before was dropped."""
  bare = line.rstrip(b"\n")
  if not (_NOISE.match(bare) or _RENDEZVOUS.match(bare) or (after_dropped and _CONTINUATION.match(bare))):
    return line
  if verbose():
    return NO_GPU_LINE if _CUINIT.search(line) else line
  return b""


def _kept(lines, state):
  out = []
  for line in lines:
    kept = keep(line, state.get("dropped", False))
    state["dropped"] = not kept
    out.append(kept)
  return b"".join(out)


def install():
  """Filters file descriptor 2 for the rest of the process (idempotent; does nothing inside a Jupyter kernel)."""
  if _state or "ipykernel" in sys.modules:
    return
  try:
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    original = os.dup(2)
  except OSError:
    return
  os.dup2(write_end, 2)
  os.close(write_end)
  thread = threading.Thread(target=_forward, args=(read_end, original), daemon=True, name="tf1clip-stderr")
  _state.update(original=original, thread=thread)
  thread.start()
  atexit.register(_restore)


def _forward(read_end, original):
  pending = b""
  state = {}
  while True:
    try:
      chunk = os.read(read_end, 65536)
    except OSError:
      break
    if not chunk:
      break
    pending += chunk
    *lines, pending = pending.split(b"\n")
    out = _kept([line + b"\n" for line in lines], state)
    if out:
      os.write(original, out)
  if pending:
    os.write(original, _kept([pending], state))


def _restore():
  """At exit: our stderr back on fd 2, and what the filter still holds written out."""
  try:
    sys.stderr.flush()
  except (OSError, ValueError):
    pass
  os.dup2(_state["original"], 2)  # closes the pipe's write end held by fd 2: the thread sees EOF
  _state["thread"].join(1.0)
