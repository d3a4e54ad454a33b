"""Synchronous replicas on TensorFlow's own ps/worker runtime, with the gradient pipeline in the right place.

Place in the data flow (DESIGN.md): optimizer / accumulation <- **replicas** <- compat (the facade
serves `SyncReplicasOptimizer` as `tf.train.SyncReplicasOptimizer`) <- cli.

Where clipping happens depends on the nesting, because TF 1.x's `SyncReplicasOptimizer` aggregates in
`apply_gradients` and tf1clip's wrappers transform in `apply_gradients` too:

- `SyncReplicasOptimizer(clip_gradients_by_norm(opt, c), ...)`: every worker sends its raw gradient;
  the chief averages the N gradients and hands the mean to the wrapper, which clips it, then `opt`
  applies it. The update equals one single-process step on the concatenated batch — what a user of a
  big synchronous batch expects. `clip_aggregated_gradients` builds exactly this.
- `clip_gradients_by_norm(SyncReplicasOptimizer(opt, ...), c)`: every worker clips its own gradient
  before sending it; the chief averages the clipped gradients. Per-worker clipping bounds each worker's
  contribution, not the update, and does not equal the big-batch step once any worker clips.
- `SyncReplicasOptimizer(WrappedOptimizer(opt, ..., skip_non_finite=True))`: a NaN/Inf from any one
  worker makes the mean non-finite, so the chief skips the whole synchronous update once (counted once,
  in the wrapper's skip counter, a variable on the ps that the chief's Saver checkpoints); every worker
  receives its token and goes on with the weights untouched.
- `SyncReplicasOptimizer(GradientAccumulationOptimizer(opt, k))`: each synchronous step adds the mean
  of the N workers' gradients to the chief's accumulators; every k-th step applies their mean: one update
  on the k·N-micro-batch batch.

With this module's `SyncReplicasOptimizer`, `global_step` advances once per synchronous step in both
of the last two cases (TensorFlow's own class deadlocks there: see `_StepEveryUpdate`).

The shutdown hang this module fixes (the cause): the chief of a `SyncReplicasOptimizer` runs a
QueueRunner whose op takes the next aggregated gradient from the ConditionalAccumulators — a take that
blocks until every replica has sent its gradient for the next step. When training stops no replica
ever will, so the thread stays blocked; `MonitoredSession.close()` then joins the coordinator's
threads for `stop_grace_period_secs` (120 s by default) before it closes the session, and the close
cancels the take, whose `CancelledError` the coordinator (already joined) re-raises in the thread:
a two-minute wait and a traceback at the end of every successful run, even with one replica.
`SyncReplicasOptimizer` below gives its chief a QueueRunner that is not joined (it is a daemon
thread stopped by the session's close, as the blocked take can only be) and that treats the
cancellation at close as the end of its queue. Workaround for code that uses TensorFlow's class
outside `tf1clip run`: `MonitoredTrainingSession(..., stop_grace_period_secs=5)` (the traceback
remains), or use this class.
"""

import threading

import tensorflow as tf

from tf1clip import optimizer as optimizer_lib
from tf1clip import summaries

_V1 = tf.compat.v1


class _ChiefQueueRunner(_V1.train.QueueRunner):
  """The chief's token QueueRunner, whose blocked enqueue thread does not hold up the coordinator's join.

  The enqueue thread is a daemon thread reporting errors to the coordinator but not registered with
  it; the session's close cancels its pending take, which ends it quietly (CancelledError counts as
  its queue being closed). The thread that closes the token queue on a stop request is registered as
  usual.
  """

  def create_threads(self, sess, coord=None, daemon=False, start=False):
    threads = super().create_threads(sess, coord=None, daemon=daemon, start=False)
    if coord is not None:
      closer = threading.Thread(target=self._close_on_stop, args=(sess, self.cancel_op, coord))
      closer.daemon = True
      coord.register_thread(closer)
      threads.append(closer)
    if start:
      for thread in threads:
        thread.start()
    return threads


class _StepEveryUpdate:
  """The inner optimizer as SyncReplicasOptimizer's chief calls it, advancing global_step every time.

  The token protocol needs it: each take from the ConditionalAccumulators advances their step by one,
  and the chief stamps the workers' next tokens with `global_step`. An inner optimizer that does not
  advance it on every synchronous step (a GradientAccumulationOptimizer between applications, a
  WrappedOptimizer skipping a non-finite update) would make every later gradient stale: a deadlock.
  So the inner optimizer applies without `global_step`, and one increment follows it. For a plain
  optimizer this is exactly what its own `apply_gradients(..., global_step)` does.
  """

  def __init__(self, optimizer):
    self._optimizer = optimizer

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    update = self._optimizer.apply_gradients(grads_and_vars, name=name)
    if global_step is None:
      return update
    with tf.control_dependencies([update]), _V1.colocate_with(global_step):
      return _V1.assign_add(global_step, 1, name="global_step_increment").op

  def __getattr__(self, name):
    return getattr(self._optimizer, name)


class SyncReplicasOptimizer(_V1.train.SyncReplicasOptimizer):
  """`tf.compat.v1.train.SyncReplicasOptimizer` whose chief stops at once, and which nests wrappers.

  Same constructor, variables and numbers as TensorFlow's class. Two differences, both in the chief's
  part: its QueueRunner does not hold up the end of training (see the module docstring), and
  `global_step` advances once per synchronous step whatever the inner optimizer does with it, so
  tf1clip's accumulation and non-finite-skipping wrappers work inside (`global_step` then counts
  synchronous steps, applied or accumulated or skipped).
  """

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    inner = self._opt
    self._opt = _StepEveryUpdate(inner)
    try:
      # The inner wrapper's summaries must not read the aggregated gradients: a summary hook's
      # fetch would take them from the accumulators a second time and wait forever.
      with summaries.reading_state_only():
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)
    finally:
      self._opt = inner

  def get_chief_queue_runner(self):
    runner = super().get_chief_queue_runner()
    if isinstance(runner, _ChiefQueueRunner):
      return runner
    self._chief_queue_runner = _ChiefQueueRunner(
        runner.queue, runner.enqueue_ops,
        queue_closed_exception_types=(tf.errors.OutOfRangeError, tf.errors.CancelledError))
    return self._chief_queue_runner


def clip_aggregated_gradients(optimizer, clip_norm, replicas_to_aggregate, total_num_replicas=None,
                              **sync_kwargs):
  """Synchronous replicas that clip the aggregated (mean) gradient by its global norm.

  `SyncReplicasOptimizer(clip_gradients_by_norm(optimizer, clip_norm), ...)`: one synchronous step on
  N workers equals one single-process step of `optimizer` on the concatenated batch, clipped.

  Args:
    optimizer: the inner `tf.compat.v1.train.Optimizer` (it owns the slots, as always).
    clip_norm: the global-norm threshold (a positive number or scalar tensor).
    replicas_to_aggregate: gradients averaged per update.
    total_num_replicas: workers in the job (default: replicas_to_aggregate).
    **sync_kwargs: the other arguments of SyncReplicasOptimizer (variable_averages, ...).

  Returns:
    A SyncReplicasOptimizer; call `make_session_run_hook(is_chief)` on it as usual.
  """
  return SyncReplicasOptimizer(
      optimizer_lib.clip_gradients_by_norm(optimizer, clip_norm),
      replicas_to_aggregate=replicas_to_aggregate, total_num_replicas=total_num_replicas,
      **sync_kwargs)
