"""`tf.contrib.constrained_optimization.ConstrainedOptimizer`: the base class of the constrained optimizers, TF 1.15's.

A `ConstrainedOptimizer` wraps a tf.compat.v1.train.Optimizer and minimizes a `ConstrainedMinimizationProblem`:
`minimize_unconstrained` minimizes the objective alone, `minimize_constrained` (the subclass's
`_minimize_constrained`) the constrained problem, and `minimize` switches from the first to the second once
`global_step` reaches `unconstrained_steps` (a tf.compat.v1.cond, as in TF 1.15). The problem's `pre_train_ops`
run before the train op.
"""

import abc

import tensorflow as tf

_GATE_OP = tf.compat.v1.train.Optimizer.GATE_OP


class ConstrainedOptimizer(metaclass=abc.ABCMeta):
  """Base class representing a constrained optimizer (TF 1.15's)."""

  def __init__(self, optimizer):
    """Constructs a new `ConstrainedOptimizer` around a tf.compat.v1.train.Optimizer."""
    self._optimizer = optimizer

  @property
  def optimizer(self):
    """Returns the `tf.compat.v1.train.Optimizer` used for optimization."""
    return self._optimizer

  @abc.abstractmethod
  def _minimize_constrained(self, minimization_problem, global_step=None, var_list=None, gate_gradients=_GATE_OP,
                            aggregation_method=None, colocate_gradients_with_ops=False, name=None, grad_loss=None):
    """Version of `minimize_constrained` to be overridden by subclasses (ignoring `pre_train_ops`)."""

  def _with_pre_train_ops(self, minimization_problem, train_op_callback):
    # If we have pre_train_ops, use tf.control_dependencies() to ensure that they execute before the train_op.
    pre_train_ops = minimization_problem.pre_train_ops
    if pre_train_ops:
      with tf.control_dependencies(pre_train_ops):
        return train_op_callback()
    return train_op_callback()

  def minimize_constrained(self, minimization_problem, global_step=None, var_list=None, gate_gradients=_GATE_OP,
                           aggregation_method=None, colocate_gradients_with_ops=False, name=None, grad_loss=None):
    """Returns an `Operation` minimizing the objective while satisfying the constraints."""

    def train_op_callback():
      return self._minimize_constrained(
          minimization_problem, global_step=global_step, var_list=var_list, gate_gradients=gate_gradients,
          aggregation_method=aggregation_method, colocate_gradients_with_ops=colocate_gradients_with_ops,
          name=name, grad_loss=grad_loss)

    return self._with_pre_train_ops(minimization_problem, train_op_callback)

  def minimize_unconstrained(self, minimization_problem, global_step=None, var_list=None, gate_gradients=_GATE_OP,
                             aggregation_method=None, colocate_gradients_with_ops=False, name=None, grad_loss=None):
    """Returns an `Operation` minimizing the objective alone (the constraints are ignored)."""

    def train_op_callback():
      return self.optimizer.minimize(
          minimization_problem.objective, global_step=global_step, var_list=var_list,
          gate_gradients=gate_gradients, aggregation_method=aggregation_method,
          colocate_gradients_with_ops=colocate_gradients_with_ops, name=name, grad_loss=grad_loss)

    return self._with_pre_train_ops(minimization_problem, train_op_callback)

  def minimize(self, minimization_problem, unconstrained_steps=None, global_step=None, var_list=None,
               gate_gradients=_GATE_OP, aggregation_method=None, colocate_gradients_with_ops=False, name=None,
               grad_loss=None):
    """Returns an `Operation`: unconstrained updates while global_step < unconstrained_steps, then constrained.

    Raises:
      ValueError: If unconstrained_steps is provided, but global_step is not.
    """
    kwargs = dict(minimization_problem=minimization_problem, global_step=global_step, var_list=var_list,
                  gate_gradients=gate_gradients, aggregation_method=aggregation_method,
                  colocate_gradients_with_ops=colocate_gradients_with_ops, name=name, grad_loss=grad_loss)

    def unconstrained_fn():
      return self.minimize_unconstrained(**kwargs)

    def constrained_fn():
      return self.minimize_constrained(**kwargs)

    if unconstrained_steps is not None:
      if global_step is None:
        raise ValueError("global_step cannot be None if unconstrained_steps is provided")
      unconstrained_steps_tensor = tf.convert_to_tensor(unconstrained_steps)
      dtype = unconstrained_steps_tensor.dtype
      return tf.compat.v1.cond(tf.cast(global_step, dtype) < unconstrained_steps_tensor,
                               true_fn=unconstrained_fn, false_fn=constrained_fn)
    return constrained_fn()


def _checked_constraints(minimization_problem):
  """The problem's (objective, constraints, proxy constraints), the latter two flattened to 1d (TF 1.15's checks).

  Shared by the external- and swap-regret optimizers (TF 1.15 repeats it in both).

  Raises:
    ValueError: If the minimization_problem tensors have different dtypes, or the constraints' shapes are not
      fully known and equal.
  """
  objective = minimization_problem.objective
  constraints = minimization_problem.constraints
  proxy_constraints = minimization_problem.proxy_constraints
  if proxy_constraints is None:
    proxy_constraints = constraints
  # Make sure that the objective, constraints and proxy constraints all have the same dtype.
  if (objective.dtype.base_dtype != constraints.dtype.base_dtype or
      objective.dtype.base_dtype != proxy_constraints.dtype.base_dtype):
    raise ValueError("objective, constraints and proxy_constraints must have the same dtype")
  # Flatten both constraints tensors to 1d.
  num_constraints = minimization_problem.num_constraints
  constraints = tf.reshape(constraints, shape=(num_constraints,))
  proxy_constraints = tf.reshape(proxy_constraints, shape=(num_constraints,))
  return objective, constraints, proxy_constraints, num_constraints


def _update_and_project(constrained, loss, state, state_gradient, global_step, var_list, gate_gradients,
                        aggregation_method, colocate_gradients_with_ops, name, grad_loss):
  """TF 1.15's train op of the regret optimizers: update the model and the state, then project the state.

  Shared by the external- and swap-regret optimizers (TF 1.15 repeats it in both).

  Args:
    constrained: the `_ExternalRegretOptimizer` / `_SwapRegretOptimizer`.
    loss: the Lagrangian (or its swap-regret analogue) the model parameters minimize.
    state: the internal state variable (its `_constraint_grad_and_var` and `_projection_op` are the subclass's).
    state_gradient: the gradient of the loss w.r.t. the Lagrange multipliers / the stochastic matrix.
    global_step, var_list, gate_gradients, aggregation_method, colocate_gradients_with_ops, name, grad_loss: as in
      `tf.compat.v1.train.Optimizer.minimize`.

  Returns:
    `Operation`, the train_op.
  """
  grads_and_vars = constrained.optimizer.compute_gradients(
      loss, var_list=var_list, gate_gradients=gate_gradients, aggregation_method=aggregation_method,
      colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
  state_grad_and_var = constrained._constraint_grad_and_var  # pylint: disable=protected-access
  projection_op = constrained._projection_op  # pylint: disable=protected-access
  update_ops = []
  if constrained.constraint_optimizer is None:
    # Without a separate constraint_optimizer, the optimizer updates both the model parameters and the state.
    grads_and_vars.append(state_grad_and_var(state, state_gradient))
    update_ops.append(constrained.optimizer.apply_gradients(grads_and_vars, name="update"))
  else:
    # With one, the optimizer updates the model parameters and the constraint_optimizer the state.
    state_grads_and_vars = [state_grad_and_var(state, state_gradient)]
    gradients = [gradient for gradient, _ in grads_and_vars + state_grads_and_vars if gradient is not None]
    with tf.control_dependencies(gradients):
      update_ops.append(constrained.optimizer.apply_gradients(grads_and_vars, name="update"))
      update_ops.append(constrained.constraint_optimizer.apply_gradients(state_grads_and_vars,
                                                                         name="optimizer_state_update"))

  with tf.control_dependencies(update_ops):
    if global_step is None:
      # If we don't have a global step, just project, and we're done.
      return projection_op(state, name=name)
    # If we have a global step, then we need to increment it in addition to projecting.
    project = projection_op(state, name="project")
    with tf.compat.v1.colocate_with(global_step):
      global_step_op = tf.compat.v1.assign_add(global_step, 1, name="global_step_increment")
    return tf.group(project, global_step_op, name=name)
