"""`tf.contrib.learn.utils.export`: TF 1.15's signature functions and `export_estimator`, writing SavedModels.

Place in the data flow (DESIGN.md): tf.compat.v1.saved_model, contrib.learn.estimator <- **contrib.learn.utils.
export** <- contrib.learn.monitors (ExportMonitor) <- compat <- cli.

TF 1.15 wrote these exports in the session_bundle format (contrib.session_bundle's Exporter and its
`tensorflow.serving.Signature` manifest protos), which TensorFlow no longer reads. Here the same functions build
SavedModel `SignatureDef`s instead, with the session_bundle's tensor keys: a signature function returns
`(default_signature, named_signatures)` where the classification signature has input "inputs" and outputs
"classes" and/or "scores" (method tensorflow/serving/classify), the regression one "inputs" / "outputs"
(tensorflow/serving/regress) and the generic one the given tensors ("inputs", "outputs" or the prediction keys;
tensorflow/serving/predict). `export_estimator` restores the latest checkpoint of a model_fn
`tf.contrib.learn.Estimator` into a new graph (global step, the input_fn's features, the model_fn's INFER
predictions) and writes a SavedModel (tag "serve", the default signature as "serving_default") to
`<export_dir>/<global step as %08d>`, as TF 1.15 named its export versions, keeping the newest `exports_to_keep`.
"""

import os
import re

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.learn.utils.gc as gc

V1 = tf.compat.v1
_CLASSIFY = "tensorflow/serving/classify"
_REGRESS = "tensorflow/serving/regress"
_PREDICT = "tensorflow/serving/predict"


def _signature(method_name, inputs, outputs):
  info = V1.saved_model.build_tensor_info
  return V1.saved_model.build_signature_def(
      inputs={k: info(v) for k, v in inputs.items()},
      outputs={k: info(v) for k, v in outputs.items() if v is not None}, method_name=method_name)


def _check_examples(examples):
  if examples is None:
    raise ValueError("examples cannot be None when using this signature fn.")


def generic_signature_fn(examples, unused_features, predictions):
  """A generic (predict) signature of {"inputs": examples} and the predictions ({"outputs": ...} or their keys)."""
  del unused_features
  _check_examples(examples)
  if not isinstance(predictions, dict):
    predictions = {"outputs": predictions}
  return _signature(_PREDICT, {"inputs": examples}, dict(predictions)), {}


def classification_signature_fn(examples, unused_features, predictions):
  """A classification signature of examples and the classes (predictions, or predictions["classes"])."""
  del unused_features
  _check_examples(examples)
  classes = predictions["classes"] if isinstance(predictions, dict) else predictions
  return _signature(_CLASSIFY, {"inputs": examples}, {"classes": classes}), {}


def classification_signature_fn_with_prob(examples, unused_features, predictions):
  """A classification signature of examples and the scores (predictions, or predictions["probabilities"])."""
  del unused_features
  _check_examples(examples)
  scores = predictions["probabilities"] if isinstance(predictions, dict) else predictions
  return _signature(_CLASSIFY, {"inputs": examples}, {"scores": scores}), {}


def regression_signature_fn(examples, unused_features, predictions):
  """A regression signature of examples ("inputs") and predictions ("outputs")."""
  del unused_features
  _check_examples(examples)
  return _signature(_REGRESS, {"inputs": examples}, {"outputs": predictions}), {}


def logistic_regression_signature_fn(examples, unused_features, predictions):
  """A regression signature of examples and P(Y=1|x), column 1 of [batch, 2] probabilities."""
  del unused_features
  _check_examples(examples)
  predictions_tensor = predictions["probabilities"] if isinstance(predictions, dict) else predictions
  predictions_shape = predictions_tensor.get_shape()
  if len(predictions_shape) != 2:
    V1.logging.fatal("Expected predictions to have rank 2, but received predictions with rank: {} and "
                     "shape: {}".format(len(predictions_shape), predictions_shape))
  if predictions_shape[1] != 2:
    V1.logging.fatal("Expected predictions to have 2nd dimension: 2, but received predictions with 2nd "
                     "dimension: {} and shape: {}. Did you mean to use regression_signature_fn or "
                     "classification_signature_fn_with_prob instead?".format(predictions_shape[1],
                                                                              predictions_shape))
  return _signature(_REGRESS, {"inputs": examples}, {"outputs": predictions_tensor[:, 1]}), {}


def _default_input_fn(estimator, examples):
  """The features parsed from `examples` by the estimator's feature signature (TF 1.15's default)."""
  if not hasattr(estimator, "_get_feature_ops_from_example"):
    raise ValueError("export_estimator: this estimator has no recorded feature signature to parse tf.Examples "
                     "with (tf1clip's estimators do not keep one); pass input_fn=lambda estimator, examples: "
                     "tf.parse_example(examples, feature_spec)")
  return estimator._get_feature_ops_from_example(examples)  # pylint: disable=protected-access


def export_estimator(estimator, export_dir, signature_fn=None, input_fn=_default_input_fn, default_batch_size=1,
                     exports_to_keep=None):
  """Exports the estimator's latest checkpoint (see the module docstring); returns None, as TF 1.15's."""
  _export_estimator(estimator=estimator, export_dir=export_dir, signature_fn=signature_fn, input_fn=input_fn,
                    default_batch_size=default_batch_size, exports_to_keep=exports_to_keep)


def _predict_ops(estimator, features):
  """The INFER ModelFnOps of a contrib.learn estimator (label placeholders from training, as TF 1.15's)."""
  from tf1clip.contrib.learn import estimator as estimator_lib  # pylint: disable=import-outside-toplevel
  own = getattr(type(estimator), "_get_predict_ops", None)
  if own is not None and own is not estimator_lib.BaseEstimator._get_predict_ops:  # pylint: disable=protected-access
    return estimator._get_predict_ops(features)  # pylint: disable=protected-access
  if not hasattr(estimator, "_call_model_fn"):
    raise ValueError("export_estimator / ExportMonitor: %r is not a model_fn tf.contrib.learn.Estimator; use "
                     "its export_savedmodel instead" % (estimator,))
  labels = estimator_lib._placeholders(getattr(estimator, "_labels_info", None))  # pylint: disable=protected-access
  return estimator._call_model_fn(features, labels, estimator_lib.ModeKeys.INFER)  # pylint: disable=protected-access


def _get_saver():
  savers = V1.get_collection(V1.GraphKeys.SAVERS)
  saver = savers[0] if savers else None
  if saver is None and V1.global_variables():
    saver = V1.train.Saver()
    V1.add_to_collection(V1.GraphKeys.SAVERS, saver)
  return saver


def _export_estimator(estimator, export_dir, signature_fn, input_fn, default_batch_size, exports_to_keep,
                      input_feature_key=None, use_deprecated_input_fn=True, prediction_key=None,
                      checkpoint_path=None):
  """TF 1.15's export body (also what ExportMonitor runs); returns the export directory (bytes)."""
  if use_deprecated_input_fn:
    input_fn = input_fn or _default_input_fn
  elif input_fn is None:
    raise ValueError("input_fn must be defined.")
  checkpoint_path = checkpoint_path or tf.train.latest_checkpoint(estimator.model_dir)
  with tf.Graph().as_default() as g:
    V1.train.create_global_step(g)
    if use_deprecated_input_fn:
      examples = V1.placeholder(dtype=tf.string, shape=[default_batch_size], name="input_example_tensor")
      features = input_fn(estimator, examples)
    else:
      features, _ = input_fn()
      examples = None
      if input_feature_key is not None:
        examples = features.pop(input_feature_key)
    if (not features) and (examples is None):
      raise ValueError("Either features or examples must be defined.")
    predictions = _predict_ops(estimator, features).predictions
    if prediction_key is not None:
      predictions = predictions[prediction_key]
    if signature_fn:
      default_signature, named_graph_signatures = signature_fn(examples, features, predictions)
    else:
      V1.logging.warn("Change warning: `signature_fn` will be required after2016-08-01.\nUsing generic "
                      "signatures for now.  To maintain this behavior, pass:\n  "
                      "signature_fn=export.generic_signature_fn")
      default_signature, named_graph_signatures = generic_signature_fn(examples, features, predictions)
    return _write_savedmodel(g, _get_saver(), checkpoint_path, export_dir, default_signature,
                             named_graph_signatures, exports_to_keep)


def _write_savedmodel(graph, saver, checkpoint_path, export_dir_base, default_signature, named_signatures,
                      exports_to_keep):
  export_dir_base = tf.compat.as_text(export_dir_base).rstrip("/")
  signatures = dict(named_signatures or {})
  if default_signature is not None:
    signatures[V1.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY] = default_signature
  with graph.as_default(), V1.Session() as session:
    saver.restore(session, checkpoint_path)
    global_step = V1.train.global_step(session, V1.train.get_global_step())
    export_dir = os.path.join(tf.compat.as_bytes(export_dir_base), tf.compat.as_bytes("%08d" % global_step))
    if tf.io.gfile.exists(export_dir):
      raise RuntimeError("Overwriting exports can cause corruption and are not allowed. Duplicate export dir: %s"
                         % export_dir)
    tmp_export_dir = tf.compat.as_text(export_dir) + "-tmp"
    builder = V1.saved_model.Builder(tmp_export_dir)
    builder.add_meta_graph_and_variables(
        session, [V1.saved_model.tag_constants.SERVING], signature_def_map=signatures,
        assets_collection=V1.get_collection(V1.GraphKeys.ASSET_FILEPATHS) or None,
        main_op=tf.group(V1.local_variables_initializer(), V1.tables_initializer()))
    builder.save()
    tf.io.gfile.rename(tmp_export_dir, export_dir)
  if exports_to_keep:
    pattern = re.compile(r"^" + re.escape(export_dir_base) + r"/(\d{8})$")

    def parser(path):
      match = pattern.match(path.path)
      return path._replace(export_version=int(match.group(1))) if match else None
    for p in gc.negation(gc.largest_export_versions(exports_to_keep))(gc.get_paths(export_dir_base, parser)):
      tf.io.gfile.rmtree(p.path)
  return export_dir


__getattr__ = _catalog.module_getattr(__name__)
