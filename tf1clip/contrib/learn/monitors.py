"""`tf.contrib.learn.monitors`: TF 1.15's monitors as the SessionRunHooks that replaced them.

Place in the data flow (DESIGN.md): tf.compat.v1.train hooks <- **contrib.learn.monitors** <-
contrib.learn.estimator, contrib.learn.experiment.

TF 1.15 itself ran every monitor through `RunHookAdapterForMonitors`; here each monitor is also a hook.
`StopAtStep`, `CheckpointSaver`, `StepCounter`, `SummarySaver`, `NanLoss` and `PrintTensor` are TF 1.15's classes
(BaseMonitor / EveryN subclasses, their step arithmetic, their errors); `ValidationMonitor` is ours: every
`every_n_steps` steps, when a newer checkpoint exists and `check_interval_secs` have passed, it evaluates the
estimator it was given to and keeps `best_step` / `best_value` / `best_metrics`; after `early_stopping_rounds`
steps without a better `early_stopping_metric` it stops training, as TF 1.15's did.

TF 1.15's monitor protocol is here too, TF 1.15's code: `BaseMonitor` (begin(max_steps) / step_begin(step) ->
fetches / step_end(step, outputs) -> stop / post_step / end, and the epoch calls), `EveryN` (its every_n_*
callbacks on steps <= first_n, every n-th step and max_steps), `CaptureVariable`, `LoggingTrainable`, `GraphDump`,
`ExportMonitor` (contrib.learn.utils.export's export every n steps and at the end), `RunHookAdapterForMonitors`
(runs a list of monitors as one SessionRunHook) and `get_default_monitors` (PrintTensor of the loss and a
SummarySaver). Unlike TF 1.15's, a BaseMonitor is also a SessionRunHook that runs itself the way
RunHookAdapterForMonitors runs it (step = global step + 1), so an estimator taking hooks takes it directly.
"""

import inspect
import os
import time

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

V1 = tf.compat.v1


def _tf():
  import tensorflow.compat.v1 as tf  # pylint: disable=import-outside-toplevel
  return tf


class NanLossDuringTrainingError(RuntimeError):
  def __str__(self):
    return "NaN loss during training."


def replace_monitors_with_hooks(monitors_or_hooks, estimator):
  """The hooks of a list of monitors and hooks: BaseMonitors (and duck-typed monitors) in one adapter."""
  monitors_or_hooks = monitors_or_hooks or []
  hooks = [m for m in monitors_or_hooks
           if isinstance(m, V1.train.SessionRunHook) and not isinstance(m, BaseMonitor)]
  for hook in hooks:
    if hasattr(hook, "set_estimator"):  # tf1clip's ValidationMonitor is a hook evaluating this estimator
      hook.set_estimator(estimator)
  deprecated_monitors = [m for m in monitors_or_hooks
                         if isinstance(m, BaseMonitor) or not isinstance(m, V1.train.SessionRunHook)]
  if not estimator.config.is_chief:
    deprecated_monitors = [m for m in deprecated_monitors if m.run_on_all_workers]
  for monitor in deprecated_monitors:
    monitor.set_estimator(estimator)
  if deprecated_monitors:
    hooks.append(RunHookAdapterForMonitors(deprecated_monitors))
  return hooks


def _as_graph_element(obj):
  """The graph element a monitor asked for: a Tensor / Operation of the default graph, or its name."""
  graph = V1.get_default_graph()
  if not isinstance(obj, str):
    if not hasattr(obj, "graph") or obj.graph != graph:
      raise ValueError("Passed %s should have graph attribute that is equal to current graph %s." % (obj, graph))
    return obj
  if ":" in obj:
    return graph.as_graph_element(obj)
  element = graph.as_graph_element(obj + ":0")
  try:
    graph.as_graph_element(obj + ":1")
  except (KeyError, ValueError):
    pass
  else:
    raise ValueError("Name %s is ambiguous, as this `Operation` has multiple outputs (at least 2)." % obj)
  return element


def _extract_output(outputs, request):
  if request in outputs:
    return outputs[request]
  return outputs[request.name]


def _monitor_request(monitor, step):
  requests = monitor.step_begin(step)
  if requests and not isinstance(requests, list):
    raise ValueError("Monitor.step_begin should return a list.")
  return requests or []


class BaseMonitor(V1.train.SessionRunHook):
  """TF 1.15's monitor base class (its step / epoch protocol); also a SessionRunHook running that protocol."""

  def __init__(self):
    self._begun = False
    self._current_epoch = None
    self._current_step = None
    self._max_steps = None
    self._estimator = None
    self._hook_step = None
    self._hook_global_step = None

  @property
  def run_on_all_workers(self):
    return False

  def set_estimator(self, estimator):
    """Called by the estimator this monitor monitors."""
    if estimator is None:
      raise ValueError("Missing estimator.")
    self._estimator = estimator

  def begin(self, max_steps=None):
    """Called at the beginning of training (the default graph is the training graph)."""
    if self._begun:
      raise ValueError("begin called twice without end.")
    self._max_steps = max_steps
    self._begun = True
    self._hook_step = None

  def end(self, session=None):
    """Called at the end of training or evaluation."""
    _ = session
    if not self._begun:
      raise ValueError("end called without begin.")
    self._max_steps = None
    self._begun = False

  def epoch_begin(self, epoch):
    if self._current_epoch is not None:
      raise ValueError("epoch_begin called twice without epoch_end.")
    if epoch < 0:
      raise ValueError("Invalid epoch %s." % epoch)
    self._current_epoch = epoch

  def epoch_end(self, epoch):
    if self._current_epoch != epoch:
      raise ValueError("epoch_end expected %s but got %s.", self._current_epoch, epoch)
    self._current_epoch = None

  def step_begin(self, step):
    """Before a step: the list of Tensors or tensor names to run with it."""
    if (step < 0) or ((self._max_steps is not None) and (step > self._max_steps)):
      raise ValueError("Invalid step %s." % step)
    self._current_step = step
    return []

  def step_end(self, step, output):  # pylint: disable=unused-argument
    """After a step, with the requested values by name: True stops training."""
    if self._current_step != step:
      raise ValueError("step_end expected %s but got %s.", self._current_step, step)
    self._current_step = None
    return False

  def post_step(self, step, session):  # pylint: disable=unused-argument
    _ = step, session

  # -- the SessionRunHook side: RunHookAdapterForMonitors([self]) --------------------------------------
  def before_run(self, run_context):
    if self._hook_global_step is None or self._hook_global_step.graph is not V1.get_default_graph():
      self._hook_global_step = V1.train.get_global_step()
    if self._hook_step is None:
      self._hook_step = run_context.session.run(self._hook_global_step) + 1
    fetches = _monitor_request(self, self._hook_step)
    request = {"global_step": self._hook_global_step}
    if fetches:
      request["monitors"] = dict(zip(fetches, [_as_graph_element(f) for f in fetches]))
    return V1.train.SessionRunArgs(request)

  def after_run(self, run_context, run_values):
    if self.step_end(self._hook_step, run_values.results.get("monitors", {})):
      run_context.request_stop()
    self.post_step(self._hook_step, run_context.session)
    self._hook_step = run_values.results["global_step"] + 1


class EveryN(BaseMonitor):
  """A monitor whose every_n_* callbacks run on steps <= first_n_steps, every n-th step and max_steps."""

  def __init__(self, every_n_steps=100, first_n_steps=1):
    super(EveryN, self).__init__()
    self._every_n_steps = every_n_steps
    self._first_n_steps = first_n_steps
    self._last_successful_step = None
    self._last_active_step = 0
    self._every_n_step_begin_called = False

  def every_n_step_begin(self, step):  # pylint: disable=unused-argument
    return []

  def every_n_step_end(self, step, outputs):  # pylint: disable=unused-argument
    return False

  def every_n_post_step(self, step, session):
    pass

  def step_begin(self, step):
    super(EveryN, self).step_begin(step)
    if (step <= self._first_n_steps or step >= (self._every_n_steps + self._last_active_step)
        or step == self._max_steps):
      self._every_n_step_begin_called = True
      return self.every_n_step_begin(step)
    self._every_n_step_begin_called = False
    return []

  def step_end(self, step, output):
    super(EveryN, self).step_end(step, output)
    if self._every_n_step_begin_called:
      return self.every_n_step_end(step, output)
    return False

  def post_step(self, step, session):
    super(EveryN, self).post_step(step, session)
    if self._every_n_step_begin_called:
      self.every_n_post_step(step, session)
      self._last_active_step = step
    self._last_successful_step = step

  def end(self, session=None):
    super(EveryN, self).end(session=session)
    if self._last_successful_step != self._last_active_step:
      self.every_n_post_step(self._last_successful_step, session)


class LoggingTrainable(EveryN):
  """Logs the trainable variables (matching `scope`) every N steps."""

  def __init__(self, scope=None, every_n=100, first_n=1):
    super(LoggingTrainable, self).__init__(every_n, first_n)
    self._scope = scope

  def every_n_step_begin(self, step):
    super(LoggingTrainable, self).every_n_step_begin(step)
    trainables = V1.get_collection(V1.GraphKeys.TRAINABLE_VARIABLES, scope=self._scope)
    self._names = {}
    for var in trainables:
      self._names[var.name] = var.value().name
    return list(self._names.values())

  def every_n_step_end(self, step, outputs):
    super(LoggingTrainable, self).every_n_step_end(step, outputs)
    stats = []
    for tag, tensor_name in self._names.items():
      if tensor_name in outputs:
        stats.append("%s = %s" % (tag, str(_extract_output(outputs, tensor_name))))
    V1.logging.info("Logging Trainable: Step %d: %s", step, ", ".join(stats))


class CaptureVariable(EveryN):
  """Captures a variable's value (by name, e.g. "w:0") every N steps into `values` {step: value}."""

  def __init__(self, var_name, every_n=100, first_n=1):
    super(CaptureVariable, self).__init__(every_n, first_n)
    self._var_name = var_name
    self._var_values = {}

  @property
  def values(self):
    return self._var_values

  def every_n_step_begin(self, step):
    super(CaptureVariable, self).every_n_step_begin(step)
    return [self._var_name]

  def every_n_step_end(self, step, outputs):
    super(CaptureVariable, self).every_n_step_end(step, outputs)
    self._var_values[step] = _extract_output(outputs, self._var_name)


def get_default_monitors(loss_op=None, summary_op=None, save_summary_steps=100, output_dir=None,
                         summary_writer=None):
  """[PrintTensor of the loss, SummarySaver of summary_op], those given (TF 1.15's defaults)."""
  monitors = []
  if loss_op is not None:
    monitors.append(PrintTensor(tensor_names={"loss": loss_op.name}))
  if summary_op is not None:
    monitors.append(SummarySaver(summary_op, save_steps=save_summary_steps, output_dir=output_dir,
                                 summary_writer=summary_writer))
  return monitors


class GraphDump(BaseMonitor):
  """Runs (almost) every tensor of the graph each step and keeps the values in `data` {step: outputs}."""

  IGNORE_OPS = ["Const", "Assign", "Identity", "Placeholder", "RandomUniform", "Cast", "RestoreSlice"]

  def __init__(self, ignore_ops=None):
    super(GraphDump, self).__init__()
    self._ignore_ops = ignore_ops or GraphDump.IGNORE_OPS
    self._data = {}

  def begin(self, max_steps=None):
    super(GraphDump, self).begin(max_steps=max_steps)
    self._tensors = []
    graph = V1.get_default_graph()
    for node in graph.as_graph_def().node:
      if node.op in self._ignore_ops:
        continue
      V1.logging.info("op=%s name=%s.", node.op, node.name)
      try:
        self._tensors.append(graph.get_tensor_by_name(node.name + ":0"))
      except KeyError:
        pass

  def step_begin(self, step):
    super(GraphDump, self).step_begin(step)
    return self._tensors

  def step_end(self, step, output):
    super(GraphDump, self).step_end(step, output)
    self._data[step] = output

  @property
  def data(self):
    return self._data

  def compare(self, other_dump, step, atol=1e-06):
    """(matched keys, {key: difference}) of this dump and another at `step`."""
    non_matched = {}
    matched = []
    this_output = self.data[step] if step in self.data else {}
    other_output = other_dump.data[step] if step in other_dump.data else {}
    for key in this_output:
      if not isinstance(key, str):
        continue
      if key not in other_output:
        raise ValueError("%s missing at step %s.", (key, step))
      value1 = _extract_output(this_output, key)
      value2 = _extract_output(other_output, key)
      if isinstance(value1, str):
        continue
      if isinstance(value1, np.ndarray):
        if not np.allclose(value1, value2, atol=atol):
          non_matched[key] = value1 - value2
        else:
          matched.append(key)
      else:
        if value1 != value2:
          non_matched[key] = (value1, value2)
        else:
          matched.append(key)
    return matched, non_matched


def _is_core_estimator(estimator):
  from tf1clip.contrib.learn import estimator as estimator_lib  # pylint: disable=import-outside-toplevel
  return isinstance(estimator, estimator_lib._estimator_api().Estimator)  # pylint: disable=protected-access


class ExportMonitor(EveryN):
  """Exports the estimator (contrib.learn.utils.export: a SavedModel per global step) every N steps and at the end."""

  def __init__(self, every_n_steps, export_dir, input_fn=None, input_feature_key=None, exports_to_keep=5,
               signature_fn=None, default_batch_size=1):
    super(ExportMonitor, self).__init__(every_n_steps=every_n_steps)
    self._export_dir = export_dir
    self._input_fn = input_fn
    self._input_feature_key = input_feature_key
    self._use_deprecated_input_fn = input_fn is None
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
    kwargs = dict(exports_to_keep=self.exports_to_keep, signature_fn=self.signature_fn, input_fn=self._input_fn,
                  default_batch_size=self._default_batch_size, input_feature_key=self._input_feature_key,
                  use_deprecated_input_fn=self._use_deprecated_input_fn)
    if hasattr(self._estimator, "export"):
      return self._estimator.export(self.export_dir, **kwargs)
    from tf1clip.contrib.learn.utils import export as export_lib  # pylint: disable=import-outside-toplevel
    return export_lib._export_estimator(self._estimator, self.export_dir, **kwargs)  # pylint: disable=protected-access

  def every_n_step_end(self, step, outputs):
    super(ExportMonitor, self).every_n_step_end(step, outputs)
    try:
      self._last_export_dir = self._export()
    except RuntimeError:
      V1.logging.info("Skipping exporting because the existing checkpoint has already been exported. "
                      "Consider exporting less frequently.")

  def end(self, session=None):
    super(ExportMonitor, self).end(session=session)
    if tf.train.latest_checkpoint(self._estimator.model_dir) is None:
      V1.logging.info("Skipping export at the end since model has not been saved yet.")
      return
    try:
      self._last_export_dir = self._export()
    except RuntimeError:
      V1.logging.info("Skipping exporting for the same step.")


class RunHookAdapterForMonitors(V1.train.SessionRunHook):
  """Runs a list of monitors as one SessionRunHook (step = global step + 1), TF 1.15's adapter."""

  def __init__(self, monitors):
    self._monitors = monitors

  def begin(self):
    self._last_step = None
    self._global_step_tensor = V1.train.get_global_step()
    for m in self._monitors:
      m.begin(max_steps=None)

  def before_run(self, run_context):
    if self._last_step is None:
      self._last_step = run_context.session.run(self._global_step_tensor) + 1
    request = {"global_step": self._global_step_tensor}
    monitor_fetches = []
    for m in self._monitors:
      monitor_fetches.extend(_monitor_request(m, self._last_step))
    if monitor_fetches:
      request["monitors"] = dict(zip(monitor_fetches, [_as_graph_element(f) for f in monitor_fetches]))
    return V1.train.SessionRunArgs(request)

  def after_run(self, run_context, run_values):
    result = run_values.results.get("monitors", {})
    for m in self._monitors:
      if m.step_end(self._last_step, result):
        run_context.request_stop()
    for m in self._monitors:
      m.post_step(self._last_step, run_context.session)
    self._last_step = run_values.results["global_step"] + 1

  def end(self, session):
    self._last_step = None
    for m in self._monitors:
      if "session" in inspect.getfullargspec(m.end).args:
        m.end(session=session)
      else:
        m.end()


# -- TF 1.15's monitors (its code): BaseMonitors, so an estimator runs them as hooks (see BaseMonitor) --------
class StopAtStep(BaseMonitor):
  """Requests a stop after `num_steps` steps from the first one it sees, or at `last_step`."""

  def __init__(self, num_steps=None, last_step=None):
    super(StopAtStep, self).__init__()
    if num_steps is None and last_step is None:
      raise ValueError("One of num_steps or last_step must be specified.")
    if num_steps is not None and last_step is not None:
      raise ValueError("Only one of num_steps or last_step can be specified.")
    self._num_steps = num_steps
    self._last_step = last_step

  @property
  def run_on_all_workers(self):
    return True

  def step_begin(self, step):
    super(StopAtStep, self).step_begin(step)
    if self._last_step is None:
      self._last_step = step + self._num_steps - 1
    return []

  def step_end(self, step, output):
    super(StopAtStep, self).step_end(step, output)
    return step >= self._last_step


class PrintTensor(EveryN):
  """Logs the given tensors (a dict tag -> tensor name, or names) every N steps and the first N steps."""

  def __init__(self, tensor_names, every_n=100, first_n=1):
    super(PrintTensor, self).__init__(every_n, first_n)
    if not isinstance(tensor_names, dict):
      tensor_names = {item: item for item in tensor_names}
    self._tensor_names = tensor_names

  def every_n_step_begin(self, step):
    super(PrintTensor, self).every_n_step_begin(step)
    return list(self._tensor_names.values())

  def every_n_step_end(self, step, outputs):
    super(PrintTensor, self).every_n_step_end(step, outputs)
    stats = []
    for tag, tensor_name in self._tensor_names.items():
      if tensor_name in outputs:
        stats.append("%s = %s" % (tag, str(_extract_output(outputs, tensor_name))))
    V1.logging.info("Step %d: %s", step, ", ".join(stats))


class SummarySaver(EveryN):
  """Writes `summary_op` (or the scaffold's) every `save_steps` steps."""

  def __init__(self, summary_op, save_steps=100, output_dir=None, summary_writer=None, scaffold=None):
    super(SummarySaver, self).__init__(every_n_steps=save_steps)
    self._summary_op = summary_op
    self._summary_writer = summary_writer
    if summary_writer is None and output_dir:
      self._summary_writer = V1.summary.FileWriter(output_dir)
    self._scaffold = scaffold

  def set_estimator(self, estimator):
    super(SummarySaver, self).set_estimator(estimator)
    if self._summary_writer is None:
      self._summary_writer = V1.summary.FileWriter(estimator.model_dir)

  def every_n_step_begin(self, step):
    super(SummarySaver, self).every_n_step_begin(step)
    if self._summary_op is None and self._scaffold is not None:
      self._summary_op = self._scaffold.summary_op
    if self._summary_op is not None:
      return [self._summary_op]
    return []

  def every_n_step_end(self, step, outputs):
    super(SummarySaver, self).every_n_step_end(step, outputs)
    if self._summary_op is not None:
      summary_strs = _extract_output(outputs, self._summary_op)
      if self._summary_writer:
        self._summary_writer.add_summary(summary_strs, step)
    return False

  def end(self, session=None):
    super(SummarySaver, self).end(session=session)
    if self._summary_writer:
      self._summary_writer.flush()


class CheckpointSaver(BaseMonitor):
  """Saves checkpoints every `save_secs` or `save_steps` steps, and at the end (with `saver` or the
  scaffold's saver)."""

  def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
               checkpoint_basename="model.ckpt", scaffold=None):
    V1.logging.info("Create CheckpointSaver.")
    super(CheckpointSaver, self).__init__()
    self._saver = saver
    self._summary_writer = V1.summary.FileWriterCache.get(checkpoint_dir)
    self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
    self._scaffold = scaffold
    self._save_secs = save_secs
    self._save_steps = save_steps
    self._last_saved_time = None
    self._last_begin_step = None
    self._last_saved_step = None
    if save_steps is None and save_secs is None:
      raise ValueError("Either save_steps or save_secs should be provided")
    if (save_steps is not None) and (save_secs is not None):
      raise ValueError("Can not provide both save_steps and save_secs.")

  def begin(self, max_steps=None):
    super(CheckpointSaver, self).begin(max_steps)
    self._last_saved_time = None
    self._last_begin_step = None
    self._last_saved_step = None

  def step_begin(self, step):
    super(CheckpointSaver, self).step_begin(step)
    self._last_begin_step = step

  def post_step(self, step, session):
    super(CheckpointSaver, self).post_step(step, session)
    if self._last_saved_time is None:
      self._save(step, session)
    if self._save_steps is not None:
      if step >= self._last_saved_step + self._save_steps:
        self._save(step, session)
    if self._save_secs is not None:
      if time.time() >= self._last_saved_time + self._save_secs:
        self._save(step, session)

  def end(self, session=None):
    super(CheckpointSaver, self).end(session)
    self._save(self._last_begin_step, session)

  def _save(self, step, session):
    if step == self._last_saved_step:
      return
    V1.logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
    self._last_saved_time = time.time()
    self._last_saved_step = step
    if self._saver is None:
      self._scaffold.saver.save(session, self._save_path, global_step=step)
    else:
      self._saver.save(session, self._save_path, global_step=step)
    self._summary_writer.add_session_log(
        V1.SessionLog(status=V1.SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)


class StepCounter(EveryN):
  """Writes global_step/sec every `every_n_steps` steps."""

  def __init__(self, every_n_steps=100, output_dir=None, summary_writer=None):
    super(StepCounter, self).__init__(every_n_steps=every_n_steps)
    self._summary_tag = "global_step/sec"
    self._last_reported_step = None
    self._last_reported_time = None
    self._summary_writer = summary_writer
    if summary_writer is None and output_dir:
      self._summary_writer = V1.summary.FileWriterCache.get(output_dir)

  def set_estimator(self, estimator):
    super(StepCounter, self).set_estimator(estimator)
    if self._summary_writer is None:
      self._summary_writer = V1.summary.FileWriterCache.get(estimator.model_dir)

  def every_n_step_end(self, current_step, outputs):
    current_time = time.time()
    if self._last_reported_time is not None and self._summary_writer:
      added_steps = current_step - self._last_reported_step
      elapsed_time = current_time - self._last_reported_time
      steps_per_sec = added_steps / elapsed_time
      summary = V1.Summary(value=[V1.Summary.Value(tag=self._summary_tag, simple_value=steps_per_sec)])
      self._summary_writer.add_summary(summary, current_step)
    self._last_reported_step = current_step
    self._last_reported_time = current_time


class NanLoss(EveryN):
  """Checks the loss every `every_n_steps` steps: NaN raises NanLossDuringTrainingError (or stops)."""

  def __init__(self, loss_tensor, every_n_steps=100, fail_on_nan_loss=True):
    super(NanLoss, self).__init__(every_n_steps=every_n_steps)
    self._loss_tensor = loss_tensor
    self._fail_on_nan_loss = fail_on_nan_loss

  def every_n_step_begin(self, step):
    super(NanLoss, self).every_n_step_begin(step)
    return [self._loss_tensor]

  def every_n_step_end(self, step, outputs):
    super(NanLoss, self).every_n_step_end(step, outputs)
    if np.isnan(_extract_output(outputs, self._loss_tensor)):
      failure_message = "Model diverged with loss = NaN."
      if self._fail_on_nan_loss:
        V1.logging.error(failure_message)
        raise NanLossDuringTrainingError
      V1.logging.warning(failure_message)
      return True  # stop, without an error
    return None


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
      step = run_values.results  # the global step as run (numpy), as TF 1.15 kept it
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


_hook = _catalog.missing_attribute_hook("tf.contrib.learn.monitors")
