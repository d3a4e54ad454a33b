"""Training only some variables: select_variables, the stop-gradient helpers, and tf.gradients updating nothing."""

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest
import tensorflow as tf

import tf1clip
from graphs import cbow
from graphs import frozen_product
from tf1clip import transforms
from tf1clip.variables import block_gradient
from tf1clip.variables import reverse_gradient
from tf1clip.variables import scale_gradient
from tf1clip.variables import select_variables

V1 = tf.compat.v1


def _three_scopes():
  with V1.variable_scope("encoder"):
    enc = V1.get_variable("w", initializer=1.0)
  with V1.variable_scope("encoder_1"):
    enc1 = V1.get_variable("w", initializer=2.0)
  with V1.variable_scope("head"):
    head_w = V1.get_variable("w", initializer=3.0)
    head_b = V1.get_variable("bias", initializer=0.0)
  step = V1.get_variable("step", initializer=0, trainable=False)
  return enc, enc1, head_w, head_b, step


def test_scope_selects_the_variables_under_it_and_not_a_sibling_with_a_longer_name(graph):
  enc, enc1, head_w, head_b, _ = _three_scopes()
  assert select_variables(scope="encoder") == [enc]
  assert select_variables(scope="encoder/") == [enc]
  assert select_variables(scope=["encoder_1", "head"]) == [enc1, head_w, head_b]


def test_regex_searches_names(graph):
  enc, enc1, head_w, _, _ = _three_scopes()
  assert select_variables(regex=r"/w$") == [enc, enc1, head_w]
  assert select_variables(scope="head", regex="bias") == select_variables(regex="head/bias")


def test_collection_and_exclusions(graph):
  enc, enc1, head_w, head_b, step = _three_scopes()
  assert step not in select_variables()
  assert step in select_variables(collection=V1.GraphKeys.GLOBAL_VARIABLES)
  assert select_variables(exclude="encoder") == [enc1, head_w, head_b]
  assert select_variables(exclude=["encoder", "encoder_1", head_b]) == [head_w]


def test_collection_may_be_a_list_of_variables_for_eager_code():
  a, b = tf.Variable(1.0, name="net/a"), tf.Variable(1.0, name="other/b")
  assert select_variables(scope="net", collection=[a, b]) == [a]


def test_selection_matching_nothing_lists_the_scopes_that_exist(graph):
  _three_scopes()
  with pytest.raises(ValueError, match=r"matched none.*Scopes that exist: \['encoder', "
                                       r"'encoder_1', 'head'\]"):
    select_variables(scope="decoder")


def test_empty_collection_says_so(graph):
  with pytest.raises(ValueError, match="holds no variables"):
    select_variables()


def test_exclude_rejects_other_things(graph):
  _three_scopes()
  with pytest.raises(TypeError, match="exclude entries must be"):
    select_variables(exclude=[3])


def _train_cbow(make_train_op, steps=3):
  with tf.Graph().as_default():
    model = cbow.build(vocab_size=20, embedding_dim=4)
    opt, train_op = make_train_op(model)
    with V1.Session() as sess:
      sess.run(V1.global_variables_initializer())
      before = sess.run(model.variables)
      for i in range(steps):
        sess.run(train_op, model.make_batch(i, 8))
      after = sess.run(model.variables)
      slots = {v.op.name: opt.get_slot(v, "m") for v in model.variables}
  return before, after, slots


@pytest.mark.parametrize("how", ["var_list", "freeze_transform"])
def test_frozen_variables_get_no_slots_and_do_not_move(how):
  def build(model):
    opt = V1.train.AdamOptimizer(0.1)
    if how == "var_list":
      return opt, opt.minimize(model.loss, var_list=select_variables(exclude="cbow/embedding"))
    wrapped = tf1clip.WrappedOptimizer(
        opt, [transforms.freeze(select_variables(scope="cbow/embedding"))])
    return wrapped, wrapped.minimize(model.loss)
  before, after, slots = _train_cbow(build)
  assert slots["cbow/embedding"] is None
  assert slots["cbow/softmax_w"] is not None
  np.testing.assert_array_equal(before[0], after[0])
  assert not np.allclose(before[1], after[1])


def test_evaluating_tf_gradients_of_the_embedding_updates_no_variable(sess):
  model = cbow.build(vocab_size=20, embedding_dim=4)
  adv = cbow.adversarial_gradients(model)
  sess.run(V1.global_variables_initializer())
  feed = model.make_batch(0, 8)
  before = sess.run(model.variables)
  loss_before = sess.run(model.loss, feed)
  for _ in range(5):
    g_embedding, g_embedded, loss = sess.run([adv.embedding, adv.embedded, model.loss], feed)
    assert loss == loss_before
  assert np.abs(g_embedded).sum() > 0 and np.abs(g_embedding.values).sum() > 0
  for b, a in zip(before, sess.run(model.variables)):
    np.testing.assert_array_equal(a, b)
  # What does change the loss: running an update op.
  sess.run(V1.train.GradientDescentOptimizer(1.0).minimize(model.loss), feed)
  assert sess.run(model.loss, feed) != loss_before


def test_stop_gradient_path_still_learns_while_its_variables_stay(sess):
  model = frozen_product.build()
  train_op = V1.train.GradientDescentOptimizer(0.1).minimize(model.loss)
  grads = V1.train.GradientDescentOptimizer(0.1).compute_gradients(model.loss)
  assert [g is None for g, _ in grads] == [False, True, True]
  sess.run(V1.global_variables_initializer())
  w2, w3 = sess.run([model.w2, model.w3])
  for i in range(300):
    sess.run(train_op, model.make_batch(i, 32))
  np.testing.assert_allclose(sess.run(model.w1), w2 * w3, atol=1e-3)
  np.testing.assert_array_equal(sess.run(model.w2), w2)


def _grad_of_weighted_sum(fn, x_value, weights):
  x = tf.constant(x_value)
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = fn(x)
    total = tf.reduce_sum(y * weights)
  return y.numpy(), tape.gradient(total, x).numpy()


@hypothesis.given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    seed=st.integers(0, 2**16))
def test_block_gradient_zeroes_the_gradient_where_masked_only(shape, seed):
  rng = np.random.default_rng(seed)
  x = rng.normal(size=shape).astype(np.float32)
  weights = rng.normal(size=shape).astype(np.float32)
  mask = rng.random(shape) < 0.5
  y, grad = _grad_of_weighted_sum(lambda t: block_gradient(t, mask), x, weights)
  np.testing.assert_array_equal(y, x)
  np.testing.assert_array_equal(grad, np.where(mask, 0.0, weights))


def test_block_gradient_mask_broadcasts_over_rows(sess):
  emb = V1.get_variable("emb", initializer=np.ones((4, 3), np.float32))
  pretrained_rows = tf.constant([[True], [True], [False], [False]])
  loss = tf.reduce_sum(block_gradient(emb, pretrained_rows) * 2.0)
  g, = tf.gradients(loss, [emb])
  sess.run(V1.global_variables_initializer())
  np.testing.assert_array_equal(sess.run(g), [[0] * 3, [0] * 3, [2] * 3, [2] * 3])


@pytest.mark.parametrize("factor", [0.0, 0.25, 3.0, -1.0])
def test_scale_gradient_multiplies_the_gradient_and_not_the_value(factor):
  x = np.linspace(-2, 2, 7).astype(np.float32)
  weights = np.arange(7, dtype=np.float32)
  y, grad = _grad_of_weighted_sum(lambda t: scale_gradient(t, factor), x, weights)
  np.testing.assert_array_equal(y, x)
  np.testing.assert_allclose(grad, factor * weights)


def test_reverse_gradient_is_a_gradient_reversal_layer_in_graph_mode(sess):
  lam = V1.placeholder(tf.float32, [])
  x = V1.get_variable("x", initializer=[1.0, -2.0, 3.0])
  y = reverse_gradient(x, lam)
  loss = tf.reduce_sum(tf.square(y))
  g, = tf.gradients(loss, [x])
  sess.run(V1.global_variables_initializer())
  y_val, g_val = sess.run([y, g], {lam: 0.5})
  np.testing.assert_array_equal(y_val, [1.0, -2.0, 3.0])
  np.testing.assert_allclose(g_val, -0.5 * 2 * np.array([1.0, -2.0, 3.0]))
  np.testing.assert_allclose(sess.run(tf.gradients(tf.reduce_sum(reverse_gradient(x)), x)[0]),
                             [-1.0, -1.0, -1.0])
