"""What every oracle snippet has before its first line, on TF 1.15 (Python 3.7) and under `tf1clip run` alike.

Kept Python-3.7 and TF-1.15 compatible: the harness (tests/oracle/harness.py) pastes this file's text above the
snippet, so both sides run one and the same file. A snippet records what the two sides must agree on with:

  report(key, value)          a value: numbers and arrays (compared allclose), strings, lists, None;
  with case(key): ...         runs a block; an exception is recorded as key + ":error" = its class name
                              (so "both raise TypeError" is compared, and the run goes on with the next case);
  init_from_numpy(sess, seed) gives every global variable the same values on both sides (random initializers
                              differ between TF versions): seeded by the variable's name, shape-sized;
  report_variables(key)       [(name, shape)] of the global variables, sorted;
  report_checkpoint(sess, key)  saves with tf.train.Saver and reports the checkpoint's keys and shapes;
  finish()                    writes the results and ends the process at once (skips a slow teardown, such as
                              TF 1.15's SyncReplicasOptimizer queue runners waiting two minutes at exit).

Results go to the JSON file named by ORACLE_OUT when the process ends (arrays as lists with dtype/shape).
ORACLE_SHARED is a folder both sides of one comparison can read (a TF 1.15 checkpoint, a vocabulary file).
"""
import atexit as _atexit
import contextlib as _contextlib
import json as _json
import os as _os
import zlib as _zlib

import numpy as _np

ORACLE_SHARED = _os.environ.get("ORACLE_SHARED", ".")
_RESULTS = {}


def _plain(value):
  if isinstance(value, bytes):
    return {"__bytes__": value.decode("latin-1")}
  if isinstance(value, (_np.ndarray, _np.generic)):
    arr = _np.asarray(value)
    if arr.dtype.kind in "SUO":
      return {"__strings__": [_plain(x) for x in arr.ravel().tolist()], "shape": list(arr.shape)}
    return {"__nd__": arr.astype(_np.float64).ravel().tolist() if arr.dtype.kind != "b" else
            arr.ravel().tolist(), "dtype": str(arr.dtype), "shape": list(arr.shape)}
  if isinstance(value, dict):
    return {str(k): _plain(v) for k, v in value.items()}
  if isinstance(value, (list, tuple)):
    return [_plain(v) for v in value]
  if value is None or isinstance(value, (bool, int, float, str)):
    return value
  return {"__repr__": type(value).__name__}


def report(key, value):
  if key in _RESULTS:
    raise KeyError("report(%r) twice" % key)
  _RESULTS[key] = _plain(value)


def report_errors(key, cases):
  """report(key, {name: the exception's type name, or "no error"}) for each (name, callable) of `cases`."""
  found = {}
  for name, call in cases:
    try:
      call()
      found[name] = "no error"
    except Exception as e:  # pylint: disable=broad-except
      found[name] = type(e).__name__
  report(key, found)


@_contextlib.contextmanager
def case(key):
  try:
    yield
  except Exception as e:  # pylint: disable=broad-except
    report(key + ":error", type(e).__name__)


def init_from_numpy(sess, seed=0, scale=0.1, var_list=None):
  """Loads seeded values (from the variable's name) into `var_list` (default: every global variable)."""
  import tensorflow as _tf
  # One session.run of every variable's initializer with its initial value fed (what Variable.load does one
  # variable at a time): on a big graph each distinct run call costs a pruning pass, ~1 s each on TF 1.15.
  feeds, initializers = {}, []
  for v in sorted(_tf.compat.v1.global_variables() if var_list is None else var_list, key=lambda v: v.name):
    shape = v.shape.as_list()
    rng = _np.random.RandomState((seed + _zlib.crc32(v.op.name.encode())) % (2 ** 31))
    dtype = v.dtype.base_dtype.as_numpy_dtype
    if v.dtype.base_dtype.is_integer:
      value = _np.zeros(shape, dtype)
    else:
      value = (rng.standard_normal(shape) * scale).astype(dtype)
    initial = v.initializer.inputs[1]
    if initial in feeds:
      raise ValueError("init_from_numpy: %s shares its initial value with another variable" % v.op.name)
    feeds[initial] = value
    initializers.append(v.initializer)
  sess.run(initializers, feed_dict=feeds)


def report_variables(key="variables"):
  import tensorflow as _tf
  report(key, sorted([v.op.name, v.shape.as_list()] for v in _tf.compat.v1.global_variables()))


def report_checkpoint(sess, key="checkpoint", var_list=None):
  import tensorflow as _tf
  path = _os.path.join(_os.getcwd(), "oracle_ckpt_%d" % len(_RESULTS))
  saver = _tf.compat.v1.train.Saver(var_list=var_list)
  saved = saver.save(sess, path)
  report(key, sorted([n, list(s)] for n, s in _tf.train.list_variables(saved)))


def _write():
  out = _os.environ.get("ORACLE_OUT")
  if out:
    with open(out, "w") as f:
      _json.dump(_RESULTS, f)


def finish():
  _write()
  _os._exit(0)


def run_batch(parts_file, snippet_limit=240):
  """Runs many snippets in this one process, each as from a fresh start; reports {"__batch__": {name: record}}.

  `parts_file` is a JSON list of [name, code]. Each snippet gets a fresh default graph and Keras session, its own
  working folder and ORACLE_SHARED subfolder, and a namespace of its own; what it reported becomes its record.
  A snippet that raises (or exits) gets None: the harness then runs it on its own, as without batching. What the
  snippets leave behind is kept alive and the cyclic collector is off: a session dropped with its queue runners
  still waiting would otherwise be closed by the collector in the middle of a later snippet and block there. A
  snippet still running after `snippet_limit` seconds ends the batch: what ran is reported, the rest run alone.
  When the batch is done the process ends at once (results written, nothing torn down).
  """
  import gc
  import threading
  import time
  import traceback
  import tensorflow as _tf
  with open(parts_file) as handle:
    parts = _json.load(handle)
  base = dict(globals())
  root, batch, kept, current = _os.getcwd(), {}, [], {"name": None, "since": None}

  def report_batch():
    _RESULTS.clear()
    _RESULTS["__batch__"] = batch

  def watchdog():
    while True:
      time.sleep(5)
      since = current["since"]
      if since is not None and time.time() - since > snippet_limit:
        print("run_batch: %s ran over %d s; the rest run alone" % (current["name"], snippet_limit), flush=True)
        report_batch()
        _write()
        _os._exit(0)

  threading.Thread(target=watchdog, daemon=True).start()
  gc.disable()
  start = time.time()
  for name, code in parts:
    set_up = time.time()
    _RESULTS.clear()
    for folder in (_os.path.join(root, name), _os.path.join(ORACLE_SHARED, name)):
      _os.makedirs(folder, exist_ok=True)  # ORACLE_SHARED is one folder for both sides
    _os.chdir(_os.path.join(root, name))
    _tf.compat.v1.keras.backend.clear_session()
    _tf.compat.v1.reset_default_graph()
    namespace = dict(base, __name__="__main__", ORACLE_SHARED=_os.path.join(ORACLE_SHARED, name))
    kept.append(namespace)
    path = _os.path.join(root, name, "snippet.py")  # a real file: inspect / AutoGraph read functions' source
    with open(path, "w") as handle:
      handle.write(code)
    current.update(name=name, since=time.time())
    set_up = current["since"] - set_up
    try:
      exec(compile(code, path, "exec"), namespace)  # pylint: disable=exec-used
      batch[name] = dict(_RESULTS)
    except BaseException:  # pylint: disable=broad-except  (SystemExit included: run that snippet alone)
      traceback.print_exc()  # in the side's output, for whoever reads why the snippet ran alone
      batch[name] = None
    print("run_batch: %s %.1f s (set-up %.1f s, at %.0f s)" % (
        name, time.time() - current["since"], set_up, time.time() - start), flush=True)
    current.update(name=None, since=None)
  _os.chdir(root)
  report_batch()
  print("run_batch: all done at %.0f s" % (time.time() - start), flush=True)
  # What the snippets left (sessions, queue-runner and dataset threads) is not torn down: an interpreter exit
  # that waits on one of them cost minutes in some runs. The record is written, the process ends.
  _write()
  _os._exit(0)


def _without_graph_rewrites():
  """Every tf.Session of the snippet runs without Grappler's graph rewrites (unless ORACLE_GRAPPLER=1).

  The rewrites are TensorFlow's own optimizations, meant to leave every value as it was, and they differ
  between 1.15 and 2.21 anyway; what is compared is what the libraries build. They cost about 40% of the
  snippets' run time (each new set of fetches on a big graph is optimized again). A snippet's own config is
  copied, not changed.
  """
  if _os.environ.get("ORACLE_GRAPPLER") == "1":
    return
  from tensorflow.core.protobuf import config_pb2  # pylint: disable=g-import-not-at-top
  from tensorflow.python.client import session as _session  # pylint: disable=g-import-not-at-top
  original = _session.Session.__init__

  def __init__(self, target="", graph=None, config=None):
    copied = config_pb2.ConfigProto()
    if config is not None:
      copied.CopyFrom(config)
    copied.graph_options.rewrite_options.disable_meta_optimizer = True
    original(self, target, graph, copied)

  _session.Session.__init__ = __init__


_without_graph_rewrites()
_atexit.register(_write)
# ---- the snippet follows ----
