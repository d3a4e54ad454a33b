"""`tf.contrib.constrained_optimization`: TF 1.15's constrained optimizers (Lagrangian / swap-regret), its code.

The modules mirror TF 1.15's `contrib/constrained_optimization/python`:
- `constrained_minimization_problem.ConstrainedMinimizationProblem`: the abstract problem a script subclasses
  (objective, constraints, optional proxy_constraints and pre_train_ops);
- `constrained_optimizer.ConstrainedOptimizer`: the base class (minimize / minimize_constrained /
  minimize_unconstrained around a tf.compat.v1.train.Optimizer);
- `external_regret_optimizer.AdditiveExternalRegretOptimizer`: Lagrange multipliers in the variable
  `external_regret_optimizer_state`;
- `swap_regret_optimizer.AdditiveSwapRegretOptimizer` / `MultiplicativeSwapRegretOptimizer`: a stochastic matrix
  (or its logarithm) in the variable `swap_regret_optimizer_state`;
- `candidates.find_best_candidate_distribution` / `find_best_candidate_index`: choosing among saved candidate
  solutions (numpy and scipy).
All graph-mode TF 1.15 code on tf.compat.v1 (Ref variables, v1 while_loop / cond), with TF 1.15's variable names,
update rules, projections and errors.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tf1clip.contrib.constrained_optimization.python.candidates import (
    find_best_candidate_distribution, find_best_candidate_index)
from tf1clip.contrib.constrained_optimization.python.constrained_minimization_problem import (
    ConstrainedMinimizationProblem)
from tf1clip.contrib.constrained_optimization.python.constrained_optimizer import ConstrainedOptimizer
from tf1clip.contrib.constrained_optimization.python.external_regret_optimizer import AdditiveExternalRegretOptimizer
from tf1clip.contrib.constrained_optimization.python.swap_regret_optimizer import (
    AdditiveSwapRegretOptimizer, MultiplicativeSwapRegretOptimizer)
from tf1clip.contrib.constrained_optimization.python import candidates  # noqa: F401
from tf1clip.contrib.constrained_optimization.python import constrained_minimization_problem  # noqa: F401
from tf1clip.contrib.constrained_optimization.python import constrained_optimizer  # noqa: F401
from tf1clip.contrib.constrained_optimization.python import external_regret_optimizer  # noqa: F401
from tf1clip.contrib.constrained_optimization.python import swap_regret_optimizer  # noqa: F401

__getattr__ = _catalog.module_getattr(__name__)
