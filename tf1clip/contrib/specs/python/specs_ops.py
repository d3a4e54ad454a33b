"""The commands of the specs language (`Cr`, `Mp`, `Fs`, `Conc`, `Shared`, ...): the globals a spec runs with.

TF 1.15's `tensorflow/contrib/specs/python/specs_ops.py`, written by tf1clip. `specs.eval_spec` / `create_net` run
a spec's source with this module's names as its globals, and `with specs.ops:` binds them all in the caller's
module for the block; so the module holds only TF 1.15's names. The layer commands are curried tf.contrib.layers
functions (tf-slim's `conv2d`, `fully_connected`, `max_pool2d`, ...: a spec builds TF 1.15's variables, such as
`Conv/weights`), one command per activation: `C<a>` convolutions and `F<a>` fully connected layers with `x` (the
layer's default), `s` sigmoid, `t` tanh, `r` relu, `m` softmax or `l` none.

TF 1.15's module also lent a spec the modules it imported (`layers`, `array_ops`, `math_ops`, `nn`, `nn_ops`,
`logging_ops`, `variable_scope`): a spec that names them (`Fun(nn_ops.relu)`) runs here too, `layers` being
tf.contrib.layers itself and the others the tf.compat.v1 namespaces holding the same functions.
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib import layers
from tf1clip.contrib.specs.python import specs_lib

# the modules TF 1.15's specs_ops imported, by the namespaces that hold their functions now
array_ops = logging_ops = math_ops = variable_scope = tf.compat.v1
nn = nn_ops = tf.compat.v1.nn

# pylint: disable=invalid-name  (commands of the language)
External = specs_lib.External
Import = specs_lib.Import
Fun = specs_lib.Function
debug = specs_lib.debug


class Idx(specs_lib.Composable):
  """The identity: `funcall(x)` is x."""

  def funcall(self, x):
    return x


class Conc(specs_lib.Composable):
  """`funcall(x)` concatenates the results of the Composables `args` on x along dimension `dim`."""

  def __init__(self, dim, *args):
    self.dim = dim
    self.funs = args

  def funcall(self, x):
    return array_ops.concat([f.funcall(x) for f in self.funs], self.dim)


def _by_activation(layer):
  """The six commands of a layer function: its own activation, then sigmoid, tanh, relu, softmax and none."""
  return [Fun(layer)] + [Fun(layer, activation_fn=activation) for activation in (
      math_ops.sigmoid, math_ops.tanh, nn_ops.relu, nn_ops.softmax, None)]


Cx, Cs, Ct, Cr, Cm, Cl = _by_activation(layers.conv2d)
Fx, Fs, Ft, Fr, Fm, Fl = _by_activation(layers.fully_connected)
Mp, Ap = Fun(layers.max_pool2d), Fun(layers.avg_pool2d)
Do, Bn, Unit = Fun(layers.dropout), Fun(layers.batch_norm), Fun(layers.unit_norm)
Lrn = Fun(nn.local_response_normalization)
Flat, Reshape, Transpose, Squeeze, Expand = (Fun(f) for f in (
    layers.flatten, array_ops.reshape, array_ops.transpose, array_ops.squeeze, array_ops.expand_dims))
Relu, Sig, Tanh, Smax = (Fun(f) for f in (nn_ops.relu, math_ops.sigmoid, math_ops.tanh, nn_ops.softmax))
Print, Id = Fun(logging_ops.Print), Fun(array_ops.identity)


def Dws(n):
  """A 1x1 convolution to n channels with a sigmoid (after an LSTM layer)."""
  return Cs(n, [1, 1])


def Dwm(n):
  """A 1x1 convolution to n channels with a softmax (after an LSTM layer)."""
  return Cm(n, [1, 1])


def Var(name, *args, **kw):
  """A command whose `funcall` returns `tf.get_variable(name, *args, **kw)`, whatever its input (experimental in
  TF 1.15: use one Var per variable name)."""
  return specs_lib.Callable(lambda _: variable_scope.get_variable(name, *args, **kw))


class Shared(specs_lib.Composable):
  """Its subnetwork built once in its own variable scope, and reused there every later time.

      f = Shared(Cr(100, 3))
      g = f | f | f    # three layers, one set of variables

  Attributes:
    subnet: the shared Composable.
    name: the scope's name (`Shared_<n>` by default).
    scope: the VariableScope, once the subnetwork has been built.
  """

  shared_number = 1  # numbers the default scope names

  def __init__(self, subnet, name=None, scope=None):
    """Makes the shared command.

    Args:
      subnet: the Composable to share.
      name: TF 1.15 accepted none: its check tested `scope` for a string, so any name is a ValueError, here too.
      scope: a VariableScope to build it in.

    Raises:
      ValueError: `scope` is not a VariableScope, a `name` is given, or both are.
    """
    for wrong, message in (
        (scope is not None and not isinstance(scope, variable_scope.VariableScope),
         "scope must be None or a VariableScope"),
        (name is not None and not isinstance(scope, str), "name must be None or a string"),  # sic: tests scope
        (scope is not None and name is not None, "cannot provide both a name and a scope")):
      if wrong:
        raise ValueError(message)
    if name is None:
      name, Shared.shared_number = "Shared_%d" % Shared.shared_number, Shared.shared_number + 1
    self.subnet, self.name, self.scope = subnet, name, scope

  def funcall(self, x):
    if self.scope is not None:
      with variable_scope.variable_scope(self.scope, values=[x], reuse=True):
        return self.subnet.funcall(x)
    with variable_scope.variable_scope(self.name, values=[x]) as scope:
      self.scope = scope
      return self.subnet.funcall(x)
# pylint: enable=invalid-name


__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.specs.specs_ops")

# `with specs.ops:` binds every global here in the code that enters it: no `tf` to replace a script's own.
del tf, _catalog, _by_activation
