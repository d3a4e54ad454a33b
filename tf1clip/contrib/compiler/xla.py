"""`tf.contrib.compiler.xla`: `compile` is `tf.compat.v1.xla.experimental.compile`; `estimator_model_fn`, TF 1.15's
decorator that compiles an Estimator's training and evaluation step with XLA.

What `estimator_model_fn(model_fn)` does, as in TF 1.15: in TRAIN the model_fn runs inside `xla.compile` and the
step returns its loss after the train op (the spec's train_op becomes that loss); in EVAL the compiled step
returns the loss and the tensors of a TPUEstimatorSpec-style `eval_metrics = (metric_fn, tensors)`, and
metric_fn builds the metric ops outside the compiled step; PREDICT raises NotImplementedError. A spec's
`eval_metric_ops` is refused (use `eval_metrics`), its `scaffold` ignored with a warning (`scaffold_fn` is
used); with `params["use_tpu"]` the model_fn runs uncompiled. Variables must be resource variables
(`use_resource=True` or `tf.compat.v1.enable_resource_variables()`), which XLA requires, as TF 1.15 said.
"""

import inspect

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

compile = tf.compat.v1.xla.experimental.compile  # pylint: disable=redefined-builtin


def _estimator():
  """tensorflow-estimator 2.15's model_fn module, imported when a decorated model_fn is first called (the
  shim it needs is not applied by importing contrib.compiler)."""
  from tensorflow_estimator.python.estimator import model_fn  # pylint: disable=g-import-not-at-top
  return model_fn


def _fn_args(function):
  """The names of `function`'s arguments (a decorated function's target's; a bound method's without self)."""
  return tuple(inspect.signature(function).parameters)


def estimator_model_fn(target_model_fn=None):
  """Decorates a model_fn so that its training and evaluation steps are compiled with XLA.

  `@estimator_model_fn()` over a model_fn, or `estimator_model_fn(model_fn)`.
  """
  def decorated(function):
    return tf.__internal__.decorator.make_decorator(function, _CompiledModelFn(function))
  return decorated(target_model_fn) if target_model_fn else decorated


class _Captured:
  """What the compiled step's Python side hands back out (captured once)."""

  def __init__(self):
    self.value = None


class _CompiledModelFn:
  """Calls the user's model_fn inside xla.compile for TRAIN and EVAL."""

  def __init__(self, function):
    self._model_fn = function

  def __call__(self, features, labels, mode, params):
    lib = _estimator()
    if params.get("use_tpu"):
      return self._call_model_fn(features, labels, mode, params)
    scaffold_fn = _Captured()
    if mode == lib.ModeKeys.TRAIN:
      def train_step():
        spec = self._call_model_fn(features, labels, lib.ModeKeys.TRAIN, params)
        scaffold_fn.value = getattr(spec, "scaffold_fn", None)
        with tf.control_dependencies([spec.train_op]):
          return tf.identity(spec.loss)
      (loss,) = compile(train_step)
      return lib.EstimatorSpec(mode=mode, loss=loss, train_op=tf.identity(loss), scaffold=_scaffold(scaffold_fn))
    if mode == lib.ModeKeys.EVAL:
      metric_fn = _Captured()

      def eval_step():
        spec = self._call_model_fn(features, labels, lib.ModeKeys.EVAL, params)
        scaffold_fn.value = getattr(spec, "scaffold_fn", None)
        function, tensors = getattr(spec, "eval_metrics", None) or (None, [])
        if isinstance(tensors, dict):
          tensors = [tensors[name] for name in _fn_args(function)]
        metric_fn.value = function
        return tuple([spec.loss] + list(tensors))
      outputs = compile(eval_step)
      metric_ops = metric_fn.value(*outputs[1:]) if metric_fn.value else None
      return lib.EstimatorSpec(mode=mode, loss=outputs[0], eval_metric_ops=metric_ops,
                               scaffold=_scaffold(scaffold_fn))
    raise NotImplementedError("%s is not implemented, only TRAIN and EVAL are supported" % mode)

  def _call_model_fn(self, features, labels, mode, params):
    args = _fn_args(self._model_fn)
    kwargs = {}
    if "labels" in args:
      kwargs["labels"] = labels
    elif labels is not None:
      raise ValueError("model_fn does not take labels, but input_fn returns labels.")
    if "mode" in args:
      kwargs["mode"] = mode
    if "params" in args:
      kwargs["params"] = params
    return _checked(self._model_fn(features=features, **kwargs))


def _scaffold(captured):
  if not captured.value:
    return None
  scaffold = captured.value()
  if scaffold is None:
    raise ValueError("TPUEstimatorSpec.scaffold_fn returns None, which is not allowed")
  return scaffold


def _checked(spec):
  """The spec, after TF 1.15's checks of what XLA compilation cannot take."""
  if getattr(spec, "scaffold", None):
    tf.compat.v1.logging.warning("EstimatorSpec.scaffold is ignored with XLA compilation. "
                                 "Please use TPUEstimatorSpec.scaffold_fn instead.")
  if getattr(spec, "eval_metric_ops", None):
    raise ValueError("EstimatorSpec.eval_metric_ops is not supported with XLA compilation. "
                     "Please use TPUEstimatorSpec.eval_metrics instead.")
  eval_metrics = getattr(spec, "eval_metrics", None) if spec.mode == _estimator().ModeKeys.EVAL else None
  if eval_metrics:
    function, tensors = eval_metrics
    if isinstance(tensors, dict):
      args = _fn_args(function)
      missing = [name for name in args if name not in tensors]
      extra = [name for name in tensors if name not in args]
      if missing:
        raise ValueError("Arguments %s are needed by metric_fn (first element of TPUEstimatorSpec.eval_metrics) "
                         "but they are not provided by evaluation tensors (second element of "
                         "TPUEstimatorSpec.eval_metrics)." % missing)
      if extra:
        raise ValueError("Arguments %s are provided by evaluation tensors (second element of "
                         "TPUEstimatorSpec.eval_metrics) but they are not needed by metric_fn (first element of "
                         "TPUEstimatorSpec.eval_metrics)." % extra)
  return spec


__getattr__ = _catalog.module_getattr(__name__)
