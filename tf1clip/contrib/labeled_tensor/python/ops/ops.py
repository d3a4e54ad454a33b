"""LabeledTensor's other ops: selection, concatenation, reshaping, reductions, matmul, batching, and the rest.

TF 1.15's `tensorflow/contrib/labeled_tensor/python/ops/ops.py`, written by tf1clip on TensorFlow 2.21's graph-mode
API: each function takes and returns LabeledTensors, works by axis name, opens the name scope `lt_<op>` and names
its result by it, and raises TF 1.15's errors (ValueError, KeyError for a missing tick label, NotImplementedError
for what TF 1.15 had not implemented, `AxisOrderError`). `batch` / `shuffle_batch` are tf.compat.v1.train's
queue-based batching (run with queue runners, as in TF 1.15); `map_fn` / `foldl` are tf.compat.v1's.

Two choices of tf1clip's own, with TF 1.15's results: a list selection in `select` gathers along its axis directly
(TF 1.15 transposed the axis to the front and back), and `batch` / `shuffle_batch` check the 'batch' axis before
building their queue (TF 1.15 built it first, leaving a queue runner behind the ValueError).
"""

import collections.abc

import numpy as np
import tensorflow as tf

from tf1clip.contrib.labeled_tensor.python.ops import _typecheck as tc
from tf1clip.contrib.labeled_tensor.python.ops import core

_OptionalName = tc.Optional(str)
_Inputs = tc.Collection(core.LabeledTensorLike)
_AxisSpec = tc.Union(str, core.AxisLike)


def _check_axes_present(names, labeled_tensor, what):
  missing = [n for n in names if n not in labeled_tensor.axes]
  if missing:
    raise ValueError("%s axes %r are not contained in the set of axis names %r on the input labeled tensor" %
                     (what, missing, list(labeled_tensor.axes)))


def _selection_positions(axis, value):
  """The positional selection of `value` on a labeled axis: a slice (label slices include their end), an int, or
  a list of ints (a list of labels)."""
  if isinstance(value, slice):
    start = None if value.start is None else axis.index(value.start)
    stop = None if value.stop is None else axis.index(value.stop) + 1
    if value.step is not None:
      raise NotImplementedError("slicing with a step is not yet supported")
    return slice(start, stop)
  # after the slice case: a slice claims to be Hashable, and hashing one fails
  if isinstance(value, collections.abc.Hashable):
    return axis.index(value)
  if isinstance(value, list):
    return [axis.index(v) for v in value]
  raise TypeError("cannot handle arbitrary types")


@tc.accepts(labeled_tensor=core.LabeledTensorLike,
            selection=tc.Mapping(str, tc.Union(slice, collections.abc.Hashable, list)), name=_OptionalName)
def select(labeled_tensor, selection, name=None):
  """Selects by tick label: a label drops its axis, a slice of labels (both ends included) or a list of labels
  keeps it.

  Args:
    labeled_tensor: the input.
    selection: axis name -> a label, a slice of labels, or a list of labels. Any number of labels and slices,
      or exactly one list and nothing else.
    name: the op name.

  Returns:
    The selected LabeledTensor.

  Raises:
    ValueError: an axis is not the tensor's, or has no labels.
    KeyError: a label is not on its axis.
    NotImplementedError: two lists, or a list with labels or slices, or a slice with a step.
  """
  with core.labeled_scope(name, "lt_select", labeled_tensor) as (scope, lt):
    positions, listed = {}, {}
    for axis_name, value in selection.items():
      if axis_name not in lt.axes:
        raise ValueError("The tensor does not have an axis named %s. Its axes are: %r" %
                         (axis_name, list(lt.axes)))
      axis = lt.axes[axis_name]
      if axis.labels is None:
        raise ValueError("The axis named %s does not have labels. The axis is: %r" % (axis_name, axis))
      chosen = _selection_positions(axis, value)
      if isinstance(chosen, list):
        if listed:
          raise NotImplementedError("select does not yet support more than one list selection at the same time")
        listed[axis_name] = chosen
      else:
        positions[axis_name] = chosen
    if listed and positions:
      raise NotImplementedError("select does not yet support combined scalar and list selection")
    if not listed:
      return core.slice_function(lt, positions, name=scope)
    (axis_name, indices), = listed.items()
    gathered = tf.gather(lt.tensor, tf.constant(indices, tf.int64), axis=list(lt.axes).index(axis_name))
    axes = [core.Axis(axis_name, selection[axis_name]) if a.name == axis_name else a for a in lt.axes.values()]
    return core.LabeledTensor(tf.identity(gathered, name=scope), axes)


def _converted_all(labeled_tensors, op_name):
  converted = [core.convert_to_labeled_tensor(t) for t in labeled_tensors]
  if not converted:
    raise ValueError("%s expects at least 1 tensor, but received %s" % (op_name, converted))
  return converted


@tc.accepts(labeled_tensors=_Inputs, axis_name=str, name=_OptionalName)
def concat(labeled_tensors, axis_name, name=None):
  """tf.concat along the axis `axis_name`, whose labels are joined when every input has them.

  Raises:
    ValueError: no inputs, `axis_name` not an axis of the first, or the other axes not the same on all.
  """
  with tf.compat.v1.name_scope(name, "lt_concat", labeled_tensors) as scope:
    inputs = _converted_all(labeled_tensors, "concat")
    first_axes = inputs[0].axes
    if axis_name not in first_axes:
      raise ValueError("%s not in %s" % (axis_name, list(first_axes)))
    others = first_axes.remove(axis_name)
    for lt in inputs[1:]:
      if lt.axes.remove(axis_name) != others:
        raise ValueError("Mismatched shared axes: the first tensor had axes %r but this tensor has axes %r." %
                         (others, lt.axes.remove(axis_name)))
    joined = core.concat_axes([lt.axes[axis_name] for lt in inputs])
    position = list(first_axes).index(axis_name)
    result = tf.concat([lt.tensor for lt in inputs], position, name=scope)
    return core.LabeledTensor(result, [joined if a.name == axis_name else a for a in first_axes.values()])


@tc.accepts(labeled_tensors=_Inputs, new_axis=_AxisSpec, axis_position=int, name=_OptionalName)
def pack(labeled_tensors, new_axis, axis_position=0, name=None):
  """tf.stack of tensors with equal axes, along the new axis `new_axis` (a name, or an axis with labels) placed
  at `axis_position`.

  Raises:
    ValueError: no inputs, or their axes differ.
  """
  with tf.compat.v1.name_scope(name, "lt_pack", labeled_tensors) as scope:
    inputs = _converted_all(labeled_tensors, "pack")
    for lt in inputs:
      if lt.axes != inputs[0].axes:
        raise ValueError("Non-identical axes. Expected %s but got %s" % (inputs[0].axes, lt.axes))
    stacked = tf.stack([lt.tensor for lt in inputs], axis=axis_position, name=scope)
    axes = list(inputs[0].axes.values())
    axes.insert(axis_position, new_axis)
    return core.LabeledTensor(stacked, axes)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, axis_name=_OptionalName, name=_OptionalName)
def unpack(labeled_tensor, axis_name=None, name=None):
  """tf.unstack along `axis_name` (default: the first axis): a list of LabeledTensors without that axis.

  Raises:
    ValueError: `axis_name` is not an axis of the input.
  """
  with core.labeled_scope(name, "lt_unpack", labeled_tensor) as (scope, lt):
    names = list(lt.axes)
    axis_name = names[0] if axis_name is None else axis_name
    if axis_name not in names:
      raise ValueError("%s not in %s" % (axis_name, names))
    rest = lt.axes.remove(axis_name)
    return [core.LabeledTensor(t, rest) for t in tf.unstack(lt.tensor, axis=names.index(axis_name), name=scope)]


def _size_for_reshape(axis_spec):
  if isinstance(axis_spec, str):
    return -1
  size = core.as_axis(axis_spec).size
  return -1 if size is None else size


@tc.accepts(labeled_tensor=core.LabeledTensorLike, existing_axes=tc.Collection(str),
            new_axes=tc.Collection(_AxisSpec), name=_OptionalName)
def reshape(labeled_tensor, existing_axes, new_axes, name=None):
  """Replaces the consecutive axes `existing_axes` by `new_axes`; the other axes stay where they are.

  Args:
    labeled_tensor: the input.
    existing_axes: names of consecutive axes of the input, in order.
    new_axes: the axes that replace them: Axis objects, (name, value) pairs, and at most one name alone (an
      axis whose size the reshape infers).
    name: the op name.

  Returns:
    The reshaped LabeledTensor.

  Raises:
    ValueError: an existing axis is not the input's, or two new axes have no size.
    AxisOrderError: `existing_axes` are not consecutive, in order, on the input (transpose first).
  """
  with core.labeled_scope(name, "lt_reshape", labeled_tensor) as (scope, lt):
    names = list(lt.axes)
    existing = list(existing_axes)
    if not set(existing) <= set(names):
      raise ValueError("existing_axes %r are not contained in the set of axis names %r on the input labeled "
                       "tensor" % (existing, names))
    start, stop = names.index(existing[0]), names.index(existing[-1]) + 1
    if names[start:stop] != existing:
      # a transpose here would copy the data behind the caller's back
      raise core.AxisOrderError("existing_axes %r are not a slice of axis names %r on the input labeled tensor. "
                                "Use `transpose` or `impose_axis_order` to reorder axes on the input explicitly." %
                                (existing, names))
    if sum(isinstance(a, str) for a in new_axes) > 1:
      raise ValueError("at most one axis in new_axes can have unknown size. All other axes must have an "
                       "indicated integer size or labels: %r" % (new_axes,))
    values = list(lt.axes.values())
    axes = values[:start] + list(new_axes) + values[stop:]
    reshaped = tf.reshape(lt.tensor, [_size_for_reshape(a) for a in axes], name=scope)
    return core.LabeledTensor(reshaped, axes)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, existing_name=str, new_name=str, name=_OptionalName)
def rename_axis(labeled_tensor, existing_name, new_name, name=None):
  """The same tensor with axis `existing_name` called `new_name` (its size or labels kept).

  Raises:
    ValueError: `existing_name` is not an axis of the input.
  """
  with tf.compat.v1.name_scope(name, "lt_rename_axis", [labeled_tensor]) as scope:
    if existing_name not in labeled_tensor.axes:
      raise ValueError("existing_name %r are not contained in the set of axis names %r on the input labeled "
                       "tensor" % (existing_name, list(labeled_tensor.axes)))
    renamed = core.Axis(new_name, labeled_tensor.axes[existing_name].value)
    return reshape(labeled_tensor, [existing_name], [renamed], name=scope)


def _batched(default_name, batch_fn, labeled_tensors, batch_size, enqueue_many, allow_smaller_final_batch,
             name):
  """Runs one of tf.compat.v1.train's batchers on the tensors and labels its outputs with a leading 'batch' axis
  (of size `batch_size`, or unknown when the last batch may be smaller)."""
  with tf.compat.v1.name_scope(name, default_name, labeled_tensors) as scope:
    inputs = [core.convert_to_labeled_tensor(t) for t in labeled_tensors]
    if enqueue_many:
      for lt in inputs:
        if list(lt.axes)[:1] != ["batch"]:
          raise ValueError('When enqueue_many is True, input tensors must have an axis called "batch" as their '
                           "first dimension, but axes were %s" % lt.axes)
    outputs = batch_fn([lt.tensor for lt in inputs], scope)
    outputs = outputs if isinstance(outputs, list) else [outputs]
    size = None if allow_smaller_final_batch else batch_size
    labeled = []
    for lt, tensor in zip(inputs, outputs):
      rest = lt.axes.remove("batch") if enqueue_many else lt.axes
      labeled.append(core.LabeledTensor(tensor, [("batch", size)] + list(rest.values())))
    return labeled


@tc.accepts(labeled_tensors=_Inputs, batch_size=int, num_threads=int, capacity=int, enqueue_many=bool,
            allow_smaller_final_batch=bool, name=_OptionalName)
def batch(labeled_tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False,
          allow_smaller_final_batch=False, name=None):
  """tf.compat.v1.train.batch of LabeledTensors: each output gets a first axis 'batch'.

  With `enqueue_many`, each input's first axis must be 'batch' (its rows are the examples).

  Raises:
    ValueError: `enqueue_many` and an input whose first axis is not 'batch'.
  """

  def batch_fn(tensors, scope):
    return tf.compat.v1.train.batch(tensors, batch_size=batch_size, num_threads=num_threads, capacity=capacity,
                                    enqueue_many=enqueue_many,
                                    allow_smaller_final_batch=allow_smaller_final_batch, name=scope)

  return _batched("lt_batch", batch_fn, labeled_tensors, batch_size, enqueue_many, allow_smaller_final_batch,
                  name)


@tc.accepts(labeled_tensors=_Inputs, batch_size=int, num_threads=int, capacity=int, enqueue_many=bool,
            min_after_dequeue=int, seed=tc.Optional(int), allow_smaller_final_batch=bool, name=_OptionalName)
def shuffle_batch(labeled_tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False,
                  min_after_dequeue=0, seed=None, allow_smaller_final_batch=False, name=None):
  """tf.compat.v1.train.shuffle_batch of LabeledTensors: `batch` with the examples shuffled.

  Raises:
    ValueError: `enqueue_many` and an input whose first axis is not 'batch'.
  """

  def batch_fn(tensors, scope):
    return tf.compat.v1.train.shuffle_batch(
        tensors, batch_size=batch_size, num_threads=num_threads, capacity=capacity, enqueue_many=enqueue_many,
        min_after_dequeue=min_after_dequeue, seed=seed, allow_smaller_final_batch=allow_smaller_final_batch,
        name=scope)

  return _batched("lt_shuffle_batch", batch_fn, labeled_tensors, batch_size, enqueue_many,
                  allow_smaller_final_batch, name)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, shape_map=tc.Mapping(str, int), seed=tc.Optional(int),
            name=_OptionalName)
def random_crop(labeled_tensor, shape_map, seed=None, name=None):
  """tf.compat.v1.random_crop to the sizes of `shape_map` (axis name -> size); cropped axes lose their labels.

  Raises:
    ValueError: `shape_map` names an axis the input does not have.
  """
  with core.labeled_scope(name, "lt_random_crop", labeled_tensor) as (scope, lt):
    for axis_name in shape_map:
      if axis_name not in lt.axes:
        raise ValueError("Selection axis %s not in axes %s" % (axis_name, lt.axes))
    axes = [(a.name, shape_map[a.name]) if a.name in shape_map else a for a in lt.axes.values()]
    sizes = [shape_map[a.name] if a.name in shape_map else len(a) for a in lt.axes.values()]
    return core.LabeledTensor(tf.compat.v1.random_crop(lt.tensor, sizes, seed=seed, name=scope), axes)


@tc.accepts(fn=collections.abc.Callable, labeled_tensor=core.LabeledTensorLike, name=_OptionalName)
def map_fn(fn, labeled_tensor, name=None):
  """tf.compat.v1.map_fn over the first axis: `fn` maps a LabeledTensor without that axis to a LabeledTensor.

  The result's axes are the first axis and those `fn` gives the first element (`fn` is called once on it to see
  them, then inside the loop). String tensors, which tf.compat.v1.map_fn could not map in TF 1.15, are mapped by
  calling `fn` on each element and packing the results.
  """
  with core.labeled_scope(name, "lt_map_fn", labeled_tensor) as (scope, lt):
    elements = unpack(lt)
    outer, inner = list(lt.axes.values())[0], list(lt.axes.values())[1:]
    if lt.dtype == tf.string:
      return pack([fn(e) for e in elements], outer, name=scope)
    first = fn(elements[0])
    mapped = tf.compat.v1.map_fn(lambda t: fn(core.LabeledTensor(t, inner)).tensor, lt.tensor, dtype=first.dtype)
    return core.identity(core.LabeledTensor(mapped, [outer] + list(first.axes.values())), name=scope)


@tc.accepts(fn=collections.abc.Callable, labeled_tensor=core.LabeledTensorLike,
            initial_value=core.LabeledTensorLike, name=_OptionalName)
def foldl(fn, labeled_tensor, initial_value, name=None):
  """tf.compat.v1.foldl over the first axis: `fn(accumulated, element)` of LabeledTensors, the accumulator
  keeping `initial_value`'s axes."""
  with core.labeled_scope(name, "lt_foldl", labeled_tensor, initial_value) as (scope, lt, start):
    inner = list(lt.axes.values())[1:]

    def step(accumulated, element):
      return fn(core.LabeledTensor(accumulated, start.axes), core.LabeledTensor(element, inner)).tensor

    folded = tf.compat.v1.foldl(step, lt.tensor, initializer=start.tensor)
    return core.identity(core.LabeledTensor(folded, start.axes), name=scope)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, axis_names=tc.Optional(tc.Collection(str)), name=_OptionalName)
def squeeze(labeled_tensor, axis_names=None, name=None):
  """Removes size-1 axes: those named (default: every one of size 1).

  Raises:
    ValueError: a named axis is not the input's, or its size is not 1.
  """
  with core.labeled_scope(name, "lt_squeeze", labeled_tensor) as (scope, lt):
    if axis_names is None:
      axis_names = [a.name for a in lt.axes.values() if len(a) == 1]
    for axis_name in axis_names:
      if axis_name not in lt.axes:
        raise ValueError("axis %s is not in tensor axes %s" % (axis_name, lt.axes))
      if len(lt.axes[axis_name]) != 1:
        raise ValueError("cannot squeeze axis with size greater than 1: (%s, %s)" %
                         (axis_name, lt.axes[axis_name]))
    dropped = [i for i, a in enumerate(lt.axes) if a in axis_names]
    kept = [a for a in lt.axes.values() if a.name not in axis_names]
    if dropped:
      return core.LabeledTensor(tf.squeeze(lt.tensor, dropped, name=scope), kept)
    return core.LabeledTensor(tf.identity(lt.tensor, name=scope), kept)


def _matmul_operand(lt, shared, position):
  """(tensor, transpose it?, dimension to squeeze or None) for one side of a matmul: a vector becomes a row (left,
  `position` 0) or a column (right, 1); a matrix is transposed when its shared axis is not where matmul sums."""
  if len(lt.axes) == 1:
    return tf.reshape(lt.tensor, (1, -1) if position == 0 else (-1, 1)), False, position
  return lt.tensor, list(lt.axes).index(shared) == position, None


@tc.accepts(a=core.LabeledTensorLike, b=core.LabeledTensorLike, name=_OptionalName)
def matmul(a, b, name=None):
  """Matrix / vector product of rank-1 or rank-2 tensors over their one shared axis (numpy.dot's cases).

  The result's axes are the other axes, a's first; inside an axis_order_scope, in the scope's order.

  Raises:
    NotImplementedError: an input of rank > 2, or more than one shared axis.
    ValueError: a scalar input, no shared axis, or the shared axis differs between the inputs.
  """
  with core.labeled_scope(name, "lt_matmul", a, b) as (scope, left, right):
    if len(left.axes) > 2 or len(right.axes) > 2:
      # batched matmul would need tiles and transposes, more costly than the reshapes done here
      raise NotImplementedError("matmul currently requires inputs with rank 2 or less, but inputs have ranks %r "
                                "and %r" % (len(left.axes), len(right.axes)))
    if not left.axes or not right.axes:
      raise ValueError("matmul currently requires inputs with at least rank 1, but inputs have ranks %r and %r" %
                       (len(left.axes), len(right.axes)))
    shared = set(left.axes) & set(right.axes)
    if len(shared) > 1:
      raise NotImplementedError("matmul does not yet support summing over multiple shared axes: %r. Use transpose "
                                "and reshape to create a single shared axis to sum over." % shared)
    if not shared:
      raise ValueError("there must have exactly one axis in common between input to matmul: %r, %r" %
                       (list(left.axes), list(right.axes)))
    shared_name = shared.pop()
    if left.axes[shared_name] != right.axes[shared_name]:
      raise ValueError("axis %r does not match on input arguments: %r vs %r" %
                       (shared_name, left.axes[shared_name].value, right.axes[shared_name].value))
    result_axes = [x for lt in (left, right) for x in lt.axes.values() if x.name != shared_name]
    order = core.get_axis_order()
    if order is not None and [n for n in order if n in [x.name for x in result_axes]] != [
        x.name for x in result_axes]:
      left, right, result_axes = right, left, result_axes[::-1]
    left_tensor, transpose_a, squeeze_left = _matmul_operand(left, shared_name, 0)
    right_tensor, transpose_b, squeeze_right = _matmul_operand(right, shared_name, 1)
    product = tf.linalg.matmul(left_tensor, right_tensor, transpose_a=transpose_a, transpose_b=transpose_b)
    squeezed = [d for d in (squeeze_left, squeeze_right) if d is not None]
    if squeezed:
      product = tf.squeeze(product, squeezed)
    return core.LabeledTensor(tf.identity(product, name=scope), result_axes)


# pylint: disable=invalid-name
ReduceAxis = tc.Union(str, tc.Tuple(str, collections.abc.Hashable))
ReduceAxes = tc.Optional(tc.Union(ReduceAxis, tc.Collection(ReduceAxis)))
# pylint: enable=invalid-name


@tc.accepts(op_name=str, reduce_fn=collections.abc.Callable)
def define_reduce_op(op_name, reduce_fn):
  """The labeled version of `reduce_fn(tensor, axes, keepdims=True)`: `op(labeled_tensor, axes=None, name=None)`.

  `axes` (default: all) names the reduced axes: a name removes the axis, a (name, label) pair keeps it with that
  one label, (name, None) keeps it unlabeled. The name scope is `lt_<op_name>`.
  """

  @tc.accepts(labeled_tensor=core.LabeledTensorLike, axes=ReduceAxes, name=_OptionalName)
  def op(labeled_tensor, axes=None, name=None):
    with core.labeled_scope(name, "lt_" + op_name, labeled_tensor) as (scope, lt):
      specs = list(lt.axes) if axes is None else [axes] if isinstance(axes, (str, tuple)) else list(axes)
      kept = {}  # reduced axis name -> what stands in its place (a name: squeezed out after)
      for spec in specs:
        if isinstance(spec, str):
          kept[spec] = spec
        else:
          kept[spec[0]] = (spec[0], None if spec[1] is None else [spec[1]])
      for axis_name in kept:
        if axis_name not in lt.axes:
          raise ValueError("Axis %s not in axes %s" % (axis_name, lt.axes))
      positions = [i for i, axis_name in enumerate(lt.axes) if axis_name in kept]
      reduced = reduce_fn(lt.tensor, positions, keepdims=True)
      reduced_axes = [kept.get(a.name, a) for a in lt.axes.values()]
      return squeeze(core.LabeledTensor(reduced, reduced_axes), [s for s in specs if isinstance(s, str)],
                     name=scope)

  op.__name__ = op_name
  op.__doc__ = "`tf.%s` over axes of a LabeledTensor (see define_reduce_op); its name scope is `lt_%s`." % (
      op_name, op_name)
  return op


reduce_all = define_reduce_op("reduce_all", tf.math.reduce_all)
reduce_any = define_reduce_op("reduce_any", tf.math.reduce_any)
reduce_logsumexp = define_reduce_op("reduce_logsumexp", tf.math.reduce_logsumexp)
reduce_max = define_reduce_op("reduce_max", tf.math.reduce_max)
reduce_mean = define_reduce_op("reduce_mean", tf.math.reduce_mean)
reduce_min = define_reduce_op("reduce_min", tf.math.reduce_min)
reduce_prod = define_reduce_op("reduce_prod", tf.math.reduce_prod)
reduce_sum = define_reduce_op("reduce_sum", tf.math.reduce_sum)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, multiples=tc.Mapping(str, tc.Union(int, tf.Tensor)),
            name=_OptionalName)
def tile(labeled_tensor, multiples, name=None):
  """tf.tile by axis name (`multiples`: axis name -> repetitions, 1 for the others). Labeled axes cannot be tiled
  (their labels would repeat).

  Raises:
    ValueError: `multiples` names an axis the input lacks, or a labeled one.
  """
  with core.labeled_scope(name, "lt_tile", labeled_tensor) as (scope, lt):
    _check_axes_present(multiples, lt, "tile")
    labeled = [n for n in multiples if lt.axes[n].labels is not None]
    if labeled:
      raise ValueError("cannot tile axes with tick labels: %r" % labeled)
    tiled = tf.tile(lt.tensor, [multiples.get(n, 1) for n in lt.axes], name=scope)
    return core.LabeledTensor(tiled, [a if a.labels is not None else a.name for a in lt.axes.values()])


@tc.accepts(labeled_tensor=core.LabeledTensorLike,
            paddings=tc.Mapping(str, tc.Tuple(core.AxisValue, core.AxisValue)), mode=str, name=_OptionalName)
def pad(labeled_tensor, paddings, mode="CONSTANT", name=None):
  """tf.pad by axis name: `paddings` maps an axis to (before, after), each a size or the tick labels of the padding
  (a labeled axis stays labeled when its padding has labels).

  Raises:
    ValueError: `paddings` names an axis the input lacks.
  """
  with core.labeled_scope(name, "lt_pad", labeled_tensor) as (scope, lt):
    _check_axes_present(paddings, lt, "pad")
    axes, amounts = [], []
    for axis in lt.axes.values():
      before, after = (core.Axis(axis.name, v) for v in paddings.get(axis.name, (0, 0)))
      axes.append(core.concat_axes([before, axis, after]) if axis.name in paddings else axis)
      amounts.append((len(before), len(after)))
    return core.LabeledTensor(tf.pad(lt.tensor, amounts, mode, name=scope), axes)


@tc.accepts(value=tc.Union(np.ndarray, list, tuple, core.Scalar), dtype=tc.Optional(tf.DType),
            axes=tc.Optional(tc.Union(core.Axes, tc.Collection(_AxisSpec))), name=_OptionalName)
def constant(value, dtype=None, axes=None, name=None):
  """tf.compat.v1.constant labeled with `axes` (default: none, a scalar). Axes given as names take their sizes
  from `value`; with none given as a name, the axes' sizes are the constant's shape (a scalar is broadcast)."""
  with tf.compat.v1.name_scope(name, "lt_constant", [value]) as scope:
    axes = list(axes.values()) if isinstance(axes, core.Axes) else list(axes or [])
    shape = None
    if not any(isinstance(a, str) for a in axes):
      axes = [core.as_axis(a) for a in axes]
      shape = [a.size for a in axes]
    return core.LabeledTensor(tf.compat.v1.constant(value, dtype=dtype, shape=shape, name=scope), axes)


def _same_axes_op(default_name, tensor_fn):
  """An op whose result has its input's axes: `tensor_fn(tensor, argument, scope)` makes the result tensor."""

  def op(labeled_tensor, argument, name):
    with core.labeled_scope(name, default_name, labeled_tensor) as (scope, lt):
      return core.LabeledTensor(tensor_fn(lt.tensor, argument, scope), lt.axes)

  return op


_zeros_like = _same_axes_op("lt_zeros_like", lambda t, dtype, scope: tf.compat.v1.zeros_like(t, dtype=dtype,
                                                                                            name=scope))
_ones_like = _same_axes_op("lt_ones_like", lambda t, dtype, scope: tf.compat.v1.ones_like(t, dtype=dtype,
                                                                                         name=scope))
_cast = _same_axes_op("lt_cast", lambda t, dtype, scope: tf.cast(t, dtype=dtype, name=scope))
_verified = _same_axes_op("lt_verify_tensor_all_finite",
                          lambda t, message, scope: tf.compat.v1.verify_tensor_all_finite(t, msg=message,
                                                                                          name=scope))


@tc.accepts(labeled_tensor=core.LabeledTensorLike, dtype=tc.Optional(tf.DType), name=_OptionalName)
def zeros_like(labeled_tensor, dtype=None, name=None):
  """Zeros with the input's axes (and dtype, unless `dtype` is given)."""
  return _zeros_like(labeled_tensor, dtype, name)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, dtype=tc.Optional(tf.DType), name=_OptionalName)
def ones_like(labeled_tensor, dtype=None, name=None):
  """Ones with the input's axes (and dtype, unless `dtype` is given)."""
  return _ones_like(labeled_tensor, dtype, name)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, dtype=tc.Optional(tf.DType), name=_OptionalName)
def cast(labeled_tensor, dtype=None, name=None):
  """tf.cast to `dtype`, the axes kept."""
  return _cast(labeled_tensor, dtype, name)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, message=str, name=_OptionalName)
def verify_tensor_all_finite(labeled_tensor, message, name=None):
  """The input, with a check that fails the run (logging `message`) when it holds a NaN or an infinity."""
  return _verified(labeled_tensor, message, name)


@tc.accepts(labeled_tensor=core.LabeledTensorLike, mask=core.LabeledTensorLike, name=_OptionalName)
def boolean_mask(labeled_tensor, mask, name=None):
  """tf.boolean_mask of the first axis by a 1-D mask over that same axis; the axis loses its labels (which
  positions remain is known only when the graph runs).

  Raises:
    NotImplementedError: the mask has more than one axis.
    ValueError: the mask's axis is not the input's first axis.
  """
  with core.labeled_scope(name, "lt_boolean_mask", labeled_tensor, mask) as (scope, lt, lt_mask):
    if len(lt_mask.axes) > 1:
      raise NotImplementedError("LabeledTensor's boolean_mask currently only supports 1D masks")
    masked_axis, first = list(lt_mask.axes.values())[0], list(lt.axes.values())[0]
    if masked_axis != first:
      raise ValueError("the first axis of the labeled tensor and the mask are not equal:\n%r\n%r" %
                       (first, masked_axis))
    masked = tf.compat.v1.boolean_mask(lt.tensor, lt_mask.tensor, name=scope)
    return core.LabeledTensor(masked, [first.name] + list(lt.axes.values())[1:])


@tc.accepts(condition=core.LabeledTensorLike, x=core.LabeledTensorLike, y=core.LabeledTensorLike,
            name=_OptionalName)
def where(condition, x, y, name=None):
  """tf.compat.v1.where(condition, x, y) of three tensors with equal axes (the three-argument form only).

  Raises:
    ValueError: the axes differ.
  """
  with core.labeled_scope(name, "lt_where", condition, x, y) as (scope, lt_condition, lt_x, lt_y):
    if not lt_condition.axes == lt_x.axes == lt_y.axes:
      raise ValueError("all inputs to `where` must have equal axes")
    chosen = tf.compat.v1.where(lt_condition.tensor, lt_x.tensor, lt_y.tensor, name=scope)
    return core.LabeledTensor(chosen, lt_x.axes)
