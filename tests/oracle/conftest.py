"""Oracle tests: which snippets share one process a side (harness.register_batch), and on which xdist worker.

A test module whose one comparison is `run_both(SNIPPET)` (no `shared=` folder, one snippet) and whose snippet
neither ends its process (finish(), os._exit, sys.exit, tf.app.run) nor changes process-wide state (eager
execution, reset_default_graph, a session's device_count, which TensorFlow fixes for the process) is registered
for the batch, and its tests join the xdist group "oracle-batch", so that with `--dist loadgroup` (the
Makefile's) one worker runs the whole batch once.
"""

import inspect
import re

import pytest

import harness

_ONE_COMPARISON = re.compile(r"run_both\(SNIPPET(\s*,\s*timeout=\w+)?\)")
_PROCESS_WIDE = ("finish()", "os._exit", "sys.exit", "tf.app.run", "enable_eager_execution", "device_count",
                 "reset_default_graph", "ORACLE_OUT")


def _batchable(module):
  snippet = getattr(module, "SNIPPET", None)
  if not isinstance(snippet, str):
    return False
  source = inspect.getsource(module)
  calls = re.findall(r"run_both\(", source)
  return (len(calls) == 1 and _ONE_COMPARISON.search(source) is not None and
          not any(marker in snippet for marker in _PROCESS_WIDE))


def pytest_collection_modifyitems(session, config, items):
  del session, config
  for item in items:
    module = getattr(item, "module", None)
    if module is not None and _batchable(module):
      harness.register_batch(module.__name__, module.SNIPPET)
      item.add_marker(pytest.mark.xdist_group("oracle-batch"))
