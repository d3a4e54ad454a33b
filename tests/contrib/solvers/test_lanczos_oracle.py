"""tf.contrib.solvers.lanczos (TF 1.15's solvers/python/ops/lanczos.py) against TF 1.15: lanczos_bidiag
(orthogonalize True / False, a fixed starting vector, an operator of unknown static shape, a random start's
invariants, gradients), bidiag_matmul both ways and its error.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.solvers.lanczos.bidiag_matmul", "tf.contrib.solvers.lanczos.lanczos_bidiag")

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
report_errors("errors", (
    ("bidiag_bad_alpha", lambda: S.lanczos.bidiag_matmul(mat, tf.ones([2], tf.float64), beta)),
))
with tf.Session() as sess:
    report("lanczos", sess.run({"ortho": lz, "plain": lz_plain, "full": lz_full}))
    u, vv, al, be = sess.run(lz_random)
    report("lanczos_random_shapes", [list(u.shape), list(vv.shape), list(al.shape), list(be.shape)])
    report("lanczos_random_orthonormal", [np.allclose(u.T.dot(u), np.eye(3)), np.allclose(vv.T.dot(vv), np.eye(2))])
    report("lanczos_unknown", sess.run(lz_unknown, {unknown: sess.run(tall)}))
    report("lanczos_grad", sess.run(lz_grad))
    report("bidiag_matmul", sess.run(bm))
'''

# TensorFlow 2.21's TensorArray.stack infers the static length from a constant TensorArray size, so the results of
# lanczos_bidiag with a Python int k have fully known static shapes where TF 1.15's have an unknown last dimension:
# the values and ranks agree, the static shapes only know more.
DIFFERENCES = {"lanczos_static_shapes": "TF 2.21's TensorArray.stack knows the static length k; TF 1.15's does not"}


@requires_tf115
def test_solvers_lanczos_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=120)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-9, differences=DIFFERENCES)
  assert tf115["lanczos_static_shapes"][0] == ["(6, ?)", "(4, ?)", "(?,)", "(?,)"]
  assert ours["lanczos_static_shapes"][0] == ["(6, 4)", "(4, 3)", "(3,)", "(3,)"]
