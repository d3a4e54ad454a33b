"""`tf.contrib.learn.graph_actions`: TF 1.15's train / evaluate / infer loops over a graph and its checkpoints.

Place in the data flow (DESIGN.md): tf.compat.v1.train (Supervisor, SessionManager, Saver, hooks) <-
**contrib.learn.graph_actions** <- contrib.learn <- compat <- cli.

TF 1.15's code on tf.compat.v1: `train` runs `train_op` under a Supervisor (restoring from and checkpointing to
`output_dir`, a final checkpoint at the end) until `max_steps` / `steps` / the input ends, failing on a NaN loss;
`evaluate` restores a checkpoint, runs `update_op` (or `eval_dict`) `max_steps` times or to the input's end, and
writes the final `eval_dict` values as a summary at the checkpoint's global step; `run_feeds_iter` / `run_feeds` /
`run_n` / `infer` run a dict of tensors once per feed dict in a fresh session (a checkpoint restored, or the
variables initialized). A monitor passed to `train` may be a `monitors.BaseMonitor` (begun with max_steps, as
TF 1.15 did) or any SessionRunHook (tf1clip's other monitors are hooks); each step runs their requested fetches.
"""

import itertools
import sys
import time

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.learn.monitors as monitors_lib

V1 = tf.compat.v1

def clear_summary_writers():
  """Clears the cached summary writers (TF 1.15: only used by unit tests)."""
  return V1.summary.FileWriterCache.clear()


def get_summary_writer(logdir):
  """The one FileWriter for `logdir` in this process (FileWriterCache.get)."""
  return V1.summary.FileWriterCache.get(logdir)


def _assert_or_get_global_step(graph, global_step_tensor):
  if global_step_tensor is None:
    return V1.train.get_global_step(graph)
  V1.train.assert_global_step(global_step_tensor)
  return global_step_tensor


def _make_saver(graph, keep_checkpoint_max=5):
  vars_to_save = (graph.get_collection(V1.GraphKeys.GLOBAL_VARIABLES) +
                  graph.get_collection(V1.GraphKeys.SAVEABLE_OBJECTS))
  if vars_to_save:
    return V1.train.Saver(vars_to_save, sharded=True, max_to_keep=keep_checkpoint_max)
  return None


def _restore_from_checkpoint(session, graph, checkpoint_path, saver=None):
  V1.logging.info("Loading model from checkpoint: %s.", checkpoint_path)
  saver = saver or _make_saver(graph)
  if saver:
    saver.restore(session, checkpoint_path)
  else:
    V1.logging.info("No variables found in graph, not creating Saver() object.")


def _get_summary_op():
  """The graph's SUMMARY_OP, else merge_all (added to SUMMARY_OP), as TF 1.15's logging_ops.get_summary_op."""
  summary_op = V1.get_collection(V1.GraphKeys.SUMMARY_OP)
  summary_op = summary_op[0] if summary_op else None
  if summary_op is None:
    summary_op = V1.summary.merge_all()
    if summary_op is not None:
      V1.add_to_collection(V1.GraphKeys.SUMMARY_OP, summary_op)
  return summary_op


def _run_with_monitors(session, tensors, feed_dict, monitors):
  """One session.run of `tensors` plus each monitor's requested fetches; (outputs, should_stop)."""
  requests = [m.before_run(V1.train.SessionRunContext((tensors, feed_dict), session)) for m in monitors]
  feed = dict(feed_dict or {})
  for request in requests:
    if request is not None and request.feed_dict:
      feed.update(request.feed_dict)
  wanted = [r is not None and r.fetches is not None for r in requests]
  fetches = {"__tensors": tensors,
             "__monitors": [r.fetches if w else [] for r, w in zip(requests, wanted)]}
  results = session.run(fetches, feed_dict=feed or None)
  should_stop = False
  for monitor, result, w in zip(monitors, results["__monitors"], wanted):
    result = result if w else None
    context = V1.train.SessionRunContext((tensors, feed_dict), session)
    monitor.after_run(context, V1.train.SessionRunValues(results=result, options=None, run_metadata=None))
    should_stop = should_stop or context.stop_requested
  return results["__tensors"], should_stop


def _begin(monitor, max_steps):
  if isinstance(monitor, monitors_lib.BaseMonitor):
    monitor.begin(max_steps=max_steps)
  else:
    monitor.begin()


def train(graph, output_dir, train_op, loss_op, global_step_tensor=None, init_op=None, init_feed_dict=None,
          init_fn=None, log_every_steps=10, supervisor_is_chief=True, supervisor_master="",
          supervisor_save_model_secs=600, keep_checkpoint_max=5, supervisor_save_summaries_steps=100,
          feed_fn=None, steps=None, fail_on_nan_loss=True, monitors=None, max_steps=None):
  """Trains `train_op` in `graph`, checkpointing to `output_dir`; the final loss (TF 1.15's loop)."""
  while True:
    try:
      return _train_internal(graph, output_dir, train_op, loss_op, global_step_tensor, init_op, init_feed_dict,
                             init_fn, log_every_steps, supervisor_is_chief, supervisor_master,
                             supervisor_save_model_secs, keep_checkpoint_max, supervisor_save_summaries_steps,
                             feed_fn, steps, fail_on_nan_loss, monitors, max_steps)
    except tf.errors.AbortedError:
      V1.logging.warning("Training got Aborted error. Keep training.")


def _train_internal(graph, output_dir, train_op, loss_op, global_step_tensor, init_op, init_feed_dict, init_fn,
                    log_every_steps, supervisor_is_chief, supervisor_master, supervisor_save_model_secs,
                    keep_checkpoint_max, supervisor_save_summaries_steps, feed_fn, steps, fail_on_nan_loss,
                    monitors, max_steps):
  """See train."""
  if (steps is not None) and (max_steps is not None):
    raise ValueError("Can not provide both steps and max_steps.")
  if not output_dir:
    raise ValueError("Output directory should be non-empty %s." % output_dir)
  if train_op is None:
    raise ValueError("Missing train_op.")
  if loss_op is None:
    raise ValueError("Missing loss_op.")
  with graph.as_default():
    global_step_tensor = _assert_or_get_global_step(graph, global_step_tensor)
    if global_step_tensor is None:
      raise ValueError('No "global_step" was provided or found in the graph.')
    try:
      start_step = tf.train.load_variable(output_dir, global_step_tensor.name)
    except (tf.errors.NotFoundError, ValueError):
      start_step = 0
    summary_writer = get_summary_writer(output_dir) if supervisor_is_chief else None
    if not monitors:
      monitors = monitors_lib.get_default_monitors(
          loss_op=loss_op, summary_op=_get_summary_op(), save_summary_steps=supervisor_save_summaries_steps,
          summary_writer=summary_writer) if supervisor_is_chief else []
    if not supervisor_is_chief:
      monitors = [m for m in monitors if getattr(m, "run_on_all_workers", False)]
    if max_steps is None:
      max_steps = (start_step + steps) if steps else None
    for monitor in monitors:
      _begin(monitor, max_steps)

  supervisor = V1.train.Supervisor(
      graph, init_op=init_op or V1.train.Supervisor.USE_DEFAULT, init_feed_dict=init_feed_dict,
      is_chief=supervisor_is_chief, logdir=output_dir, saver=_make_saver(graph, keep_checkpoint_max),
      global_step=global_step_tensor, summary_op=None, summary_writer=summary_writer,
      save_model_secs=supervisor_save_model_secs, init_fn=init_fn)
  session = supervisor.PrepareSession(master=supervisor_master, start_standard_services=True)
  supervisor.StartQueueRunners(session)
  for monitor in monitors:
    monitor.after_create_session(session, supervisor.coord)

  with session:
    get_current_step = lambda: session.run(global_step_tensor)
    start_step = get_current_step()
    last_step = start_step
    last_log_step = start_step
    loss_value = None
    V1.logging.info("Training steps [%d,%s)", last_step, "inf" if max_steps is None else str(max_steps))
    excinfo = None
    try:
      while not supervisor.ShouldStop() and ((max_steps is None) or (last_step < max_steps)):
        start_time = time.time()
        feed_dict = feed_fn() if feed_fn is not None else None
        outputs, should_stop = _run_with_monitors(session, [train_op, loss_op], feed_dict, monitors)
        loss_value = outputs[1]
        if np.isnan(loss_value):
          failure_message = "Model diverged with loss = NaN."
          if fail_on_nan_loss:
            V1.logging.error(failure_message)
            raise monitors_lib.NanLossDuringTrainingError()
          V1.logging.warning(failure_message)
        if should_stop:
          break
        this_step = get_current_step()
        if this_step <= last_step:
          V1.logging.error("Global step was not incremented by train op at step %s: new step %d", last_step,
                           this_step)
        last_step = this_step
        is_last_step = (max_steps is not None) and (last_step >= max_steps)
        if is_last_step or (last_step - last_log_step >= log_every_steps):
          V1.logging.info("training step %d, loss = %.5f (%.3f sec/batch).", last_step, loss_value,
                          float(time.time() - start_time))
          last_log_step = last_step
    except tf.errors.OutOfRangeError as e:
      V1.logging.warn("Got exception during tf.learn training loop possibly due to exhausted input queue %s.", e)
    except StopIteration:
      V1.logging.info("Exhausted input iterarator.")
    except BaseException:  # pylint: disable=broad-except
      excinfo = sys.exc_info()
    finally:
      try:
        supervisor.Stop(close_summary_writer=False)
        last_step = get_current_step()
        if supervisor_is_chief:
          ckpt_path = supervisor.save_path
          V1.logging.info("Saving checkpoint for step %d to checkpoint: %s.", last_step, ckpt_path)
          supervisor.saver.save(session, ckpt_path, global_step=last_step)
          for monitor in monitors:
            monitor.end(session)
      except tf.errors.OutOfRangeError as e:
        V1.logging.warn("OutOfRangeError in tf.learn final checkpoint possibly due to exhausted input queue. "
                        "Note: summary_op is not expected to trigger dequeues. %s.", e)
      except BaseException as e:  # pylint: disable=broad-except
        if not excinfo:
          raise
        V1.logging.error("Got exception during tf.learn final checkpoint %s.", e)
      finally:
        if excinfo:
          raise excinfo[1].with_traceback(excinfo[2])
    return loss_value


def _get_first_op_from_collection(collection_name):
  elements = V1.get_collection(collection_name)
  return elements[0] if elements else None


def _get_saver():
  saver = _get_first_op_from_collection(V1.GraphKeys.SAVERS)
  if saver is None and V1.global_variables():
    saver = V1.train.Saver()
    V1.add_to_collection(V1.GraphKeys.SAVERS, saver)
  return saver


def _get_ready_op():
  ready_op = _get_first_op_from_collection(V1.GraphKeys.READY_OP)
  if ready_op is None:
    ready_op = V1.report_uninitialized_variables()
    V1.add_to_collection(V1.GraphKeys.READY_OP, ready_op)
  return ready_op


def _get_local_init_op():
  local_init_op = _get_first_op_from_collection(V1.GraphKeys.LOCAL_INIT_OP)
  if local_init_op is None:
    local_init_op = tf.group(V1.local_variables_initializer(), V1.tables_initializer())
    V1.add_to_collection(V1.GraphKeys.LOCAL_INIT_OP, local_init_op)
  return local_init_op


def _eval_results_to_str(eval_results):
  return ", ".join("%s = %s" % (k, v) for k, v in sorted(eval_results.items()))


def _write_summary_results(output_dir, eval_results, current_global_step):
  """Writes the float eval results as a summary at the global step (others are skipped, with a warning)."""
  V1.logging.info("Saving evaluation summary for step %d: %s", current_global_step,
                  _eval_results_to_str(eval_results))
  summary_writer = get_summary_writer(output_dir)
  summary = V1.Summary()
  for key in eval_results:
    if eval_results[key] is None:
      continue
    value = summary.value.add()
    value.tag = key
    if isinstance(eval_results[key], (np.float32, float)):
      value.simple_value = float(eval_results[key])
    else:
      V1.logging.warn("Skipping summary for %s, must be a float or np.float32.", key)
  summary_writer.add_summary(summary, current_global_step)
  summary_writer.flush()


def evaluate(graph, output_dir, checkpoint_path, eval_dict, update_op=None, global_step_tensor=None,
             supervisor_master="", log_every_steps=10, feed_fn=None, max_steps=None):
  """Evaluates `eval_dict` from a checkpoint: (the last results, the global step) (TF 1.15's loop)."""
  if not output_dir:
    raise ValueError("Output directory should be non-empty %s." % output_dir)
  with graph.as_default():
    global_step_tensor = _assert_or_get_global_step(graph, global_step_tensor)
    saver = _get_saver()
    local_init_op = _get_local_init_op()
    ready_for_local_init_op = _get_first_op_from_collection(V1.GraphKeys.READY_FOR_LOCAL_INIT_OP)
    ready_op = _get_ready_op()
    session_manager = V1.train.SessionManager(local_init_op=local_init_op, ready_op=ready_op,
                                              ready_for_local_init_op=ready_for_local_init_op)
    session, initialized = session_manager.recover_session(master=supervisor_master, saver=saver,
                                                           checkpoint_dir=checkpoint_path)
    coord = V1.train.Coordinator()
    threads = V1.train.start_queue_runners(session, coord)

  with session:
    if not initialized:
      V1.logging.warning("Failed to initialize from %s.", checkpoint_path)
      session.run(V1.global_variables_initializer())
      if checkpoint_path:
        _restore_from_checkpoint(session, graph, checkpoint_path, saver)
    current_global_step = session.run(global_step_tensor)
    eval_results = None
    step = 0
    eval_step = None
    feed_dict = None
    V1.logging.info("Eval steps [%d,%s) for training step %d.", step,
                    "inf" if max_steps is None else str(max_steps), current_global_step)
    try:
      try:
        while (max_steps is None) or (step < max_steps):
          step += 1
          start_time = time.time()
          feed_dict = feed_fn() if feed_fn is not None else None
          if update_op is not None:
            session.run(update_op, feed_dict=feed_dict)
          else:
            eval_results = session.run(eval_dict, feed_dict=feed_dict)
            eval_step = step
          if step % log_every_steps == 0:
            if eval_step is None or step != eval_step:
              eval_results = session.run(eval_dict, feed_dict=feed_dict)
              eval_step = step
            V1.logging.info("Results after %d steps (%.3f sec/batch): %s.", step,
                            float(time.time() - start_time), _eval_results_to_str(eval_results))
      finally:
        if eval_results is None or step != eval_step:
          eval_results = session.run(eval_dict, feed_dict=feed_dict)
          eval_step = step
        session.close()
        try:
          coord.request_stop()
          coord.join(threads, stop_grace_period_secs=120)
        except (RuntimeError, tf.errors.CancelledError) as e:
          V1.logging.warning("Coordinator didn't stop cleanly: %s", e)
    except tf.errors.OutOfRangeError as e:
      if max_steps is None:
        V1.logging.info("Input queue is exhausted.")
      else:
        V1.logging.warn("Input queue is exhausted: %s.", e)
    except StopIteration as e:
      if max_steps is None:
        V1.logging.info("Input iterator is exhausted.")
      else:
        V1.logging.warn("Input iterator is exhausted: %s.", e)
  _write_summary_results(output_dir, eval_results, current_global_step)
  return eval_results, current_global_step


def run_n(output_dict, feed_dict=None, restore_checkpoint_path=None, n=1):
  """`n` runs of `output_dict` with the same feed: a list of n dicts of values."""
  return run_feeds(output_dict=output_dict, feed_dicts=itertools.repeat(feed_dict, n),
                   restore_checkpoint_path=restore_checkpoint_path)


def _graph_of(tensors):
  graphs = []
  for t in tensors:
    graph = getattr(t, "graph", None)
    if graph is not None and all(graph is not g for g in graphs):
      graphs.append(graph)
  if len(graphs) > 1:
    raise ValueError("%s must be from the same graph as %s." % (tensors[-1], tensors[0]))
  return graphs[0] if graphs else V1.get_default_graph()


def run_feeds_iter(output_dict, feed_dicts, restore_checkpoint_path=None):
  """Yields session.run(output_dict, feed) for each feed, in one new session (checkpoint or initializers)."""
  if not output_dict:
    raise ValueError("output_dict is invalid: %s." % output_dict)
  if not feed_dicts:
    raise ValueError("feed_dicts is invalid: %s." % feed_dicts)
  graph = _graph_of(list(output_dict.values()))
  with graph.as_default() as g:
    with V1.Session("") as session:
      resources = V1.get_collection(V1.GraphKeys.RESOURCES) + V1.get_collection(V1.GraphKeys.LOCAL_RESOURCES)
      session.run(tf.group(*[r.create for r in resources]) if resources else tf.no_op())
      if restore_checkpoint_path:
        _restore_from_checkpoint(session, g, restore_checkpoint_path)
      else:
        session.run(V1.global_variables_initializer())
      session.run(V1.local_variables_initializer())
      session.run(V1.tables_initializer())
      coord = V1.train.Coordinator()
      threads = None
      try:
        threads = V1.train.start_queue_runners(session, coord=coord)
        for f in feed_dicts:
          yield session.run(output_dict, f)
      finally:
        coord.request_stop()
        if threads:
          coord.join(threads, stop_grace_period_secs=120)


def run_feeds(*args, **kwargs):
  """run_feeds_iter(...) as a list."""
  return list(run_feeds_iter(*args, **kwargs))


def infer(restore_checkpoint_path, output_dict, feed_dict=None):
  """One run of `output_dict` (restored from the checkpoint, or initialized): a dict of values."""
  return run_feeds(output_dict=output_dict, feed_dicts=[feed_dict] if feed_dict is not None else [None],
                   restore_checkpoint_path=restore_checkpoint_path)[0]


__getattr__ = _catalog.module_getattr(__name__)
