"""`tf.contrib.saved_model`: TF 1.15's Keras model <-> SavedModel pair, `save_keras_model` / `load_keras_model`.

TF 1.15's code (keras/saving/saved_model_experimental.py: `export_saved_model` / `load_from_saved_model`) on
tf-keras' TF1 Keras. `save_keras_model(model, path)` writes a SavedModel directory at `path` itself (no
timestamped subdirectory; a non-empty existing directory is an AssertionError):

  assets/saved_model.json   the model's JSON (`model.to_json()`),
  variables/variables.*     an object-based checkpoint (`model.save_weights(save_format="tf")`: keys such as
                            `layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`, optimizer slots included),
  saved_model.pb            one graph per mode, each a clone of the model in a fresh graph whose Saver reads
                            that checkpoint: "train" (tag `train`, signature "train" and the train op) and
                            "eval" (tag `eval`, signature "eval") when the model is compiled with a tf.train
                            optimizer or a Keras (v2) optimizer, and "serve" (tag `serve`, signature
                            "serving_default": the model's inputs -> outputs, keyed by input/output names).

The train and eval signatures take the inputs and the targets (`<output>_target`) and give `loss`,
`predictions/<output>`, `metrics/<name>/value` and `metrics/<name>/update_op`, as TF 1.15's TrainOutput/EvalOutput
wrote them. `serving_only=True` writes a TF 2 SavedModel of the model's traced call (`tf.saved_model.save`).
`load_keras_model(path)` rebuilds the model from the JSON and loads the weights from the checkpoint, so a
directory written by TF 1.15 loads here and one written here loads on TF 1.15 (`load_keras_model` and
`tf.saved_model.loader.load(sess, ["serve"], path)`).

tf-keras' JSON names a graph network "Functional" (TF 1.15: "Model") and carries keys TF 1.15's Keras does not
know (`module`, `registered_name`, `build_config`, and layer arguments added since, such as Conv2D's `groups=1`
or InputLayer's `optional=False`); the JSON written here uses TF 1.15's class name and drops those keys (a new
argument only at the value that is TF 1.15's behaviour), so TF 1.15's `model_from_json` reads it; tf-keras reads
both. Likewise the graphs lose what TF 1.15's importer rejects (see `_TF2_ONLY_ATTRS`).

Not on TF's public API (so imported from where they live): tf-keras' `clone_and_build_model` (TF 1.15 cloned
each mode's graph with it), its optimizer classes (the TF 1.15 check of which optimizers get train/eval
graphs), its `trace_model_call` (serving_only), and TensorFlow's `_SavedModelBuilder` (the public Builder cannot
add a meta graph with an init op and a train op signature, which TF 1.15 wrote). The Saver's object-based names
come from `tf.__internal__.tracking.ObjectGraphView`, the SavedModel proto from `tensorflow.core.protobuf`.
"""

import json
import os
import warnings

import tensorflow as tf
from tensorflow.python.saved_model import builder_impl  # pylint: disable=g-direct-tensorflow-import
from tf_keras.api._v1 import keras

from tf1clip.contrib import catalog as _catalog

_TRAIN, _TEST, _PREDICT = "train", "test", "predict"
_EXPORT_TAGS = {_TRAIN: ["train"], _TEST: ["eval"], _PREDICT: ["serve"]}  # TF 1.15's EXPORT_TAG_MAP
_SIGNATURE_KEYS = {_TRAIN: "train", _TEST: "eval", _PREDICT: tf.compat.v1.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY}
_SUPERVISED_METHODS = {_TRAIN: "tensorflow/supervised/training", _TEST: "tensorflow/supervised/eval"}
_JSON_FILENAME = "saved_model.json"  # TF 1.15's constants.SAVED_MODEL_FILENAME_JSON
# Keys of tf-keras' serialized configs that TF 1.15's Keras does not know; dropped from the JSON written.
_NEWER_CONFIG_KEYS = ("module", "registered_name", "build_config", "compile_config", "shared_object_id")
# Layer arguments tf-keras added since TF 1.15 (whose layers reject unknown arguments): (argument, the value that is
# TF 1.15's behaviour, the layer classes or None for any), dropped when at that value (any other value has no
# TF 1.15 equivalent and stays, for TF 1.15 to reject).
_NEWER_LAYER_ARGS = (("groups", 1, None), ("keepdims", False, None), ("optional", False, ("InputLayer",)),
                     ("seed", None, ("GaussianNoise", "AlphaDropout")))
# What TensorFlow 2.21 writes in these graphs that TF 1.15's op registry rejects when it imports the graph:
# attributes added since (a variable's debug name, a shape check TF 1.15 did not make, MatMul's gradient hints),
# dropped, and the op TF 1.15 lacks (DisableCopyOnRead: saving a variable without switching it out of a TF 2
# copy-on-read mode TF 1.15 did not have), removed with the control edges to it.
_TF2_ONLY_ATTRS = {"VarHandleOp": ("debug_name",), "AssignVariableOp": ("validate_shape",),
                   "MatMul": ("grad_a", "grad_b"), "BatchMatMul": ("grad_x", "grad_y"),
                   "BatchMatMulV2": ("grad_x", "grad_y")}
_TF2_ONLY_OPS = ("DisableCopyOnRead",)


def save_keras_model(model, saved_model_path, custom_objects=None, as_text=False, input_signature=None,
                     serving_only=False):
  """TF 1.15's `tf.contrib.saved_model.save_keras_model`: exports a Keras model as a SavedModel.

  Args:
    model: a `tf.keras.Model`; a subclassed model needs `serving_only=True`.
    saved_model_path: the SavedModel directory (must not exist or be empty).
    custom_objects: names -> custom classes or functions, for cloning the model.
    as_text: write saved_model.pbtxt instead of saved_model.pb.
    input_signature: a possibly nested sequence of `tf.TensorSpec` of the model's inputs (default: inferred).
    serving_only: write only the prediction graph (a TF 2 SavedModel of the traced model call).

  Raises:
    NotImplementedError: a subclassed model without `serving_only`.
    ValueError: a Sequential model not built yet.
    AssertionError: the SavedModel directory exists and is not empty.
  """
  if serving_only:
    from tf_keras.src.saving.legacy import saving_utils  # pylint: disable=g-import-not-at-top
    tf.saved_model.save(model, saved_model_path,
                        signatures=saving_utils.trace_model_call(model, input_signature))
  else:
    _save_v1_format(model, saved_model_path, custom_objects, as_text, input_signature)
  _make_tf115_readable(saved_model_path)
  try:
    _export_model_json(model, saved_model_path)
  except NotImplementedError:
    tf.compat.v1.logging.warning("Skipped saving model JSON, subclassed model does not have get_config() defined.")


def load_keras_model(saved_model_path, custom_objects=None):
  """TF 1.15's `tf.contrib.saved_model.load_keras_model`: the model from assets/saved_model.json, weights loaded."""
  json_path = os.path.join(tf.compat.as_text(saved_model_path), tf.compat.v1.saved_model.ASSETS_DIRECTORY,
                           _JSON_FILENAME)
  with tf.io.gfile.GFile(json_path, "r") as f:
    model_json = f.read()
  model = keras.models.model_from_json(model_json, custom_objects=custom_objects)
  model.load_weights(_variables_path(saved_model_path))
  return model


def _variables_path(saved_model_path):
  return os.path.join(tf.compat.as_text(saved_model_path), tf.compat.v1.saved_model.VARIABLES_DIRECTORY,
                      tf.compat.v1.saved_model.VARIABLES_FILENAME)


def _tf115_nodes(nodes, as_text):
  """Rewrites `nodes` (a repeated NodeDef field) in place without the attributes and ops of _TF2_ONLY_*."""
  dropped = {node.name for node in nodes if node.op in _TF2_ONLY_OPS}
  kept = [node for node in nodes if node.name not in dropped]
  for node in kept:
    for attr in _TF2_ONLY_ATTRS.get(node.op, ()):
      node.attr.pop(attr, None)
    if as_text:  # a field TF 1.15's NodeDef lacks: its binary parser skips it, its text parser fails
      node.ClearField("experimental_type")
    if dropped:
      inputs = [i for i in node.input if not (i.startswith("^") and i[1:] in dropped)]
      del node.input[:]
      node.input.extend(inputs)
  if dropped:
    del nodes[:]
    nodes.extend(kept)


def _tf115_op_def(op_def):
  """Clears the OpDef fields TF 1.15 lacks (they stop its text parser)."""
  op_def.ClearField("is_distributed_communication")
  for arg in list(op_def.input_arg) + list(op_def.output_arg):
    arg.ClearField("experimental_full_type")
    arg.ClearField("handle_data")


def _make_tf115_readable(saved_model_path):
  """Rewrites the SavedModel's graphs so TF 1.15 imports them (see _TF2_ONLY_ATTRS); TensorFlow 2.21 still does."""
  from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
  from tensorflow.core.protobuf import saved_model_pb2  # pylint: disable=g-import-not-at-top
  saved_model = saved_model_pb2.SavedModel()
  for filename, as_text in (("saved_model.pb", False), ("saved_model.pbtxt", True)):
    path = os.path.join(tf.compat.as_text(saved_model_path), filename)
    if tf.io.gfile.exists(path):
      break
  with tf.io.gfile.GFile(path, "rb") as f:
    if as_text:
      text_format.Parse(f.read(), saved_model)
    else:
      saved_model.ParseFromString(f.read())
  for meta_graph in saved_model.meta_graphs:
    _tf115_nodes(meta_graph.graph_def.node, as_text)
    for function in meta_graph.graph_def.library.function:
      _tf115_nodes(function.node_def, as_text)
      if as_text:
        _tf115_op_def(function.signature)
    if as_text:
      for op_def in meta_graph.meta_info_def.stripped_op_list.op:
        _tf115_op_def(op_def)
  with tf.io.gfile.GFile(path, "wb") as f:
    f.write(text_format.MessageToString(saved_model).encode() if as_text else saved_model.SerializeToString())
  # TensorFlow 2.21's fingerprint of the file as first written (TF 1.15 wrote none).
  fingerprint = os.path.join(tf.compat.as_text(saved_model_path), "fingerprint.pb")
  if tf.io.gfile.exists(fingerprint):
    tf.io.gfile.remove(fingerprint)


def _tf115_config(config):
  """`config` (a model's JSON structure) as TF 1.15's Keras reads it: its class names, without newer keys."""
  if isinstance(config, dict):
    config = {k: _tf115_config(v) for k, v in config.items() if k not in _NEWER_CONFIG_KEYS}
    if config.get("class_name") == "Functional":  # tf-keras' name of a graph network; TF 1.15 knew "Model"
      config["class_name"] = "Model"
    if "class_name" in config and isinstance(config.get("config"), dict):
      for arg, value, classes in _NEWER_LAYER_ARGS:
        if (arg in config["config"] and config["config"][arg] == value and
            (classes is None or config["class_name"] in classes)):
          del config["config"][arg]
    return config
  if isinstance(config, list):
    return [_tf115_config(v) for v in config]
  return config


def _export_model_json(model, saved_model_path):
  """Writes the model's JSON to assets/saved_model.json."""
  model_json = json.dumps(_tf115_config(json.loads(model.to_json())))
  assets = os.path.join(tf.compat.as_text(saved_model_path), tf.compat.v1.saved_model.ASSETS_DIRECTORY)
  tf.io.gfile.makedirs(assets)
  with tf.io.gfile.GFile(os.path.join(assets, _JSON_FILENAME), "w") as f:
    f.write(model_json)


def _export_model_variables(model, saved_model_path):
  """Saves the model's weights as an object-based checkpoint in variables/; returns its prefix."""
  tf.io.gfile.makedirs(os.path.dirname(_variables_path(saved_model_path)))
  checkpoint_prefix = _variables_path(saved_model_path)
  model.save_weights(checkpoint_prefix, save_format="tf", overwrite=True)
  return checkpoint_prefix


def _exportable_optimizer(optimizer):
  from tf_keras.src.optimizers import optimizer_v1  # pylint: disable=g-import-not-at-top
  from tf_keras.src.optimizers.legacy import optimizer_v2  # pylint: disable=g-import-not-at-top
  return isinstance(optimizer, (optimizer_v1.TFOptimizer, optimizer_v2.OptimizerV2))


def _save_v1_format(model, path, custom_objects, as_text, input_signature):
  """Writes the SavedModel: checkpoint, then the train/eval (compiled model) and predict graphs."""
  if not model._is_graph_network:  # pylint: disable=protected-access
    if isinstance(model, keras.Sequential):
      if not model.built:
        raise ValueError("Weights for sequential model have not yet been created. Weights are created when the "
                         "Model is first called on inputs or `build()` is called with an `input_shape`, or the "
                         "first layer in the model has `input_shape` during construction.")
    else:
      raise NotImplementedError("Subclassed models can only be exported for serving. Please set argument "
                                "serving_only=True.")
  builder = builder_impl._SavedModelBuilder(path)  # pylint: disable=protected-access
  checkpoint_path = _export_model_variables(model, path)
  export_args = {"builder": builder, "model": model, "custom_objects": custom_objects,
                 "checkpoint_path": checkpoint_path, "input_signature": input_signature}
  has_saved_vars = False
  if model.optimizer:
    if _exportable_optimizer(model.optimizer):
      _export_mode(_TRAIN, has_saved_vars, **export_args)
      has_saved_vars = True
      _export_mode(_TEST, has_saved_vars, **export_args)
    else:
      tf.compat.v1.logging.warning(
          "Model was compiled with an optimizer, but the optimizer is not from `tf.train` (e.g. "
          "`tf.train.AdagradOptimizer`). Only the serving graph was exported. The train and evaluate graphs were "
          "not added to the SavedModel.")
  _export_mode(_PREDICT, has_saved_vars, **export_args)
  builder.save(as_text)


def _export_mode(mode, has_saved_vars, builder, model, custom_objects, checkpoint_path, input_signature):
  """Adds the graph of `mode` (a clone of `model` in a new graph) to `builder`; the first one re-saves weights."""
  from tf_keras.src.models import cloning  # pylint: disable=g-import-not-at-top
  compile_clone = mode != _PREDICT
  if compile_clone and not model.optimizer:
    raise ValueError("Model does not have an optimizer. Cannot export mode %s" % mode)
  with tf.Graph().as_default() as g, keras.backend.learning_phase_scope(mode == _TRAIN):
    if input_signature is None:
      input_tensors = None
    else:
      input_tensors = tf.nest.map_structure(
          lambda spec: keras.backend.placeholder(shape=spec.shape, dtype=spec.dtype, name=spec.name),
          input_signature)
    clone = cloning.clone_and_build_model(model, input_tensors=input_tensors, custom_objects=custom_objects,
                                          compile_clone=compile_clone)
    # The optimizer's iterations are the global step of the loaded graph (TF 1.15's SavedModelEstimator).
    if compile_clone:
      g.add_to_collection(tf.compat.v1.GraphKeys.GLOBAL_STEP, clone.optimizer.iterations)
    train_op = None
    if mode == _TRAIN:
      clone._make_train_function()  # pylint: disable=protected-access
      train_op = clone.train_function.updates_op
    elif mode == _TEST:
      clone._make_test_function()  # pylint: disable=protected-access
    else:
      clone._make_predict_function()  # pylint: disable=protected-access
    with warnings.catch_warnings():  # tf-keras: "`Model.state_updates` will be removed"; TF 1.15 read it here
      warnings.simplefilter("ignore", UserWarning)
      g.get_collection_ref(tf.compat.v1.GraphKeys.UPDATE_OPS).extend(clone.state_updates)
    with tf.compat.v1.Session():  # the default session of the clone's graph (Keras' session)
      clone_var_list, _, _ = tf.__internal__.tracking.ObjectGraphView(clone).serialize_object_graph()
      if has_saved_vars:
        # Every variable of the clone has its entry in the checkpoint.
        clone.load_weights(checkpoint_path).assert_existing_objects_matched()
      else:
        clone.load_weights(checkpoint_path)
        # The clone's checkpoint also holds the variables the compiled clone made (optimizer slots).
        clone.save_weights(checkpoint_path, save_format="tf", overwrite=True)
        builder._has_saved_variables = True  # pylint: disable=protected-access
      builder.add_meta_graph(
          _EXPORT_TAGS[mode], signature_def_map=_create_signature_def_map(clone, mode),
          saver=tf.compat.v1.train.Saver(clone_var_list, allow_empty=True),
          init_op=tf.compat.v1.local_variables_initializer(), train_op=train_op)


def _output_key(key, label):
  if isinstance(key, tuple):
    key = "/".join(key)
  if not isinstance(key, str):
    raise ValueError("{} output key must be a string; got {}.".format(label, key))
  return key


def _prefixed(key, prefix):
  return key if key.find(prefix) == 0 else prefix + "/" + key


def _checked_outputs(outputs, label):
  checked = {}
  for key, value in outputs.items():
    key = _output_key(key, label)
    if not isinstance(value, tf.Tensor):
      raise ValueError("{} output value must be a Tensor; got {}.".format(label, value))
    checked[key] = value
  return checked


def _supervised_signature(mode, inputs, loss, predictions, metrics):
  """TF 1.15's TrainOutput / EvalOutput signature: loss, predictions/<name>, metrics/<name>/value|update_op."""
  outputs = {}
  if loss is not None:
    outputs.update({_prefixed(k, "loss"): v for k, v in _checked_outputs({"loss": loss}, "loss").items()})
  outputs.update({_prefixed(k, "predictions"): v
                  for k, v in _checked_outputs(predictions, "predictions").items()})
  for key, (value, update) in (metrics or {}).items():
    key = _prefixed(_output_key(key, "metrics"), "metrics")
    if not isinstance(value, tf.Tensor):
      raise ValueError("{} output value must be a Tensor; got {}.".format(key, value))
    if not isinstance(update, (tf.Tensor, tf.Operation)):
      raise ValueError("{} update_op must be a Tensor or Operation; got {}.".format(key, update))
    if isinstance(update, tf.Operation):  # a SignatureDef holds tensors only
      with tf.control_dependencies([update]):
        update = tf.constant([], name="metric_op_wrapper")
    outputs[key + "/value"] = value
    outputs[key + "/update_op"] = update
  method = _SUPERVISED_METHODS[mode]
  if not inputs:
    raise ValueError("{} inputs cannot be None or empty.".format(method))
  build = tf.compat.v1.saved_model.build_tensor_info
  return tf.compat.v1.saved_model.build_signature_def({k: build(t) for k, t in inputs.items()},
                                                      {k: build(t) for k, t in outputs.items()}, method)


def _create_signature_def_map(model, mode):
  """The SignatureDefs of `mode` for the (cloned, compiled unless predicting) `model`."""
  inputs = dict(zip(model.input_names, model.inputs))
  if model.optimizer:
    inputs.update({x.name.split(":")[0]: x for x in model._targets if x is not None})  # pylint: disable=protected-access
  outputs = dict(zip(model.output_names, model.outputs))
  metrics = None
  if getattr(model, "_compile_metrics", None):
    metrics = {m.name: m for m in model._compile_metric_functions}  # pylint: disable=protected-access
  # Metric variables go to LOCAL_VARIABLES, so the SavedModel's init op initializes them.
  local_vars = set(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.LOCAL_VARIABLES))
  vars_to_add = set()
  if metrics is not None:
    for key, value in metrics.items():
      if isinstance(value, keras.metrics.Metric):
        vars_to_add.update(value.variables)
        metrics[key] = (value.result(), value.updates[0])
  for v in vars_to_add.difference(local_vars):
    tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.LOCAL_VARIABLES, v)

  signature_key = _SIGNATURE_KEYS[mode]
  signatures, excluded = {}, {}
  try:
    if mode == _PREDICT:
      signature = tf.compat.v1.saved_model.predict_signature_def(
          inputs, _checked_outputs(outputs, "Prediction"))
    else:
      signature = _supervised_signature(mode, inputs, model.total_loss if model.optimizer else None, outputs,
                                        metrics)
    signatures[signature_key] = signature
  except ValueError as e:
    excluded[signature_key] = str(e)
  for name, message in excluded.items():
    tf.compat.v1.logging.info("Signature %r EXCLUDED from export: %s", name, message)
  if mode == _PREDICT:
    signatures = {k: v for k, v in signatures.items() if tf.compat.v1.saved_model.is_valid_signature(v)}
  if not signatures:
    tf.compat.v1.logging.warning("Export includes no signatures!")
  elif tf.compat.v1.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY not in signatures:
    tf.compat.v1.logging.warning("Export includes no default signature!")
  return signatures


__getattr__ = _catalog.module_getattr(__name__)
