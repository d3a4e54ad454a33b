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

The token protocol, made to end and to recover (four faults of TF's class, fixed here):

- The end: the chief runs a QueueRunner whose op takes the next aggregated gradient from the
  ConditionalAccumulators, a take that blocks until every replica has sent its gradient for the next
  step. When training stops no replica ever will, so the thread stays blocked; `MonitoredSession.close()`
  joined it for `stop_grace_period_secs` (120 s by default) and then printed the `CancelledError` of
  its cancelled take: a two-minute wait and a traceback at the end of every successful run. Here that
  thread is a daemon the close does not wait for (it still reports its errors to the coordinator), and
  the cancellation at close ends it quietly.
- A failure in that thread (e.g. a transient `AbortedError` from the gRPC runtime, "The same RunGraph
  request was received twice") used to leave every replica, the chief included, blocked on a token
  forever when the thread was not joined. Here the error is reported to the coordinator and, because
  the chief's own step may be the one waiting for a token, one step's tokens are enqueued to wake it:
  `MonitoredSession` then sees the error and, for AbortedError/UnavailableError, recreates its session.
- Recovery: TF's chief closed the token queue on every coordinator stop, including the stop with which
  `MonitoredSession` recreates its session after such an error, and the new session then failed on
  its first op ("FIFOQueue 'sync_token_q' is closed"). With `make_session_run_hook`, the queue is
  closed (releasing the other workers blocked on a token) only when training ends cleanly, in the
  hook's `end()`; the recreated session fills it and goes on. Code that starts the chief's QueueRunner
  itself (`Supervisor`, `start_queue_runners`) keeps TF's close-on-stop.
- The end of one replica: any replica's clean end closes the token queue (`_SyncReplicasHook`), so
  the others, the chief included, end instead of waiting for a step that can no longer come.
"""

import tensorflow as tf
from tensorflow.python.util import deprecation as _deprecation

from tf1clip import optimizer as optimizer_lib
from tf1clip import summaries
from tf1clip import validation

_V1 = tf.compat.v1


class _Unjoined:
  """The coordinator as seen by threads a session's close must not wait for: they report to it, unregistered.

  An error of a run that failed because its session was closed under it ("Session is closed.", or Python's
  "Attempted to use a closed Session.") is that thread's end, not a failure: `MonitoredSession` closes a session
  after joining its coordinator, whose `request_stop` would re-raise it, a traceback on stderr at every recovery
  whose close came between two of the thread's runs.
  """

  def __init__(self, coord, sess):
    self._coord = coord
    self._sess = sess

  def register_thread(self, thread):
    del thread  # not joined: a daemon thread blocked in a take the session's close cancels

  def request_stop(self, ex=None):
    if ex is not None and getattr(self._sess, "_closed", False):
      _V1.logging.vlog(1, "SyncReplicasOptimizer: the token thread's session was closed: %s", ex)
      return
    self._coord.request_stop(ex)

  def __getattr__(self, name):
    return getattr(self._coord, name)


class _ChiefQueueRunner(_V1.train.QueueRunner):
  """The chief's token QueueRunner: ends at once, reports its errors, and leaves the queue to the hook.

  Its enqueue thread is a daemon that reports errors to the coordinator without being joined by it;
  the cancellation of its pending take at the session's close counts as the end of its queue, and
  ending does not close the token queue (`close_op` is a no-op). The coordinator-stop thread, which is
  joined, closes the token queue on any stop (TF's behaviour, for `Supervisor`-style code) unless
  `close_queue_on_stop` was cleared by the session hook, which closes it at a clean end instead; on a
  stop caused by an error it enqueues one step's tokens (`wake_op`), so a step waiting for a token
  returns and the error reaches `MonitoredSession`.
  """

  def __init__(self, queue, enqueue_ops, wake_op):
    super().__init__(queue, enqueue_ops, close_op=_V1.no_op(name="sync_token_q_keep_open"),
                     cancel_op=queue.close(cancel_pending_enqueues=True),
                     queue_closed_exception_types=(tf.errors.OutOfRangeError,
                                                   tf.errors.CancelledError))
    self.close_queue_on_stop = True
    self._wake_op = wake_op

  def create_threads(self, sess, coord=None, daemon=False, start=False):
    if coord is None:
      return super().create_threads(sess, coord=None, daemon=daemon, start=start)
    threads = super().create_threads(sess, coord=_Unjoined(coord, sess), daemon=True, start=False)
    if threads:  # [enqueue thread(s)..., the coordinator-stop thread]
      coord.register_thread(threads[-1])
      if start:
        for thread in threads:
          thread.start()
    return threads

  def _close_on_stop(self, sess, cancel_op, coord):
    coord.wait_for_stop()
    try:
      coord.raise_requested_exception()
      op = cancel_op if self.close_queue_on_stop else None
    except Exception:  # pylint: disable=broad-except
      op = self._wake_op  # a thread failed; the chief's own step may be waiting for a token
    if op is not None:
      try:
        sess.run(op)
      except (tf.errors.OpError, RuntimeError) as e:  # a closed session or queue: nothing to do
        tf.compat.v1.logging.vlog(1, "Ignored exception: %s", e)


class _SyncReplicasHook(_V1.train.SessionRunHook):
  """TF's SyncReplicasOptimizer hook; the token queue is closed when a replica's training ends cleanly.

  `end()` runs only on a clean end of `MonitoredSession`; the stop with which it recreates a session
  after an AbortedError/UnavailableError leaves the queue open for the new session's tokens.

  Every replica's clean end closes the queue, not only the chief's: a replica that ends has taken a
  token whose gradient it never sends, so a replica still running (the chief too) could wait forever
  for a synchronous step that no longer comes (TF 1.x did: the chief's `StopAtStepHook` reads the
  global step at the start of a step, and a chief whose step began before the last one was taken asks
  for one more). On the closed queue its token take raises `OutOfRangeError`, with which
  `MonitoredSession` ends cleanly, as at the end of its input.
  """

  def __init__(self, hook, optimizer, is_chief):
    self._hook = hook
    self._optimizer = optimizer
    self._is_chief = is_chief
    self._close_queue = None
    self._queue_closed = None

  def begin(self):
    self._hook.begin()
    queue = self._optimizer._sync_token_queue  # pylint: disable=protected-access
    if self._is_chief:
      runner = self._optimizer.get_chief_queue_runner()  # the one the hook just took
      runner.close_queue_on_stop = False
      self._close_queue = runner.cancel_op
    elif queue is not None:
      self._close_queue = queue.close(name="sync_token_q_replica_end")
    if queue is not None:
      self._queue_closed = queue.is_closed()

  def after_create_session(self, session, coord):
    self._hook.after_create_session(session, coord)

  def end(self, session):
    if self._close_queue is None:
      return
    try:
      if self._queue_closed is not None and session.run(self._queue_closed):
        _V1.logging.info("SyncReplicasOptimizer: another replica ended the synchronous job first "
                         "(the token queue is closed); this replica ends too.")
        return
      session.run(self._close_queue)
    except tf.errors.OpError as e:
      _V1.logging.warning("could not close the token queue at the end: %s", e)


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


# TensorFlow's class, whose token protocol and slot look-ups this module's class borrows. Ours derives
# from `tf.train.Optimizer` directly, as every `tf.train.*Optimizer` did on TF 1.15 (TF 2.21's class is
# no base of it: a TF1-era library walking `dir(tf.train)` checks `__base__`, GPflow 1.x at import).
_TF_SYNC = _V1.train.SyncReplicasOptimizer


def _announced_as_tensorflows(init):
  """TensorFlow's deprecation notice for the constructor, naming TensorFlow's module as TF 1.15's did."""
  init.__module__ = _TF_SYNC.__module__
  return _deprecation.deprecated(
      None, "The `SyncReplicaOptimizer` class is deprecated. For synchronous training, please use "
      "[Distribution Strategies](https://github.com/tensorflow/tensorflow/tree/master/tensorflow/contrib/"
      "distribute).", warn_once=True)(init)


class SyncReplicasOptimizer(_V1.train.Optimizer):
  """`tf.compat.v1.train.SyncReplicasOptimizer` whose chief stops at once, and which nests wrappers.

  Same constructor, variables and numbers as TensorFlow's class, and like TF 1.15's a direct subclass of
  `tf.train.Optimizer` (TensorFlow's methods are borrowed, not inherited). The differences are all in the
  chief's part: its token protocol ends at once, reports its errors and survives `MonitoredSession`'s
  recovery from a transient error (see the module docstring; `make_session_run_hook` is TF's hook plus
  the clean-end close of the token queue), and
  `global_step` advances once per synchronous step whatever the inner optimizer does with it, so
  tf1clip's accumulation and non-finite-skipping wrappers work inside (`global_step` then counts
  synchronous steps, applied or accumulated or skipped).
  """

  compute_gradients = _TF_SYNC.compute_gradients
  get_slot = _TF_SYNC.get_slot
  get_slot_names = _TF_SYNC.get_slot_names
  variables = _TF_SYNC.variables
  get_init_tokens_op = _TF_SYNC.get_init_tokens_op

  @_announced_as_tensorflows
  def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None, variable_averages=None,
               variables_to_average=None, use_locking=False, name="sync_replicas"):
    # TF 1.15 accepted 0 (every step waited forever) and failed late on -2 / 2.5 with an op's message.
    validation.count(replicas_to_aggregate, "replicas_to_aggregate")
    if total_num_replicas is None:
      total_num_replicas = replicas_to_aggregate
    validation.count(total_num_replicas, "total_num_replicas")
    _V1.train.Optimizer.__init__(self, use_locking, name)
    _V1.logging.info("SyncReplicasV2: replicas_to_aggregate=%s; total_num_replicas=%s",
                     replicas_to_aggregate, total_num_replicas)
    # The state TensorFlow's borrowed methods read, under the names they read it by.
    self.__dict__.update(
        _opt=opt, _replicas_to_aggregate=replicas_to_aggregate, _total_num_replicas=total_num_replicas,
        _tokens_per_step=max(total_num_replicas, replicas_to_aggregate),
        _variable_averages=variable_averages, _variables_to_average=variables_to_average,
        _gradients_applied=False, _global_step=None, _sync_token_queue=None, _chief_queue_runner=None,
        _accumulator_list=[])

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    inner = self._opt
    self._opt = _StepEveryUpdate(inner)
    try:
      # The inner wrapper's summaries must not read the aggregated gradients: a summary hook's
      # fetch would take them from the accumulators a second time and wait forever.
      with summaries.reading_state_only():
        return _TF_SYNC.apply_gradients(self, grads_and_vars, global_step=global_step, name=name)
    finally:
      self._opt = inner

  def get_chief_queue_runner(self):
    runner = _TF_SYNC.get_chief_queue_runner(self)
    if isinstance(runner, _ChiefQueueRunner):
      return runner
    self._chief_queue_runner = _ChiefQueueRunner(
        runner.queue, runner.enqueue_ops,
        wake_op=self.get_init_tokens_op(max(self._total_num_replicas, self._replicas_to_aggregate)))
    return self._chief_queue_runner

  def make_session_run_hook(self, is_chief, num_tokens=-1):
    return _SyncReplicasHook(_TF_SYNC.make_session_run_hook(self, is_chief, num_tokens), self, is_chief)


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
