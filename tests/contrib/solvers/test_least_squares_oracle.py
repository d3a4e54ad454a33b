"""tf.contrib.solvers.least_squares (TF 1.15's solvers/python/ops/least_squares.py) against TF 1.15: cgls on a
rectangular system (full and stopped early), CGLSState and its error.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.solvers.least_squares.cgls",)

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
a = tf.constant(rng.standard_normal((5, 3)))
b = tf.constant(rng.standard_normal(5))
ls = S.least_squares.cgls(util.create_operator(a), b)
ls_short = S.least_squares.cgls(util.create_operator(a), b, tol=1e-2, max_iter=1)
report("cgls_type", [type(ls).__name__, list(ls._fields)])
report_errors("errors", (
    ("cgls_dtype_mismatch", lambda: S.least_squares.cgls(util.create_operator(a), tf.ones([5]))),
))
with tf.Session() as sess:
    report("cgls", sess.run({"full": ls, "short": ls_short}))
'''


@requires_tf115
def test_solvers_least_squares_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=120)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-9)
