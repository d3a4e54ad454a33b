"""`tf.contrib.constrained_optimization.AdditiveExternalRegretOptimizer`: Lagrange multipliers, TF 1.15's code.

The optimizer minimizes the Lagrangian objective + multipliers . proxy_constraints over the model parameters and
maximizes it over the multipliers (gradient: the constraints), with tf.compat.v1.train.Optimizers (Cotter, Jiang
and Sridharan, "Two-Player Games for Efficient Non-Convex Constrained Optimization", arXiv:1804.06500, Definition 1
and Algorithm 3). The multipliers live in the non-trainable float32 variable `external_regret_optimizer_state`
(shape (m,), zeros at first); after each update they are projected onto the nonnegative orthant, or onto
{sum <= maximum_multiplier_radius} when a radius is given (a tf.compat.v1.while_loop named "euclidean_projection").
"""

import abc

import tensorflow as tf

import tf1clip.contrib.constrained_optimization.python.constrained_optimizer as constrained_optimizer

_GATE_OP = tf.compat.v1.train.Optimizer.GATE_OP


def _project_multipliers_wrt_euclidean_norm(multipliers, radius):
  """Projects `multipliers` onto the nonnegative vectors with sum at most `radius` (Euclidean norm).

  Raises:
    ValueError: if the `multipliers` tensor is not floating-point, does not have a fully-known shape, or is not
      one-dimensional.
  """
  if not multipliers.dtype.is_floating:
    raise ValueError("multipliers must have a floating-point dtype")
  multipliers_shape = multipliers.get_shape()
  if multipliers_shape.ndims is None:
    raise ValueError("multipliers must have known shape")
  if multipliers_shape.ndims != 1:
    raise ValueError("multipliers must be one dimensional (instead is %d-dimensional)" % multipliers_shape.ndims)
  dimension = tf.compat.dimension_value(multipliers_shape.dims[0])
  if dimension is None:
    raise ValueError("multipliers must have fully-known shape")

  def while_loop_condition(iteration, multipliers, inactive, old_inactive):
    """Returns false if the while loop should terminate."""
    del multipliers  # Needed by the body, but not the condition.
    not_done = (iteration < dimension)
    not_converged = tf.reduce_any(tf.not_equal(inactive, old_inactive))
    return tf.logical_and(not_done, not_converged)

  def while_loop_body(iteration, multipliers, inactive, old_inactive):
    """Performs one iteration of the projection."""
    del old_inactive  # Needed by the condition, but not the body.
    iteration += 1
    scale = tf.minimum(0.0, (radius - tf.reduce_sum(multipliers)) / tf.maximum(1.0, tf.reduce_sum(inactive)))
    multipliers = multipliers + (scale * inactive)
    new_inactive = tf.cast(multipliers > 0, multipliers.dtype)
    multipliers = multipliers * new_inactive
    return (iteration, multipliers, new_inactive, inactive)

  iteration = tf.constant(0)
  inactive = tf.ones_like(multipliers, dtype=multipliers.dtype)

  # We actually want a do-while loop, so we explicitly call while_loop_body() once before tf.while_loop().
  iteration, multipliers, inactive, old_inactive = while_loop_body(iteration, multipliers, inactive, inactive)
  iteration, multipliers, inactive, old_inactive = tf.compat.v1.while_loop(
      while_loop_condition, while_loop_body, loop_vars=(iteration, multipliers, inactive, old_inactive),
      name="euclidean_projection")

  return multipliers


class _ExternalRegretOptimizer(constrained_optimizer.ConstrainedOptimizer):
  """Base class of the optimizers minimizing external regret for the constraints player (TF 1.15's).

  The state (the Lagrange multipliers) is accessed via `_initial_state()`, `_lagrange_multipliers()`,
  `_constraint_grad_and_var()` and `_projection_op()`, which subclasses define.
  """

  def __init__(self, optimizer, constraint_optimizer=None):
    """`optimizer` updates the model parameters, and the multipliers too unless `constraint_optimizer` is given."""
    super().__init__(optimizer=optimizer)
    self._constraint_optimizer = constraint_optimizer

  @property
  def constraint_optimizer(self):
    """Returns the `tf.compat.v1.train.Optimizer` used for the Lagrange multipliers."""
    return self._constraint_optimizer

  @abc.abstractmethod
  def _initial_state(self, num_constraints):
    pass

  @abc.abstractmethod
  def _lagrange_multipliers(self, state):
    pass

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
                                  name="external_regret_optimizer_state")

    multipliers = self._lagrange_multipliers(state)
    loss = (objective + tf.tensordot(tf.cast(multipliers, proxy_constraints.dtype), proxy_constraints, 1))
    multipliers_gradient = tf.cast(constraints, multipliers.dtype)

    return constrained_optimizer._update_and_project(  # pylint: disable=protected-access
        self, loss, state, multipliers_gradient, global_step, var_list, gate_gradients, aggregation_method,
        colocate_gradients_with_ops, name, grad_loss)


class AdditiveExternalRegretOptimizer(_ExternalRegretOptimizer):
  """A `ConstrainedOptimizer` based on external-regret minimization, with additive multiplier updates (TF 1.15's)."""

  def __init__(self, optimizer, constraint_optimizer=None, maximum_multiplier_radius=None):
    """Constructs a new `AdditiveExternalRegretOptimizer`.

    Args:
      optimizer: tf.compat.v1.train.Optimizer, for the model parameters (and the multipliers, unless
        constraint_optimizer is given).
      constraint_optimizer: optional tf.compat.v1.train.Optimizer, used to optimize the Lagrange multipliers.
      maximum_multiplier_radius: float, an optional upper bound on the sum of the Lagrange multipliers.

    Raises:
      ValueError: If the maximum_multiplier_radius parameter is nonpositive.
    """
    super().__init__(optimizer=optimizer, constraint_optimizer=constraint_optimizer)

    if maximum_multiplier_radius and (maximum_multiplier_radius <= 0.0):
      raise ValueError("maximum_multiplier_radius must be strictly positive")

    self._maximum_multiplier_radius = maximum_multiplier_radius

  def _initial_state(self, num_constraints):
    # The state is the tensor of Lagrange multipliers, shape (m,) for m constraints (float32, as in TF 1.15).
    return tf.zeros((num_constraints,), dtype=tf.float32)

  def _lagrange_multipliers(self, state):
    return state

  def _constraint_grad_and_var(self, state, gradient):
    return (-gradient, state)

  def _projection_op(self, state, name=None):
    with tf.compat.v1.colocate_with(state):
      if self._maximum_multiplier_radius:
        projected_multipliers = _project_multipliers_wrt_euclidean_norm(state, self._maximum_multiplier_radius)
      else:
        projected_multipliers = tf.maximum(state, 0.0)
      return tf.compat.v1.assign(state, projected_multipliers, name=name)
