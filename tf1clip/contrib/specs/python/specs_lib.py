"""`tf.contrib.specs.specs_lib`: the composable function objects the specs DSL is made of, TF 1.15's code.

Place in the data flow (DESIGN.md): Python <- **contrib.specs.specs_lib** <- contrib.specs.specs_ops <- compat <- cli.

A spec value is a `Composable`: `f | g` composes (g after f), `f ** n` repeats f n times (`** 0` is the identity),
`f + g` and `f * g` apply both to the same input and add / multiply the results. `Function(f, *args, **kw)` curries
a Python function (calling it remembers more arguments, which go *before* the remembered ones; keywords `_0`,
`_1`, ... fill positions), and `funcall(x)` finally applies it as `f(x, *args, **kw)`. `External` and `Import`
wrap functions from elsewhere; `check_keywords` rejects `import`, `while`, `def` and `exec` outside quotes.
"""

import importlib
import operator
import re

from tf1clip.contrib import catalog as _catalog

QUOTED = re.compile(r"""
"([^"\\]|\\.)*" |
'([^'\\]|\\.)*'
""", re.VERBOSE)
KEYWORDS = re.compile(r"""\b(import|while|def|exec)\b""")

debug_ = False


def check_keywords(spec):
  """Raises ValueError if `spec` contains one of the prohibited keywords (outside quoted strings)."""
  spec = re.sub(QUOTED, "", spec)
  match = re.search(KEYWORDS, spec)
  if match:
    raise ValueError("keyword '%s' found in spec" % match.group(1))


def get_positional(args, kw, kw_overrides=False):
  """Interpolates keyword arguments of the form "_0", "_1", ... into the argument list.

  Args:
    args: argument list.
    kw: keyword dictionary.
    kw_overrides: whether a "_<i>" keyword replaces an argument already at position i.

  Returns:
    (new_args, new_kw), the argument list and keyword dictionary with the values interpolated.
  """
  new_kw = {k: v for k, v in kw.items() if k[0] != "_"}
  if len(new_kw) == len(kw):
    return args, kw
  new_args = list(args)
  for key, value in kw.items():
    if key[0] != "_":
      continue
    index = int(key[1:])
    while len(new_args) <= index:
      new_args += [None]
    if kw_overrides or new_args[index] is None:
      new_args[index] = value
  return new_args, new_kw


class Composable(object):
  """A composable function: `|` composes, `**` repeats, and `(f + g)(x) = f(x) + g(x)` (likewise `*`)."""

  def __or__(self, f):
    return Composition(self, f)

  def __add__(self, g):
    return Operator(operator.add, self, g)

  def __mul__(self, g):
    return Operator(operator.mul, self, g)

  def __pow__(self, n):
    assert n >= 0
    if n == 0:
      return Function(lambda x, *args, **kw: x)
    result = self
    for _ in range(n - 1):
      result = Composition(result, self)
    return result


class Callable(Composable):
  """A composable function that simply defers to a callable function."""

  def __init__(self, f):
    self.f = f

  def funcall(self, x):
    return self.f(x)


class Operator(Composable):
  """Applies `op` to the results of applying each function of the argument list to the input."""

  def __init__(self, op, *args):
    self.op = op
    self.funs = args

  def funcall(self, x):
    outputs = [f.funcall(x) for f in self.funs]
    return self.op(*outputs)


class Function(Composable):
  """A composable wrapper of a Python function that curries: `__call__` remembers arguments for `funcall`."""

  def __init__(self, f, *args, **kw):
    if not callable(f):
      raise ValueError("%s: is not callable" % f)
    self.f = f
    self.args = list(args)
    self.kw = kw

  def __call__(self, *args, **kw):
    new_args = list(args) + self.args
    new_kw = self.kw.copy()
    new_kw.update(kw)
    return Function(self.f, *new_args, **new_kw)

  def funcall(self, x):
    args, kw = get_positional(self.args, self.kw)
    if debug_:
      print("DEBUG:", self.f, x, args, kw)
    return self.f(x, *args, **kw)


class Composition(Composable):
  """The composition of two functions: `funcall(x)` is `g.funcall(f.funcall(x))`."""

  def __init__(self, f, g):
    self.f = f
    self.g = g

  def funcall(self, x):
    return self.g.funcall(self.f.funcall(x))


# These are DSL names, not Python names.
def External(module_name, function_name):  # pylint: disable=invalid-name
  """The `Function` wrapping `function_name` of the importable module `module_name` (not a shorthand like tf.nn)."""
  module = importlib.import_module(module_name)
  return Function(vars(module)[function_name])


def Import(statements):  # pylint: disable=invalid-name
  """The `Function` wrapping the `f` that executing the Python `statements` defines (ValueError without one)."""
  environ = {}
  exec(statements, environ)  # pylint: disable=exec-used
  if "f" not in environ:
    raise ValueError("failed to define \"f\": %s", statements)
  f = environ["f"]
  return Function(f)


def debug(mode=True):
  """Turns on/off debugging mode (each `Function` application prints its function and arguments)."""
  global debug_
  debug_ = mode


__getattr__ = _catalog.missing_attribute_hook("tf.contrib.specs.specs_lib",
                                              lazy=_catalog.served("tf.contrib.specs.specs_lib"))
