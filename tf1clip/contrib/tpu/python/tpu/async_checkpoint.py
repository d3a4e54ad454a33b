"""`tf.contrib.tpu.AsyncCheckpointSaverHook`: TF 1.15's checkpoint hook that saves in a background thread.

tensorflow-estimator 2.15 dropped it; the behaviour is TF 1.15's: the graph (`graph.pbtxt`, the events file's graph
and meta graph) is written when the session is created, and a checkpoint of the starting step is started then; every
`save_steps` / `save_secs` a save starts on a thread of its own while training goes on (skipped, with a log line,
when the previous one has not finished within 0.1 s); `end` waits for the thread and saves the last step
synchronously unless it was just saved. Listeners are called around each save, on the saving thread. As in TF 1.15
a save that is still writing sees the variables as later steps change them: the checkpoint of an asynchronous save
is of its step only when nothing trains meanwhile (the final one always is).
"""

import os
import threading
import time

import tensorflow as tf

V1 = tf.compat.v1


class AsyncCheckpointSaverHook(V1.train.CheckpointSaverHook):
  """Saves checkpoints every N steps or seconds, each on a background thread."""

  def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None, checkpoint_basename="model.ckpt",
               scaffold=None, listeners=None):
    """Raises ValueError: both `saver` and `scaffold`, or neither or both of `save_secs` / `save_steps`."""
    V1.logging.info("Create AsyncCheckpointSaverHook.")
    if saver is not None and scaffold is not None:
      raise ValueError("You cannot provide both saver and scaffold.")
    # the base class's attributes, set as TF 1.15's hook set them (it did not call the base constructor)
    self._saver = saver
    self._scaffold = scaffold
    self._checkpoint_dir = checkpoint_dir
    self._save_path = os.path.join(checkpoint_dir, checkpoint_basename)
    self._timer = V1.train.SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
    self._listeners = listeners or []
    self._steps_per_run = 1
    self._summary_writer = None
    self._global_step_tensor = None
    self._save_thread = None
    self._write_graph_thread = None
    self._last_checkpoint_step = None

  def begin(self):
    self._summary_writer = V1.summary.FileWriterCache.get(self._checkpoint_dir)
    self._global_step_tensor = V1.train.get_global_step()
    if self._global_step_tensor is None:
      raise RuntimeError("Global step should be created to use CheckpointSaverHook.")
    for listener in self._listeners:
      listener.begin()

  def after_create_session(self, session, coord):
    del coord
    global_step = session.run(self._global_step_tensor)
    graph = V1.get_default_graph()
    graph_def = graph.as_graph_def(add_shapes=True)
    self._write_graph_thread = threading.Thread(
        target=V1.train.write_graph, args=(graph_def, self._checkpoint_dir, "graph.pbtxt"))
    self._write_graph_thread.start()
    saver = self._get_saver()
    self._summary_writer.add_graph(graph)
    self._summary_writer.add_meta_graph(V1.train.export_meta_graph(
        graph_def=graph_def, saver_def=saver.saver_def if saver else None))
    self._save(session, global_step)  # the state at the starting step
    self._timer.update_last_triggered_step(global_step)

  def before_run(self, run_context):
    del run_context
    return V1.train.SessionRunArgs(self._global_step_tensor)

  def after_run(self, run_context, run_values):
    del run_values
    global_step = run_context.session.run(self._global_step_tensor)
    if self._timer.should_trigger_for_step(global_step):
      self._timer.update_last_triggered_step(global_step)
      V1.logging.info("Triggering checkpoint. %s", global_step)
      self._save(run_context.session, global_step)

  def end(self, session):
    if self._save_thread:
      V1.logging.info("Waiting for any pending checkpoints to finish.")
      self._save_thread.join()
    if self._write_graph_thread:
      V1.logging.info("Waiting for any pending write_graph to finish.")
      self._write_graph_thread.join()
    last_step = session.run(self._global_step_tensor)
    if self._last_checkpoint_step != last_step:
      self._save(session, last_step, asynchronous=False)
    for listener in self._listeners:
      listener.end(session, last_step)

  def _save(self, session, step, asynchronous=True):
    """Starts (or, not asynchronous, runs) a save of `step`; skips it while the previous save still runs."""
    if asynchronous and self._save_thread is not None:
      self._save_thread.join(timeout=0.1)
      if self._save_thread.is_alive():
        V1.logging.info("Saver thread still in progress, skipping checkpoint.")
        return
    self._last_checkpoint_step = step
    if not asynchronous:
      self._write_checkpoint(session, step)
      return
    self._save_thread = threading.Thread(target=self._write_checkpoint, args=(session, step))
    self._save_thread.start()

  def _write_checkpoint(self, session, step):
    V1.logging.info("Saving checkpoints for %d into %s.", step, self._save_path)
    start = time.time()
    for listener in self._listeners:
      listener.before_save(session, step)
    self._get_saver().save(session, self._save_path, global_step=step)
    self._summary_writer.add_session_log(
        V1.SessionLog(status=V1.SessionLog.CHECKPOINT, checkpoint_path=self._save_path), step)
    for listener in self._listeners:
      listener.after_save(session, step)
    V1.logging.info("Checkpoint actual writing time: (%.3f sec)", time.time() - start)
    V1.logging.info("Checkpoint finished for %d into %s.", step, self._save_path)
