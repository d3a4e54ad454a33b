"""How do clipping, the wrappers and the non-finite guard scale with the number of variables?

A trivial model makes per-op costs show: n `[64, 64]` variables and the loss
``sum_i sum((w_i * x_i)^2)`` (dense) or ``sum_i sum(gather(w_i, ids)^2)`` with repeated ids
(sparse: every gradient is a tf.IndexedSlices with duplicate indices). Every variant gets its own
tf.Graph and Session from the same initial values; all are timed interleaved, round by round, in
this one process (benchmarks.timing), after one step shows they compute the same thing.

Tables:
  1. clipping, n = 10 .. 1000 (5000 with --sizes; SGD): TF's hand-written clip (compute_gradients ->
     tf.clip_by_global_norm -> apply_gradients) against tf1clip.clip_by_global_norm by hand and
     the clip_gradients_by_norm wrapper; dense weights after one step must be bit-identical.
     Target: each <= 1.02x TF's, dense. Sparse rows are printed for reference (tf1clip sums
     duplicate indices first, TF does not, so their norms differ by design).
  2. the guard, n = 200 (Adam) and 2000 (SGD by default: a cheaper step is the harder ratio;
     --large_guard_optimizer adam for the campaign's setting): WrappedOptimizer with
     skip_non_finite against the same wrapper without it, with and without a clip transform.
     Targets: <= 1.10x at 200, <= 1.25x at 2000.
  3. graph construction at 2000 variables: `minimize` through each wrapper against the plain
     optimizer's `minimize` (the build times of table 2's large graphs). Target: <= 1.10x.

Run:  python -m benchmarks.scaling [--sizes 10,100,1000,5000] [--sections dense,sparse,guard]
      (the default stops at 1000 variables; 5000 takes minutes and ~7 GB to build)
"""

import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from absl import app
from absl import flags
import numpy as np
import tensorflow as tf

import tf1clip
from benchmarks import timing

FLAGS = flags.FLAGS
# 5000 is opt-in: on a shared 2-core machine its four graphs take minutes to build and ~7 GB of
# Python graph objects.
flags.DEFINE_list("sizes", ["10", "100", "1000"], "variable counts of the clipping table "
                  "(the issue's full table: 10,100,1000,5000)")
flags.DEFINE_list("sparse_sizes", ["10", "100", "1000"], "variable counts of the sparse rows")
flags.DEFINE_list("guard_sizes", ["200", "2000"], "variable counts of the guard table")
flags.DEFINE_list("sections", ["dense", "sparse", "guard"], "tables to print: dense, sparse, guard")
flags.DEFINE_enum("small_guard_optimizer", "adam", ["sgd", "adam"], "inner optimizer, guard table, n < 1000")
flags.DEFINE_enum("large_guard_optimizer", "sgd", ["sgd", "adam"], "inner optimizer, guard table, n >= 1000")
flags.DEFINE_integer("width", 64, "each variable is [width, width]")
flags.DEFINE_float("clip_norm", 1.0, "global norm the clipping variants clip to (the gradients' is larger)")
flags.DEFINE_integer("warmup", 3, "untimed steps of each variant")
flags.DEFINE_integer("rounds", 7, "interleaved timing rounds (n < 1000)")
flags.DEFINE_integer("iters", 20, "steps of each variant per round (n < 1000)")
flags.DEFINE_integer("large_rounds", 5, "interleaved timing rounds (n >= 1000)")
flags.DEFINE_integer("large_iters", 4, "steps of each variant per round (n >= 1000)")

CLIP_TARGET = 1.02
GUARD_TARGETS = ((1000, 1.10), (None, 1.25))  # (n below which, target)
BUILD_TARGET = 1.10
V1 = tf.compat.v1

CLIP_VARIANTS = ("no clip (minimize)", "(a) TF by hand: tf.clip_by_global_norm",
                 "(b) tf1clip.clip_by_global_norm by hand", "(c) clip_gradients_by_norm")
GUARD_VARIANTS = ("plain minimize", "wrapper", "wrapper + guard", "wrapper + clip",
                  "wrapper + clip + guard")


def _optimizer(name):
  if name == "adam":
    return V1.train.AdamOptimizer(1e-3)
  return V1.train.GradientDescentOptimizer(0.01)


def _model(n, width, sparse):
  """The trivial model in the default graph: (loss, variables)."""
  variables = [V1.get_variable("w%d" % i, [width, width], initializer=V1.constant_initializer(
      0.01 * (i % 7 + 1))) for i in range(n)]
  if sparse:
    ids = tf.constant(np.arange(width // 2) % (width // 4), dtype=tf.int32)  # each id twice
    terms = [tf.reduce_sum(tf.square(tf.gather(w, ids))) for w in variables]
  else:
    x = tf.constant(np.linspace(0.5, 1.5, width * width, dtype=np.float32).reshape(width, width))
    terms = [tf.reduce_sum(tf.square(w * x)) for w in variables]
  return tf.add_n(terms), variables


def _clip_train_op(loss, variant, optimizer_name):
  opt = _optimizer(optimizer_name)
  global_step = V1.train.get_or_create_global_step()
  if variant.startswith("no clip"):
    return opt.minimize(loss, global_step)
  if "by hand" in variant:
    clip = tf.clip_by_global_norm if "TF" in variant else tf1clip.clip_by_global_norm
    grads, variables = zip(*opt.compute_gradients(loss))
    clipped, _ = clip(list(grads), FLAGS.clip_norm)
    return opt.apply_gradients(zip(clipped, variables), global_step)
  return tf1clip.clip_gradients_by_norm(opt, FLAGS.clip_norm).minimize(loss, global_step)


def _guard_train_op(loss, variant, optimizer_name):
  opt = _optimizer(optimizer_name)
  global_step = V1.train.get_or_create_global_step()
  if variant == "plain minimize":
    return opt.minimize(loss, global_step)
  transforms = [tf1clip.transforms.clip_by_global_norm(FLAGS.clip_norm)] if "clip" in variant else []
  wrapped = tf1clip.WrappedOptimizer(opt, transforms, skip_non_finite=variant.endswith("guard"))
  return wrapped.minimize(loss, global_step)


def _build_and_time(n, sparse, names, train_op_fn, optimizer_name):
  """Builds every variant; returns (seconds per step, build seconds, weights after one step)."""
  steps, sessions, build_seconds, weights = {}, [], {}, {}
  try:
    for name in names:
      graph = tf.Graph()
      with graph.as_default():
        loss, variables = _model(n, FLAGS.width, sparse)
        start = time.perf_counter()
        train_op = train_op_fn(loss, name, optimizer_name)
        build_seconds[name] = time.perf_counter() - start
        init = V1.global_variables_initializer()
      sess = V1.Session(graph=graph)
      sessions.append(sess)
      sess.run(init)
      sess.run(train_op)
      weights[name] = sess.run(variables)
      steps[name] = lambda sess=sess, op=train_op: sess.run(op)
    large = n >= 1000
    seconds = timing.median_seconds(
        steps, warmup=FLAGS.warmup, rounds=FLAGS.large_rounds if large else FLAGS.rounds,
        iters=FLAGS.large_iters if large else FLAGS.iters)
  finally:
    for sess in sessions:
      sess.close()
  return seconds, build_seconds, weights


def _max_difference(a, b):
  return max(float(np.max(np.abs(x - y))) for x, y in zip(a, b))


def _verdict(ratio, target):
  return "<= %.2f: %s" % (target, "met" if ratio <= target else "MISSED")


def _clip_rows(sizes, sparse, targets):
  rows, notes = [], []
  for n in sizes:
    seconds, build_seconds, weights = _build_and_time(n, sparse, CLIP_VARIANTS, _clip_train_op,
                                                      "sgd")
    reference = CLIP_VARIANTS[1]
    base = seconds[reference]
    for name in CLIP_VARIANTS:
      ratio = seconds[name] / base
      verdict = ""
      if name[:3] in ("(b)", "(c)") and not sparse:
        verdict = _verdict(ratio, CLIP_TARGET)
        targets.append(("clip %s, %d variables" % (name[:3], n), ratio, CLIP_TARGET))
      rows.append(["sparse" if sparse else "dense", n, name, "%.3f" % (seconds[name] * 1e3),
                   "%.3f" % ratio, verdict, "%.2f" % build_seconds[name],
                   "%.2f" % (build_seconds[name] / build_seconds[reference])])
    ours = CLIP_VARIANTS[2:]
    same = _max_difference(weights[ours[0]], weights[ours[1]])
    vs_tf = _max_difference(weights[reference], weights[ours[0]])
    if not sparse and (vs_tf != 0.0 or same != 0.0):
      raise AssertionError("dense, %d variables: the clipping variants differ from TF's by %g "
                           "(must be bit-identical)" % (n, max(vs_tf, same)))
    notes.append("%s, %d variables: after one step (b) vs (c) differ by %.1e, (b) vs (a) by %.1e%s"
                 % ("sparse" if sparse else "dense", n, same, vs_tf,
                    " (duplicates summed vs not: by design)" if sparse else ""))
  return rows, notes


def _guard_rows(sizes, targets, builds):
  rows, notes = [], []
  for n in sizes:
    optimizer_name = FLAGS.large_guard_optimizer if n >= 1000 else FLAGS.small_guard_optimizer
    seconds, build_seconds, weights = _build_and_time(n, False, GUARD_VARIANTS, _guard_train_op,
                                                      optimizer_name)
    target = next(t for limit, t in GUARD_TARGETS if limit is None or n < limit)
    for name in GUARD_VARIANTS:
      unguarded = name[:-len(" + guard")] if name.endswith(" + guard") else None
      ratio = seconds[name] / seconds[unguarded] if unguarded else None
      verdict = ""
      if ratio is not None:
        verdict = _verdict(ratio, target)
        targets.append(("guard (%s)/(%s), %d variables" % (name, unguarded, n), ratio, target))
      rows.append([n, optimizer_name, name, "%.3f" % (seconds[name] * 1e3),
                   "%.3f" % (seconds[name] / seconds["plain minimize"]),
                   "" if ratio is None else "%.3f" % ratio, verdict,
                   "%.2f" % build_seconds[name]])
    difference = _max_difference(weights["plain minimize"], weights["wrapper + guard"])
    if difference != 0.0:
      raise AssertionError("%d variables: the guarded wrapper differs from minimize by %g"
                           % (n, difference))
    notes.append("%d variables: after one step the guarded wrapper equals minimize bit for bit; "
                 "wrapper + clip + guard vs wrapper + clip differ by %.1e"
                 % (n, _max_difference(weights["wrapper + clip"], weights["wrapper + clip + guard"])))
    if n == max(sizes):
      builds.extend((n, optimizer_name, name, build_seconds[name],
                     build_seconds[name] / build_seconds["plain minimize"])
                    for name in GUARD_VARIANTS)
  return rows, notes


def main(argv):
  if len(argv) > 1:
    raise app.UsageError("unexpected arguments: %s" % " ".join(argv[1:]))
  unknown = set(FLAGS.sections) - {"dense", "sparse", "guard"}
  if unknown:
    raise app.UsageError("--sections takes dense, sparse, guard; got %s" % sorted(unknown))
  sys.stdout.reconfigure(line_buffering=True)  # tables appear as each finishes
  targets, builds = [], []
  header = ["gradients", "variables", "variant", "ms/step", "x/(a)", "target", "build s",
            "build x/(a)"]
  if "dense" in FLAGS.sections:
    rows, notes = _clip_rows([int(s) for s in FLAGS.sizes], False, targets)
    timing.print_table("clipping per step, dense, SGD, n x [%d, %d] variables" % (
        FLAGS.width, FLAGS.width), header, rows)
    print("\n".join(notes))
  if "sparse" in FLAGS.sections:
    rows, notes = _clip_rows([int(s) for s in FLAGS.sparse_sizes], True, targets)
    timing.print_table("clipping per step, sparse (IndexedSlices, duplicate ids), SGD", header,
                       rows)
    print("\n".join(notes))
  if "guard" in FLAGS.sections:
    rows, notes = _guard_rows([int(s) for s in FLAGS.guard_sizes], targets, builds)
    timing.print_table(
        "skip_non_finite per step: guarded / same wrapper unguarded (and / plain minimize)",
        ["variables", "optimizer", "variant", "ms/step", "x/plain", "guarded/unguarded",
         "target", "build s"], rows)
    print("\n".join(notes))
    build_rows = []
    for n, optimizer_name, name, seconds, ratio in builds:
      verdict = ""
      if name != "plain minimize":
        verdict = _verdict(ratio, BUILD_TARGET)
        targets.append(("build %s / plain, %d variables" % (name, n), ratio, BUILD_TARGET))
      build_rows.append([n, optimizer_name, name, "%.2f" % seconds, "%.3f" % ratio, verdict])
    timing.print_table("graph construction of minimize (one build each, same process)",
                       ["variables", "optimizer", "variant", "build s", "x/plain", "target"],
                       build_rows)
  print("targets:")
  for label, ratio, target in targets:
    print("  %-60s %.3f %s" % (label, ratio, _verdict(ratio, target)))


if __name__ == "__main__":
  app.run(main)
