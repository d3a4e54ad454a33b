"""`tf.contrib.specs.params_ops`: the environment of the "params" DSL (random hyperparameters), TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/specs/python/params_ops.py`.

`specs.eval_params("n=Li(5,500); d=Ui(1,5)")` executes its string with this module's names as globals: the
random primitives below (Python's `random`, the same draws for the same `random.seed` as under TF 1.15's Python
3.7) and the functions and constants TF 1.15's `from math import *` gave it on Python 3.7 (Python's own `math`
objects; the functions later Pythons added, such as `cbrt` or `comb`, are not among them, as there).
"""

import math
# pylint: disable=redefined-builtin  (math's pow, as TF 1.15's star import had it)
from math import acos, acosh, asin, asinh, atan, atan2, atanh, ceil, copysign, cos, cosh  # noqa: F401
from math import degrees, e, erf, erfc, exp, expm1, fabs, factorial, floor, fmod, frexp, fsum  # noqa: F401
from math import gamma, gcd, hypot, inf, isclose, isfinite, isinf, isnan, ldexp, lgamma, log  # noqa: F401
from math import log10, log1p, log2, modf, nan, pi, pow, radians, remainder, sin, sinh, sqrt  # noqa: F401
from math import tan, tanh, tau, trunc  # noqa: F401
# pylint: enable=redefined-builtin
import random

from tf1clip.contrib import catalog as _catalog

# pylint: disable=invalid-name  (operators of the DSL, not regular Python functions)

def Uf(lo=0.0, hi=1.0):
  """Uniformly distributed floating number."""
  return random.uniform(lo, hi)

def Ui(lo, hi):
  """Uniformly distributed integer, inclusive limits."""
  return random.randint(lo, hi)

def Lf(lo, hi):
  """Log-uniform distributed floating point number."""
  return math.exp(random.uniform(math.log(lo), math.log(hi)))

def Li(lo, hi):
  """Log-uniform distributed integer, inclusive limits."""
  return int(math.floor(math.exp(random.uniform(math.log(lo), math.log(hi + 1 - 1e-5)))))

def Nt(mu, sigma, limit=3.0):
  """Normally distributed floating point number with truncation."""
  return min(max(random.gauss(mu, sigma), mu - limit * sigma), mu + limit * sigma)

# pylint: enable=invalid-name

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.specs.params_ops")
