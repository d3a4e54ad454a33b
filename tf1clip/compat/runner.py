"""`tf1clip run script.py [args...]` (and `-m module`, `-c code`): run legacy TF1 code unchanged, as python would.

What the script sees is what `python script.py` gives it: `sys.argv == [script, *args]`, `__name__ ==
"__main__"` (so `tf.app.run()` finds `main` and `tf.test.main()` finds the tests), an absolute
`__file__`, the script's directory as `sys.path[0]`, its exit status (a `SystemExit` code; 1 and a
traceback for an uncaught exception; 1 and the message for a syntax error; 2 for a file that cannot be
opened). The traceback shows the user's frames, not the runner's.

The one difference: `import tensorflow` in the script and in the user's modules next to it gives the
TF1 API (compat.v1, through the compat.importer hook); TensorFlow is imported when the script first
imports it, with `TF_USE_LEGACY_KERAS=1` set beforehand. NumPy answers the NumPy 1.x names the
script may use (`np.int`, `np.NaN`, `np.asscalar`, ragged `np.array`, ...; compat.numpy_legacy) and the
SciPy 1.1 names (`scipy.misc.imread`, ...; compat.scipy_legacy), each with one DeprecationWarning.

Data flow: compat.v1 <- compat.importer <- compat.runner <- cli.
"""

import builtins
import importlib.machinery
import importlib.util
import os
import sys
import traceback
import types

from tf1clip.compat import children
from tf1clip.compat import deprecation_notices
from tf1clip.compat import importer as importer_lib
from tf1clip.compat import numpy_legacy
from tf1clip.compat import python_legacy
from tf1clip.compat import quiet
from tf1clip.compat import scipy_legacy
from tf1clip.compat import surface

_PLUMBING = frozenset(os.path.normcase(os.path.abspath(f)) for f in (__file__, importer_lib.__file__))
_TF1CLIP_DIR = os.path.normcase(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _is_not_provided_error(exception):
  """True for the errors that name an unsupported TF1 symbol (tf1clip's own and tf1clip.contrib's)."""
  kinds = (surface.NotProvidedError, surface.NotProvidedImportError)
  catalog = sys.modules.get("tf1clip.contrib.catalog")  # loaded if the script touched tf.contrib
  if catalog is not None:
    kinds += (catalog.ContribNotProvidedError,)
  return isinstance(exception, kinds)


def run_script(script_path, script_args):
  """Runs a Python script as `python script_path *script_args` would, with the TF1 API for `tensorflow`.

  Args:
    script_path: path of the script, as the user typed it (becomes `sys.argv[0]`).
    script_args: the script's arguments (`sys.argv[1:]`).

  Returns:
    The process exit status python would have given.
  """
  # TensorFlow reads this when it is first asked for Keras; nothing has asked yet.
  os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
  path = os.path.abspath(script_path)
  try:
    with open(path, "rb") as f:
      source = f.read()
  except OSError as e:
    print("tf1clip run: can't open file %r: [Errno %s] %s" % (path, e.errno, e.strerror),
          file=sys.stderr)
    return 2
  try:
    code = compile(source, path, "exec", dont_inherit=True)
  except (SyntaxError, ValueError) as e:
    if isinstance(e, ValueError):  # null bytes: python reports them as a SyntaxError too
      e = SyntaxError("source code cannot contain null bytes")
    traceback.print_exception(type(e), e, None)
    return 1

  script_dir = os.path.dirname(os.path.realpath(path))
  sys.argv = [script_path] + list(script_args)
  _set_path0(script_dir)  # python puts the script's directory there (and not the current one)
  prepare(script_dir)
  main = types.ModuleType("__main__")
  main.__dict__.update(
      __file__=path, __builtins__=builtins, __package__=None, __spec__=None, __cached__=None,
      __loader__=importlib.machinery.SourceFileLoader("__main__", path))
  sys.modules["__main__"] = main
  return _run_as_main(lambda: exec(code, main.__dict__))  # pylint: disable=exec-used


def run_module(module_name, module_args):
  """Runs a module as `python -m module_name *module_args` would, with the TF1 API for `tensorflow`.

  Python's -m semantics: the current directory first on sys.path, the module run as `__main__` with its
  package set (so `from . import x` works), `sys.argv[0]` the module's file. The package's own modules
  (everything under the current directory that is not an installation) get the TF1 API.

  Args:
    module_name: the dotted module name (a package runs its `__main__`).
    module_args: the module's arguments (`sys.argv[1:]`).

  Returns:
    The process exit status python would have given (1 and python's message for a missing module).
  """
  import runpy  # pylint: disable=import-outside-toplevel
  cwd = os.getcwd()
  _set_path0(cwd)
  prepare(cwd)
  sys.argv = ["-m"] + list(module_args)  # runpy puts the module's file here, as python -m does
  try:
    importlib.util.find_spec(module_name.split(".")[0])
    spec_ok = importlib.util.find_spec(module_name) is not None
  except (ImportError, ValueError):
    spec_ok = False
  if not spec_ok:
    print("%s: No module named %s" % (sys.executable, module_name), file=sys.stderr)
    return 1
  return _run_as_main(lambda: runpy.run_module(module_name, run_name="__main__", alter_sys=True))


def run_command(code, command_args):
  """Runs `code` as `python -c code *command_args` would (sys.argv[0] "-c", "" first on sys.path)."""
  cwd = os.getcwd()
  sys.argv = ["-c"] + list(command_args)
  _set_path0("")
  prepare(cwd, main_is_legacy=True)
  main = sys.modules["__main__"] = types.ModuleType("__main__")
  main.__dict__.update(__builtins__=builtins, __package__=None, __spec__=None, __loader__=None)
  try:
    compiled = compile(code, "<string>", "exec", dont_inherit=True)
  except SyntaxError as e:
    traceback.print_exception(type(e), e, None)
    return 1
  return _run_as_main(lambda: exec(compiled, main.__dict__))  # pylint: disable=exec-used


def prepare(legacy_root, main_is_legacy=False):
  """Everything the runner changes in this process before legacy code runs; returns the importer.

  `import tensorflow` from files under `legacy_root` gets the TF1 API (compat.importer), NumPy and SciPy
  answer the names and behaviour of the NumPy 1.x / SciPy 1.1 the code expects (for that code), and
  TensorFlow will pick tf-keras. Used by `tf1clip run` (script, -m, -c), `tf1clip exec`'s children and
  `%load_ext tf1clip`.

  Args:
    legacy_root: the directory whose files are the user's code.
    main_is_legacy: also treat file-less `__main__` code (-c, notebook cells) as the user's.
  """
  os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
  quiet.install()  # TensorFlow's C++ start-up lines off stderr (TF1CLIP_TF_LOG=1 keeps them)
  if not quiet.verbose():
    deprecation_notices.install()  # only the deprecation notices TF 1.15 printed, once each
  importer = importer_lib.LegacyImporter(legacy_root, main_is_legacy=main_is_legacy)
  importer.install()
  # np.int, np.NaN, np.asscalar, ... and ragged np.array as the NumPy 1.x the script expects (for the
  # script's own files); scipy.misc.imread & co. as the SciPy 1.1 it imported.
  numpy_legacy.install(importer.is_legacy_code)
  scipy_legacy.install()
  python_legacy.install()  # collections.Mapping & co., removed in Python 3.10
  children.install(legacy_root, main_is_legacy)  # "spawn" / "forkserver" workers get the same facade
  return importer


def _set_path0(entry):
  if sys.path:
    sys.path[0] = entry
  else:
    sys.path.insert(0, entry)


def _run_as_main(execute):
  """Runs `execute()` as python runs `__main__`: its exit status, tracebacks without tf1clip's frames."""
  try:
    execute()
  except SystemExit as e:
    return _exit_status(e)
  except BaseException as e:  # pylint: disable=broad-except
    _report_uncaught(e)
    return 130 if isinstance(e, KeyboardInterrupt) else 1
  return 0


def _exit_status(exit_exception):
  """The status python gives a `SystemExit`: its int code, 0 for None, else 1 after printing the code."""
  code = exit_exception.code
  if code is None:
    return 0
  if isinstance(code, int):
    return code
  print(code, file=sys.stderr)
  return 1


def _report_uncaught(exception):
  """Prints the exception through sys.excepthook, as python does, without tf1clip's own frames."""
  seen = set()
  pending = [exception]
  while pending:
    e = pending.pop()
    if e is None or id(e) in seen:
      continue
    seen.add(id(e))
    # The error names the symbol at the user's line; the frames of tf1clip that raised it add nothing.
    hide_all = _is_not_provided_error(e)
    e.__traceback__ = _without_frames(e.__traceback__, hide_all)
    pending += [e.__cause__, e.__context__]
  sys.excepthook(type(exception), exception, exception.__traceback__)


def _without_frames(tb, hide_all_of_tf1clip):
  """A copy of the traceback chain `tb` without the runner's frames (or any of tf1clip's)."""
  kept = []
  while tb is not None:
    filename = os.path.normcase(os.path.abspath(tb.tb_frame.f_code.co_filename))
    hidden = filename in _PLUMBING or (
        hide_all_of_tf1clip and filename.startswith(_TF1CLIP_DIR + os.sep))
    if not hidden:
      kept.append(tb)
    tb = tb.tb_next
  rebuilt = None
  for t in reversed(kept):
    rebuilt = types.TracebackType(rebuilt, t.tb_frame, t.tb_lasti, t.tb_lineno)
  return rebuilt
