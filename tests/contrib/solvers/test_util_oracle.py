"""tf.contrib.solvers.util (TF 1.15's solvers/python/ops/util.py) and the solvers package against TF 1.15: the
operator namedtuples (create_operator, identity_operator, apply / apply_adjoint, an unknown static shape), dot,
l2norm, l2norm_squared, l2normalize, the errors of bad input, and the package's four modules.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.solvers", "tf.contrib.solvers.util.create_operator", "tf.contrib.solvers.util.dot",
    "tf.contrib.solvers.util.identity_operator", "tf.contrib.solvers.util.l2norm",
    "tf.contrib.solvers.util.l2norm_squared", "tf.contrib.solvers.util.l2normalize")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
S = tf.contrib.solvers
util = S.util
# the four modules (TF 1.15's __future__ imports and its implementation package `python` aside)
report("solvers_public", sorted(n for n in dir(S) if not n.startswith("_") and n not in (
    "absolute_import", "division", "print_function", "python")))
rng = np.random.RandomState(3)
m = rng.standard_normal((4, 4))
spd = tf.constant(m.dot(m.T) + 4 * np.eye(4))
rhs = tf.constant([1.0, -2.0, 0.5, 3.0], tf.float64)
op = util.create_operator(spd)
report("operator", [type(op).__name__, list(op._fields), op.shape, op.dtype.name])
a = tf.constant(rng.standard_normal((5, 3)))
b = tf.constant(rng.standard_normal(5))
unknown = tf.placeholder(tf.float64, [None, None])
unknown_op = util.create_operator(unknown)
v = tf.constant([3.0, -4.0, 12.0])
z = tf.constant([1.0 + 2.0j, -1.0j])
ident = util.identity_operator(spd)
normalized, norm = util.l2normalize(v)
ut = {"dot": util.dot(v, tf.constant([1.0, 2.0, 3.0])), "dot_complex": util.dot(z, tf.constant([2.0 + 0j, 1.0j])),
      "l2norm": util.l2norm(v), "l2norm_squared": util.l2norm_squared(v),
      "normalized": normalized, "norm": norm,
      "apply": op.apply(tf.ones([4, 1], tf.float64)), "apply_adjoint": util.create_operator(a).apply_adjoint(
          tf.ones([5, 1], tf.float64)),
      "ident_apply": ident.apply(tf.ones([4, 1], tf.float64)), "unknown_shape": unknown_op.shape}
report("identity", [type(ident).__name__, ident.shape, ident.dtype.name])
report_errors("errors", (
    ("numpy_matrix", lambda: util.create_operator(np.eye(2))),
    ("l2norm_int", lambda: util.l2norm(tf.constant([1, 2]))),
))
report("module_names", sorted(n for n in ("lanczos", "least_squares", "linear_equations", "util") if hasattr(S, n)))
with tf.Session() as sess:
    report("util", sess.run(ut, {unknown: np.zeros((2, 3))}))
'''


@requires_tf115
def test_solvers_util_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=120)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-9)
