"""`tf.contrib.solvers.lanczos`: Lanczos bidiagonalization and bidiagonal matmul, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/solvers/python/ops/lanczos.py`.

`lanczos_bidiag(operator, k)` runs k steps of Golub-Kahan-Lanczos bidiagonalization (with iterated modified
Gram-Schmidt re-orthogonalization unless `orthogonalize=False`), giving `U` [m, k+1], `V` [n, k] and the lower
bidiagonal `B` [k+1, k] (`alpha` its diagonal, `beta` its subdiagonal) with `A V = U B`, as TF 1.15's
`LanczosBidiagState(u, v, alpha, beta)`. Without `starting_vector` it starts from a uniform random vector in
[-1, 1). `bidiag_matmul(A, alpha, beta, adjoint_b)` multiplies by `B` (or by `B[:-1, :]'`).
"""

import collections

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.solvers.python.ops.util as util

LanczosBidiagState = collections.namedtuple("LanczosBidiagState", ["u", "v", "alpha", "beta"])

def lanczos_bidiag(operator, k, orthogonalize=True, starting_vector=None, name="lanczos_bidiag"):
  """Computes a Lanczos bidiagonalization for a linear operator (TF 1.15's).

  Args:
    operator: a linear operator with `shape` ([M, N]), `dtype`, `apply` and `apply_adjoint` (column vectors).
    k: an int or scalar int32 `Tensor`: the number of steps.
    orthogonalize: if True, full (iterated modified Gram-Schmidt) re-orthogonalization; if False, none.
    starting_vector: optional `Tensor` of shape `[M]` (the first left Lanczos vector before normalization).
    name: a name scope.

  Returns:
    `LanczosBidiagState(u, v, alpha, beta)`: `u` [M, k+1] and `v` [N, k] with orthonormal columns, `alpha` and
    `beta` [k] the diagonal and subdiagonal of B.
  """

  def tarray(size, dtype, name):
    return tf.compat.v1.TensorArray(dtype=dtype, size=size, tensor_array_name=name, clear_after_read=False)

  # Lanczos vectors are stored as the rows of the TensorArrays and used as column vectors.
  def read_colvec(tarray, i):
    return tf.expand_dims(tarray.read(i), -1)

  def write_colvec(tarray, colvec, i):
    return tarray.write(i, tf.squeeze(colvec))

  def update_state(old, i, u, v, alpha, beta):
    return LanczosBidiagState(write_colvec(old.u, u, i + 1), write_colvec(old.v, v, i), old.alpha.write(i, alpha),
                              old.beta.write(i, beta))

  def gram_schmidt_step(j, basis, v):
    """Makes v orthogonal to the j'th vector in basis."""
    v_shape = v.get_shape()
    basis_vec = read_colvec(basis, j)
    v -= tf.linalg.matmul(basis_vec, v, adjoint_a=True) * basis_vec
    v.set_shape(v_shape)
    return j + 1, basis, v

  def orthogonalize_once(i, basis, v):
    j = tf.constant(0, dtype=tf.int32)
    _, _, v = tf.compat.v1.while_loop(lambda j, basis, v: j < i, gram_schmidt_step, [j, basis, v])
    return util.l2normalize(v)

  # Iterated modified Gram-Schmidt orthogonalization adapted from PROPACK: a second round when the norm drops by
  # more than 1/sqrt(2) (Parlett, "The Symmetric Eigenvalue Problem", 1980, pp. 105-109).
  def orthogonalize_(i, basis, v):
    v_norm = util.l2norm(v)
    v_new, v_new_norm = orthogonalize_once(i, basis, v)
    return tf.compat.v1.cond(v_new_norm < 0.7071 * v_norm, lambda: orthogonalize_once(i, basis, v),
                             lambda: (v_new, v_new_norm))

  def stopping_criterion(i, _):
    return i < k

  def lanczos_bidiag_step(i, ls):
    """Extends the Lanczos bidiagonalization ls by one step."""
    u = read_colvec(ls.u, i)
    r = operator.apply_adjoint(u)
    r_shape = r.get_shape()  # shape inference does not cross cond: saved and reapplied
    r = tf.compat.v1.cond(i > 0, lambda: r - ls.beta.read(i - 1) * read_colvec(ls.v, i - 1), lambda: r)
    r.set_shape(r_shape)
    if orthogonalize:
      v, alpha = orthogonalize_(i - 1, ls.v, r)
    else:
      v, alpha = util.l2normalize(r)
    p = operator.apply(v) - alpha * u
    if orthogonalize:
      u, beta = orthogonalize_(i, ls.u, p)
    else:
      u, beta = util.l2normalize(p)
    return i + 1, update_state(ls, i, u, v, alpha, beta)

  with tf.compat.v1.name_scope(name):
    dtype = operator.dtype
    if starting_vector is None:
      starting_vector = tf.compat.v1.random_uniform(operator.shape[:1], -1, 1, dtype=dtype)
    u0, _ = util.l2normalize(starting_vector)
    ls = LanczosBidiagState(u=write_colvec(tarray(k + 1, dtype, "u"), u0, 0), v=tarray(k, dtype, "v"),
                            alpha=tarray(k, dtype, "alpha"), beta=tarray(k, dtype, "beta"))
    i = tf.constant(0, dtype=tf.int32)
    _, ls = tf.compat.v1.while_loop(stopping_criterion, lanczos_bidiag_step, [i, ls])
    return LanczosBidiagState(tf.linalg.matrix_transpose(ls.u.stack()), tf.linalg.matrix_transpose(ls.v.stack()),
                              ls.alpha.stack(), ls.beta.stack())

def bidiag_matmul(matrix, alpha, beta, adjoint_b=False, name="bidiag_matmul"):
  """Multiplies a matrix by a bidiagonal matrix (TF 1.15's).

  `alpha` and `beta` (length k) are the diagonal and first lower subdiagonal of the (k+1) x k matrix B.
  With `adjoint_b` False: `A * B = A[:, :-1] * diag(alpha) + A[:, 1:] * diag(beta)`; otherwise
  `A * B[:-1, :]' = A * diag(alpha) + [zeros(m, 1), A[:, :-1] * diag(beta[:-1])]`. As in TF 1.15, only
  `adjoint_b is False` selects the first form (any other value, 0 included, the second).

  Args:
    matrix: a rank-2 `Tensor` A.
    alpha: a rank-1 `Tensor`, the diagonal of B.
    beta: a rank-1 `Tensor`, the lower subdiagonal of B.
    adjoint_b: whether to multiply by `B[:-1, :]'` instead of B.
    name: a name scope.

  Returns:
    `A * B`, or `A * B[:-1, :]'` when `adjoint_b` is not False.
  """
  with tf.compat.v1.name_scope(name):
    alpha = tf.expand_dims(alpha, 0)
    if adjoint_b is False:
      beta = tf.expand_dims(beta, 0)
      return matrix[:, :-1] * alpha + matrix[:, 1:] * beta
    beta = tf.expand_dims(beta[:-1], 0)
    shape = tf.shape(matrix)
    zero_column = tf.expand_dims(tf.zeros(shape[:1], dtype=matrix.dtype), 1)
    return matrix * alpha + tf.concat([zero_column, matrix[:, :-1] * beta], 1)

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.solvers.lanczos")
