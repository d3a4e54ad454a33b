"""`multiprocessing` children started with "spawn" or "forkserver" get the TF1 facade their parent has.

A "fork" child is a copy of the parent, facade included. "spawn" (what CUDA users must use) and "forkserver"
(Python 3.14's default on Linux) start a new interpreter, `python -c 'from multiprocessing.spawn import
spawn_main; spawn_main(...)'`, which re-imports the script as `__mp_main__` and unpickles the task: without
this module its `import tensorflow` got TensorFlow 2.21 ("module 'tensorflow' has no attribute
'placeholder'"). Every such start goes through `multiprocessing.util.spawnv_passfds`; `install` wraps it so
the child's `-c` program first calls `enter` (compat.runner.prepare with the parent's legacy root), then
multiprocessing's own code. multiprocessing's resource tracker and any other child are started unchanged.
"""

import os
import sys

# The `-c` programs of a spawned worker and of the fork server (multiprocessing.spawn / .forkserver).
_WORKER_STARTS = ("from multiprocessing.spawn import spawn_main", "from multiprocessing.forkserver import main")
_state = {"installed": None}


def install(legacy_root, main_is_legacy):
  """From now on, spawned and fork-server children prepare the facade for `legacy_root` (idempotent)."""
  from multiprocessing import util  # pylint: disable=import-outside-toplevel
  _state["installed"] = (os.path.abspath(legacy_root), bool(main_is_legacy))
  if getattr(util.spawnv_passfds, "_tf1clip_children", False):
    return
  start = util.spawnv_passfds

  def spawnv_passfds(path, args, passfds):
    return start(path, with_facade(args), passfds)

  spawnv_passfds._tf1clip_children = True  # pylint: disable=protected-access
  util.spawnv_passfds = spawnv_passfds


def with_facade(args):
  """`args` of a child's command line, its `-c` program prefixed by `enter` when it starts a worker."""
  args = list(args)
  if _state["installed"] is None or "-c" not in args:
    return args
  at = args.index("-c") + 1
  if at < len(args) and args[at].startswith(_WORKER_STARTS):
    root, main_is_legacy = _state["installed"]
    args[at] = "from tf1clip.compat import children; children.enter(%r, %r); %s" % (
        root, main_is_legacy, args[at])
  return args


def enter(legacy_root, main_is_legacy):
  """In the child, before multiprocessing's code: the facade, unless a `tf1clip exec` hook already set it."""
  from tf1clip.compat import importer, runner  # pylint: disable=import-outside-toplevel
  if not any(isinstance(finder, importer.LegacyImporter) for finder in sys.meta_path):
    runner.prepare(legacy_root, main_is_legacy=main_is_legacy)
