"""`tf.contrib.learn.Experiment` and `learn_runner`: TF 1.15's train / evaluate schedules on tf.estimator.

Place in the data flow (DESIGN.md): contrib.learn.estimator, contrib.learn.monitors <-
**contrib.learn.experiment** <- compat <- cli.

An Experiment holds an estimator (a contrib.learn one, or a `tf.estimator.Estimator`) and its train / eval
input functions, and runs TF 1.15's schedules: `train` (to `train_steps`), `evaluate` (`eval_steps`
batches, named "one_pass"), `train_and_evaluate` (training with a ValidationMonitor every
`min_eval_frequency` steps, default 1, then a final evaluation; returns `(eval_result, export_results)`),
`continuous_eval`, `continuous_train_and_eval`, `test` (one step each) and `run_std_server`
(contrib.learn.learn_runner picks one). Export strategies are run as TF 1.15 ran them (each
strategy's `export(estimator, export_dir, checkpoint_path=, eval_result=)`).
"""

import contextlib
import math
import os
import time

from tf1clip.contrib.learn import estimator as estimator_lib
from tf1clip.contrib.learn import monitors as monitors_lib


def _tf():
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  return tf


@contextlib.contextmanager
def _saved_attr(obj, attr):
  saved = getattr(obj, attr)
  try:
    yield
  finally:
    setattr(obj, attr, saved)


class Experiment(object):
  """TF 1.15's `tf.contrib.learn.Experiment` (its arguments, defaults and schedules)."""

  def __init__(self, estimator, train_input_fn, eval_input_fn, eval_metrics=None, train_steps=None,
               eval_steps=100, train_monitors=None, eval_hooks=None, local_eval_frequency=None,
               eval_delay_secs=120, continuous_eval_throttle_secs=60, min_eval_frequency=None,
               delay_workers_by_global_step=False, export_strategies=None,
               train_steps_per_iteration=None, checkpoint_and_export=False, saving_listeners=None,
               check_interval_secs=5):
    core = estimator_lib._estimator_api().Estimator  # pylint: disable=protected-access
    if isinstance(estimator, core):
      self._core_estimator_used = True
      if eval_metrics is not None:
        raise ValueError("`eval_metrics` must be `None` with `tf.estimator.Estimator`. Use "
                         "`eval_metric_ops` in `tf.estimator.EstimatorSpec` instead.")
    else:
      self._core_estimator_used = False
      if not isinstance(estimator, estimator_lib.BaseEstimator):
        raise ValueError("`estimator` must implement `tf.contrib.learn.Evaluable` or "
                         "`tf.estimator.Estimator`.")
      if saving_listeners is not None:
        raise ValueError("`saving_listeners` must be `None` with `tf.contrib.learn.Estimator`.")
    if train_steps_per_iteration is not None and not isinstance(train_steps_per_iteration, int):
      raise ValueError("`train_steps_per_iteration` must be an integer.")
    self._estimator = estimator
    self._train_input_fn = train_input_fn
    self._eval_input_fn = eval_input_fn
    self._eval_metrics = eval_metrics
    self._train_steps = train_steps
    self._eval_steps = eval_steps
    self._local_eval_frequency = local_eval_frequency
    self._eval_delay_secs = eval_delay_secs
    self._continuous_eval_throttle_secs = continuous_eval_throttle_secs
    self._checkpoint_and_export = checkpoint_and_export
    self._saving_listeners = saving_listeners
    self._min_eval_frequency = min_eval_frequency if min_eval_frequency is not None else 1
    self._check_interval_secs = check_interval_secs
    self._delay_workers_by_global_step = delay_workers_by_global_step
    self._train_monitors = list(train_monitors or [])
    self._eval_hooks = list(eval_hooks or [])
    self._train_steps_per_iteration = train_steps_per_iteration
    self._set_export_strategies(export_strategies)

  estimator = property(lambda self: self._estimator)
  eval_metrics = property(lambda self: self._eval_metrics)
  train_steps = property(lambda self: self._train_steps)
  eval_steps = property(lambda self: self._eval_steps)

  def _set_export_strategies(self, values):
    if values is None:
      self._export_strategies = ()
    elif hasattr(values, "export") and hasattr(values, "name"):
      self._export_strategies = (values,)
    else:
      for value in values:
        if not (hasattr(value, "export") and hasattr(value, "name")):
          raise ValueError("`export_strategies` must be an ExportStrategy, an iterable of "
                           "ExportStrategy, or `None`, found %s." % value)
      self._export_strategies = tuple(values)

  def extend_train_hooks(self, additional_hooks):
    self._train_monitors.extend(additional_hooks)

  def reset_export_strategies(self, new_export_strategies=None):
    old = self._export_strategies
    self._set_export_strategies(new_export_strategies)
    return old

  # -- schedules ---------------------------------------------------------------------------------------
  def train(self, delay_secs=None):
    extra_hooks = []
    if delay_secs is None:
      task_id = self._estimator.config.task_id or 0
      if self._delay_workers_by_global_step:
        extra_hooks.append(_tf().train.GlobalStepWaiterHook(int(8000.0 * math.log(task_id + 1))))
        delay_secs = 0
      else:
        delay_secs = min(60, task_id * 5)
    if delay_secs > 0:
      time.sleep(delay_secs)
    return self._call_train(input_fn=self._train_input_fn, max_steps=self._train_steps,
                            hooks=self._train_monitors + extra_hooks,
                            saving_listeners=self._saving_listeners)

  def evaluate(self, delay_secs=None, name=None):
    if delay_secs is None:
      delay_secs = self._eval_delay_secs
    if delay_secs:
      time.sleep(delay_secs)
    return self._call_evaluate(input_fn=self._eval_input_fn, steps=self._eval_steps,
                               metrics=self._eval_metrics, name=name or "one_pass",
                               hooks=self._eval_hooks)

  def local_run(self):
    with _saved_attr(self, "_min_eval_frequency"):
      self._min_eval_frequency = self._local_eval_frequency
      return self.train_and_evaluate()

  def train_and_evaluate(self):
    with _saved_attr(self, "_train_monitors"):
      self._train_monitors = list(self._train_monitors)
      if self._min_eval_frequency:
        self._train_monitors.append(monitors_lib.ValidationMonitor(
            input_fn=self._eval_input_fn, eval_steps=self._eval_steps, metrics=self._eval_metrics,
            every_n_steps=self._min_eval_frequency, check_interval_secs=self._check_interval_secs,
            hooks=self._eval_hooks, name="one_pass"))
      self.train(delay_secs=0)
    eval_result = self._call_evaluate(input_fn=self._eval_input_fn, steps=self._eval_steps,
                                      metrics=self._eval_metrics, name=None,
                                      hooks=self._eval_hooks)
    return eval_result, self._maybe_export(eval_result)

  def _has_training_stopped(self, eval_result):
    if not eval_result:
      return False
    global_step = eval_result.get("global_step")
    return bool(global_step and self._train_steps and global_step >= self._train_steps)

  def _continuous_eval(self, input_fn, name, delay_secs, throttle_delay_secs,
                       evaluate_checkpoint_only_once=True, continuous_eval_predicate_fn=None,
                       export=True):
    if continuous_eval_predicate_fn is not None and not callable(continuous_eval_predicate_fn):
      raise ValueError("`continuous_eval_predicate_fn` must be a callable, or None.")
    delay_secs = self._eval_delay_secs if delay_secs is None else delay_secs
    if throttle_delay_secs is None:
      throttle_delay_secs = self._continuous_eval_throttle_secs
    if delay_secs:
      time.sleep(delay_secs)
    previous_path, eval_result = None, None
    while (continuous_eval_predicate_fn is None
           or _call_predicate(continuous_eval_predicate_fn, eval_result, previous_path)):
      if self._has_training_stopped(eval_result):
        return
      start = time.time()
      latest = _tf().train.latest_checkpoint(self._estimator.model_dir)
      if not latest or (evaluate_checkpoint_only_once and latest == previous_path):
        eval_result = {}
      else:
        eval_result = self._call_evaluate(input_fn=input_fn, steps=self._eval_steps,
                                          metrics=self._eval_metrics, name=name,
                                          checkpoint_path=latest, hooks=self._eval_hooks) or {}
        if export:
          self._maybe_export(eval_result, checkpoint_path=latest)
        previous_path = latest
      duration = time.time() - start
      if duration < throttle_delay_secs:
        time.sleep(throttle_delay_secs - duration)

  def continuous_eval(self, delay_secs=None, throttle_delay_secs=None,
                      evaluate_checkpoint_only_once=True, continuous_eval_predicate_fn=None,
                      name="continuous"):
    self._continuous_eval(self._eval_input_fn, name, delay_secs, throttle_delay_secs,
                          evaluate_checkpoint_only_once, continuous_eval_predicate_fn)

  def continuous_eval_on_train_data(self, delay_secs=None, throttle_delay_secs=None,
                                    continuous_eval_predicate_fn=None,
                                    name="continuous_on_train_data"):
    self._continuous_eval(self._train_input_fn, name, delay_secs, throttle_delay_secs,
                          continuous_eval_predicate_fn=continuous_eval_predicate_fn, export=False)

  def continuous_train_and_eval(self, continuous_eval_predicate_fn=None):
    if continuous_eval_predicate_fn is not None and not callable(continuous_eval_predicate_fn):
      raise ValueError("`continuous_eval_predicate_fn` must be a callable, or None.")
    per_iteration = 1000
    if self._train_steps_per_iteration is not None:
      per_iteration = self._train_steps_per_iteration
    elif self._train_steps is not None:
      per_iteration = int(self._train_steps / 10)
    eval_result, export_results, latest = None, None, None
    while (continuous_eval_predicate_fn is None or _call_predicate(
        continuous_eval_predicate_fn, eval_result, latest if eval_result else None)):
      if self._has_training_stopped(eval_result):
        break
      self._call_train(input_fn=self._train_input_fn, steps=per_iteration,
                       hooks=self._train_monitors, saving_listeners=self._saving_listeners)
      latest = _tf().train.latest_checkpoint(self._estimator.model_dir)
      eval_result = self._call_evaluate(input_fn=self._eval_input_fn, steps=self._eval_steps,
                                        metrics=self._eval_metrics, name="one_pass",
                                        checkpoint_path=latest, hooks=self._eval_hooks)
      export_results = self._maybe_export(eval_result)
    return eval_result, export_results

  def test(self):
    self._call_train(input_fn=self._train_input_fn, steps=1, hooks=self._train_monitors,
                     saving_listeners=self._saving_listeners)
    eval_result = self._call_evaluate(input_fn=self._eval_input_fn, steps=1,
                                      metrics=self._eval_metrics, name="one_pass")
    self._maybe_export(eval_result)
    return eval_result

  def run_std_server(self):
    self._start_server().join()

  def _start_server(self):
    config = self._estimator.config
    if (not config.cluster_spec or not config.task_type or not config.master
        or config.task_id is None):
      raise ValueError("Could not start server; be sure to specify cluster_spec, task_type, "
                       "master, and task in RunConfig or set the TF_CONFIG environment variable.")
    server = _tf().train.Server(config.cluster_spec, job_name=config.task_type,
                                task_index=config.task_id,
                                config=getattr(config, "tf_config", None), start=False)
    server.start()
    return server

  def _maybe_export(self, eval_result, checkpoint_path=None):
    base = os.path.join(self._estimator.model_dir, "export")
    return [strategy.export(self._estimator, os.path.join(base, strategy.name),
                            checkpoint_path=checkpoint_path, eval_result=eval_result)
            for strategy in self._export_strategies]

  def _call_train(self, input_fn=None, steps=None, hooks=None, max_steps=None,
                  saving_listeners=None):
    hooks = estimator_lib.monitors_to_hooks(hooks, self._estimator)
    if self._core_estimator_used:
      return self._estimator.train(input_fn=input_fn, steps=steps, max_steps=max_steps,
                                   hooks=hooks, saving_listeners=saving_listeners)
    return self._estimator.fit(input_fn=input_fn, steps=steps, max_steps=max_steps,
                               monitors=hooks)

  def _call_evaluate(self, input_fn=None, steps=None, metrics=None, name=None,
                     checkpoint_path=None, hooks=None):
    if self._core_estimator_used:
      return self._estimator.evaluate(input_fn=input_fn, steps=steps, name=name,
                                      checkpoint_path=checkpoint_path, hooks=hooks)
    return self._estimator.evaluate(input_fn=input_fn, steps=steps, metrics=metrics, name=name,
                                    checkpoint_path=checkpoint_path, hooks=hooks)


def _call_predicate(predicate, eval_result, checkpoint_path):
  import inspect  # pylint: disable=import-outside-toplevel
  if "checkpoint_path" in inspect.signature(predicate).parameters:
    return predicate(eval_result, checkpoint_path=checkpoint_path)
  return predicate(eval_result)
