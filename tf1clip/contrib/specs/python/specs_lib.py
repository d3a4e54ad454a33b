"""The composable function objects the specs language is made of, and its checks.

TF 1.15's `tensorflow/contrib/specs/python/specs_lib.py`, written by tf1clip. A spec's value is a `Composable`:
`f | g` applies f then g, `f ** n` is f applied n times (`** 0`: the identity), `f + g` and `f * g` apply both to
the same input and add / multiply the results. `Function(f, *args, **kw)` curries a Python function: calling it
remembers more arguments (placed before those remembered already; keywords `_0`, `_1`, ... fill positions), and
`funcall(x)` applies `f(x, *args, **kw)`. `External` and `Import` make Functions of code from elsewhere;
`check_keywords` refuses a spec that says `import`, `while`, `def` or `exec` outside a string.
"""

import functools
import importlib
import operator
import re

from tf1clip.contrib import catalog as _catalog

# A string literal of a spec (what check_keywords looks past) and the words a spec may not contain.
QUOTED = re.compile("\n" + r'"([^"\\]|\\.)*" |' + "\n" + r"'([^'\\]|\\.)*'" + "\n", re.VERBOSE)
KEYWORDS = re.compile(r"""\b(import|while|def|exec)\b""")

debug_ = False  # set by debug(): each Function application prints what it calls


def check_keywords(spec):
  """Raises ValueError when `spec` uses import, while, def or exec (in its code, not inside its strings)."""
  found = KEYWORDS.search(QUOTED.sub("", spec))
  if found:
    raise ValueError("keyword '%s' found in spec" % found.group(1))


def get_positional(args, kw, kw_overrides=False):
  """Moves the keywords `_<i>` of `kw` to position i of `args` (None-padding the list).

  Args:
    args: the positional arguments.
    kw: the keyword arguments, some perhaps named `_0`, `_1`, ...
    kw_overrides: whether `_<i>` replaces an argument already at i (otherwise it fills only a None there).

  Returns:
    (args, kw) unchanged when no keyword is positional, else (the new argument list, the other keywords).
  """
  by_position = [(int(k[1:]), v) for k, v in kw.items() if k[0] == "_"]
  if not by_position:
    return args, kw
  merged = list(args)
  merged.extend([None] * (max(i for i, _ in by_position) + 1 - len(merged)))
  for index, value in by_position:
    if kw_overrides or merged[index] is None:
      merged[index] = value
  return merged, {k: v for k, v in kw.items() if k[0] != "_"}


class Composable(object):
  """A one-argument function of the specs language (`funcall(x)`), combined by `|`, `**`, `+` and `*`."""

  def __or__(self, f):
    """`self | f`: self, then f."""
    return Composition(self, f)

  def __add__(self, g):
    """`self + g`: both on the same input, the results added."""
    return Operator(operator.add, self, g)

  def __mul__(self, g):
    """`self * g`: both on the same input, the results multiplied."""
    return Operator(operator.mul, self, g)

  def __pow__(self, n):
    """`self ** n`: self applied n times over (`** 0` is the identity)."""
    if n < 0:
      raise AssertionError("a spec can be repeated 0 or more times, not %r" % (n,))
    if n == 0:
      return Function(lambda x, *args, **kw: x)
    return functools.reduce(Composition, [self] * n)


class Callable(Composable):
  """A Composable whose `funcall(x)` is `f(x)`."""

  def __init__(self, f):
    self.f = f

  def funcall(self, x):
    """`f(x)`."""
    return self.f(x)


class Operator(Composable):
  """`funcall(x)` is `op(f1.funcall(x), f2.funcall(x), ...)` of the Composables `funs`."""

  def __init__(self, op, *args):
    self.op = op
    self.funs = args

  def funcall(self, x):
    return self.op(*[f.funcall(x) for f in self.funs])


class Function(Composable):
  """A curried Python function: calling it adds arguments, `funcall(x)` runs `f(x, *args, **kw)`.

  Raises:
    ValueError: `f` is not callable.
  """

  def __init__(self, f, *args, **kw):
    if not callable(f):
      raise ValueError("%s: is not callable" % f)
    self.f, self.args, self.kw = f, list(args), kw

  def __call__(self, *args, **kw):
    return Function(self.f, *(list(args) + self.args), **dict(self.kw, **kw))

  def funcall(self, x):
    """`f(x, *args, **kw)` with the curried arguments (the `_<i>` keywords put in place)."""
    args, kw = get_positional(self.args, self.kw)
    if debug_:
      print("DEBUG:", self.f, x, args, kw)
    return self.f(x, *args, **kw)


class Composition(Composable):
  """`f` then `g`: `funcall(x)` is `g.funcall(f.funcall(x))`."""

  def __init__(self, f, g):
    self.f, self.g = f, g

  def funcall(self, x):
    """`g.funcall(f.funcall(x))`."""
    return self.g.funcall(self.f.funcall(x))


# pylint: disable=invalid-name  (commands of the language, spelled as its other commands are)
def External(module_name, function_name):
  """The Function of `function_name` in the module `module_name` (imported by its full name; KeyError when the
  module has no such name)."""
  return Function(vars(importlib.import_module(module_name))[function_name])


def Import(statements):
  """The Function of the `f` that the Python `statements` define (ValueError when they define none)."""
  namespace = {}
  exec(statements, namespace)  # pylint: disable=exec-used
  if "f" not in namespace:
    raise ValueError("failed to define \"f\": %s", statements)
  return Function(namespace["f"])
# pylint: enable=invalid-name


def debug(mode=True):
  """Turns the printing of every Function application on (or off)."""
  global debug_
  debug_ = mode


__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.specs.specs_lib")
