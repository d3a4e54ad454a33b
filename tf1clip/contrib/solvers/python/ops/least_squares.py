"""`tf.contrib.solvers.least_squares`: `cgls`, TF 1.15's conjugate-gradient least-squares solver.

Mirrors TF 1.15's `tensorflow/contrib/solvers/python/ops/least_squares.py`.

Minimizes `||A x - rhs||_2` for an operator with `shape` ([M, N]), `dtype`, `apply` and `apply_adjoint` (on column
vectors) by CG on the normal equations `A* A x = A* rhs`. It stops after `max_iter` steps or once
`||A* (rhs - A x_k)|| <= tol ||A* rhs||`, and returns TF 1.15's `CGLSState(i, x, r, p, gamma)`.
"""

import collections

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.solvers.python.ops.util as util

CGLSState = collections.namedtuple("CGLSState", ["i", "x", "r", "p", "gamma"])

def cgls(operator, rhs, tol=1e-6, max_iter=20, name="cgls"):
  r"""Conjugate gradient least squares solver (TF 1.15's).

  Args:
    operator: a linear operator with `shape` ([M, N]), `dtype`, `apply` and `apply_adjoint`.
    rhs: a rank-1 `Tensor` of shape `[M]`.
    tol: a float: stop once `||A* r||` is `tol` times its initial value.
    max_iter: the maximum number of iterations.
    name: a name scope.

  Returns:
    `CGLSState(i, x, r, p, gamma)`: the iterations run, the solution ([N]), the residual ([M]), the next descent
    direction ([N]) and `||A* r||^2`.
  """

  def stopping_criterion(i, state):
    return tf.math.logical_and(i < max_iter, state.gamma > tol)

  def cgls_step(i, state):
    q = operator.apply(state.p)
    alpha = state.gamma / util.l2norm_squared(q)
    x = state.x + alpha * state.p
    r = state.r - alpha * q
    s = operator.apply_adjoint(r)
    gamma = util.l2norm_squared(s)
    beta = gamma / state.gamma
    p = s + beta * state.p
    return i + 1, CGLSState(i + 1, x, r, p, gamma)

  with tf.compat.v1.name_scope(name):
    n = operator.shape[1:]
    rhs = tf.expand_dims(rhs, -1)
    s0 = operator.apply_adjoint(rhs)
    gamma0 = util.l2norm_squared(s0)
    tol = tol * tol * gamma0
    x = tf.expand_dims(tf.zeros(n, dtype=rhs.dtype.base_dtype), -1)
    i = tf.constant(0, dtype=tf.int32)
    state = CGLSState(i=i, x=x, r=rhs, p=s0, gamma=gamma0)
    _, state = tf.compat.v1.while_loop(stopping_criterion, cgls_step, [i, state])
    return CGLSState(state.i, x=tf.squeeze(state.x), r=tf.squeeze(state.r), p=tf.squeeze(state.p),
                     gamma=state.gamma)

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.solvers.least_squares")
