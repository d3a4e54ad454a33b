"""Tests of the reference graphs in graphs/: they build, are deterministic, and reproduce their situation."""

import numpy as np
import pytest
import tensorflow as tf

import graphs
from graphs import big_batch_mlp
from graphs import cbow
from graphs import frozen_product
from graphs import lstm_classifier

# Small sizes for every builder, so each test builds in well under a second.
SMALL = {
    "lstm_classifier": dict(num_steps=5, input_size=3, hidden_size=8, num_classes=3),
    "cbow": dict(vocab_size=20, embedding_dim=6, window=2),
    "frozen_product": dict(input_size=4, output_size=2),
    "big_batch_mlp": dict(input_size=8, hidden_sizes=(16, 16), num_classes=3),
}


def _initial_values_and_loss(name, seed=0, batch_seed=0, **overrides):
  """Builds graph `name` in a fresh graph; returns (initial variable values, batch, loss)."""
  with tf.Graph().as_default():
    model = graphs.BUILDERS[name](seed=seed, **dict(SMALL[name], **overrides))
    arrays = model.make_arrays(batch_seed, 8)
    with tf.compat.v1.Session() as sess:
      sess.run(tf.compat.v1.global_variables_initializer())
      values = sess.run(model.variables)
      loss = sess.run(model.loss, model.feed(arrays))
  return values, arrays, loss


def _global_norm_of_gradients(model, sess, batch_seeds, batch_size=32):
  norm = tf.linalg.global_norm(tf.gradients(model.loss, model.variables))
  return np.array([sess.run(norm, model.make_batch(s, batch_size)) for s in batch_seeds])


@pytest.mark.parametrize("name", sorted(graphs.BUILDERS))
def test_every_reference_graph_builds_with_a_finite_scalar_loss(name, sess):
  model = graphs.BUILDERS[name](**SMALL[name])
  assert model.loss.shape.rank == 0
  assert set(model.placeholders) == set(model.make_arrays(0, 5))
  trainable = tf.compat.v1.trainable_variables()
  assert [v.name for v in model.variables] == [v.name for v in trainable]
  sess.run(tf.compat.v1.global_variables_initializer())
  loss = sess.run(model.loss, model.make_batch(0, 5))
  assert np.isfinite(loss) and loss > 0


@pytest.mark.parametrize("name", sorted(graphs.BUILDERS))
def test_batches_have_the_requested_size_and_match_placeholder_dtypes(name, graph):
  model = graphs.BUILDERS[name](**SMALL[name])
  for batch_size in (1, 7):
    for placeholder, value in model.make_batch(3, batch_size).items():
      assert value.shape[0] == batch_size
      assert placeholder.shape.is_compatible_with(value.shape)
      assert value.dtype == placeholder.dtype.as_numpy_dtype


@pytest.mark.parametrize("name", sorted(graphs.BUILDERS))
def test_two_builds_in_two_graphs_start_from_the_same_values(name):
  values_a, arrays_a, loss_a = _initial_values_and_loss(name, seed=1, batch_seed=5)
  values_b, arrays_b, loss_b = _initial_values_and_loss(name, seed=1, batch_seed=5)
  for a, b in zip(values_a, values_b):
    np.testing.assert_array_equal(a, b)
  for key in arrays_a:
    np.testing.assert_array_equal(arrays_a[key], arrays_b[key])
  assert loss_a == loss_b


@pytest.mark.parametrize("name", sorted(graphs.BUILDERS))
def test_another_seed_gives_other_weights_and_other_batches(name):
  values_a, arrays_a, _ = _initial_values_and_loss(name, seed=1, batch_seed=5)
  values_b, arrays_b, _ = _initial_values_and_loss(name, seed=2, batch_seed=6)
  # Zero-initialised biases are equal under any seed; the weight matrices are not.
  assert any(a.ndim == 2 and not np.array_equal(a, b) for a, b in zip(values_a, values_b))
  assert any(not np.array_equal(arrays_a[k], arrays_b[k]) for k in arrays_a)


def test_a_generator_seed_draws_a_fresh_batch_each_call(graph):
  model = frozen_product.build()
  rng = np.random.default_rng(0)
  first, second = model.make_arrays(rng, 4)["x"], model.make_arrays(rng, 4)["x"]
  assert not np.array_equal(first, second)
  np.testing.assert_array_equal(first, model.make_arrays(np.random.default_rng(0), 4)["x"])


@pytest.mark.parametrize("name", sorted(graphs.BUILDERS))
def test_plain_sgd_lowers_the_loss_of_every_reference_graph(name, sess):
  model = graphs.BUILDERS[name](**SMALL[name])
  # Averaging the context embeddings shrinks CBOW's gradients; word2vec takes big SGD steps.
  learning_rate = 2.0 if name == "cbow" else 0.5
  train = tf.compat.v1.train.GradientDescentOptimizer(learning_rate).minimize(model.loss)
  sess.run(tf.compat.v1.global_variables_initializer())
  held_out = model.make_batch(10_000, 256)
  before = sess.run(model.loss, held_out)
  for step in range(60):
    sess.run(train, model.make_batch(step, 32))
  assert sess.run(model.loss, held_out) < 0.9 * before


def test_lstm_exploding_settings_push_the_global_norm_past_10(sess):
  calm = lstm_classifier.build(scope="calm")
  exploding = lstm_classifier.build(scope="exploding", **lstm_classifier.EXPLODING)
  sess.run(tf.compat.v1.global_variables_initializer())
  calm_norms = _global_norm_of_gradients(calm, sess, range(5))
  exploding_norms = _global_norm_of_gradients(exploding, sess, range(5))
  assert exploding_norms.min() > 10
  assert np.median(exploding_norms) > 100 * np.median(calm_norms)


def test_lstm_gradient_norm_grows_with_the_unrolled_length(sess):
  short = lstm_classifier.build(num_steps=4, scope="short", **lstm_classifier.EXPLODING)
  long = lstm_classifier.build(num_steps=20, scope="long", **lstm_classifier.EXPLODING)
  sess.run(tf.compat.v1.global_variables_initializer())
  short_norm = np.median(_global_norm_of_gradients(short, sess, range(5)))
  long_norm = np.median(_global_norm_of_gradients(long, sess, range(5)))
  assert long_norm > 10 * short_norm


def test_lstm_logits_have_one_row_per_sequence(sess):
  model = lstm_classifier.build(**SMALL["lstm_classifier"])
  sess.run(tf.compat.v1.global_variables_initializer())
  logits, (c, h) = sess.run([model.logits, model.final_state], model.make_batch(0, 6))
  assert logits.shape == (6, 3) and c.shape == h.shape == (6, 8)
  assert np.all(np.abs(h) < 1)


@pytest.mark.parametrize("num_sampled", [None, 5])
def test_cbow_embedding_gradient_is_indexed_slices_of_the_looked_up_rows(num_sampled, sess):
  model = cbow.build(num_sampled=num_sampled, **SMALL["cbow"])
  grads_and_vars = tf.compat.v1.train.GradientDescentOptimizer(1.0).compute_gradients(model.loss)
  grads = {v.name: g for g, v in grads_and_vars}
  embedding_grad = grads[model.embedding.name]
  assert isinstance(embedding_grad, tf.IndexedSlices)
  # Sampled softmax looks its output weights up as well, so their gradient is sparse too.
  assert isinstance(grads[model.softmax_w.name], tf.IndexedSlices) == (num_sampled is not None)
  embedded_grad = tf.gradients(model.loss, model.embedded)[0]
  sess.run(tf.compat.v1.global_variables_initializer())
  arrays = model.make_arrays(0, 8)
  indices, values, per_lookup = sess.run(
      [embedding_grad.indices, embedding_grad.values, embedded_grad], model.feed(arrays))
  np.testing.assert_array_equal(np.sort(indices), np.sort(arrays["context"].ravel()))
  dense = np.zeros((20, 6), np.float32)
  np.add.at(dense, indices, values)
  expected = np.zeros_like(dense)
  np.add.at(expected, arrays["context"].ravel(), per_lookup.reshape(-1, 6))
  np.testing.assert_allclose(dense, expected, rtol=1e-5, atol=1e-7)


def test_cbow_batches_repeat_context_words_so_indices_have_duplicates(graph):
  model = cbow.build(**SMALL["cbow"])
  context = model.make_arrays(0, 16)["context"]
  assert len(np.unique(context)) < context.size
  assert context.max() < 20 and context.min() >= 0


def test_cbow_adversarial_gradients_are_sparse_for_the_variable_dense_for_the_lookups(graph):
  model = cbow.build(**SMALL["cbow"])
  adversarial = cbow.adversarial_gradients(model)
  assert isinstance(adversarial.embedding, tf.IndexedSlices)
  assert isinstance(adversarial.embedded, tf.Tensor)
  assert adversarial.embedded.shape.as_list() == [None, 4, 6]


def test_frozen_product_gives_none_gradients_to_w2_and_w3(graph):
  model = frozen_product.build()
  grads_and_vars = tf.compat.v1.train.GradientDescentOptimizer(0.1).compute_gradients(model.loss)
  assert [v.name for _, v in grads_and_vars] == [v.name for v in (model.w1, model.w2, model.w3)]
  assert grads_and_vars[0][0] is not None
  assert grads_and_vars[1][0] is None and grads_and_vars[2][0] is None


def test_frozen_product_sgd_drives_w1_to_w2_times_w3_and_leaves_them_alone(sess):
  model = frozen_product.build(input_size=5, output_size=3, seed=4)
  train = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(model.loss)
  sess.run(tf.compat.v1.global_variables_initializer())
  w1_start, w2_start, w3_start = sess.run([model.w1, model.w2, model.w3])
  assert np.abs(w1_start - w2_start * w3_start).max() > 0.1
  for step in range(300):
    sess.run(train, model.make_batch(step, 32))
  w1, w2, w3 = sess.run([model.w1, model.w2, model.w3])
  np.testing.assert_array_equal(w2, w2_start)
  np.testing.assert_array_equal(w3, w3_start)
  np.testing.assert_allclose(w1, w2 * w3, atol=1e-4)


def test_big_batch_mlp_counts_its_parameters(graph):
  model = big_batch_mlp.build(**SMALL["big_batch_mlp"])
  assert model.parameter_count == sum(v.shape.num_elements() for v in model.variables)
  assert model.activations_per_example == 2 * (16 + 16) + 3


def test_big_batch_mlp_memory_bound_sizes_are_dominated_by_activations(graph):
  model = big_batch_mlp.build(**big_batch_mlp.MEMORY_BOUND)
  assert model.parameter_count == sum(v.shape.num_elements() for v in model.variables)
  assert model.activations_per_example * 4096 > 10 * model.parameter_count


@pytest.mark.parametrize("builder, kwargs, named", [
    (lstm_classifier.build, dict(num_steps=0), "num_steps"),
    (lstm_classifier.build, dict(init_scale=-1.0), "init_scale"),
    (cbow.build, dict(vocab_size=10, num_sampled=10), "num_sampled"),
    (cbow.build, dict(window=2.5), "window"),
    (frozen_product.build, dict(output_size=0), "output_size"),
    (big_batch_mlp.build, dict(hidden_sizes=()), "hidden_sizes"),
    (big_batch_mlp.build, dict(hidden_sizes=(8, -1)), "hidden_sizes[1]"),
])
def test_bad_sizes_raise_at_build_naming_the_argument(builder, kwargs, named, graph):
  with pytest.raises(ValueError, match=r"`%s`" % named.replace("[", r"\[").replace("]", r"\]")):
    builder(**kwargs)


@pytest.mark.parametrize("seed, batch_size, error", [
    (-1, 4, TypeError), ("0", 4, TypeError), (0, 0, ValueError), (0, 2.0, ValueError)])
def test_bad_batch_arguments_raise(seed, batch_size, error, graph):
  model = frozen_product.build()
  with pytest.raises(error):
    model.make_batch(seed, batch_size)
