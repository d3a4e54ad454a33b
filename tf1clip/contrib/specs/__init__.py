"""`tf.contrib.specs`: TF 1.15's little language for describing networks over tf-slim's layers, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/specs/__init__.py`.

`create_net("net = Cr(32, [3, 3]) | Mp([2, 2]) | Flat | Fs(10)", images)` builds the network a spec describes:
`Cr` / `Fs` / `Mp` / ... are curried tf-slim layer functions (specs_ops), `|` composes, `**` repeats, `+` / `*`
combine (specs_lib); `eval_params` draws random hyperparameters (params_ops) and `tf_spec_structure` /
`tf_spec_summary` describe what a spec builds (summaries). The package holds TF 1.15's five modules, and its names
(imported from them) are what TF 1.15's star imports gave it: their public names, Python's
`math` functions and constants (params_ops' `from math import *`, Python 3.7's set), `exec_` (six's: the built-in
`exec`) and `layers`, tf.contrib.layers itself (TF 1.15 leaked its layers module; see catalog.MODULE_ALIASES).
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from builtins import exec as exec_
from math import (
    acos, acosh, asin, asinh, atan, atan2, atanh, ceil, copysign, cos, cosh, degrees, e, erf, erfc, exp, expm1, fabs,
    factorial, floor, fmod, frexp, fsum, gamma, gcd, hypot, inf, isclose, isfinite, isinf, isnan, ldexp, lgamma, log,
    log10, log1p, log2, modf, nan, pi, pow, radians, remainder, sin, sinh, sqrt, tan, tanh, tau, trunc)
from tf1clip.contrib.specs.python.params_ops import Lf, Li, Nt, Uf, Ui
from tf1clip.contrib.specs.python.specs import create_net, create_net_fun, eval_params, eval_spec, LocalImport
from tf1clip.contrib.specs.python.specs_lib import (
    Callable, check_keywords, Composable, Composition, Function, get_positional, KEYWORDS, Operator, QUOTED)
from tf1clip.contrib.specs.python.specs_ops import (
    Ap, Bn, Cl, Cm, Conc, Cr, Cs, Ct, Cx, debug, Do, Dwm, Dws, Expand, External, Fl, Flat, Fm, Fr, Fs, Ft, Fun, Fx,
    Id, Idx, Import, layers, Lrn, Mp, Print, Relu, Reshape, Shared, Sig, Smax, Squeeze, Tanh, Transpose, Unit, Var)
from tf1clip.contrib.specs.python.summaries import (
    SHORT_NAMES, SHORT_NAMES_SRC, tf_left_split, tf_num_params, tf_parameter_iter, tf_parameter_summary, tf_print,
    tf_spec_print, tf_spec_structure, tf_spec_summary, tf_structure)
import tf1clip.contrib.specs.python.params_ops as params_ops  # noqa: F401  (tf.contrib.specs.params_ops)
import tf1clip.contrib.specs.python.specs as specs  # noqa: F401  (tf.contrib.specs.specs)
import tf1clip.contrib.specs.python.specs_lib as specs_lib
import tf1clip.contrib.specs.python.specs_ops as specs_ops  # noqa: F401  (tf.contrib.specs.specs_ops)
import tf1clip.contrib.specs.python.summaries as summaries  # noqa: F401  (tf.contrib.specs.summaries)

# TF 1.15's star import copied specs_lib's debugging flag as it was then (`debug()` sets specs_lib's own).
debug_ = specs_lib.debug_

# The declaration: Python 3.11's math objects (TF 1.15 leaked Python 3.7's through params_ops' star import): three
# read differently now.
SIGNATURE_DIFFERENCES = {
    "factorial": ("Python 3.11's math.factorial: its one positional-only parameter is named n "
                  "(x in Python 3.7's); every call binds the same"),
    "gcd": "Python 3.11's math.gcd: takes any number of integers (Python 3.7's took two)",
    "hypot": "Python 3.11's math.hypot: takes any number of coordinates (Python 3.7's took two)",
}

__getattr__ = _catalog.module_getattr(__name__)
