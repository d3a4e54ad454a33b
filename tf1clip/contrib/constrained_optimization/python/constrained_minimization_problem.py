"""`tf.contrib.constrained_optimization.ConstrainedMinimizationProblem`: the abstract problem, TF 1.15's class.

A problem has an `objective` to minimize and `constraints` g_i <= 0 (abstract properties a script overrides), and
optionally `proxy_constraints` (differentiated in place of the constraints) and `pre_train_ops` (run before each
train op). `num_constraints` is the number of elements of the constraints, which (and the proxy constraints) must
have fully-known, equal shapes (ValueError otherwise).
"""

import abc


class ConstrainedMinimizationProblem(metaclass=abc.ABCMeta):
  """Abstract class representing a `ConstrainedMinimizationProblem` (TF 1.15's)."""

  @property
  @abc.abstractmethod
  def objective(self):
    """Returns the 0d objective tensor to minimize."""

  @property
  def num_constraints(self):
    """Returns the number of constraints (ValueError unless the constraint shapes are fully known and equal)."""
    constraints_shape = self.constraints.get_shape()
    if self.proxy_constraints is None:
      proxy_constraints_shape = constraints_shape
    else:
      proxy_constraints_shape = self.proxy_constraints.get_shape()

    if (constraints_shape.ndims is None or proxy_constraints_shape.ndims is None or
        any(ii is None for ii in constraints_shape.as_list()) or
        any(ii is None for ii in proxy_constraints_shape.as_list())):
      raise ValueError("constraints and proxy_constraints must have fully-known shapes")
    if constraints_shape != proxy_constraints_shape:
      raise ValueError("constraints and proxy_constraints must have the same shape")

    size = 1
    for ii in constraints_shape.as_list():
      size *= ii
    return int(size)

  @property
  @abc.abstractmethod
  def constraints(self):
    """Returns the tensor of constraint functions (the ith constraint is g_i <= 0)."""

  @property
  def proxy_constraints(self):
    """Returns the optional tensor of proxy constraints (differentiated instead of `constraints`), or None."""
    return None

  @property
  def pre_train_ops(self):
    """Returns a list of `Operation`s to run before the train_op, or None."""
    return None
