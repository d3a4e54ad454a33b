"""What one legacy source file uses, and whether `tf1clip run` will run it: the per-file half of `tf1clip check`.

For every TensorFlow symbol a file uses -- `tf.placeholder`, `tf.contrib.rnn.BasicLSTMCell`, a name brought
in by `from tensorflow.contrib.layers import xavier_initializer`, through any alias (`import tensorflow as
tf`, `import tensorflow.compat.v1 as tf`, `import tf1clip.compat.v1 as tf`, `from tensorflow.contrib import
rnn`, `rnn = tf.contrib.rnn`, `getattr(tf, "contrib")`) -- and for every NumPy name NumPy 2 removed, it
gives one of:

  runs unchanged       TensorFlow 2.21's tf.compat.v1 has it; tf1clip passes it through
  provided by tf1clip  tf.contrib (tf1clip.contrib) or a TF1 namespace served from tf-keras
  not supported        the run stops there; the note says what to use instead
  warning              it runs, but differently from TF 1.15 / NumPy 1.x (see tools.hazards)

Verdicts follow what the runner does, not what the name looks like: `import tensorflow.contrib.tpu as tpu`
succeeds under `tf1clip run` (the runner hands out a stand-in module), so the import line runs and `tpu.X`
fails where it is used; `from tensorflow.contrib.tpu import X` fails at the import. A failing use inside a
`try` whose handler catches the error (ImportError for contrib and imports, AttributeError for other names)
is reported but marked guarded, since the script chose a fallback.

Nothing is imported to decide: TF names are looked up in the installed TensorFlow's generated API sources
(tools.api_index), contrib names in tf1clip.contrib.catalog, the rest in compat.surface and tools.hazards.

Data flow: compat.surface + contrib.catalog + tools.hazards + tools.api_index <- tools.check
<- tools.check_project <- cli.
"""

import ast
import collections
import contextlib
import sys

from tf1clip.compat import numpy_legacy
from tf1clip.compat import paths
from tf1clip.compat import scipy_legacy
from tf1clip.tools import api_index
from tf1clip.tools import hazards
from tf1clip.compat import surface
from tf1clip import tf115
from tf1clip.tf115 import module_paths
from tf1clip.contrib import catalog

RUNS = "runs unchanged"
PROVIDED = "provided by tf1clip"
UNSUPPORTED = "not supported"
WARNING = "warning"
STATUSES = (RUNS, PROVIDED, UNSUPPORTED, WARNING)

Finding = collections.namedtuple("Finding", "symbol line count status note kind guarded lines stop_line")
Finding.__new__.__defaults__ = ("use", False, (), None)
Finding.__doc__ = """One symbol a file uses: first line, how often, whether it will run, and why.

kind: "import" (an import statement's module), "from" (a name a `from ... import` takes), "use" (an
attribute), "getattr"
(`getattr(tf, "name")` with a literal name), "numpy", or "call" (a call-site warning).
guarded: the failing use sits in a `try` that catches its error.
lines: every line it is used on.
stop_line: the first line where a failing use is not guarded (where `tf1clip run` stops), else None.
"""

LocalImport = collections.namedtuple("LocalImport", "module level names line")
LocalImport.__doc__ = """An import that may name the project's own code: `import model` / `from .data import x`."""

_TENSORFLOW = "tensorflow"
_FACADE = "tf1clip.compat.v1"
_CONTRIB = "tf1clip.contrib"
_NUMPY = "numpy"
_SCIPY = "scipy"
_IMPORT_ERRORS = frozenset(("ImportError", "Exception", "BaseException"))
_ATTRIBUTE_ERRORS = frozenset(("AttributeError", "Exception", "BaseException"))


def canonical(dotted):
  """Spells a TF1 module path as the `tf.` name a script would use ("tensorflow.compat.v1.nn" -> "tf.nn").

  Args:
    dotted: a dotted name starting with tensorflow, tf1clip.compat.v1, tf or numpy.

  Returns:
    The canonical name ("tf...." or "np....").
  """
  head = dotted.split(".")[0]
  if head == _TENSORFLOW:
    name = "tf" + dotted[len(_TENSORFLOW):]
  elif head == _NUMPY:
    return "np" + dotted[len(_NUMPY):]
  else:
    name = dotted
  if name == _FACADE or name.startswith(_FACADE + "."):
    name = "tf" + name[len(_FACADE):]
  elif name == _CONTRIB or name.startswith(_CONTRIB + "."):  # upgraded code: tf1clip.contrib.rnn...
    below = name.split(".")[2:3]
    if not below or below[0] in catalog.TF115_SUBMODULES or below[0] in catalog.PROVIDED_SUBMODULES:
      name = "tf.contrib" + name[len(_CONTRIB):]  # (not tf1clip.contrib.catalog, tf1clip's own module)
  while name == "tf.compat.v1" or name.startswith("tf.compat.v1."):
    name = "tf" + name[len("tf.compat.v1"):]
  return name


def _is_tracked_module(dotted):
  head = dotted.split(".")[0]
  return head in (_TENSORFLOW, _NUMPY, _SCIPY, "tf1clip")


class _Uses(ast.NodeVisitor):
  """Collects uses of TF1 / NumPy names and local imports from one module's AST, following aliases."""

  def __init__(self):
    self.aliases = {}  # local name -> canonical "tf...." / "np...." name
    self.uses = []  # (symbol, line, kind, guard) ; guard = frozenset of caught exception names
    self.local_imports = []
    self.sys_path_literals = []  # (kind, value): ("cwd", "src") or ("file", "src")
    self._guards = [frozenset()]

  def _use(self, symbol, node, kind="use"):
    if symbol.startswith(("tf.", "np.", "scipy.")):  # not tf1clip's own names (tf1clip.clip_gradients_by_norm)
      self.uses.append((symbol, node.lineno, kind, self._guards[-1]))

  # try/except: which errors a failing use would be caught by.
  def visit_Try(self, node):  # pylint: disable=invalid-name
    caught = set()
    for handler in node.handlers:
      caught |= _handler_names(handler.type)
    self._guards.append(self._guards[-1] | frozenset(caught))
    for statement in node.body:
      self.visit(statement)
    self._guards.pop()
    for part in node.handlers + node.orelse + node.finalbody:
      self.visit(part)

  visit_TryStar = visit_Try  # pylint: disable=invalid-name

  def visit_Import(self, node):  # pylint: disable=invalid-name
    for alias in node.names:
      if not _is_tracked_module(alias.name):
        self.local_imports.append(LocalImport(alias.name, 0, (), node.lineno))
        continue
      symbol = canonical(alias.name)
      if alias.asname:
        self.aliases[alias.asname] = symbol
      else:
        head = alias.name.split(".")[0]
        self.aliases[head] = canonical(head)  # `import tensorflow.contrib.rnn` binds `tensorflow`
        if head == "tf1clip" and alias.name == _FACADE:
          symbol = "tf1clip"  # `import tf1clip.compat.v1` binds the package, not the facade
      if symbol.startswith("tf."):
        self._use(symbol, node, "import")

  def visit_ImportFrom(self, node):  # pylint: disable=invalid-name
    if node.level or not node.module or not _is_tracked_module(node.module):
      self.local_imports.append(LocalImport(node.module or "", node.level,
                                            tuple(a.name for a in node.names), node.lineno))
      return
    if node.module == "tf1clip.compat":
      for alias in node.names:
        if alias.name == "v1":  # `from tf1clip.compat import v1 as tf`
          self.aliases[alias.asname or alias.name] = "tf"
      return
    base = canonical(node.module)
    if base.split(".")[0] not in ("tf", "np", "scipy"):
      return  # tf1clip's own modules
    if base.startswith("tf.") and base != "tf.compat":
      self._use(base, node, "import")
    if base.startswith("scipy."):  # `from scipy.misc import imread` fails (or is served) at the import
      for alias in node.names:
        if alias.name != "*":
          self._use(base + "." + alias.name, node)
    for alias in node.names:
      if alias.name == "*":
        continue
      symbol = canonical(node.module + "." + alias.name)
      self.aliases[alias.asname or alias.name] = symbol
      self._use(symbol, node, "from")

  def chain(self, node):
    """The canonical dotted name of `a.b.c` when `a` is a TF1/NumPy alias, else None."""
    attrs = []
    while isinstance(node, ast.Attribute):
      attrs.append(node.attr)
      node = node.value
    if isinstance(node, ast.Call) and _literal_getattr(node):
      base = self.chain(node.args[0])
      if base is None:
        return None
      attrs.append(node.args[1].value)
    elif isinstance(node, ast.Name) and node.id in self.aliases:
      base = self.aliases[node.id]
    else:
      return None
    return ".".join([base] + attrs[::-1])

  def visit_Attribute(self, node):  # pylint: disable=invalid-name
    symbol = self.chain(node)
    if symbol is None:
      self.generic_visit(node)
    else:
      self._use(canonical(symbol), node, "getattr" if _has_getattr(node) else "use")

  def visit_Name(self, node):  # pylint: disable=invalid-name
    # A bare name bound by `from tensorflow.contrib.rnn import BasicLSTMCell` was judged at the import.
    pass

  def visit_Call(self, node):  # pylint: disable=invalid-name
    if _literal_getattr(node) and len(node.args) == 2:
      symbol = self.chain(node)
      if symbol is not None:
        self._use(canonical(symbol), node, "getattr")
        return
    if _is_sys_path_change(node):
      literal = _path_literal(node.args[-1])
      if literal is not None:
        self.sys_path_literals.append(literal)
    func = self.chain(node.func)
    if func is not None:
      warning = hazards.CALL_WARNINGS.get(canonical(func))
      if warning is not None:
        keyword = warning[0]
        if keyword is None or any(k.arg == keyword for k in node.keywords):
          self._use(canonical(func), node, "call")
    self.generic_visit(node)

  def visit_Assign(self, node):  # pylint: disable=invalid-name
    self.generic_visit(node)
    # `rnn = tf.contrib.rnn` makes `rnn` an alias too; rebinding a name to anything else ends the alias.
    if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
      symbol = self.chain(node.value)
      if symbol is not None:
        self.aliases[node.targets[0].id] = canonical(symbol)
      elif not (isinstance(node.value, ast.Constant) and node.value.value is None):
        # (`tf = None` is the usual fallback of a guarded import: the alias stays.)
        self.aliases.pop(node.targets[0].id, None)


def _handler_names(node):
  if node is None:
    return {"BaseException"}
  if isinstance(node, ast.Tuple):
    return set().union(*(_handler_names(e) for e in node.elts)) if node.elts else set()
  if isinstance(node, ast.Name):
    return {node.id}
  if isinstance(node, ast.Attribute):
    return {node.attr}
  return set()


def _literal_getattr(node):
  return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
          and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
          and isinstance(node.args[1].value, str) and len(node.args) == 2)


def _has_getattr(node):
  while isinstance(node, ast.Attribute):
    node = node.value
  return isinstance(node, ast.Call)


def _is_sys_path_change(node):
  func = node.func
  return (isinstance(func, ast.Attribute) and func.attr in ("append", "insert")
          and isinstance(func.value, ast.Attribute) and func.value.attr == "path"
          and isinstance(func.value.value, ast.Name) and func.value.value.id == "sys" and node.args)


def _path_literal(node):
  """("cwd", "src") for 'src'; ("file", "src") for os.path.join(os.path.dirname(...__file__...), 'src')."""
  if isinstance(node, ast.Constant) and isinstance(node.value, str):
    return ("cwd", node.value)
  if isinstance(node, ast.Call):
    if isinstance(node.func, ast.Attribute) and node.func.attr == "dirname" and _mentions_file(node):
      return ("file", "")
    if isinstance(node.func, ast.Attribute) and node.func.attr in ("join", "abspath", "realpath"):
      if not node.args:
        return None
      first = _path_literal(node.args[0])
      if first is None:
        return None
      rest = []
      for arg in node.args[1:]:
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
          return None
        rest.append(arg.value)
      return (first[0], "/".join([p for p in [first[1]] + rest if p]))
  return None


def _mentions_file(node):
  return any(isinstance(n, ast.Name) and n.id == "__file__" for n in ast.walk(node))


ParsedFile = collections.namedtuple("ParsedFile", "uses local_imports sys_path_literals")


def parse(source, filename="<script>"):
  """What one file's source uses.

  Args:
    source: the file's text (str or bytes).
    filename: its name, for the SyntaxError.

  Returns:
    A ParsedFile: `uses` is a list of (canonical symbol, line, kind, caught exception names) in source
    order; `local_imports` the imports that may name project modules; `sys_path_literals` the literal
    `sys.path.append/insert` arguments.

  Raises:
    SyntaxError: the source does not parse (ValueError for null bytes becomes one too).
  """
  with _deep_recursion():
    try:
      tree = ast.parse(source, filename)
      collector = _Uses()
      collector.visit(tree)
    except ValueError as e:
      raise SyntaxError("source code cannot contain null bytes") from e
    except (RecursionError, MemoryError):
      raise too_deeply_nested(filename) from None
  return ParsedFile(collector.uses, collector.local_imports, collector.sys_path_literals)


# Python's own compiler takes expressions a few thousand levels deep; the default limit of 1000 frames would
# stop the visitor (a few frames per level) well before that.
_RECURSION_LIMIT = 20000


@contextlib.contextmanager
def _deep_recursion():
  previous = sys.getrecursionlimit()
  sys.setrecursionlimit(max(previous, _RECURSION_LIMIT))
  try:
    yield
  finally:
    sys.setrecursionlimit(previous)


def too_deeply_nested(filename):
  """The SyntaxError for source nested deeper than a parser can follow (as Python's own RecursionError)."""
  error = SyntaxError("an expression or statement nests deeper than the parser can follow (too deeply nested)")
  error.filename = filename
  return error


def uses(source, filename="<script>"):
  """The TF1 symbols a script's source uses: a list of (canonical symbol, line) in source order."""
  return [(symbol, line) for symbol, line, _, _ in parse(source, filename).uses]


class Resolver:
  """Decides the status of canonical names the way the facade, the runner and tf1clip.contrib resolve them.

  Args:
    index: a tools.api_index.ApiIndex (default: the installed TensorFlow's).
  """

  def __init__(self, index=None):
    self.index = index or api_index.ApiIndex()
    self._cache = {}

  def resolve(self, symbol, kind="use"):
    """Returns (symbol as reported, status, note) for a canonical "tf...." / "np...." name.

    Args:
      symbol: e.g. "tf.contrib.rnn.BasicLSTMCell.__call__" or "np.float_".
      kind: "import" judges an import statement's module (whether the import itself succeeds);
        "call" a call-site warning; anything else a use.
    """
    key = (symbol, kind)
    if key not in self._cache:
      self._cache[key] = self._resolve(symbol, kind)
    return self._cache[key]

  def _resolve(self, symbol, kind):
    parts = symbol.split(".")
    if kind == "call":
      return symbol, WARNING, hazards.CALL_WARNINGS[symbol][1]
    if parts[0] == "np":
      return _resolve_numpy(parts)
    if parts[0] == "scipy":
      return _resolve_scipy(parts)
    hazard = _attribute_hazard(parts)
    if hazard is not None:
      return hazard
    by_path = _resolve_path(parts)
    if by_path is not None:
      return by_path
    if len(parts) > 1 and parts[1] == "contrib":
      if kind == "import":
        return _resolve_contrib_import(parts)
      return _resolve_contrib(parts)
    return self._resolve_tf(parts)

  def _resolve_tf(self, parts):
    rest = parts[1:]
    for key, source in surface.TF1CLIP_NAMES.items():
      key_parts = key.split(".")  # e.g. tf.examples.tutorials.mnist.input_data: tf1clip's port
      # the namespaces on the way are tf1clip's too, below the one another source serves (tf.keras.wrappers)
      if key_parts[0] in surface.LIBRARY_NAMESPACES:
        own, dropped_by = 2, surface.LIBRARY_NAMESPACES[key_parts[0]][1].split("'s v1 API")[0]
      elif key_parts[0] in surface.TF_KERAS_MODULES:
        own, dropped_by = 2, "tf-keras"
      else:
        own, dropped_by = 1, "TensorFlow %s" % self.index.version()
      if rest[:len(key_parts)] == key_parts or (len(rest) >= own and key_parts[:len(rest)] == rest):
        return (".".join(parts[:1 + len(key_parts)] if len(rest) >= len(key_parts) else parts),
                PROVIDED, "TF 1.15's, tf1clip's port (%s; %s dropped it)" % (source.partition(":")[0], dropped_by))
    for key, module_name in surface.TF_KERAS_MODULES.items():
      key_parts = key.split(".")
      if rest[:len(key_parts)] == key_parts:
        root = "tf_keras:" + module_name[len("tf_keras.api._v1."):]
        below = rest[len(key_parts):]
        found = self.index.lookup(root, below)
        head = parts[:1 + len(key_parts)]
        if found is None:
          return ".".join(head), UNSUPPORTED, "tf-keras is not installed (pip install tf-keras)"
        depth, kind = found
        reported = ".".join(head + below[:depth])
        if kind == api_index.NAMESPACE and depth < len(below) and not _is_dunder(below[depth]):
          missing = ".".join(head + below[:depth + 1])
          return missing, UNSUPPORTED, "tf-keras has no %s" % missing
        return reported, PROVIDED, "TF1 version from tf-keras (%s)" % module_name
    library = getattr(surface, "LIBRARY_NAMESPACES", {})  # tf.estimator from tensorflow-estimator
    if rest and rest[0] in library:
      return self._resolve_library(parts, library[rest[0]][1])
    if rest[:2] == ["compat", "v2"]:
      root, head, below = "compat.v2", parts[:3], rest[2:]
    else:
      root, head, below = "compat.v1", parts[:1], rest
    found = self.index.lookup(root, below)
    if found is None:
      return ".".join(parts), UNSUPPORTED, "TensorFlow is not installed"
    depth, kind = found
    if kind != api_index.NAMESPACE or depth == len(below) or _is_dunder(below[depth]):
      if depth == 0 and below and _is_dunder(below[0]):
        return ".".join(head + below[:1]), RUNS, ""  # tf.__version__
      return ".".join(head + below[:depth]), RUNS, ""
    missing = ".".join(head + below[:depth + 1])
    below_tf = ".".join(below[:depth + 1])
    if root == "compat.v1":
      if depth == 0:
        public_module = paths.module_of_public("tf." + below[0])
        if public_module:  # tf.pywrap_tensorflow: served as TF 1.15's module at its path
          return _resolve_path(parts, public_module)
        suggestion = surface.removed_suggestion(below_tf)
        if suggestion is not None:
          return missing, UNSUPPORTED, suggestion
        real, complete = self.index.real_module_depth(below)
        if real and complete:  # tensorflow.python...: the facade serves TF's real packages
          return ".".join(head + below[:real]), RUNS, "TensorFlow internals (tensorflow.%s)" % (
              ".".join(below[:real]))
        if real:
          missing = ".".join(head + below[:real + 1])
          return missing, UNSUPPORTED, "TensorFlow %s has no tensorflow.%s" % (
              self.index.version(), ".".join(below[:real + 1]))
      for end in range(len(below), depth, -1):
        renamed = hazards.TF_REMOVED.get(".".join(below[:end]))
        if renamed is not None:
          return "tf." + ".".join(below[:end]), UNSUPPORTED, "%s; use %s" % (hazards.TF1_REMOVED_NOTE, renamed)
    return missing, UNSUPPORTED, "TensorFlow %s has no %s; %s" % (
        self.index.version(), missing,
        "TensorFlow 1.15 had it (tf1clip does not provide it)" if tf115.has(missing)
        else "TensorFlow 1.15 had no such name either")


  def _resolve_library(self, parts, source):
    """A name in a TF1 namespace the facade serves from a library (surface.LIBRARY_NAMESPACES)."""
    head, below = parts[:2], parts[2:]
    found = None
    if parts[1] in api_index.LIBRARY_API_DIRS:
      found = self.index.lookup("library:" + parts[1], below)
    if found is None:  # no generated API to read: the namespace is served, its names taken on trust
      return ".".join(parts[:3]), PROVIDED, "from " + source
    depth, kind = found
    if kind == api_index.NAMESPACE and depth < len(below) and not _is_dunder(below[depth]):
      missing = ".".join(head + below[:depth + 1])
      return missing, UNSUPPORTED, "%s has no %s" % (source.split(",")[0], missing)
    return ".".join(head + below[:depth]), PROVIDED, "from " + source


def _resolve_path(parts, public_module=None):
  """The verdict on a TF 1.15 module path the facade does not serve as a public name (`tf.contrib.layers.python
  .layers.utils`, `tf.python.framework.graph_util.X`, `tf.pywrap_tensorflow.X`), as compat.paths serves it at run
  time (its refusals are the ones the last module_coverage survey recorded); None for every other name."""
  path_parts, offset = ["tensorflow"] + parts[1:], 0  # offset: path_parts[i] is parts[i + offset]
  if public_module:
    # tf.pywrap_tensorflow: a public name whose object is a module path (tensorflow.python.pywrap_tensorflow)
    path_parts = public_module.split(".") + parts[2:]
    offset = 2 - len(public_module.split("."))
  elif parts[1:2] == ["contrib"] and len(parts) < 4:
    return None  # tf.contrib.X: the contrib catalog judges it, as the runner serves it
  end = 0
  for k in range(len(path_parts), 1, -1):
    if paths.is_path(".".join(path_parts[:k])):
      end = k
      break
  if end == 0:
    return None
  path = ".".join(path_parts[:end])
  if offset == 0 and module_paths.area_of(path) == "contrib public" or path_parts[1] == "examples":
    return None  # the facade's own modules: the contrib catalog and the facade's tables judge them
  if offset and end + offset < 2:
    return None
  reported = lambda n: ".".join(parts[:end + offset + n])
  if not module_paths.has_module(path):
    return reported(0), UNSUPPORTED, "TensorFlow 1.15's own import of %s failed" % path
  if end == len(path_parts):
    return reported(0), PROVIDED, "TF 1.15's module %s, served by its path (compat.paths)" % path
  name = path_parts[end]
  if _is_dunder(name):
    return reported(0), PROVIDED, "TF 1.15's module %s, served by its path (compat.paths)" % path
  message = paths.refusals().get((path, name))
  if message is not None:
    return reported(1), UNSUPPORTED, message
  if module_paths.pair(path, name) is not None:
    return reported(1), PROVIDED, "TF 1.15's %s.%s, served by its path (compat.paths)" % (path, name)
  if name.startswith("_"):
    return reported(1), RUNS, "a private name of %s: TensorFlow 2.21's or tf1clip's module at run time" % path
  return reported(1), UNSUPPORTED, "TensorFlow 1.15's %s had no %s either" % (path, name)


def _is_dunder(name):
  return name.startswith("__") and name.endswith("__")


def _resolve_numpy(parts):
  if len(parts) > 1 and parts[1] in hazards.NUMPY_REMOVED:
    what, fix = hazards.NUMPY_REMOVED[parts[1]]
    if parts[1] in numpy_legacy.LEGACY_NAMES:
      return ".".join(parts[:2]), WARNING, "%s; tf1clip run serves it as NumPy 1.x had it (plain python: %s)" % (
          what, fix)
    return ".".join(parts[:2]), UNSUPPORTED, "%s; use %s" % (what, fix)
  return ".".join(parts[:2]), RUNS, ""


def _resolve_scipy(parts):
  """scipy.misc's removed names and the private eigen.arpack path are served by the runner; the rest runs."""
  dotted = ".".join(parts)
  for module in scipy_legacy.ALIASED_MODULES:
    if dotted == module or dotted.startswith(module + "."):
      return module, WARNING, "a private path SciPy removed; tf1clip run serves it (plain python: %s)" % (
          scipy_legacy.ALIASED_MODULES[module])
  if parts[:2] == ["scipy", "misc"] and len(parts) > 2 and parts[2] in scipy_legacy.MISC:
    return ".".join(parts[:3]), WARNING, "SciPy removed it; tf1clip run serves SciPy 1.1's (plain python: %s)" % (
        scipy_legacy.MISC[parts[2]][1])
  return ".".join(parts[:3]), RUNS, ""


def _attribute_hazard(parts):
  name = ".".join(parts)
  for spelling in hazards.FLAGS_MODULES:
    if name.startswith(spelling + "."):
      name = "tf.flags" + name[len(spelling):]
  for key, fix in hazards.ATTRIBUTE_HAZARDS.items():
    if name == key or name.startswith(key + "."):
      return key, UNSUPPORTED, fix
  return None


def _contrib_note(reported):
  note = catalog.explain(reported)
  prefix = reported + " is not provided by tf1clip"
  return note[len(prefix):].lstrip(";: ") if note.startswith(prefix) else note


def _is_provided_module(name):
  """True when the catalog serves names below `name` (a served contrib module or package)."""
  prefix = name + "."
  return any(served.startswith(prefix) for served in _provided_names())


_PROVIDED_NAMES = []


def _provided_names():
  if not _PROVIDED_NAMES:
    _PROVIDED_NAMES.append(tuple(catalog.provided_names()))
  return _PROVIDED_NAMES[0]


def _resolve_contrib(parts):
  """Status of a use of a tf.contrib name, from tf1clip.contrib's own catalogue."""
  if len(parts) == 2:
    return "tf.contrib", PROVIDED, "tf1clip.contrib"
  if len(parts) > 3 and _is_dunder(parts[3]):
    parts = parts[:3]  # `rnn.__name__` is a use of the module
  depth = 4  # tf.contrib.<module>.<name>: the module or object; deeper parts are its attributes
  while len(parts) > depth and _is_provided_module(".".join(parts[:depth])):
    # a provided sub-package or module further down (learn.preprocessing.X, tensorboard.plugins.projector.X)
    depth += 1
  reported = ".".join(parts[:depth])
  if catalog.is_provided(reported):
    return reported, PROVIDED, "from " + (catalog.origin(reported) or "tf1clip.contrib." + parts[2])
  if len(parts) == 3 and parts[2] in catalog.TF115_SUBMODULES:
    # `tf.contrib.tpu` itself is a stand-in module: only its attributes fail.
    return reported, RUNS, "a stand-in module; its attributes are not provided (%s)" % (
        catalog.replacement(reported))
  return reported, UNSUPPORTED, _contrib_note(reported)


def _resolve_contrib_import(parts):
  """Whether `import tensorflow.contrib.<...>` succeeds under the runner (compat.importer's rules)."""
  if len(parts) == 2:
    return "tf.contrib", PROVIDED, "tf1clip.contrib"
  reported = ".".join(parts)
  module = ".".join(parts[:3])
  if not catalog.is_provided(module):
    if parts[2] not in catalog.TF115_SUBMODULES:
      return module, UNSUPPORTED, _contrib_note(module)
    if len(parts) == 3:
      return module, RUNS, ("imports a stand-in module; its attributes fail where used (%s)"
                            % catalog.replacement(module))
    return ".".join(parts[:4]), UNSUPPORTED, _contrib_note(".".join(parts[:4]))
  if len(parts) == 3 or catalog.is_provided(reported):
    return _resolve_contrib(parts)
  return ".".join(parts[:4]), UNSUPPORTED, _contrib_note(".".join(parts[:4]))


def is_caught(status, kind, symbol, caught):
  """True when a failing use sits in a `try` whose handlers catch the error the runner raises there."""
  if status != UNSUPPORTED or not caught:
    return False
  if kind in ("import", "from") or symbol.startswith("tf.contrib"):
    return bool(caught & _IMPORT_ERRORS)
  return bool(caught & _ATTRIBUTE_ERRORS)


def findings_of(parsed, resolver):
  """Findings for one parsed file, one per distinct reported symbol, in order of first use.

  Args:
    parsed: a ParsedFile from `parse`.
    resolver: a Resolver (shared across files: it caches).

  Returns:
    A list of Finding.
  """
  # One pass over the use sites, each appended to its symbol's list (a Finding rebuilt per use, its lines
  # tuple copied each time, made 300,000 uses of one name quadratic).
  first, lines, guarded_all, stops = collections.OrderedDict(), {}, {}, {}
  for symbol, line, kind, caught in parsed.uses:
    reported, status, note = resolver.resolve(symbol, kind)
    if kind == "use" and symbol.startswith(("np.", "scipy.")):
      kind = "numpy"
      if status == RUNS:
        continue  # NumPy names that still exist are not TF1 symbols
    guarded = is_caught(status, kind, reported, caught)
    stop = line if status == UNSUPPORTED and not guarded else None
    key = (reported, status)
    if key in first:
      lines[key].append(line)
      guarded_all[key] = guarded_all[key] and guarded
      stops[key] = stops[key] or stop
    else:
      first[key] = (line, note, kind)
      lines[key], guarded_all[key], stops[key] = [line], guarded, stop
  return [Finding(reported, line, len(lines[key]), status, note, kind, guarded_all[key], tuple(lines[key]),
                  stops[key]) for key, (line, note, kind) in first.items() for reported, status in (key,)]


def check_source(source, filename="<script>", resolver=None):
  """Findings for one script's source, in order of first use.

  Args:
    source: the script's text.
    filename: its name (for a SyntaxError).
    resolver: a shared Resolver (caches lookups across files); None makes one.

  Returns:
    A list of Finding, one per distinct symbol.

  Raises:
    SyntaxError: the source does not parse.
  """
  return findings_of(parse(source, filename), resolver or Resolver())
