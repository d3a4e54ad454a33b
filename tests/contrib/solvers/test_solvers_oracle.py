"""tf.contrib.solvers against TF 1.15: conjugate_gradient (plain, preconditioned, from an initial x, stopped by
max_iter), cgls on a rectangular system, lanczos_bidiag (orthogonalize True / False, a fixed starting vector, an
operator of unknown static shape), bidiag_matmul both ways, the util operators and norms; values, namedtuple
type names and fields, gradients through the solver loops, and the errors of bad input."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.solvers", "tf.contrib.solvers.lanczos.bidiag_matmul", "tf.contrib.solvers.lanczos.lanczos_bidiag",
    "tf.contrib.solvers.least_squares.cgls", "tf.contrib.solvers.linear_equations.conjugate_gradient",
    "tf.contrib.solvers.util.create_operator", "tf.contrib.solvers.util.dot",
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
a = tf.constant(rng.standard_normal((5, 3)))
b = tf.constant(rng.standard_normal(5))
ls = S.least_squares.cgls(util.create_operator(a), b)
ls_short = S.least_squares.cgls(util.create_operator(a), b, tol=1e-2, max_iter=1)
report("cgls_type", [type(ls).__name__, list(ls._fields)])
tall = tf.constant(rng.standard_normal((6, 4)))
start = tf.constant([1.0, 0.5, -0.5, 2.0, 0.0, 1.0], tf.float64)
lz = S.lanczos.lanczos_bidiag(util.create_operator(tall), 3, starting_vector=start)
lz_plain = S.lanczos.lanczos_bidiag(util.create_operator(tall), 3, orthogonalize=False, starting_vector=start)
lz_full = S.lanczos.lanczos_bidiag(util.create_operator(tall), 4, starting_vector=start)
lz_random = S.lanczos.lanczos_bidiag(util.create_operator(tall), 2)  # random start: only invariants compared
report("lanczos_type", [type(lz).__name__, list(lz._fields)])
report("lanczos_static_ranks", [[t.shape.ndims for t in lz], lz.u.shape.as_list()[0], lz.v.shape.as_list()[0]])
report("lanczos_static_shapes", [[str(t.shape) for t in r] for r in (lz, lz_plain)])  # see DIFFERENCES
unknown = tf.placeholder(tf.float64, [None, None])
unknown_op = util.create_operator(unknown)
lz_unknown = S.lanczos.lanczos_bidiag(unknown_op, 2, starting_vector=start)
report("unknown_shape_is_tensor", isinstance(unknown_op.shape, tf.Tensor))
lz_grad = tf.gradients(tf.reduce_sum(lz_plain.alpha) + tf.reduce_sum(lz_plain.beta), tall)[0]
mat = tf.constant(rng.standard_normal((3, 4)))
alpha = tf.constant([1.0, 2.0, 3.0], tf.float64)
beta = tf.constant([0.5, -1.0, 4.0], tf.float64)
bm = {"b": S.lanczos.bidiag_matmul(mat, alpha, beta),
      "bt": S.lanczos.bidiag_matmul(mat[:, :3], alpha, beta, adjoint_b=True),
      "bt_zero": S.lanczos.bidiag_matmul(mat[:, :3], alpha, beta, adjoint_b=0)}  # only `is False` means B
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
    ("cg_rhs_mismatch", lambda: S.linear_equations.conjugate_gradient(op, tf.constant([1.0, 2.0], tf.float64))),
    ("cgls_dtype_mismatch", lambda: S.least_squares.cgls(util.create_operator(a), tf.ones([5]))),
    ("bidiag_bad_alpha", lambda: S.lanczos.bidiag_matmul(mat, tf.ones([2], tf.float64), beta)),
))
report("module_names", sorted(n for n in ("lanczos", "least_squares", "linear_equations", "util") if hasattr(S, n)))
with tf.Session() as sess:
    report("cg", sess.run(cg))
    report("cg32", sess.run([cg32.i, cg32.x]))  # r and p are float32 rounding noise once converged
    report("cg_grad", sess.run(cg_grad))
    report("direct", sess.run(tf.linalg.solve(spd, rhs[:, None])[:, 0]))
    report("cgls", sess.run({"full": ls, "short": ls_short}))
    report("lanczos", sess.run({"ortho": lz, "plain": lz_plain, "full": lz_full}))
    u, vv, al, be = sess.run(lz_random)
    report("lanczos_random_shapes", [list(u.shape), list(vv.shape), list(al.shape), list(be.shape)])
    report("lanczos_random_orthonormal", [np.allclose(u.T.dot(u), np.eye(3)), np.allclose(vv.T.dot(vv), np.eye(2))])
    report("lanczos_unknown", sess.run(lz_unknown, {unknown: sess.run(tall)}))
    report("lanczos_grad", sess.run(lz_grad))
    report("bidiag_matmul", sess.run(bm))
    report("util", sess.run(ut, {unknown: np.zeros((2, 3))}))
'''


# TensorFlow 2.21's TensorArray.stack infers the static length from a constant TensorArray size, so the results of
# lanczos_bidiag with a Python int k have fully known static shapes where TF 1.15's have an unknown last dimension:
# the values and ranks agree, the static shapes only know more.
DIFFERENCES = {"lanczos_static_shapes": "TF 2.21's TensorArray.stack knows the static length k; TF 1.15's does not"}


@requires_tf115
def test_contrib_solvers_match_tf115():
  tf115, ours = run_both(SNIPPET, timeout=120)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-9, differences=DIFFERENCES)
  assert tf115["lanczos_static_shapes"][0] == ["(6, ?)", "(4, ?)", "(?,)", "(?,)"]
  assert ours["lanczos_static_shapes"][0] == ["(6, 4)", "(4, 3)", "(3,)", "(3,)"]
