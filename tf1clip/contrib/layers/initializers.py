"""`tf.contrib.layers` weight initializers, with TF 1.15's formulas (the same numbers for a seed).

Place in the data flow (DESIGN.md): contrib.layers (this module) <- compat <- cli.

contrib's `variance_scaling_initializer` is not `tf.compat.v1.variance_scaling_initializer`:
its truncated-normal branch uses stddev = sqrt(1.3 * factor / n), where core TF divides
sqrt(scale / n) by 0.87962566. Its uniform branch (limit = sqrt(3 * factor / n)) is core TF's, so
`xavier_initializer()` draws exactly `tf.compat.v1.glorot_uniform_initializer`'s numbers.
Fans: fan_in = shape[-2] (shape[-1] for vectors), fan_out = shape[-1], both multiplied by the
leading dimensions (convolution kernels' receptive field).
"""

import math

import tensorflow as tf

_MODES = ("FAN_IN", "FAN_OUT", "FAN_AVG")


def xavier_initializer(uniform=True, seed=None, dtype=tf.float32):
  """Returns a "Xavier" (Glorot) initializer: variance_scaling(factor=1, mode='FAN_AVG').

  Args:
    uniform: uniform in [-sqrt(6 / (fan_in + fan_out)), +...] if True, else truncated normal.
    seed: a Python integer op seed.
    dtype: a floating point dtype.

  Returns:
    An initializer `(shape, dtype=dtype, partition_info=None) -> Tensor`.

  References:
    Glorot, Bengio, "Understanding the difficulty of training deep feedforward neural
    networks", AISTATS 2010.
  """
  return variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform, seed=seed,
                                      dtype=dtype)


xavier_initializer_conv2d = xavier_initializer


def variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False, seed=None,
                                 dtype=tf.float32):
  """Returns an initializer with variance factor / n, n the fan given by `mode`.

  The defaults (factor=2.0, mode='FAN_IN', uniform=False) are He et al.'s initialization for
  ReLU networks. Truncated normal draws use stddev sqrt(1.3 * factor / n); uniform draws use
  limit sqrt(3 * factor / n).

  Args:
    factor: a multiplicative factor of the variance.
    mode: 'FAN_IN', 'FAN_OUT' or 'FAN_AVG' (mean of both).
    uniform: uniform instead of truncated normal.
    seed: a Python integer op seed.
    dtype: a floating point dtype.

  Returns:
    An initializer `(shape, dtype=dtype, partition_info=None) -> Tensor`.

  Raises:
    TypeError: if `dtype` is not floating point or `mode` is not one of the three.

  References:
    He, Zhang, Ren, Sun, "Delving Deep into Rectifiers", ICCV 2015 (arXiv:1502.01852).
  """
  if not tf.as_dtype(dtype).is_floating:
    raise TypeError("variance_scaling_initializer needs a floating point dtype; got %s"
                    % tf.as_dtype(dtype).name)
  if mode not in _MODES:
    raise TypeError("mode must be one of %s; got %r" % (", ".join(_MODES), mode))

  def _initializer(shape, dtype=dtype, partition_info=None):  # pylint: disable=unused-argument
    dtype = tf.as_dtype(dtype)
    if not dtype.is_floating:
      raise TypeError("cannot create a floating point initializer for dtype %s" % dtype.name)
    shape = [int(d) for d in shape]
    if shape:
      fan_in = float(shape[-2]) if len(shape) > 1 else float(shape[-1])
      fan_out = float(shape[-1])
    else:  # scalars: contrib indexed shape[-1] and failed; a fan of 1 is what core TF uses
      fan_in = fan_out = 1.0
    for dim in shape[:-2]:
      fan_in *= float(dim)
      fan_out *= float(dim)
    if mode == "FAN_IN":
      n = fan_in
    elif mode == "FAN_OUT":
      n = fan_out
    else:
      n = (fan_in + fan_out) / 2.0
    if uniform:
      limit = math.sqrt(3.0 * factor / n)
      return tf.random.uniform(shape, -limit, limit, dtype, seed=seed)
    # 1.3 compensates (approximately) the variance lost by truncating at two stddevs.
    trunc_stddev = math.sqrt(1.3 * factor / n)
    return tf.random.truncated_normal(shape, 0.0, trunc_stddev, dtype, seed=seed)

  return _initializer
