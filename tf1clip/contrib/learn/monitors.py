"""`tf.contrib.learn.monitors`: TF 1.15's monitors as the SessionRunHooks that replaced them.

Place in the data flow (DESIGN.md): tf.compat.v1.train hooks <- **contrib.learn.monitors** <-
contrib.learn.estimator, contrib.learn.experiment.

TF 1.15 itself ran every monitor through `RunHookAdapterForMonitors`; here each monitor is a hook. Those
with a TF hook of the same behaviour are that hook under the monitor's signature (`StopAtStep`,
`CheckpointSaver`, `StepCounter`, `SummarySaver`, `NanLoss`, `PrintTensor`); `ValidationMonitor` is ours:
every `every_n_steps` steps, when a newer checkpoint exists and `check_interval_secs` have passed, it
evaluates the estimator it was given to and keeps `best_step` / `best_value` / `best_metrics`; after
`early_stopping_rounds` steps without a better `early_stopping_metric` it stops training, as TF 1.15's did.
"""

import time

from tf1clip.contrib import catalog


def _tf():
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  return tf


class NanLossDuringTrainingError(RuntimeError):
  def __str__(self):
    return "NaN loss during training."


def StopAtStep(num_steps=None, last_step=None):  # pylint: disable=invalid-name
  """Stops after `num_steps` more steps or at `last_step` (a StopAtStepHook)."""
  return _tf().train.StopAtStepHook(num_steps=num_steps, last_step=last_step)


def CheckpointSaver(checkpoint_dir, save_secs=None, save_steps=None, saver=None,  # pylint: disable=invalid-name
                    checkpoint_basename="model.ckpt", scaffold=None):
  """Saves checkpoints every `save_secs` or `save_steps` (a CheckpointSaverHook)."""
  return _tf().train.CheckpointSaverHook(checkpoint_dir, save_secs=save_secs,
                                         save_steps=save_steps, saver=saver,
                                         checkpoint_basename=checkpoint_basename,
                                         scaffold=scaffold)


def StepCounter(every_n_steps=100, output_dir=None, summary_writer=None):  # pylint: disable=invalid-name
  """Writes global_step/sec every `every_n_steps` steps (a StepCounterHook)."""
  return _tf().train.StepCounterHook(every_n_steps=every_n_steps, output_dir=output_dir,
                                     summary_writer=summary_writer)


def SummarySaver(summary_op, save_steps=100, output_dir=None, summary_writer=None,  # pylint: disable=invalid-name
                 scaffold=None):
  """Writes `summary_op` every `save_steps` steps (a SummarySaverHook)."""
  return _tf().train.SummarySaverHook(save_steps=save_steps, output_dir=output_dir,
                                      summary_writer=summary_writer, scaffold=scaffold,
                                      summary_op=summary_op)


def NanLoss(loss_tensor, every_n_steps=100, fail_on_nan_loss=True):  # pylint: disable=invalid-name
  """Stops (or fails) on a NaN loss (a NanTensorHook; it checks every step, not every_n_steps)."""
  del every_n_steps
  return _tf().train.NanTensorHook(loss_tensor, fail_on_nan_loss=fail_on_nan_loss)


def PrintTensor(tensor_names, every_n=100, first_n=1):  # pylint: disable=invalid-name
  """Logs the named tensors every `every_n` steps (a LoggingTensorHook; first_n is not kept)."""
  del first_n
  if isinstance(tensor_names, dict):
    tensors = tensor_names
  else:
    tensors = {name: name for name in tensor_names}
  return _tf().train.LoggingTensorHook(tensors, every_n_iter=every_n)


def replace_monitors_with_hooks(monitors_or_hooks, estimator):
  """The hooks of a list of monitors and hooks (each monitor here is a hook already)."""
  from tf1clip.contrib.learn import estimator as estimator_lib  # pylint: disable=import-outside-toplevel
  return estimator_lib.monitors_to_hooks(monitors_or_hooks, estimator)


def _validation_monitor_class():
  tf = _tf()

  class ValidationMonitor(tf.train.SessionRunHook):
    """Evaluates the estimator being trained every N steps; optional early stopping (TF 1.15's)."""

    def __init__(self, x=None, y=None, input_fn=None, batch_size=None, eval_steps=None,
                 every_n_steps=100, metrics=None, hooks=None, early_stopping_rounds=None,
                 early_stopping_metric="loss", early_stopping_metric_minimize=True, name=None,
                 check_interval_secs=5):
      if x is None and input_fn is None:
        raise ValueError("Either x or input_fn should be provided.")
      if every_n_steps is None or every_n_steps < 1:
        raise ValueError("ValidationMonitor: every_n_steps must be >= 1; got %r" % (every_n_steps,))
      self.x, self.y, self.input_fn, self.batch_size = x, y, input_fn, batch_size
      self.eval_steps, self.metrics, self.hooks, self.name = eval_steps, metrics, hooks, name
      self._every_n_steps = every_n_steps
      self.early_stopping_rounds = early_stopping_rounds
      self.early_stopping_metric = early_stopping_metric
      self.early_stopping_metric_minimize = early_stopping_metric_minimize
      self._check_interval_secs = check_interval_secs
      self._estimator = None
      self._best_value_step = None
      self._best_value = None
      self._best_metrics = None
      self._early_stopped = False
      self._latest_path = None
      self._latest_path_step = None
      self._last_eval_time = None
      self._last_checked_step = None

    def set_estimator(self, estimator):
      self._estimator = estimator

    early_stopped = property(lambda self: self._early_stopped)
    best_step = property(lambda self: self._best_value_step)
    best_value = property(lambda self: self._best_value)
    best_metrics = property(lambda self: self._best_metrics)

    def begin(self):
      if self._estimator is None:
        raise ValueError("ValidationMonitor: pass it to an estimator's fit(monitors=[...]) (it "
                         "evaluates that estimator)")
      self._global_step = tf.train.get_global_step()

    def before_run(self, run_context):
      return tf.train.SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values):
      step = int(run_values.results)
      if self._last_checked_step is not None and step - self._last_checked_step < self._every_n_steps:
        return
      self._last_checked_step = step
      if self._check_interval_secs and self._last_eval_time is not None and (
          time.time() - self._last_eval_time < self._check_interval_secs):
        return
      latest = tf.train.latest_checkpoint(self._estimator.model_dir)
      if latest is None or latest == self._latest_path:
        return
      self._latest_path = latest
      self._last_eval_time = time.time()
      if self.x is not None:
        results = self._estimator.evaluate(x=self.x, y=self.y, batch_size=self.batch_size,
                                           steps=self.eval_steps, metrics=self.metrics,
                                           hooks=self.hooks, name=self.name)
      else:
        results = self._estimator.evaluate(input_fn=self.input_fn, steps=self.eval_steps,
                                           metrics=self.metrics, hooks=self.hooks,
                                           name=self.name)
      if self.early_stopping_rounds is None:
        return
      if self.early_stopping_metric not in results:
        raise ValueError("Metric %s missing from outputs %s." % (
            self.early_stopping_metric, set(results.keys())))
      value = results[self.early_stopping_metric]
      better = (self._best_value is None
                or (value < self._best_value if self.early_stopping_metric_minimize
                    else value > self._best_value))
      if better:
        self._best_value, self._best_value_step, self._best_metrics = value, step, results
      if step - self._best_value_step >= self.early_stopping_rounds:
        self._early_stopped = True
        run_context.request_stop()

  ValidationMonitor.__module__ = __name__
  return ValidationMonitor


_LAZY = {}


def __getattr__(name):  # pylint: disable=invalid-name
  if name == "ValidationMonitor":
    if name not in _LAZY:
      _LAZY[name] = _validation_monitor_class()
    return _LAZY[name]
  return _hook(name)


_hook = catalog.missing_attribute_hook("tf.contrib.learn.monitors")
