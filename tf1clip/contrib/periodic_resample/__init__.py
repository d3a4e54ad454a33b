"""`tf.contrib.periodic_resample`: periodic resampling of a tensor into a new shape (TF 1.15's op, as TF ops).

`periodic_resample(values, shape)` is the generalised sub-pixel shuffle of Shi et al. (2016): `shape` gives the
output size of every dimension but one (None, or any size < 1, marks the adjustable one, which shrinks to
floor(size(values) / product of the others)). TF 1.15 ran a custom kernel
(contrib/periodic_resample/kernels/periodic_resample_op.h); here its index map is computed with TF ops and the
output is one gather, with TF 1.15's semantics:

  with g_i = ceil(S_i / T_i) for output sizes S and input sizes T, and G_i = g_0 * ... * g_{i-1}, output
  element (s_1, ..., s_R) is input element h with h_i = s_i // g_i (i not adjustable) and
  h_q = S_q * sum_{i != q} G_i * (s_i mod g_i) + s_q for the adjustable dimension q.

The static output shape is TF 1.15's (from a fully known input shape, else the sizes of `shape`), and the same
bad requests fail when run, with InvalidArgumentError: a rank other than len(shape), no or several adjustable
dimensions, a fixed size below the input's, an adjustable size of 0, and element types other than float32,
float64, int32 and int64 (types outside TF's number types raise TypeError when built).

The gradient is TF 1.15's PeriodicResampleOpGrad: each input element gets the gradient of the last output element
(in row-major order) that copied it, and 0 if none did (TF 1.15 left such elements uninitialised).

Differences from TF 1.15, where TF 1.15 read or wrote outside its buffers: an output element whose index map
falls past the input's end (possible when a size is not a multiple of the input's) is 0 here (TF 1.15 read
whatever memory followed the input), and it passes no gradient. The gradient also works for inputs whose static
shape is not fully known (TF 1.15 raised ValueError when building it) and can be differentiated again.
"""

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# TF 1.15's `numbertype`: the element types the op accepts when built.
_NUMBER_TYPES = (tf.float32, tf.float64, tf.int32, tf.uint8, tf.int16, tf.int8, tf.complex64, tf.int64,
                 tf.qint8, tf.quint8, tf.qint32, tf.bfloat16, tf.uint16, tf.complex128, tf.float16, tf.uint32,
                 tf.uint64)
# ... and the ones its kernel runs.
_KERNEL_TYPES = (tf.float32, tf.float64, tf.int32, tf.int64)


def _desired_shape(shape):
  """The op's `shape` attr as make_shape made it: a list with -1 for None, or None for an unknown rank."""
  try:
    shape = tf.TensorShape(shape)
  except TypeError as e:
    raise TypeError("Error converting shape to a TensorShape: %s." % e) from None
  except ValueError as e:
    raise ValueError("Error converting shape to a TensorShape: %s." % e) from None
  if shape.rank is None:
    return None
  return [-1 if d is None else d for d in shape.as_list()]


def _static_shape(values_shape, desired):
  """TF 1.15's shape function (including its answers for requests the kernel then rejects)."""
  if values_shape.is_fully_defined():
    dims = values_shape.as_list()
    target = [0] * len(dims)
    adjustable, fixed = 0, 1
    for i in range(len(dims)):
      size = desired[i] if desired is not None and i < len(desired) else -1
      if size < 1:
        adjustable = i
      else:
        target[i] = size
        fixed *= size
    if target:
      target[adjustable] = int(np.prod(dims, dtype=np.int64)) // fixed
    return tf.TensorShape(target)
  if desired is None:
    return tf.TensorShape(None)
  return tf.TensorShape([d if d >= 1 else None for d in desired])


def _static_error(values, desired):
  """TF 1.15's error message for what shows before run time (dtype, rank, marks, sizes), else None."""
  if values.dtype not in _KERNEL_TYPES:
    return "Unsuppored tensor elements type"
  rank = values.shape.rank
  length = -1 if desired is None else len(desired)
  if rank is not None and rank != length:
    return ("periodic_resample expects the rank of the input tensor, %d, to be the same as the length of the "
            "desired shape, %d." % (rank, length))
  if desired is None:
    return None
  adjustable = [i for i, d in enumerate(desired) if d < 1]
  for i, size in enumerate(desired):
    if size < 1:
      if i != adjustable[0]:
        return "periodic_resample expects only one index to be marked as adjustable."
    elif rank is not None and values.shape.as_list()[i] is not None and size < values.shape.as_list()[i]:
      return ("periodic_resample expects the size of non-adjustable dimensions be at least as large as size of "
              "input tensor. Dimension %d input tensor has size %d, desired shape has size %d." %
              (i, values.shape.as_list()[i], size))
  if not adjustable:
    return "periodic_resample expects at least one index to be marked as adjustable."
  if values.shape.is_fully_defined():
    fixed = int(np.prod([d for d in desired if d >= 1], dtype=np.int64))
    if values.shape.num_elements() // fixed < 1:
      return ("periodic_resample found that the adjustable dimension, %d, isn't greater than zero, 0." %
              adjustable[0])
  return None


def _resample(values, desired):
  """The output (flat gather through TF 1.15's index map) and the runtime checks the static shape leaves."""
  rank = len(desired)
  adjustable = [i for i, d in enumerate(desired) if d < 1][0]
  fixed = [d for d in desired if d >= 1]
  known = values.shape.rank is not None
  input_shape = tf.shape(values, out_type=tf.int64)
  count = tf.reduce_prod(input_shape)
  adjustable_size = count // int(np.prod(fixed, dtype=np.int64))
  checks = []
  if not known:
    checks.append(tf.debugging.Assert(tf.equal(tf.rank(values), rank), [
        "periodic_resample expects the rank of the input tensor, ", tf.rank(values),
        ", to be the same as the length of the desired shape, %d." % rank]))
  for i, size in enumerate(desired):
    if i != adjustable and not (known and values.shape.as_list()[i] is not None):
      checks.append(tf.debugging.Assert(input_shape[i] <= size, [
          "periodic_resample expects the size of non-adjustable dimensions be at least as large as size of "
          "input tensor. Dimension %d input tensor has size" % i, input_shape[i],
          ", desired shape has size %d." % size]))
  if not values.shape.is_fully_defined():
    checks.append(tf.debugging.Assert(adjustable_size > 0, [
        "periodic_resample found that the adjustable dimension, %d, isn't greater than zero," % adjustable,
        adjustable_size]))
  if checks:  # a data dependency (control dependencies alone can be optimised away from shape computations)
    with tf.control_dependencies(checks):
      values = tf.identity(values)
  target = tf.stack([adjustable_size if i == adjustable else tf.constant(d, tf.int64)
                     for i, d in enumerate(desired)])
  ceiling = (target + input_shape - 1) // input_shape
  cumulative = tf.math.cumprod(ceiling, exclusive=True)
  input_strides = tf.math.cumprod(input_shape, exclusive=True, reverse=True)
  output_strides = tf.math.cumprod(target, exclusive=True, reverse=True)
  size = tf.reduce_prod(target)
  output_index = tf.range(size, dtype=tf.int64)[:, tf.newaxis]
  position = output_index // output_strides % target  # [size, rank]: each output element's coordinates
  fixed_mask = tf.constant([int(i != adjustable) for i in range(rank)], tf.int64)
  carriage = tf.reduce_sum(fixed_mask * cumulative * (position % ceiling), axis=1)
  source = (fixed_mask * (position // ceiling) +
            (1 - fixed_mask) * ((carriage * target[adjustable])[:, tf.newaxis] + position))
  linear = tf.reduce_sum(source * input_strides, axis=1)
  in_buffer = linear < count
  writer = tf.where(in_buffer, linear, count)  # past the end: a segment of its own
  gathered = tf.gather(tf.reshape(values, [-1]), tf.minimum(writer, tf.maximum(count - 1, 0)))
  # TF 1.15's gradient kernel assigns (not adds) each output gradient to its source: the last writer wins.
  last_writer = tf.gather(tf.math.unsorted_segment_max(output_index[:, 0], writer, count + 1), writer)
  writes = in_buffer & tf.equal(last_writer, output_index[:, 0])
  copied = tf.where(writes, gathered, tf.stop_gradient(gathered))
  copied = tf.where(in_buffer, copied, tf.zeros_like(copied))
  return tf.reshape(copied, target)


def periodic_resample(values, shape, name=None):
  """Periodically resamples `values` into `shape` (one size None: adjusted down to fit); TF 1.15's op.

  Args:
    values: A `Tensor` of a number type.
    shape: A `tf.TensorShape` or list of ints: the output's shape, with exactly one None (the adjustable
      dimension); the other sizes must be at least the input's.
    name: A name for the operation (optional).

  Returns:
    A `Tensor` of the type of `values`, periodically resampled to `shape`.
  """
  desired = _desired_shape(shape)
  with tf.compat.v1.name_scope(name, "PeriodicResample", [values]) as scope:
    values = tf.convert_to_tensor(values, name="values")
    if values.dtype not in _NUMBER_TYPES:
      raise TypeError("Value passed to parameter 'values' has DataType %s not in list of allowed values: %s" % (
          values.dtype.name, ", ".join(t.name for t in _NUMBER_TYPES)))
    static_shape = _static_shape(values.shape, desired)
    error = _static_error(values, desired)
    if error is not None:
      # TF 1.15 builds the op and fails when it runs.
      with tf.control_dependencies([tf.debugging.Assert(False, [error])]):
        output = tf.compat.v1.placeholder_with_default(
            tf.zeros([d or 0 for d in static_shape.as_list()] if static_shape.rank is not None else [0],
                     values.dtype), static_shape)
    else:
      output = _resample(values, desired)
    output.set_shape(static_shape)
    return tf.identity(output, name=scope)


__getattr__ = _catalog.module_getattr(__name__)
