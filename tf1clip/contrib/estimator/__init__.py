"""`tf.contrib.estimator`: clip_gradients_by_norm (TF 1.15's numbers), the rest from tensorflow-estimator 2.15.

Place in the data flow (DESIGN.md): optimizer <- **contrib.estimator** <- compat <- cli, and
tensorflow_estimator (through shims.tensorflow_estimator) <- **contrib.estimator**.

TF 1.15's `tf.contrib.estimator` was the incubator of `tf.estimator`; by tensorflow-estimator 2.15
most of it had moved into the library, where these names come from (the same objects):
`add_metrics` (`tf.estimator.add_metrics`), the early-stopping hooks (`make_early_stopping_hook`,
`stop_if_{higher,lower,no_increase,no_decrease}_hook`, `read_eval_metrics`), `InMemoryEvaluatorHook`,
`make_stop_at_checkpoint_step_hook`, `build_raw_supervised_input_receiver_fn`,
`build_supervised_input_receiver_fn_from_input_fn`, `call_logit_fn`, `dnn_logit_fn_builder`,
`linear_logit_fn_builder`, `SavedModelEstimator`. `clip_gradients_by_norm` is TF 1.15's, with TF 1.15's numbers
on repeated sparse rows (contrib.estimator.python.estimator.extenders, around tf1clip.optimizer's), and
`forward_features`, `export_saved_model_for_mode` and `export_all_saved_models` are written here: the library
dropped them. The heads are in contrib.estimator.python.estimator.head; RNNClassifier / RNNEstimator,
replicate_model_fn / TowerOptimizer and the DNN estimators with layer annotations are TF 1.15's code in
contrib.estimator.python.estimator.rnn, estimator_replicate_model_fn and estimator_dnn_with_layer_annotations. The
two boosted-trees in-memory trainers raise ContribNotProvidedError naming what to use instead.
"""

from tf1clip.contrib import catalog as _catalog

_LIBRARY = "tensorflow_estimator.python.estimator."


def forward_features(estimator, keys=None, sparse_default_values=None):
  """An Estimator that also returns some of its input features among its predictions (TF 1.15's).

  Useful to carry an example id through `predict` and the exported SavedModel's "predict" /
  "serving_default" signature.

  Args:
    estimator: a `tf.estimator.Estimator` whose model_fn returns a dict of predictions.
    keys: a feature name or a list of them; None forwards every feature.
    sparse_default_values: {feature name: default value} of SparseTensor features to forward as dense
      Tensors (`tf.sparse.to_dense` with that default), as TF 1.15's; other sparse features are refused.

  Returns:
    A new `tf.estimator.Estimator` with the same model_dir and config.

  Raises:
    TypeError: `keys` is not a string or a list of strings (at call time).
    ValueError: at graph-building time, when a key is not a feature, is already a prediction, the
      predictions are not a dict, or the feature is not a dense Tensor.
  """
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  from tf1clip.shims import tensorflow_estimator as estimator_shim  # pylint: disable=import-outside-toplevel
  estimator_api = estimator_shim.v1_api()
  if isinstance(keys, str):
    keys = [keys]
  elif keys is not None and (not isinstance(keys, (list, tuple))
                             or not all(isinstance(k, str) for k in keys)):
    raise TypeError("forward_features: keys must be a string or a list of strings; got %r" % (keys,))

  def new_model_fn(features, labels, mode, config):
    spec = estimator.model_fn(features, labels, mode, config)
    predictions = spec.predictions
    if predictions is None:
      return spec
    if not isinstance(predictions, dict):
      raise ValueError("forward_features: the model_fn's predictions must be a dict to add "
                       "features to; got %r" % (predictions,))
    if not isinstance(features, dict):
      raise ValueError("forward_features: features must be a dict; got %r" % (features,))
    predictions = dict(predictions)
    for key in (keys if keys is not None else list(features)):
      if key not in features:
        raise ValueError("forward_features: key %r is not a feature (features: %s)"
                         % (key, sorted(features)))
      if key in spec.predictions:
        raise ValueError("forward_features: key %r is already a prediction" % key)
      feature = tf.convert_to_tensor_or_sparse_tensor(features[key])
      if sparse_default_values and key in sparse_default_values:
        if not isinstance(feature, tf.SparseTensor):
          raise ValueError("forward_features: feature %r is expected to be a SparseTensor (it is in "
                           "sparse_default_values); got a %s" % (key, type(feature).__name__))
        feature = tf.sparse.to_dense(feature, default_value=sparse_default_values[key])
      if not isinstance(feature, tf.Tensor):
        raise ValueError("forward_features: feature %r is a %s, not a dense Tensor; leave it out "
                         "with `keys`, or give its default in `sparse_default_values`"
                         % (key, type(feature).__name__))
      predictions[key] = feature
    spec = spec._replace(predictions=predictions)
    if spec.export_outputs:
      for output_key in ("predict", "serving_default"):
        output = spec.export_outputs.get(output_key)
        if isinstance(output, estimator_api.export.PredictOutput):
          outputs = dict(output.outputs)
          outputs.update({k: predictions[k] for k in predictions if k not in spec.predictions})
          spec.export_outputs[output_key] = estimator_api.export.PredictOutput(outputs)
    return spec

  return estimator_api.Estimator(model_fn=new_model_fn, model_dir=estimator.model_dir,
                                 config=estimator.config)


def export_saved_model_for_mode(estimator, export_dir_base, input_receiver_fn, assets_extra=None, as_text=False,
                                checkpoint_path=None, mode="infer"):
  """TF 1.15's spelling of `estimator.export_saved_model(..., experimental_mode=mode)`; returns the export dir."""
  return estimator.export_saved_model(export_dir_base, input_receiver_fn, assets_extra=assets_extra,
                                      as_text=as_text, checkpoint_path=checkpoint_path, experimental_mode=mode)


def export_all_saved_models(estimator, export_dir_base, input_receiver_fn_map, assets_extra=None, as_text=False,
                            checkpoint_path=None):
  """TF 1.15's spelling of `estimator.experimental_export_all_saved_models` (one SavedModel, a graph per mode)."""
  return estimator.experimental_export_all_saved_models(export_dir_base, input_receiver_fn_map,
                                                        assets_extra=assets_extra, as_text=as_text,
                                                        checkpoint_path=checkpoint_path)


# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv); imported
# last, as the modules they come from import this package:
from tensorflow_estimator.python.estimator.canned.dnn import dnn_logit_fn_builder
from tensorflow_estimator.python.estimator.canned.linear import linear_logit_fn_builder
from tensorflow_estimator.python.estimator.canned.saved_model_estimator import SavedModelEstimator
from tensorflow_estimator.python.estimator.early_stopping import (
    make_early_stopping_hook, read_eval_metrics, stop_if_higher_hook, stop_if_lower_hook, stop_if_no_decrease_hook,
    stop_if_no_increase_hook)
from tensorflow_estimator.python.estimator.export.export import (
    build_raw_supervised_input_receiver_fn, build_supervised_input_receiver_fn_from_input_fn)
from tensorflow_estimator.python.estimator.extenders import add_metrics
from tensorflow_estimator.python.estimator.hooks.hooks import InMemoryEvaluatorHook, make_stop_at_checkpoint_step_hook
from tensorflow_estimator.python.estimator.model_fn import call_logit_fn
from tf1clip.contrib.estimator.python.estimator.extenders import clip_gradients_by_norm
from tf1clip.contrib.estimator.python.estimator.dnn_with_layer_annotations import (
    DNNClassifierWithLayerAnnotations, DNNRegressorWithLayerAnnotations)
from tf1clip.contrib.estimator.python.estimator.head import (
    binary_classification_head, logistic_regression_head, multi_class_head, multi_head, multi_label_head,
    poisson_regression_head, regression_head)
from tf1clip.contrib.estimator.python.estimator.replicate_model_fn import replicate_model_fn, TowerOptimizer
from tf1clip.contrib.estimator.python.estimator.rnn import RNNClassifier, RNNEstimator
from tf1clip.python.estimator.canned.boosted_trees import (
    boosted_trees_classifier_train_in_memory, boosted_trees_regressor_train_in_memory)

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tensorflow-estimator 2.15 (tf.estimator); it no longer has this name'

__getattr__ = _catalog.module_getattr(__name__)
