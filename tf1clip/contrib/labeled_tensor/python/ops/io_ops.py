"""LabeledTensor input: `FixedLenFeature`, `parse_example` / `parse_single_example` and `placeholder`.

TF 1.15's `tensorflow/contrib/labeled_tensor/python/ops/io_ops.py`, written by tf1clip on tf.compat.v1.io's parsing
and tf.compat.v1.placeholder. A parsed feature comes back labeled with its feature's axes (after the batch's axis,
for `parse_example`). TensorFlow 2.21 parses with its ParseExampleV2 op (TF 1.15: ParseExample /
ParseSingleExample), so the parsed tensors' op names differ; their values do not.
"""

import tensorflow as tf

from tf1clip.contrib.labeled_tensor.python.ops import _typecheck as tc
from tf1clip.contrib.labeled_tensor.python.ops import core


class FixedLenFeature(object):
  """A fixed-size feature to parse, described by its axes.

  Attributes:
    axes: the feature's Axis objects (given as Axis objects or (name, value) pairs; every size must be known to
      parse it).
    dtype: its dtype.
    default_value: the value of an example that lacks the feature (None: the feature is required).
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


_Features = tc.Mapping(str, FixedLenFeature)


def _tensorflow_features(features):
  """The tf.io.FixedLenFeature of each labeled feature (its shape the axes' sizes)."""
  converted = {}
  for key, feature in features.items():
    shape = [axis.size for axis in feature.axes]
    if None in shape:
      # TF 1.15 checked this itself: TensorFlow then took an unknown size without an error
      raise ValueError("axes with unknown size are not supported")
    converted[key] = tf.io.FixedLenFeature(shape, feature.dtype, feature.default_value)
  return converted


def _labeled_features(parsed, features, leading_axes):
  return {key: core.LabeledTensor(tensor, leading_axes + features[key].axes) for key, tensor in parsed.items()}


@tc.accepts(serialized=core.LabeledTensorLike, features=_Features, name=tc.Optional(str))
def parse_example(serialized, features, name=None, example_names=None):
  """tf.compat.v1.io.parse_example of a batch of serialized Examples into LabeledTensors.

  Args:
    serialized: a 1-D LabeledTensor of serialized `tf.train.Example` protos.
    features: feature key -> `FixedLenFeature`.
    name: the op name.
    example_names: the protos' names (optional).

  Returns:
    Feature key -> LabeledTensor, with `serialized`'s axis first, then the feature's axes.

  Raises:
    ValueError: a feature has an axis of unknown size.
  """
  serialized = core.convert_to_labeled_tensor(serialized)
  parsed = tf.compat.v1.io.parse_example(serialized.tensor, _tensorflow_features(features), name, example_names)
  return _labeled_features(parsed, features, list(serialized.axes.values()))


@tc.accepts(serialized=core.LabeledTensorLike, features=_Features, name=tc.Optional(str))
def parse_single_example(serialized, features, name=None, example_names=None):
  """tf.compat.v1.io.parse_single_example of one serialized Example (a scalar) into LabeledTensors.

  Returns:
    Feature key -> LabeledTensor with the feature's axes.

  Raises:
    ValueError: a feature has an axis of unknown size.
  """
  serialized = core.convert_to_labeled_tensor(serialized)
  parsed = tf.compat.v1.io.parse_single_example(serialized.tensor, _tensorflow_features(features), name,
                                                example_names)
  return _labeled_features(parsed, features, [])


@tc.accepts(dtype=tf.DType, axes=tc.Collection(tc.Union(str, core.AxisLike)), name=tc.Optional(str))
def placeholder(dtype, axes, name=None):
  """A tf.compat.v1.placeholder labeled with `axes`, e.g. `placeholder(tf.float32, ['batch', ('rgb', 'rgb')])`;
  an axis given by name alone has an unknown size."""
  with tf.compat.v1.name_scope(name, "lt_placeholder", []) as scope:
    labeled_axes = core.Axes([(a, None) if isinstance(a, str) else a for a in axes])
    shape = [axis.size for axis in labeled_axes.values()]
    return core.LabeledTensor(tf.compat.v1.placeholder(dtype, shape, name=scope), labeled_axes)
