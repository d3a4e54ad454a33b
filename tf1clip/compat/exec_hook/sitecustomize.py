"""`tf1clip exec`'s hook: every Python process the command starts runs its code as `tf1clip run` would.

`tf1clip exec -- COMMAND` puts this folder first on PYTHONPATH and sets TF1CLIP_EXEC_ROOT; Python imports
`sitecustomize` at start-up, so each Python child (a shell script's `python train.py`, a console-script entry
point, `subprocess.run([sys.executable, ...])`, multiprocessing's spawned workers) calls compat.runner.prepare:
`import tensorflow` in the user's files (under TF1CLIP_EXEC_ROOT) gets the TF1 API, NumPy and SciPy the legacy
names. Without TF1CLIP_EXEC_ROOT (an unrelated Python that inherited PYTHONPATH) and in a Python without
tf1clip it does nothing. Whatever sitecustomize the environment had is run afterwards, as before.
"""

import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


def _activate():
  root = os.environ.get("TF1CLIP_EXEC_ROOT")
  if not root:
    return
  try:
    from tf1clip.compat import runner  # pylint: disable=import-outside-toplevel
  except ImportError:
    return  # another interpreter (no tf1clip installed): leave it alone
  runner.prepare(root, main_is_legacy=True)


def _chain():
  """Runs the environment's own sitecustomize, which this module shadows."""
  others = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
  spec = importlib.machinery.PathFinder.find_spec("sitecustomize", others)
  if spec is not None and spec.loader is not None:
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


_activate()
_chain()
