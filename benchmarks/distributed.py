"""Synchronous replicas on loopback: steps/s and examples/s for 1, 2, 4 workers, and what clipping costs.

One in-process cluster (1 ps + the largest worker count, `tf.distribute.Server`s on loopback ports)
serves every configuration. A configuration is (workers N, clipping) with N workers doing
between-graph replication of a small MLP (`replica_device_setter`, one graph and session per
worker, driven from one thread per worker, as tests/test_replicas.py does) through
`tf1clip.replicas.SyncReplicasOptimizer` with zero initial tokens, so every synchronous step
aggregates exactly one gradient from each of the N workers. Clipping (global norm) is:
  none         SyncReplicasOptimizer(opt)
  aggregated   replicas.clip_aggregated_gradients(opt, c, N): the chief clips the mean gradient
  per_worker   clip_gradients_by_norm(SyncReplicasOptimizer(opt), c): each worker clips its own
Each configuration builds its graphs inside its own resource container, so all of them live on the
one ps side by side (SyncReplicasOptimizer's token queue has a fixed shared_name) and are timed
interleaved, round by round, like benchmarks.timing does (machine noise hits every row alike).

A row's time is the wall time of `iters` synchronous steps of all N workers, median over rounds;
steps/s counts synchronous (global) steps, examples/s = steps/s * N * batch_size.

Run:  python -m benchmarks.distributed [--workers 1,2,4] [--rounds 7 --iters 20]
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import socket
import statistics
import threading
import time

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

import tf1clip
from benchmarks import timing
from benchmarks import variants
from tf1clip import replicas

V1 = tf.compat.v1

FLAGS = flags.FLAGS
flags.DEFINE_list("workers", ["1", "2", "4"], "worker counts to time (each with the one ps)")
flags.DEFINE_list("clipping", ["none", "aggregated", "per_worker"], "clipping variants to time")
flags.DEFINE_enum("optimizer", "sgd", ["sgd", "adam"], "inner optimizer")
flags.DEFINE_float("clip_norm", 1.0, "global-norm threshold of the clipping variants")
flags.DEFINE_integer("batch_size", 32, "examples per worker per step")
flags.DEFINE_integer("input_size", 64, "MLP input features")
flags.DEFINE_integer("hidden_size", 128, "MLP units of each of the two hidden layers")
flags.DEFINE_integer("num_classes", 10, "MLP classes")
flags.DEFINE_integer("warmup", 3, "untimed synchronous steps of each configuration")
flags.DEFINE_integer("rounds", 7, "interleaved timing rounds")
flags.DEFINE_integer("iters", 20, "synchronous steps of each configuration per round")

CLIPPING = ("none", "aggregated", "per_worker")
STEP_TIMEOUT_SECONDS = 120  # a stuck synchronous step fails the benchmark instead of hanging it


def _free_port():
  with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    return s.getsockname()[1]


def _start_cluster(num_workers):
  """Starts 1 ps + `num_workers` worker servers in this process; returns (spec, worker targets)."""
  spec = tf.train.ClusterSpec({
      "ps": ["127.0.0.1:%d" % _free_port()],
      "worker": ["127.0.0.1:%d" % _free_port() for _ in range(num_workers)]})
  config = V1.ConfigProto(allow_soft_placement=True)
  servers = [tf.distribute.Server(spec, "ps", 0, config=config)] + [
      tf.distribute.Server(spec, "worker", i, config=config) for i in range(num_workers)]
  return spec, [s.target for s in servers[1:]], servers


def _mlp(x, y):
  """Two tanh layers and a softmax; seeded initial weights (the same for every worker)."""
  rng = np.random.RandomState(0)
  sizes = [FLAGS.input_size, FLAGS.hidden_size, FLAGS.hidden_size, FLAGS.num_classes]
  h = x
  for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:])):
    w = V1.get_variable("w%d" % i, initializer=(rng.randn(m, n) / np.sqrt(m)).astype(np.float32))
    b = V1.get_variable("b%d" % i, initializer=np.zeros(n, np.float32))
    h = tf.matmul(h, w) + b
    if i < len(sizes) - 2:
      h = tf.tanh(h)
  return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=h))


def _optimizer(clipping, num_workers):
  """Returns (the optimizer to minimize with, its SyncReplicasOptimizer)."""
  inner = variants.optimizer_named(FLAGS.optimizer)
  if clipping == "none":
    sync = replicas.SyncReplicasOptimizer(inner, replicas_to_aggregate=num_workers)
    return sync, sync
  if clipping == "aggregated":
    sync = replicas.clip_aggregated_gradients(inner, FLAGS.clip_norm, num_workers)
    return sync, sync
  sync = replicas.SyncReplicasOptimizer(inner, replicas_to_aggregate=num_workers)
  return tf1clip.clip_gradients_by_norm(sync, FLAGS.clip_norm), sync


class _Config:
  """One (worker count, clipping) configuration: a graph and a session per worker, ready to step."""

  def __init__(self, spec, targets, num_workers, clipping):
    self.num_workers, self.clipping = num_workers, clipping
    self.sessions, self.steps = [], []
    self._coord = V1.train.Coordinator()
    # Letters and digits only: the resource manager refuses some characters in container names.
    container = "workers%d%s" % (num_workers, clipping.replace("_", ""))
    rng = np.random.RandomState(1)
    for task in range(num_workers):
      graph = tf.Graph()
      with graph.as_default():
        with V1.container(container):
          device = V1.train.replica_device_setter(
              worker_device="/job:worker/task:%d" % task, cluster=spec)
          with V1.device(device):
            x = V1.placeholder(tf.float32, [None, FLAGS.input_size])
            y = V1.placeholder(tf.int32, [None])
            loss = _mlp(x, y)
            global_step = V1.train.get_or_create_global_step()
            optimizer, sync = _optimizer(clipping, num_workers)
            train_op = optimizer.minimize(loss, global_step=global_step)
          init = V1.global_variables_initializer()
        sess = V1.Session(targets[task], graph=graph,
                          config=V1.ConfigProto(allow_soft_placement=True))
        self.sessions.append(sess)
        if task == 0:
          sess.run(init)
          sess.run(sync.chief_init_op)
          # No initial tokens: each worker's step waits for the synchronous update, so every
          # update aggregates exactly one gradient from every worker.
          sync.get_chief_queue_runner().create_threads(sess, coord=self._coord, daemon=True,
                                                       start=True)
          self.global_step = lambda sess=sess, global_step=global_step: sess.run(global_step)
        else:
          sess.run(sync.local_step_init_op)
      feed = {x: rng.randn(FLAGS.batch_size, FLAGS.input_size).astype(np.float32),
              y: rng.randint(0, FLAGS.num_classes, FLAGS.batch_size).astype(np.int32)}
      self.steps.append(lambda sess=sess, train_op=train_op, feed=feed: sess.run(train_op, feed))

  def run(self, num_steps):
    """Runs `num_steps` synchronous steps on all workers at once; returns the wall seconds."""
    errors = []

    def work(step):
      try:
        for _ in range(num_steps):
          step()
      except Exception as e:  # pylint: disable=broad-except
        errors.append(e)

    threads = [threading.Thread(target=work, args=(s,), daemon=True) for s in self.steps]
    start = time.perf_counter()
    for t in threads:
      t.start()
    for t in threads:
      t.join(STEP_TIMEOUT_SECONDS * max(num_steps, 1))
    seconds = time.perf_counter() - start
    if errors:
      raise errors[0]
    if any(t.is_alive() for t in threads):
      raise RuntimeError("%d workers, clipping %s: a synchronous step did not finish in time"
                         % (self.num_workers, self.clipping))
    return seconds

  def close(self):
    self._coord.request_stop()
    for sess in self.sessions:
      sess.close()


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  try:
    worker_counts = [int(n) for n in FLAGS.workers]
  except ValueError:
    raise app.UsageError("--workers takes positive integers; got %s" % ",".join(FLAGS.workers))
  if not worker_counts or min(worker_counts) < 1:
    raise app.UsageError("--workers takes positive integers; got %s" % ",".join(FLAGS.workers))
  unknown = set(FLAGS.clipping) - set(CLIPPING)
  if unknown or not FLAGS.clipping:
    raise app.UsageError("--clipping takes %s; got %s" % (", ".join(CLIPPING),
                                                          ",".join(FLAGS.clipping)))
  clippings = [c for c in CLIPPING if c in FLAGS.clipping]
  spec, targets, servers = _start_cluster(max(worker_counts))
  configs = [_Config(spec, targets, n, c) for n in worker_counts for c in clippings]
  try:
    for config in configs:
      config.run(FLAGS.warmup)
    samples = {config: [] for config in configs}
    for _ in range(FLAGS.rounds):
      for config in configs:
        samples[config].append(config.run(FLAGS.iters) / FLAGS.iters)
    expected_steps = FLAGS.warmup + FLAGS.rounds * FLAGS.iters
    miscounted = [c for c in configs if c.global_step() != expected_steps]
    if miscounted:
      raise RuntimeError("global_step is not the number of synchronous steps run (%d) for %s"
                         % (expected_steps, ", ".join("%d workers/%s: %d" % (
                             c.num_workers, c.clipping, c.global_step()) for c in miscounted)))
  finally:
    for config in configs:
      config.close()
  seconds = {config: statistics.median(s) for config, s in samples.items()}
  rows = []
  for config in configs:
    s = seconds[config]
    base = [c for c in configs if c.num_workers == config.num_workers and c.clipping == "none"]
    rows.append([config.num_workers, config.clipping, "%.2f" % (s * 1e3),
                 "%.1f" % (1.0 / s), "%.0f" % (config.num_workers * FLAGS.batch_size / s),
                 "%.3f" % (s / seconds[base[0]]) if base else "",
                 "%.2f-%.2f" % (min(samples[config]) * 1e3, max(samples[config]) * 1e3)])
  cores = os.cpu_count() or 0
  timing.print_table(
      "SyncReplicasOptimizer on loopback, 1 ps + N workers in one process (MLP %d-%d-%d-%d, %s, "
      "batch %d per worker, clip_norm %g; %d rounds x %d synchronous steps, median; CPU count %d)"
      % (FLAGS.input_size, FLAGS.hidden_size, FLAGS.hidden_size, FLAGS.num_classes,
         FLAGS.optimizer, FLAGS.batch_size, FLAGS.clip_norm, FLAGS.rounds, FLAGS.iters, cores),
      ["workers", "clipping", "ms/step", "steps/s", "examples/s", "vs none", "ms/step range"],
      rows)
  print("global_step advanced once per synchronous step in every configuration (%d steps each)."
        % expected_steps)
  busiest = max(worker_counts) + 1
  if cores < busiest:
    print("What this means on %d cores: the %d tasks (ps + %d workers) share %d cores, so the "
          "workers' steps take turns instead of running in parallel; examples/s across worker "
          "counts measures the synchronous protocol's overhead on loopback (gRPC, the chief's "
          "aggregation, the token queue), not the scaling of a cluster with a machine per task."
          % (cores, busiest, max(worker_counts), cores))
  else:
    print("What this means: with %d cores every task (ps + up to %d workers) can have a core "
          "of its own, so examples/s across worker counts approximates scaling on loopback "
          "(no network latency, one shared memory bus)." % (cores, max(worker_counts)))
  print("Clipping: 'aggregated' adds one global-norm clip on the chief per synchronous step; "
        "'per_worker' adds one on every worker (in parallel, on N different gradients).")
  del servers  # kept alive until here: the sessions above talk to them


if __name__ == "__main__":
  app.run(main)
