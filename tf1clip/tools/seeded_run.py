"""Run one script with a fixed seed, under `tf1clip run` or as plain `python` would: `tf1clip upgrade --check-run`.

`python -m tf1clip.tools.seeded_run {run|python} SEED script.py [args...]` seeds Python's `random`, NumPy
and the TF1 default graph (`tf.set_random_seed`) before the script's first line, so an original script run
by tf1clip's runner and its upgraded copy run by the interpreter draw the same initial weights even when
the script sets no seed itself. A graph the script (or a library such as tf.estimator, which builds its
own graph per train/evaluate/export and sets its seed from `RunConfig.tf_random_seed`, None by default)
leaves without a graph-level seed reads SEED as its seed, so those graphs draw the same weights too, and
random ops still have a seed when TF_DETERMINISTIC_OPS is on (they would raise otherwise). Both modes import tf1clip's TF1 facade first (the upgraded script imports
it anyway; the runner hands it to `import tensorflow`), so the default graph they seed is the one the
script builds in.

In `python` mode, $TF1CLIP_MODULE_REDIRECTS (JSON {top-level module: path of its upgraded file or package},
written by `tf1clip upgrade --check-run` for the program's own modules it upgraded alongside) makes those names
import from the upgraded copies, whatever PYTHONPATH or the script's `sys.path` edits say.

Data flow: compat.runner + compat.v1 <- tools.seeded_run <- tools.upgrade_cli (a subprocess per run).
"""

import os
import sys


def _default_graph_seed(seed):
  """Makes `seed` the graph-level seed of every graph whose own seed is None (set or never set)."""
  from tensorflow.python.framework import ops  # pylint: disable=import-outside-toplevel

  def get(graph):
    return seed if graph._seed is None else graph._seed  # pylint: disable=protected-access

  def put(graph, value):
    graph._seed = value  # pylint: disable=protected-access

  ops.Graph.seed = property(get, put, doc=ops.Graph.seed.__doc__)


class _Redirects:
  """A sys.meta_path finder: the listed top-level modules from their upgraded copies (their packages' submodules
  follow through the package's __path__)."""

  def __init__(self, redirects):
    self._redirects = redirects

  def find_spec(self, fullname, path=None, target=None):  # pylint: disable=unused-argument
    where = self._redirects.get(fullname)
    if where is None:
      return None
    import importlib.machinery  # pylint: disable=import-outside-toplevel
    return importlib.machinery.PathFinder.find_spec(fullname, [os.path.dirname(where)])


def main(argv):
  """Runs the script; returns its exit status.

  Args:
    argv: [mode, seed, script, *script_args] with mode "run" (tf1clip's runner) or "python".

  Returns:
    The script's exit status.
  """
  if len(argv) < 3 or argv[0] not in ("run", "python"):
    print("usage: python -m tf1clip.tools.seeded_run {run|python} SEED script.py [args...]",
          file=sys.stderr)
    return 2
  mode, seed, script, args = argv[0], int(argv[1]), argv[2], argv[3:]
  os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
  import random  # pylint: disable=import-outside-toplevel
  import numpy as np  # pylint: disable=import-outside-toplevel
  random.seed(seed)
  np.random.seed(seed)
  from tf1clip.compat import v1 as tf  # pylint: disable=import-outside-toplevel
  tf.set_random_seed(seed)
  _default_graph_seed(seed)
  if mode == "run":
    from tf1clip.compat import runner  # pylint: disable=import-outside-toplevel
    return runner.run_script(script, args)
  redirects = os.environ.get("TF1CLIP_MODULE_REDIRECTS")
  if redirects:
    import json  # pylint: disable=import-outside-toplevel
    sys.meta_path.insert(0, _Redirects(json.loads(redirects)))
  from tf1clip.tools import compare_init  # pylint: disable=import-outside-toplevel
  return compare_init.run_as_python(script, args)


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
