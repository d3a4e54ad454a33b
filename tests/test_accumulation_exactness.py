"""n accumulated micro-batches == one inner step on the big batch, for every TF1 optimizer.

Reference: a separate graph where the inner optimizer minimizes the mean loss over the big
batch (equal micro-batch sizes, so its loss is the mean of the micro-batch mean losses).
Compared: every variable of that graph (weights, global_step, slots, Adam's beta powers),
by name, after two windows.
"""

import warnings

import hypothesis
from hypothesis import strategies as st
import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from tf1clip.accumulation import GradientAccumulationOptimizer

MICRO = 3
D_IN, D_OUT, VOCAB, EMB = 4, 2, 7, 3
WINDOWS = 2

OPTIMIZERS = {
    "sgd": lambda: tf.compat.v1.train.GradientDescentOptimizer(0.1),
    "momentum": lambda: tf.compat.v1.train.MomentumOptimizer(0.1, 0.9),
    "adam": lambda: tf.compat.v1.train.AdamOptimizer(0.05),
    "adagrad": lambda: tf.compat.v1.train.AdagradOptimizer(0.1),
    "rmsprop": lambda: tf.compat.v1.train.RMSPropOptimizer(0.05, momentum=0.5),
    "ftrl": lambda: tf.compat.v1.train.FtrlOptimizer(
        0.1, l1_regularization_strength=0.01, l2_regularization_strength=0.01),
}


def build_model(batch_size, sparse):
  """A linear model (dense w, b) plus, with `sparse`, an embedding bag (IndexedSlices)."""
  rng = np.random.default_rng(0)
  x = tf.compat.v1.placeholder(tf.float32, [batch_size, D_IN], name="x")
  y = tf.compat.v1.placeholder(tf.float32, [batch_size, D_OUT], name="y")
  ids = tf.compat.v1.placeholder(tf.int32, [batch_size, 2], name="ids")
  w = tf.compat.v1.get_variable("w", initializer=rng.normal(size=(D_IN, D_OUT)).astype("f"))
  b = tf.compat.v1.get_variable("b", initializer=np.zeros(D_OUT, "f"))
  out = tf.matmul(x, w) + b
  if sparse:
    emb = tf.compat.v1.get_variable("emb", initializer=rng.normal(size=(VOCAB, EMB)).astype("f"))
    proj = tf.constant(rng.normal(size=(EMB, D_OUT)).astype("f"))
    out += tf.matmul(tf.reduce_sum(tf.gather(emb, ids), axis=1), proj)
  loss = tf.reduce_mean(tf.square(out - y))
  return (x, y, ids), loss


def make_data(n, seed=1):
  """WINDOWS big batches of n * MICRO rows; ids repeat within and across micro-batches.

  The last two embedding rows are never touched, and window w draws ids from the first
  VOCAB - 2 - 2 * w rows: rows touched in one window and not in the next tell apart a
  sparse update (touched rows only) from a dense one (Momentum, RMSProp and Ftrl differ).
  """
  rng = np.random.default_rng(seed)
  rows = n * MICRO
  ids = [rng.integers(0, VOCAB - 2 - 2 * w, size=(rows, 2)) for w in range(WINDOWS)]
  return (rng.normal(size=(WINDOWS * rows, D_IN)).astype("f"),
          rng.normal(size=(WINDOWS * rows, D_OUT)).astype("f"),
          np.concatenate(ids).astype("int32"))


def final_state(graph, sess):
  names = [v for v in graph.get_collection(tf.compat.v1.GraphKeys.GLOBAL_VARIABLES)
           if "GradientAccumulation" not in v.op.name]
  return dict(zip([v.op.name for v in names], sess.run(names)))


def run_accumulated(make_opt, n, sparse, data):
  graph = tf.Graph()
  with graph.as_default():
    placeholders, loss = build_model(MICRO, sparse)
    gs = tf.compat.v1.train.get_or_create_global_step()
    opt = GradientAccumulationOptimizer(make_opt(), n)
    train_op = opt.minimize(loss, global_step=gs)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for start in range(0, len(data[0]), MICRO):
        sess.run(train_op, dict(zip(placeholders, (d[start:start + MICRO] for d in data))))
      return final_state(graph, sess)


def run_big_batch(make_opt, n, sparse, data):
  graph = tf.Graph()
  with graph.as_default():
    placeholders, loss = build_model(n * MICRO, sparse)
    gs = tf.compat.v1.train.get_or_create_global_step()
    train_op = make_opt().minimize(loss, global_step=gs)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for start in range(0, len(data[0]), n * MICRO):
        sess.run(train_op, dict(zip(placeholders, (d[start:start + n * MICRO] for d in data))))
      return final_state(graph, sess)


def assert_same_state(got, want):
  assert sorted(got) == sorted(want)
  for name in want:
    np.testing.assert_allclose(got[name], want[name], rtol=2e-5, atol=2e-6, err_msg=name)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("optimizer", sorted(OPTIMIZERS))
def test_n_micro_steps_equal_one_big_batch_step_dense_and_sparse(optimizer, n):
  # The model has dense variables (w, b) and an embedding whose ids repeat within and
  # across micro-batches (IndexedSlices), so every cell covers both kinds of accumulator.
  data = make_data(n, seed=n)
  want = run_big_batch(OPTIMIZERS[optimizer], n, True, data)
  got = run_accumulated(OPTIMIZERS[optimizer], n, True, data)
  assert want["global_step"] == WINDOWS
  assert {"w", "b", "emb"} <= set(want)
  assert_same_state(got, want)


def test_dense_only_model_equals_big_batch():
  data = make_data(3)
  want = run_big_batch(OPTIMIZERS["adam"], 3, False, data)
  got = run_accumulated(OPTIMIZERS["adam"], 3, False, data)
  assert_same_state(got, want)


def test_adam_beta_powers_advance_once_per_applied_update(graph, sess):
  placeholders, loss = build_model(MICRO, False)
  adam = tf.compat.v1.train.AdamOptimizer(0.05, beta1=0.9, beta2=0.999)
  train_op = GradientAccumulationOptimizer(adam, 3).minimize(loss)
  beta1_power, beta2_power = adam._get_beta_accumulators()  # pylint: disable=protected-access
  sess.run(tf.compat.v1.global_variables_initializer())
  data = make_data(3)
  seen = []
  for start in range(0, 6 * MICRO, MICRO):
    sess.run(train_op, dict(zip(placeholders, (d[start:start + MICRO] for d in data))))
    seen.append(sess.run([beta1_power, beta2_power]))
  np.testing.assert_allclose(
      seen, [[0.9, 0.999]] * 2 + [[0.81, 0.998001]] * 3 + [[0.729, 0.997003]], rtol=1e-6)


def test_sparse_accumulator_equals_densified_sum_and_never_densifies(graph, sess):
  placeholders, loss = build_model(MICRO, True)
  emb = [v for v in tf.compat.v1.global_variables() if v.op.name == "emb"][0]
  sparse_grad = tf.gradients(loss, [emb])[0]
  assert isinstance(sparse_grad, tf.IndexedSlices)
  with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    opt = GradientAccumulationOptimizer(tf.compat.v1.train.MomentumOptimizer(0.1, 0.9), 4)
    train_op = opt.minimize(loss)
  assert not [w for w in caught if "dense Tensor" in str(w.message)]
  # TF converts a small IndexedSlices of static shape to a dense Tensor silently (through an
  # UnsortedSegmentSum), so the warning alone proves nothing: check the ops of a micro-step.
  accumulate = {op.type for op in graph.get_operations()
                if op.name.startswith("GradientAccumulation/accumulate/")}
  assert "ResourceScatterAdd" in accumulate and "UnsortedSegmentSum" not in accumulate
  accumulator = [v for v in opt.variables() if v.op.name == "emb/GradientAccumulation"][0]
  sess.run(tf.compat.v1.global_variables_initializer())
  data = make_data(4)
  want = np.zeros((VOCAB, EMB), np.float32)
  for start in range(0, 3 * MICRO, MICRO):
    feed = dict(zip(placeholders, (d[start:start + MICRO] for d in data)))
    g = sess.run(sparse_grad, feed)
    np.add.at(want, g.indices, g.values)  # densify on the host for the reference
    sess.run(train_op, feed)
  assert len(set(data[2][:3 * MICRO].ravel())) < data[2][:3 * MICRO].size  # rows repeat
  np.testing.assert_allclose(sess.run(accumulator), want, rtol=1e-6, atol=1e-6)


def test_learning_rate_schedule_sees_updates_not_micro_steps():
  def make_opt_with_schedule():
    gs = tf.compat.v1.train.get_or_create_global_step()
    lr = tf.compat.v1.train.exponential_decay(0.1, gs, decay_steps=1, decay_rate=0.5)
    return tf.compat.v1.train.MomentumOptimizer(lr, 0.9)
  data = make_data(2)
  want = run_big_batch(make_opt_with_schedule, 2, False, data)
  got = run_accumulated(make_opt_with_schedule, 2, False, data)
  assert_same_state(got, want)


def test_accumulating_a_wrapped_optimizer_keeps_its_transforms():
  clip = tf1clip.transforms.clip_by_global_norm(0.05)

  def make_wrapped():
    return tf1clip.WrappedOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.5), [clip])

  data = make_data(2)
  want = run_big_batch(make_wrapped, 2, True, data)
  got = run_accumulated(make_wrapped, 2, True, data)
  assert_same_state(got, want)


_SPARSE_WINDOW = {}


def _sparse_window_graph():
  """One graph, built once: SGD(lr=1) accumulated over 3 micro-batches of fed IndexedSlices."""
  if not _SPARSE_WINDOW:
    graph = tf.Graph()
    with graph.as_default():
      table = tf.compat.v1.get_variable("table", initializer=np.zeros((VOCAB, 2), "f"))
      values = tf.compat.v1.placeholder(tf.float32, [None, 2])
      indices = tf.compat.v1.placeholder(tf.int32, [None])
      opt = GradientAccumulationOptimizer(tf.compat.v1.train.GradientDescentOptimizer(1.0), 3)
      train_op = opt.apply_gradients([(tf.IndexedSlices(values, indices), table)])
      init = tf.compat.v1.global_variables_initializer()
    _SPARSE_WINDOW.update(sess=tf.compat.v1.Session(graph=graph), init=init, table=table,
                          values=values, indices=indices, train_op=train_op)
  return _SPARSE_WINDOW


@hypothesis.given(st.lists(
    st.lists(st.tuples(st.integers(0, VOCAB - 1), st.floats(-4, 4, width=32)), max_size=6),
    min_size=3, max_size=3))
def test_sparse_window_applies_the_densified_mean_for_any_rows(micro_batches):
  g = _sparse_window_graph()
  sess = g["sess"]
  sess.run(g["init"])
  dense_sum = np.zeros((VOCAB, 2), np.float64)
  for rows in micro_batches:  # empty micro-batches and repeated rows included
    idx = np.array([r for r, _ in rows], np.int32)
    vals = np.array([[v, -v] for _, v in rows], np.float32).reshape(-1, 2)
    np.add.at(dense_sum, idx, vals)
    sess.run(g["train_op"], {g["values"]: vals, g["indices"]: idx})
  np.testing.assert_allclose(sess.run(g["table"]), -dense_sum / 3, rtol=1e-5, atol=1e-5)
