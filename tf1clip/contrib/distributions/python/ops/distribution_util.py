"""TF 1.15's scale-operator builders for contrib.distributions' affine bijectors and vector distributions.

`make_tril_scale` / `make_diag_scale` are TF 1.15's (contrib/distributions/python/ops/distribution_util.py): from
`scale_tril`, `scale_diag` and `scale_identity_multiplier` (each optional) they build one LinearOperator, the lower
triangle with the diagonal and the multiplier added, or a diagonal, scaled-identity or identity operator.
tensorflow-probability keeps them only as internals, so they are written here once for both users.
"""

import tensorflow as tf


def _as_tensor(x, name):
  return None if x is None else tf.convert_to_tensor(x, name=name)


def dimension_size(x, axis):
  """The static size of `x`'s axis `axis` when known, else a scalar Tensor."""
  static = tf.compat.dimension_value(x.shape.with_rank_at_least(abs(axis))[axis])
  return static if static is not None else tf.shape(x)[axis]


def _assert_non_zero_diag(diag, validate_args, assert_positive):
  if not validate_args:
    return diag
  check = (tf.compat.v1.assert_positive(diag, message="diagonal part must be positive") if assert_positive else
           tf.compat.v1.assert_none_equal(diag, tf.zeros([], diag.dtype), message="diagonal part must be non-zero"))
  with tf.control_dependencies([check]):
    return tf.identity(diag)


def make_diag_scale(loc=None, scale_diag=None, scale_identity_multiplier=None, shape_hint=None, validate_args=False,
                    assert_positive=False, name=None):
  """A diagonal, scaled-identity or identity LinearOperator (TF 1.15's make_diag_scale)."""
  with tf.compat.v1.name_scope(name, "make_diag_scale", values=[loc, scale_diag, scale_identity_multiplier]):
    loc = _as_tensor(loc, "loc")
    scale_diag = _as_tensor(scale_diag, "scale_diag")
    scale_identity_multiplier = _as_tensor(scale_identity_multiplier, "scale_identity_multiplier")
    if scale_diag is not None:
      if scale_identity_multiplier is not None:
        scale_diag += scale_identity_multiplier[..., tf.newaxis]
      return tf.linalg.LinearOperatorDiag(
          diag=_assert_non_zero_diag(scale_diag, validate_args, assert_positive), is_non_singular=True,
          is_self_adjoint=True, is_positive_definite=assert_positive)
    if loc is None and shape_hint is None:
      raise ValueError("Cannot infer `event_shape` unless `loc` or `shape_hint` is specified.")
    num_rows = shape_hint if shape_hint is not None else dimension_size(loc, -1)
    if scale_identity_multiplier is None:
      return tf.linalg.LinearOperatorIdentity(num_rows=num_rows, dtype=loc.dtype.base_dtype, is_self_adjoint=True,
                                              is_positive_definite=True, assert_proper_shapes=validate_args)
    return tf.linalg.LinearOperatorScaledIdentity(
        num_rows=num_rows, multiplier=_assert_non_zero_diag(scale_identity_multiplier, validate_args,
                                                            assert_positive),
        is_non_singular=True, is_self_adjoint=True, is_positive_definite=assert_positive,
        assert_proper_shapes=validate_args)


def make_tril_scale(loc=None, scale_tril=None, scale_diag=None, scale_identity_multiplier=None, shape_hint=None,
                    validate_args=False, assert_positive=False, name=None):
  """A lower-triangular LinearOperator from `scale_tril` plus the diagonal terms (TF 1.15's make_tril_scale)."""
  with tf.compat.v1.name_scope(name, "make_tril_scale",
                               values=[loc, scale_diag, scale_identity_multiplier, scale_tril]):
    loc = _as_tensor(loc, "loc")
    scale_tril = _as_tensor(scale_tril, "scale_tril")
    scale_diag = _as_tensor(scale_diag, "scale_diag")
    scale_identity_multiplier = _as_tensor(scale_identity_multiplier, "scale_identity_multiplier")
    if scale_tril is None:
      return make_diag_scale(loc=loc, scale_diag=scale_diag, scale_identity_multiplier=scale_identity_multiplier,
                             shape_hint=shape_hint, validate_args=validate_args, assert_positive=assert_positive)
    scale_tril = tf.linalg.band_part(scale_tril, -1, 0)  # the upper triangle is ignored
    tril_diag = tf.linalg.diag_part(scale_tril)
    if scale_diag is not None:
      tril_diag += scale_diag
    if scale_identity_multiplier is not None:
      tril_diag += scale_identity_multiplier[..., tf.newaxis]
    scale_tril = tf.linalg.set_diag(scale_tril, _assert_non_zero_diag(tril_diag, validate_args, assert_positive))
    return tf.linalg.LinearOperatorLowerTriangular(tril=scale_tril, is_non_singular=True, is_self_adjoint=False,
                                                   is_positive_definite=assert_positive)
