"""`tf.contrib.constrained_optimization`'s `AdditiveSwapRegretOptimizer` and `MultiplicativeSwapRegretOptimizer`.

TF 1.15's code. Instead of Lagrange multipliers, a left-stochastic (m+1, m+1) matrix weighs the objective and the m
constraints (Cotter, Jiang and Sridharan, arXiv:1804.06500, Definition 2 and Algorithm 2): the model parameters
minimize distribution . (objective, proxy_constraints), where the distribution is the matrix's maximal
right-eigenvector (power method, a tf.compat.v1.while_loop named "power_method"), and the matrix ascends
(0, constraints) x distribution. The matrix is the non-trainable float32 variable `swap_regret_optimizer_state`:
the matrix itself, Euclidean-projected onto the stochastic matrices (additive), or its element-wise logarithm,
KL-projected and bounded below by log(minimum_multiplier_radius / (m + 1)) (multiplicative).
"""

import abc
import math

import tensorflow as tf

import tf1clip.contrib.constrained_optimization.python.constrained_optimizer as constrained_optimizer

_GATE_OP = tf.compat.v1.train.Optimizer.GATE_OP


def _maximal_eigenvector_power_method(matrix, epsilon=1e-6, maximum_iterations=100):
  """Returns the maximal right-eigenvector of `matrix` using the power method.

  Raises:
    ValueError: If the `matrix` tensor is not floating-point, or if the `epsilon` or `maximum_iterations`
      parameters violate their bounds.
  """
  if not matrix.dtype.is_floating:
    raise ValueError("multipliers must have a floating-point dtype")
  if epsilon <= 0.0:
    raise ValueError("epsilon must be strictly positive")
  if maximum_iterations <= 0:
    raise ValueError("maximum_iterations must be strictly positive")

  def while_loop_condition(iteration, eigenvector, old_eigenvector):
    """Returns false if the while loop should terminate."""
    not_done = (iteration < maximum_iterations)
    not_converged = (tf.norm(eigenvector - old_eigenvector) > epsilon)
    return tf.logical_and(not_done, not_converged)

  def while_loop_body(iteration, eigenvector, old_eigenvector):
    """Performs one iteration of the power method."""
    del old_eigenvector  # Needed by the condition, but not the body.
    iteration += 1
    # tf.matmul() and tf.expand_dims() infer the result's shape (tf.while_loop() needs the shapes).
    new_eigenvector = tf.matmul(matrix, tf.expand_dims(eigenvector, 1))[:, 0]
    new_eigenvector /= tf.norm(new_eigenvector)
    return (iteration, new_eigenvector, eigenvector)

  iteration = tf.constant(0)
  eigenvector = tf.ones_like(matrix[:, 0])
  eigenvector /= tf.norm(eigenvector)

  # We actually want a do-while loop, so we explicitly call while_loop_body() once before tf.while_loop().
  iteration, eigenvector, old_eigenvector = while_loop_body(iteration, eigenvector, eigenvector)
  iteration, eigenvector, old_eigenvector = tf.compat.v1.while_loop(
      while_loop_condition, while_loop_body, loop_vars=(iteration, eigenvector, old_eigenvector),
      name="power_method")

  return eigenvector


def _project_stochastic_matrix_wrt_euclidean_norm(matrix):
  """Projects `matrix` column-wise onto the left-stochastic matrices w.r.t. the Euclidean norm.

  Raises:
    ValueError: if the `matrix` tensor is not floating-point, does not have a fully-known shape, or is not
      two-dimensional and square.
  """
  if not matrix.dtype.is_floating:
    raise ValueError("multipliers must have a floating-point dtype")
  matrix_shape = matrix.get_shape()
  if matrix_shape.ndims is None:
    raise ValueError("matrix must have known shape")
  if matrix_shape.ndims != 2:
    raise ValueError("matrix must be two dimensional (instead is %d-dimensional)" % matrix_shape.ndims)
  if matrix_shape[0] != matrix_shape[1]:
    raise ValueError("matrix must be square (instead has shape (%d,%d))" % (matrix_shape[0], matrix_shape[1]))
  dimension = tf.compat.dimension_value(matrix_shape.dims[0])
  if dimension is None:
    raise ValueError("matrix must have fully-known shape")

  def while_loop_condition(iteration, matrix, inactive, old_inactive):
    """Returns false if the while loop should terminate."""
    del matrix  # Needed by the body, but not the condition.
    not_done = (iteration < dimension)
    not_converged = tf.reduce_any(tf.not_equal(inactive, old_inactive))
    return tf.logical_and(not_done, not_converged)

  def while_loop_body(iteration, matrix, inactive, old_inactive):
    """Performs one iteration of the projection."""
    del old_inactive  # Needed by the condition, but not the body.
    iteration += 1
    scale = (1.0 - tf.reduce_sum(matrix, axis=0, keepdims=True)) / tf.maximum(
        1.0, tf.reduce_sum(inactive, axis=0, keepdims=True))
    matrix = matrix + (scale * inactive)
    new_inactive = tf.cast(matrix > 0, matrix.dtype)
    matrix = matrix * new_inactive
    return (iteration, matrix, new_inactive, inactive)

  iteration = tf.constant(0)
  inactive = tf.ones_like(matrix, dtype=matrix.dtype)

  # We actually want a do-while loop, so we explicitly call while_loop_body() once before tf.while_loop().
  iteration, matrix, inactive, old_inactive = while_loop_body(iteration, matrix, inactive, inactive)
  iteration, matrix, inactive, old_inactive = tf.compat.v1.while_loop(
      while_loop_condition, while_loop_body, loop_vars=(iteration, matrix, inactive, old_inactive),
      name="euclidean_projection")

  return matrix


def _project_log_stochastic_matrix_wrt_kl_divergence(log_matrix):
  """Projects exp(`log_matrix`) column-wise onto the left-stochastic matrices w.r.t. the KL-divergence (as logs)."""
  # For numerical reasons, make sure that the largest matrix element is zero before exponentiating.
  log_matrix = log_matrix - tf.reduce_max(log_matrix, axis=0, keepdims=True)
  log_matrix = log_matrix - tf.math.log(tf.reduce_sum(tf.exp(log_matrix), axis=0, keepdims=True))
  return log_matrix


class _SwapRegretOptimizer(constrained_optimizer.ConstrainedOptimizer):
  """Base class of the optimizers minimizing swap regret for the constraints player (TF 1.15's).

  The state (the stochastic matrix, or a representation of it) is accessed via `_initial_state()`,
  `_stochastic_matrix()`, `_constraint_grad_and_var()` and `_projection_op()`, which subclasses define.
  """

  def __init__(self, optimizer, constraint_optimizer=None):
    """`optimizer` updates the model parameters, and the matrix too unless `constraint_optimizer` is given."""
    super().__init__(optimizer=optimizer)
    self._constraint_optimizer = constraint_optimizer

  @property
  def constraint_optimizer(self):
    """Returns the `tf.compat.v1.train.Optimizer` used for the matrix."""
    return self._constraint_optimizer

  @abc.abstractmethod
  def _initial_state(self, num_constraints):
    pass

  @abc.abstractmethod
  def _stochastic_matrix(self, state):
    pass

  def _distribution(self, state):
    distribution = _maximal_eigenvector_power_method(self._stochastic_matrix(state))
    distribution = tf.abs(distribution)
    distribution /= tf.reduce_sum(distribution)
    return distribution

  @abc.abstractmethod
  def _constraint_grad_and_var(self, state, gradient):
    pass

  @abc.abstractmethod
  def _projection_op(self, state, name=None):
    pass

  def _minimize_constrained(self, minimization_problem, global_step=None, var_list=None, gate_gradients=_GATE_OP,
                            aggregation_method=None, colocate_gradients_with_ops=False, name=None, grad_loss=None):
    """Returns an `Operation` for minimizing the constrained problem (ValueError on mixed dtypes)."""
    objective, constraints, proxy_constraints, num_constraints = (
        constrained_optimizer._checked_constraints(minimization_problem))  # pylint: disable=protected-access

    # We use a lambda to initialize the state so that, if this function call is inside the scope of a
    # tf.control_dependencies() block, the dependencies will not be applied to the initializer.
    state = tf.compat.v1.Variable(lambda: self._initial_state(num_constraints), trainable=False,
                                  name="swap_regret_optimizer_state")

    zero_and_constraints = tf.concat((tf.zeros((1,), dtype=constraints.dtype), constraints), axis=0)
    objective_and_proxy_constraints = tf.concat((tf.expand_dims(objective, 0), proxy_constraints), axis=0)

    distribution = self._distribution(state)
    loss = tf.tensordot(tf.cast(distribution, objective_and_proxy_constraints.dtype),
                        objective_and_proxy_constraints, 1)
    matrix_gradient = tf.matmul(tf.expand_dims(tf.cast(zero_and_constraints, distribution.dtype), 1),
                                tf.expand_dims(distribution, 0))

    return constrained_optimizer._update_and_project(  # pylint: disable=protected-access
        self, loss, state, matrix_gradient, global_step, var_list, gate_gradients, aggregation_method,
        colocate_gradients_with_ops, name, grad_loss)


class AdditiveSwapRegretOptimizer(_SwapRegretOptimizer):
  """A `ConstrainedOptimizer` based on swap-regret minimization, with additive matrix updates (TF 1.15's)."""

  def __init__(self, optimizer, constraint_optimizer=None):
    """`optimizer` updates the model parameters, and the matrix too unless `constraint_optimizer` is given."""
    super().__init__(optimizer=optimizer, constraint_optimizer=constraint_optimizer)

  def _initial_state(self, num_constraints):
    # The state is the (m+1, m+1) left-stochastic matrix, all weight on the objective at first.
    dimension = num_constraints + 1
    return tf.concat((tf.ones((1, dimension)), tf.zeros((dimension - 1, dimension))), axis=0)

  def _stochastic_matrix(self, state):
    return state

  def _constraint_grad_and_var(self, state, gradient):
    return (-gradient, state)

  def _projection_op(self, state, name=None):
    with tf.compat.v1.colocate_with(state):
      return tf.compat.v1.assign(state, _project_stochastic_matrix_wrt_euclidean_norm(state), name=name)


class MultiplicativeSwapRegretOptimizer(_SwapRegretOptimizer):
  """A `ConstrainedOptimizer` based on swap-regret minimization, with multiplicative matrix updates (TF 1.15's)."""

  def __init__(self, optimizer, constraint_optimizer=None, minimum_multiplier_radius=1e-3,
               initial_multiplier_radius=None):
    """Constructs a new `MultiplicativeSwapRegretOptimizer`.

    Args:
      optimizer: tf.compat.v1.train.Optimizer, for the model parameters (and the matrix, unless
        constraint_optimizer is given).
      constraint_optimizer: optional tf.compat.v1.train.Optimizer, used to optimize the matrix.
      minimum_multiplier_radius: float, each element of the matrix is at least this divided by one plus the number
        of constraints.
      initial_multiplier_radius: float, the initial value of each constraint element of the matrix, times one plus
        the number of constraints. Defaults to `minimum_multiplier_radius`.

    Raises:
      ValueError: If the two radius parameters are inconsistent.
    """
    super().__init__(optimizer=optimizer, constraint_optimizer=constraint_optimizer)

    if (minimum_multiplier_radius <= 0.0) or (minimum_multiplier_radius >= 1.0):
      raise ValueError("minimum_multiplier_radius must be in the range (0,1)")
    if initial_multiplier_radius is None:
      initial_multiplier_radius = minimum_multiplier_radius
    elif (initial_multiplier_radius < minimum_multiplier_radius) or (minimum_multiplier_radius > 1.0):
      # (TF 1.15 tests minimum_multiplier_radius > 1.0 here, not initial_multiplier_radius: kept.)
      raise ValueError("initial_multiplier_radius must be in the range [minimum_multiplier_radius,1]")

    self._minimum_multiplier_radius = minimum_multiplier_radius
    self._initial_multiplier_radius = initial_multiplier_radius

  def _initial_state(self, num_constraints):
    # The state is the element-wise logarithm of the (m+1, m+1) left-stochastic matrix, as much weight as possible
    # on the objective at first.
    dimension = num_constraints + 1
    log_initial_one = math.log(1.0 - (self._initial_multiplier_radius * (dimension - 1) / (dimension)))
    log_initial_zero = math.log(self._initial_multiplier_radius / dimension)
    return tf.concat((tf.constant(log_initial_one, dtype=tf.float32, shape=(1, dimension)),
                      tf.constant(log_initial_zero, dtype=tf.float32, shape=(dimension - 1, dimension))), axis=0)

  def _stochastic_matrix(self, state):
    return tf.exp(state)

  def _constraint_grad_and_var(self, state, gradient):
    return (-gradient, state)

  def _projection_op(self, state, name=None):
    with tf.compat.v1.colocate_with(state):
      state_shape = state.get_shape()
      assert state_shape is not None
      assert state_shape.ndims == 2
      assert state_shape[0] == state_shape[1]
      dimension = tf.compat.dimension_value(state_shape.dims[0])
      assert dimension is not None

      minimum_log_multiplier = tf.math.log(self._minimum_multiplier_radius / tf.cast(dimension, tf.float32))

      return tf.compat.v1.assign(
          state, tf.maximum(_project_log_stochastic_matrix_wrt_kl_divergence(state), minimum_log_multiplier),
          name=name)
