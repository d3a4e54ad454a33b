"""`tf.contrib.learn.utils.saved_model_export_utils`: TF 1.15's SavedModel signatures, export dirs and strategies.

Place in the data flow (DESIGN.md): tf.compat.v1.saved_model, contrib.learn.utils.gc <- **contrib.learn.utils.
saved_model_export_utils** <- contrib.learn (make_export_strategy), contrib.learn.experiment <- compat <- cli.

TF 1.15's code on TensorFlow's public API: `build_standardized_signature_def` picks a classification /
regression / predict SignatureDef by ProblemType (UNSPECIFIED 0, CLASSIFICATION 1, LINEAR_REGRESSION 2,
LOGISTIC_REGRESSION 3) and the output keys ("classes", "scores", "probabilities"); `get_input_alternatives` /
`get_output_alternatives` / `build_all_signature_defs` name signatures "<input key>:<output key>" plus
"serving_default"; export directories are `<base>/<seconds since epoch>` (bytes, as TF 1.15 returned them) and
`garbage_collect_exports` keeps the newest `exports_to_keep` ten-digit ones. The strategies call the estimator's
`export_savedmodel` (contrib.learn.estimator's, or tf.estimator's) and return ExportStrategy objects.
"""

import os
import time

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.learn.export_strategy as export_strategy
import tf1clip.contrib.learn.utils.gc as gc
import tf1clip.contrib.learn.utils.input_fn_utils as input_fn_utils

V1 = tf.compat.v1

DEFAULT_INPUT_ALTERNATIVE_KEY = "default_input_alternative"
FEATURES_INPUT_ALTERNATIVE_KEY = "features_input_alternative"
_FALLBACK_DEFAULT_OUTPUT_ALTERNATIVE_KEY = "default_output_alternative"

# contrib.learn's ProblemType values and PredictionKey names (estimators/constants.py, prediction_key.py).
_UNSPECIFIED, _CLASSIFICATION, _LINEAR_REGRESSION, _LOGISTIC_REGRESSION = 0, 1, 2, 3
_CLASSES, _SCORES, _PROBABILITIES, _GENERIC = "classes", "scores", "probabilities", "output"
_LOSS = "loss"

MAX_DIRECTORY_CREATION_ATTEMPTS = 10


def build_standardized_signature_def(input_tensors, output_tensors, problem_type):
  """A classification, regression or predict SignatureDef for the problem type and tensors (TF 1.15's rules)."""
  if not input_tensors:
    raise ValueError("input_tensors must be provided.")
  if not output_tensors:
    raise ValueError("output_tensors must be provided.")
  if _is_classification_problem(problem_type, input_tensors, output_tensors):
    (_, examples), = input_tensors.items()
    classes = _get_classification_classes(output_tensors)
    scores = _get_classification_scores(output_tensors)
    if classes is None and scores is None:
      items = list(output_tensors.items())
      if items[0][1].dtype == tf.string:
        (_, classes), = items
      else:
        (_, scores), = items
    return V1.saved_model.classification_signature_def(examples, classes, scores)
  if _is_regression_problem(problem_type, input_tensors, output_tensors):
    (_, examples), = input_tensors.items()
    (_, predictions), = output_tensors.items()
    return V1.saved_model.regression_signature_def(examples, predictions)
  return V1.saved_model.predict_signature_def(input_tensors, output_tensors)


def _get_classification_scores(output_tensors):
  scores = output_tensors.get(_SCORES)
  if scores is None:
    scores = output_tensors.get(_PROBABILITIES)
  return scores


def _get_classification_classes(output_tensors):
  classes = output_tensors.get(_CLASSES)
  if classes is not None and classes.dtype != tf.string:
    return None  # Servo classification can only serve string classes
  return classes


def _is_classification_problem(problem_type, input_tensors, output_tensors):
  classes = _get_classification_classes(output_tensors)
  scores = _get_classification_scores(output_tensors)
  return (problem_type in (_CLASSIFICATION, _LOGISTIC_REGRESSION) and len(input_tensors) == 1
          and (classes is not None or scores is not None or len(output_tensors) == 1))


def _is_regression_problem(problem_type, input_tensors, output_tensors):
  return problem_type == _LINEAR_REGRESSION and len(input_tensors) == 1 and len(output_tensors) == 1


def get_input_alternatives(input_ops):
  """({DEFAULT_INPUT_ALTERNATIVE_KEY: default_inputs} for InputFnOps, else {}), features."""
  input_alternatives = {}
  if isinstance(input_ops, input_fn_utils.InputFnOps):
    features, _, default_inputs = input_ops
    input_alternatives[DEFAULT_INPUT_ALTERNATIVE_KEY] = default_inputs
  else:
    features, _ = input_ops
  if not features:
    raise ValueError("Features must be defined.")
  return input_alternatives, features


def get_output_alternatives(model_fn_ops, default_output_alternative_key=None):
  """(output_alternatives, the key of the default one) of a ModelFnOps, as TF 1.15 chose them."""
  output_alternatives = model_fn_ops.output_alternatives
  if not output_alternatives:
    if default_output_alternative_key:
      raise ValueError("Requested default_output_alternative: {}, but available output_alternatives are: "
                       "[]".format(default_output_alternative_key))
    default_outputs = model_fn_ops.predictions
    if not isinstance(default_outputs, dict):
      default_outputs = {_GENERIC: default_outputs}
    key = _FALLBACK_DEFAULT_OUTPUT_ALTERNATIVE_KEY
    return {key: (_UNSPECIFIED, default_outputs)}, key
  if default_output_alternative_key:
    if default_output_alternative_key in output_alternatives:
      return output_alternatives, default_output_alternative_key
    raise ValueError("Requested default_output_alternative: {}, but available output_alternatives are: {}"
                     .format(default_output_alternative_key, sorted(output_alternatives.keys())))
  if len(output_alternatives) == 1:
    (key, _), = output_alternatives.items()
    return output_alternatives, key
  raise ValueError("Please specify a default_output_alternative.  Available output_alternatives are: {}"
                   .format(sorted(output_alternatives.keys())))


def build_all_signature_defs(input_alternatives, output_alternatives, actual_default_output_alternative_key):
  """A SignatureDef per (input, output) alternative pair, "<in>:<out>", plus "serving_default"."""
  signature_def_map = {
      ("%s:%s" % (input_key, output_key or "None")): build_standardized_signature_def(inputs, outputs,
                                                                                    problem_type)
      for input_key, inputs in input_alternatives.items()
      for output_key, (problem_type, outputs) in output_alternatives.items()}
  default_inputs = input_alternatives.get(DEFAULT_INPUT_ALTERNATIVE_KEY)
  if not default_inputs:
    raise ValueError("A default input_alternative must be provided.")
  default_problem_type, default_outputs = output_alternatives[actual_default_output_alternative_key]
  signature_def_map[V1.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY] = (
      build_standardized_signature_def(default_inputs, default_outputs, default_problem_type))
  return signature_def_map


def get_timestamped_export_dir(export_dir_base):
  """`<export_dir_base>/<seconds since epoch>` (bytes), not yet existing; waits 1 s on a collision."""
  attempts = 0
  while attempts < MAX_DIRECTORY_CREATION_ATTEMPTS:
    export_dir = os.path.join(tf.compat.as_bytes(export_dir_base), tf.compat.as_bytes(str(int(time.time()))))
    if not tf.io.gfile.exists(export_dir):
      return export_dir
    time.sleep(1)
    attempts += 1
    V1.logging.warn("Export directory {} already exists; retrying (attempt {}/{})".format(
        export_dir, attempts, MAX_DIRECTORY_CREATION_ATTEMPTS))
  raise RuntimeError("Failed to obtain a unique export directory name after {} attempts.".format(
      MAX_DIRECTORY_CREATION_ATTEMPTS))


def get_temp_export_dir(timestamped_export_dir):
  """The sister directory `temp-<basename>` (bytes) of a timestamped export directory."""
  dirname, basename = os.path.split(timestamped_export_dir)
  return os.path.join(tf.compat.as_bytes(dirname),
                      tf.compat.as_bytes("temp-{}".format(tf.compat.as_text(basename))))


def _export_version_parser(path):
  filename = os.path.basename(path.path)
  if not (len(filename) == 10 and filename.isdigit()):
    return None
  return path._replace(export_version=int(filename))


def get_most_recent_export(export_dir_base):
  """The gc.Path of the newest ten-digit export directory under export_dir_base, or None."""
  results = gc.largest_export_versions(1)(gc.get_paths(export_dir_base, parser=_export_version_parser))
  return next(iter(results or []), None)


def garbage_collect_exports(export_dir_base, exports_to_keep):
  """Deletes all but the newest `exports_to_keep` ten-digit export directories (None: keeps all)."""
  if exports_to_keep is None:
    return
  delete_filter = gc.negation(gc.largest_export_versions(exports_to_keep))
  for p in delete_filter(gc.get_paths(export_dir_base, parser=_export_version_parser)):
    try:
      tf.io.gfile.rmtree(p.path)
    except tf.errors.NotFoundError as e:
      V1.logging.warn("Can not delete %s recursively: %s", p.path, e)


def _core_estimator_class():
  from tf1clip.contrib.learn import estimator as estimator_lib  # pylint: disable=import-outside-toplevel
  return estimator_lib._estimator_api().Estimator  # pylint: disable=protected-access


def make_export_strategy(serving_input_fn, default_output_alternative_key=None, assets_extra=None,
                         as_text=False, exports_to_keep=5, strip_default_attrs=None):
  """An ExportStrategy "Servo": the estimator's export_savedmodel, then garbage_collect_exports."""

  def export_fn(estimator, export_dir_base, checkpoint_path=None, strip_default_attrs=False):
    if isinstance(estimator, _core_estimator_class()):
      if default_output_alternative_key is not None:
        raise ValueError("default_output_alternative_key is not supported in core Estimator. Given: {}"
                         .format(default_output_alternative_key))
      export_result = estimator.export_savedmodel(
          export_dir_base, serving_input_fn, assets_extra=assets_extra, as_text=as_text,
          checkpoint_path=checkpoint_path, strip_default_attrs=strip_default_attrs)
    else:
      export_result = estimator.export_savedmodel(
          export_dir_base, serving_input_fn, default_output_alternative_key=default_output_alternative_key,
          assets_extra=assets_extra, as_text=as_text, checkpoint_path=checkpoint_path,
          strip_default_attrs=strip_default_attrs)
    garbage_collect_exports(export_dir_base, exports_to_keep)
    return export_result

  return export_strategy.ExportStrategy("Servo", export_fn, strip_default_attrs)


def make_parsing_export_strategy(feature_columns, default_output_alternative_key=None, assets_extra=None,
                                 as_text=False, exports_to_keep=5, target_core=False,
                                 strip_default_attrs=None):
  """make_export_strategy for serialized tf.Examples parsed with the columns' feature spec."""
  from tf1clip.contrib.layers.python.layers import feature_column  # pylint: disable=import-outside-toplevel
  feature_spec = feature_column.create_feature_spec_for_parsing(feature_columns)
  if target_core:
    from tf1clip.contrib.learn import estimator as estimator_lib  # pylint: disable=import-outside-toplevel
    core_export = estimator_lib._estimator_api().export  # pylint: disable=protected-access
    serving_input_fn = core_export.build_parsing_serving_input_receiver_fn(feature_spec)
  else:
    serving_input_fn = input_fn_utils.build_parsing_serving_input_fn(feature_spec)
  return make_export_strategy(serving_input_fn, default_output_alternative_key=default_output_alternative_key,
                              assets_extra=assets_extra, as_text=as_text, exports_to_keep=exports_to_keep,
                              strip_default_attrs=strip_default_attrs)


def _default_compare_fn(curr_best_eval_result, cand_eval_result):
  """True when the candidate's "loss" is lower than the current best's (TF 1.15's default)."""
  if not curr_best_eval_result or _LOSS not in curr_best_eval_result:
    raise ValueError("curr_best_eval_result cannot be empty or no loss is found in it.")
  if not cand_eval_result or _LOSS not in cand_eval_result:
    raise ValueError("cand_eval_result cannot be empty or no loss is found in it.")
  return curr_best_eval_result[_LOSS] > cand_eval_result[_LOSS]


class BestModelSelector(object):
  """Keeps the best eval result so far (seeded from event files) and says which checkpoints to export."""

  def __init__(self, event_file_pattern=None, compare_fn=None):
    self._compare_fn = compare_fn or _default_compare_fn
    self._best_eval_result = self._get_best_eval_result(event_file_pattern)

  def update(self, checkpoint_path, eval_result):
    """(checkpoint_path, eval_result) when eval_result is the best so far, else ("", None)."""
    if not checkpoint_path:
      raise ValueError("Checkpoint path is empty.")
    if eval_result is None:
      raise ValueError("%s has empty evaluation results.", checkpoint_path)
    if self._best_eval_result is None or self._compare_fn(self._best_eval_result, eval_result):
      self._best_eval_result = eval_result
      return checkpoint_path, eval_result
    return "", None

  def _get_best_eval_result(self, event_files):
    if not event_files:
      return None
    best_eval_result = None
    for event_file in tf.io.gfile.glob(os.path.join(event_files)):
      for event in V1.train.summary_iterator(event_file):
        if event.HasField("summary"):
          event_eval_result = {}
          for value in event.summary.value:
            if value.HasField("simple_value"):
              event_eval_result[value.tag] = value.simple_value
          if best_eval_result is None or self._compare_fn(best_eval_result, event_eval_result):
            best_eval_result = event_eval_result
    return best_eval_result


def make_best_model_export_strategy(serving_input_fn, exports_to_keep=1, model_dir=None, event_file_pattern=None,
                                    compare_fn=None, default_output_alternative_key=None,
                                    strip_default_attrs=None):
  """An ExportStrategy "best_model": exports only a checkpoint whose eval result beats the best so far."""
  best_model_export_strategy = make_export_strategy(
      serving_input_fn, exports_to_keep=exports_to_keep,
      default_output_alternative_key=default_output_alternative_key, strip_default_attrs=strip_default_attrs)
  full_event_file_pattern = (os.path.join(model_dir, event_file_pattern)
                             if model_dir and event_file_pattern else None)
  best_model_selector = BestModelSelector(full_event_file_pattern, compare_fn)

  def export_fn(estimator, export_dir_base, checkpoint_path, eval_result=None):
    if not checkpoint_path:
      checkpoint_path = tf.train.latest_checkpoint(estimator.model_dir)
    export_checkpoint_path, export_eval_result = best_model_selector.update(checkpoint_path, eval_result)
    if export_checkpoint_path and export_eval_result is not None:
      export_dir = os.path.join(export_dir_base, os.path.basename(export_checkpoint_path))
      return best_model_export_strategy.export(estimator, export_dir, export_checkpoint_path,
                                               export_eval_result)
    return ""

  return export_strategy.ExportStrategy("best_model", export_fn)


def extend_export_strategy(base_export_strategy, post_export_fn, post_export_name=None):
  """An ExportStrategy that runs base_export_strategy, then post_export_fn(export, temp dir) (TF 1.15's)."""

  def export_fn(estimator, export_dir_base, checkpoint_path=None):
    tmp_base_export_dir = os.path.join(export_dir_base, "temp-base-export-" + str(int(time.time())))
    if tf.io.gfile.exists(tmp_base_export_dir):
      raise RuntimeError("Failed to obtain base export directory")
    tf.io.gfile.makedirs(tmp_base_export_dir)
    tmp_base_export = base_export_strategy.export(estimator, tmp_base_export_dir, checkpoint_path)
    tmp_post_export_dir = os.path.join(export_dir_base, "temp-post-export-" + str(int(time.time())))
    if tf.io.gfile.exists(tmp_post_export_dir):
      raise RuntimeError("Failed to obtain temp export directory")
    tf.io.gfile.makedirs(tmp_post_export_dir)
    tmp_post_export = post_export_fn(tmp_base_export, tmp_post_export_dir)
    if not tmp_post_export.startswith(tmp_post_export_dir):
      raise ValueError("post_export_fn must return a sub-directory of {}".format(tmp_post_export_dir))
    post_export = os.path.join(export_dir_base, os.path.relpath(tmp_post_export, tmp_post_export_dir))
    if tf.io.gfile.exists(post_export):
      raise RuntimeError("Failed to obtain final export directory")
    tf.io.gfile.rename(tmp_post_export, post_export)
    tf.io.gfile.rmtree(tmp_base_export_dir)
    tf.io.gfile.rmtree(tmp_post_export_dir)
    return post_export

  name = post_export_name if post_export_name else base_export_strategy.name
  return export_strategy.ExportStrategy(name, export_fn)


__getattr__ = _catalog.module_getattr(__name__)
