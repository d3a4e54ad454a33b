"""`tf.contrib.estimator`'s DNN estimators with layer annotations (for Integrated Gradients): TF 1.15's, ported.

`DNNClassifierWithLayerAnnotations(...)` / `DNNRegressorWithLayerAnnotations(...)` return a
`tf.estimator.Estimator` whose model_fn is the v1 canned DNN's (same variables, losses, metrics and checkpoints)
run while the v1 feature-column input layer also records, in graph collections, the raw features the columns
read (`layer_annotations/unprocessed_features/{keys,values}`), the pickled feature columns
(`layer_annotations/feature_columns`) and each column's input-layer output (`layer_annotatons/processed_features/
{keys,values}`, TF 1.15's spelling), the tensors as `TensorInfo` protos packed in `Any`. As in TF 1.15 only
columns built on the old input layer are annotated (v1-only columns such as
`tf.feature_column.shared_embedding_columns`); when every column is also a v2 column the canned DNN uses
`DenseFeatures` and nothing is recorded.
"""

import contextlib
import pickle

import tensorflow as tf
from google.protobuf import any_pb2
# the v1 input layer the canned DNN builds reads this module's `_internal_input_layer` (no public hook)
from tensorflow.python.feature_column import feature_column as feature_column_lib


# pylint: disable=g-import-not-at-top,wrong-import-position,protected-access
from tensorflow_estimator.python.estimator import estimator
from tensorflow_estimator.python.estimator.canned import dnn

V1 = tf.compat.v1


class LayerAnnotationsCollectionNames(object):
  """Names for the collections containing the annotations."""

  UNPROCESSED_FEATURES = "layer_annotations/unprocessed_features"
  PROCESSED_FEATURES = "layer_annotatons/processed_features"  # sic: TF 1.15's name
  FEATURE_COLUMNS = "layer_annotations/feature_columns"

  @classmethod
  def keys(cls, collection_name):
    return "%s/keys" % collection_name

  @classmethod
  def values(cls, collection_name):
    return "%s/values" % collection_name


def serialize_feature_column(feature_column):
  """The pickled column (an embedding column's `layer_creator`, a closure, dropped)."""
  if isinstance(feature_column, feature_column_lib._EmbeddingColumn):
    args = feature_column._asdict()
    args["layer_creator"] = None
    return pickle.dumps(type(feature_column)(**args))
  return pickle.dumps(feature_column)


def _to_any_wrapped_tensor_info(tensor):
  """Converts a `Tensor` to a `TensorInfo` wrapped in a proto `Any`."""
  any_buf = any_pb2.Any()
  any_buf.Pack(V1.saved_model.utils.build_tensor_info(tensor))
  return any_buf


def make_input_layer_with_layer_annotations(original_input_layer):
  """An input_layer replacement (same arguments) that adds the layer annotations to the graph."""

  def input_layer_with_layer_annotations(features, feature_columns, weight_collections=None, trainable=True,
                                         cols_to_vars=None, scope=None, cols_to_output_tensors=None,
                                         from_template=False):
    """`tf.feature_column.input_layer` that also records the annotations (see the module docstring)."""
    local_cols_to_output_tensors = {}
    input_layer = original_input_layer(
        features=features, feature_columns=feature_columns, weight_collections=weight_collections,
        trainable=trainable, cols_to_vars=cols_to_vars, scope=scope,
        cols_to_output_tensors=local_cols_to_output_tensors, from_template=from_template)
    # TF 1.15 rebinds the argument here, so a caller's cols_to_output_tensors dict stays empty (kept)
    del cols_to_output_tensors

    # the parsed tensors (before embedding) of the features the columns read
    spec = V1.feature_column.make_parse_example_spec(feature_columns)
    for key in spec.keys():
      tensor = V1.convert_to_tensor_or_indexed_slices(features[key])
      V1.add_to_collection(
          LayerAnnotationsCollectionNames.keys(LayerAnnotationsCollectionNames.UNPROCESSED_FEATURES), key)
      V1.add_to_collection(
          LayerAnnotationsCollectionNames.values(LayerAnnotationsCollectionNames.UNPROCESSED_FEATURES),
          _to_any_wrapped_tensor_info(tensor))

    for column in feature_columns:
      V1.add_to_collection(LayerAnnotationsCollectionNames.FEATURE_COLUMNS, serialize_feature_column(column))

    for column, tensor in local_cols_to_output_tensors.items():
      V1.add_to_collection(
          LayerAnnotationsCollectionNames.keys(LayerAnnotationsCollectionNames.PROCESSED_FEATURES), column.name)
      V1.add_to_collection(
          LayerAnnotationsCollectionNames.values(LayerAnnotationsCollectionNames.PROCESSED_FEATURES),
          _to_any_wrapped_tensor_info(tensor))
    return input_layer

  return input_layer_with_layer_annotations


@contextlib.contextmanager
def _monkey_patch(module, function, replacement):
  old_function = getattr(module, function)
  setattr(module, function, replacement)
  try:
    yield
  finally:
    setattr(module, function, old_function)


def _annotated(original, model_dir, config, warm_start_from):
  """An Estimator running `original`'s model_fn with the annotating input layer."""

  def _model_fn(features, labels, mode, config):
    with _monkey_patch(feature_column_lib, "_internal_input_layer",
                       make_input_layer_with_layer_annotations(feature_column_lib._internal_input_layer)):
      return original.model_fn(features, labels, mode, config)

  return estimator.Estimator(model_fn=_model_fn, model_dir=model_dir, config=config,
                             warm_start_from=warm_start_from)


def DNNClassifierWithLayerAnnotations(  # pylint: disable=invalid-name
    hidden_units, feature_columns, model_dir=None, n_classes=2, weight_column=None, label_vocabulary=None,
    optimizer="Adagrad", activation_fn=tf.nn.relu, dropout=None, input_layer_partitioner=None, config=None,
    warm_start_from=None, loss_reduction=V1.losses.Reduction.SUM):
  """`tf.estimator.DNNClassifier` (v1; its arguments, but loss_reduction SUM) that records layer annotations.

  Checkpoint-compatible with a DNNClassifier of the same configuration.

  Returns:
    A `tf.estimator.Estimator`.
  """
  original = dnn.DNNClassifier(
      hidden_units=hidden_units, feature_columns=feature_columns, model_dir=model_dir, n_classes=n_classes,
      weight_column=weight_column, label_vocabulary=label_vocabulary, optimizer=optimizer,
      activation_fn=activation_fn, dropout=dropout, input_layer_partitioner=input_layer_partitioner,
      config=config, warm_start_from=warm_start_from, loss_reduction=loss_reduction)
  return _annotated(original, model_dir, config, warm_start_from)


def DNNRegressorWithLayerAnnotations(  # pylint: disable=invalid-name
    hidden_units, feature_columns, model_dir=None, label_dimension=1, weight_column=None, optimizer="Adagrad",
    activation_fn=tf.nn.relu, dropout=None, input_layer_partitioner=None, config=None, warm_start_from=None,
    loss_reduction=V1.losses.Reduction.SUM):
  """`tf.estimator.DNNRegressor` (v1; its arguments, but loss_reduction SUM) that records layer annotations.

  Checkpoint-compatible with a DNNRegressor of the same configuration.

  Returns:
    A `tf.estimator.Estimator`.
  """
  original = dnn.DNNRegressor(
      hidden_units=hidden_units, feature_columns=feature_columns, model_dir=model_dir,
      label_dimension=label_dimension, weight_column=weight_column, optimizer=optimizer,
      activation_fn=activation_fn, dropout=dropout, input_layer_partitioner=input_layer_partitioner,
      config=config, warm_start_from=warm_start_from, loss_reduction=loss_reduction)
  return _annotated(original, model_dir, config, warm_start_from)
