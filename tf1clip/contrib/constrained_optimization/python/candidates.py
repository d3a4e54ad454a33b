"""`tf.contrib.constrained_optimization`'s candidate selection: `find_best_candidate_distribution` / `_index`.

TF 1.15's code (numpy, with scipy imported on first call as in TF 1.15). Given the objective values of n candidate
solutions (shape (n,)) and their m constraint values (shape (m, n)), `find_best_candidate_distribution` finds the
distribution over the candidates minimizing the expected objective subject to the expected constraints being <= 0
(scipy.optimize.linprog), or, if none is feasible, the smallest violation found by bisection down to `epsilon`
(Cotter, Jiang and Sridharan, arXiv:1804.06500, Lemma 3); `find_best_candidate_index` picks the candidate with the
smallest maximum rank of its constraint violations (and objective, with `rank_objectives`), ties broken by the
objective (ibid., Section 5.2).

Today's scipy solves the linear programs with HiGHS, where TF 1.15's scipy 1.1 ran the simplex method: on a
problem with a unique optimum both give that distribution (to solver precision); among several optimal
distributions, the one returned may differ.
"""

import numpy as np

_SHAPES_ERROR = ("objective_vector must have shape (n,), and constraints_matrix (m, n), where n is the number of "
                 "candidates, and m is the number of constraints")


def _find_best_candidate_distribution_helper(objective_vector, constraints_matrix, maximum_violation=0.0):
  """(distribution, None) minimizing the objective with each constraint <= maximum_violation, or (None, message).

  Raises:
    ValueError: If `objective_vector` and `constraints_matrix` have inconsistent shapes, or if `maximum_violation`
      is negative.
  """
  if maximum_violation < 0.0:
    raise ValueError("maximum_violation must be nonnegative")

  mm, nn = np.shape(constraints_matrix)
  if (nn,) != np.shape(objective_vector):
    raise ValueError(_SHAPES_ERROR)

  import scipy.optimize  # pylint: disable=g-import-not-at-top,import-outside-toplevel

  # Feasibility (within maximum_violation) constraints, the sum-to-one constraint and nonnegativity.
  result = scipy.optimize.linprog(
      objective_vector, A_ub=constraints_matrix, b_ub=np.full((mm, 1), maximum_violation), A_eq=np.ones((1, nn)),
      b_eq=np.ones((1, 1)), bounds=(0, None))
  # Go-style error reporting: find_best_candidate_distribution() handles the failure case.
  if not result.success:
    return (None, result.message)
  return (result.x, None)


def find_best_candidate_distribution(objective_vector, constraints_matrix, epsilon=0.0):
  """Finds a distribution over the candidates minimizing the objective subject to the constraints (TF 1.15's).

  Args:
    objective_vector: numpy array of shape (n,), the objective function values of the n candidates.
    constraints_matrix: numpy array of shape (m, n), the m constraint function values of the n candidates.
    epsilon: nonnegative float, the threshold at which to terminate the binary search for the minimal expected
      constraint violation (used when no distribution satisfies the constraints).

  Returns:
    The optimal distribution, as a numpy array of shape (n,).

  Raises:
    ValueError: If `objective_vector` and `constraints_matrix` have inconsistent shapes, or if `epsilon` is
      negative.
  """
  if epsilon < 0.0:
    raise ValueError("epsilon must be nonnegative")

  # If there is a feasible solution (i.e. with maximum_violation=0), then that's what we'll return.
  pp, _ = _find_best_candidate_distribution_helper(objective_vector, constraints_matrix)
  if pp is not None:
    return pp

  # The bound is the minimum over all candidates, of the maximum per-candidate constraint violation.
  lower = 0.0
  upper = np.min(np.amax(constraints_matrix, axis=0))
  best_pp, _ = _find_best_candidate_distribution_helper(objective_vector, constraints_matrix,
                                                        maximum_violation=upper)
  assert best_pp is not None

  # Throughout this loop, a maximum_violation of "lower" is not achievable, but one of "upper" is.
  while True:
    middle = 0.5 * (lower + upper)
    if (middle - lower <= epsilon) or (upper - middle <= epsilon):
      break
    pp, _ = _find_best_candidate_distribution_helper(objective_vector, constraints_matrix,
                                                     maximum_violation=middle)
    if pp is None:
      lower = middle
    else:
      best_pp = pp
      upper = middle

  return best_pp


def find_best_candidate_index(objective_vector, constraints_matrix, rank_objectives=False):
  """Heuristically finds the index of the best candidate solution to a constrained problem (TF 1.15's).

  Each candidate gets the maximum, over the m constraints (and the objective, if `rank_objectives`), of its rank
  ("min" ties) among the candidates' violations max(0, g_i); the minimal maximum rank wins, ties broken by the
  objective (the last of equal objectives).

  Args:
    objective_vector: numpy array of shape (n,), the objective function values of the n candidates.
    constraints_matrix: numpy array of shape (m, n), the m constraint function values of the n candidates.
    rank_objectives: bool, whether the objective function values are ranked too.

  Returns:
    The index (in {0,1,...,n-1}) of the "best" candidate.

  Raises:
    ValueError: If `objective_vector` and `constraints_matrix` have inconsistent shapes.
  """
  mm, nn = np.shape(constraints_matrix)
  if (nn,) != np.shape(objective_vector):
    raise ValueError(_SHAPES_ERROR)

  import scipy.stats  # pylint: disable=g-import-not-at-top,import-outside-toplevel

  if rank_objectives:
    maximum_ranks = scipy.stats.rankdata(objective_vector, method="min")
  else:
    maximum_ranks = np.zeros(nn, dtype=np.int64)
  for ii in range(mm):
    # Rank the magnitude of constraint *violations*: all candidates satisfying a constraint tie at rank 1.
    ranks = scipy.stats.rankdata(np.maximum(0.0, constraints_matrix[ii, :]), method="min")
    maximum_ranks = np.maximum(maximum_ranks, ranks)

  best_index = None
  best_rank = float("Inf")
  best_objective = float("Inf")
  for ii in range(nn):
    if maximum_ranks[ii] < best_rank:
      best_index = ii
      best_rank = maximum_ranks[ii]
      best_objective = objective_vector[ii]
    elif (maximum_ranks[ii] == best_rank) and (objective_vector[ii] <= best_objective):
      best_index = ii
      best_objective = objective_vector[ii]

  return best_index
