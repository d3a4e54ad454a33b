"""TF 1.15's `WishartCholesky` and `WishartFull` on tensorflow-probability's WishartTriL.

tfp continued TF 1.15's Wishart as `WishartTriL(df, scale_tril, input_output_cholesky)`; these subclasses take TF
1.15's arguments (the Cholesky factor, or the full scale matrix factored here) and keep TF 1.15's accessors:
`scale()` (the scale matrix, or its factor with `cholesky_input_output_matrices`), `scale_operator`,
`cholesky_input_output_matrices` and `dimension`; `variance()` is TF 1.15's (its Cholesky factor when inputs and
outputs are factors; tfp returns the variance itself) and so is `stddev()` (the Cholesky factor of the variance).
"""

import tensorflow as tf
import tensorflow_probability as tfp


class _Wishart(tfp.distributions.WishartTriL):
  """WishartTriL with TF 1.15's accessors."""

  def scale(self):  # TF 1.15's was a method; tfp's internals read self._scale
    """Wishart distribution scale matrix."""
    return self.scale_matrix()

  @property
  def scale_operator(self):
    """Wishart distribution scale matrix as a LinearOperator."""
    return self._scale

  @property
  def cholesky_input_output_matrices(self):
    """Boolean indicating if `Tensor` input/outputs are Cholesky factorized."""
    return self.input_output_cholesky

  def _variance(self):
    x = tf.sqrt(self.df) * self._square_scale()
    d = tf.expand_dims(tf.linalg.diag_part(x), -1)
    v = tf.square(x) + tf.matmul(d, d, adjoint_b=True)
    return tf.linalg.cholesky(v) if self.input_output_cholesky else v

  def _stddev(self):
    if self.input_output_cholesky:
      raise ValueError("Computing std. dev. when is cholesky_input_output_matrices=True does not make sense.")
    return tf.linalg.cholesky(self.variance())

  @property
  def dimension(self):
    """Dimension of underlying vector space. The `p` in `R^(p*p)` (a Tensor of the distribution's dtype, as TF 1.15's)."""
    return tf.cast(self._scale.domain_dimension_tensor(), dtype=self.dtype)


def _checked_square(scale, validate_args, checks):
  if not validate_args:
    return scale
  with tf.control_dependencies(checks + [tf.compat.v1.assert_equal(
      tf.shape(scale)[-1], tf.shape(scale)[-2], message="scale must be square")]):
    return tf.identity(scale)


class WishartCholesky(_Wishart):
  """The matrix Wishart distribution parameterized by the Cholesky factor of its scale matrix."""

  def __init__(self, df, scale, cholesky_input_output_matrices=False, validate_args=False, allow_nan_stats=True,
               name="WishartCholesky"):
    with tf.name_scope(name):
      with tf.name_scope("init"):
        scale = tf.convert_to_tensor(scale)
        scale = _checked_square(scale, validate_args, [tf.compat.v1.assert_positive(
            tf.linalg.diag_part(scale), message="scale must be positive definite")])
    super().__init__(df=df, scale_tril=scale, input_output_cholesky=cholesky_input_output_matrices,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)


class WishartFull(_Wishart):
  """The matrix Wishart distribution parameterized by its full, symmetric positive definite scale matrix."""

  def __init__(self, df, scale, cholesky_input_output_matrices=False, validate_args=False, allow_nan_stats=True,
               name="WishartFull"):
    with tf.name_scope(name):
      with tf.name_scope("init"):
        scale = tf.convert_to_tensor(scale)
        if validate_args:
          scale = _checked_square(scale, validate_args, [tf.debugging.assert_equal(
              scale, tf.linalg.adjoint(scale), message="scale must be symmetric")])
        chol = tf.linalg.cholesky(scale)
        if validate_args:
          chol = _checked_square(chol, validate_args, [tf.compat.v1.assert_positive(
              tf.linalg.diag_part(chol), message="scale must be positive definite")])
    super().__init__(df=df, scale_tril=chol, input_output_cholesky=cholesky_input_output_matrices,
                     validate_args=validate_args, allow_nan_stats=allow_nan_stats, name=name)
