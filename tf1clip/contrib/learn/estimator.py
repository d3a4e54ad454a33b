"""`tf.contrib.learn.Estimator` and `SKCompat`: TF 1.15's `fit/evaluate/predict(x=, y=)` API on tf.estimator.

Place in the data flow (DESIGN.md): tensorflow_estimator (through shims.tensorflow_estimator) <-
**contrib.learn.estimator** <- contrib.learn.canned, contrib.learn.experiment <- compat <- cli.

A contrib.learn `Estimator` owns a `tf.estimator.Estimator` (tensorflow-estimator 2.15, the library TF 1.15's
`tf.estimator` became) and adapts the two things that differ:

- the model_fn: TF 1.15's calling rules (`features, labels` and, where the function names them, `mode`,
  `params`, `config`, `model_dir`) and its results (`ModelFnOps`, or a `(predictions, loss, train_op)`
  tuple) become an `EstimatorSpec`; an eval metric that is a bare Tensor becomes a `(value, no_op)` pair,
  and `evaluate(metrics=)` adds `MetricSpec`s as TF 1.15's `_make_metrics_ops` did;
- the input: `x` / `y` arrays (or dicts of arrays) are served in TF 1.15's DataFeeder order: batches of
  `batch_size` (all of `x` when None) from `np.random.RandomState(42)` permutations, a new one each epoch,
  for training; in order, one epoch, for `evaluate` and `predict`. A 1-D `x` becomes a column, and `y` keeps
  its shape after the batch dimension (a leading 1 dropped), as TF 1.15's feeder did.

Checkpoints are tf.estimator's (the same Saver format and `model.ckpt-N` names); the variables are whatever
the model_fn creates, so a TF 1.15 checkpoint of a model_fn Estimator restores.
"""

import collections
import inspect

import numpy as np


class NotFittedError(ValueError, AttributeError):
  """predict / evaluate / export before any checkpoint exists (TF 1.15's `learn.NotFittedError`)."""


class ModeKeys(object):
  """contrib.learn's model modes: TRAIN "train", EVAL "eval", INFER "infer" (tf.estimator calls it PREDICT)."""
  TRAIN = "train"
  EVAL = "eval"
  INFER = "infer"

  @classmethod
  def validate(cls, key):
    if key not in (cls.TRAIN, cls.EVAL, cls.INFER):
      raise ValueError("Invalid mode %s." % key)


class ModelFnOps(collections.namedtuple("ModelFnOps", [
    "predictions", "loss", "train_op", "eval_metric_ops", "output_alternatives",
    "training_chief_hooks", "training_hooks", "scaffold", "mode"])):
  """What a contrib.learn model_fn returns, validated as TF 1.15's (`Missing train_op.`, `Missing loss.`, ...)."""

  def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None,
              output_alternatives=None, training_chief_hooks=None, training_hooks=None,
              scaffold=None):
    import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
    ModeKeys.validate(mode)
    if train_op is None:
      if mode == ModeKeys.TRAIN:
        raise ValueError("Missing train_op.")
    elif not isinstance(train_op, tf.Operation):
      train_op = tf.convert_to_tensor(train_op).op
    if loss is None:
      if mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
        raise ValueError("Missing loss.")
    else:
      loss = tf.convert_to_tensor(loss)
      if loss.shape.num_elements() not in (None, 1):
        raise ValueError("Loss must be scalar: %s." % loss)
      if not loss.shape.is_compatible_with([]):
        loss = tf.reshape(loss, [])
    if predictions is None:
      if mode in (ModeKeys.INFER, ModeKeys.EVAL):
        raise ValueError("Missing predictions.")
    elif isinstance(predictions, dict):
      predictions = {k: tf.convert_to_tensor_or_sparse_tensor(v) for k, v in predictions.items()}
    else:
      predictions = tf.convert_to_tensor_or_sparse_tensor(predictions)
    eval_metric_ops = dict(eval_metric_ops or {})
    return super(ModelFnOps, cls).__new__(
        cls, predictions=predictions, loss=loss, train_op=train_op,
        eval_metric_ops=eval_metric_ops, output_alternatives=output_alternatives,
        training_chief_hooks=list(training_chief_hooks or []),
        training_hooks=list(training_hooks or []), scaffold=scaffold, mode=mode)


InputFnOps = collections.namedtuple("InputFnOps", ["features", "labels", "default_inputs"])
InputFnOps.__doc__ = "What a contrib.learn serving_input_fn returns: features, labels, default_inputs."


# ----------------------------------------------------------------------------------------------------
# MetricSpec (TF 1.15's argument matching)

_LABELS_ARGS = ("labels", "label", "targets", "target")
_PREDICTIONS_ARGS = ("predictions", "prediction", "logits", "logit")
_WEIGHTS_ARGS = ("weights", "weight")


def _args(fn):
  if hasattr(fn, "func") and hasattr(fn, "keywords"):
    return tuple(a for a in _args(fn.func)[len(fn.args):] if a not in fn.keywords)
  return tuple(p.name for p in inspect.signature(fn).parameters.values()
               if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def _matching_arg(fn_args, candidates, required, fn_name):
  matching = [a for a in candidates if a in fn_args]
  if len(matching) > 1:
    raise ValueError("Ambiguous arguments %s, must provide only one of %s." % (
        set(matching), set(candidates)))
  if not matching and required:
    raise ValueError("%s missing from %s(%s)." % (set(candidates), fn_name, fn_args))
  return matching[0] if matching else None


class MetricSpec(object):
  """A metric function and the prediction / label / weight keys it reads (TF 1.15's `learn.MetricSpec`)."""

  def __init__(self, metric_fn, prediction_key=None, label_key=None, weight_key=None):
    if not callable(metric_fn):
      raise TypeError("MetricSpec: metric_fn must be callable; got %r" % (metric_fn,))
    self._metric_fn_name = getattr(metric_fn, "__name__", None) or getattr(
        getattr(metric_fn, "func", None), "__name__", str(metric_fn))
    args = _args(metric_fn)
    name = self._metric_fn_name
    labels_arg = _matching_arg(args, _LABELS_ARGS, label_key is not None, name)
    predictions_arg = _matching_arg(args, _PREDICTIONS_ARGS, False, name)
    weights_arg = _matching_arg(args, _WEIGHTS_ARGS, weight_key is not None, name)
    weights_kw = weights_arg or "weights"

    def adapted(labels=None, predictions=None, weights=None):
      kwargs = {weights_kw: weights} if weights is not None else {}
      if labels_arg and predictions_arg:
        return metric_fn(**{labels_arg: labels, predictions_arg: predictions}, **kwargs)
      if labels_arg and labels_arg == args[0]:
        return metric_fn(labels, predictions, **kwargs)
      if labels_arg:
        return metric_fn(predictions, **{labels_arg: labels}, **kwargs)
      if predictions_arg:
        return metric_fn(**{predictions_arg: predictions}, **kwargs)
      return metric_fn(predictions, **kwargs)

    self._metric_fn = adapted
    self._prediction_key = prediction_key
    self._label_key = label_key
    self._weight_key = weight_key

  prediction_key = property(lambda self: self._prediction_key)
  label_key = property(lambda self: self._label_key)
  weight_key = property(lambda self: self._weight_key)
  metric_fn = property(lambda self: self._metric_fn)

  def __str__(self):
    return "MetricSpec(metric_fn=%s, prediction_key=%s, label_key=%s, weight_key=%s)" % (
        self._metric_fn_name, self.prediction_key, self.label_key, self.weight_key)

  def create_metric_ops(self, inputs, labels, predictions):
    """Picks the keyed prediction, label and weight and calls the metric function on them."""
    def pick(name, value, key):
      if key:
        if not isinstance(value, dict):
          raise ValueError("MetricSpec with %s_key specified requires %ss dict, got %s.\nYou must "
                           "not provide a %s_key if you only have a single Tensor as %ss."
                           % (name, name, value, name, name))
        if key not in value:
          raise KeyError("Key '%s' missing from %s." % (key, value.keys()))
        return value[key]
      if isinstance(value, dict):
        if len(value) != 1:
          raise ValueError("MetricSpec without specified %s_key requires %ss tensor or single "
                           "element dict, got %s" % (name, name, value))
        return next(iter(value.values()))
      return value
    return self.metric_fn(labels=pick("label", labels, self.label_key),
                          predictions=pick("prediction", predictions, self.prediction_key),
                          weights=inputs[self.weight_key] if self.weight_key else None)


def _make_metric_ops(metrics, features, labels, predictions):
  """`evaluate(metrics=)`: MetricSpecs, and TF 1.15's older bare functions / (name, prediction key)."""
  result = {}
  single_label = labels
  if isinstance(labels, dict) and len(labels) == 1:
    single_label = next(iter(labels.values()))
  for name, metric in sorted((metrics or {}).items(), key=lambda kv: str(kv[0])):
    if isinstance(metric, MetricSpec):
      result[name] = metric.create_metric_ops(features, labels, predictions)
    elif isinstance(name, tuple):
      if len(name) != 2:
        raise ValueError("Invalid metric for {}. It returned a tuple with len {}, expected 2."
                         .format(name, len(name)))
      if not isinstance(predictions, dict):
        raise ValueError("Metrics passed provide (name, prediction), but predictions are not dict. "
                         "Metrics: %s, Predictions: %s." % (metrics, predictions))
      label = (labels[name[1]] if isinstance(labels, dict) and name[1] in labels else single_label)
      result[name[0]] = metric(predictions[name[1]], label)
    else:
      if isinstance(predictions, dict):
        raise ValueError("Metrics passed provide only name, no prediction, but predictions are "
                         "dict. Metrics: %s, Labels: %s." % (metrics, single_label))
      result[name] = metric(predictions, single_label)
  return result


# ----------------------------------------------------------------------------------------------------
# Arrays in, in TF 1.15's DataFeeder order

def _as_arrays(data):
  if data is None:
    return None
  if hasattr(data, "values") and hasattr(data, "columns") and not isinstance(data, dict):
    data = data.values  # a pandas DataFrame, as TF 1.15's extract_pandas_data
  elif hasattr(data, "values") and hasattr(data, "index") and not isinstance(data, dict):
    data = data.values  # a pandas Series
  if isinstance(data, dict):
    return {k: np.asarray(v) for k, v in data.items()}
  return np.asarray(data)


def _first(data):
  return next(iter(data.values())) if isinstance(data, dict) else data


def _feature_shape(array):
  return [None] + (list(array.shape[1:]) if array.ndim > 1 else [1])


def _label_shape(array):
  shape = list(array.shape[1:])
  if shape and shape[0] == 1:
    shape = shape[1:]
  return [None] + shape


def _map(fn, data):
  return {k: fn(v) for k, v in data.items()} if isinstance(data, dict) else fn(data)


def _batch_features(x, indices):
  return _map(lambda a: a[indices].reshape((len(indices), -1)) if a.ndim == 1 else a[indices], x)


def _batch_labels(y, indices):
  return _map(lambda a: a[indices].reshape([len(indices)] + _label_shape(a)[1:]), y)


def _batches(x, y, batch_size, shuffle, epochs):
  """TF 1.15's DataFeeder: RandomState(42) permutations (a new one each epoch), slices of batch_size."""
  n = len(_first(x))
  if batch_size is None:
    batch_size = n
  elif batch_size <= 0:
    raise ValueError("Invalid batch_size %d." % batch_size)
  random_state = np.random.RandomState(42)
  indices = random_state.permutation(n) if shuffle else np.arange(n)
  offset, epoch = 0, 0
  while epochs is None or epoch < epochs:
    batch = indices[offset:min(n, offset + batch_size)]
    features = _batch_features(x, batch)
    labels = None if y is None else _batch_labels(y, batch)
    offset += batch_size
    if offset >= n:
      indices = random_state.permutation(n) if shuffle else np.arange(n)
      offset = 0
      epoch += 1
    yield features if y is None else (features, labels)


def check_batch_size(batch_size):
  if batch_size is not None and batch_size <= 0:
    raise ValueError("Invalid batch_size %d." % batch_size)


def array_input_fn(x, y=None, batch_size=None, shuffle=False, epochs=1):
  """An input_fn serving `x` (and `y`) as TF 1.15's data feeder did (see the module docstring)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  x, y = _as_arrays(x), _as_arrays(y)
  check_batch_size(batch_size)

  def dtype(a):
    return tf.as_dtype(a.dtype) if a.dtype.kind not in "OU" else tf.string

  x_types = _map(dtype, x)
  x_shapes = _map(lambda a: tf.TensorShape(_feature_shape(a)), x)
  if y is None:
    types, shapes = x_types, x_shapes
  else:
    types = (x_types, _map(dtype, y))
    shapes = (x_shapes, _map(lambda a: tf.TensorShape(_label_shape(a)), y))

  def input_fn():
    dataset = tf.data.Dataset.from_generator(
        lambda: _batches(x, y, batch_size, shuffle, epochs), types, shapes)
    return tf.data.make_one_shot_iterator(dataset).get_next()
  input_fn.tf1clip_feeds_arrays = True  # TF 1.15 fed these (feed_fn): predict reads to their end
  return input_fn


def _verify_input_args(x, y, input_fn, feed_fn, batch_size):
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  if input_fn is None:
    if x is None:
      raise ValueError("Either x or input_fn must be provided.")
    if tf.is_tensor(x) or (y is not None and tf.is_tensor(y)):
      raise ValueError("Inputs cannot be tensors. Please provide input_fn.")
    if feed_fn is not None:
      raise ValueError("Can not provide both feed_fn and x or y.")
  else:
    if x is not None or y is not None:
      raise ValueError("Can not provide both input_fn and x or y.")
    if batch_size is not None:
      raise ValueError("Can not provide both input_fn and batch_size.")


def _with_feed_fn(input_fn, feed_fn, hooks):
  """TF 1.15's `feed_fn`: called before each step, its dict fed (a FeedFnHook)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  hooks = list(hooks or [])
  if feed_fn is not None:
    hooks.append(tf.train.FeedFnHook(feed_fn))
  return input_fn, hooks


# ----------------------------------------------------------------------------------------------------
# The estimator

def _model_fn_args(fn):
  return _args(fn)


def monitors_to_hooks(monitors, estimator):
  """TF 1.15's `replace_monitors_with_hooks`: SessionRunHooks pass, the monitors run in one adapter (so each sees
  every monitor's fetches, as in TF 1.15)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  from tf1clip.contrib.learn import monitors as monitors_lib  # pylint: disable=import-outside-toplevel
  for monitor in monitors or []:
    if not isinstance(monitor, tf.train.SessionRunHook):
      raise ValueError("monitors: %r is not a tf.train.SessionRunHook or a tf.contrib.learn.monitors "
                       "monitor tf1clip serves" % (monitor,))
  return monitors_lib.replace_monitors_with_hooks(monitors, estimator)


class BaseEstimator(object):
  """What every contrib.learn estimator shares: config, model_dir, fit / evaluate / predict on a core Estimator."""

  def __init__(self, model_dir=None, config=None):
    from tf1clip.contrib.learn import run_config  # pylint: disable=import-outside-toplevel
    if config is None:
      config = run_config.RunConfig()
    if model_dir is not None and config.model_dir is not None and model_dir != config.model_dir:
      raise ValueError("model_dir are set both in constructor and RunConfig, but with different "
                       "values. In constructor: '{}', in RunConfig: '{}' ".format(
                           model_dir, config.model_dir))
    self._config = config
    self._model_dir = model_dir or config.model_dir
    self._core = None
    self._eval_metrics = None
    self._labels_info = None

  # -- the core estimator, built on first use (its model_dir is then fixed) ---------------------------
  def _core_estimator(self):
    if self._core is None:
      self._core = self._build_core_estimator()
      self._model_dir = self._core.model_dir
    return self._core

  def __new__(cls, *args, **kwargs):
    del args, kwargs
    if cls._build_core_estimator is BaseEstimator._build_core_estimator:
      abstract = sorted(name for name in ("_get_predict_ops", "_get_train_ops")
                        if getattr(cls, name) is getattr(BaseEstimator, name))
      if abstract:  # TF 1.15's abstract properties
        raise TypeError("Can't instantiate abstract class %s with abstract methods %s"
                        % (cls.__name__, ", ".join(abstract)))
    return super(BaseEstimator, cls).__new__(cls)

  def _build_core_estimator(self):
    """A subclass of TF 1.15's protocol: its _get_train_ops / _get_eval_ops / _get_predict_ops' ModelFnOps."""

    def model_fn_ops(features, labels, mode, config):
      del config
      if mode == ModeKeys.TRAIN:
        return self._get_train_ops(features, labels)
      if mode == ModeKeys.EVAL:
        return self._get_eval_ops(features, labels, getattr(self, "_eval_metrics", None))
      return self._get_predict_ops(features)
    return _core_estimator_of(self, model_fn_ops)

  def _get_train_ops(self, features, labels):
    """The TRAIN ModelFnOps (a subclass's, TF 1.15's abstract method)."""
    raise NotImplementedError("_get_train_ops not implemented in BaseEstimator")

  def _get_predict_ops(self, features):
    """The INFER ModelFnOps (a subclass's, TF 1.15's abstract method)."""
    raise NotImplementedError("_get_predict_ops not implemented in BaseEstimator")

  def _get_eval_ops(self, features, labels, metrics):
    """The EVAL ModelFnOps, with `metrics` (MetricSpecs) added (a subclass's)."""
    raise NotImplementedError("_get_eval_ops not implemented in BaseEstimator")

  @property
  def config(self):
    import copy  # pylint: disable=import-outside-toplevel
    return copy.deepcopy(self._core_estimator().config)

  @property
  def model_dir(self):
    return self._core_estimator().model_dir

  def get_variable_value(self, name):
    return self._core_estimator().get_variable_value(name)

  def get_variable_names(self):
    return self._core_estimator().get_variable_names()

  def _require_checkpoint(self, checkpoint_path=None):
    import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
    if checkpoint_path is None and not tf.train.latest_checkpoint(self.model_dir):
      raise NotFittedError("Couldn't find trained model at %s." % self.model_dir)

  # -- fit / evaluate / predict -------------------------------------------------------------------------
  def fit(self, x=None, y=None, input_fn=None, steps=None, batch_size=None, monitors=None,
          max_steps=None):
    """Trains: `steps` more steps, or up to `max_steps`, or until the input ends (TF 1.15's)."""
    if steps is not None and max_steps is not None:
      raise ValueError("Can not provide both steps and max_steps.")
    _verify_input_args(x, y, input_fn, None, batch_size)
    if x is not None:
      SKCompat(self).fit(x, y, batch_size, steps, max_steps, monitors)
      return self
    hooks = monitors_to_hooks(monitors, self)
    self._core_estimator().train(input_fn=self._wrap_input_fn(input_fn), hooks=hooks,
                                 steps=steps, max_steps=max_steps)
    return self

  def partial_fit(self, x=None, y=None, input_fn=None, steps=1, batch_size=None, monitors=None):
    return self.fit(x=x, y=y, input_fn=input_fn, steps=steps, batch_size=batch_size,
                    monitors=monitors)

  def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None,
               metrics=None, name=None, checkpoint_path=None, hooks=None, log_progress=True):
    """Evaluates: {metric: value, 'loss', 'global_step'}; `metrics` adds MetricSpecs (TF 1.15's)."""
    del log_progress
    _verify_input_args(x, y, input_fn, feed_fn, batch_size)
    if x is not None:
      return SKCompat(self).score(x, y, batch_size, steps, metrics, name)
    if metrics is not None and not isinstance(metrics, dict):
      raise ValueError("Metrics argument should be None or dict. Got %s." % metrics)
    self._require_checkpoint(checkpoint_path)
    input_fn, hooks = _with_feed_fn(input_fn, feed_fn, hooks)
    self._eval_metrics = metrics
    try:
      results = self._core_estimator().evaluate(
          input_fn=self._wrap_input_fn(input_fn), steps=steps, hooks=hooks,
          checkpoint_path=checkpoint_path, name=name)
      if _OWN_LOSS in results:
        results["loss"] = results.pop(_OWN_LOSS)
      elif type(self)._build_core_estimator is BaseEstimator._build_core_estimator:
        results.pop("loss", None)  # TF 1.15's BaseEstimator reported only the subclass's eval_metric_ops
      return results
    finally:
      self._eval_metrics = None

  def predict(self, x=None, input_fn=None, batch_size=None, outputs=None, as_iterable=True,
              iterate_batches=False):
    """Predictions of `x` or `input_fn`, an example at a time (as_iterable) or as arrays."""
    _verify_input_args(x, None, input_fn, None, batch_size)
    if x is not None:
      input_fn = array_input_fn(x, None, batch_size, shuffle=False, epochs=1)
    return self._infer_model(input_fn, outputs=outputs, as_iterable=as_iterable,
                             iterate_batches=iterate_batches)

  def _infer_model(self, input_fn, outputs=None, as_iterable=True, iterate_batches=False):
    import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
    self._require_checkpoint()
    core = self._core_estimator()
    queue_runners = []

    def recording_input_fn():
      result = self._wrap_input_fn(input_fn, labels=False)()
      queue_runners.extend(tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS))
      return result

    def batches():
      # TF 1.15 ran an input_fn without queue runners (and not fed) once: constant input is one batch.
      constant = not getattr(input_fn, "tf1clip_feeds_arrays", False)
      for batch in core.predict(input_fn=recording_input_fn, yield_single_examples=False):
        yield _filter_predictions(self._translate(batch), outputs)
        if constant and not queue_runners:
          return

    if iterate_batches:
      return batches()
    if as_iterable:
      return _examples(batches())
    return _concatenate(list(batches()))

  def _translate(self, batch):
    """The core estimator's batch of predictions as the contrib.learn estimator's."""
    return batch[_SINGLE] if isinstance(batch, dict) and _SINGLE in batch else batch

  def _wrap_input_fn(self, input_fn, labels=True):
    del labels
    return input_fn

  # -- export ------------------------------------------------------------------------------------------
  def export_savedmodel(self, export_dir_base, serving_input_fn, default_output_alternative_key=None,
                        assets_extra=None, as_text=False, checkpoint_path=None,
                        graph_rewrite_specs=None, strip_default_attrs=False):
    """A SavedModel of the predictions for `serving_input_fn`'s inputs (InputFnOps or a receiver)."""
    del graph_rewrite_specs
    if serving_input_fn is None:
      raise ValueError("serving_input_fn must be defined.")
    self._require_checkpoint(checkpoint_path)
    est = _estimator_api()

    def receiver_fn():
      result = serving_input_fn()
      if isinstance(result, InputFnOps):
        return est.export.ServingInputReceiver(result.features, result.default_inputs)
      return result
    # TF 1.15's signatures: one per output alternative ("default_input_alternative:<key>") and
    # "serving_default", each its build_standardized_signature_def (see _standardized_export_outputs)
    self._export_request = {"default_output_key": default_output_alternative_key}
    try:
      return self._core_estimator().export_saved_model(
          export_dir_base, receiver_fn, assets_extra=assets_extra, as_text=as_text,
          checkpoint_path=checkpoint_path)
    finally:
      self._export_request = None

  export_saved_model = export_savedmodel


def _standardized_export_outputs(ops, default_output_key):
  """The export outputs giving TF 1.15's SignatureDefs of a contrib.learn export: for every output alternative
  of `ops` (or the predictions, "default_output_alternative") "default_input_alternative:<key>", and
  "serving_default" for the default one; each built by saved_model_export_utils.build_standardized_signature_def
  from the serving inputs (classification / regression / predict, as TF 1.15 chose)."""
  from tf1clip.contrib.learn.utils import saved_model_export_utils as export_utils  # pylint: disable=import-outside-toplevel
  est = _estimator_api()

  class StandardizedOutput(est.export.ExportOutput):
    """A SignatureDef built the way TF 1.15's contrib.learn built it."""

    def __init__(self, problem_type, outputs):
      self._problem_type = problem_type
      self._outputs = outputs

    def as_signature_def(self, receiver_tensors):
      return export_utils.build_standardized_signature_def(receiver_tensors, self._outputs, self._problem_type)

  alternatives, default_key = export_utils.get_output_alternatives(ops, default_output_key)
  outputs = {"%s:%s" % (export_utils.DEFAULT_INPUT_ALTERNATIVE_KEY, key or "None"): StandardizedOutput(*value)
             for key, value in alternatives.items()}
  outputs["serving_default"] = StandardizedOutput(*alternatives[default_key])
  return outputs


def _examples(batch_iter):
  for batch in batch_iter:
    if isinstance(batch, dict):
      first = next(iter(batch.values()))
      for i in range(len(first)):
        yield {k: v[i] for k, v in batch.items()}
    else:
      for row in batch:
        yield row


def _concatenate(batches):
  if not batches:
    return batches
  if isinstance(batches[0], dict):
    return {k: np.concatenate([b[k] for b in batches], axis=0) for k in batches[0]}
  return np.concatenate(batches, axis=0)


def _estimator_api():
  from tf1clip.shims import tensorflow_estimator as estimator_shim  # pylint: disable=import-outside-toplevel
  return estimator_shim.v1_api()


def _identity_feature_engineering_fn(features, labels):
  return features, labels


_SINGLE = "__tf1clip_single__"  # the key of a model_fn's single (non-dict) prediction Tensor
_OWN_LOSS = "__tf1clip_loss__"  # the key of a model_fn's own "loss" eval metric inside tf.estimator


def _filter_predictions(batch, outputs):
  """TF 1.15's `outputs=`: only those keys of dict predictions (an error for a single Tensor)."""
  if not outputs:
    return batch
  if not isinstance(batch, dict):
    raise ValueError("outputs argument is not valid in case of non-dict predictions.")
  chosen = {k: v for k, v in batch.items() if k in outputs}
  if not chosen:
    raise ValueError("Expected to run at least one output from %s, provided %s."
                     % (batch.keys(), outputs))
  return chosen


def _signature(labels):
  """(dtype, shape) of the labels (or a dict of them), as TF 1.15's tensor_signature recorded them."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  if labels is None:
    return None
  if isinstance(labels, dict):
    return {k: _signature(v) for k, v in labels.items()}
  if isinstance(labels, tf.SparseTensor):
    return ("sparse", labels.dtype)
  return (labels.dtype, [None] + labels.shape.as_list()[1:] if labels.shape.rank else None)


def _placeholders(info):
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  if info is None:
    return None
  if isinstance(info, dict):
    return {k: _placeholders(v) for k, v in info.items()}
  if info[0] == "sparse":
    return tf.sparse_placeholder(info[1])
  return tf.placeholder(info[0], info[1])


class Estimator(BaseEstimator):
  """TF 1.15's `tf.contrib.learn.Estimator(model_fn, model_dir, config, params, feature_engineering_fn)`."""

  def __init__(self, model_fn=None, model_dir=None, config=None, params=None,
               feature_engineering_fn=None):
    super(Estimator, self).__init__(model_dir=model_dir, config=config)
    if model_fn is not None:
      if not callable(model_fn):
        raise TypeError("Estimator: model_fn must be callable; got %r" % (model_fn,))
      args = _model_fn_args(model_fn)
      if params is not None and "params" not in args:
        raise ValueError("Estimator's model_fn (%s) does not have a params argument, but params "
                         "(%s) were passed to the Estimator's constructor." % (model_fn, params))
    self._model_fn = model_fn
    self.params = params
    self._feature_engineering_fn = feature_engineering_fn or _identity_feature_engineering_fn
    self._eval_metrics = None
    self._labels_info = None

  def _call_model_fn(self, features, labels, mode, config=None):
    features, labels = self._feature_engineering_fn(features, labels)
    args = _model_fn_args(self._model_fn)
    kwargs = {}
    if "mode" in args:
      kwargs["mode"] = mode
    if "params" in args:
      kwargs["params"] = self.params
    if "config" in args:
      kwargs["config"] = config or self._config
    if "model_dir" in args:
      kwargs["model_dir"] = self._model_dir
    results = self._model_fn(features, labels, **kwargs)
    if isinstance(results, ModelFnOps):
      ops = results
    else:
      if not isinstance(results, (tuple, list)) or len(results) != 3:
        raise ValueError("Unrecognized value returned by model_fn, please return ModelFnOps.")
      ops = ModelFnOps(mode=mode, predictions=results[0], loss=results[1], train_op=results[2])
    if mode == ModeKeys.EVAL and self._eval_metrics:
      ops.eval_metric_ops.update(_make_metric_ops(self._eval_metrics, features, labels,
                                                  ops.predictions))
    return ops

  def _translate(self, batch):
    return batch[_SINGLE] if _SINGLE in batch else batch

  @property
  def model_fn(self):
    """TF 1.15's `public_model_fn(features, labels, mode, config)`: the ModelFnOps."""
    return lambda features, labels, mode, config: self._call_model_fn(
        features, labels, mode, config=config)

  def _build_core_estimator(self):
    return _core_estimator_of(self, lambda features, labels, mode, config: self._call_model_fn(
        features, labels, mode, config=config))

  # TF 1.15's Estimator methods of the BaseEstimator protocol
  def _get_train_ops(self, features, labels):
    return self._call_model_fn(features, labels, ModeKeys.TRAIN)

  def _get_eval_ops(self, features, labels, metrics):
    ops = self._call_model_fn(features, labels, ModeKeys.EVAL)
    features, labels = self._feature_engineering_fn(features, labels)
    if metrics:
      ops.eval_metric_ops.update(_make_metric_ops(metrics, features, labels, ops.predictions))
    return ops

  def _get_predict_ops(self, features):
    return self._call_model_fn(features, _placeholders(self._labels_info), ModeKeys.INFER)


def _core_estimator_of(owner, model_fn_ops):
  """A tf.estimator.Estimator running `model_fn_ops(features, labels, mode, config)` (a ModelFnOps) for the
  contrib.learn estimator `owner` (TF 1.15's label placeholders in INFER mode, its export signatures)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  est = _estimator_api()

  def core_model_fn(features, labels, mode, config):
    if mode == ModeKeys.TRAIN:
      owner._labels_info = _signature(labels)
    elif labels is None and mode == ModeKeys.INFER:
      labels = _placeholders(owner._labels_info)  # TF 1.15 gave model_fn label placeholders
    ops = model_fn_ops(features, labels, mode, config)
    metrics = {}
    for key, value in ops.eval_metric_ops.items():
      # TF 1.15 reported a model_fn's own "loss" metric (a head's) instead of the mean loss; tf.estimator
      # refuses the key, so it travels under another one (see `evaluate`)
      key = _OWN_LOSS if key == "loss" else key
      metrics[key] = tuple(value) if isinstance(value, (tuple, list)) else (value, tf.no_op())
    predictions = ops.predictions
    if predictions is not None and not isinstance(predictions, dict):
      predictions = {_SINGLE: predictions}
    export_outputs = None
    if mode == ModeKeys.INFER and getattr(owner, "_export_request", None) is not None:
      export_outputs = _standardized_export_outputs(ops, owner._export_request["default_output_key"])
    elif mode == ModeKeys.INFER:
      export_outputs = {"serving_default": est.export.PredictOutput(
          {k if k != _SINGLE else "output": v for k, v in predictions.items()})}
    return est.EstimatorSpec(
        mode=mode, predictions=predictions, loss=ops.loss,
        train_op=ops.train_op if mode == ModeKeys.TRAIN else None,
        eval_metric_ops=metrics, export_outputs=export_outputs,
        training_chief_hooks=ops.training_chief_hooks, training_hooks=ops.training_hooks,
        scaffold=ops.scaffold)

  return est.Estimator(model_fn=core_model_fn, model_dir=owner._model_dir,
                       config=owner._config)


class SKCompat(object):
  """scikit-learn style `fit(x, y)`, `score`, `predict` of a contrib.learn estimator (TF 1.15's)."""

  def __init__(self, estimator):
    if not isinstance(estimator, BaseEstimator):
      raise TypeError("SKCompat: estimator must be a tf.contrib.learn estimator; got %r"
                      % (estimator,))
    self._estimator = estimator

  def fit(self, x, y, batch_size=128, steps=None, max_steps=None, monitors=None):
    input_fn = array_input_fn(x, y, batch_size, shuffle=True, epochs=None)
    self._estimator.fit(input_fn=input_fn, steps=steps, max_steps=max_steps, monitors=monitors)
    return self

  def score(self, x, y, batch_size=128, steps=None, metrics=None, name=None):
    if metrics is not None and not isinstance(metrics, dict):
      raise ValueError("Metrics argument should be None or dict. Got %s." % metrics)
    input_fn = array_input_fn(x, y, batch_size, shuffle=False, epochs=1)
    return self._estimator.evaluate(input_fn=input_fn, steps=steps, metrics=metrics, name=name)

  def predict(self, x, batch_size=128, outputs=None):
    input_fn = array_input_fn(x, None, batch_size, shuffle=False, epochs=1)
    return _concatenate(list(self._estimator._infer_model(  # pylint: disable=protected-access
        input_fn, outputs=outputs, iterate_batches=True)))

  def get_params(self, deep=True):
    del deep
    return {"estimator": self._estimator}


def infer_real_valued_columns_from_input_fn(input_fn):
  """One real-valued column per feature of `input_fn()` (TF 1.15's `layers.infer_real_valued_columns`)."""
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  from tf1clip.contrib.layers.python.layers import feature_column  # pylint: disable=import-outside-toplevel
  with tf.Graph().as_default():
    features = input_fn()
    if isinstance(features, (tuple, list)):
      features = features[0]
    return feature_column.infer_real_valued_columns(features)


def infer_real_valued_columns_from_input(x):
  """`infer_real_valued_columns_from_input_fn` of an input_fn serving the array (or dict) `x`."""
  if x is None:
    raise ValueError("Either x or input_fn must be provided.")
  return infer_real_valued_columns_from_input_fn(array_input_fn(x))

