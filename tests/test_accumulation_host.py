"""HostGradientAverager and average_gradients: numpy-averaged gradients fed back through
placeholders give the big batch's update; sparse gradients stay IndexedSlicesValue."""

import numpy as np
import pytest
import tensorflow as tf
from tensorflow.python.framework.indexed_slices import IndexedSlicesValue

from tf1clip.accumulation import HostGradientAverager
from tf1clip.accumulation import average_gradients

MICRO, VOCAB = 4, 6


def build(batch_size):
  rng = np.random.default_rng(0)
  x = tf.compat.v1.placeholder(tf.float32, [batch_size, 2], name="x")
  ids = tf.compat.v1.placeholder(tf.int32, [batch_size], name="ids")
  y = tf.compat.v1.placeholder(tf.float32, [batch_size, 1], name="y")
  w = tf.compat.v1.get_variable("w", initializer=rng.normal(size=(2, 1)).astype("f"))
  emb = tf.compat.v1.get_variable("emb", initializer=rng.normal(size=(VOCAB, 1)).astype("f"))
  loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + tf.gather(emb, ids) - y))
  return (x, ids, y), loss


def data(n, seed=3):
  rng = np.random.default_rng(seed)
  rows = n * MICRO
  return (rng.normal(size=(rows, 2)).astype("f"),
          rng.integers(0, VOCAB - 2, size=rows).astype("int32"),
          rng.normal(size=(rows, 1)).astype("f"))


def state(sess):
  variables = tf.compat.v1.global_variables()
  return dict(zip([v.op.name for v in variables], sess.run(variables)))


@pytest.mark.parametrize("make_opt", [
    lambda: tf.compat.v1.train.GradientDescentOptimizer(0.1),
    lambda: tf.compat.v1.train.MomentumOptimizer(0.1, 0.9),
    lambda: tf.compat.v1.train.AdamOptimizer(0.05),
    lambda: tf.compat.v1.train.AdagradOptimizer(0.1),
    lambda: tf.compat.v1.train.RMSPropOptimizer(0.05, momentum=0.5),
    lambda: tf.compat.v1.train.FtrlOptimizer(0.1)],
    ids=["sgd", "momentum", "adam", "adagrad", "rmsprop", "ftrl"])
def test_host_averaged_update_equals_big_batch_update(make_opt):
  n, updates = 3, 2
  batches = [data(n, seed) for seed in range(updates)]
  with tf.Graph().as_default():
    placeholders, loss = build(n * MICRO)
    gs = tf.compat.v1.train.get_or_create_global_step()
    train_op = make_opt().minimize(loss, global_step=gs)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for big in batches:
        sess.run(train_op, dict(zip(placeholders, big)))
      want = state(sess)
  with tf.Graph().as_default():
    placeholders, loss = build(MICRO)
    gs = tf.compat.v1.train.get_or_create_global_step()
    averager = HostGradientAverager(make_opt(), loss, global_step=gs)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      for big in batches:
        averager.step(sess, [dict(zip(placeholders, (d[i:i + MICRO] for d in big)))
                             for i in range(0, n * MICRO, MICRO)])
      got = state(sess)
  assert sorted(got) == sorted(want)
  for name in want:
    np.testing.assert_allclose(got[name], want[name], rtol=2e-5, atol=2e-6, err_msg=name)


def test_sparse_gradients_come_back_as_indexed_slices_values(graph, sess):
  placeholders, loss = build(MICRO)
  averager = HostGradientAverager(tf.compat.v1.train.GradientDescentOptimizer(0.1), loss)
  sess.run(tf.compat.v1.global_variables_initializer())
  grads, loss_value = averager.compute(sess, dict(zip(placeholders, data(1))), fetches=loss)
  kinds = {v.op.name: type(g) for g, v in zip(grads, averager.variables)}
  assert kinds == {"w": np.ndarray, "emb": IndexedSlicesValue}
  assert np.isfinite(loss_value)


def test_average_gradients_of_sparse_rows_equals_the_densified_mean():
  a = IndexedSlicesValue(values=np.array([[1.0], [2.0]], "f"),
                                      indices=np.array([3, 3]), dense_shape=np.array([5, 1]))
  b = IndexedSlicesValue(values=np.array([[4.0], [8.0]], "f"),
                                      indices=np.array([3, 0]), dense_shape=np.array([5, 1]))
  dense = [np.array([1.0, 2.0], "f"), np.array([3.0, 6.0], "f")]
  mean_sparse, mean_dense, none = average_gradients([[a, dense[0], None], [b, dense[1], None]])
  assert isinstance(mean_sparse, IndexedSlicesValue)
  densified = np.zeros((5, 1), np.float32)
  np.add.at(densified, mean_sparse.indices, mean_sparse.values)
  np.testing.assert_allclose(densified.ravel(), [4.0, 0, 0, 3.5, 0])
  np.testing.assert_allclose(mean_dense, [2.0, 4.0])
  assert none is None


def test_average_gradients_rejects_empty_and_mismatched_lists():
  with pytest.raises(ValueError, match="at least one micro-batch"):
    average_gradients([])
  with pytest.raises(ValueError, match="lengths"):
    average_gradients([[np.ones(2)], [np.ones(2), np.ones(2)]])


def test_apply_takes_extra_feeds_for_a_learning_rate_placeholder(graph, sess):
  placeholders, loss = build(MICRO)
  lr = tf.compat.v1.placeholder(tf.float32, [], name="lr")
  averager = HostGradientAverager(tf.compat.v1.train.GradientDescentOptimizer(lr), loss,
                                  var_list=[v for v in tf.compat.v1.global_variables()
                                            if v.op.name == "w"])
  sess.run(tf.compat.v1.global_variables_initializer())
  w = averager.variables[0]
  w0 = sess.run(w)
  grads = [averager.compute(sess, dict(zip(placeholders, data(1, seed))))
           for seed in range(2)]
  averager.apply(sess, grads, feed_dict={lr: 0.5})
  np.testing.assert_allclose(sess.run(w), w0 - 0.5 * (grads[0][0] + grads[1][0]) / 2,
                             rtol=1e-6)


def test_building_never_calls_initialized_value(graph, sess, monkeypatch):
  def refuse(self):
    raise AssertionError("initialized_value() called on %s" % self.name)
  monkeypatch.setattr(tf.Variable, "initialized_value", refuse)
  placeholders, loss = build(MICRO)
  averager = HostGradientAverager(tf.compat.v1.train.AdamOptimizer(0.1), loss)
  sess.run(tf.compat.v1.global_variables_initializer())
  averager.step(sess, [dict(zip(placeholders, data(1, seed))) for seed in range(2)])


def test_not_an_optimizer_raises_type_error(graph):
  _, loss = build(MICRO)
  with pytest.raises(TypeError, match="optimizer"):
    HostGradientAverager("adam", loss)
