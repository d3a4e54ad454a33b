"""TF 1.15's vector distributions that tensorflow-probability dropped: VectorLaplaceDiag, VectorExponentialDiag and
VectorSinhArcsinhDiag, each an affine map of iid scalar draws.

As in TF 1.15, each is a TransformedDistribution: `k` iid draws of a scalar distribution (Laplace(0, 1),
Exponential(1), or Normal(0, 1) through SinhArcsinh), mapped by `scale @ x + loc` with the scale operator TF 1.15
built from `scale_diag` / `scale_identity_multiplier` (distribution_util.make_diag_scale). The iid draws are tfp's
`Sample` of the scalar distribution (TF 1.15's `batch_shape` / `event_shape` overrides are gone from tfp). Mean,
mode, covariance, variance and stddev are TF 1.15's closed forms.
"""

import numpy as np
import tensorflow as tf
import tensorflow_probability as tfp

import tf1clip.contrib.distributions.python.ops.bijectors as bijectors
import tf1clip.contrib.distributions.python.ops.distribution_util as distribution_util

_D = tfp.distributions


def _shapes(loc, scale):
  """(batch shape Tensor, event size) of `loc` [..., k] and the operator `scale` (TF 1.15's shapes_from_loc_and_scale)."""
  event_size = tf.compat.dimension_value(scale.range_dimension)
  if event_size is None:
    event_size = scale.range_dimension_tensor()
  batch = scale.batch_shape if loc is None else tf.broadcast_static_shape(scale.batch_shape, loc.shape[:-1])
  if batch.is_fully_defined():
    return batch.as_list(), event_size
  batch = scale.batch_shape_tensor()
  if loc is not None:
    batch = tf.broadcast_dynamic_shape(batch, tf.shape(loc)[:-1])
  return batch, event_size


def _iid(scalar, batch_shape, event_size):
  """`event_size` iid draws of `scalar` for every batch member."""
  scalar = _D.BatchBroadcast(scalar, with_shape=batch_shape)
  return _D.Sample(scalar, sample_shape=[event_size])


def _scale_gram_diag(scale):
  """diag(scale @ scale^H), TF 1.15's way for each kind of operator."""
  if isinstance(scale, (tf.linalg.LinearOperatorDiag, tf.linalg.LinearOperatorIdentity,
                        tf.linalg.LinearOperatorScaledIdentity)):
    return tf.square(scale.diag_part())
  if isinstance(scale, tf.linalg.LinearOperatorLowRankUpdate) and scale.is_self_adjoint:
    return tf.linalg.diag_part(scale.matmul(scale.to_dense()))
  return tf.linalg.diag_part(scale.matmul(scale.to_dense(), adjoint_arg=True))


def _scale_gram(scale):
  if isinstance(scale, (tf.linalg.LinearOperatorDiag, tf.linalg.LinearOperatorIdentity,
                        tf.linalg.LinearOperatorScaledIdentity)):
    return tf.linalg.diag(tf.square(scale.diag_part()))
  return scale.matmul(scale.to_dense(), adjoint_arg=True)


class _OfIid(_D.TransformedDistribution):
  """A TransformedDistribution of iid draws whose batch shape is its base's (the subclasses' `parameters` are TF
  1.15's constructor arguments, which tfp's batch-shape inference cannot read)."""

  def _batch_shape(self):
    return self.distribution.batch_shape

  def _batch_shape_tensor(self, **kwargs):
    return self.distribution.batch_shape_tensor()


class _AffineOfIid(_OfIid):
  """`scale @ x + loc` for iid draws x of a scalar distribution whose variance is `_unit_variance`."""

  _unit_variance = 1.0

  def __init__(self, scalar, loc, scale, validate_args, parameters, name):
    if scale is None:
      raise ValueError("Missing required `scale` parameter.")
    if not scale.dtype.is_floating:
      raise TypeError("`scale` parameter must have floating-point dtype.")
    with tf.name_scope(name):
      loc = None if loc is None else tf.convert_to_tensor(loc, name="loc")
      batch_shape, event_size = _shapes(loc, scale)
      super().__init__(distribution=_iid(scalar, batch_shape, event_size),
                       bijector=bijectors.AffineLinearOperator(shift=loc, scale=scale, validate_args=validate_args),
                       validate_args=validate_args, parameters=parameters, name=name)

  @property
  def loc(self):
    return self.bijector.shift

  @property
  def scale(self):
    return self.bijector.scale

  def _mean_shape(self):
    return tf.concat([self.batch_shape_tensor(), self.event_shape_tensor()], 0)

  def _covariance(self):
    return self._unit_variance * _scale_gram(self.scale)

  def _variance(self):
    return self._unit_variance * _scale_gram_diag(self.scale)

  def _stddev(self):
    return np.sqrt(self._unit_variance) * tf.sqrt(_scale_gram_diag(self.scale))


class VectorLaplaceDiag(_AffineOfIid):
  """`scale @ x + loc`, x iid Laplace(0, 1), scale = diag(scale_diag) + scale_identity_multiplier * I."""

  _unit_variance = 2.0

  def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None, validate_args=False,
               allow_nan_stats=True, name="VectorLaplaceDiag"):
    parameters = dict(locals())
    with tf.name_scope(name):
      with tf.name_scope("init"):
        scale = distribution_util.make_diag_scale(loc=loc, scale_diag=scale_diag,
                                                  scale_identity_multiplier=scale_identity_multiplier)
    super().__init__(_D.Laplace(loc=tf.zeros([], scale.dtype), scale=tf.ones([], scale.dtype)), loc, scale,
                     validate_args, parameters, name)

  def _mean(self):
    zeros = tf.zeros(self._mean_shape(), self.dtype)
    return zeros if self.loc is None else tf.identity(self.loc) + zeros

  def _mode(self):
    return self._mean()


class VectorExponentialDiag(_AffineOfIid):
  """`scale @ x + loc`, x iid Exponential(1), scale = diag(scale_diag) + scale_identity_multiplier * I."""

  def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None, validate_args=False,
               allow_nan_stats=True, name="VectorExponentialDiag"):
    parameters = dict(locals())
    with tf.name_scope(name):
      with tf.name_scope("init"):
        scale = distribution_util.make_diag_scale(loc=loc, scale_diag=scale_diag,
                                                  scale_identity_multiplier=scale_identity_multiplier)
    super().__init__(_D.Exponential(rate=tf.ones([], scale.dtype), allow_nan_stats=allow_nan_stats), loc, scale,
                     validate_args, parameters, name)

  def _mean(self):
    ones = self.scale.matvec(tf.ones(self._mean_shape(), self.dtype))
    return ones if self.loc is None else tf.identity(self.loc) + ones

  def _mode(self):
    zeros = self.scale.matvec(tf.zeros(self._mean_shape(), self.dtype))
    return zeros if self.loc is None else tf.identity(self.loc) + zeros


class VectorSinhArcsinhDiag(_OfIid):
  """Y = loc + c * sinh((arcsinh(Z) + skewness) * tailweight) for iid Z (Normal(0, 1) by default), TF 1.15's."""

  def __init__(self, loc=None, scale_diag=None, scale_identity_multiplier=None, skewness=None, tailweight=None,
               distribution=None, validate_args=False, allow_nan_stats=True, name="MultivariateNormalLinearOperator"):
    parameters = dict(locals())
    with tf.name_scope(name):
      loc = None if loc is None else tf.convert_to_tensor(loc, name="loc")
      tailweight = 1.0 if tailweight is None else tailweight
      has_default_skewness = skewness is None
      skewness = 0.0 if skewness is None else skewness
      scale = distribution_util.make_diag_scale(loc=loc, scale_diag=scale_diag,
                                                scale_identity_multiplier=scale_identity_multiplier)
      batch_shape, event_size = _shapes(loc, scale)
      scale_diag_part = scale.diag_part()
      dtype = scale_diag_part.dtype
      if distribution is None:
        distribution = _D.Normal(loc=tf.zeros([], dtype=dtype), scale=tf.ones([], dtype=dtype),
                                 allow_nan_stats=allow_nan_stats)
      skewness = tf.convert_to_tensor(skewness, dtype=dtype, name="skewness")
      tailweight = tf.convert_to_tensor(tailweight, dtype=dtype, name="tailweight")
      f = tfp.bijectors.SinhArcsinh(skewness=skewness, tailweight=tailweight)
      f_noskew = f if has_default_skewness else tfp.bijectors.SinhArcsinh(
          skewness=skewness.dtype.as_numpy_dtype(0.0), tailweight=tailweight)
      c = 2 * scale_diag_part / f_noskew.forward(tf.convert_to_tensor(2, dtype=dtype))
      affine = bijectors.Affine(shift=loc, scale_diag=c, validate_args=validate_args)
      super().__init__(distribution=_iid(distribution, batch_shape, event_size),
                       bijector=tfp.bijectors.Chain([affine, f]), validate_args=validate_args,
                       parameters=parameters, name=name)
    self._loc, self._scale, self._tailweight, self._skewness = loc, scale, tailweight, skewness

  @property
  def loc(self):
    return self._loc

  @property
  def scale(self):
    return self._scale

  @property
  def tailweight(self):
    return self._tailweight

  @property
  def skewness(self):
    return self._skewness
