"""A program's own modules that live outside the upgraded tree: found through PYTHONPATH or `sys.path` edits.

A script upgraded alone (`tf1clip upgrade train.py --out up/`) still imports its own package: from a folder on
PYTHONPATH, or from one its code adds (`sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))`).
The upgraded copy would then import the *original* modules, which `import tensorflow as tf` and fail under plain
`python`. `find(files, pythonpath)` reads the upgraded sources' imports (no code runs), resolves each top-level
name against those folders, follows the found modules' own imports, and returns what has to be upgraded alongside;
a `sys.path` edit it cannot evaluate statically (a path computed from a flag, a function call it does not know) is
returned as a reason to refuse the check-run, since the copy's imports could not be known to be the upgraded ones.

Evaluated statically: string literals, `__file__`, `os.path.join / dirname / abspath / realpath / expanduser /
normpath`, `os.getcwd()`, `+` of strings; `sys.path.insert(i, X)`, `sys.path.append(X)`, `sys.path[:0] = [X]`,
`site.addsitedir(X)`.

Data flow: tools.program_modules <- tools.upgrade_cli (check_run). Imports no TensorFlow.
"""

import ast
import collections
import os
import sys
import sysconfig

Found = collections.namedtuple("Found", "name path root how")
Found.__doc__ = """A module to upgrade alongside: its top-level `name`, its `path` (a .py file or a package folder),
the `root` folder it was found in and `how` that folder is on the path ("PYTHONPATH" or "file:line sys.path...")."""


class NotStatic(Exception):
  """A path expression this module cannot evaluate without running the program."""


def _evaluate(node, file):
  """The string value of a path expression in `file`, or NotStatic."""
  if isinstance(node, ast.Constant) and isinstance(node.value, str):
    return node.value
  if isinstance(node, ast.Name) and node.id == "__file__":
    return os.path.abspath(file)
  if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
    return _evaluate(node.left, file) + _evaluate(node.right, file)
  if isinstance(node, ast.JoinedStr):
    return "".join(_evaluate(v.value if isinstance(v, ast.FormattedValue) else v, file) for v in node.values)
  if isinstance(node, ast.Call) and not node.keywords:
    name = _dotted(node.func)
    args = [_evaluate(a, file) for a in node.args]
    calls = {"os.path.join": os.path.join, "os.path.dirname": os.path.dirname, "os.path.abspath": os.path.abspath,
             "os.path.realpath": os.path.realpath, "os.path.expanduser": os.path.expanduser,
             "os.path.normpath": os.path.normpath, "str": str}
    if name in calls and args:
      return calls[name](*args)
    if name == "os.getcwd" and not args:
      return os.getcwd()
  raise NotStatic(ast.unparse(node) if hasattr(ast, "unparse") else type(node).__name__)


def _dotted(node):
  parts = []
  while isinstance(node, ast.Attribute):
    parts.append(node.attr)
    node = node.value
  if isinstance(node, ast.Name):
    parts.append(node.id)
    return ".".join(reversed(parts))
  return None


def path_edits(file, tree):
  """[(folder or None, "file:line <code>", reason or None)] for every sys.path edit of one parsed file."""
  edits = []
  for node in ast.walk(tree):
    target = None
    if isinstance(node, ast.Call):
      name = _dotted(node.func)
      if name == "sys.path.insert" and len(node.args) == 2:
        target = node.args[1]
      elif name in ("sys.path.append", "site.addsitedir") and len(node.args) == 1:
        target = node.args[0]
      elif name == "sys.path.extend" and len(node.args) == 1:
        target = node.args[0]
    elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) and _dotted(t.value) == "sys.path"
                                              for t in node.targets):
      target = node.value
    if target is None:
      continue
    where = "%s:%d" % (file, node.lineno)
    values = target.elts if isinstance(target, (ast.List, ast.Tuple)) else [target]
    for value in values:
      try:
        edits.append((os.path.normpath(_evaluate(value, file)), where, None))
      except NotStatic as e:
        edits.append((None, where, "sys.path gets %s, which tf1clip upgrade cannot evaluate without running "
                                   "the program" % e))
  return edits


def _imports(tree):
  """Top-level names of the absolute imports of one parsed file."""
  names = set()
  for node in ast.walk(tree):
    if isinstance(node, ast.Import):
      names.update(a.name.split(".")[0] for a in node.names)
    elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
      names.add(node.module.split(".")[0])
  return names


def _installed_folders():
  folders = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
  folders.update(p for p in sys.path if "site-packages" in p or "dist-packages" in p)
  return {os.path.realpath(f) for f in folders if f}


def _module_in(root, name):
  for candidate in (os.path.join(root, name + ".py"), os.path.join(root, name, "__init__.py")):
    if os.path.isfile(candidate):
      return candidate if candidate.endswith(name + ".py") else os.path.dirname(candidate)
  return None


def _python_files(path):
  if os.path.isfile(path):
    return [path]
  return [os.path.join(d, n) for d, _, names in os.walk(path) for n in sorted(names) if n.endswith(".py")]


def _parse(file):
  try:
    with open(file, encoding="utf-8") as f:
      return ast.parse(f.read(), filename=file)
  except (OSError, SyntaxError, ValueError):
    return None


def find(files, pythonpath="", inside=()):
  """The modules a program imports from PYTHONPATH or sys.path-edited folders, outside `inside`.

  Args:
    files: the program's Python files (the originals, so `__file__` in a path edit means their folder).
    pythonpath: the PYTHONPATH the runs get (os.pathsep-separated).
    inside: folders already upgraded (SRC): modules there are not reported.

  Returns:
    (list of Found, list of refusal reasons "file:line: why").
  """
  roots = [(os.path.abspath(p), "PYTHONPATH") for p in pythonpath.split(os.pathsep) if p]
  refusals = []
  pending, seen_files = list(files), set()
  found = collections.OrderedDict()
  installed = _installed_folders()
  inside = [os.path.realpath(p) for p in inside]
  while pending:
    file = pending.pop(0)
    if os.path.realpath(file) in seen_files:
      continue
    seen_files.add(os.path.realpath(file))
    tree = _parse(file)
    if tree is None:
      continue
    for folder, where, reason in path_edits(file, tree):
      if reason:
        refusals.append("%s: %s" % (where, reason))
      else:
        roots.append((folder, "%s sys.path edit" % where))
    for name in sorted(_imports(tree)):
      if name in found or name in sys.builtin_module_names:
        continue
      for root, how in roots:
        real = os.path.realpath(root)
        if real in installed or any(real == p or real.startswith(p + os.sep) for p in inside):
          continue
        path = _module_in(root, name)
        if path is not None:
          found[name] = Found(name, path, root, how)
          pending.extend(_python_files(path))
          break
  return list(found.values()), refusals
