"""`tf.contrib.integrate`: ODE solvers, `odeint` (adaptive Dormand-Prince) and `odeint_fixed` (midpoint / rk4).

tf1clip's code, TF 1.15's `tensorflow/contrib/integrate/python/ops/odes.py` (python/ops/odes.py here), on
tf.compat.v1's graph-mode while loops and TensorArrays: the same steps, `full_output` info and errors.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.integrate.python.ops.odes import odeint, odeint_fixed  # noqa: F401

__getattr__ = _catalog.module_getattr(__name__)
