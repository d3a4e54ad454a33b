"""TF 1.15's VectorDiffeomixture and its two quadrature schemes (tensorflow-probability dropped them), TF 1.15's code.

`VectorDiffeomixture(mix_loc, temperature, distribution, loc, scale, quadrature_size, quadrature_fn)` is a
bimixture of two affine maps (`loc[k] + scale[k] @ x`) of iid draws of the scalar `distribution`, mixed along a
quadrature grid of the SoftmaxNormal(mix_loc / temperature, 1 / temperature) distribution:
`quadrature_scheme_softmaxnormal_quantiles` (the default: midpoints of equal-probability bins) or
`quadrature_scheme_softmaxnormal_gauss_hermite`. Its log_prob, mean, covariance, variance and stddev are TF 1.15's
formulas; sample is TF 1.15's algorithm on tensorflow-probability's random draws (other numbers than TF 1.15's
for a seed, as for every tfp distribution). The class is a tfp Distribution, so `mixture_distribution` is tfp's
Categorical (read its probabilities with `probs_parameter()`).

Internals used: tensorflow.python.ops.linalg.linear_operator_addition.add_operators (TF 1.15's operator sum;
TensorFlow 2.21 does not export it).
"""

import hashlib

import numpy as np
import tensorflow as tf
import tensorflow_probability as tfp
from tensorflow.python.ops.linalg import linear_operator_addition as linop_add_lib

import tf1clip.contrib.distributions.python.ops.bijectors as bijectors

_D = tfp.distributions


def _static_value(x):
  return tf.get_static_value(tf.convert_to_tensor(x))


def _gen_new_seed(seed, salt):
  """TF 1.15's distribution_util.gen_new_seed."""
  if seed is None:
    return None
  string = (str(seed) + salt).encode("utf-8")
  return int(hashlib.md5(string).hexdigest()[:8], 16) & 0x7FFFFFFF


def _pick_vector(cond, true_vector, false_vector):
  cond_ = _static_value(cond)
  if cond_ is not None:
    return true_vector if cond_ else false_vector
  return tf.where(cond, true_vector, false_vector)


def _is_fully_reparameterized(distribution):
  return str(getattr(distribution.reparameterization_type, "_rep_type", "")) == "FULLY_REPARAMETERIZED"


def _maybe_check_scalar_distribution(distribution, expected_base_dtype, validate_args):
  """TF 1.15's distribution_util.maybe_check_scalar_distribution: assertions that `distribution` is scalar."""
  if distribution.dtype != expected_base_dtype:
    raise TypeError("dtype mismatch; distribution.dtype=\"{}\" is not \"{}\"".format(
        distribution.dtype.name, expected_base_dtype.name))
  if validate_args and not _is_fully_reparameterized(distribution):
    raise ValueError("Base distribution should be reparameterized or be "
                     "a function of non-trainable variables; "
                     "distribution.reparameterization_type = \"{}\" "
                     "!= \"FULLY_REPARAMETERIZED\".".format(distribution.reparameterization_type))
  with tf.name_scope("check_distribution"):
    assertions = []

    def check_is_scalar(is_scalar, name):
      is_scalar_ = _static_value(is_scalar)
      if is_scalar_ is not None:
        if not is_scalar_:
          raise ValueError("distribution must be scalar; distribution.{}=False is not True".format(name))
      elif validate_args:
        assertions.append(tf.compat.v1.assert_equal(
            is_scalar, True, message=("distribution must be scalar; "
                                      "distribution.{}=False is not True".format(name))))

    check_is_scalar(distribution.is_scalar_event(), "is_scalar_event")
    check_is_scalar(distribution.is_scalar_batch(), "is_scalar_batch")
    return assertions


def quadrature_scheme_softmaxnormal_gauss_hermite(normal_loc, normal_scale, quadrature_size, validate_args=False,
                                                  name=None):
  """(grid [B, 2, quadrature_size], probs) of SoftmaxNormal by Gauss-Hermite quadrature (TF 1.15's)."""
  with tf.compat.v1.name_scope(name, "quadrature_scheme_softmaxnormal_gauss_hermite", [normal_loc, normal_scale]):
    normal_loc = tf.convert_to_tensor(normal_loc, name="normal_loc")
    dt = normal_loc.dtype.base_dtype
    normal_scale = tf.convert_to_tensor(normal_scale, dtype=dt, name="normal_scale")
    normal_scale = maybe_check_quadrature_param(normal_scale, "normal_scale", validate_args)
    grid, probs = np.polynomial.hermite.hermgauss(deg=quadrature_size)
    grid = grid.astype(dt.as_numpy_dtype)
    probs = probs.astype(dt.as_numpy_dtype)
    probs /= np.linalg.norm(probs, ord=1, keepdims=True)
    probs = tf.convert_to_tensor(probs, name="probs", dtype=dt)
    x = normal_loc[..., tf.newaxis] + np.sqrt(2.) * normal_scale[..., tf.newaxis] * grid
    x = -tf.concat([tf.zeros_like(x[..., :1, :]), x], axis=-2)  # distribution_util.pad(axis=-2, front=True)
    grid = softmax(x, axis=-2)  # shape: [B, components, deg]
    return grid, probs


def quadrature_scheme_softmaxnormal_quantiles(normal_loc, normal_scale, quadrature_size, validate_args=False,
                                              name=None):
  """(grid [B, 2, quadrature_size], probs) of SoftmaxNormal at the midpoints of equal-probability bins."""
  with tf.compat.v1.name_scope(name, "softmax_normal_grid_and_probs", [normal_loc, normal_scale]):
    normal_loc = tf.convert_to_tensor(normal_loc, name="normal_loc")
    dt = normal_loc.dtype.base_dtype
    normal_scale = tf.convert_to_tensor(normal_scale, dtype=dt, name="normal_scale")
    normal_scale = maybe_check_quadrature_param(normal_scale, "normal_scale", validate_args)
    dist = _D.Normal(loc=normal_loc, scale=normal_scale)

    def _get_batch_ndims():
      ndims = dist.batch_shape.ndims
      if ndims is None:
        ndims = tf.shape(dist.batch_shape_tensor())[0]
      return ndims

    batch_ndims = _get_batch_ndims()

    def _get_final_shape(qs):
      bs = dist.batch_shape.with_rank_at_least(1)
      num_components = tf.compat.dimension_value(bs[-1])
      if num_components is not None:
        num_components += 1
      tail = tf.TensorShape([num_components, qs])
      return bs[:-1].concatenate(tail)

    def _compute_quantiles():
      zero = tf.zeros([], dtype=dist.dtype)
      edges = tf.linspace(zero, 1., quadrature_size + 3)[1:-1]
      edges = tf.reshape(edges, shape=tf.concat([[-1], tf.ones([batch_ndims], dtype=tf.int32)], axis=0))
      quantiles = dist.quantile(edges)
      quantiles = tfp.bijectors.SoftmaxCentered().forward(quantiles)
      perm = tf.concat([tf.range(1, 1 + batch_ndims), [0]], axis=0)
      quantiles = tf.transpose(quantiles, perm)
      quantiles.set_shape(_get_final_shape(quadrature_size + 1))
      return quantiles

    quantiles = _compute_quantiles()
    grid = (quantiles[..., :-1] + quantiles[..., 1:]) / 2.
    grid.set_shape(_get_final_shape(quadrature_size))
    probs = tf.fill(dims=[quadrature_size], value=1. / tf.cast(quadrature_size, dist.dtype))
    return grid, probs


class VectorDiffeomixture(_D.Distribution):
  """TF 1.15's VectorDiffeomixture: a SoftmaxNormal-quadrature mixture of two affine maps of iid scalar draws."""

  def __init__(self, mix_loc, temperature, distribution, loc=None, scale=None, quadrature_size=8,
               quadrature_fn=quadrature_scheme_softmaxnormal_quantiles, validate_args=False, allow_nan_stats=True,
               name="VectorDiffeomixture"):
    parameters = dict(locals())
    with tf.compat.v1.name_scope(name, values=[mix_loc, temperature]) as name:
      if not scale or len(scale) < 2:
        raise ValueError("Must specify list (or list-like object) of scale "
                         "LinearOperators, one for each component with "
                         "num_component >= 2.")
      if loc is None:
        loc = [None] * len(scale)
      if len(loc) != len(scale):
        raise ValueError("loc/scale must be same-length lists (or same-length list-like objects).")
      dtype = scale[0].dtype.base_dtype
      loc = [tf.convert_to_tensor(loc_, dtype=dtype, name="loc{}".format(k)) if loc_ is not None else None
             for k, loc_ in enumerate(loc)]
      for k, scale_ in enumerate(scale):
        if validate_args and not scale_.is_positive_definite:
          raise ValueError("scale[{}].is_positive_definite = {} != True".format(k, scale_.is_positive_definite))
        if scale_.dtype.base_dtype != dtype:
          raise TypeError("dtype mismatch; scale[{}].base_dtype=\"{}\" != \"{}\"".format(
              k, scale_.dtype.base_dtype.name, dtype.name))
      self._endpoint_affine = [
          bijectors.AffineLinearOperator(shift=loc_, scale=scale_, validate_args=validate_args,
                                         name="endpoint_affine_{}".format(k))
          for k, (loc_, scale_) in enumerate(zip(loc, scale))]
      if len(scale) != 2:
        raise NotImplementedError("Currently only bimixtures are supported; len(scale)={} is not 2.".format(
            len(scale)))
      mix_loc = tf.convert_to_tensor(mix_loc, dtype=dtype, name="mix_loc")
      temperature = tf.convert_to_tensor(temperature, dtype=dtype, name="temperature")
      self._grid, probs = tuple(quadrature_fn(mix_loc / temperature, 1. / temperature, quadrature_size,
                                              validate_args))
      self._mixture_distribution = _D.Categorical(logits=tf.math.log(probs), validate_args=validate_args,
                                                  allow_nan_stats=allow_nan_stats)
      asserts = _maybe_check_scalar_distribution(distribution, dtype, validate_args)
      if asserts:
        with tf.control_dependencies(asserts):
          self._grid = tf.identity(self._grid)
      self._distribution = distribution
      self._interpolated_affine = [
          bijectors.AffineLinearOperator(shift=loc_, scale=scale_, validate_args=validate_args,
                                         name="interpolated_affine_{}".format(k))
          for k, (loc_, scale_) in enumerate(zip(interpolate_loc(self._grid, loc),
                                                 interpolate_scale(self._grid, scale)))]
      [self._batch_shape_, self._batch_shape_tensor_, self._event_shape_,
       self._event_shape_tensor_] = determine_batch_event_shapes(self._grid, self._endpoint_affine)
      super(VectorDiffeomixture, self).__init__(
          dtype=dtype, reparameterization_type=_D.FULLY_REPARAMETERIZED, validate_args=validate_args,
          allow_nan_stats=allow_nan_stats, parameters=parameters, name=name)

  @property
  def mixture_distribution(self):
    """Distribution used to select a convex combination of affine transforms."""
    return self._mixture_distribution

  @property
  def distribution(self):
    """Base scalar-event, scalar-batch distribution."""
    return self._distribution

  @property
  def grid(self):
    """Grid of mixing probabilities, one for each grid point."""
    return self._grid

  @property
  def endpoint_affine(self):
    """Affine transformation for each of `K` components."""
    return self._endpoint_affine

  @property
  def interpolated_affine(self):
    """Affine transformation for each convex combination of `K` components."""
    return self._interpolated_affine

  def _batch_shape_tensor(self):
    return self._batch_shape_tensor_

  def _batch_shape(self):
    return self._batch_shape_

  def _event_shape_tensor(self):
    return self._event_shape_tensor_

  def _event_shape(self):
    return self._event_shape_

  def _sample_n(self, n, seed=None):
    x = self.distribution.sample(
        sample_shape=concat_vectors([n], self.batch_shape_tensor(), self.event_shape_tensor()),
        seed=seed)  # shape: [n, B, e]
    x = [aff.forward(x) for aff in self.endpoint_affine]
    batch_size = self.batch_shape.num_elements()
    if batch_size is None:
      batch_size = tf.reduce_prod(self.batch_shape_tensor())
    mix_batch_size = self.mixture_distribution.batch_shape.num_elements()
    if mix_batch_size is None:
      mix_batch_size = tf.reduce_prod(self.mixture_distribution.batch_shape_tensor())
    ids = self.mixture_distribution.sample(
        sample_shape=concat_vectors([n], _pick_vector(self.is_scalar_batch(), np.int32([]),
                                                      [batch_size // mix_batch_size])),
        seed=_gen_new_seed(seed, "vector_diffeomixture"))
    ids = tf.reshape(ids, shape=concat_vectors([n], _pick_vector(self.is_scalar_batch(), np.int32([]),
                                                                 np.int32([-1]))))
    stride = self.grid.shape.with_rank_at_least(2)[-2:].num_elements()
    if stride is None:
      stride = tf.reduce_prod(tf.shape(self.grid)[-2:])
    offset = tf.range(start=0, limit=batch_size * stride, delta=stride, dtype=ids.dtype)
    weight = tf.gather(tf.reshape(self.grid, shape=[-1]), ids + offset)
    if self.batch_shape.is_fully_defined():
      new_shape = [-1] + self.batch_shape.as_list() + [1]
    else:
      new_shape = tf.concat(([-1], self.batch_shape_tensor(), [1]), axis=0)
    weight = tf.reshape(weight, shape=new_shape)
    if len(x) != 2:
      raise NotImplementedError("Currently only bimixtures are supported; len(scale)={} is not 2.".format(len(x)))
    return weight * (x[0] - x[1]) + x[1]

  def _log_prob(self, x):
    y = tf.stack([aff.inverse(x) for aff in self.interpolated_affine], axis=-1)
    log_prob = tf.reduce_sum(self.distribution.log_prob(y), axis=-2)
    fldj = tf.stack([aff.forward_log_det_jacobian(x, event_ndims=tf.rank(self.event_shape_tensor()))
                     for aff in self.interpolated_affine], axis=-1)
    return tf.reduce_logsumexp(self.mixture_distribution.logits - fldj + log_prob, axis=-1)

  def _mean(self):
    p = self._expand_mix_distribution_probs()
    m = self._expand_base_distribution_mean()
    mean = None
    for k, aff in enumerate(self.interpolated_affine):
      mean = add(mean, p[..., k] * aff.forward(m))
    return mean

  def _covariance(self):
    return add(self._mean_of_covariance_given_quadrature_component(diag_only=False),
               self._covariance_of_mean_given_quadrature_component(diag_only=False))

  def _variance(self):
    return add(self._mean_of_covariance_given_quadrature_component(diag_only=True),
               self._covariance_of_mean_given_quadrature_component(diag_only=True))

  def _mean_of_covariance_given_quadrature_component(self, diag_only):
    p = self.mixture_distribution.probs_parameter()
    scale_identity_multiplier = None
    diag = None
    full = None
    for k, aff in enumerate(self.interpolated_affine):
      s = aff.scale
      if s is None or isinstance(s, tf.linalg.LinearOperatorIdentity):
        scale_identity_multiplier = add(scale_identity_multiplier, p[..., k, tf.newaxis])
      elif isinstance(s, tf.linalg.LinearOperatorScaledIdentity):
        scale_identity_multiplier = add(scale_identity_multiplier,
                                        (p[..., k, tf.newaxis] * tf.square(s.multiplier)))
      elif isinstance(s, tf.linalg.LinearOperatorDiag):
        diag = add(diag, (p[..., k, tf.newaxis] * tf.square(s.diag_part())))
      else:
        x = p[..., k, tf.newaxis, tf.newaxis] * s.matmul(s.to_dense(), adjoint_arg=True)
        if diag_only:
          x = tf.linalg.diag_part(x)
        full = add(full, x)
    v = self.distribution.variance()
    if scale_identity_multiplier is not None:
      scale_identity_multiplier *= v
    if diag is not None:
      diag *= v[..., tf.newaxis]
    if full is not None:
      full *= v[..., tf.newaxis]
    if diag_only:
      r = add(diag, full)
      if r is None and scale_identity_multiplier is not None:
        ones = tf.ones(self.event_shape_tensor(), dtype=self.dtype)
        return scale_identity_multiplier[..., tf.newaxis] * ones
      return add(r, scale_identity_multiplier)
    is_positive_definite = True if all(aff.scale.is_positive_definite for aff in self.endpoint_affine) else None
    to_add = []
    if diag is not None:
      to_add.append(tf.linalg.LinearOperatorDiag(diag=diag, is_positive_definite=is_positive_definite))
    if full is not None:
      to_add.append(tf.linalg.LinearOperatorFullMatrix(matrix=full, is_positive_definite=is_positive_definite))
    if scale_identity_multiplier is not None:
      to_add.append(tf.linalg.LinearOperatorScaledIdentity(
          num_rows=self.event_shape_tensor()[0], multiplier=scale_identity_multiplier,
          is_positive_definite=is_positive_definite))
    return linop_add_lib.add_operators(to_add)[0].to_dense() if to_add else None

  def _covariance_of_mean_given_quadrature_component(self, diag_only):
    square = tf.square if diag_only else vec_osquare
    p = self._expand_mix_distribution_probs()
    if not diag_only:
      p = p[..., tf.newaxis, :]  # Assuming event.ndims=1.
    m = self._expand_base_distribution_mean()
    cov_e_z_given_v = None
    e_z_given_v = self._mean()
    for k, aff in enumerate(self.interpolated_affine):
      y = aff.forward(m)
      cov_e_z_given_v = add(cov_e_z_given_v, p[..., k] * square(y - e_z_given_v))
    return cov_e_z_given_v

  def _expand_base_distribution_mean(self):
    single_draw_shape = concat_vectors(self.batch_shape_tensor(), self.event_shape_tensor())
    m = tf.reshape(self.distribution.mean(), shape=tf.ones_like(single_draw_shape, dtype=tf.int32))
    m = tf.tile(m, multiples=single_draw_shape)
    m.set_shape(self.batch_shape.concatenate(self.event_shape))
    return m

  def _expand_mix_distribution_probs(self):
    p = self.mixture_distribution.probs_parameter()  # [B, deg]
    deg = tf.compat.dimension_value(p.shape.with_rank_at_least(1)[-1])
    if deg is None:
      deg = tf.shape(p)[-1]
    event_ndims = self.event_shape.ndims
    if event_ndims is None:
      event_ndims = tf.shape(self.event_shape_tensor())[0]
    expand_shape = tf.concat([self.mixture_distribution.batch_shape_tensor(),
                              tf.ones([event_ndims], dtype=tf.int32), [deg]], axis=0)
    return tf.reshape(p, shape=expand_shape)


def maybe_check_quadrature_param(param, name, validate_args):
  """Helper which checks validity of `loc` and `scale` init args."""
  with tf.name_scope("check_" + name):
    assertions = []
    if param.shape.ndims is not None:
      if param.shape.ndims == 0:
        raise ValueError("Mixing params must be a (batch of) vector; {}.rank={} is not at least one.".format(
            name, param.shape.ndims))
    elif validate_args:
      assertions.append(tf.compat.v1.assert_rank_at_least(
          param, 1, message=("Mixing params must be a (batch of) vector; "
                             "{}.rank is not at least one.".format(name))))
    if tf.compat.dimension_value(param.shape.with_rank_at_least(1)[-1]) is not None:
      if tf.compat.dimension_value(param.shape[-1]) != 1:
        raise NotImplementedError("Currently only bimixtures are supported; {}.shape[-1]={} is not 1.".format(
            name, tf.compat.dimension_value(param.shape[-1])))
    elif validate_args:
      assertions.append(tf.compat.v1.assert_equal(
          tf.shape(param)[-1], 1,
          message=("Currently only bimixtures are supported; {}.shape[-1] is not 1.".format(name))))
    if assertions:
      with tf.control_dependencies(assertions):
        return tf.identity(param)
    return param


def determine_batch_event_shapes(grid, endpoint_affine):
  """Helper to infer batch_shape and event_shape."""
  with tf.name_scope("determine_batch_event_shapes"):
    batch_shape = grid.shape[:-2]
    batch_shape_tensor = tf.shape(grid)[:-2]
    event_shape = None
    event_shape_tensor = None

    def _set_event_shape(shape, shape_tensor):
      if event_shape is None:
        return shape, shape_tensor
      return (tf.broadcast_static_shape(event_shape, shape),
              tf.broadcast_dynamic_shape(event_shape_tensor, shape_tensor))

    for aff in endpoint_affine:
      if aff.shift is not None:
        batch_shape = tf.broadcast_static_shape(batch_shape, aff.shift.shape[:-1])
        batch_shape_tensor = tf.broadcast_dynamic_shape(batch_shape_tensor, tf.shape(aff.shift)[:-1])
        event_shape, event_shape_tensor = _set_event_shape(aff.shift.shape[-1:], tf.shape(aff.shift)[-1:])
      if aff.scale is not None:
        batch_shape = tf.broadcast_static_shape(batch_shape, aff.scale.batch_shape)
        batch_shape_tensor = tf.broadcast_dynamic_shape(batch_shape_tensor, aff.scale.batch_shape_tensor())
        event_shape, event_shape_tensor = _set_event_shape(
            tf.TensorShape([aff.scale.range_dimension]), aff.scale.range_dimension_tensor()[tf.newaxis])
    return batch_shape, batch_shape_tensor, event_shape, event_shape_tensor


def interpolate_loc(grid, loc):
  """Helper which interpolates between two locs."""
  if len(loc) != 2:
    raise NotImplementedError("Currently only bimixtures are supported; len(scale)={} is not 2.".format(len(loc)))
  deg = tf.compat.dimension_value(grid.shape.with_rank_at_least(1)[-1])
  if deg is None:
    raise ValueError("Num quadrature grid points must be known prior to graph execution.")
  with tf.name_scope("interpolate_loc"):
    if loc is None or loc[0] is None and loc[1] is None:
      return [None] * deg
    w = grid[..., tf.newaxis, :, :]
    loc = [x[..., tf.newaxis] if x is not None else None for x in loc]  # shape: [B, e, 1]
    if loc[0] is None:
      x = w[..., 1, :] * loc[1]  # shape: [B, e, deg]
    elif loc[1] is None:
      x = w[..., 0, :] * loc[0]
    else:
      delta = loc[0] - loc[1]
      x = w[..., 0, :] * delta + loc[1]
    return [x[..., k] for k in range(deg)]  # list(shape:[B, e])


def interpolate_scale(grid, scale):
  """Helper which interpolates between two scales."""
  if len(scale) != 2:
    raise NotImplementedError("Currently only bimixtures are supported; len(scale)={} is not 2.".format(len(scale)))
  deg = tf.compat.dimension_value(grid.shape.with_rank_at_least(1)[-1])
  if deg is None:
    raise ValueError("Num quadrature grid points must be known prior to graph execution.")
  with tf.name_scope("interpolate_scale"):
    return [linop_add_lib.add_operators([linop_scale(grid[..., k, q], s) for k, s in enumerate(scale)])[0]
            for q in range(deg)]


def linop_scale(w, op):
  """`op` scaled by `w` (TF 1.15's, for the four operator kinds it knew)."""
  with tf.name_scope("linop_scale"):

    def scaled_identity(w):
      return tf.linalg.LinearOperatorScaledIdentity(
          num_rows=op.range_dimension_tensor(), multiplier=w, is_non_singular=op.is_non_singular,
          is_self_adjoint=op.is_self_adjoint, is_positive_definite=op.is_positive_definite)

    if isinstance(op, tf.linalg.LinearOperatorIdentity):
      return scaled_identity(w)
    if isinstance(op, tf.linalg.LinearOperatorScaledIdentity):
      return scaled_identity(w * op.multiplier)
    if isinstance(op, tf.linalg.LinearOperatorDiag):
      return tf.linalg.LinearOperatorDiag(
          diag=w[..., tf.newaxis] * op.diag_part(), is_non_singular=op.is_non_singular,
          is_self_adjoint=op.is_self_adjoint, is_positive_definite=op.is_positive_definite)
    if isinstance(op, tf.linalg.LinearOperatorLowerTriangular):
      return tf.linalg.LinearOperatorLowerTriangular(
          tril=w[..., tf.newaxis, tf.newaxis] * op.to_dense(), is_non_singular=op.is_non_singular,
          is_self_adjoint=op.is_self_adjoint, is_positive_definite=op.is_positive_definite)
    raise NotImplementedError("Unsupported Linop type ({})".format(type(op).__name__))


def concat_vectors(*args):
  """Concatenates input vectors, statically if possible."""
  args_ = [_static_value(x) for x in args]
  if any(vec is None for vec in args_):
    return tf.concat(args, axis=0)
  return [val for vec in args_ for val in vec]


def add(x, y):
  """Adds inputs; interprets `None` as zero."""
  if x is None:
    return y
  if y is None:
    return x
  return x + y


def vec_osquare(x):
  """Computes the outer-product of a (batch of) vector, i.e., x.T x."""
  return x[..., :, tf.newaxis] * x[..., tf.newaxis, :]


def softmax(x, axis, name=None):
  """Equivalent to tf.nn.softmax but works around b/70297725."""
  with tf.compat.v1.name_scope(name, "softmax", [x, axis]):
    x = tf.convert_to_tensor(x, name="x")
    ndims = x.shape.ndims if x.shape.ndims is not None else tf.rank(x, name="ndims")
    axis = tf.convert_to_tensor(axis, dtype=tf.int32, name="axis")
    axis_ = tf.get_static_value(axis)
    if axis_ is not None:
      axis = int(ndims + axis_ if axis_ < 0 else axis_)
    else:
      axis = tf.where(axis < 0, ndims + axis, axis)
  return tf.nn.softmax(x, axis=axis)
