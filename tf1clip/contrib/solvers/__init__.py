"""`tf.contrib.solvers`: TF 1.15's matrix-free linear solvers (CG, CGLS, Lanczos bidiagonalization), its code.

Mirrors TF 1.15's `tensorflow/contrib/solvers/__init__.py`.

The four submodules mirror TF 1.15's: `lanczos` (`lanczos_bidiag`, `bidiag_matmul`), `least_squares` (`cgls`),
`linear_equations` (`conjugate_gradient`) and `util` (the operator namedtuples and the norms they use). Each solver
is TF 1.15's graph-mode loop, built from `tf.compat.v1.while_loop` and TensorArrays, returning TF 1.15's namedtuples.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.solvers.python.ops import lanczos  # noqa: F401
from tf1clip.contrib.solvers.python.ops import least_squares  # noqa: F401
from tf1clip.contrib.solvers.python.ops import linear_equations  # noqa: F401
from tf1clip.contrib.solvers.python.ops import util  # noqa: F401

__getattr__ = _catalog.module_getattr(__name__)
