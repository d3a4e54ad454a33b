"""One text form for a callable's signature, the same under TF 1.15 (Python 3.7) and TensorFlow 2.21.

The API inventory (tf115/api.tsv) stores each TF 1.15 callable's signature in this form, written by
tf115/generate.py inside the oracle environment; the coverage check computes the same form for the object
tf1clip serves and compares the two strings. So this file is loaded by path under Python 3.7 too: it
imports only the standard library and must stay Python-3.7 syntax.

Form: `(a, b=1, *args, c=None, **kwargs)` as `inspect.Signature` prints it, without annotations, with
`self`/`cls` dropped from a class's `__init__`, and memory addresses (`<object object at 0x...>`)
removed from default reprs. A callable whose signature cannot be read gets "?".
"""

import inspect
import re

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_UNREADABLE = "?"


def _callable_of(obj):
  """The function whose parameters a call of `obj` takes (a class's __init__, else obj itself)."""
  if inspect.isclass(obj):
    init = obj.__dict__.get("__init__")
    for klass in obj.__mro__:
      if "__init__" in klass.__dict__:
        init = klass.__dict__["__init__"]
        break
    if init is None or init is object.__init__:
      return None
    return init
  return obj


def text(obj):
  """`obj`'s signature as one normalized string, or "?" when it has none that can be read.

  Args:
    obj: a function, method, class (its constructor's parameters) or other callable.

  Returns:
    e.g. "(inputs, outputs_collections=None, scope=None)".
  """
  target = _callable_of(obj)
  if target is None:
    return "()"
  try:
    sig = inspect.signature(target)
  except (TypeError, ValueError):
    return _UNREADABLE
  params = list(sig.parameters.values())
  if inspect.isclass(obj) and params and params[0].name in ("self", "cls"):
    params = params[1:]
  parts = []
  star_done = False
  for p in params:
    if p.kind == p.VAR_POSITIONAL:
      parts.append("*" + p.name)
      star_done = True
      continue
    if p.kind == p.VAR_KEYWORD:
      parts.append("**" + p.name)
      continue
    if p.kind == p.KEYWORD_ONLY and not star_done:
      parts.append("*")
      star_done = True
    piece = p.name
    if p.default is not p.empty:
      piece += "=" + _ADDRESS.sub("", repr(p.default))
    parts.append(piece)
    if p.kind == p.POSITIONAL_ONLY:
      pass
  return "(" + ", ".join(parts) + ")"


_REPR = re.compile(r"<[^<>]*>")


def _parse(text):
  """[(name, kind, default text or None)] of a signature text; kind: "pos", "kw", "*", "**"."""
  import ast  # pylint: disable=import-outside-toplevel
  source = "def f%s: pass" % _REPR.sub("__repr__", text)
  args = ast.parse(source).body[0].args
  params = []
  positional = args.posonlyargs + args.args if hasattr(args, "posonlyargs") else args.args
  defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
  for arg, default in zip(positional, defaults):
    params.append((arg.arg, "pos", None if default is None else ast.dump(default)))
  if args.vararg:
    params.append((args.vararg.arg, "*", None))
  for arg, default in zip(args.kwonlyargs, args.kw_defaults):
    params.append((arg.arg, "kw", None if default is None else ast.dump(default)))
  if args.kwarg:
    params.append((args.kwarg.arg, "**", None))
  return params


def _number(dump):
  """The number an ast.dump of a constant holds, or None."""
  m = re.match(r"^Constant\(value=(-?[0-9.e+-]+)\)$", dump or "")
  if m is None:
    m = re.match(r"^UnaryOp\(op=USub\(\), operand=Constant\(value=([0-9.e+-]+)\)\)$", dump or "")
    return -float(m.group(1)) if m else None
  return float(m.group(1))


def compatible(old, new):
  """True when every keyword call written against signature text `old` binds the same way against `new`.

  That is: `new` keeps `old`'s required positional parameters first and in order, keeps every other
  parameter of `old` by name with the same default (0 and 0.0 count as the same), keeps *args / **kwargs
  where `old` had them, and gives every parameter it adds a default. A parameter `new` inserts before an
  optional one of `old` (`bad_indices_policy=''` before `name=None`) only changes calls that pass that
  optional one by position, which TF1 code does not do with `name`; such a signature counts as compatible.

  Args:
    old, new: signature texts as `text()` writes them.

  Returns:
    bool; False when either text cannot be parsed.
  """
  if old == new:
    return True
  try:
    before, after = _parse(old), _parse(new)
  except SyntaxError:
    return False
  after_by_name = {p[0]: p for p in after}
  required = [p[0] for p in before if p[1] == "pos" and p[2] is None]
  new_pos = [p[0] for p in after if p[1] == "pos"]
  if new_pos[:len(required)] != required:
    return False
  for p in before:
    if p[1] in ("*", "**"):
      if not any(q[1] == p[1] for q in after):
        return False
      continue
    q = after_by_name.get(p[0])
    if q is None:
      if not any(r[1] == "**" for r in after):
        return False
      continue
    if q[2] != p[2] and not (_number(q[2]) is not None and _number(q[2]) == _number(p[2])):
      return False
  old_names = {p[0] for p in before}
  return all(q[2] is not None or q[1] in ("*", "**") for q in after if q[0] not in old_names)
