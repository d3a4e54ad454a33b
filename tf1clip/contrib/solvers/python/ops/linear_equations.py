"""`tf.contrib.solvers.linear_equations`: `conjugate_gradient`, TF 1.15's (preconditioned) CG solver.

Mirrors TF 1.15's `tensorflow/contrib/solvers/python/ops/linear_equations.py`.

Solves `A x = rhs` for a self-adjoint positive definite operator (`util.create_operator`'s namedtuple or any object
with `shape`, `dtype` and `apply` on column vectors), optionally with a preconditioner `M ~ A^-1` and an initial
`x`. It stops after `max_iter` steps or once `||r|| <= tol * ||r0||`, and returns TF 1.15's
`CGState(i, x, r, p, gamma)`.
"""

import collections

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.solvers.python.ops.util as util

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])

def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-4, max_iter=20, name="conjugate_gradient"):
  r"""Conjugate gradient solver for `A x = rhs` with self-adjoint, positive definite `A` (TF 1.15's).

  Args:
    operator: a linear operator with `shape` ([N, N]), `dtype` and `apply` (column vector -> A * x).
    rhs: a rank-1 `Tensor` of shape `[N]`.
    preconditioner: optional operator approximating `A^{-1}` (its `apply` is used).
    x: optional rank-1 `Tensor` of shape `[N]`, the initial guess.
    tol: a float: stop once the residual norm is `tol` times its initial value.
    max_iter: the maximum number of iterations.
    name: a name scope.

  Returns:
    `CGState(i, x, r, p, gamma)`: the iterations run, the solution, the residual, the last `A`-conjugate
    direction (rank-1) and `r . M r` (`||r||^2` without a preconditioner).
  """

  def preconditioned(residual):
    return residual if preconditioner is None else preconditioner.apply(residual)

  def stopping_criterion(i, state):
    return tf.math.logical_and(i < max_iter, tf.compat.v1.norm(state.r) > tol)

  def cg_step(i, state):
    z = operator.apply(state.p)
    alpha = state.gamma / util.dot(state.p, z)
    x = state.x + alpha * state.p
    r = state.r - alpha * z
    q = preconditioned(r)  # the next direction before conjugation: r itself without a preconditioner
    gamma = util.dot(r, q)
    p = q + (gamma / state.gamma) * state.p
    return i + 1, CGState(i + 1, x, r, p, gamma)

  with tf.compat.v1.name_scope(name):
    n = operator.shape[1:]
    rhs = tf.expand_dims(rhs, -1)
    if x is None:
      x = tf.expand_dims(tf.zeros(n, dtype=rhs.dtype.base_dtype), -1)
      r0 = rhs
    else:
      x = tf.expand_dims(x, -1)
      r0 = rhs - operator.apply(x)
    p0 = preconditioned(r0)
    gamma0 = util.dot(r0, p0)
    tol *= tf.compat.v1.norm(r0)
    i = tf.constant(0, dtype=tf.int32)
    state = CGState(i=i, x=x, r=r0, p=p0, gamma=gamma0)
    _, state = tf.compat.v1.while_loop(stopping_criterion, cg_step, [i, state])
    return CGState(state.i, x=tf.squeeze(state.x), r=tf.squeeze(state.r), p=tf.squeeze(state.p),
                   gamma=state.gamma)

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.solvers.linear_equations")
