"""How `import tensorflow` in a legacy script (and the user's modules next to it) gets the TF1 API.

`tf1clip run` installs a `builtins.__import__` hook. Every `import` statement passes the importing
module's globals to `__import__`, so the hook knows who is asking without inspecting the stack:

- Code whose file lives under the script's directory (the script itself, the user's own modules and
  packages there), except files under site-packages / the Python installation / tf1clip itself, is
  "legacy code": `import tensorflow`, `import tensorflow.compat.v1`, `from tensorflow import keras`,
  `import tensorflow.contrib.slim`, `from tensorflow.contrib.layers import xavier_initializer`, ... are
  answered from the TF1 facade (compat.v1) and tf1clip.contrib.
- Installed libraries written for TensorFlow 1.x (tflearn 0.3, Sonnet 1, GPflow 1, Keras 2.0-2.3, a package
  that requires `tensorflow<2`, one named by `--tf1-package`: compat.tf1_packages) are legacy code too.
- Everyone else (TensorFlow itself, tf-keras, any TF2-era library) goes through the normal import
  and gets the real TensorFlow 2 module. `sys.modules` is never touched, so `sys.modules["tensorflow"]`
  stays the real one and no library can see a `tensorflow.contrib`.
- `install` also installs tf1clip.shims' import hook: the first `import tf_slim` / `import tensorflow_estimator`
  from anyone applies that library's shims first, so it finds the TensorFlow internals it reads where they were.

Limits: `importlib.import_module("tensorflow")` does not go through `__import__` and so returns the real
TensorFlow even in legacy code; code in the script's directory that was vendored from a library (not
under a site-packages folder) is treated as legacy code.

Data flow: compat.surface <- compat.v1 <- compat.importer <- compat.runner <- cli.
"""

import builtins
import importlib
import importlib.util
import os
import site
import sys

from tf1clip.compat import paths
from tf1clip.compat import surface
from tf1clip.compat import tf1_packages

_FACADE = "tf1clip.compat.v1"
_INSTALLATION_FOLDERS = ("site-packages", "dist-packages")


def _real_dir(path):
  return os.path.normcase(os.path.realpath(path))


class LegacyImporter:
  """The `__import__` hook that gives legacy code the TF1 API (see the module docstring).

  Args:
    root: the directory whose Python files are legacy code (the script's directory).
    main_is_legacy: also treat `__main__` code without a file (`-c`, notebook cells) as legacy code.
  """

  def __init__(self, root, main_is_legacy=False):
    self._root = _real_dir(root)
    # `tf1clip run -c CODE` and notebook cells have no file: their `__main__` is legacy code too.
    self._main_is_legacy = main_is_legacy
    self._is_legacy_file = {}
    self._tf1_era_dirs = None  # read on first need: compat.tf1_packages
    self._original_import = None
    import tf1clip  # pylint: disable=import-outside-toplevel
    candidates = [sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(tf1clip.__file__)]
    try:
      candidates += site.getsitepackages() + [site.getusersitepackages()]
    except AttributeError:  # virtualenvs with an old site.py
      pass
    # An installation folder that contains the script's directory would hide the script itself.
    self._library_dirs = tuple(
        d for d in {_real_dir(c) for c in candidates if c}
        if not (self._root + os.sep).startswith(d + os.sep))

  def install(self):
    """Replaces `builtins.__import__` with the hook (idempotent)."""
    importlib.import_module("tf1clip.shims").install_import_hook()
    if self._original_import is None:
      self._original_import = builtins.__import__
      builtins.__import__ = self._import

  def uninstall(self):
    """Restores the `__import__` that was in place before `install`."""
    if self._original_import is not None:
      builtins.__import__ = self._original_import
      self._original_import = None

  def is_legacy_code(self, filename):
    """`is_legacy_file`, plus code with no file (`<string>`, `<ipython-input-...>`) when main is legacy."""
    if self._main_is_legacy and filename.startswith("<"):
      return True
    return self.is_legacy_file(filename)

  def is_legacy_file(self, filename):
    """True when `filename` is the user's code (under the script's directory, not a library).

    Args:
      filename: a module's `__file__`.

    Returns:
      bool.
    """
    cached = self._is_legacy_file.get(filename)
    if cached is None:
      path = _real_dir(filename)
      cached = path.startswith(self._root + os.sep)
      if cached:
        cached = not any(path.startswith(d + os.sep) for d in self._library_dirs)
      if cached:
        below_root = os.path.relpath(path, self._root).split(os.sep)
        cached = not any(part in _INSTALLATION_FOLDERS for part in below_root)
      if not cached:
        cached = self._in_tf1_era_library(path)
      self._is_legacy_file[filename] = cached
    return cached

  def _in_tf1_era_library(self, path):
    """True when `path` is a file of an installed library written for TensorFlow 1.x (compat.tf1_packages)."""
    if self._tf1_era_dirs is None:
      self._tf1_era_dirs = tuple(_real_dir(d) for d in tf1_packages.library_dirs())
    return any(path == d or path.startswith(d + os.sep) for d in self._tf1_era_dirs)

  def _import(self, name, globals=None, locals=None, fromlist=(), level=0):  # pylint: disable=redefined-builtin
    if level == 0 and (name == "tensorflow" or name.startswith("tensorflow.")):
      if globals is None:  # `__import__("tensorflow")` called by hand: ask the caller's frame.
        globals = sys._getframe(1).f_globals  # pylint: disable=protected-access
      filename = globals.get("__file__")
      if isinstance(filename, str) and self.is_legacy_file(filename):
        return self.legacy_import(name, fromlist)
      if filename is None and self._main_is_legacy and globals.get("__name__") == "__main__":
        return self.legacy_import(name, fromlist)
    return self._original_import(name, globals, locals, fromlist, level)

  def legacy_import(self, name, fromlist=()):
    """What `import <name>` / `from <name> import <fromlist>` gives legacy code.

    Args:
      name: "tensorflow" or a dotted name below it.
      fromlist: the names of a `from ... import` statement (empty for a plain `import`).

    Returns:
      The facade for a plain `import` (bound to the name `tensorflow`, or walked by attribute for
      `import tensorflow.x.y as z`); the module named by `name` for `from ... import`.

    Raises:
      surface.NotProvidedImportError: a TF1 module or name that neither TensorFlow 2.21 nor tf1clip provides.
      ModuleNotFoundError: a module path TensorFlow 1.15 did not have either.
    """
    facade = importlib.import_module(_FACADE)
    module = facade
    parts = name.split(".")[1:]
    for i in range(len(parts)):
      module = self._submodule(module, parts[:i + 1])
    if not fromlist:
      return facade
    for item in fromlist:
      if item == "*":
        continue
      if isinstance(module, paths.PathModule):
        self._path_name(module, name, item)
      else:
        self._submodule(module, parts + [item])
    return module

  @staticmethod
  def _path_name(module, name, item):
    """Checks `from <name> import <item>` of a TF 1.15 module path: tf1clip's refusal becomes the ImportError
    the statement raises (a name TF 1.15's module did not have either gets Python's own ImportError)."""
    try:
      getattr(module, item)
    except surface.NotProvidedError as e:
      raise surface.NotProvidedImportError(str(e), name=name) from None
    except AttributeError:
      pass

  def _submodule(self, parent, parts):
    """`parent.<parts[-1]>`, where parent is the TF1 module `tensorflow.<parts[:-1]>`."""
    dotted = ".".join(parts)
    if paths.is_path("tensorflow." + dotted):
      # A module TF 1.15 had: served by its path (compat.paths), whatever `parent` is.
      return paths.module("tensorflow." + dotted)
    in_contrib = parts[0] == "contrib"
    if in_contrib and len(parts) > 1:
      # tf1clip.contrib's submodules load on import, as tensorflow.contrib's did.
      target = surface.CONTRIB_PACKAGE + "." + ".".join(parts[1:])
      if _module_exists(target):
        return importlib.import_module(target)
    try:
      return getattr(parent, parts[-1])
    except AttributeError as e:
      if type(e) is not AttributeError:
        # A deliberate error that names the symbol (surface.NotProvidedError, or tf1clip.contrib's
        # own): keep its message, as the ImportError an import statement should raise.
        raise surface.NotProvidedImportError(str(e), name="tensorflow." + dotted) from None
    if not in_contrib:
      # tensorflow.python.ops...: TF's real internals, for scripts that reach into them.
      try:
        return importlib.import_module("tensorflow." + dotted)
      except ModuleNotFoundError:
        pass
    suggestion = surface.removed_suggestion(dotted)
    if suggestion is None and (in_contrib or module_paths_area(parts)):
      # TF 1.15 had no such module either: Python's own error, as TF 1.15 gave it.
      raise ModuleNotFoundError("No module named %r" % ("tensorflow." + dotted), name="tensorflow." + dotted)
    raise surface.NotProvidedImportError(
        surface.not_provided_message("tensorflow." + dotted, suggestion), name="tensorflow." + dotted)


def module_paths_area(parts):
  """True when `tensorflow.<parts>` lies in a tree the module-path inventory covers (so its absence is TF 1.15's)."""
  return parts[0] in paths.INVENTORY_TREES


def _module_exists(name):
  try:
    return importlib.util.find_spec(name) is not None
  except ModuleNotFoundError:  # a parent package is missing
    return False
