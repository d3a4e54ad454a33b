"""tf1clip.v2.GradientAccumulationOptimizer: n micro-batches equal one big-batch Keras step."""

import keras
import numpy as np
import pytest
import tensorflow as tf
import tf_keras

import tf1clip.v2
from tf1clip import transforms

RNG = np.random.default_rng(11)
W0 = RNG.standard_normal((4, 3)).astype(np.float32)
E0 = RNG.standard_normal((10, 3)).astype(np.float32)

KERAS = {
    "sgd": lambda: keras.optimizers.SGD(0.1),
    "momentum": lambda: keras.optimizers.SGD(0.1, momentum=0.9, nesterov=True),
    "adam": lambda: keras.optimizers.Adam(0.05, epsilon=1e-8),
    "rmsprop": lambda: keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
    "adagrad": lambda: keras.optimizers.Adagrad(0.1),
    "ftrl": lambda: keras.optimizers.Ftrl(0.1, l1_regularization_strength=0.01),
}


def data(n, seed):
  rng = np.random.default_rng(seed)
  x = rng.standard_normal((4 * n, 4)).astype(np.float32)
  ids = rng.integers(0, 10, (4 * n, 3)).astype(np.int32)
  return x, ids


def loss_fn(w, emb, x, ids):
  # Dense (w) and sparse (emb, through gather: repeated ids within and across micro-batches).
  logits = tf.matmul(x, w) + tf.reduce_sum(tf.gather(emb, ids), axis=1)
  return tf.reduce_mean(tf.square(tf.tanh(logits) - 0.3))


def big_batch_run(make_opt, n, updates, transform=None):
  w, emb = tf.Variable(W0), tf.Variable(E0)
  opt = tf1clip.v2.WrappedOptimizer(make_opt(), [transform] if transform else [])
  for u in range(updates):
    x, ids = data(n, u)
    opt.minimize(lambda: loss_fn(w, emb, x, ids), [w, emb])
  return w.numpy(), emb.numpy(), int(opt.iterations)


def accumulated_run(make_opt, n, updates, use_function=False, **kwargs):
  w, emb = tf.Variable(W0), tf.Variable(E0)
  opt = tf1clip.v2.GradientAccumulationOptimizer(make_opt(), n, **kwargs)

  def step(x, ids):
    return opt.minimize(lambda: loss_fn(w, emb, x, ids), [w, emb])

  step = tf.function(step, autograph=False) if use_function else step
  applied = []
  for u in range(updates):
    x, ids = data(n, u)
    for m in range(n):
      applied.append(bool(step(tf.constant(x[4 * m:4 * m + 4]),
                               tf.constant(ids[4 * m:4 * m + 4]))))
  return w.numpy(), emb.numpy(), int(opt.iterations), applied


@pytest.mark.parametrize("name", sorted(KERAS))
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_accumulated_keras_step_equals_the_big_batch_step(name, n):
  w, emb, iterations, applied = accumulated_run(KERAS[name], n, updates=2)
  big_w, big_emb, big_iterations = big_batch_run(KERAS[name], n, updates=2)
  np.testing.assert_allclose(w, big_w, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(emb, big_emb, rtol=1e-5, atol=1e-6)
  assert iterations == big_iterations == 2  # Keras iterations count applied updates
  assert applied == ([False] * (n - 1) + [True]) * 2


@pytest.mark.parametrize("module", ["tf_keras", "tf_keras_legacy"])
def test_accumulation_around_tf_keras_optimizers_equals_the_big_batch_step(module):
  optimizers = tf_keras.optimizers if module == "tf_keras" else tf_keras.optimizers.legacy
  make_opt = lambda: optimizers.Adam(0.05, epsilon=1e-8)
  w, emb, iterations, applied = accumulated_run(make_opt, 3, updates=2, use_function=True)
  big_w, big_emb, big_iterations = big_batch_run(make_opt, 3, updates=2)
  np.testing.assert_allclose(w, big_w, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(emb, big_emb, rtol=1e-5, atol=1e-6)
  assert iterations == big_iterations == 2
  assert applied == [False, False, True] * 2


def test_accumulation_inside_tf_function_equals_eager():
  eager = accumulated_run(KERAS["adam"], 3, updates=2)
  traced = accumulated_run(KERAS["adam"], 3, updates=2, use_function=True)
  np.testing.assert_allclose(eager[0], traced[0], rtol=1e-6)
  np.testing.assert_allclose(eager[1], traced[1], rtol=1e-6)
  assert eager[3] == traced[3]


def test_clipping_acts_on_the_mean_by_default_and_on_each_micro_batch_on_request():
  clip = transforms.clip_by_global_norm(0.01)
  w, emb, _, _ = accumulated_run(KERAS["sgd"], 2, updates=1, transforms=[clip])
  big_w, big_emb, _ = big_batch_run(KERAS["sgd"], 2, updates=1, transform=clip)
  np.testing.assert_allclose(w, big_w, rtol=1e-5)
  np.testing.assert_allclose(emb, big_emb, rtol=1e-5)

  per_micro_w, _, _, _ = accumulated_run(KERAS["sgd"], 2, updates=1, transforms=[clip],
                                         transform_micro_batches=True)
  # Each micro-batch's gradient clipped to 0.01, then averaged, by hand.
  wv, ev = tf.Variable(W0), tf.Variable(E0)
  x, ids = data(2, 0)
  total = [tf.zeros_like(W0), tf.zeros_like(E0)]
  for m in range(2):
    with tf.GradientTape() as tape:
      loss = loss_fn(wv, ev, x[4 * m:4 * m + 4], ids[4 * m:4 * m + 4])
    dense = [tf.convert_to_tensor(g) for g in tape.gradient(loss, [wv, ev])]
    grads, _ = tf.clip_by_global_norm(dense, 0.01)  # densified first: repeated ids summed
    total = [t + g for t, g in zip(total, grads)]
  np.testing.assert_allclose(per_micro_w, W0 - 0.1 * total[0].numpy() / 2, rtol=1e-5)
  assert not np.allclose(per_micro_w, w, rtol=1e-4)


def test_a_non_finite_micro_batch_drops_the_whole_window():
  w, emb = tf.Variable(W0), tf.Variable(E0)
  inner = keras.optimizers.Adam(0.05)
  opt = tf1clip.v2.GradientAccumulationOptimizer(inner, 3, skip_non_finite=True)
  x, ids = data(3, 0)
  bad = x.copy()
  bad[5, 0] = np.nan  # in the second micro-batch
  results = [bool(opt.minimize(lambda m=m: loss_fn(w, emb, bad[4 * m:4 * m + 4],
                                                     ids[4 * m:4 * m + 4]), [w, emb]))
             for m in range(3)]
  assert results == [False, False, False]
  np.testing.assert_array_equal(w.numpy(), W0)
  np.testing.assert_array_equal(emb.numpy(), E0)
  assert int(opt.skipped_windows) == 1 and int(opt.iterations) == 0
  assert int(opt.micro_step) == 0
  # The next window starts from clean sums and equals a fresh big-batch step.
  for m in range(3):
    opt.minimize(lambda m=m: loss_fn(w, emb, x[4 * m:4 * m + 4], ids[4 * m:4 * m + 4]),
                 [w, emb])
  big_w, big_emb, _ = big_batch_run(lambda: keras.optimizers.Adam(0.05), 3, updates=1)
  np.testing.assert_allclose(w.numpy(), big_w, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(emb.numpy(), big_emb, rtol=1e-5, atol=1e-6)


def test_checkpoint_taken_mid_window_resumes_the_same_trajectory(tmp_path):
  def make():
    w, emb = tf.Variable(W0), tf.Variable(E0)
    opt = tf1clip.v2.GradientAccumulationOptimizer(KERAS["adam"](), 3)
    opt.build([w, emb])
    return w, emb, opt, tf.train.Checkpoint(w=w, emb=emb, optimizer=opt)

  micro = []
  for u in range(2):
    x, ids = data(3, u)
    micro += [(x[4 * m:4 * m + 4], ids[4 * m:4 * m + 4]) for m in range(3)]

  w, emb, opt, ckpt = make()
  for i, (x, ids) in enumerate(micro):
    opt.minimize(lambda: loss_fn(w, emb, x, ids), [w, emb])
    if i == 4:  # one update applied, two micro-batches into the second window
      path = ckpt.save(str(tmp_path / "mid"))
  expected = w.numpy(), emb.numpy()

  w2, emb2, opt2, ckpt2 = make()
  ckpt2.restore(path).assert_consumed()
  assert int(opt2.micro_step) == 2 and int(opt2.iterations) == 1
  for x, ids in micro[5:]:
    opt2.minimize(lambda: loss_fn(w2, emb2, x, ids), [w2, emb2])
  np.testing.assert_allclose(w2.numpy(), expected[0], rtol=1e-6)
  np.testing.assert_allclose(emb2.numpy(), expected[1], rtol=1e-6)


def test_sparse_sums_stay_sparse_until_the_mean():
  emb = tf.Variable(E0)
  opt = tf1clip.v2.GradientAccumulationOptimizer(keras.optimizers.SGD(1.0), 2)
  grad = tf.IndexedSlices(tf.ones((3, 3)), tf.constant([1, 1, 4]), tf.constant([10, 3]))
  opt.apply_gradients([(grad, emb)])
  total, rows = opt.variables[-2:]  # the embedding's sum and its touched-row marks
  np.testing.assert_array_equal(total.numpy()[[1, 4]], [[2, 2, 2], [1, 1, 1]])
  np.testing.assert_array_equal(np.flatnonzero(rows.numpy()), [1, 4])
  opt.apply_gradients([(grad, emb)])
  expected = E0.copy()
  expected[1] -= 2.0
  expected[4] -= 1.0
  np.testing.assert_allclose(emb.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("bad", [0, -1, 2.0, True, "4"])
def test_num_micro_batches_must_be_a_positive_int(bad):
  with pytest.raises(ValueError, match="num_micro_batches"):
    tf1clip.v2.GradientAccumulationOptimizer(keras.optimizers.SGD(0.1), bad)


def test_a_sparse_window_resets_only_the_rows_it_touched():
  # "A window costs the rows it touched": a row no gradient touched keeps whatever it held.
  emb = tf.Variable(E0)
  opt = tf1clip.v2.GradientAccumulationOptimizer(keras.optimizers.SGD(1.0), 2)
  opt.build([emb])
  total = opt.variables[-2]
  total.scatter_update(tf.IndexedSlices(tf.fill([1, 3], 123.0), tf.constant([7])))
  grad = tf.IndexedSlices(tf.ones((2, 3)), tf.constant([1, 4]), tf.constant([10, 3]))
  opt.apply_gradients([(grad, emb)])
  opt.apply_gradients([(grad, emb)])
  np.testing.assert_array_equal(total.numpy()[[1, 4]], np.zeros((2, 3)))
  np.testing.assert_array_equal(total.numpy()[7], [123.0] * 3)
