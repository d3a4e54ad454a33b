"""LabeledTensor's core: `Axis`, `Axes`, `LabeledTensor`, axis order, `align` and the elementwise ops.

TF 1.15's `tensorflow/contrib/labeled_tensor/python/ops/core.py`, written by tf1clip on TensorFlow 2.21's graph-mode
API (tf.compat.v1). "Core" are the ops a LabeledTensor's own methods and operators reach (`x + y` is `add`, `x[0]`
is `slice_function`) and what they need; the rest is in `ops`.

What TF 1.15 fixed and tf1clip keeps: axis names and tick labels travel with the tensor; `align` broadcasts two
tensors by inserting size-1 axes in the order of the innermost `axis_order_scope` (kept in the graph collection
`('__axis_order',)`) or else in the left-most order consistent with both, and never transposes; each op opens the
name scope `lt_<op>` and names its result by it; a wrong argument type is `tc.Error` (a TypeError), a bad value a
ValueError, an impossible order an `AxisOrderError` (a ValueError); and the reprs are TF 1.15's, character for
character. A LabeledTensor converts to its tensor wherever TensorFlow takes one.
"""

import collections
import collections.abc
import contextlib
import numbers

import numpy as np
import tensorflow as tf

from tf1clip.contrib.labeled_tensor.python.ops import _typecheck as tc

_Dimension = tf.compat.v1.Dimension

# pylint: disable=invalid-name
# What an axis may be described by: tick labels (any sequence but a string), or a size (None: unknown).
LabelsLike = tc.Union(np.ndarray, range, list, tuple)
DimensionLike = tc.Optional(tc.Union(_Dimension, int))
AxisValue = tc.Union(LabelsLike, DimensionLike)
# Python and NumPy scalars TensorFlow converts to a rank-0 tensor.
Scalar = tc.Union(numbers.Number, bool, bytes, str)
# pylint: enable=invalid-name

_OptionalName = tc.Optional(str)


class Axis(object):
  """One named axis: its size, and, for a labeled axis, one unique tick label per position.

  `Axis('x', 3)` (or a tf.compat.v1.Dimension, or None for an unknown size) has no labels;
  `Axis('x', ['a', 'b'])` has size 2 and labels ('a', 'b'). An axis of size 0 counts as labeled (with no labels).
  """

  @tc.accepts(name=str, value=AxisValue)
  def __init__(self, name, value):
    """Makes the axis.

    Args:
      name: the axis name.
      value: the size (an int, a tf.compat.v1.Dimension or None), or the tick labels (a list, tuple, range or
        array; not a string).

    Raises:
      ValueError: two tick labels are equal.
    """
    if isinstance(value, _Dimension):
      dimension, labels = value, None
    elif value is None or isinstance(value, int):
      dimension, labels = _Dimension(value), None
    else:
      labels = tuple(value)
      dimension = _Dimension(len(labels))
    if dimension.value == 0:
      labels = ()
    positions = None
    if labels is not None:
      positions = {label: position for position, label in enumerate(labels)}
      if len(positions) != len(labels):
        raise ValueError("Tick labels must be unique, but got {}".format(labels))
    self._name = name
    self._dimension = dimension
    self._labels = labels
    self._positions = positions

  @property
  def name(self):
    return self._name

  @property
  def dimension(self):
    return self._dimension

  @property
  def size(self):
    """The size as an int, or None when unknown."""
    return self._dimension.value

  @property
  def labels(self):
    """The tick labels as a tuple, or None for an unlabeled axis."""
    return self._labels

  @property
  def value(self):
    """The labels of a labeled axis, else the tf.compat.v1.Dimension."""
    return self._dimension if self._labels is None else self._labels

  def index(self, value):
    """The position of tick label `value` (KeyError when the axis has no such label)."""
    if self._positions is None:
      raise ValueError("Axis does not have tick labels")
    return self._positions[value]

  def __len__(self):
    if self.size is None:
      raise ValueError("axis %r has unknown length" % self.name)
    return self.size

  def __eq__(self, other):
    return isinstance(other, Axis) and (self.name, self.size, self.labels) == (other.name, other.size,
                                                                                other.labels)

  def __ne__(self, other):
    return not self == other

  def __hash__(self):
    return hash((self.name, self.size, self.labels))

  def __repr__(self):
    return "%s('%s', %r)" % (type(self).__name__, self.name, self.value)


# pylint: disable=invalid-name
AxisLike = tc.Union(Axis, tc.Tuple(str, AxisValue))
# pylint: enable=invalid-name


@tc.accepts(axis_data=AxisLike)
def as_axis(axis_data):
  """`axis_data` itself if it is an Axis, else `Axis(*axis_data)` of a (name, value) pair."""
  return axis_data if isinstance(axis_data, Axis) else Axis(*axis_data)


def _axis_items(axes, indent):
  """The "('name', value)" entries of a repr, one a line, the later lines indented by `indent` spaces."""
  return (",\n" + " " * indent).join("('%s', %r)" % (a.name, a.value) for a in axes)


class Axes(collections.abc.Mapping):
  """The axes of a tensor, in order: a mapping from axis name to `Axis` (names unique).

  Two Axes are equal when they map the same names to equal axes, whatever their order (a Mapping's equality).
  """

  @tc.accepts(axes=tc.List(AxisLike))
  def __init__(self, axes):
    """Makes the mapping from a list of Axis objects or (name, value) pairs.

    Raises:
      ValueError: two axes have the same name.
    """
    self._by_name = collections.OrderedDict()
    for axis in map(as_axis, axes):
      if axis.name in self._by_name:
        raise ValueError("Duplicate axis name: %s" % axis.name)
      self._by_name[axis.name] = axis

  @tc.accepts(name=str)
  def __getitem__(self, name):
    return self._by_name[name]

  def __contains__(self, name):
    return name in self._by_name

  def __iter__(self):
    return iter(self._by_name)

  def __len__(self):
    return len(self._by_name)

  def __hash__(self):
    return hash(tuple(self.items()))

  def __repr__(self):
    opening = "%s([" % type(self).__name__
    return opening + _axis_items(self.values(), len(opening)) + "])"

  @tc.accepts(axis_name=str)
  def remove(self, axis_name):
    """A new Axes without the axis `axis_name` (KeyError when there is none)."""
    if axis_name not in self:
      raise KeyError(axis_name)
    return Axes([a for a in self.values() if a.name != axis_name])


def _known_size(dimension):
  return tf.compat.dimension_value(dimension)


class LabeledTensor(object):
  """A tensor whose axes have names (and perhaps tick labels): one Axis per dimension, of the dimension's size.

  Python's operators work as on tensors, aligning the operands' axes by name (see `align`); `x[i, j, ...]`
  takes one index or slice per axis (`slice_function`). Wherever TensorFlow takes a tensor, a LabeledTensor
  stands for its tensor.
  """

  @tc.accepts(tensor=tf.Tensor, axes=tc.Union(Axes, tc.Collection(tc.Union(str, AxisLike))))
  def __init__(self, tensor, axes):
    """Labels `tensor`.

    Args:
      tensor: the tf.Tensor.
      axes: an Axes, or one entry per dimension: a name (the dimension's size, unlabeled), an Axis or a
        (name, value) pair.

    Raises:
      ValueError: the number of axes is not the tensor's rank, or an axis size contradicts the static shape.
    """
    shape = tensor.get_shape()
    if not isinstance(axes, Axes):
      axes = Axes([(a, shape[i]) if isinstance(a, str) else a for i, a in enumerate(axes)])
    if len(shape) != len(axes):
      raise ValueError("Tensor rank was not equal to the number of axes: %r, %r" % (shape, axes))
    for dimension, axis in zip(shape, axes.values()):
      known = _known_size(dimension)
      if known is not None and axis.size is not None and known != axis.size:
        raise ValueError("Provided axis size %d does not match tensor dimension size %d in tensor %r" %
                         (axis.size, known, tensor))
    self._tensor = tensor
    self._axes = axes

  @property
  def tensor(self):
    return self._tensor

  @property
  def axes(self):
    return self._axes

  @property
  def dtype(self):
    return self._tensor.dtype

  @property
  def shape(self):
    return self._tensor.shape

  @property
  def name(self):
    return self._tensor.name

  def get_shape(self):
    """The tensor's static shape (tf.Tensor.get_shape)."""
    return self._tensor.get_shape()

  def _as_graph_element(self):
    # what lets a LabeledTensor stand in a name_scope's values, or be fetched
    return self._tensor

  def __getitem__(self, key):
    key = key if isinstance(key, tuple) else (key,)
    if len(key) != len(self.axes):
      raise ValueError("indexer %r must have the same length as the Tensor rank (%r)" % (key, len(self.axes)))
    return slice_function(self, dict(zip(self.axes, key)))

  def __pos__(self):
    return self

  def __eq__(self, other):
    # the same tensor (tf.Tensor's TF1 equality is identity) with the same axes
    return isinstance(other, LabeledTensor) and self.tensor is other.tensor and self.axes == other.axes

  def __ne__(self, other):
    return not self == other

  def __hash__(self):
    return hash((id(self.tensor), self.axes))

  def __repr__(self):
    return "<%s '%s' shape=%s dtype=%s\n axes=[%s]>" % (
        type(self).__name__, self.tensor.name, self.tensor.get_shape(), self.tensor.dtype.name,
        _axis_items(self.axes.values(), len(" axes=[")))


def _as_tensor(value, dtype=None, name=None, as_ref=False):
  del as_ref  # a LabeledTensor holds a value, never a reference variable
  return tf.convert_to_tensor(value.tensor, dtype=dtype, name=name)


tf.register_tensor_conversion_function(LabeledTensor, _as_tensor)

# pylint: disable=invalid-name
LabeledTensorLike = tc.Union(LabeledTensor, tf.Tensor, np.ndarray, Scalar)
# pylint: enable=invalid-name


@tc.accepts(value=LabeledTensorLike, name=_OptionalName)
def convert_to_labeled_tensor(value, dtype=None, name=None):
  """`value` as a LabeledTensor: a LabeledTensor as it is (its dtype checked), a scalar as a rank-0 one.

  Args:
    value: a LabeledTensor, or a rank-0 tensor, array or Python scalar.
    dtype: the dtype the result must have (converted to, for a Python value).
    name: the name of a tensor created for `value`.

  Returns:
    The LabeledTensor.

  Raises:
    ValueError: `value` has rank > 0 and no axes (label it with `LabeledTensor(tensor, axes)`).
  """
  axes = list(value.axes.values()) if isinstance(value, LabeledTensor) else []
  tensor = tf.convert_to_tensor(value.tensor if isinstance(value, LabeledTensor) else value, dtype=dtype,
                                name=name)
  if len(tensor.get_shape()) != len(axes):
    raise ValueError("cannot automatically convert unlabeled arrays or tensors with rank>0 into "
                     "LabeledTensors: %r" % (value,))
  return LabeledTensor(tensor, axes)


@contextlib.contextmanager
def labeled_scope(name, default_name, *inputs):
  """Opens an op's name scope and yields (scope, inputs converted to LabeledTensors inside it).

  tf1clip's (TF 1.15 spelled the two steps out in every op); `ops`, `io_ops` and `sugar` use it too.
  """
  with tf.compat.v1.name_scope(name, default_name, list(inputs)) as scope:
    yield (scope,) + tuple(convert_to_labeled_tensor(t) for t in inputs)


@tc.accepts(axes=tc.Collection(Axis))
def concat_axes(axes):
  """The axis of the concatenation of same-named axes: the labels joined if all have labels, else the summed
  size (unknown if one is unknown).

  Raises:
    ValueError: `axes` is empty or the names differ.
  """
  if not axes:
    raise ValueError("axes must not be empty")
  names = set(a.name for a in axes)
  if len(names) != 1:
    raise ValueError("axes do not all have the same name: %r" % names)
  if all(a.labels is not None for a in axes):
    value = sum((a.labels for a in axes), ())
  elif any(a.size is None for a in axes):
    value = None
  else:
    value = sum(a.size for a in axes)
  return Axis(names.pop(), value)


@tc.accepts(labeled_tensor=LabeledTensorLike, name=_OptionalName)
def identity(labeled_tensor, name=None):
  """tf.identity of the tensor, with its axes."""
  with labeled_scope(name, "lt_identity", labeled_tensor) as (scope, lt):
    return LabeledTensor(tf.identity(lt.tensor, name=scope), lt.axes)


def _sliced_axis(axis, part):
  # an unlabeled axis gets its new size from the sliced tensor; a labeled one keeps its labels' slice
  return axis.name if axis.labels is None else (axis.name, axis.labels[part])


@tc.accepts(labeled_tensor=LabeledTensorLike, selection=tc.Mapping(str, tc.Union(int, slice)), name=_OptionalName)
def slice_function(labeled_tensor, selection, name=None):
  """Positional indexing by axis name (`lt.slice`): an int drops its axis, a slice keeps it (with its labels).

  Args:
    labeled_tensor: the input.
    selection: axis name -> int or slice of positions; axes not named are kept whole (names the tensor does
      not have are ignored, as in TF 1.15).
    name: the op name.

  Returns:
    The selected LabeledTensor.
  """
  with labeled_scope(name, "lt_slice", labeled_tensor) as (scope, lt):
    index = tuple(selection.get(axis_name, slice(None)) for axis_name in lt.axes)
    kept = [_sliced_axis(axis, part) for axis, part in zip(lt.axes.values(), index) if isinstance(part, slice)]
    return LabeledTensor(tf.identity(lt.tensor[index], name=scope), kept)


@tc.accepts(labeled_tensor=LabeledTensorLike, axis_order=tc.Optional(tc.Collection(str)), name=_OptionalName)
def transpose(labeled_tensor, axis_order=None, name=None):
  """tf.transpose by axis names.

  Args:
    labeled_tensor: the input.
    axis_order: the axis names in their new order (default: reversed).
    name: the op name.

  Returns:
    The transposed LabeledTensor.

  Raises:
    ValueError: `axis_order` is not an order of exactly the tensor's axes.
  """
  with labeled_scope(name, "lt_transpose", labeled_tensor) as (scope, lt):
    names = list(lt.axes)
    order = names[::-1] if axis_order is None else list(axis_order)
    if sorted(order) != sorted(names):
      raise ValueError("The new axis order must have the same names as the original axes, but the new order is "
                       "%r while the original order is %r" % (order, names))
    permuted = tf.transpose(lt.tensor, [names.index(n) for n in order], name=scope)
    return LabeledTensor(permuted, [lt.axes[n] for n in order])


def _reshape_size(axis):
  return -1 if axis.size is None else axis.size


@tc.accepts(labeled_tensor=LabeledTensorLike,
            axes=tc.Collection(tc.Union(str, tc.Tuple(str, collections.abc.Hashable))), name=_OptionalName)
def expand_dims(labeled_tensor, axes, name=None):
  """Inserts size-1 axes: `axes` lists every axis of the result, the existing ones in their present order.

  Args:
    labeled_tensor: the input.
    axes: the result's axes: an existing axis's name, a new axis's name, or a (name, label) pair for a new axis
      with one tick label.
    name: the op name.

  Returns:
    The reshaped LabeledTensor.

  Raises:
    AxisOrderError: the existing axes are missing from `axes` or listed in another order.
  """
  with labeled_scope(name, "lt_expand_dims", labeled_tensor) as (scope, lt):
    check_axis_order(lt, [a if isinstance(a, str) else a[0] for a in axes])

    def result_axis(spec):
      if not isinstance(spec, str):
        return Axis(spec[0], [spec[1]])
      return lt.axes[spec] if spec in lt.axes else Axis(spec, 1)

    new_axes = [result_axis(spec) for spec in axes]
    reshaped = tf.reshape(lt.tensor, [_reshape_size(a) for a in new_axes], name=scope)
    return LabeledTensor(reshaped, new_axes)


# The innermost axis_order_scope's order lives in this graph collection (a graph is what TF1 code shares between
# threads, so the scope is per graph, as in TF 1.15).
_AXIS_ORDER_KEY = ("__axis_order",)


class AxisOrderError(ValueError):
  """No axis order makes the operation possible (or none was given where one is needed)."""


def get_axis_order():
  """The axis order of the innermost `axis_order_scope` (a list of names), or None outside any."""
  stored = tf.compat.v1.get_collection(_AXIS_ORDER_KEY)
  return stored[0] if stored else None


def _set_axis_order(axis_order):
  tf.compat.v1.get_collection_ref(_AXIS_ORDER_KEY)[:] = [axis_order]


@contextlib.contextmanager
@tc.accepts(axis_order=tc.Optional(tc.List(str)))
def axis_order_scope(axis_order=None):
  """Within the block, broadcasting ops order their result's axes by `axis_order` (None: no order).

  Scopes nest; the innermost one applies. Yields `axis_order`.
  """
  outer = get_axis_order()
  _set_axis_order(axis_order)
  try:
    yield axis_order
  finally:
    _set_axis_order(outer)


def _required_axis_order():
  order = get_axis_order()
  if order is None:
    raise AxisOrderError("an explicit axis order must be provided with the axis_order argument or by using an "
                         "axis_order_scope")
  return order


@tc.accepts(labeled_tensor=LabeledTensorLike, axis_order=tc.Optional(tc.Collection(str)))
def check_axis_order(labeled_tensor, axis_order=None):
  """Raises AxisOrderError unless every axis of the tensor is in `axis_order` (default: the scope's), in order."""
  lt = convert_to_labeled_tensor(labeled_tensor)
  order = _required_axis_order() if axis_order is None else axis_order
  if any(a not in order for a in lt.axes):
    raise AxisOrderError("not all axis names appear in the required axis order %r: %r" % (order, lt))
  if [a for a in order if a in lt.axes] != list(lt.axes):
    raise AxisOrderError("axes on a labeled tensor do not appear in the same order as the required axis order "
                         "%r: %r" % (order, lt))


@tc.accepts(labeled_tensor=LabeledTensorLike, axis_order=tc.Optional(tc.Collection(str)), name=_OptionalName)
def impose_axis_order(labeled_tensor, axis_order=None, name=None):
  """Transposes the tensor into `axis_order` (default: the scope's), whose names it does not have are skipped.

  Raises:
    AxisOrderError: no order given and no axis_order_scope set.
  """
  with labeled_scope(name, "lt_impose_axis_order", labeled_tensor) as (scope, lt):
    order = _required_axis_order() if axis_order is None else axis_order
    return transpose(lt, [a for a in order if a in lt.axes], name=scope)


def _merged_order(first, second):
  """The left-most merge of two orders that keeps each one's order, or None when they contradict.

  Names only one list has are taken as soon as they come, the first list's before the second's; a shared name
  is taken when it heads both lists. ['x', 'z'] and ['y', 'z'] merge to ['x', 'y', 'z'].
  """
  shared = set(first) & set(second)
  left, right = collections.deque(first), collections.deque(second)
  merged = []
  while left and right:
    if left[0] not in shared:
      merged.append(left.popleft())
    elif right[0] not in shared:
      merged.append(right.popleft())
    elif left[0] == right[0]:
      merged.append(left.popleft())
      right.popleft()
    else:
      return None
  return merged + list(left) + list(right)


@tc.accepts(labeled_tensor_0=LabeledTensorLike, labeled_tensor_1=LabeledTensorLike, name=_OptionalName)
def align(labeled_tensor_0, labeled_tensor_1, name=None):
  """Gives two tensors the same axes, in one order, by inserting size-1 axes (never by transposing).

  The order is the innermost axis_order_scope's, else the left-most order consistent with both inputs
  (`_merged_order`).

  Args:
    labeled_tensor_0: a LabeledTensor (or scalar).
    labeled_tensor_1: another.
    name: the op name.

  Returns:
    (the first aligned, the second aligned, the Axes of their broadcast).

  Raises:
    ValueError: an axis name both have stands for different axes.
    AxisOrderError: the inputs' orders contradict each other (or the scope's).
  """
  with labeled_scope(name, "lt_align", labeled_tensor_0, labeled_tensor_1) as (scope, first, second):
    for axis_name in first.axes:
      if axis_name in second.axes and first.axes[axis_name] != second.axes[axis_name]:
        raise ValueError("Mismatched %r axis on input tensors: %r and %r" %
                         (axis_name, first.axes[axis_name], second.axes[axis_name]))
    scope_order = get_axis_order()
    if scope_order is None:
      names = _merged_order(list(first.axes), list(second.axes))
      if names is None:
        raise AxisOrderError(
            "No consistent axis order allows for aligning tensors with axis orders %r and %r without copying "
            "data. Use transpose or impose_axis_order to reorder axes on one of more of the inputs." %
            (first.axes.keys(), second.axes.keys()))
    else:
      names = [a for a in scope_order if a in first.axes or a in second.axes]
      check_axis_order(first, scope_order)
      check_axis_order(second, scope_order)
    broadcast = Axes([first.axes[n] if n in first.axes else second.axes[n] for n in names])
    return (expand_dims(first, names, name=scope + "0"), expand_dims(second, names, name=scope + "1"),
            broadcast)


def _named_op(function, op_name, how):
  function.__name__ = op_name
  function.__doc__ = "`tf.%s` on LabeledTensors, %s; its name scope is `lt_%s`." % (op_name, how, op_name)
  return function


@tc.accepts(op_name=str, elementwise_function=collections.abc.Callable)
def define_unary_op(op_name, elementwise_function):
  """The labeled version of `elementwise_function(tensor, name=...)`: `op(labeled_tensor, name=None)`.

  The result has the input's axes; its name scope is `lt_<op_name>`.
  """

  @tc.accepts(labeled_tensor=LabeledTensorLike, name=_OptionalName)
  def op(labeled_tensor, name=None):
    with labeled_scope(name, "lt_" + op_name, labeled_tensor) as (scope, lt):
      return LabeledTensor(elementwise_function(lt.tensor, name=scope), lt.axes)

  return _named_op(op, op_name, "elementwise, the axes kept")


@tc.accepts(op_name=str, elementwise_function=collections.abc.Callable)
def define_binary_op(op_name, elementwise_function):
  """The labeled version of `elementwise_function(x, y, name=...)`: `op(labeled_tensor_0, labeled_tensor_1,
  name=None)`, its inputs broadcast by `align`; its name scope is `lt_<op_name>`."""

  @tc.accepts(labeled_tensor_0=LabeledTensorLike, labeled_tensor_1=LabeledTensorLike, name=_OptionalName)
  def op(labeled_tensor_0, labeled_tensor_1, name=None):
    with tf.compat.v1.name_scope(name, "lt_" + op_name, [labeled_tensor_0, labeled_tensor_1]) as scope:
      first, second, broadcast = align(labeled_tensor_0, labeled_tensor_1)
      return LabeledTensor(elementwise_function(first.tensor, second.tensor, name=scope), broadcast)

  return _named_op(op, op_name, "elementwise after `align` of the inputs")


# The elementwise ops (TF 1.15's names; `abs`, `round` and `pow` get a suffix here so as not to hide Python's).
abs_function = define_unary_op("abs", tf.math.abs)
neg = define_unary_op("neg", tf.math.negative)
sign = define_unary_op("sign", tf.math.sign)
reciprocal = define_unary_op("reciprocal", tf.math.reciprocal)
square = define_unary_op("square", tf.math.square)
round_function = define_unary_op("round", tf.math.round)
sqrt = define_unary_op("sqrt", tf.math.sqrt)
rsqrt = define_unary_op("rsqrt", tf.math.rsqrt)
exp = define_unary_op("exp", tf.math.exp)
log = define_unary_op("log", tf.math.log)
ceil = define_unary_op("ceil", tf.math.ceil)
floor = define_unary_op("floor", tf.math.floor)
cos = define_unary_op("cos", tf.math.cos)
sin = define_unary_op("sin", tf.math.sin)
tan = define_unary_op("tan", tf.math.tan)
acos = define_unary_op("acos", tf.math.acos)
asin = define_unary_op("asin", tf.math.asin)
atan = define_unary_op("atan", tf.math.atan)
lgamma = define_unary_op("lgamma", tf.math.lgamma)
digamma = define_unary_op("digamma", tf.math.digamma)
erf = define_unary_op("erf", tf.math.erf)
erfc = define_unary_op("erfc", tf.math.erfc)
logical_not = define_unary_op("logical_not", tf.math.logical_not)
tanh = define_unary_op("tanh", tf.math.tanh)
sigmoid = define_unary_op("sigmoid", tf.math.sigmoid)

add = define_binary_op("add", tf.math.add)
sub = define_binary_op("sub", tf.math.subtract)
mul = define_binary_op("mul", tf.math.multiply)
div = define_binary_op("div", tf.compat.v1.div)
mod = define_binary_op("mod", tf.math.mod)
pow_function = define_binary_op("pow", tf.math.pow)
equal = define_binary_op("equal", tf.math.equal)
greater = define_binary_op("greater", tf.math.greater)
greater_equal = define_binary_op("greater_equal", tf.math.greater_equal)
not_equal = define_binary_op("not_equal", tf.math.not_equal)
less = define_binary_op("less", tf.math.less)
less_equal = define_binary_op("less_equal", tf.math.less_equal)
logical_and = define_binary_op("logical_and", tf.math.logical_and)
logical_or = define_binary_op("logical_or", tf.math.logical_or)
logical_xor = define_binary_op("logical_xor", tf.math.logical_xor)
maximum = define_binary_op("maximum", tf.math.maximum)
minimum = define_binary_op("minimum", tf.math.minimum)
squared_difference = define_binary_op("squared_difference", tf.math.squared_difference)
igamma = define_binary_op("igamma", tf.math.igamma)
igammac = define_binary_op("igammac", tf.math.igammac)
zeta = define_binary_op("zeta", tf.math.zeta)
polygamma = define_binary_op("polygamma", tf.math.polygamma)


def _install_operators():
  """LabeledTensor's Python operators: each is the labeled op of its meaning (`x + y` is `add(x, y)`, `2 - x` is
  `sub(2, x)`, `~x` is `logical_not(x)`); `&`, `|`, `^` and the comparisons have no reflected forms, as in TF
  1.15."""
  def forward(op):
    return lambda self, other: op(self, other)

  def reflected(op):
    return lambda self, other: op(other, self)

  for method, op in (("add", add), ("sub", sub), ("mul", mul), ("truediv", div), ("mod", mod),
                     ("pow", pow_function)):
    setattr(LabeledTensor, "__%s__" % method, forward(op))
    setattr(LabeledTensor, "__r%s__" % method, reflected(op))
  for method, op in (("and", logical_and), ("or", logical_or), ("xor", logical_xor), ("lt", less),
                     ("le", less_equal), ("gt", greater), ("ge", greater_equal)):
    setattr(LabeledTensor, "__%s__" % method, forward(op))
  for method, op in (("abs", abs_function), ("neg", neg), ("invert", logical_not)):
    setattr(LabeledTensor, "__%s__" % method, op)


_install_operators()
