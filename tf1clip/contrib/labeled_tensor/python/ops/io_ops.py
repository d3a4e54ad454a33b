"""`tf.contrib.labeled_tensor`'s input ops: `FixedLenFeature`, `parse_example`, `parse_single_example`, `placeholder`.

Place in the data flow (DESIGN.md): tf.io <- **contrib.labeled_tensor** (`io_ops`) <- compat <- cli.

TF 1.15's contrib/labeled_tensor/python/ops/io_ops.py on tf.compat.v1.io.parse_example / parse_single_example and
tf.compat.v1.placeholder: parsed features come back as LabeledTensors with the feature's axes (after the batch's
axis for `parse_example`); a feature axis of unknown size is a ValueError, as in TF 1.15.
"""

import tensorflow as tf

import tf1clip.contrib.labeled_tensor.python.ops._typecheck as tc
import tf1clip.contrib.labeled_tensor.python.ops.core as core


class FixedLenFeature(object):
  """Configuration for parsing a fixed-length input feature.

  Fields:
    axes: A list of Axis objects or tuples (axis_name, axis_value),
      where `axis_name` is a string and `axis_value` is None (unknown size), an
      integer or a list of tick labels.
    dtype: Data type of input.
    default_value: Value to be used if an example is missing this feature. It
        must be compatible with `dtype`.
  """

  def __init__(self, axes, dtype, default_value=None):
    self._axes = [core.as_axis(a) for a in axes]
    self._dtype = dtype
    self._default_value = default_value

  @property
  def axes(self):
    return self._axes

  @property
  def dtype(self):
    return self._dtype

  @property
  def default_value(self):
    return self._default_value


@tc.returns(tc.Dict(str, tf.io.FixedLenFeature))
@tc.accepts(tc.Mapping(str, FixedLenFeature))
def _labeled_to_unlabeled_features(features):
  """Convert a dict of lt.FixedLenFeature into a dict of tf.FixedLenFeature."""
  unlabeled_features = {}
  for name, labeled_feature in features.items():
    shape = [ax.size for ax in labeled_feature.axes]
    if any(size is None for size in shape):
      # This should be caught on the TensorFlow side, but it isn't yet:
      # https://github.com/tensorflow/tensorflow/issues/2874
      raise ValueError('axes with unknown size are not supported')
    dtype = labeled_feature.dtype
    default_value = labeled_feature.default_value
    unlabeled_features[name] = tf.io.FixedLenFeature(
        shape, dtype, default_value)
  return unlabeled_features


@tc.returns(tc.Dict(str, core.LabeledTensor))
@tc.accepts(core.LabeledTensorLike, tc.Mapping(str, FixedLenFeature),
            tc.Optional(str), object)
def parse_example(serialized, features, name=None, example_names=None):
  """Parse `Example` protos into a `dict` of labeled tensors.

  See tf.parse_example.

  Args:
    serialized: A 1-D LabeledTensor of strings, a batch of binary serialized
      `Example` protos.
    features: A `dict` mapping feature keys to `labeled_tensor.FixedLenFeature`
      values.
    name: A name for this operation (optional).
    example_names: A vector (1-D Tensor) of strings (optional), the names of
      the serialized protos in the batch.

  Returns:
    A `dict` mapping feature keys to `LabeledTensor` values. The single axis
    from `serialized` will be prepended to the axes provided by each feature.

  Raises:
    ValueError: if any feature is invalid.
  """
  serialized = core.convert_to_labeled_tensor(serialized)
  unlabeled_features = _labeled_to_unlabeled_features(features)

  unlabeled_parsed = tf.compat.v1.io.parse_example(
      serialized.tensor, unlabeled_features, name, example_names)

  parsed = {}
  for name, parsed_feature in unlabeled_parsed.items():
    axes = list(serialized.axes.values()) + features[name].axes
    parsed[name] = core.LabeledTensor(parsed_feature, axes)

  return parsed


@tc.returns(tc.Dict(str, core.LabeledTensor))
@tc.accepts(core.LabeledTensorLike, tc.Mapping(str, FixedLenFeature),
            tc.Optional(str), object)
def parse_single_example(serialized, features, name=None, example_names=None):
  """Parses a single `Example` proto.

  See tf.parse_single_example.

  Args:
    serialized: A scalar string Tensor or LabeledTensor, a single serialized
      Example.
    features: A `dict` mapping feature keys to `labeled_tensor.FixedLenFeature`
      values.
    name: A name for this operation (optional).
    example_names: (Optional) A scalar string Tensor, the associated name.

  Returns:
    A `dict` mapping feature keys to `LabeledTensor` values.

  Raises:
    ValueError: if any feature is invalid.
  """
  serialized = core.convert_to_labeled_tensor(serialized)
  unlabeled_features = _labeled_to_unlabeled_features(features)

  unlabeled_parsed = tf.compat.v1.io.parse_single_example(
      serialized.tensor, unlabeled_features, name, example_names)

  parsed = {}
  for name, parsed_feature in unlabeled_parsed.items():
    parsed[name] = core.LabeledTensor(parsed_feature, features[name].axes)

  return parsed


@tc.returns(core.LabeledTensor)
@tc.accepts(tf.DType, tc.Collection(tc.Union(str, core.AxisLike)),
            tc.Optional(str))
def placeholder(dtype, axes, name=None):
  """Create a placeholder for a labeled tensor.

  For example:

    lt.placeholder(tf.float32, ['batch', ('channel', ['r', 'g', 'b'])])

  See tf.compat.v1.placeholder for more details.

  Args:
    dtype: The type of elements in the tensor to be fed.
    axes: sequence of strings (denoting axes of unknown size) and/or objects
      convertable to lt.Axis to label the result.
    name: Optional op name.

  Returns:
    Placeholder labeled tensor.
  """
  with tf.compat.v1.name_scope(name, 'lt_placeholder', []) as scope:
    axes = core.Axes([(axis, None) if isinstance(axis, str) else axis
                      for axis in axes])
    shape = [axis.size for axis in axes.values()]
    tensor = tf.compat.v1.placeholder(dtype, shape, name=scope)
    return core.LabeledTensor(tensor, axes)
