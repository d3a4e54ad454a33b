"""Synchronous replicas on TensorFlow's own ps/worker runtime: the pipeline's place, exactly.

Every test starts a fresh in-process cluster (1 ps + 2 workers, gRPC on loopback) and drives the two
workers' own graphs (between-graph replication, `replica_device_setter`) from two threads, the way TF
1.x's sync_replicas_optimizer_test did. No initial tokens, so each synchronous step aggregates exactly
one gradient from each worker; the reference is one single-process step on the concatenated batch.
The last tests cover the chief's token protocol at its end and under a transient error.
"""

import os
import socket
import subprocess
import sys
import threading

import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip import replicas

V1 = tf.compat.v1
NUM_WORKERS = 2
DIM, HIDDEN = 3, 4

OPTIMIZERS = {
    "sgd": lambda: V1.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: V1.train.MomentumOptimizer(0.1, 0.9),
    "adam": lambda: V1.train.AdamOptimizer(0.1),
}


# A synchronous step that waits longer than this failed (a worker waiting for a token no step will send).
STEP_OPTIONS = V1.RunOptions(timeout_in_ms=45000)


def _port():
  with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    return s.getsockname()[1]


def _cluster():
  spec = tf.train.ClusterSpec({
      "ps": ["127.0.0.1:%d" % _port()],
      "worker": ["127.0.0.1:%d" % _port() for _ in range(NUM_WORKERS)]})
  config = V1.ConfigProto(allow_soft_placement=True)
  servers = [tf.distribute.Server(spec, "ps", 0, config=config)] + [
      tf.distribute.Server(spec, "worker", i, config=config) for i in range(NUM_WORKERS)]
  return spec, [s.target for s in servers[1:]]


def _batches(steps, seed=0):
  """batches[step][worker] = (x, y), each 4 examples."""
  rng = np.random.RandomState(seed)
  return [[(rng.randn(4, DIM).astype(np.float32), rng.randn(4, 1).astype(np.float32))
           for _ in range(NUM_WORKERS)] for _ in range(steps)]


def _model(x, y):
  rng = np.random.RandomState(42)
  w1 = V1.get_variable("w1", initializer=rng.randn(DIM, HIDDEN).astype(np.float32))
  w2 = V1.get_variable("w2", initializer=rng.randn(HIDDEN, 1).astype(np.float32))
  loss = tf.reduce_mean(tf.square(tf.matmul(tf.tanh(tf.matmul(x, w1)), w2) - y))
  return loss, [w1, w2]


def _gradient_sends(graph):
  """The ops with which a worker sends its gradients to the chief's accumulators (its token take waits for them)."""
  takes = [op for op in graph.get_operations()
           if op.type == "QueueDequeueV2" and op.inputs[0].op.name.endswith("sync_token_q")]
  assert len(takes) == 1, takes
  return takes[0].control_inputs


def _train_replicated(make_optimizer, batches):
  """Runs len(batches) synchronous steps on the cluster; returns (weights, chief's graph objects)."""
  spec, targets = _cluster()
  results, errors, chief_ready = {}, [], threading.Event()
  finished = threading.Barrier(NUM_WORKERS, timeout=60)  # every step done: the chief reads the results
  stopped = threading.Barrier(NUM_WORKERS, timeout=60)  # the chief's coordinator stopped: the workers drain

  def worker(task):
    graph = tf.Graph()
    with graph.as_default():
      device = V1.train.replica_device_setter(worker_device="/job:worker/task:%d" % task, cluster=spec)
      with V1.device(device):
        x = V1.placeholder(tf.float32, [None, DIM])
        y = V1.placeholder(tf.float32, [None, 1])
        loss, variables = _model(x, y)
        global_step = V1.train.get_or_create_global_step()
        optimizer, extra = make_optimizer()
        sync = optimizer if isinstance(optimizer, replicas.SyncReplicasOptimizer) else (
            optimizer.inner_optimizer)
        train_op = optimizer.minimize(loss, global_step=global_step)
      config = V1.ConfigProto(allow_soft_placement=True)
      with V1.Session(targets[task], config=config) as sess:
        if task == 0:
          sess.run(V1.global_variables_initializer())
          sess.run(sync.chief_init_op)
          sess.run(sync.get_init_tokens_op(num_tokens=0))
          coord = V1.train.Coordinator()
          threads = sync.get_chief_queue_runner().create_threads(sess, coord=coord, daemon=True,
                                                                 start=True)
          chief_ready.set()
        else:
          assert chief_ready.wait(60)
          sess.run(sync.local_step_init_op)
        for step, step_batches in enumerate(batches):
          bx, by = step_batches[task]
          try:
            sess.run(train_op, {x: bx, y: by}, options=STEP_OPTIONS)
          except tf.errors.DeadlineExceededError:
            raise AssertionError("worker %d waited %d s in synchronous step %d" % (
                task, STEP_OPTIONS.timeout_in_ms // 1000, step)) from None
          if task == 0 and coord.should_stop():
            coord.raise_requested_exception()  # the chief's token thread failed: no step will come
        finished.wait()
        if task == 0:
          results["weights"] = sess.run(variables)
          results["global_step"] = sess.run(global_step)
          results["extra"] = sess.run(extra(graph)) if extra else None
          coord.request_stop()
        stopped.wait()
        # The drain: every worker sends one more gradient, so the chief's token thread, blocked in the take of the
        # next step, completes that step and then sees the stop. Leaving that take to the session's close to cancel
        # hung once in a CI run (our best reading: a close that comes while the take's RunGraph call is being set up
        # loses the cancellation in TensorFlow's gRPC runtime).
        sess.run(_gradient_sends(graph), {x: bx, y: by}, options=STEP_OPTIONS)
        if task == 0:
          coord.join(threads, stop_grace_period_secs=30)

  def guarded(task):
    try:
      worker(task)
    except BaseException as e:  # pylint: disable=broad-except
      errors.append(e)
      chief_ready.set()
      finished.abort()
      stopped.abort()

  threads = [threading.Thread(target=guarded, args=(i,)) for i in range(NUM_WORKERS)]
  for t in threads:
    t.start()
  for t in threads:
    t.join(120)
  assert not any(t.is_alive() for t in threads), "a worker hung"
  if errors:
    raise errors[0]
  return results


def _train_single(optimizer, batches, transform=None):
  """The reference: one single-process step per synchronous step, on the concatenated batch."""
  graph = tf.Graph()
  with graph.as_default():
    x = V1.placeholder(tf.float32, [None, DIM])
    y = V1.placeholder(tf.float32, [None, 1])
    loss, variables = _model(x, y)
    global_step = V1.train.get_or_create_global_step()
    grads_and_vars = optimizer.compute_gradients(loss, variables)
    if transform is not None:
      grads_and_vars = transform(grads_and_vars)
    train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      for step_batches in batches:
        sess.run(train_op, {x: np.concatenate([b[0] for b in step_batches]),
                            y: np.concatenate([b[1] for b in step_batches])})
      return sess.run(variables), sess.run(global_step)


def _clip(norm):
  def transform(grads_and_vars):
    grads, variables = zip(*grads_and_vars)
    clipped, _ = tf.clip_by_global_norm(grads, norm)
    return list(zip(clipped, variables))
  return transform


def _sync(inner):
  return replicas.SyncReplicasOptimizer(inner, replicas_to_aggregate=NUM_WORKERS,
                                        total_num_replicas=NUM_WORKERS)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
@pytest.mark.parametrize("clip_norm", [None, 0.3])
def test_sync_step_equals_single_process_step_on_the_concatenated_batch(name, clip_norm):
  batches = _batches(steps=2)

  def make():
    inner = OPTIMIZERS[name]()
    if clip_norm is not None:
      return replicas.clip_aggregated_gradients(inner, clip_norm, NUM_WORKERS), None
    return _sync(inner), None

  replicated = _train_replicated(make, batches)
  expected, expected_step = _train_single(
      OPTIMIZERS[name](), batches, None if clip_norm is None else _clip(clip_norm))
  for got, want in zip(replicated["weights"], expected):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
  assert replicated["global_step"] == expected_step == 2


def test_clipping_outside_sync_replicas_clips_each_worker_before_the_mean():
  batches = _batches(steps=1)
  replicated = _train_replicated(
      lambda: (tf1clip.clip_gradients_by_norm(_sync(OPTIMIZERS["sgd"]()), 0.3), None), batches)

  # Reference: clip each worker's gradient, then average, then one SGD step.
  graph = tf.Graph()
  with graph.as_default():
    x = V1.placeholder(tf.float32, [None, DIM])
    y = V1.placeholder(tf.float32, [None, 1])
    loss, variables = _model(x, y)
    grads = tf.gradients(loss, variables)
    clipped, _ = tf.clip_by_global_norm(grads, 0.3)
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      start = sess.run(variables)
      per_worker = [sess.run(clipped, {x: b[0], y: b[1]}) for b in batches[0]]
  expected = [w - 0.1 * np.mean([g[i] for g in per_worker], axis=0) for i, w in enumerate(start)]
  for got, want in zip(replicated["weights"], expected):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
  # ... which is not the big-batch clipped step.
  big_batch, _ = _train_single(OPTIMIZERS["sgd"](), batches, _clip(0.3))
  assert not all(np.allclose(g, b, rtol=1e-5, atol=1e-6)
                 for g, b in zip(replicated["weights"], big_batch))


def test_accumulation_inside_sync_replicas_is_one_update_on_k_times_n_micro_batches():
  batches = _batches(steps=2)  # k = 2 synchronous steps x N = 2 workers = 4 micro-batches

  replicated = _train_replicated(
      lambda: (_sync(tf1clip.GradientAccumulationOptimizer(OPTIMIZERS["adam"](), 2)), None), batches)
  expected, _ = _train_single(OPTIMIZERS["adam"](), [[b for step in batches for b in step]])
  for got, want in zip(replicated["weights"], expected):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
  assert replicated["global_step"] == 2  # inside sync replicas it counts synchronous steps


def test_non_finite_gradient_from_one_worker_skips_the_whole_update_once():
  batches = _batches(steps=2)
  bad_x = batches[0][1][0].copy()
  bad_x[0, 0] = np.nan
  batches[0][1] = (bad_x, batches[0][1][1])

  def make():
    wrapped = tf1clip.WrappedOptimizer(OPTIMIZERS["adam"](), skip_non_finite=True)
    return _sync(wrapped), lambda graph: wrapped.skipped_steps

  replicated = _train_replicated(make, batches)
  expected, _ = _train_single(OPTIMIZERS["adam"](), batches[1:])  # the first step left no trace
  for got, want in zip(replicated["weights"], expected):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
  assert replicated["extra"] == 1
  assert replicated["global_step"] == 2


def test_chief_of_sync_replicas_closes_at_once_without_traceback():
  """MonitoredTrainingSession used to wait stop_grace_period_secs (120 s) and print CancelledError."""
  script = """
import tensorflow as tf, tf1clip.replicas as r
V1 = tf.compat.v1
V1.disable_eager_execution()
w = V1.get_variable("w", initializer=1.0)
gs = V1.train.get_or_create_global_step()
opt = r.SyncReplicasOptimizer(V1.train.GradientDescentOptimizer(0.1), 1, 1)
train = opt.minimize(tf.square(w), global_step=gs)
hooks = [opt.make_session_run_hook(True), V1.train.StopAtStepHook(last_step=3)]
with V1.train.MonitoredTrainingSession(hooks=hooks) as s:
  while not s.should_stop():
    s.run(train)
print("DONE")
"""
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  # TensorFlow's own class hangs here for stop_grace_period_secs (120 s): the timeout catches that.
  proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                        timeout=100)
  assert proc.returncode == 0, proc.stderr
  assert "DONE" in proc.stdout
  assert "CancelledError" not in proc.stderr


_RECOVERY_SCRIPT = """
import tensorflow as tf, tf1clip.replicas as r
V1 = tf.compat.v1
V1.disable_eager_execution()
w = V1.get_variable("w", initializer=1.0)
gs = V1.train.get_or_create_global_step()
opt = r.SyncReplicasOptimizer(V1.train.GradientDescentOptimizer(0.1), 1, 1)
train = opt.minimize(tf.square(w), global_step=gs)


class AbortOnce(V1.train.SessionRunHook):
  # The transient error TF's gRPC runtime raises at times ("The same RunGraph request was received
  # twice"): MonitoredSession closes its session and creates a new one.
  def __init__(self):
    self.raised = False
  def after_run(self, run_context, run_values):
    if not self.raised and run_context.session.run(gs) >= 2:
      self.raised = True
      raise tf.errors.AbortedError(None, None, "injected")


hooks = [opt.make_session_run_hook(True), V1.train.StopAtStepHook(last_step=5), AbortOnce()]
steps = 0
server = tf.distribute.Server.create_local_server()  # the token queue outlives a session, as on a ps
with V1.train.MonitoredTrainingSession(master=server.target, hooks=hooks) as s:
  while not s.should_stop():
    s.run(train)
    steps += 1
print("DONE after %d runs" % steps, flush=True)
# The aborted session's queue-runner threads may still be inside TensorFlow's C++ when the interpreter exits;
# under load Python 3.11 then ends them in a C++ catch block ("terminate called ... exception not rethrown",
# exit -6; seen twice in full-suite runs, never alone). What this test checks is done: leave without teardown.
import os
os._exit(0)
"""


def test_chief_recovers_from_an_aborted_session_and_trains_on():
  """TF's chief closed the token queue when MonitoredSession recreated its session: 'sync_token_q is closed'."""
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
  proc = subprocess.run([sys.executable, "-c", _RECOVERY_SCRIPT], env=env, capture_output=True,
                        text=True, timeout=100)
  assert proc.returncode == 0, proc.stderr
  assert "DONE after" in proc.stdout
  assert "is closed" not in proc.stderr


def test_the_token_threads_error_after_its_sessions_close_is_its_end_not_a_traceback():
  """Seen under load: MonitoredSession's recovery closed the session between two runs of the token thread, whose
  'Session is closed.' error the joined coordinator re-raised (a traceback on stderr). A real error still raises."""
  with tf.Graph().as_default():
    error = tf.errors.FailedPreconditionError(None, None, "Session is closed.")
    coord = V1.train.Coordinator()
    coord.request_stop()
    coord.join()  # MonitoredSession joins its coordinator, then closes the session
    sess = V1.Session()
    reporter = replicas._Unjoined(coord, sess)  # what the token thread reports to, from its `except` (QueueRunner._run)

    def thread_fails():
      try:
        raise error
      except tf.errors.FailedPreconditionError as e:
        reporter.request_stop(e)

    with pytest.raises(tf.errors.FailedPreconditionError):
      thread_fails()  # its session is open: a real failure, re-raised as TF's joined coordinator does
    sess.close()
    thread_fails()  # its session was closed under it: the thread's end


def test_a_failed_token_step_reaches_the_chief_instead_of_leaving_it_waiting_for_a_token():
  """The chief's enqueue thread fails: its error stops the coordinator, and the step waiting for a token returns."""
  with tf.Graph().as_default():
    queue = V1.FIFOQueue(-1, tf.int64, shapes=())
    failing = V1.assert_equal(V1.placeholder_with_default(1, []), 2, message="token step failed")
    with tf.control_dependencies([failing]):
      enqueue = queue.enqueue_many(([7],))
    wake = queue.enqueue_many((tf.fill([2], tf.constant(3, tf.int64)),))
    runner = replicas._ChiefQueueRunner(queue, [enqueue], wake_op=wake)
    runner.close_queue_on_stop = False
    coord = V1.train.Coordinator()
    token = queue.dequeue()
    with V1.Session() as sess:
      threads = runner.create_threads(sess, coord=coord, start=True)
      assert sess.run(token) == 3  # woken by one step's tokens, not left waiting
      assert coord.should_stop()
      with pytest.raises(tf.errors.InvalidArgumentError, match="token step failed"):
        coord.join(threads, stop_grace_period_secs=10)
      assert not sess.run(queue.is_closed())  # left open for a recreated session


def test_a_replica_that_ends_closes_the_token_queue_so_the_chief_does_not_wait_for_a_step_forever():
  """TF 1.x hung here (seen in CI): a replica ended holding a token whose gradient never came.

  Worker 1 trains alone to its last step (it sends both gradients of every step); the chief, which
  wants more steps, takes the token left over and would then wait forever for a second gradient.
  Worker 1's clean end closes the token queue, and the chief's next token take ends its
  `MonitoredTrainingSession` cleanly, as at the end of its input.
  """
  spec, targets = _cluster()
  chief_ready, worker_done, runs, errors = threading.Event(), threading.Event(), {}, []

  def worker(task, last_step):
    with tf.Graph().as_default():
      device = V1.train.replica_device_setter(worker_device="/job:worker/task:%d" % task, cluster=spec)
      with V1.device(device):
        batch = _batches(1, seed=task)[0][task]
        loss, _ = _model(tf.constant(batch[0]), tf.constant(batch[1]))
        global_step = V1.train.get_or_create_global_step()
        sync = replicas.SyncReplicasOptimizer(V1.train.GradientDescentOptimizer(0.1), NUM_WORKERS)
        train_op = sync.minimize(loss, global_step=global_step)
      hooks = [sync.make_session_run_hook(task == 0), V1.train.StopAtStepHook(last_step=last_step)]
      config = V1.ConfigProto(allow_soft_placement=True,
                              device_filters=["/job:ps", "/job:worker/task:%d" % task])
      with V1.train.MonitoredTrainingSession(master=targets[task], is_chief=task == 0, config=config,
                                             hooks=hooks, log_step_count_steps=0) as sess:
        if task == 0:
          chief_ready.set()
          assert worker_done.wait(60)
        runs[task] = 0
        while not sess.should_stop():
          sess.run(train_op)
          runs[task] += 1
    if task == 1:
      worker_done.set()

  def guarded(task, last_step):
    try:
      worker(task, last_step)
    except BaseException as e:  # pylint: disable=broad-except
      errors.append(e)
      chief_ready.set()
      worker_done.set()

  chief = threading.Thread(target=guarded, args=(0, 100), daemon=True)
  chief.start()
  assert chief_ready.wait(60)
  other = threading.Thread(target=guarded, args=(1, 4), daemon=True)
  other.start()
  other.join(60)
  chief.join(60)
  assert not errors, errors
  assert not chief.is_alive(), "the chief waited for a step no replica could complete"
  assert runs[1] >= 2 * 4, runs  # worker 1 sent both gradients of each of its 4 steps
  assert runs[0] <= 1, runs  # at most the token left over; the next take found the queue closed
