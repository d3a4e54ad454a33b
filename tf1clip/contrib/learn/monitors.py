"""`tf.contrib.learn.monitors`: TF 1.15's training monitors, each also a SessionRunHook.

The monitor protocol is TF 1.15's: `begin(max_steps)`, `step_begin(step)` -> the tensors (or names) to fetch,
`step_end(step, outputs)` -> True to stop, `post_step(step, session)`, `end(session)`, and the epoch calls.
`EveryN` runs its `every_n_*` callbacks on the steps <= first_n_steps, on every step at least every_n_steps after
the last active one, and on max_steps. The monitors are TF 1.15's: StopAtStep, PrintTensor, LoggingTrainable,
SummarySaver, ValidationMonitor (evaluates every N steps on a new checkpoint, early stopping), CaptureVariable,
GraphDump, ExportMonitor, CheckpointSaver, StepCounter, NanLoss; `get_default_monitors` gives TF 1.15's defaults.

What is special here: TF 1.15 ran monitors only through `RunHookAdapterForMonitors` (served too, as is
`replace_monitors_with_hooks`). A `BaseMonitor` here is itself a SessionRunHook that drives its own protocol the
way that adapter does (the step is the global step + 1 before a run), so an estimator taking hooks takes it as is.
"""

import copy
import inspect
import os
import time

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

V1 = tf.compat.v1


class NanLossDuringTrainingError(RuntimeError):
  """The loss became NaN (raised by NanLoss with fail_on_nan_loss=True)."""

  def __str__(self):
    return "NaN loss during training."


# --- what a monitor fetches -------------------------------------------------------------------------------------
def _as_graph_element(obj):
  """The Tensor or Operation of the default graph a monitor asked for (the object, or its name)."""
  graph = V1.get_default_graph()
  if isinstance(obj, str):
    if ":" in obj:
      return graph.as_graph_element(obj)
    try:
      graph.as_graph_element(obj + ":1")
    except (KeyError, ValueError):
      return graph.as_graph_element(obj + ":0")
    raise ValueError("Name %s is ambiguous, as this `Operation` has multiple outputs (at least 2)." % obj)
  if getattr(obj, "graph", None) != graph:
    raise ValueError("Passed %s should have graph attribute that is equal to current graph %s." % (obj, graph))
  return obj


def _extract_output(outputs, request):
  """The fetched value of `request` (the key a monitor used: a name or the tensor, else the tensor's name)."""
  return outputs[request] if request in outputs else outputs[request.name]


def _requests_of(monitor, step):
  """What `monitor.step_begin(step)` asks to fetch, as a list."""
  asked = monitor.step_begin(step)
  if not asked:
    return []
  if not isinstance(asked, list):
    raise ValueError("Monitor.step_begin should return a list.")
  return asked


def _fetch_args(global_step, requests):
  """The SessionRunArgs of one step: the global step, and the requests keyed as the monitors spelled them."""
  fetches = {"global_step": global_step}
  if requests:
    fetches["monitors"] = {request: _as_graph_element(request) for request in requests}
  return V1.train.SessionRunArgs(fetches)


def _log_fetched(prefix, step, tags, outputs):
  """Logs "<prefix>Step <step>: tag = value, ..." for the tags whose tensor was fetched."""
  shown = ["%s = %s" % (tag, str(_extract_output(outputs, name))) for tag, name in tags.items() if name in outputs]
  V1.logging.info(prefix + "Step %d: %s", step, ", ".join(shown))


# --- the protocol ------------------------------------------------------------------------------------------------
class BaseMonitor(V1.train.SessionRunHook):
  """TF 1.15's monitor base class: its step / epoch protocol, checked; also a SessionRunHook running it."""

  def __init__(self):
    self._estimator = None
    self._begun = False
    self._max_steps = None
    self._current_step = None
    self._current_epoch = None
    self._next_step = None  # the hook side: the step the next run is
    self._global_step = None

  @property
  def run_on_all_workers(self):
    """Whether a non-chief worker runs this monitor too."""
    return False

  def set_estimator(self, estimator):
    """Called by the estimator this monitor watches."""
    if estimator is None:
      raise ValueError("Missing estimator.")
    self._estimator = estimator

  def begin(self, max_steps=None):
    """Training begins (the default graph is the training graph)."""
    if self._begun:
      raise ValueError("begin called twice without end.")
    self._begun = True
    self._max_steps = max_steps
    self._next_step = None

  def end(self, session=None):
    """Training (or evaluation) ends."""
    del session
    if not self._begun:
      raise ValueError("end called without begin.")
    self._begun = False
    self._max_steps = None

  def epoch_begin(self, epoch):
    """An epoch begins (epochs do not nest)."""
    if self._current_epoch is not None:
      raise ValueError("epoch_begin called twice without epoch_end.")
    if epoch < 0:
      raise ValueError("Invalid epoch %s." % epoch)
    self._current_epoch = epoch

  def epoch_end(self, epoch):
    """The epoch begun last ends."""
    if epoch != self._current_epoch:
      raise ValueError("epoch_end expected %s but got %s." % (self._current_epoch, epoch))
    self._current_epoch = None

  def step_begin(self, step):
    """A step begins: returns the Tensors / Operations (or their names) to fetch with it."""
    beyond = self._max_steps is not None and step > self._max_steps
    if step < 0 or beyond:
      raise ValueError("Invalid step %s." % step)
    self._current_step = step
    return []

  def step_end(self, step, output):
    """A step ended, `output` holding the fetched values by request: returns True to stop training."""
    del output
    if step != self._current_step:
      raise ValueError("step_end expected %s but got %s." % (self._current_step, step))
    self._current_step = None
    return False

  def post_step(self, step, session):
    """After step_end, with the session (CheckpointSaver saves here)."""
    del step, session

  # the SessionRunHook side: what RunHookAdapterForMonitors([self]) does
  def before_run(self, run_context):
    if self._global_step is None or self._global_step.graph is not V1.get_default_graph():
      self._global_step = V1.train.get_global_step()
    if self._next_step is None:
      self._next_step = run_context.session.run(self._global_step) + 1
    return _fetch_args(self._global_step, _requests_of(self, self._next_step))

  def after_run(self, run_context, run_values):
    if self.step_end(self._next_step, run_values.results.get("monitors", {})):
      run_context.request_stop()
    self.post_step(self._next_step, run_context.session)
    self._next_step = run_values.results["global_step"] + 1


class EveryN(BaseMonitor):
  """A monitor whose `every_n_*` callbacks run on the first steps, every n-th step (from the last active one) and
  on max_steps; `end` runs `every_n_post_step` for the last step when it was not an active one."""

  def __init__(self, every_n_steps=100, first_n_steps=1):
    super().__init__()
    self._every_n_steps = every_n_steps
    self._first_n_steps = first_n_steps
    self._last_active_step = 0
    self._last_successful_step = None
    self._every_n_step_begin_called = False

  def every_n_step_begin(self, step):
    """An active step begins: what to fetch."""
    del step
    return []

  def every_n_step_end(self, step, outputs):
    """An active step ended: True stops training."""
    del step, outputs
    return False

  def every_n_post_step(self, step, session):
    """After an active step (and at the end, for a last step that was not one)."""

  def _is_active(self, step):
    due = step >= self._last_active_step + self._every_n_steps
    return step <= self._first_n_steps or due or step == self._max_steps

  def step_begin(self, step):
    super().step_begin(step)
    self._every_n_step_begin_called = self._is_active(step)
    return self.every_n_step_begin(step) if self._every_n_step_begin_called else []

  def step_end(self, step, output):
    super().step_end(step, output)
    return self.every_n_step_end(step, output) if self._every_n_step_begin_called else False

  def post_step(self, step, session):
    super().post_step(step, session)
    if self._every_n_step_begin_called:
      self.every_n_post_step(step, session)
      self._last_active_step = step
    self._last_successful_step = step

  def end(self, session=None):
    super().end(session=session)
    if self._last_active_step != self._last_successful_step:
      self.every_n_post_step(self._last_successful_step, session)


# --- the monitors -------------------------------------------------------------------------------------------------
class StopAtStep(BaseMonitor):
  """Stops after `num_steps` steps counted from the first it sees, or after the step `last_step`."""

  def __init__(self, num_steps=None, last_step=None):
    super().__init__()
    given = [value is not None for value in (num_steps, last_step)]
    if not any(given):
      raise ValueError("One of num_steps or last_step must be specified.")
    if all(given):
      raise ValueError("Only one of num_steps or last_step can be specified.")
    self._num_steps = num_steps
    self._last_step = last_step

  @property
  def run_on_all_workers(self):
    return True

  def step_begin(self, step):
    super().step_begin(step)
    if self._last_step is None:
      self._last_step = step + self._num_steps - 1
    return []

  def step_end(self, step, output):
    super().step_end(step, output)
    return step >= self._last_step


class PrintTensor(EveryN):
  """Logs tensors (a dict tag -> tensor name, or an iterable of names) at INFO on the active steps."""

  def __init__(self, tensor_names, every_n=100, first_n=1):
    super().__init__(every_n, first_n)
    self._tensor_names = dict(tensor_names) if isinstance(tensor_names, dict) else {n: n for n in tensor_names}

  def every_n_step_begin(self, step):
    super().every_n_step_begin(step)
    return list(self._tensor_names.values())

  def every_n_step_end(self, step, outputs):
    super().every_n_step_end(step, outputs)
    _log_fetched("", step, self._tensor_names, outputs)


class LoggingTrainable(EveryN):
  """Logs the value of every trainable variable (under `scope`) on the active steps."""

  def __init__(self, scope=None, every_n=100, first_n=1):
    super().__init__(every_n, first_n)
    self._scope = scope

  def every_n_step_begin(self, step):
    super().every_n_step_begin(step)
    variables = V1.get_collection(V1.GraphKeys.TRAINABLE_VARIABLES, scope=self._scope)
    self._names = {variable.name: variable.value().name for variable in variables}
    return list(self._names.values())

  def every_n_step_end(self, step, outputs):
    super().every_n_step_end(step, outputs)
    _log_fetched("Logging Trainable: ", step, self._names, outputs)


class SummarySaver(EveryN):
  """Writes `summary_op` (or the scaffold's) every `save_steps` steps, to `summary_writer` or a FileWriter of
  `output_dir` (else of the estimator's model_dir)."""

  def __init__(self, summary_op, save_steps=100, output_dir=None, summary_writer=None, scaffold=None):
    super().__init__(every_n_steps=save_steps)
    self._summary_op = summary_op
    self._scaffold = scaffold
    self._summary_writer = summary_writer
    if self._summary_writer is None and output_dir:
      self._summary_writer = V1.summary.FileWriter(output_dir)

  def set_estimator(self, estimator):
    super().set_estimator(estimator)
    if self._summary_writer is None:
      self._summary_writer = V1.summary.FileWriter(estimator.model_dir)

  def every_n_step_begin(self, step):
    super().every_n_step_begin(step)
    if self._summary_op is None and self._scaffold is not None:
      self._summary_op = self._scaffold.summary_op
    return [] if self._summary_op is None else [self._summary_op]

  def every_n_step_end(self, step, outputs):
    super().every_n_step_end(step, outputs)
    if self._summary_op is not None and self._summary_writer:
      self._summary_writer.add_summary(_extract_output(outputs, self._summary_op), step)
    return False

  def end(self, session=None):
    super().end(session=session)
    if self._summary_writer:
      self._summary_writer.flush()


def _is_core_estimator(estimator):
  """A tf.estimator.Estimator (not a contrib.learn one): it takes neither x / y nor metrics, and has no `export`."""
  from tf1clip.contrib.learn import estimator as estimator_lib  # pylint: disable=import-outside-toplevel
  return isinstance(estimator, estimator_lib._estimator_api().Estimator)  # pylint: disable=protected-access


class ValidationMonitor(EveryN):
  """Evaluates the estimator being trained every `every_n_steps` steps, and can stop training early.

  An evaluation runs when a checkpoint newer than the last evaluated one exists and more than
  `check_interval_secs` passed since the last check. With `early_stopping_rounds`, training stops once the
  step is that many steps past the best `early_stopping_metric` (minimized, or maximized) seen so far.

  Args:
    x, y, input_fn, batch_size, eval_steps, metrics, hooks, name: what the estimator's `evaluate` gets
      (`x` or `input_fn` is required).
    every_n_steps: steps between evaluations (>= 1).
    early_stopping_rounds: see above (None: never stop).
    early_stopping_metric: the key of `evaluate`'s result watched.
    early_stopping_metric_minimize: lower is better (else higher).
    check_interval_secs: seconds between checks for a new checkpoint (None: check every time).
  """

  def __init__(self, x=None, y=None, input_fn=None, batch_size=None, eval_steps=None, every_n_steps=100,
               metrics=None, hooks=None, early_stopping_rounds=None, early_stopping_metric="loss",
               early_stopping_metric_minimize=True, name=None, check_interval_secs=5):
    super().__init__(every_n_steps=every_n_steps, first_n_steps=-1)
    if x is None and input_fn is None:
      raise ValueError("Either x or input_fn should be provided.")
    if every_n_steps is None or every_n_steps < 1:
      raise ValueError("ValidationMonitor: every_n_steps must be >= 1; got %r" % (every_n_steps,))
    self.x, self.y, self.input_fn, self.batch_size = x, y, input_fn, batch_size
    self.eval_steps, self.metrics, self.hooks, self.name = eval_steps, metrics, hooks, name
    self.early_stopping_rounds = early_stopping_rounds
    self.early_stopping_metric = early_stopping_metric
    self.early_stopping_metric_minimize = early_stopping_metric_minimize
    self._check_interval_secs = check_interval_secs
    self._last_checkpoint_check_time = None
    self._latest_path = None
    self._latest_path_step = None
    self._best_value_step = None
    self._best_value = None
    self._best_metrics = None
    self._early_stopped = False

  early_stopped = property(lambda self: self._early_stopped, doc="Whether this monitor stopped the training.")
  best_step = property(lambda self: self._best_value_step, doc="The step of the best metric value so far.")
  best_value = property(lambda self: self._best_value, doc="The best early-stopping metric value so far.")
  best_metrics = property(lambda self: self._best_metrics,
                          doc="All of `evaluate`'s results at the best step (a copy).")

  def _evaluate_estimator(self):
    if not _is_core_estimator(self._estimator):
      return self._estimator.evaluate(x=self.x, y=self.y, input_fn=self.input_fn, batch_size=self.batch_size,
                                      steps=self.eval_steps, metrics=self.metrics, hooks=self.hooks,
                                      name=self.name)
    if any(arg is not None for arg in (self.x, self.y, self.batch_size, self.metrics)):
      raise ValueError("tf.estimator.Estimator does not support following arguments: x, y, batch_size, "
                       "metrics. Should set as `None` in ValidationMonitor")
    return self._estimator.evaluate(input_fn=self.input_fn, steps=self.eval_steps, hooks=self.hooks,
                                    name=self.name)

  def _new_checkpoint(self, step):
    """The checkpoint to evaluate at `step`, or None (checked too recently, none yet, or already evaluated)."""
    now = time.time()
    interval = self._check_interval_secs
    if interval is not None and self._last_checkpoint_check_time is not None and (
        now - self._last_checkpoint_check_time <= interval):
      V1.logging.debug("Skipping evaluation since less than %d seconds have passed since last check for a new "
                       "checkpoint.", interval)
      return None
    self._last_checkpoint_check_time = now
    latest = tf.train.latest_checkpoint(self._estimator.model_dir)
    if latest is None:
      V1.logging.debug("Skipping evaluation since model has not been saved yet at step %d.", step)
      return None
    if latest == self._latest_path:
      V1.logging.debug("Skipping evaluation due to same checkpoint %s for step %d as for step %d.", latest, step,
                       self._latest_path_step)
      return None
    self._latest_path, self._latest_path_step = latest, step
    return latest

  def _improves(self, value):
    if self._best_value is None:
      return True
    return value < self._best_value if self.early_stopping_metric_minimize else value > self._best_value

  def every_n_step_end(self, step, outputs):
    super().every_n_step_end(step, outputs)
    if self._estimator is None:
      raise ValueError("Missing call to set_estimator.")
    if self._new_checkpoint(step) is None:
      return False
    results = self._evaluate_estimator()
    V1.logging.info("Validation (step %d): %s", step,
                    ", ".join("%s = %s" % (key, str(results[key])) for key in results))
    if self.early_stopping_rounds is None:
      return False
    if self.early_stopping_metric not in results:
      raise ValueError("Metric %s missing from outputs %s." % (self.early_stopping_metric, set(results.keys())))
    value = results[self.early_stopping_metric]
    if self._improves(value):
      self._best_value, self._best_value_step = value, step
      self._best_metrics = copy.deepcopy(results)
    if step - self._best_value_step < self.early_stopping_rounds:
      return False
    V1.logging.info("Stopping. Best step: {} with {} = {}.".format(
        self._best_value_step, self.early_stopping_metric, self._best_value))
    self._early_stopped = True
    return True


class CaptureVariable(EveryN):
  """Keeps a tensor's value (by name, e.g. "w:0") on the active steps, in `values` {step: value}."""

  def __init__(self, var_name, every_n=100, first_n=1):
    super().__init__(every_n, first_n)
    self._var_name = var_name
    self._var_values = {}

  @property
  def values(self):
    return self._var_values

  def every_n_step_begin(self, step):
    super().every_n_step_begin(step)
    return [self._var_name]

  def every_n_step_end(self, step, outputs):
    super().every_n_step_end(step, outputs)
    self._var_values[step] = _extract_output(outputs, self._var_name)


def get_default_monitors(loss_op=None, summary_op=None, save_summary_steps=100, output_dir=None,
                         summary_writer=None):
  """TF 1.15's default monitors: a PrintTensor of `loss_op` ("loss") and a SummarySaver of `summary_op`, each
  only when given."""
  defaults = []
  if loss_op is not None:
    defaults.append(PrintTensor(tensor_names={"loss": loss_op.name}))
  if summary_op is not None:
    defaults.append(SummarySaver(summary_op, save_steps=save_summary_steps, output_dir=output_dir,
                                 summary_writer=summary_writer))
  return defaults


class GraphDump(BaseMonitor):
  """Fetches the first output of (almost) every op each step, keeping them in `data` {step: outputs}; `compare`
  tells two dumps apart."""

  IGNORE_OPS = ["Const", "Assign", "Identity", "Placeholder", "RandomUniform", "Cast", "RestoreSlice"]

  def __init__(self, ignore_ops=None):
    super().__init__()
    self._ignore_ops = ignore_ops or GraphDump.IGNORE_OPS
    self._data = {}

  def begin(self, max_steps=None):
    super().begin(max_steps=max_steps)
    graph = V1.get_default_graph()
    self._tensors = []
    for node in graph.as_graph_def().node:
      if node.op not in self._ignore_ops:
        V1.logging.info("op=%s name=%s.", node.op, node.name)
        try:
          self._tensors.append(graph.get_tensor_by_name(node.name + ":0"))
        except KeyError:  # an op without outputs
          pass

  def step_begin(self, step):
    super().step_begin(step)
    return self._tensors

  def step_end(self, step, output):
    super().step_end(step, output)
    self._data[step] = output

  @property
  def data(self):
    return self._data

  def compare(self, other_dump, step, atol=1e-06):
    """(names equal at `step`, {name: difference or (mine, theirs)}) against another dump; string values skipped.

    Raises:
      ValueError: a name this dump has at `step` is missing from `other_dump`.
    """
    mine = self.data.get(step, {})
    theirs = other_dump.data.get(step, {})
    same, different = [], {}
    for key in (k for k in mine if isinstance(k, str)):
      if key not in theirs:
        raise ValueError("%s missing at step %s." % (key, step))
      a, b = _extract_output(mine, key), _extract_output(theirs, key)
      if isinstance(a, str):
        continue
      if isinstance(a, np.ndarray):
        equal = np.allclose(a, b, atol=atol)
        difference = None if equal else a - b
      else:
        equal = a == b
        difference = None if equal else (a, b)
      if equal:
        same.append(key)
      else:
        different[key] = difference
    return same, different


class ExportMonitor(EveryN):
  """Exports the estimator being trained (its `export`: a model per checkpoint step) every N steps and at the end."""

  def __init__(self, every_n_steps, export_dir, input_fn=None, input_feature_key=None, exports_to_keep=5,
               signature_fn=None, default_batch_size=1):
    super().__init__(every_n_steps=every_n_steps)
    self._export_dir = export_dir
    self._input_fn = input_fn
    self._input_feature_key = input_feature_key
    self._exports_to_keep = exports_to_keep
    self._signature_fn = signature_fn
    self._default_batch_size = default_batch_size
    self._last_export_dir = None

  export_dir = property(lambda self: self._export_dir)
  exports_to_keep = property(lambda self: self._exports_to_keep)
  signature_fn = property(lambda self: self._signature_fn)
  last_export_dir = property(lambda self: self._last_export_dir)

  def _export(self):
    if _is_core_estimator(self._estimator):
      raise ValueError("ExportMonitor does not support `tf.estimator.Estimator. `. Please pass an "
                       "ExportStrategy to Experiment instead.")
    options = {"exports_to_keep": self.exports_to_keep, "signature_fn": self.signature_fn,
               "input_fn": self._input_fn, "default_batch_size": self._default_batch_size,
               "input_feature_key": self._input_feature_key, "use_deprecated_input_fn": self._input_fn is None}
    if hasattr(self._estimator, "export"):
      return self._estimator.export(self.export_dir, **options)
    from tf1clip.contrib.learn.utils import export as export_lib  # pylint: disable=import-outside-toplevel
    return export_lib._export_estimator(self._estimator, self.export_dir, **options)  # pylint: disable=protected-access

  def every_n_step_end(self, step, outputs):
    super().every_n_step_end(step, outputs)
    try:
      self._last_export_dir = self._export()
    except RuntimeError:  # the export of this checkpoint exists
      V1.logging.info("Skipping exporting because the existing checkpoint has already been exported. "
                      "Consider exporting less frequently.")

  def end(self, session=None):
    super().end(session=session)
    if tf.train.latest_checkpoint(self._estimator.model_dir) is None:
      V1.logging.info("Skipping export at the end since model has not been saved yet.")
      return
    try:
      self._last_export_dir = self._export()
    except RuntimeError:
      V1.logging.info("Skipping exporting for the same step.")


class CheckpointSaver(BaseMonitor):
  """Saves a checkpoint (with `saver`, else the scaffold's) on the first step, then every `save_secs` seconds or
  `save_steps` steps, and at the end; each save is logged to the directory's summary writer."""

  def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None, checkpoint_basename="model.ckpt",
               scaffold=None):
    V1.logging.info("Create CheckpointSaver.")
    super().__init__()
    self._saver = saver
    self._scaffold = scaffold
    self._summary_writer = V1.summary.FileWriterCache.get(checkpoint_dir)
    self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
    self._save_secs, self._save_steps = save_secs, save_steps
    self._forget_saves()
    if save_secs is None and save_steps is None:
      raise ValueError("Either save_steps or save_secs should be provided")
    if save_secs is not None and save_steps is not None:
      raise ValueError("Can not provide both save_steps and save_secs.")

  def _forget_saves(self):
    self._last_saved_time = None
    self._last_saved_step = None
    self._last_begin_step = None

  def begin(self, max_steps=None):
    super().begin(max_steps)
    self._forget_saves()

  def step_begin(self, step):
    super().step_begin(step)
    self._last_begin_step = step

  def _due(self, step):
    if self._last_saved_time is None:
      return True
    if self._save_steps is not None:
      return step >= self._last_saved_step + self._save_steps
    return time.time() >= self._last_saved_time + self._save_secs

  def post_step(self, step, session):
    super().post_step(step, session)
    if self._due(step):
      self._save(step, session)

  def end(self, session=None):
    super().end(session)
    self._save(self._last_begin_step, session)

  def _save(self, step, session):
    if step == self._last_saved_step:
      return
    V1.logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
    self._last_saved_time, self._last_saved_step = time.time(), step
    saver = self._saver if self._saver is not None else self._scaffold.saver
    saver.save(session, self._save_path, global_step=step)
    log = V1.SessionLog(status=V1.SessionLog.CHECKPOINT, checkpoint_path=self._save_path)
    self._summary_writer.add_session_log(log, step)


class StepCounter(EveryN):
  """Writes "global_step/sec" (steps per second since the last report) on the active steps."""

  def __init__(self, every_n_steps=100, output_dir=None, summary_writer=None):
    super().__init__(every_n_steps=every_n_steps)
    self._summary_tag = "global_step/sec"
    self._last_reported_step = None
    self._last_reported_time = None
    self._summary_writer = summary_writer
    if self._summary_writer is None and output_dir:
      self._summary_writer = V1.summary.FileWriterCache.get(output_dir)

  def set_estimator(self, estimator):
    super().set_estimator(estimator)
    if self._summary_writer is None:
      self._summary_writer = V1.summary.FileWriterCache.get(estimator.model_dir)

  def every_n_step_end(self, current_step, outputs):
    now = time.time()
    if self._summary_writer and self._last_reported_time is not None:
      rate = (current_step - self._last_reported_step) / (now - self._last_reported_time)
      self._summary_writer.add_summary(
          V1.Summary(value=[V1.Summary.Value(tag=self._summary_tag, simple_value=rate)]), current_step)
    self._last_reported_step, self._last_reported_time = current_step, now


class NanLoss(EveryN):
  """Checks the loss on the active steps: a NaN raises NanLossDuringTrainingError (or, if not
  `fail_on_nan_loss`, stops training with a warning)."""

  def __init__(self, loss_tensor, every_n_steps=100, fail_on_nan_loss=True):
    super().__init__(every_n_steps=every_n_steps)
    self._loss_tensor = loss_tensor
    self._fail_on_nan_loss = fail_on_nan_loss

  def every_n_step_begin(self, step):
    super().every_n_step_begin(step)
    return [self._loss_tensor]

  def every_n_step_end(self, step, outputs):
    super().every_n_step_end(step, outputs)
    if not np.isnan(_extract_output(outputs, self._loss_tensor)):
      return None
    message = "Model diverged with loss = NaN."
    if self._fail_on_nan_loss:
      V1.logging.error(message)
      raise NanLossDuringTrainingError
    V1.logging.warning(message)
    return True


# --- monitors as hooks ----------------------------------------------------------------------------------------
class RunHookAdapterForMonitors(V1.train.SessionRunHook):
  """Runs a list of monitors as one SessionRunHook: every step_end, then every post_step (step = global step + 1)."""

  def __init__(self, monitors):
    self._monitors = monitors

  def begin(self):
    self._last_step = None
    self._global_step_tensor = V1.train.get_global_step()
    for monitor in self._monitors:
      monitor.begin(max_steps=None)

  def before_run(self, run_context):
    if self._last_step is None:
      self._last_step = run_context.session.run(self._global_step_tensor) + 1
    requests = [request for monitor in self._monitors for request in _requests_of(monitor, self._last_step)]
    return _fetch_args(self._global_step_tensor, requests)

  def after_run(self, run_context, run_values):
    fetched = run_values.results.get("monitors", {})
    stops = [monitor.step_end(self._last_step, fetched) for monitor in self._monitors]
    if any(stops):
      run_context.request_stop()
    for monitor in self._monitors:
      monitor.post_step(self._last_step, run_context.session)
    self._last_step = run_values.results["global_step"] + 1

  def end(self, session):
    self._last_step = None
    for monitor in self._monitors:
      if "session" in inspect.getfullargspec(monitor.end).args:
        monitor.end(session=session)
      else:
        monitor.end()


def replace_monitors_with_hooks(monitors_or_hooks, estimator):
  """The hooks for a list of monitors and hooks: the hooks as they are, the monitors in one adapter (on a
  non-chief worker only those that run on all workers), each told its estimator."""
  def is_monitor(obj):  # ours are hooks too; anything else that is not a hook is a duck-typed monitor
    return isinstance(obj, BaseMonitor) or not isinstance(obj, V1.train.SessionRunHook)

  given = list(monitors_or_hooks or [])
  hooks = [m for m in given if not is_monitor(m)]
  monitors = [m for m in given if is_monitor(m)]
  if not estimator.config.is_chief:
    monitors = [m for m in monitors if m.run_on_all_workers]
  for monitor in monitors:
    monitor.set_estimator(estimator)
  if monitors:
    hooks.append(RunHookAdapterForMonitors(monitors))
  return hooks


__getattr__ = _catalog.module_getattr(__name__)
