"""tf1clip.v2.WrappedOptimizer / clip_gradients_by_norm: transforms around Keras optimizers."""

import keras
import numpy as np
import pytest
import tensorflow as tf
import tf_keras

import tf1clip
import tf1clip.v2
from tf1clip import transforms

RNG = np.random.default_rng(7)
W0 = RNG.standard_normal((3, 2)).astype(np.float32)
B0 = RNG.standard_normal((2,)).astype(np.float32)
X = RNG.standard_normal((5, 3)).astype(np.float32)

KERAS_ADAMS = {
    "keras": lambda lr: keras.optimizers.Adam(lr, epsilon=1e-8),
    "tf_keras": lambda lr: tf_keras.optimizers.Adam(lr, epsilon=1e-8),
    "tf_keras_legacy": lambda lr: tf_keras.optimizers.legacy.Adam(lr, epsilon=1e-8),
}


def loss_fn(w, b, x=X):
  return tf.reduce_sum(tf.square(tf.matmul(x, w) + b))


def chain():
  return [transforms.scale_by_multipliers({"b": 0.5}), transforms.clip_by_global_norm(1.0)]


def tf1_weights(steps, lr=0.01):
  with tf.Graph().as_default():
    w = tf.compat.v1.get_variable("w", initializer=W0)
    b = tf.compat.v1.get_variable("b", initializer=B0)
    opt = tf1clip.WrappedOptimizer(tf.compat.v1.train.AdamOptimizer(lr), chain())
    train_op = opt.minimize(loss_fn(w, b))
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for _ in range(steps):
        sess.run(train_op)
      return sess.run([w, b])


@pytest.mark.parametrize("kind", sorted(KERAS_ADAMS))
@pytest.mark.parametrize("use_function", [False, True], ids=["eager", "tf_function"])
def test_wrapped_keras_adam_follows_the_tf1_wrapped_adam(kind, use_function):
  w, b = tf.Variable(W0, name="w"), tf.Variable(B0, name="b")
  opt = tf1clip.v2.WrappedOptimizer(KERAS_ADAMS[kind](0.01), chain())

  def step():
    return opt.minimize(lambda: loss_fn(w, b), [w, b])

  step = tf.function(step, autograph=False) if use_function else step
  for _ in range(4):
    assert bool(step())
  expected = tf1_weights(4)
  np.testing.assert_allclose(w.numpy(), expected[0], rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(b.numpy(), expected[1], rtol=1e-5, atol=1e-6)
  assert int(opt.iterations) == 4


def test_clip_gradients_by_norm_clips_the_global_norm_before_keras_applies():
  w, b = tf.Variable(W0), tf.Variable(B0)
  w2, b2 = tf.Variable(W0), tf.Variable(B0)
  opt = tf1clip.v2.clip_gradients_by_norm(keras.optimizers.SGD(0.1), 0.5)
  opt.minimize(lambda: loss_fn(w, b), [w, b])
  with tf.GradientTape() as tape:
    loss = loss_fn(w2, b2)
  grads, norm = tf.clip_by_global_norm(tape.gradient(loss, [w2, b2]), 0.5)
  assert norm > 0.5
  keras.optimizers.SGD(0.1).apply_gradients(zip(grads, [w2, b2]))
  np.testing.assert_allclose(w.numpy(), w2.numpy(), rtol=1e-6)
  np.testing.assert_allclose(b.numpy(), b2.numpy(), rtol=1e-6)
  assert opt.name.startswith("ClipByNorm")


@pytest.mark.parametrize("use_function", [False, True], ids=["eager", "tf_function"])
def test_non_finite_gradient_skips_the_whole_update_and_counts_it(use_function):
  w, b = tf.Variable(W0), tf.Variable(B0)
  inner = keras.optimizers.Adam(0.01, epsilon=1e-8)
  opt = tf1clip.v2.WrappedOptimizer(inner, [transforms.clip_by_global_norm(1.0)],
                                    skip_non_finite=True)

  def step(x):
    return opt.minimize(lambda: loss_fn(w, b, x), [w, b])

  step = tf.function(step, autograph=False) if use_function else step
  assert bool(step(tf.constant(X)))
  before = [v.numpy().copy() for v in [w, b] + inner.variables]
  bad = X.copy()
  bad[0, 0] = np.inf
  assert not bool(step(tf.constant(bad)))
  after = [v.numpy() for v in [w, b] + inner.variables]
  for x, y in zip(before, after):
    np.testing.assert_array_equal(x, y)  # weights, m, v, iterations, learning rate
  assert int(opt.skipped_steps) == 1
  assert int(opt.iterations) == 1
  assert bool(step(tf.constant(X)))
  assert int(opt.iterations) == 2


def test_none_gradients_leave_their_variables_untouched():
  w, b = tf.Variable(W0), tf.Variable(B0)
  unused = tf.Variable([1.0, 2.0])
  opt = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1))
  grads_and_vars = opt.compute_gradients(lambda: loss_fn(w, b), [w, b, unused])
  assert grads_and_vars[2][0] is None
  assert bool(opt.apply_gradients(grads_and_vars))
  np.testing.assert_array_equal(unused.numpy(), [1.0, 2.0])
  assert not np.allclose(w.numpy(), W0)
  with pytest.raises(ValueError, match="No gradients provided for any variable"):
    opt.apply_gradients([(None, unused)])


def test_frozen_variables_get_no_keras_slots_and_do_not_move():
  w, b = tf.Variable(W0, name="w"), tf.Variable(B0, name="b")
  inner = keras.optimizers.Adam(0.01)
  opt = tf1clip.v2.WrappedOptimizer(inner, [transforms.freeze(["b"])])
  opt.minimize(lambda: loss_fn(w, b), [w, b])
  np.testing.assert_array_equal(b.numpy(), B0)
  slots = [v for v in inner.variables if v.shape == W0.shape or v.shape == B0.shape]
  assert [tuple(v.shape) for v in slots] == [W0.shape, W0.shape]  # m and v of w only


def test_transforms_see_keras_3_variables_by_their_names():
  layer = keras.layers.Dense(2, name="dense")
  layer.build((None, 3))
  kernel0, bias0 = layer.kernel.numpy().copy(), layer.bias.numpy().copy()
  opt = tf1clip.v2.WrappedOptimizer(
      keras.optimizers.SGD(0.1),
      [transforms.freeze(["dense/bias"]), transforms.scale_by_multipliers({"dense/kernel": 2.0})])
  opt.minimize(lambda: tf.reduce_sum(layer(tf.ones((4, 3)))), layer.trainable_variables)
  np.testing.assert_array_equal(layer.bias.numpy(), bias0)
  # d(sum)/d(kernel) = 4 per entry, times the multiplier 2, times the learning rate 0.1.
  np.testing.assert_allclose(layer.kernel.numpy(), kernel0 - 0.8, rtol=1e-6)


def test_freeze_accepts_keras_3_variable_objects():
  # Keras 3 variables are unhashable and have no .ref(): freeze() identifies them by their
  # TF variable.
  layer = keras.layers.Dense(2, name="dense")
  layer.build((None, 3))
  kernel0, bias0 = layer.kernel.numpy().copy(), layer.bias.numpy().copy()
  opt = tf1clip.v2.WrappedOptimizer(
      keras.optimizers.SGD(0.1),
      [transforms.freeze([layer.bias])])
  opt.minimize(lambda: tf.reduce_sum(layer(tf.ones((4, 3)))), layer.trainable_variables)
  np.testing.assert_array_equal(layer.bias.numpy(), bias0)
  np.testing.assert_allclose(layer.kernel.numpy(), kernel0 - 0.4, rtol=1e-6)


def test_compute_gradients_returns_tf1_style_pairs():
  w, b = tf.Variable(W0), tf.Variable(B0)
  opt = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1))
  with tf.GradientTape() as tape:
    loss = loss_fn(w, b)
  from_tape = opt.compute_gradients(loss, [w, b], tape=tape)
  from_callable = opt.compute_gradients(lambda: loss_fn(w, b), [w, b])
  assert [v for _, v in from_tape] == [w, b]
  for (g1, _), (g2, _) in zip(from_tape, from_callable):
    np.testing.assert_allclose(g1.numpy(), g2.numpy())
  doubled = opt.compute_gradients(lambda: loss_fn(w, b), [w, b], grad_loss=tf.constant(2.0))
  np.testing.assert_allclose(doubled[0][0].numpy(), 2 * from_callable[0][0].numpy(), rtol=1e-6)
  with pytest.raises(ValueError, match="tape"):
    opt.compute_gradients(loss, [w, b])


def test_minimize_takes_a_tensor_loss_with_the_tape_that_recorded_it():
  w, b = tf.Variable(W0, name="w"), tf.Variable(B0, name="b")
  w2, b2 = tf.Variable(W0, name="w"), tf.Variable(B0, name="b")
  opt = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1), chain())
  reference = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1), chain())
  with tf.GradientTape() as tape:
    loss = loss_fn(w, b)
  assert bool(opt.minimize(loss, [w, b], tape=tape))
  reference.minimize(lambda: loss_fn(w2, b2), [w2, b2])
  assert not np.allclose(w.numpy(), W0)
  np.testing.assert_allclose(w.numpy(), w2.numpy(), rtol=1e-6)
  np.testing.assert_allclose(b.numpy(), b2.numpy(), rtol=1e-6)
  assert int(opt.iterations) == 1
  with pytest.raises(ValueError, match="tape"):
    opt.minimize(loss, [w, b])


@pytest.mark.parametrize("use_function", [False, True], ids=["eager", "tf_function"])
def test_gradient_noise_is_added_afresh_at_every_step(use_function):
  # A zero gradient and SGD(1.0): each step moves the variable by minus the noise alone.
  scale = 0.1
  var = tf.Variable(tf.zeros([20000]), name="v")
  opt = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(1.0),
                                    [transforms.add_gradient_noise(scale, seed=5)])

  def step():
    return opt.minimize(lambda: 0.0 * tf.reduce_sum(var), [var])

  step = tf.function(step, autograph=False) if use_function else step
  step()
  first = -var.numpy()
  step()
  second = -var.numpy() - first
  for noise in (first, second):
    # A normal of std `scale` cut at two standard deviations has std 0.8796 * scale.
    assert abs(noise.std() - 0.8796 * scale) < 0.05 * scale
    assert abs(noise.mean()) < 0.01 * scale
    assert np.abs(noise).max() <= 2 * scale * (1 + 1e-6)
  assert abs(np.corrcoef(first, second)[0, 1]) < 0.05  # not the same draw twice


def test_keras_3_apply_spelling_is_accepted():
  w, b = tf.Variable(W0), tf.Variable(B0)
  opt = tf1clip.v2.clip_gradients_by_norm(keras.optimizers.SGD(0.1), 1.0)
  grads = [tf.ones_like(w), tf.ones_like(b)]
  assert bool(opt.apply(grads, [w, b]))
  assert int(opt.iterations) == 1


def test_bad_input_is_rejected_early():
  with pytest.raises(TypeError, match="keras_optimizer_like"):
    tf1clip.v2.WrappedOptimizer(tf.compat.v1.train.AdamOptimizer(0.1))
  with pytest.raises(TypeError, match="Keras optimizer"):
    tf1clip.v2.WrappedOptimizer(object())
  with pytest.raises(TypeError, match=r"transforms\[0\]"):
    tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1), [3.0])
  with pytest.raises(ValueError, match="clip_norm"):
    tf1clip.v2.clip_gradients_by_norm(keras.optimizers.SGD(0.1), 0.0)


def test_a_transform_that_drops_a_pair_is_named_in_the_error():
  w, b = tf.Variable(W0), tf.Variable(B0)

  def my_capper(grads_and_vars):
    return grads_and_vars[:1]

  opt = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1), [my_capper])
  with pytest.raises(ValueError, match="my_capper"):
    opt.minimize(lambda: loss_fn(w, b), [w, b])


def test_repeated_sparse_indices_update_like_the_dense_gradient():
  # Keras squares an IndexedSlices' values row by row: a row listed twice adds g1^2 + g2^2
  # to Adam's v instead of (g1 + g2)^2. The wrapper sums duplicates first, as TF1 does.
  values, indices = tf.constant([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]), tf.constant([0, 2, 0])
  sparse = tf.IndexedSlices(values, indices, tf.constant([4, 2]))
  dense = tf.convert_to_tensor(sparse)
  start = RNG.standard_normal((4, 2)).astype(np.float32)

  def run(grad, wrap):
    var = tf.Variable(start)
    opt = keras.optimizers.Adam(0.1)
    opt = tf1clip.v2.WrappedOptimizer(opt) if wrap else opt
    opt.apply_gradients([(grad, var)])
    return var.numpy()

  np.testing.assert_allclose(run(sparse, wrap=True), run(dense, wrap=False), rtol=1e-6)
  assert not np.allclose(run(sparse, wrap=False), run(dense, wrap=False), rtol=1e-3)


def test_checkpoint_resumes_keras_slots_and_the_skip_counter(tmp_path):
  w, b = tf.Variable(W0), tf.Variable(B0)
  opt = tf1clip.v2.WrappedOptimizer(keras.optimizers.Adam(0.01), skip_non_finite=True)
  ckpt = tf.train.Checkpoint(w=w, b=b, optimizer=opt)
  step = tf.function(lambda x: opt.minimize(lambda: loss_fn(w, b, x), [w, b]), autograph=False)
  bad = X.copy()
  bad[1, 1] = np.nan
  step(tf.constant(X))
  step(tf.constant(bad))
  path = ckpt.save(str(tmp_path / "ckpt"))
  for _ in range(2):
    step(tf.constant(X))
  expected = [w.numpy(), b.numpy()]

  w2, b2 = tf.Variable(tf.zeros_like(W0)), tf.Variable(tf.zeros_like(B0))
  opt2 = tf1clip.v2.WrappedOptimizer(keras.optimizers.Adam(0.01), skip_non_finite=True)
  opt2.build([w2, b2])
  tf.train.Checkpoint(w=w2, b=b2, optimizer=opt2).restore(path).assert_consumed()
  assert int(opt2.skipped_steps) == 1 and int(opt2.iterations) == 1
  for _ in range(2):
    opt2.minimize(lambda: loss_fn(w2, b2), [w2, b2])
  np.testing.assert_allclose(w2.numpy(), expected[0], rtol=1e-6)
  np.testing.assert_allclose(b2.numpy(), expected[1], rtol=1e-6)


def test_nested_wrappers_run_outer_transforms_first():
  w, b = tf.Variable(W0, name="w"), tf.Variable(B0, name="b")
  w2, b2 = tf.Variable(W0, name="w"), tf.Variable(B0, name="b")
  nested = tf1clip.v2.WrappedOptimizer(
      tf1clip.v2.clip_gradients_by_norm(keras.optimizers.SGD(0.1), 1.0),
      [transforms.scale_by_multipliers({"b": 0.5})])
  flat = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1), chain())
  nested.minimize(lambda: loss_fn(w, b), [w, b])
  flat.minimize(lambda: loss_fn(w2, b2), [w2, b2])
  np.testing.assert_allclose(w.numpy(), w2.numpy(), rtol=1e-6)
  np.testing.assert_allclose(b.numpy(), b2.numpy(), rtol=1e-6)
  assert int(nested.iterations) == 1


def test_an_inner_skip_is_reported_by_the_outer_wrapper():
  w, b = tf.Variable(W0), tf.Variable(B0)
  inner = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1), skip_non_finite=True)
  outer = tf1clip.v2.clip_gradients_by_norm(inner, 1.0)
  bad = X.copy()
  bad[0, 0] = np.nan
  assert not bool(outer.minimize(lambda: loss_fn(w, b, bad), [w, b]))
  assert int(inner.skipped_steps) == 1 and int(outer.iterations) == 0
  np.testing.assert_array_equal(w.numpy(), W0)
  assert bool(outer.minimize(lambda: loss_fn(w, b), [w, b]))


def test_learning_rate_is_the_keras_optimizers():
  inner = keras.optimizers.SGD(0.1)
  opt = tf1clip.v2.WrappedOptimizer(inner)
  opt.learning_rate = 0.25
  assert float(inner.learning_rate) == pytest.approx(0.25)
  assert float(opt.learning_rate) == pytest.approx(0.25)


def _adaptive_tf1(steps):
  """contrib's adaptive clipping + SGD in graph mode: the reference trajectory."""
  with tf.Graph().as_default():
    w = tf.compat.v1.get_variable("w", initializer=[3.0, 4.0])
    opt = tf1clip.WrappedOptimizer(tf.compat.v1.train.GradientDescentOptimizer(0.1),
                                   [tf1clip.adaptive_clipping_fn(decay=0.5)])
    train_op = opt.minimize(tf.reduce_sum(w * w * w))
    names = sorted(v.op.name for v in tf.compat.v1.global_variables())
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      out = []
      for _ in range(steps):
        sess.run(train_op)
        out.append(sess.run(w))
  return names, np.array(out)


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "tf_function"])
def test_adaptive_clipping_works_eagerly_and_in_tf_function_with_tf1s_figures(traced, tmp_path):
  names, want = _adaptive_tf1(4)
  assert names == ["AdaptiveMaxNorm/mean", "AdaptiveMaxNorm/sq_mean", "w"]
  w = tf.Variable([3.0, 4.0])
  opt = tf1clip.v2.WrappedOptimizer(keras.optimizers.SGD(0.1),
                                    [tf1clip.adaptive_clipping_fn(decay=0.5)])
  step = lambda: opt.minimize(lambda: tf.reduce_sum(w * w * w), [w])
  if traced:
    step = tf.function(step)
  got = []
  for _ in range(4):
    step()
    got.append(w.numpy())
  np.testing.assert_allclose(np.array(got), want, rtol=1e-5)
  state = [v for v in opt.variables if "AdaptiveMaxNorm" in v.name]
  assert len(state) == 2 and not any(v.trainable for v in state)
  # The statistics are checkpointed with the optimizer, whatever object holds them.
  checkpointed = {name for name, _ in tf.train.list_variables(
      tf.train.Checkpoint(optimizer=opt).write(str(tmp_path / "ckpt")))}
  assert sum("_transform_variables" in name for name in checkpointed) == 2
