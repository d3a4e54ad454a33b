"""`tf.contrib.specs.specs`: builds TensorFlow networks from specs strings (`create_net`, ...), TF 1.15's code.

Place in the data flow (DESIGN.md): contrib.specs.specs_ops, contrib.specs.params_ops <- **contrib.specs.specs**
<- compat <- cli.

A spec is Python source run with specs_ops' names as globals (`net = Cr(64, [5, 5]) | Mp([2, 2]) | Flat | Fs(10)`);
`create_net(spec, inputs)` applies its `net` binding to `inputs`. `eval_params` does the same for parameter
assignments over params_ops. `with specs.ops: ...` (a `LocalImport`) binds specs_ops' names in the caller's module
globals for the duration of the block, as TF 1.15 did.
"""

import inspect

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.specs.python.params_ops as params_ops
import tf1clip.contrib.specs.python.specs_lib as specs_lib
import tf1clip.contrib.specs.python.specs_ops as specs_ops


def eval_params(params, environment=None):
  """The environment `environment` (a dict) with the bindings executing the `params` assignments adds."""
  specs_lib.check_keywords(params)
  bindings = {}
  if environment:
    bindings.update(environment)
  exec(params, vars(params_ops), bindings)  # pylint: disable=exec-used
  return bindings


def eval_spec(spec, environment=None):
  """The environment `environment` (a dict) with the bindings executing `spec` adds ("left = Cr(64, [5,5]); ...").

  Args:
    spec: specification as a string.
    environment: a dictionary of input bindings.

  Returns:
    Environment with additional bindings created by spec.

  Raises:
    ValueError: `spec` contains a prohibited keyword; other exceptions raised while executing `spec`.
  """
  specs_lib.check_keywords(spec)
  bindings = {}
  if environment:
    bindings.update(environment)
  exec(spec, vars(specs_ops), bindings)  # pylint: disable=exec-used
  return bindings


def create_net_fun(spec, environment=None):
  """The callable that instantiates the `net` binding of `spec` (ValueError if `spec` binds no `net`)."""
  bindings = eval_spec(spec, environment)
  net = bindings.get("net", None)
  if net is None:
    raise ValueError("spec failed to create 'net': %s" % (spec,))
  return net.funcall


def create_net(spec, inputs, environment=None):
  """Evaluates `spec` and returns its `net` applied to `inputs` (ValueError if `spec` binds no `net`)."""
  return create_net_fun(spec, environment)(inputs)


class LocalImport(object):
  """A context manager that temporarily binds names in the module globals of the code that enters it.

  Attributes:
    frame: the frame in which the context manager was invoked.
    names: a dictionary containing the new bindings.
    old: variable bindings that have been shadowed by the import.
  """

  def __init__(self, names):
    """Creates the context manager binding `names` (a dictionary, or a module whose globals to bind)."""
    if not isinstance(names, dict):
      names = vars(names)
    self.names = names

  def __enter__(self):
    self.frame = inspect.currentframe()
    bindings = self.frame.f_back.f_globals
    self.old = {k: bindings.get(k, None) for k in self.names.keys()}
    bindings.update(self.names)

  def __exit__(self, some_type, value, traceback):
    del some_type, value, traceback
    bindings = self.frame.f_back.f_globals
    bindings.update(self.old)
    for k, v in self.old.items():
      if v is None:
        del bindings[k]
    del self.frame


ops = LocalImport(specs_ops)

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.specs.specs", lazy=_catalog.served("tf.contrib.specs.specs"))
