"""The installed TensorFlow's (and tf-keras') public API, read from their generated sources without importing them.

TensorFlow 2.21 builds every public namespace (`tf.compat.v1.nn`, `tf.compat.v1.train`, ...) as a generated
`__init__.py` of one-line `from <module> import <name> [as <alias>]` statements under `tensorflow/_api/v2/`;
tf-keras does the same under `tf_keras/api/_v1/`. Parsing those files (once per namespace, on first use)
answers "does `tf.compat.v1.nn.dynamic_rnn` exist?" in microseconds, where importing TensorFlow takes
seconds and prints log lines. `tf1clip check` asks this index; the runner and the facade ask the real
modules, and tests/test_check_project.py holds the two to the same answers.

An attribute of a namespace is one of:
  NAMESPACE  a generated namespace (a sub-directory with its own `__init__.py`): looked into further;
  MODULE     a real module bound into the namespace (`tf.flags` is absl's flags): anything below it is
             taken as existing, as the index cannot see into hand-written modules;
  OBJECT     a function, class or constant: what a script uses; its own attributes are not looked up.

Data flow: tools.api_index <- tools.check <- tools.check_project <- cli (static side of DESIGN.md's
compat layer; nothing here imports TensorFlow).
"""

import ast
import importlib.util
import os

# Generated API directories of the libraries that serve a TF1 namespace (surface.LIBRARY_NAMESPACES, when
# the facade serves one): namespace below `tf.` -> (package, path of its v1 API below the package).
LIBRARY_API_DIRS = {
    "estimator": ("tensorflow_estimator", ("_api", "v1", "estimator")),
}

NAMESPACE = "namespace"
MODULE = "module"
OBJECT = "object"

# The facade's module object itself is replaced at import by these assignments in the generated
# `__init__.py` (e.g. `_current_module.app.flags = flags`); the index follows them too.
_CURRENT_MODULE = "_current_module"


def package_dir(name):
  """The directory of an installed top-level package, found without importing it (None if absent).

  Args:
    name: a top-level package name such as "tensorflow".

  Returns:
    The package's directory, or None when it is not installed.
  """
  try:
    spec = importlib.util.find_spec(name)
  except (ImportError, ValueError):
    return None
  if spec is None or not spec.submodule_search_locations:
    return None
  return list(spec.submodule_search_locations)[0]


class Namespace:
  """One generated API namespace: its bound names, each NAMESPACE / MODULE / OBJECT.

  Args:
    directory: the namespace's directory (holding its generated `__init__.py`).
    site_dir: the directory that holds the top-level packages (to tell real modules from objects).
  """

  def __init__(self, directory, site_dir):
    self.directory = directory
    self._site_dir = site_dir
    self._entries = None
    self._children = {}

  def _module_file_exists(self, dotted):
    base = os.path.join(self._site_dir, *dotted.split("."))
    return os.path.isfile(base + ".py") or os.path.isfile(os.path.join(base, "__init__.py"))

  def entries(self):
    """Name -> kind for every public name of this namespace (parsed on first call)."""
    if self._entries is None:
      self._entries = self._parse()
    return self._entries

  def _parse(self):
    entries = {}
    for name in os.listdir(self.directory):
      if os.path.isfile(os.path.join(self.directory, name, "__init__.py")):
        entries[name] = NAMESPACE
    try:
      with open(os.path.join(self.directory, "__init__.py"), "rb") as f:
        tree = ast.parse(f.read())
    except (OSError, SyntaxError):
      return entries
    local_kinds = {}
    for node in ast.walk(tree):
      if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        for alias in node.names:
          bound = alias.asname or alias.name
          if os.path.isfile(os.path.join(self.directory, alias.name, "__init__.py")):
            kind = NAMESPACE
          elif self._module_file_exists(node.module + "." + alias.name):
            kind = MODULE
          else:
            kind = OBJECT
          local_kinds[bound] = kind
          if not bound.startswith("_") or bound.startswith("__"):
            entries.setdefault(bound, kind)
      elif isinstance(node, ast.Assign) and len(node.targets) == 1:
        self._follow_assignment(node.targets[0], node.value, local_kinds, entries)
      elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
            and len(node.args) == 3 and isinstance(node.args[0], ast.Name)
            and node.args[0].id == _CURRENT_MODULE and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)):
        entries[node.args[1].value] = MODULE  # e.g. the lazily loaded `keras`
    return entries

  def _follow_assignment(self, target, value, local_kinds, entries):
    """`_current_module.app.flags = flags` binds `flags` into the sub-namespace `app`."""
    path = []
    while isinstance(target, ast.Attribute):
      path.append(target.attr)
      target = target.value
    if not (isinstance(target, ast.Name) and target.id == _CURRENT_MODULE and path):
      return
    path.reverse()
    kind = local_kinds.get(value.id, MODULE) if isinstance(value, ast.Name) else MODULE
    if len(path) == 1:
      entries[path[0]] = kind
    else:
      owner = self
      for part in path[:-1]:
        owner = owner.child(part)
        if owner is None:
          return
      owner.entries()[path[-1]] = kind

  def child(self, name):
    """The sub-namespace `name`, or None when `name` is not a generated namespace here."""
    if name not in self._children:
      directory = os.path.join(self.directory, name)
      self._children[name] = (Namespace(directory, self._site_dir)
                              if os.path.isfile(os.path.join(directory, "__init__.py")) else None)
    return self._children[name]


class ApiIndex:
  """Looks dotted names up in the installed TensorFlow's and tf-keras' generated API sources.

  Args:
    tensorflow_dir: TensorFlow's package directory (default: found with importlib, not imported).
    tf_keras_dir: tf-keras' package directory (default: likewise).
  """

  def __init__(self, tensorflow_dir=None, tf_keras_dir=None):
    self.tensorflow_dir = tensorflow_dir or package_dir("tensorflow")
    self.tf_keras_dir = tf_keras_dir or package_dir("tf_keras")
    self._roots = {}
    self._version = None

  @property
  def available(self):
    """True when TensorFlow is installed (the index has something to read)."""
    return self.tensorflow_dir is not None

  def version(self):
    """The installed TensorFlow's version string, read from its metadata ("?" when unknown)."""
    if self._version is None:
      self._version = "?"
      try:
        from importlib import metadata  # pylint: disable=import-outside-toplevel
        self._version = metadata.version("tensorflow")
      except Exception:  # pylint: disable=broad-except
        pass
    return self._version

  def _root(self, key):
    if key not in self._roots:
      if key.startswith("library:"):
        package, below = LIBRARY_API_DIRS[key[len("library:"):]]
        base = package_dir(package)
        parts = list(below)
      elif key.startswith("tf_keras:"):
        base = self.tf_keras_dir
        parts = ["api", "_v1"] + key[len("tf_keras:"):].split(".")
      else:
        base = self.tensorflow_dir
        parts = ["_api", "v2"] + (key.split(".") if key else [])
      self._roots[key] = None
      if base is not None:
        directory = os.path.join(base, *parts)
        if os.path.isfile(os.path.join(directory, "__init__.py")):
          self._roots[key] = Namespace(directory, os.path.dirname(base))
    return self._roots[key]

  def lookup(self, root, parts):
    """Walks `parts` down from a namespace.

    Args:
      root: "compat.v1", "compat.v2" (TensorFlow's namespaces below `tensorflow._api.v2`),
        "tf_keras:keras.__internal__.legacy.layers" (tf-keras' v1 namespaces), or "library:estimator"
        (a LIBRARY_API_DIRS entry).
      parts: the attribute names after the root, e.g. ["nn", "dynamic_rnn", "__doc__"].

    Returns:
      (depth, kind): the walk stopped after `depth` of `parts`, at a `kind` (NAMESPACE for the root).
      kind OBJECT or MODULE means every part exists (their attributes are not looked up; `depth`
      covers the object, or the module and the one attribute below it the script uses); NAMESPACE
      with depth < len(parts) means parts[depth] is missing, unless it is a dunder. None when the root namespace is not installed.
    """
    namespace = self._root(root)
    if namespace is None:
      return None
    kind = NAMESPACE
    for i, part in enumerate(parts):
      if part.startswith("__") and part.endswith("__"):
        return i, kind  # `tf.nn.__doc__` is a use of tf.nn
      entry = namespace.entries().get(part)
      if entry is None:
        return i, kind
      kind = entry
      if entry == OBJECT:
        return i + 1, kind
      if entry == MODULE:  # name the module's attribute the script uses; it is taken as existing
        return min(i + 2, len(parts)), kind
      namespace = namespace.child(part)
      if namespace is None:
        return i + 1, MODULE
    return len(parts), kind

  def real_module_depth(self, parts):
    """How far `parts` name real modules below `tensorflow/` (the facade serves `tf.python...` from them).

    Args:
      parts: e.g. ["python", "ops", "array_ops", "concat"].

    Returns:
      (depth, complete): `depth` parts are packages or modules (`python.ops.array_ops` -> 3); complete is
      True when every part exists, the ones after a `.py` module taken as its attributes.
    """
    if self.tensorflow_dir is None:
      return 0, False
    path = self.tensorflow_dir
    for i, part in enumerate(parts):
      if os.path.isfile(os.path.join(path, part + ".py")):
        return i + 1, True
      path = os.path.join(path, part)
      if not os.path.isdir(path):
        return i, False
    return len(parts), True
