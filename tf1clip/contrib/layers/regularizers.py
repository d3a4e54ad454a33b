"""`tf.contrib.layers` weight regularizers and `apply_regularization`, as in TF 1.15.

Place in the data flow (DESIGN.md): contrib.layers (this module) <- compat <- cli.

A regularizer is a function `weights -> scalar Tensor` (or None when disabled); passing it as
`weights_regularizer=` to a layer, or to `tf.compat.v1.get_variable(regularizer=...)`, puts its
penalty in the REGULARIZATION_LOSSES collection, and `apply_regularization` sums penalties over a
list of weights.
"""

import numbers

import tensorflow as tf
from absl import logging

_GraphKeys = tf.compat.v1.GraphKeys


def _check_scale(scale):
  """Returns True when `scale` disables the regularizer; raises for contrib's rejected scales."""
  if isinstance(scale, numbers.Integral):
    raise ValueError("scale must be a float, not an integer: %s" % (scale,))
  if isinstance(scale, numbers.Real):
    if scale < 0.0:
      raise ValueError("Setting a scale less than 0 on a regularizer: %g" % scale)
    if scale == 0.0:
      logging.info("Scale of 0 disables regularizer.")
      return True
  return False


def l1_regularizer(scale, scope=None):
  """Returns `l1(weights) = scale * sum(|weights|)`.

  Args:
    scale: a float or scalar float Tensor; 0.0 disables the regularizer.
    scope: an optional name scope (default "l1_regularizer").

  Returns:
    A function `weights -> Tensor` (returning None when `scale` is 0.0).

  Raises:
    ValueError: if `scale` is an integer or negative.
  """
  if _check_scale(scale):
    return lambda _: None

  def l1(weights, name=None):  # pylint: disable=unused-argument
    with tf.compat.v1.name_scope(scope, "l1_regularizer", [weights]) as name:
      my_scale = tf.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
      return tf.multiply(my_scale, tf.reduce_sum(tf.abs(weights)), name=name)

  return l1


def l2_regularizer(scale, scope=None):
  """Returns `l2(weights) = scale * sum(weights ** 2) / 2` (`tf.nn.l2_loss`).

  Args:
    scale: a float or scalar float Tensor; 0.0 disables the regularizer.
    scope: an optional name scope (default "l2_regularizer").

  Returns:
    A function `weights -> Tensor` (returning None when `scale` is 0.0).

  Raises:
    ValueError: if `scale` is an integer or negative.
  """
  if _check_scale(scale):
    return lambda _: None

  def l2(weights):
    with tf.compat.v1.name_scope(scope, "l2_regularizer", [weights]) as name:
      my_scale = tf.convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
      return tf.multiply(my_scale, tf.nn.l2_loss(weights), name=name)

  return l2


def sum_regularizer(regularizer_list, scope=None):
  """Returns the regularizer that adds up the given ones (None entries are dropped).

  Args:
    regularizer_list: a list of regularizers.
    scope: an optional name scope (default "sum_regularizer").

  Returns:
    A regularizer, or None when the list holds none.
  """
  regularizer_list = [reg for reg in regularizer_list if reg is not None]
  if not regularizer_list:
    return None

  def sum_reg(weights):
    with tf.compat.v1.name_scope(scope, "sum_regularizer", [weights]) as name:
      penalties = [reg(weights) for reg in regularizer_list]
      return tf.add_n([p for p in penalties if p is not None] or [tf.zeros([], weights.dtype)],
                      name=name)

  return sum_reg


def l1_l2_regularizer(scale_l1=1.0, scale_l2=1.0, scope=None):
  """Returns `l1_regularizer(scale_l1) + l2_regularizer(scale_l2)`."""
  return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)],
                         scope=scope or "l1_l2_regularizer")


def apply_regularization(regularizer, weights_list=None):
  """Returns the summed penalty of `regularizer` over `weights_list`, also added to REGULARIZATION_LOSSES.

  Args:
    regularizer: a function `Tensor -> scalar Tensor or None`.
    weights_list: tensors or variables; default the WEIGHTS collection.

  Returns:
    A scalar Tensor.

  Raises:
    ValueError: if there are no weights, or the regularizer returns a non-scalar.
  """
  if not weights_list:
    weights_list = tf.compat.v1.get_collection(_GraphKeys.WEIGHTS)
  if not weights_list:
    raise ValueError("No weights to regularize: weights_list is empty and so is the "
                     "tf.GraphKeys.WEIGHTS collection.")
  with tf.compat.v1.name_scope("get_regularization_penalty", values=weights_list) as scope:
    penalties = [regularizer(w) for w in weights_list]
    penalties = [p if p is not None else tf.constant(0.0) for p in penalties]
    for weights, p in zip(weights_list, penalties):
      if p.shape.ndims != 0:
        raise ValueError("regularizer must return a scalar Tensor; for %s it returned one of "
                         "rank %d." % (getattr(weights, "name", weights), p.shape.ndims))
    summed_penalty = tf.add_n(penalties, name=scope)
    tf.compat.v1.add_to_collection(_GraphKeys.REGULARIZATION_LOSSES, summed_penalty)
    return summed_penalty
