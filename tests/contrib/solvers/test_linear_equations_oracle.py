"""tf.contrib.solvers.linear_equations (TF 1.15's solvers/python/ops/linear_equations.py) against TF 1.15:
conjugate_gradient plain, preconditioned, from an initial x and stopped by max_iter (values, CGState, gradients
through the loop, float32) and its error.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.solvers.linear_equations.conjugate_gradient",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
S = tf.contrib.solvers
util = S.util
rng = np.random.RandomState(3)
m = rng.standard_normal((4, 4))
spd = tf.constant(m.dot(m.T) + 4 * np.eye(4))
rhs = tf.constant([1.0, -2.0, 0.5, 3.0], tf.float64)
op = util.create_operator(spd)
jacobi = util.create_operator(tf.linalg.diag(1.0 / tf.linalg.diag_part(spd)))
cg = {"plain": S.linear_equations.conjugate_gradient(op, rhs),
      "precond": S.linear_equations.conjugate_gradient(op, rhs, preconditioner=jacobi),
      "x0": S.linear_equations.conjugate_gradient(op, rhs, x=tf.constant([0.1, 0.2, -0.3, 0.4], tf.float64)),
      "both": S.linear_equations.conjugate_gradient(op, rhs, preconditioner=jacobi,
                                                    x=tf.ones([4], tf.float64), tol=1e-8),
      "two_steps": S.linear_equations.conjugate_gradient(op, rhs, max_iter=2, name="cg2")}
report("cg_type", [type(cg["plain"]).__name__, list(cg["plain"]._fields)])
cg32 = S.linear_equations.conjugate_gradient(util.create_operator(tf.cast(spd, tf.float32)),
                                             tf.cast(rhs, tf.float32))
cg_grad = tf.gradients(tf.reduce_sum(cg["plain"].x), rhs)[0]
report_errors("errors", (
    ("cg_rhs_mismatch", lambda: S.linear_equations.conjugate_gradient(op, tf.constant([1.0, 2.0], tf.float64))),
))
with tf.Session() as sess:
    report("cg", sess.run(cg))
    report("cg32", sess.run([cg32.i, cg32.x]))  # r and p are float32 rounding noise once converged
    report("cg_grad", sess.run(cg_grad))
    report("direct", sess.run(tf.linalg.solve(spd, rhs[:, None])[:, 0]))
'''


@requires_tf115
def test_solvers_linear_equations_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=120)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-9)
