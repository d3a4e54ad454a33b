"""`tf1clip check script.py ...`: read legacy scripts (no execution) and say what of their TF1 API will run.

For every TensorFlow symbol a script uses -- `tf.placeholder`, `tf.contrib.rnn.BasicLSTMCell`, a name
brought in by `from tensorflow.contrib.layers import xavier_initializer`, through any alias
(`import tensorflow as tf`, `import tensorflow.compat.v1 as tf`, `import tf1clip.compat.v1 as tf`,
`from tensorflow.contrib import rnn`, `rnn = tf.contrib.rnn`) -- it prints one of:

  runs unchanged       TensorFlow 2.21's tf.compat.v1 has it; tf1clip passes it through
  provided by tf1clip  tf.contrib (tf1clip.contrib) or a TF1 namespace served from tf-keras
  not supported        neither has it; the line says what to use instead

and exits 1 when anything is not supported (2 when a file cannot be read or parsed). Like
tf_upgrade_v2's report, but about what `tf1clip run` will actually do: it resolves names through the
same table (compat.surface) and catalogue (tf1clip.contrib.catalog) as the facade, and looks
`tf.compat.v1` names up in the installed TensorFlow (imported only when a script uses one).

Data flow: compat.surface + contrib.catalog <- compat.check <- cli.
"""

import ast
import collections
import importlib
import sys
import types

from tf1clip.compat import surface

RUNS = "runs unchanged"
PROVIDED = "provided by tf1clip"
UNSUPPORTED = "not supported"

Finding = collections.namedtuple("Finding", "symbol line count status note")
Finding.__doc__ = """One TF1 symbol a script uses: where first, how often, and whether it will run."""

_TENSORFLOW = "tensorflow"
_FACADE = "tf1clip.compat.v1"


def _canonical(dotted):
  """Spells a TF1 module path as the `tf.` name a script would use ("tensorflow.compat.v1.nn" -> "tf.nn")."""
  name = "tf" + dotted[len(_TENSORFLOW):] if dotted.split(".")[0] == _TENSORFLOW else dotted
  if name == _FACADE or name.startswith(_FACADE + "."):
    name = "tf" + name[len(_FACADE):]
  while name == "tf.compat.v1" or name.startswith("tf.compat.v1."):
    name = "tf" + name[len("tf.compat.v1"):]
  return name


def _is_tf1_module(dotted):
  return dotted.split(".")[0] == _TENSORFLOW or dotted == _FACADE or dotted.startswith(_FACADE + ".")


class _Uses(ast.NodeVisitor):
  """Collects (tf1 symbol, line) pairs from a module's AST, following import aliases."""

  def __init__(self):
    self.aliases = {}  # local name -> canonical "tf...." name
    self.uses = []

  def _use(self, symbol, node):
    if symbol != "tf":
      self.uses.append((symbol, node.lineno))

  def visit_Import(self, node):  # pylint: disable=invalid-name
    for alias in node.names:
      if not _is_tf1_module(alias.name):
        continue
      symbol = _canonical(alias.name)
      if alias.asname:
        self.aliases[alias.asname] = symbol
      elif alias.name.split(".")[0] == _TENSORFLOW:
        self.aliases[_TENSORFLOW] = "tf"  # `import tensorflow.contrib.rnn` binds `tensorflow`
      self._use(symbol, node)

  def visit_ImportFrom(self, node):  # pylint: disable=invalid-name
    if node.level or not node.module:
      return
    if _is_tf1_module(node.module):
      base = _canonical(node.module)
    elif node.module == "tf1clip.compat":
      base = None  # `from tf1clip.compat import v1 as tf`
    else:
      return
    for alias in node.names:
      if alias.name == "*":
        continue
      symbol = "tf" if base is None and alias.name == "v1" else (
          _canonical(base + "." + alias.name) if base else None)
      if symbol is None:
        continue
      self.aliases[alias.asname or alias.name] = symbol
      self._use(symbol, node)

  def _chain(self, node):
    """The canonical dotted name of `a.b.c` when `a` is a TF1 alias, else None."""
    attrs = []
    while isinstance(node, ast.Attribute):
      attrs.append(node.attr)
      node = node.value
    if isinstance(node, ast.Name) and node.id in self.aliases:
      return ".".join([self.aliases[node.id]] + attrs[::-1])
    return None

  def visit_Attribute(self, node):  # pylint: disable=invalid-name
    symbol = self._chain(node)
    if symbol is None:
      self.generic_visit(node)
    else:
      self._use(_canonical(symbol), node)

  def visit_Assign(self, node):  # pylint: disable=invalid-name
    self.generic_visit(node)
    # `rnn = tf.contrib.rnn` makes `rnn` an alias too.
    if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
      symbol = self._chain(node.value)
      if symbol is not None:
        self.aliases[node.targets[0].id] = _canonical(symbol)


def uses(source, filename="<script>"):
  """The TF1 symbols a script's source uses.

  Args:
    source: the script's text.
    filename: its name, for the SyntaxError.

  Returns:
    A list of (canonical symbol such as "tf.contrib.rnn.BasicLSTMCell", line) in source order.

  Raises:
    SyntaxError: the source does not parse.
  """
  collector = _Uses()
  collector.visit(ast.parse(source, filename))
  return collector.uses


class _Resolver:
  """Decides the status of a canonical TF1 symbol the way the facade and tf1clip.contrib resolve it."""

  def __init__(self):
    self._cache = {}
    self._tf = None

  def resolve(self, symbol):
    """Returns (symbol as reported, status, note) for a canonical "tf...." name."""
    if symbol not in self._cache:
      parts = symbol.split(".")
      if len(parts) > 1 and parts[1] == "contrib":
        self._cache[symbol] = _resolve_contrib(parts)
      else:
        self._cache[symbol] = self._resolve_tf(parts)
    return self._cache[symbol]

  def _resolve_tf(self, parts):
    if self._tf is None:
      import tensorflow  # pylint: disable=import-outside-toplevel
      self._tf = tensorflow
    via_keras = None
    rest = parts[1:]
    for key, module_name in surface.TF_KERAS_MODULES.items():
      key_parts = key.split(".")
      if rest[:len(key_parts)] == key_parts:
        via_keras = module_name
        obj = importlib.import_module(module_name)
        reported, rest = parts[:1 + len(key_parts)], rest[len(key_parts):]
        break
    else:
      if rest and rest[0] in surface.LIBRARY_NAMESPACES:
        maker, via_library = surface.LIBRARY_NAMESPACES[rest[0]]
        module_name, _, function = maker.partition(":")
        obj = getattr(importlib.import_module(module_name), function)()
        reported, rest = parts[:2], rest[1:]
        return self._walk(obj, reported, rest, None, via_library)
      if rest[:2] == ["compat", "v2"]:
        obj, reported, rest = self._tf.compat.v2, parts[:3], rest[2:]
      else:
        obj, reported = self._tf.compat.v1, parts[:1]
    return self._walk(obj, reported, rest, via_keras, None)

  def _walk(self, obj, reported, rest, via_keras, via_library):
    """Follows `rest` from `obj` (reached as `reported`); returns (symbol, status, note)."""
    for i, part in enumerate(rest):
      if not isinstance(obj, types.ModuleType) or (part.startswith("__") and len(reported) > 1):
        break  # report the object the script uses, not its methods (`array_ops.__name__` uses array_ops)
      try:
        obj = _attribute(obj, part, top_level=(len(reported) == 1))
      except AttributeError:
        missing = ".".join(reported + [part])
        below_tf = ".".join(missing.split(".")[1:])
        suggestion = surface.removed_suggestion(below_tf) if i == 0 and not via_keras else None
        if via_library:
          suggestion = "%s has no %s" % (via_library.split(",")[0], missing)
        note = suggestion or ("TensorFlow %s has no %s" % (self._tf.__version__, missing))
        return missing, UNSUPPORTED, note
      reported.append(part)
    if via_library:
      return ".".join(reported), PROVIDED, "from " + via_library
    if via_keras:
      return ".".join(reported), PROVIDED, "TF1 version from tf-keras (%s)" % via_keras
    return ".".join(reported), RUNS, ""


def _attribute(obj, name, top_level):
  """getattr that also finds not-yet-imported submodules of TF's real packages (tensorflow.python...)."""
  try:
    return getattr(obj, name)
  except AttributeError:
    if top_level:
      module_name = "tensorflow." + name  # the facade's fallback to TF's real packages
    else:
      module_name = getattr(obj, "__name__", "") + "." + name
    try:
      return importlib.import_module(module_name)
    except ImportError:
      raise AttributeError(name) from None


def _resolve_contrib(parts):
  """Status of a tf.contrib symbol, from tf1clip.contrib's own catalogue."""
  from tf1clip.contrib import catalog  # pylint: disable=import-outside-toplevel
  if len(parts) == 2:
    return "tf.contrib", PROVIDED, "tf1clip.contrib"
  if len(parts) > 3 and parts[3].startswith("__"):
    parts = parts[:3]  # `rnn.__name__` is a use of the module
  reported = ".".join(parts[:4])  # the module or object; deeper parts are its attributes
  if catalog.is_provided(reported):
    return reported, PROVIDED, "from " + catalog.PROVIDED.get(reported, "tf1clip.contrib." + parts[2])
  note = catalog.explain(reported)
  prefix = reported + " is not provided by tf1clip"
  note = note[len(prefix):].lstrip(";: ") if note.startswith(prefix) else note
  return reported, UNSUPPORTED, note


def check_source(source, filename="<script>", resolver=None):
  """Findings for one script's source, in order of first use.

  Args:
    source: the script's text.
    filename: its name (for a SyntaxError).
    resolver: a shared _Resolver (caches lookups across files); None makes one.

  Returns:
    A list of Finding, one per distinct symbol.

  Raises:
    SyntaxError: the source does not parse.
  """
  resolver = resolver or _Resolver()
  findings = collections.OrderedDict()
  for symbol, line in uses(source, filename):
    reported, status, note = resolver.resolve(symbol)
    if reported in findings:
      findings[reported] = findings[reported]._replace(count=findings[reported].count + 1)
    else:
      findings[reported] = Finding(reported, line, 1, status, note)
  return list(findings.values())


def _print_report(path, findings, out):
  counts = collections.Counter(f.status for f in findings)
  if not findings:
    print("%s: uses no TensorFlow symbols" % path, file=out)
    return
  print("%s: %d TF1 symbols: %d run unchanged, %d provided by tf1clip, %d not supported" % (
      path, len(findings), counts[RUNS], counts[PROVIDED], counts[UNSUPPORTED]), file=out)
  width = max(len(f.symbol) for f in findings)
  for f in sorted(findings, key=lambda f: (f.line, f.symbol)):
    uses_text = " (x%d)" % f.count if f.count > 1 else ""
    note = ("  " + f.note) if f.note else ""
    print("  line %4d  %-19s  %-*s%s%s" % (f.line, f.status, width, f.symbol, uses_text, note),
          file=out)


def main(paths, out=None):
  """`tf1clip check`: prints a report per script.

  Args:
    paths: Python files to read.
    out: where to print (default sys.stdout).

  Returns:
    0 when every symbol runs, 1 when something is not supported, 2 when a file cannot be read or parsed.
  """
  out = out or sys.stdout
  resolver = _Resolver()
  status = 0
  unsupported = 0
  for path in paths:
    try:
      with open(path, "rb") as f:
        source = f.read()
      findings = check_source(source, path, resolver)
    except OSError as e:
      print("%s: can't open file: [Errno %s] %s" % (path, e.errno, e.strerror), file=out)
      status = 2
      continue
    except SyntaxError as e:
      print("%s: cannot parse: %s (line %s)" % (path, e.msg, e.lineno), file=out)
      status = 2
      continue
    _print_report(path, findings, out)
    unsupported += sum(f.status == UNSUPPORTED for f in findings)
  if unsupported:
    print("%d symbol(s) not supported: `tf1clip run` stops where the script first uses one." % unsupported,
          file=out)
    status = max(status, 1)
  return status
