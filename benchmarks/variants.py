"""Variants of one training step built side by side, timed together, compared after one step.

A benchmark compares ways of writing the same training step (`minimize`, hand-written clipping,
a tf1clip wrapper). Each variant gets its own tf.Graph and Session built by the same model
builder, so all start from the same weights and are fed the same batch; `time_variants` times
them interleaved (benchmarks.timing) and reports how far their weights are apart after one step,
which shows the variants compute the same thing.
"""

import numpy as np
import tensorflow as tf

from benchmarks import timing


def optimizer_named(name):
  """The inner optimizer the benchmarks use: "adam" (lr 1e-3) or "sgd" (lr 0.01)."""
  if name == "adam":
    return tf.compat.v1.train.AdamOptimizer(1e-3)
  return tf.compat.v1.train.GradientDescentOptimizer(0.01)


def time_variants(build, train_op_fn, variants, batch_size, reference, compared, warmup, rounds,
                  iters):
  """Builds, checks and times the variants of one training step.

  Args:
    build: zero-argument callable building the model (a graphs.model.Model) in the default graph.
    train_op_fn: callable (loss, variant) -> train op, called in the variant's graph.
    variants: variant names, in table order.
    batch_size: examples fed to every step.
    reference: the variant `compared` are checked against after one step.
    compared: the variants that must compute what `reference` computes.
    warmup, rounds, iters: as benchmarks.timing.median_seconds.

  Returns:
    (seconds, op_counts, difference): dicts variant -> median seconds per step and -> number of
    ops in its graph, and the max |weight difference| of `compared` from `reference` after one
    step.
  """
  steps, sessions, variables, op_counts = {}, {}, {}, {}
  arrays = None
  try:
    for variant in variants:
      graph = tf.Graph()
      with graph.as_default():
        model = build()
        train_op = train_op_fn(model.loss, variant)
        op_counts[variant] = len(graph.get_operations())
        init = tf.compat.v1.global_variables_initializer()
      sess = sessions[variant] = tf.compat.v1.Session(graph=graph)
      sess.run(init)
      if arrays is None:
        arrays = model.make_arrays(0, batch_size)
      feed = model.feed(arrays)
      steps[variant] = lambda sess=sess, train_op=train_op, feed=feed: sess.run(train_op, feed)
      variables[variant] = model.variables
    for step in steps.values():
      step()
    values = {v: sessions[v].run(variables[v]) for v in variants}
    difference = max(float(np.max(np.abs(x - y)))
                     for v in compared
                     for x, y in zip(values[reference], values[v]))
    seconds = timing.median_seconds(steps, warmup=warmup, rounds=rounds, iters=iters)
  finally:
    for sess in sessions.values():
      sess.close()
  return seconds, op_counts, difference
