"""Oracle tests: which snippets share one process a side (harness.register_batch), and on which xdist worker.

Every `run_both(...)` call of a test module whose argument is a module-level snippet (a name, or names joined by
`+`) and that passes no `shared=` folder is registered for the batch, unless the snippet ends its process
(finish(), os._exit, sys.exit, tf.app.run) or changes process-wide state (eager execution, reset_default_graph, a
session's device_count, which TensorFlow fixes for the process). The tests of a module with a registered snippet
join the xdist group "oracle-batch", so that with `--dist loadgroup` (the Makefile's) one worker runs the whole
batch once.
"""

import ast
import inspect

import pytest

import harness

_PROCESS_WIDE = ("finish()", "os._exit", "sys.exit", "tf.app.run", "enable_eager_execution", "device_count",
                 "reset_default_graph", "ORACLE_OUT")


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
  seen = {}
  for item in items:
    module = getattr(item, "module", None)
    if module is None:
      continue
    if module.__name__ not in seen:
      seen[module.__name__] = batchable_snippets(module)
      for index, snippet in enumerate(seen[module.__name__]):
        harness.register_batch("%s_%d" % (module.__name__, index), snippet)
    if seen[module.__name__]:
      item.add_marker(pytest.mark.xdist_group("oracle-batch"))
