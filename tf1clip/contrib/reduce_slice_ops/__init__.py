"""`tf.contrib.reduce_slice_ops`: sums, products, maxima and minima over index ranges (TF 1.15's ops, as TF ops).

`reduce_slice_<op>(data, indices, axis)` reduces, along `axis`, the slices `data[start:end]` that `indices`
gives: a [n, 2] tensor of (start, end) pairs, or a 1-D tensor whose neighbours are the pairs
(`indices[i]:indices[i + 1]`). The result has n rows along `axis`. As in TF 1.15's kernels, an end past the
data's size stops at it, and an empty range (end <= start) gives the reduction's identity: 0 for sums, 1 for
products, -inf / +inf for floating maxima / minima (an integer type's lowest / highest value). TF 1.15 ran a
custom kernel; here the ranges are gathered (`tf.ragged.range`) and reduced with TensorFlow's unsorted segment
reductions, so the ops also run on a GPU and have gradients (TF 1.15's had none). Stated differences: the static
shape is the result's (TF 1.15's shape function built it from the indices' shape: [n, 2] for an [n, 5] result),
and any axis of the data works (TF 1.15's refused one at or past the indices' rank).

TF 1.15's `tf.contrib.reduce_slice_ops` exported nothing (its `import *` came from an empty package): its four
functions were only reachable as `tensorflow.contrib.reduce_slice_ops.python.ops.reduce_slice_ops`. Here both the
public module and that path (python/ops/reduce_slice_ops.py) have them.
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

_IDENTITY_FILL = {"max": "lowest", "min": "highest"}


def _reduce_slice(kind, data, indices, axis, name):
  with tf.name_scope(name or "ReduceSlice" + kind.capitalize()):
    data = tf.convert_to_tensor(data, name="data")
    indices = tf.convert_to_tensor(indices, name="indices")
    if not (indices.dtype.is_integer and indices.shape.rank in (None, 1, 2)):
      raise ValueError("indices must be a 1-D or [n, 2] integer tensor, got %s of shape %s"
                       % (indices.dtype.name, indices.shape))
    axis = tf.get_static_value(tf.convert_to_tensor(axis, tf.int64))
    if axis is None or data.shape.rank is None or not 0 <= int(axis) < data.shape.rank:
      raise ValueError("axis must be a constant in [0, rank(data)) for data of shape %s, got %s"
                       % (data.shape, axis))
    axis = int(axis)
    indices = tf.cast(indices, tf.int64)
    if indices.shape.rank == 1:
      starts, ends = indices[:-1], indices[1:]
    else:
      starts, ends = indices[:, 0], indices[:, 1]
    size = tf.shape(data, out_type=tf.int64)[axis]
    starts = tf.clip_by_value(starts, 0, size)
    ends = tf.clip_by_value(ends, starts, size)
    ranges = tf.ragged.range(starts, ends)
    moved = tf.gather(data, ranges.flat_values, axis=axis)
    perm = [axis] + [i for i in range(data.shape.rank) if i != axis]
    moved = tf.transpose(moved, perm)
    count = tf.shape(starts, out_type=tf.int64)[0]
    segment = {"sum": tf.math.unsorted_segment_sum, "prod": tf.math.unsorted_segment_prod,
               "max": tf.math.unsorted_segment_max, "min": tf.math.unsorted_segment_min}[kind]
    reduced = segment(moved, ranges.value_rowids(), count)
    if kind in _IDENTITY_FILL:
      # TensorFlow's segment max / min leave an empty segment at the type's lowest / highest finite value;
      # TF 1.15's kernels started floating reductions from -inf / +inf
      dtype = data.dtype
      fill = (float("-inf") if kind == "max" else float("inf")) if dtype.is_floating else (
          dtype.min if kind == "max" else dtype.max)
      empty = tf.reshape(tf.equal(ends, starts), [-1] + [1] * (data.shape.rank - 1))
      reduced = tf.where(empty, tf.fill(tf.shape(reduced), tf.constant(fill, dtype)), reduced)
    inverse = [perm.index(i) for i in range(data.shape.rank)]
    return tf.transpose(reduced, inverse)


def reduce_slice_sum(data, indices, axis, name=None):
  """The sum of each slice `data[start:end]` along `axis` (0 for an empty one)."""
  return _reduce_slice("sum", data, indices, axis, name)


def reduce_slice_prod(data, indices, axis, name=None):
  """The product of each slice `data[start:end]` along `axis` (1 for an empty one)."""
  return _reduce_slice("prod", data, indices, axis, name)


def reduce_slice_max(data, indices, axis, name=None):
  """The maximum of each slice `data[start:end]` along `axis` (-inf, or the type's lowest, for an empty one)."""
  return _reduce_slice("max", data, indices, axis, name)


def reduce_slice_min(data, indices, axis, name=None):
  """The minimum of each slice `data[start:end]` along `axis` (+inf, or the type's highest, for an empty one)."""
  return _reduce_slice("min", data, indices, axis, name)


# TF 1.15's internal path, bound as this package's `python` attribute (after the functions it re-exports exist)
from tf1clip.contrib.reduce_slice_ops.python.ops import reduce_slice_ops as _internal_path  # pylint: disable=g-import-not-at-top,wrong-import-position

__getattr__ = _catalog.module_getattr(__name__)
