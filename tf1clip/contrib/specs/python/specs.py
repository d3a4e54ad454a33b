"""Networks from specs: `create_net(spec, inputs)`, `create_net_fun`, `eval_spec`, `eval_params`, `LocalImport`.

TF 1.15's `tensorflow/contrib/specs/python/specs.py`, written by tf1clip. A spec is Python source run with the
specs commands (specs_ops) as its globals, e.g. `net = Cr(64, [5, 5]) | Mp([2, 2]) | Flat | Fs(10)`;
`create_net(spec, inputs)` applies its `net` binding to `inputs`. `eval_params` runs parameter assignments over
params_ops' random draws. `with ops:` (a `LocalImport` of specs_ops) binds the commands in the caller's module
globals for the block.
"""

import inspect

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.specs.python import params_ops
from tf1clip.contrib.specs.python import specs_lib
from tf1clip.contrib.specs.python import specs_ops


def _run(source, language, environment):
  """The bindings `source` makes when run with `language`'s module globals, on top of `environment`'s."""
  specs_lib.check_keywords(source)
  bindings = dict(environment or {})
  exec(source, vars(language), bindings)  # pylint: disable=exec-used
  return bindings


def eval_params(params, environment=None):
  """The bindings of the parameter assignments `params` ("n = Li(5, 500); d = Ui(1, 5)"), over `environment`.

  Raises:
    ValueError: `params` uses a forbidden keyword (specs_lib.check_keywords); or what running it raises.
  """
  return _run(params, params_ops, environment)


def eval_spec(spec, environment=None):
  """The bindings `spec` makes ("left = Cr(64, [5, 5]); right = Fc(64)"), over `environment` (a dict).

  Raises:
    ValueError: `spec` uses a forbidden keyword; or what running it raises.
  """
  return _run(spec, specs_ops, environment)


def create_net_fun(spec, environment=None):
  """The function `inputs -> network` of `spec`'s `net` binding.

  Raises:
    ValueError: `spec` binds no `net`.
  """
  net = eval_spec(spec, environment).get("net", None)
  if net is None:
    raise ValueError("spec failed to create 'net': %s" % (spec,))
  return net.funcall


def create_net(spec, inputs, environment=None):
  """`spec`'s `net` built on `inputs` (ValueError when `spec` binds no `net`)."""
  return create_net_fun(spec, environment)(inputs)


class LocalImport(object):
  """Binds names in the module globals of the code that enters it, for the block (then restores them).

  `names` is a dict or a module (its globals). As in TF 1.15, a name the module had bound to None before the
  block is gone after it.
  """

  def __init__(self, names):
    self.names = names if isinstance(names, dict) else vars(names)
    self._shadowed = []  # per open block: (the caller's globals, their previous values)

  def __enter__(self):
    caller_globals = inspect.currentframe().f_back.f_globals
    self._shadowed.append((caller_globals, {k: caller_globals.get(k) for k in self.names}))
    caller_globals.update(self.names)

  def __exit__(self, exc_type, exc_value, traceback):
    del exc_type, exc_value, traceback
    caller_globals, previous = self._shadowed.pop()
    for key, value in previous.items():
      if value is None:
        caller_globals.pop(key, None)
      else:
        caller_globals[key] = value


ops = LocalImport(specs_ops)

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.specs.specs")
