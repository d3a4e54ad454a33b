"""`tf.contrib.learn.utils.input_fn_utils`: InputFnOps and TF 1.15's two serving input_fn builders.

Place in the data flow (DESIGN.md): tf.compat.v1 placeholders and parse_example <- **contrib.learn.utils.
input_fn_utils** <- contrib.learn.utils.saved_model_export_utils <- compat <- cli.

`InputFnOps` is contrib.learn.estimator's (the one its export_savedmodel reads). `build_parsing_serving_input_fn`
feeds serialized tf.Examples into a string placeholder "input_example_tensor" of shape [default_batch_size] and
parses them with the feature spec; `build_default_serving_input_fn` makes one placeholder per feature (named as
the feature's op, batch dimension default_batch_size). Both return InputFnOps(features, None, inputs).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.estimator import InputFnOps

V1 = tf.compat.v1


def build_parsing_serving_input_fn(feature_spec, default_batch_size=None):
  """An input_fn that parses fed serialized tf.Examples with `feature_spec` (TF 1.15's)."""
  def input_fn():
    serialized_tf_example = V1.placeholder(dtype=tf.string, shape=[default_batch_size],
                                           name="input_example_tensor")
    inputs = {"examples": serialized_tf_example}
    features = V1.parse_example(serialized_tf_example, feature_spec)
    return InputFnOps(features, None, inputs)
  return input_fn


def build_default_serving_input_fn(features, default_batch_size=None):
  """An input_fn with one placeholder per feature of `features` (a dict of Tensors), as TF 1.15's."""
  def input_fn():
    features_placeholders = {}
    for name, t in features.items():
      shape_list = t.get_shape().as_list()
      shape_list[0] = default_batch_size
      features_placeholders[name] = V1.placeholder(dtype=t.dtype, shape=tf.TensorShape(shape_list),
                                                   name=t.op.name)
    return InputFnOps(features_placeholders, None, features_placeholders)
  return input_fn


__getattr__ = _catalog.module_getattr(__name__)
