"""`tf.contrib.resampler`: bilinear resampling of a batch of 2-D data at given points (TF 1.15's `resampler`).

TF 1.15 ran a custom kernel (contrib/resampler/kernels/resampler_ops.cc); here the same arithmetic is a composition
of TensorFlow 2.21 ops, so values and gradients (w.r.t. `data` and `warp`) are TF 1.15's:

  * `data` is [batch, height, width, channels]; `warp` is [batch, d_1, ..., d_n, 2] holding (x, y) points, x
    indexing width, y height; the output is [batch, d_1, ..., d_n, channels].
  * A point with x in (-1, width) and y in (-1, height) mixes its four neighbours (floor(x), floor(y)) ...
    (floor(x) + 1, floor(y) + 1) with bilinear weights, a neighbour outside the data counting as 0 (the data is
    padded with zeros, so the result fades to 0 towards the border); any other point (and NaN) gives 0.
  * The floor is taken in float32 also for float64 points, as TF 1.15's kernel did.
  * The gradient w.r.t. `warp` is the derivative of those weights with the neighbours fixed (TF 1.15's
    ResamplerGrad); outside points get zero gradients.

Bad shapes fail when run, with TF 1.15's error classes: `data` not of rank 4 or `warp`'s last dimension not 2
raise UnimplementedError, `warp` of rank < 2 or a batch mismatch InvalidArgumentError. (The UnimplementedError
checks run as a `tf.numpy_function`, built only when the static shapes do not settle them.)
"""

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

_DTYPES = (tf.float16, tf.bfloat16, tf.float32, tf.float64)


def _unimplemented_unless(ok, message, *shapes):
  """An op failing with UnimplementedError(message % shapes) when run, unless `ok` (a bool tensor)."""

  def check(ok_value, *shape_values):
    if not ok_value:
      raise NotImplementedError(message % tuple(_shape_string(s) for s in shape_values))
    return np.int32(0)

  return tf.numpy_function(check, [ok] + list(shapes), tf.int32, name="check")


def _shape_string(shape):
  return "[" + ",".join(str(d) for d in np.asarray(shape).tolist()) + "]"


def _dims(tensor):
  """The static sizes of `tensor` (ints and Nones; TensorShape's items are Dimensions under TF1 behaviour)."""
  return tensor.shape.as_list()


def _runtime_checks(data, warp):
  """The checks TF 1.15's kernel makes at run time, as ops (none for what the static shapes settle)."""
  data_rank, warp_rank = data.shape.rank, warp.shape.rank
  data_shape, warp_shape = tf.shape(data), tf.shape(warp)
  checks = []
  if data_rank is None or data_rank != 4:
    checks.append(_unimplemented_unless(
        tf.equal(tf.size(data_shape), 4),
        "Only bilinear interpolation is currently supported. The input data shape must be [batch_size, "
        "data_height, data_width, data_channels], but is: %s", data_shape))
  with tf.control_dependencies(checks):
    if warp_rank is None or warp_rank < 2:
      checks.append(tf.debugging.Assert(tf.size(warp_shape) >= 2,
                                        ["warp should be at least a matrix, got shape", warp_shape]))
  with tf.control_dependencies(checks):
    if warp_rank is None or _dims(warp)[-1] != 2:
      checks.append(_unimplemented_unless(
          tf.equal(warp_shape[-1], 2),
          "Only bilinear interpolation is supported, warping coordinates must be 2D; warp shape last entry "
          "should be 2, but shape vector is: %s", warp_shape))
  with tf.control_dependencies(checks):
    batch = _dims(data)[0] if data_rank else None
    warp_batch = _dims(warp)[0] if warp_rank else None
    if batch is None or warp_batch is None or batch != warp_batch:
      checks.append(tf.debugging.Assert(
          tf.equal(data_shape[0], warp_shape[0]),
          ["Batch size of data and warp tensor must be the same, but input shapes are:", data_shape,
           warp_shape]))
  return checks


def _statically_valid(data, warp):
  """False if the static shapes already show that TF 1.15's kernel will reject them."""
  data_rank, warp_rank = data.shape.rank, warp.shape.rank
  if data_rank is not None and data_rank != 4:
    return False
  if warp_rank is not None and (warp_rank < 2 or _dims(warp)[-1] not in (None, 2)):
    return False
  batches = (_dims(data)[0], _dims(warp)[0]) if data_rank and warp_rank else (None, None)
  return None in batches or batches[0] == batches[1]


def _static_output_shape(data, warp):
  """TF 1.15's shape function: warp.shape[:-1] + [data.shape[-1]] (both of rank >= 1)."""
  if data.shape.rank == 0 or warp.shape.rank == 0:
    raise ValueError("Shape must be at least rank 1 but is rank 0 for 'Resampler' (op: 'Resampler') with "
                     "input shapes: %s, %s." % (data.shape, warp.shape))
  if warp.shape.rank is None:
    return tf.TensorShape(None)
  channels = _dims(data)[-1] if data.shape.rank is not None else None
  return tf.TensorShape(_dims(warp)[:-1] + [channels])


def resampler(data, warp, name="resampler"):
  """Resamples `data` [batch, height, width, channels] bilinearly at the (x, y) points of `warp`.

  Args:
    data: Tensor of shape `[batch_size, data_height, data_width, data_num_channels]`.
    warp: Tensor of rank >= 2 whose last dimension (2) holds the (x, y) coordinates to sample at.
    name: Optional name of the op.

  Returns:
    Tensor `[batch_size, dim_0, ..., dim_n, data_num_channels]` of the resampled values.
  """
  with tf.compat.v1.name_scope(name, "resampler", [data, warp]):
    data = tf.convert_to_tensor(data, name="data")
    warp = tf.convert_to_tensor(warp, name="warp")
    if data.dtype not in _DTYPES:
      raise TypeError("Value passed to parameter 'data' has DataType %s not in list of allowed values: "
                      "float16, bfloat16, float32, float64" % data.dtype.name)
    if warp.dtype != data.dtype:
      raise TypeError("Input 'warp' of 'Resampler' Op has type %s that does not match type %s of argument "
                      "'data'." % (warp.dtype.name, data.dtype.name))
    static_shape = _static_output_shape(data, warp)
    checks = _runtime_checks(data, warp)
    if not _statically_valid(data, warp):  # TF 1.15 builds the op and fails when it runs
      with tf.control_dependencies(checks):
        return tf.compat.v1.placeholder_with_default(
            tf.zeros([d or 0 for d in static_shape.as_list()] if static_shape.rank is not None else [0],
                     data.dtype), static_shape, name="Resampler")
    if checks:  # a data dependency (control dependencies alone can be optimised away from shape computations)
      with tf.control_dependencies(checks):
        data, warp = tf.identity(data), tf.identity(warp)
    data_shape, warp_shape = tf.shape(data), tf.shape(warp)
    dtype = data.dtype
    batch, height, width, channels = data_shape[0], data_shape[1], data_shape[2], data_shape[3]
    points = tf.reduce_prod(warp_shape[1:-1])
    flat_data = tf.reshape(data, tf.stack([batch, height * width, channels]))
    flat_warp = tf.reshape(warp, tf.stack([warp_shape[0], points, 2]))
    x, y = flat_warp[..., 0], flat_warp[..., 1]
    inside = ((x > tf.constant(-1, dtype)) & (y > tf.constant(-1, dtype)) &
              (x < tf.cast(width, dtype)) & (y < tf.cast(height, dtype)))
    # Outside points (NaN too) are computed at (0, 0) and masked: no NaN reaches the gradients.
    x = tf.where(inside, x, tf.zeros_like(x))
    y = tf.where(inside, y, tf.zeros_like(y))
    fx = tf.cast(tf.floor(tf.cast(x, tf.float32)), tf.int32)
    fy = tf.cast(tf.floor(tf.cast(y, tf.float32)), tf.int32)
    cx, cy = fx + 1, fy + 1
    dx = tf.cast(cx, dtype) - x
    dy = tf.cast(cy, dtype) - y
    one = tf.constant(1, dtype)

    def neighbour(px, py):
      valid = (px >= 0) & (py >= 0) & (px <= width - 1) & (py <= height - 1)
      index = tf.clip_by_value(py, 0, height - 1) * width + tf.clip_by_value(px, 0, width - 1)
      values = tf.gather(flat_data, index, batch_dims=1)
      return tf.where(valid[..., tf.newaxis], values, tf.zeros_like(values))

    def weighted(weight, px, py):
      return weight[..., tf.newaxis] * neighbour(px, py)

    # The kernel's order of operations: ((fx,fy) + (cx,cy)) + (fx,cy) + (cx,fy).
    sampled = (weighted(dx * dy, fx, fy) + weighted((one - dx) * (one - dy), cx, cy) +
               weighted(dx * (one - dy), fx, cy) + weighted((one - dx) * dy, cx, fy))
    sampled = tf.where(inside[..., tf.newaxis], sampled, tf.zeros_like(sampled))
    output = tf.reshape(sampled, tf.concat([warp_shape[:-1], [channels]], 0))
    output.set_shape(static_shape)
    return tf.identity(output, name="Resampler")


__getattr__ = _catalog.module_getattr(__name__)
