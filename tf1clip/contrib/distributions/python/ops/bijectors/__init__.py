"""`tf.contrib.distributions.bijectors`: tensorflow-probability 0.25's bijectors, and TF 1.15's that tfp dropped.

TF 1.15's bijectors continued in `tfp.bijectors`; the names that still exist there are served as tfp's objects
(imported below). The ones tfp removed or renamed are TF 1.15's code here, as `tfp.bijectors.Bijector`
subclasses (so they chain with tfp's bijectors and transform tfp's distributions): `AffineScalar`, `Affine`,
`AffineLinearOperator`, `Gumbel` (tfp's GumbelCDF), `Kumaraswamy` (the inverse of tfp's KumaraswamyCDF: TF 1.15's
forward was the quantile function), `Ordered` (the inverse of tfp's Ascending), `ScaleTriL` (tfp's FillScaleTriL
under TF 1.15's name and construction) and `ConditionalBijector` (tfp's Bijector methods take the condition
keywords themselves).
"""

import importlib

import numpy as np
import tensorflow as tf
import tensorflow_probability as tfp

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow_probability import bijectors as _bijectors
AbsoluteValue = _bijectors.AbsoluteValue
Bijector = _bijectors.Bijector
Chain = _bijectors.Chain
CholeskyOuterProduct = _bijectors.CholeskyOuterProduct
Exp = _bijectors.Exp
Identity = _bijectors.Identity
Inline = _bijectors.Inline
Invert = _bijectors.Invert
MaskedAutoregressiveFlow = _bijectors.MaskedAutoregressiveFlow
Permute = _bijectors.Permute
PowerTransform = _bijectors.PowerTransform
RealNVP = _bijectors.RealNVP
Reshape = _bijectors.Reshape
Sigmoid = _bijectors.Sigmoid
Softplus = _bijectors.Softplus
Softsign = _bijectors.Softsign
Square = _bijectors.Square
TransformDiagonal = _bijectors.TransformDiagonal
masked_autoregressive_default_template = _bijectors.masked_autoregressive_default_template
masked_dense = _bijectors.masked_dense
real_nvp_default_template = _bijectors.real_nvp_default_template
import tf1clip.contrib.distributions.python.ops.distribution_util as distribution_util

_B = tfp.bijectors


def _with_checks(value, checks):
  if not checks:
    return value
  with tf.control_dependencies(checks):
    return tf.identity(value)


class ConditionalBijector(_B.Bijector):
  """A Bijector whose methods forward `**condition_kwargs` to the subclass's `_forward` / `_inverse` / ...."""

  def __init__(self, graph_parents=None, is_constant_jacobian=False, validate_args=False, dtype=None,
               forward_min_event_ndims=None, inverse_min_event_ndims=None, name=None):
    # tfp tells "not given" from None by a sentinel: pass only what the subclass gave (TF 1.15 derived the other)
    event_ndims = {key: value for key, value in (("forward_min_event_ndims", forward_min_event_ndims),
                                                 ("inverse_min_event_ndims", inverse_min_event_ndims))
                   if value is not None}
    super().__init__(graph_parents=graph_parents, is_constant_jacobian=is_constant_jacobian,
                     validate_args=validate_args, dtype=dtype, parameters={}, name=name, **event_ndims)


class AffineScalar(_B.Bijector):
  """Y = scale * X + shift, elementwise (either may be None)."""

  def __init__(self, shift=None, scale=None, validate_args=False, name="affine_scalar"):
    parameters = dict(locals())
    with tf.name_scope(name + "/init" if name else "init"):
      self._shift = None if shift is None else tf.convert_to_tensor(shift, name="shift")
      self._scale = None if scale is None else tf.convert_to_tensor(scale, name="scale")
      if self._scale is not None and validate_args:
        self._scale = _with_checks(self._scale, [tf.compat.v1.assert_none_equal(
            self._scale, tf.zeros([], self._scale.dtype))])
    super().__init__(forward_min_event_ndims=0, is_constant_jacobian=True, validate_args=validate_args,
                     parameters=parameters, name=name)

  @property
  def shift(self):
    return self._shift

  @property
  def scale(self):
    return self._scale

  def _forward(self, x):
    y = tf.identity(x)
    if self.scale is not None:
      y *= self.scale
    if self.shift is not None:
      y += self.shift
    return y

  def _inverse(self, y):
    x = tf.identity(y)
    if self.shift is not None:
      x -= self.shift
    if self.scale is not None:
      x /= self.scale
    return x

  def _forward_log_det_jacobian(self, x):
    if self.scale is None:
      return tf.constant(0.0, dtype=x.dtype.base_dtype)
    return tf.math.log(tf.abs(self.scale))


class AffineLinearOperator(_B.Bijector):
  """Y = scale @ X + shift for a LinearOperator `scale` over the last axis."""

  def __init__(self, shift=None, scale=None, validate_args=False, name="affine_linear_operator"):
    parameters = dict(locals())
    dtype = tf.float32
    with tf.name_scope(name + "/init" if name else "init"):
      if shift is not None:
        shift = tf.convert_to_tensor(shift, name="shift")
        dtype = shift.dtype.base_dtype
      if scale is not None:
        if shift is not None and shift.dtype.base_dtype != scale.dtype.base_dtype:
          raise TypeError("shift.dtype({}) is incompatible with scale.dtype({}).".format(shift.dtype, scale.dtype))
        if not isinstance(scale, tf.linalg.LinearOperator):
          raise TypeError("scale is not an instance of tf.LinearOperator")
        if validate_args and not scale.is_non_singular:
          raise ValueError("Scale matrix must be non-singular.")
        if scale.dtype is not None:
          dtype = scale.dtype.base_dtype
    self._shift = shift
    self._scale = scale
    super().__init__(forward_min_event_ndims=1, is_constant_jacobian=True, dtype=dtype,
                     validate_args=validate_args, parameters=parameters, name=name)

  @property
  def shift(self):
    return self._shift

  @property
  def scale(self):
    return self._scale

  def _scale_checks(self):
    if not self.validate_args:
      return []
    try:
      return [self.scale.assert_non_singular()]
    except NotImplementedError:
      return []

  def _forward(self, x):
    y = x
    if self.scale is not None:
      with tf.control_dependencies(self._scale_checks()):
        y = self.scale.matvec(y)
    if self.shift is not None:
      y += self.shift
    return y

  def _inverse(self, y):
    x = y
    if self.shift is not None:
      x -= self.shift
    if self.scale is not None:
      x = self.scale.solvevec(x)
    return x

  def _forward_log_det_jacobian(self, x):
    if self.scale is None:
      return tf.constant(0.0, dtype=x.dtype.base_dtype)
    with tf.control_dependencies(self._scale_checks()):
      return self.scale.log_abs_determinant()


class Affine(AffineLinearOperator):
  """Y = scale @ X + shift, `scale` = multiplier * I + diag + tril (+ a low-rank perturbation), TF 1.15's."""

  def __init__(self, shift=None, scale_identity_multiplier=None, scale_diag=None, scale_tril=None,
               scale_perturb_factor=None, scale_perturb_diag=None, validate_args=False, name="affine"):
    if scale_perturb_diag is not None and scale_perturb_factor is None:
      raise ValueError("When scale_perturb_diag is specified, scale_perturb_factor must be specified.")
    self._is_only_identity_multiplier = scale_tril is None and scale_diag is None and scale_perturb_factor is None
    with tf.name_scope(name + "/init" if name else "init"):
      shift = None if shift is None else tf.convert_to_tensor(shift, name="shift")
      dtype = tf.float32 if shift is None else shift.dtype.base_dtype
      if self._is_only_identity_multiplier:
        multiplier = (tf.convert_to_tensor(1.0, dtype=dtype) if scale_identity_multiplier is None else
                      tf.convert_to_tensor(scale_identity_multiplier, name="identity_multiplier"))
        if validate_args:
          multiplier = _with_checks(multiplier, [tf.compat.v1.assert_none_equal(
              multiplier, tf.zeros([], multiplier.dtype), ["identity_multiplier should be non-zero."])])
        self._multiplier = multiplier
        scale = None
      else:
        perturb_factor = (None if scale_perturb_factor is None else
                          tf.convert_to_tensor(scale_perturb_factor, name="perturb_factor"))
        scale = distribution_util.make_tril_scale(
            loc=shift, scale_tril=scale_tril, scale_diag=scale_diag,
            scale_identity_multiplier=scale_identity_multiplier, validate_args=validate_args,
            assert_positive=False,
            shape_hint=None if perturb_factor is None else distribution_util.dimension_size(perturb_factor, -2))
        if perturb_factor is not None:
          scale = tf.linalg.LinearOperatorLowRankUpdate(
              scale, u=perturb_factor, diag_update=scale_perturb_diag,
              is_diag_update_positive=scale_perturb_diag is None, is_non_singular=True, is_self_adjoint=True,
              is_positive_definite=True, is_square=True)
    super().__init__(shift=shift, scale=scale, validate_args=validate_args, name=name)
    self._parameters = dict(shift=shift, scale_identity_multiplier=scale_identity_multiplier, scale_diag=scale_diag,
                            scale_tril=scale_tril, scale_perturb_factor=scale_perturb_factor,
                            scale_perturb_diag=scale_perturb_diag, validate_args=validate_args, name=name)
    if self._is_only_identity_multiplier:
      self._scale = self._multiplier

  def _forward(self, x):
    if not self._is_only_identity_multiplier:
      return super()._forward(x)
    y = x * self._scale
    return y if self.shift is None else y + self.shift

  def _inverse(self, y):
    if not self._is_only_identity_multiplier:
      return super()._inverse(y)
    x = y if self.shift is None else y - self.shift
    return x / self._scale

  def _forward_log_det_jacobian(self, x):
    if not self._is_only_identity_multiplier:
      return super()._forward_log_det_jacobian(x)
    event_size = tf.cast(tf.shape(x)[-1], dtype=self._scale.dtype)
    return tf.math.log(tf.abs(self._scale)) * event_size

  def _scale_checks(self):
    return [] if self._is_only_identity_multiplier else super()._scale_checks()


class Gumbel(_B.Bijector):
  """Y = exp(-exp(-(X - loc) / scale)), the Gumbel CDF (tfp's GumbelCDF under TF 1.15's name)."""

  def __init__(self, loc=0.0, scale=1.0, validate_args=False, name="gumbel"):
    parameters = dict(locals())
    with tf.name_scope(name + "/init" if name else "init"):
      self._loc = tf.convert_to_tensor(loc, name="loc")
      self._scale = tf.convert_to_tensor(scale, name="scale")
      tf.debugging.assert_same_float_dtype([self._loc, self._scale])
      if validate_args:
        self._scale = _with_checks(self._scale, [tf.compat.v1.assert_positive(
            self._scale, message="Argument scale was not positive")])
    super().__init__(validate_args=validate_args, forward_min_event_ndims=0, parameters=parameters, name=name)

  @property
  def loc(self):
    return self._loc

  @property
  def scale(self):
    return self._scale

  def _checked_y(self, y):
    if not self.validate_args:
      return y
    return _with_checks(y, [
        tf.compat.v1.assert_non_negative(y, message="Inverse transformation input must be greater than 0."),
        tf.compat.v1.assert_less_equal(y, tf.constant(1.0, y.dtype),
                                       message="Inverse transformation input must be less than or equal to 1.")])

  def _forward(self, x):
    return tf.exp(-tf.exp(-(x - self.loc) / self.scale))

  def _inverse(self, y):
    return self.loc - self.scale * tf.math.log(-tf.math.log(self._checked_y(y)))

  def _inverse_log_det_jacobian(self, y):
    y = self._checked_y(y)
    return tf.math.log(self.scale / (-tf.math.log(y) * y))

  def _forward_log_det_jacobian(self, x):
    z = (x - self.loc) / self.scale
    return -z - tf.exp(-z) - tf.math.log(self.scale)


class Kumaraswamy(_B.Bijector):
  """Y = (1 - (1 - X)**(1 / b))**(1 / a), the Kumaraswamy quantile function (the inverse of tfp's KumaraswamyCDF)."""

  def __init__(self, concentration1=None, concentration0=None, validate_args=False, name="kumaraswamy"):
    parameters = dict(locals())
    with tf.name_scope(name + "/init" if name else "init"):
      self._concentration1 = self._checked_concentration(
          tf.convert_to_tensor(concentration1, name="concentration1"), validate_args)
      self._concentration0 = self._checked_concentration(
          tf.convert_to_tensor(concentration0, name="concentration0"), validate_args)
    super().__init__(forward_min_event_ndims=0, validate_args=validate_args, parameters=parameters, name=name)

  @staticmethod
  def _checked_concentration(concentration, validate_args):
    if not validate_args:
      return concentration
    return _with_checks(concentration, [tf.compat.v1.assert_positive(
        concentration, message="Concentration parameter must be positive.")])

  @property
  def concentration1(self):
    return self._concentration1

  @property
  def concentration0(self):
    return self._concentration0

  def _checked(self, x):
    if not self.validate_args:
      return x
    return _with_checks(x, [tf.compat.v1.assert_non_negative(x, message="sample must be non-negative"),
                            tf.compat.v1.assert_less_equal(x, tf.ones([], self.concentration0.dtype),
                                                           message="sample must be no larger than `1`.")])

  def _forward(self, x):
    x = self._checked(x)
    return tf.exp(tf.math.log1p(-tf.exp(tf.math.log1p(-x) / self.concentration0)) / self.concentration1)

  def _inverse(self, y):
    y = self._checked(y)
    return tf.exp(tf.math.log1p(-(1 - y ** self.concentration1) ** self.concentration0))

  def _inverse_log_det_jacobian(self, y):
    y = self._checked(y)
    return (tf.math.log(self.concentration1) + tf.math.log(self.concentration0) +
            (self.concentration1 - 1) * tf.math.log(y) + (self.concentration0 - 1) * tf.math.log1p(-y ** self.concentration1))


class Ordered(_B.Bijector):
  """Maps a vector increasing in its last axis to an unconstrained one: [x0, log(x1 - x0), log(x2 - x1), ...]."""

  def __init__(self, validate_args=False, name="ordered"):
    super().__init__(forward_min_event_ndims=1, validate_args=validate_args, parameters=dict(locals()), name=name)

  def _forward_event_shape(self, input_shape):
    return input_shape

  def _forward_event_shape_tensor(self, input_shape):
    return input_shape

  def _inverse_event_shape(self, output_shape):
    last = tf.compat.dimension_value(output_shape[-1]) if output_shape.rank is not None else None
    if last is not None and last <= 1:
      raise ValueError("output_shape[-1] = %d <= 1" % last)
    return output_shape

  def _inverse_event_shape_tensor(self, output_shape):
    if self.validate_args:
      output_shape = _with_checks(output_shape, [tf.compat.v1.assert_greater(
          output_shape[-1], 1, message="Need last dimension greater than 1.")])
    return output_shape

  def _checked_x(self, x):
    if not self.validate_args:
      return x
    return _with_checks(x, [tf.compat.v1.assert_positive(
        x[..., 1:] - x[..., :-1], message="Forward transformation input must be strictly increasing.")])

  def _forward(self, x):
    x = self._checked_x(x)
    return tf.concat([x[..., 0, tf.newaxis], tf.math.log(x[..., 1:] - x[..., :-1])], axis=-1)

  def _inverse(self, y):
    return tf.cumsum(tf.concat([y[..., 0, tf.newaxis], tf.exp(y[..., 1:])], axis=-1), axis=-1)

  def _inverse_log_det_jacobian(self, y):
    return tf.reduce_sum(y[..., 1:], axis=-1)

  def _forward_log_det_jacobian(self, x):
    x = self._checked_x(x)
    return -tf.reduce_sum(tf.math.log(x[..., 1:] - x[..., :-1]), axis=-1)


class ScaleTriL(_B.Chain):
  """A vector -> a lower-triangular matrix with a positive diagonal: softplus(diag) + diag_shift, TF 1.15's."""

  def __init__(self, diag_bijector=None, diag_shift=1e-5, validate_args=False, name="scale_tril"):
    if diag_bijector is None:
      diag_bijector = _B.Softplus(validate_args=validate_args)
    if diag_shift is not None:
      diag_bijector = _B.Chain([AffineScalar(shift=diag_shift), diag_bijector])
    super().__init__([_B.TransformDiagonal(diag_bijector=diag_bijector), _B.FillTriangular()],
                     validate_args=validate_args, name=name)


# TF 1.15's bijectors whose math or construction tfp changed: tfp's classes with TF 1.15's behaviour on top.
class SinhArcsinh(_B.SinhArcsinh):
  """Y = sinh((arcsinh(X) + skewness) * tailweight): TF 1.15's transform (tfp's multiplies it by 2 / sinh(arcsinh(2) *
  tailweight), so that its value at 2 stays 2)."""

  def __init__(self, skewness=None, tailweight=None, validate_args=False, name="SinhArcsinh"):
    super().__init__(skewness=skewness, tailweight=tailweight, validate_args=validate_args, name=name)

  def _skew_tail(self, dtype):
    skewness = tf.zeros([], dtype) if self.skewness is None else tf.convert_to_tensor(self.skewness, dtype)
    tailweight = tf.ones([], dtype) if self.tailweight is None else tf.convert_to_tensor(self.tailweight, dtype)
    return skewness, tailweight

  def _forward(self, x):
    skewness, tailweight = self._skew_tail(x.dtype)
    return tf.sinh((tf.asinh(x) + skewness) * tailweight)

  def _inverse(self, y):
    skewness, tailweight = self._skew_tail(y.dtype)
    return tf.sinh(tf.asinh(y) / tailweight - skewness)

  def _inverse_log_det_jacobian(self, y):
    skewness, tailweight = self._skew_tail(y.dtype)
    return (tf.math.log(tf.cosh(tf.asinh(y) / tailweight - skewness) / _sqrtx2p1(y)) -
            tf.math.log(tailweight))

  def _forward_log_det_jacobian(self, x):
    skewness, tailweight = self._skew_tail(x.dtype)
    return (tf.math.log(tf.cosh((tf.asinh(x) + skewness) * tailweight) / _sqrtx2p1(x)) +
            tf.math.log(tailweight))


def _sqrtx2p1(x):
  """sqrt(1 + x**2), stable for large x (TF 1.15's)."""
  return tf.where(tf.abs(x) * np.sqrt(np.finfo(x.dtype.as_numpy_dtype).eps) <= 1.,
                  tf.sqrt(x ** 2. + 1.), tf.abs(x) * tf.sqrt(1. + 1. / x ** 2.))


class SoftmaxCentered(_B.SoftmaxCentered):
  """tfp's SoftmaxCentered with TF 1.15's log-det-Jacobians: the density of the first n coordinates of the
  simplex (tfp's measures the simplex itself, 0.5 * log(n + 1) apart)."""

  def __init__(self, validate_args=False, name="softmax_centered"):
    super().__init__(validate_args=validate_args, name=name)

  def _inverse_log_det_jacobian(self, y):
    return -tf.reduce_sum(tf.math.log(y), axis=-1)

  def _forward_log_det_jacobian(self, x):
    log_normalization = tf.nn.softplus(tf.reduce_logsumexp(x, axis=-1, keepdims=True))
    return tf.squeeze(-log_normalization + tf.reduce_sum(x - log_normalization, axis=-1, keepdims=True), axis=-1)


class MatrixInverseTriL(_B.MatrixInverseTriL):
  """tfp's MatrixInverseTriL with TF 1.15's forward log-det-Jacobian, -2 n sum(log|diag(x)|) (tfp's is
  -(n + 1) sum(log|diag(x)|))."""

  def __init__(self, validate_args=False, name="matrix_inverse_tril"):
    super().__init__(validate_args=validate_args, name=name)

  def _forward_log_det_jacobian(self, x):
    with tf.control_dependencies(self._assertions(x)):
      return (-2. * tf.cast(tf.shape(x)[-1], x.dtype.base_dtype) *
              tf.reduce_sum(tf.math.log(tf.abs(tf.linalg.diag_part(x))), axis=-1))


class FillTriangular(_B.FillTriangular):
  """tfp's FillTriangular; like TF 1.15's, it does not call its (zero) Jacobian constant."""

  def __init__(self, upper=False, validate_args=False, name="fill_triangular"):
    super().__init__(upper=upper, validate_args=validate_args, name=name)
    self._is_constant_jacobian = False


class BatchNormalization(_B.BatchNormalization):
  """tfp's BatchNormalization bijector on TF 1.15's default layer: a `tf.layers.BatchNormalization` (variables
  `batch_normalization/gamma`, ... as TF 1.15 named them; tfp's Keras layer puts them below the bijector's
  `forward` / `inverse` name scope) with gamma kept positive (relu + 1e-6)."""

  def __init__(self, batchnorm_layer=None, training=True, validate_args=False, name="batch_normalization"):
    if batchnorm_layer is None:
      layers = importlib.import_module("tf_keras.api._v1.keras.__internal__.legacy.layers")
      batchnorm_layer = layers.BatchNormalization(gamma_constraint=lambda x: tf.nn.relu(x) + 1e-6)
    super().__init__(batchnorm_layer=batchnorm_layer, training=training, validate_args=validate_args, name=name)


# The declaration (catalog.tsv): the TF 1.15 names not served, and what to use instead.
NOT_SERVED = {
    "Weibull": 'tfp.bijectors.WeibullCDF (renamed)',
}

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.distributions.bijectors")
