"""Start one side of `tf1clip compare` from given initial weights: runs on TF 1.15 (Python 3.7) and under tf1clip.

    python3.7 compare_init.py python MODE VALUES script.py [args...]      # TF 1.15's side, plain python
    python -m tf1clip.tools.compare_init run MODE VALUES script.py [args...]   # tf1clip's side, the runner

MODE is `record` (write the values the script's variables start from to VALUES, an .npz, the first time a
variables initializer runs) or `restore` (initialize every variable named in VALUES with its value there).
How: TensorFlow builds `tf.global_variables_initializer()` (and Scaffold's / MonitoredSession's init op) with
`variables.variables_initializer`, in TF 1.15 and 2.21 alike; that one function is wrapped. A variable
initialized some other way (`sess.run(v.initializer)`) keeps its own initial value, and the values are
embedded in the graph as constants (fine for the models legacy scripts train here, not for gigabytes).

Place in the data flow: tools.compare starts this as each side's process; it imports nothing from tf1clip
on TF 1.15's side (this file is run by path there, so it stays Python 3.7 syntax).
"""

import os
import runpy
import sys


def install(mode, values_path):
  """Wraps TensorFlow's variables_initializer for `mode` ("record" / "restore"); imports TensorFlow."""
  import numpy as np  # pylint: disable=import-outside-toplevel
  import tensorflow as tf  # pylint: disable=import-outside-toplevel,unused-import
  from tensorflow.python.client import session as session_lib  # pylint: disable=import-outside-toplevel
  from tensorflow.python.ops import control_flow_ops  # pylint: disable=import-outside-toplevel
  from tensorflow.python.ops import variables as variables_lib  # pylint: disable=import-outside-toplevel
  original = variables_lib.variables_initializer
  # restore without a file: the recording run had no variables to record (nothing to give either)
  values = dict(np.load(values_path)) if mode == "restore" and os.path.exists(values_path) else {}
  recorded = {}  # graph -> [(the variables an init op initializes, an op telling whether they are)]
  state = {"done": False}

  def variables_initializer(var_list, name="init"):
    var_list = list(var_list)
    if mode == "restore":
      kept, assigns = [], []
      for v in var_list:
        value = values.get(v.op.name)
        if value is not None and list(value.shape) == v.shape.as_list():
          assigns.append(v.assign(value.astype(v.dtype.base_dtype.as_numpy_dtype)).op)
        else:
          kept.append(v)
      if assigns:
        return control_flow_ops.group(original(kept), *assigns, name=name)
      return original(var_list, name=name)
    op = original(var_list, name=name)
    if var_list and not op.graph.finalized:
      # Scaffold / MonitoredSession run it inside a group of their own: ask the variables instead.
      done = tf.stack([tf.compat.v1.is_variable_initialized(v) for v in var_list])
      recorded.setdefault(op.graph, []).append((var_list, done))
    return op

  variables_lib.variables_initializer = variables_initializer
  if mode != "record":
    return
  original_run = session_lib.BaseSession.run

  def run(self, fetches, *args, **kwargs):
    result = original_run(self, fetches, *args, **kwargs)
    if not state["done"]:
      for var_list, done in recorded.get(self.graph, ()):
        if original_run(self, done).all():
          state["done"] = True
          # a finalized graph (an estimator's) takes no new read ops: fetch the variables themselves
          got = original_run(self, [v if self.graph.finalized or not hasattr(v, "value") else v.value()
                                    for v in var_list])
          np.savez(values_path, **{v.op.name: value for v, value in zip(var_list, got)})
          break
    return result

  session_lib.BaseSession.run = run


def install_timing(path):
  """Records when TensorFlow finished importing and each `Session.run` (start, seconds); writes JSON at exit.

  benchmarks/vs_tf115.py sets TF1CLIP_STEP_TIMES=path for both sides: time to the first `sess.run`, graph build
  (TensorFlow imported -> first run) and per-call times, measured the same way on TF 1.15 and under tf1clip.
  """
  import atexit  # pylint: disable=import-outside-toplevel
  import json  # pylint: disable=import-outside-toplevel
  import time  # pylint: disable=import-outside-toplevel
  from tensorflow.python.client import session as session_lib  # pylint: disable=import-outside-toplevel
  record = {"imported": time.time(), "runs": []}
  inner = session_lib.BaseSession.run

  def run(self, *args, **kwargs):
    start = time.time()
    try:
      return inner(self, *args, **kwargs)
    finally:
      record["runs"].append([start, time.time() - start])

  session_lib.BaseSession.run = run

  def write():
    with open(path, "w") as f:
      json.dump(record, f)

  atexit.register(write)


def main(argv):
  if len(argv) < 4 or argv[0] not in ("run", "python") or argv[1] not in ("record", "restore"):
    sys.stderr.write("usage: compare_init.py {run|python} {record|restore} VALUES.npz script.py [args...]\n")
    return 2
  how, mode, values_path, script, args = argv[0], argv[1], argv[2], argv[3], argv[4:]
  os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
  if how == "run":
    from tf1clip.compat import v1  # pylint: disable=import-outside-toplevel,unused-import
  install(mode, values_path)
  if os.environ.get("TF1CLIP_STEP_TIMES"):
    install_timing(os.environ["TF1CLIP_STEP_TIMES"])
  if how == "run":
    from tf1clip.compat import runner  # pylint: disable=import-outside-toplevel
    return runner.run_script(script, args)
  return run_as_python(script, args)


def run_as_python(script, args):
  """Runs `script` as `python script *args` would, in this process; returns its exit status.

  (tools.seeded_run's plain-python mode uses it too; it lives here because this file must also run alone,
  under TF 1.15's Python, where tf1clip is not installed.)
  """
  sys.argv = [script] + list(args)
  sys.path[0] = os.path.dirname(os.path.realpath(script))
  try:
    runpy.run_path(script, run_name="__main__")
  except SystemExit as e:
    if e.code is None:
      return 0
    if isinstance(e.code, int):
      return e.code
    sys.stderr.write("%s\n" % (e.code,))
    return 1
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
