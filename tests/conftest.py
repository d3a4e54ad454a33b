"""Shared test fixtures: one fresh tf.Graph per graph-mode test, quiet TF logs, hypothesis profile."""

import ast
import inspect
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
# The test process looks like the process `tf1clip run` makes for a legacy script: TF1 layers and RNN
# cells come from tf-keras. It must be set before TensorFlow is imported. Tests that need Keras 3 import
# `keras` directly; tests that need a process without it run a subprocess.
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

import hypothesis
import pytest

from tf1clip.compat import quiet

# TensorFlow's C++ start-up lines (printed by every test process, below pytest's pass line) go, as under
# `tf1clip run`; TF1CLIP_TF_LOG=1 keeps them.
quiet.install()

import tensorflow as tf  # pylint: disable=g-import-not-at-top,wrong-import-position

# TF graph construction is slow compared with hypothesis' default deadline.
hypothesis.settings.register_profile(
    "tf1clip", deadline=None, max_examples=30,
    suppress_health_check=[hypothesis.HealthCheck.too_slow])
hypothesis.settings.load_profile("tf1clip")


@pytest.fixture
def graph():
  """A fresh default tf.Graph (graph mode), as TF1 code builds."""
  g = tf.Graph()
  with g.as_default():
    yield g


@pytest.fixture
def sess(graph):
  """A tf.compat.v1.Session on the fresh graph."""
  with tf.compat.v1.Session(graph=graph) as s:
    yield s


# --- Oracle tests (tests/oracle/harness.py), wherever they live under tests/ --------------------------------------
# Every `run_both(...)` call of a test module whose argument is a module-level snippet (a name, or names joined by
# `+`) and that passes no `shared=` folder is registered for the batch (one TF 1.15 process and one `tf1clip run`
# process for all of them), unless the snippet ends its process (finish(), os._exit, sys.exit, tf.app.run) or
# changes process-wide state (eager execution, resource variables by default, reset_default_graph, a session's
# device_count, which TensorFlow fixes for the process). Under pytest-xdist the workers share one run of the batch
# through a folder beside their pytest temporary folders (harness._shared_batch), so it runs once per session
# however the tests are distributed.



_PROCESS_WIDE = ("finish()", "os._exit", "sys.exit", "tf.app.run", "enable_eager_execution", "device_count",
                 "reset_default_graph", "enable_resource_variables", "ORACLE_OUT")


def _names(node):
  """The module-level names an argument adds up (`SNIPPET`, `BUILD + RUN`), or None for anything else."""
  if isinstance(node, ast.Name):
    return [node.id]
  if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
    left, right = _names(node.left), _names(node.right)
    return left + right if left is not None and right is not None else None
  return None


def batchable_snippets(module):
  """The snippets of `module`'s run_both calls that may run in the shared batch."""
  found = []
  for node in ast.walk(ast.parse(inspect.getsource(module))):
    if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "run_both" and len(node.args) == 1
            and all(k.arg == "timeout" for k in node.keywords)):
      continue
    names = _names(node.args[0])
    parts = [getattr(module, n, None) for n in names or ()]
    if not parts or not all(isinstance(p, str) for p in parts):
      continue
    snippet = "".join(parts)
    if not any(marker in snippet for marker in _PROCESS_WIDE):
      found.append(snippet)
  return found


def pytest_collection_modifyitems(session, config, items):
  del session, config
  import harness  # pylint: disable=import-outside-toplevel
  seen = set()
  for item in items:
    module = getattr(item, "module", None)
    if module is None or module.__name__ in seen:
      continue
    seen.add(module.__name__)
    for index, snippet in enumerate(batchable_snippets(module)):
      harness.register_batch("%s_%d" % (module.__name__, index), snippet)


@pytest.fixture(scope="session", autouse=True)
def _shared_batch_folder(request, tmp_path_factory):
  """Under xdist: <the session's pytest temporary root>/oracle-batch (pytest keeps the last few and removes the
  rest, as for tmp_path)."""
  if hasattr(request.config, "workerinput"):
    import harness  # pylint: disable=import-outside-toplevel
    harness._BATCH["folder"] = str(tmp_path_factory.getbasetemp().parent / "oracle-batch")  # pylint: disable=protected-access
