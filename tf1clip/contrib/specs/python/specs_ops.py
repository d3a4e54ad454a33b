"""`tf.contrib.specs.specs_ops`: the commands of the specs DSL (`Cr`, `Mp`, `Fs`, `Shared`, ...), TF 1.15's code.

Place in the data flow (DESIGN.md): contrib.layers (tf-slim's layer functions), contrib.specs.specs_lib <-
**contrib.specs.specs_ops** <- contrib.specs.specs <- compat <- cli.

`specs.eval_spec` / `create_net` execute a spec string with this module's names as globals. The layers are
tf.contrib.layers' (tf-slim's own `conv2d`, `fully_connected`, `max_pool2d`, ... the objects `slim.arg_scope`
decorates), so a spec builds TF 1.15's variables (`Conv/weights`, `fully_connected_1/biases`, ...) and ops. The
TF 1.15 modules its namespace leaked to specs (`layers`, `array_ops`, `math_ops`, `nn`, `nn_ops`, `logging_ops`,
`variable_scope`) are here too, so a spec naming them (`Fun(nn_ops.relu)`) still runs: `layers` is
tf.contrib.layers itself, `nn` / `nn_ops` are tf.compat.v1.nn and the others tf.compat.v1, the public namespaces
that hold the same functions (`array_ops.concat`, `math_ops.sigmoid`, `variable_scope.get_variable`, ...).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.layers as layers  # leaked by TF 1.15's module too (tf.contrib.specs.layers)
import tf1clip.contrib.specs.python.specs_lib as specs_lib

# TF 1.15's imported modules, by the public namespace holding their functions (see the module docstring).
array_ops = tf.compat.v1
logging_ops = tf.compat.v1
math_ops = tf.compat.v1
nn = tf.compat.v1.nn
nn_ops = tf.compat.v1.nn
variable_scope = tf.compat.v1

# pylint: disable=invalid-name  (functions defined by higher-order application: the commands of the DSL)


class Idx(specs_lib.Composable):
  """Implements the identity function in network specifications."""

  def funcall(self, x):
    return x


class Conc(specs_lib.Composable):
  """Implements tensor concatenation in network specifications."""

  def __init__(self, dim, *args):
    """Concatenates the outputs of the argument tensor functions `args` along dimension `dim`."""
    self.dim = dim
    self.funs = args

  def funcall(self, x):
    outputs = [f.funcall(x) for f in self.funs]
    return array_ops.concat(outputs, self.dim)


External = specs_lib.External
Import = specs_lib.Import
Fun = specs_lib.Function
debug = specs_lib.debug
Print = Fun(logging_ops.Print)
Id = Fun(array_ops.identity)

# Two letter names for the most common layers.

# 2D Convolutional layers with nonlinearities (s/t/r/m/l)

Cx = Fun(layers.conv2d)
Cs = Fun(layers.conv2d, activation_fn=math_ops.sigmoid)
Ct = Fun(layers.conv2d, activation_fn=math_ops.tanh)
Cr = Fun(layers.conv2d, activation_fn=nn_ops.relu)
Cm = Fun(layers.conv2d, activation_fn=nn_ops.softmax)
Cl = Fun(layers.conv2d, activation_fn=None)

# Fully connected slim with nonlinearities (s/t/r/m/l)

Fx = Fun(layers.fully_connected)
Fs = Fun(layers.fully_connected, activation_fn=math_ops.sigmoid)
Ft = Fun(layers.fully_connected, activation_fn=math_ops.tanh)
Fr = Fun(layers.fully_connected, activation_fn=nn_ops.relu)
Fm = Fun(layers.fully_connected, activation_fn=nn_ops.softmax)
Fl = Fun(layers.fully_connected, activation_fn=None)

# Pooling

Mp = Fun(layers.max_pool2d)
Ap = Fun(layers.avg_pool2d)

# Batch manipulations

Do = Fun(layers.dropout)
Bn = Fun(layers.batch_norm)
Lrn = Fun(nn.local_response_normalization)
Unit = Fun(layers.unit_norm)

# Shape changes

Flat = Fun(layers.flatten)
Reshape = Fun(array_ops.reshape)
Transpose = Fun(array_ops.transpose)
Squeeze = Fun(array_ops.squeeze)
Expand = Fun(array_ops.expand_dims)

# Nonlinearities (rarely needed on their own)

Relu = Fun(nn_ops.relu)
Sig = Fun(math_ops.sigmoid)
Tanh = Fun(math_ops.tanh)
Smax = Fun(nn_ops.softmax)


def Dws(n):
  """Depth-wise convolution + sigmoid (used after LSTM)."""
  return Cs(n, [1, 1])


def Dwm(n):
  """Depth-wise convolution + softmax (used after LSTM)."""
  return Cm(n, [1, 1])

# Sharing of Variables


def Var(name, *args, **kw):
  """A specs object generating the variable `tf.get_variable(name, *args, **kw)` (experimental: one per name)."""

  def var(_):
    return variable_scope.get_variable(name, *args, **kw)

  return specs_lib.Callable(var)


class Shared(specs_lib.Composable):
  """Wraps a scope with variable reuse around the subnetwork (experimental).

  Attributes:
    subnet: The shared subnetwork.
    name: A name for the shared scope.
    scope: The variable scope, once the subnetwork was first created.
  """

  shared_number = 1

  def __init__(self, subnet, name=None, scope=None):
    """Creates the Shared operator: `f = Shared(Cr(100, 3)); g = f | f | f`.

    Args:
      subnet: Definition of the shared network.
      name: Optional name for the shared context. (As in TF 1.15, any name raises the "must be None or a
        string" ValueError: its check tests `scope` instead of `name`.)
      scope: Optional shared scope (must be a VariableScope, not a string).

    Raises:
      ValueError: Scope is not of type tf.VariableScope, name is not None, or both scope and name are given.
    """
    if scope is not None and not isinstance(scope, variable_scope.VariableScope):
      raise ValueError("scope must be None or a VariableScope")
    if name is not None and not isinstance(scope, str):
      raise ValueError("name must be None or a string")
    if scope is not None and name is not None:
      raise ValueError("cannot provide both a name and a scope")
    if name is None:
      name = "Shared_%d" % Shared.shared_number
      Shared.shared_number += 1
    self.subnet = subnet
    self.name = name
    self.scope = scope

  def funcall(self, x):
    """Creates the subnet on `x` in the shared variable scope (reusing it after the first time)."""
    if self.scope is None:
      with variable_scope.variable_scope(self.name, values=[x]) as scope:
        self.scope = scope
        return self.subnet.funcall(x)
    else:
      with variable_scope.variable_scope(self.scope, values=[x], reuse=True):
        return self.subnet.funcall(x)


# pylint: enable=invalid-name

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.specs.specs_ops",
                                              lazy=_catalog.served("tf.contrib.specs.specs_ops"))

# This module's globals are the specs DSL's environment, and `with specs.ops:` binds every one of them in the
# module globals of the code that enters it (TF 1.15's LocalImport): keep them TF 1.15's names, so that such a
# block does not replace a script's own `tf`.
del tf, _catalog
