"""What does a big batch cost in time and memory when it is split into k micro-batches?

On graphs/big_batch_mlp.py (MEMORY_BOUND sizes; at the default B = 8192 the activations of
one big batch are ~36x the parameters, so they dominate even next to Adam's two slots), with
the same total batch B and k = 4 micro-batches of B / k, one update (Adam) is made six ways:
  (i)   big batch `minimize`                         (1 run of B)
  (ii)  numpy averaging fed through placeholders     (k gradient runs + 1 apply run;
        tf1clip.HostGradientAverager)
  (iii) accumulator variables written by hand, as in the classic StackOverflow answer
        (1 zero run + k accumulate runs + 1 apply run)
  (iv)  tf1clip.GradientAccumulationOptimizer        (k runs; the k-th applies)
  (v)   tf1clip.fused_accumulation_step              (1 run; tf.while_loop over micro-batches)
  (vi)  Keras 3 Adam(gradient_accumulation_steps=k) in a tf.function (k calls)

Time: ms per update (wall clock), every variant in this process, timed interleaved
(benchmarks.timing.median_seconds); and "CPU ms/update", the process CPU time per update
measured in the variant's own subprocess (below), which other load on a shared machine
disturbs much less than the wall clock. Memory: each variant runs again in a subprocess of its own
(so peaks do not mix), with TensorFlow's CPU allocator switched to BFC
(TF_CPU_ALLOCATOR_USE_BFC=true) so that tf.config.experimental.get_memory_info("CPU:0")
reports the allocator's peak over a few updates ("TF peak": tensors, variables and the fed
batch); "RSS peak" is the subprocess's RSS high-water mark (VmHWM of /proc/self/status) and
"RSS growth" its rise over the RSS after the first update (what the steady state adds).
Ratios are printed against (i) and (iii). Targets: (v) time <= 1.10 x (i); (v) TF peak <=
0.5 x (i); (iv) time <= (iii).

A second configuration, small_mlp (MLP 512 -> 1024 -> 10, Adam, 4 micro-batches of 256), is
where per-run framework overhead shows instead of memory; its time target is (v) <= 1.05 x (i).

Run:  python -m benchmarks.accumulation [--configs memory_bound,small_mlp] [--batch_size 8192 --num_micro_batches 4]
          [--rounds 7 --iters 2] [--variants i,iv,v]
"""

import json
import os
import subprocess
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

import tf1clip
from benchmarks import timing

# graphs/ is the repository's folder of reference graphs, not an installed package.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from graphs import big_batch_mlp

FLAGS = flags.FLAGS
flags.DEFINE_integer("batch_size", None, "total examples per update (the big batch); default: "
                     "the configuration's (8192 memory_bound, 1024 small_mlp)")
flags.DEFINE_list("configs", ["memory_bound", "small_mlp"], "model sizes to run: " + ", ".join(
    ["memory_bound", "small_mlp"]))
flags.DEFINE_string("config", None, "internal: the configuration of a --memory_of subprocess")
flags.DEFINE_integer("num_micro_batches", 4, "k: micro-batches per update")
flags.DEFINE_float("learning_rate", 1e-3, "Adam learning rate of every variant")
flags.DEFINE_integer("warmup", 1, "untimed updates of each variant")
flags.DEFINE_integer("rounds", 3, "interleaved timing rounds")
flags.DEFINE_integer("iters", 1, "updates of each variant per round")
flags.DEFINE_integer("memory_updates", 3, "updates run while measuring memory")
flags.DEFINE_list("variants", ["i", "ii", "iii", "iv", "v", "vi"], "variants to run")
flags.DEFINE_string("memory_of", None, "internal: measure one variant's memory and print JSON")

NAMES = {
    "i": "(i) big batch minimize",
    "ii": "(ii) numpy averaging (placeholders)",
    "iii": "(iii) hand-written accumulators",
    "iv": "(iv) GradientAccumulationOptimizer",
    "v": "(v) fused while_loop",
    "vi": "(vi) Keras 3 gradient_accumulation_steps",
}


# name -> (big_batch_mlp sizes, default total batch). small_mlp is where framework overhead shows
# (issue 16: MLP 512 -> 1024 -> 10, Adam, 4 micro-batches of 256); its targets: (v) <= 1.05 x (i).
CONFIGS = {
    "memory_bound": (big_batch_mlp.MEMORY_BOUND, 8192),
    "small_mlp": ({"input_size": 512, "hidden_sizes": (1024,), "num_classes": 10}, 1024),
}
TIME_TARGETS = {"memory_bound": 1.10, "small_mlp": 1.05}
_CONFIG = {"name": "memory_bound"}


def _sizes():
  return CONFIGS[_CONFIG["name"]][0]


def _batch_size():
  return FLAGS.batch_size or CONFIGS[_CONFIG["name"]][1]


def _optimizer():
  return tf.compat.v1.train.AdamOptimizer(FLAGS.learning_rate)


def _data():
  """The big batch as numpy arrays, and its k micro-batches."""
  rng = np.random.default_rng(0)
  sizes = _sizes()
  x = rng.standard_normal((_batch_size(), sizes["input_size"])).astype(np.float32)
  y = rng.integers(0, sizes["num_classes"], _batch_size()).astype(np.int32)
  k = FLAGS.num_micro_batches
  return (x, y), list(zip(np.split(x, k), np.split(y, k)))


def _session(graph):
  with graph.as_default():
    init = tf.compat.v1.global_variables_initializer()
  sess = tf.compat.v1.Session(graph=graph)
  sess.run(init)
  return sess


def build_variant(name, big, micro):
  """Builds variant `name`; returns a zero-argument callable making one update."""
  k = FLAGS.num_micro_batches
  if name == "vi":
    return _keras_variant(micro)
  graph = tf.Graph()
  with graph.as_default():
    model = big_batch_mlp.build(**_sizes())
    x, y = model.placeholders["inputs"], model.placeholders["labels"]
    big_feed = {x: big[0], y: big[1]}
    micro_feeds = [{x: mx, y: my} for mx, my in micro]
    if name == "i":
      train_op = _optimizer().minimize(model.loss)
    elif name == "ii":
      averager = tf1clip.HostGradientAverager(_optimizer(), model.loss)
    elif name == "iii":
      # The classic answer, minus tv.initialized_value() (NotImplementedError on TF 2.21).
      tvs = model.variables
      accum_vars = [tf.Variable(tf.zeros(tv.shape, tv.dtype), trainable=False) for tv in tvs]
      zero_ops = [av.assign(tf.zeros_like(av)) for av in accum_vars]
      opt = _optimizer()
      gvs = opt.compute_gradients(model.loss, tvs)
      accum_ops = [accum_vars[i].assign_add(gv[0]) for i, gv in enumerate(gvs)]
      train_step = opt.apply_gradients([(accum_vars[i] / k, gv[1]) for i, gv in enumerate(gvs)])
    elif name == "iv":
      train_op = tf1clip.GradientAccumulationOptimizer(_optimizer(), k).minimize(model.loss)
    elif name == "v":
      step = tf1clip.fused_accumulation_step(
          lambda batch: model.loss_fn(batch["x"], batch["y"]), {"x": x, "y": y}, k,
          _optimizer(), var_list=model.variables)
      train_op = step.train_op
    else:
      raise ValueError("unknown variant %r" % name)
  sess = _session(graph)
  if name in ("i", "v"):
    return lambda: sess.run(train_op, big_feed)
  if name == "ii":
    return lambda: averager.step(sess, micro_feeds)
  if name == "iii":
    def classic_update():
      sess.run(zero_ops)
      for feed in micro_feeds:
        sess.run(accum_ops, feed)
      sess.run(train_step)
    return classic_update

  def accumulated_update():
    for feed in micro_feeds:
      sess.run(train_op, feed)
  return accumulated_update


def _keras_variant(micro):
  import keras  # pylint: disable=import-outside-toplevel
  sizes = _sizes()
  layers = [keras.Input((sizes["input_size"],))]
  layers += [keras.layers.Dense(w, activation="relu") for w in sizes["hidden_sizes"]]
  layers += [keras.layers.Dense(sizes["num_classes"])]
  model = keras.Sequential(layers)
  opt = keras.optimizers.Adam(FLAGS.learning_rate,
                              gradient_accumulation_steps=FLAGS.num_micro_batches)
  loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

  @tf.function
  def micro_step(x, y):
    with tf.GradientTape() as tape:
      loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    opt.apply_gradients(zip(grads, model.trainable_variables))

  tensors = [(tf.constant(mx), tf.constant(my)) for mx, my in micro]

  def keras_update():
    for mx, my in tensors:
      micro_step(mx, my)
  return keras_update


def _proc_status_mb(field):
  # VmHWM (the RSS high-water mark) belongs to the process image and restarts at exec;
  # getrusage's ru_maxrss would carry over the parent's peak into the subprocess.
  with open("/proc/self/status") as f:
    for line in f:
      if line.startswith(field + ":"):
        return int(line.split()[1]) / 2**10
  raise RuntimeError("no %s in /proc/self/status" % field)


def measure_memory(name):
  """Runs variant `name` a few updates; returns its memory figures (MB) as a dict."""
  big, micro = _data()
  update = build_variant(name, big, micro)
  update()  # first run: allocations that persist (variables, slots, accumulators)
  rss_before = _proc_status_mb("VmRSS")
  cpu_start = time.process_time()
  for _ in range(FLAGS.memory_updates):
    update()
  cpu_seconds = (time.process_time() - cpu_start) / FLAGS.memory_updates
  try:
    tf_peak = tf.config.experimental.get_memory_info("CPU:0")["peak"] / 2**20
  except ValueError:  # allocator without stats (TF_CPU_ALLOCATOR_USE_BFC not honoured)
    tf_peak = float("nan")
  rss_peak = _proc_status_mb("VmHWM")
  return {"tf_peak_mb": tf_peak, "rss_peak_mb": rss_peak,
          "rss_growth_mb": max(0.0, rss_peak - rss_before), "cpu_seconds": cpu_seconds}


def _memory_in_subprocess(name):
  env = dict(os.environ, TF_CPU_ALLOCATOR_USE_BFC="true", TF_CPP_MIN_LOG_LEVEL="3")
  argv = [sys.executable, "-m", "benchmarks.accumulation", "--memory_of", name,
          "--config", _CONFIG["name"], "--batch_size", str(_batch_size()),
          "--num_micro_batches", str(FLAGS.num_micro_batches),
          "--memory_updates", str(FLAGS.memory_updates)]
  out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True,
                       cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
  return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv):
  del argv
  if FLAGS.memory_of:
    _CONFIG["name"] = FLAGS.config or "memory_bound"
    print(json.dumps(measure_memory(FLAGS.memory_of)))
    return
  unknown = sorted(set(FLAGS.variants) - set(NAMES))
  if unknown:
    raise app.UsageError("unknown --variants %s; choose from %s" % (unknown, sorted(NAMES)))
  unknown = sorted(set(FLAGS.configs) - set(CONFIGS))
  if unknown:
    raise app.UsageError("unknown --configs %s; choose from %s" % (unknown, sorted(CONFIGS)))
  for config in FLAGS.configs:
    _CONFIG["name"] = config
    if _batch_size() % FLAGS.num_micro_batches:
      raise app.UsageError("--batch_size must be divisible by --num_micro_batches")
    _run_config(config)


def _verdict(value, target):
  return "(target <= %.2f: %s)" % (target, "met" if value <= target else "MISSED")


def _run_config(config):
  """Times, measures and prints one configuration's table."""
  variants = [v for v in NAMES if v in FLAGS.variants]
  big, micro = _data()
  updates = {v: build_variant(v, big, micro) for v in variants}
  seconds = timing.median_seconds(updates, warmup=FLAGS.warmup, rounds=FLAGS.rounds,
                                  iters=FLAGS.iters)
  memory = {v: _memory_in_subprocess(v) for v in variants}

  def ratio(v, ref, values):
    return "%.2f" % (values[v] / values[ref]) if ref in values else "-"

  tf_peaks = {v: memory[v]["tf_peak_mb"] for v in variants}
  cpu = {v: memory[v]["cpu_seconds"] for v in variants}
  rows = []
  for v in variants:
    rows.append([NAMES[v], "%.1f" % (1e3 * seconds[v]), ratio(v, "i", seconds),
                 ratio(v, "iii", seconds), "%.1f" % (1e3 * cpu[v]), ratio(v, "i", cpu),
                 "%.1f" % memory[v]["tf_peak_mb"],
                 ratio(v, "i", tf_peaks), "%.0f" % memory[v]["rss_peak_mb"],
                 "%.0f" % memory[v]["rss_growth_mb"]])
  sizes = _sizes()
  k = FLAGS.num_micro_batches
  timing.print_table(
      "Gradient accumulation (%s) on big_batch_mlp %d -> %s -> %d, batch %d = %d x %d, Adam"
      % (config, sizes["input_size"], sizes["hidden_sizes"], sizes["num_classes"],
         _batch_size(), k, _batch_size() // k),
      ["variant", "ms/update", "time/(i)", "time/(iii)", "CPU ms/update", "CPU/(i)",
       "TF peak MB", "peak/(i)",
       "RSS peak MB", "RSS growth MB"], rows)
  checks = []
  if "v" in seconds and "i" in seconds:
    checks.append("%s: (v) time/(i) = %.2f %s; CPU time/(i) = %.2f %s"
                  % (config, seconds["v"] / seconds["i"],
                     _verdict(seconds["v"] / seconds["i"], TIME_TARGETS[config]),
                     cpu["v"] / cpu["i"], _verdict(cpu["v"] / cpu["i"], TIME_TARGETS[config])))
    if config == "memory_bound":
      checks.append("%s: (v) TF peak/(i) = %.2f %s" % (
          config, tf_peaks["v"] / tf_peaks["i"], _verdict(tf_peaks["v"] / tf_peaks["i"], 0.5)))
  if "iv" in seconds and "iii" in seconds:
    checks.append("%s: (iv) time/(iii) = %.2f %s; CPU time/(iii) = %.2f"
                  % (config, seconds["iv"] / seconds["iii"],
                     _verdict(seconds["iv"] / seconds["iii"], 1.0), cpu["iv"] / cpu["iii"]))
  for line in checks:
    print(line)


if __name__ == "__main__":
  app.run(main)
