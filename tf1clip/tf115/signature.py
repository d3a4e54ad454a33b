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
