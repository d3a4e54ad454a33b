"""tf.contrib.crf against brute force: every score, the log-norm, the log-likelihood and its gradient
enumerate all tag sequences; crf_decode and viterbi_decode equal the brute-force argmax."""

import itertools

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import crf

V1 = tf.compat.v1


def _score(unary, transitions, tags):
  """A tag sequence's score: its unary potentials plus its transitions."""
  return (sum(unary[t, tag] for t, tag in enumerate(tags))
          + sum(transitions[a, b] for a, b in zip(tags[:-1], tags[1:])))


def _brute_force(unary, transitions, length):
  """(log-norm, best tags, best score, per-position tag marginals) over all sequences of `length`."""
  num_tags = unary.shape[1]
  sequences = list(itertools.product(range(num_tags), repeat=length))
  scores = np.array([_score(unary, transitions, s) for s in sequences], np.float64)
  log_norm = np.log(np.exp(scores - scores.max()).sum()) + scores.max()
  probabilities = np.exp(scores - log_norm)
  marginals = np.zeros((unary.shape[0], num_tags))
  for p, s in zip(probabilities, sequences):
    for t, tag in enumerate(s):
      marginals[t, tag] += p
  best = int(np.argmax(scores))
  return log_norm, list(sequences[best]), scores[best], marginals


@st.composite
def crf_problems(draw):
  batch = draw(st.integers(1, 3))
  max_len = draw(st.integers(1, 4))
  num_tags = draw(st.integers(2, 3))
  lengths = draw(st.lists(st.integers(1, max_len), min_size=batch, max_size=batch))
  seed = draw(st.integers(0, 2**16))
  rng = np.random.RandomState(seed)
  unary = rng.randn(batch, max_len, num_tags).astype(np.float32)
  transitions = rng.randn(num_tags, num_tags).astype(np.float32)
  tags = rng.randint(0, num_tags, size=(batch, max_len)).astype(np.int32)
  return unary, transitions, tags, np.array(lengths, np.int32)


@hypothesis.settings(max_examples=15)
@hypothesis.given(crf_problems())
def test_log_likelihood_scores_and_gradient_equal_brute_force_enumeration(problem):
  unary, transitions, tags, lengths = problem
  with tf.Graph().as_default(), V1.Session() as sess:
    inputs = tf.constant(unary)
    log_likelihood, _ = crf.crf_log_likelihood(inputs, tf.constant(tags), tf.constant(lengths),
                                               tf.constant(transitions))
    results = sess.run({
        "ll": log_likelihood,
        "score": crf.crf_sequence_score(inputs, tags, lengths, transitions),
        "unary": crf.crf_unary_score(tags, lengths, inputs),
        "binary": crf.crf_binary_score(tags, lengths, transitions),
        "norm": crf.crf_log_norm(inputs, lengths, transitions),
        "grad": tf.gradients(tf.reduce_sum(log_likelihood), inputs)[0]})
  for b, length in enumerate(lengths):
    u, y = unary[b, :length], list(tags[b, :length])
    log_norm, _, _, marginals = _brute_force(u, transitions, length)
    score = _score(u, transitions, y)
    np.testing.assert_allclose(results["unary"][b], sum(u[t, k] for t, k in enumerate(y)), rtol=1e-5,
                               atol=1e-5)
    np.testing.assert_allclose(results["score"][b], score, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(results["norm"][b], log_norm, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(results["ll"][b], score - log_norm, rtol=1e-5, atol=1e-5)
    # d log p(y) / d unary[t, k] = [y_t == k] - P(y_t = k); zero past the sequence's length.
    expected_grad = np.zeros_like(unary[b])
    expected_grad[np.arange(length), y] += 1
    expected_grad[:length] -= marginals
    np.testing.assert_allclose(results["grad"][b], expected_grad, atol=1e-5)


@hypothesis.settings(max_examples=15)
@hypothesis.given(crf_problems())
def test_crf_decode_and_viterbi_decode_equal_brute_force_argmax(problem):
  unary, transitions, _, lengths = problem
  with tf.Graph().as_default(), V1.Session() as sess:
    tags, best_score = sess.run(crf.crf_decode(tf.constant(unary), tf.constant(transitions),
                                               tf.constant(lengths)))
  assert tags.dtype == np.int32 and tags.shape == unary.shape[:2]
  for b, length in enumerate(lengths):
    _, best_tags, best, _ = _brute_force(unary[b, :length], transitions, length)
    # Ties have probability zero for random float potentials.
    assert list(tags[b, :length]) == best_tags
    assert np.all(tags[b, length:] == 0)
    np.testing.assert_allclose(best_score[b], best, rtol=1e-5, atol=1e-5)
    viterbi, viterbi_score = crf.viterbi_decode(unary[b, :length], transitions)
    assert [int(t) for t in viterbi] == best_tags
    np.testing.assert_allclose(viterbi_score, best, rtol=1e-5, atol=1e-5)


def test_log_likelihood_creates_the_transitions_variable_as_tf115(graph):
  inputs = tf.zeros([2, 3, 4])
  tags = tf.zeros([2, 3], tf.int32)
  with V1.variable_scope("crf_layer"):
    _, transitions = crf.crf_log_likelihood(inputs, tags, [3, 2])
  assert transitions.op.name == "crf_layer/transitions"
  assert transitions.shape.as_list() == [4, 4]
  assert transitions in V1.trainable_variables()
  with V1.variable_scope("crf_layer", reuse=True):
    _, again = crf.crf_log_likelihood(inputs, tags, [3, 2])
  assert again is transitions


def test_length_one_and_unknown_max_length_take_the_single_step_path(sess):
  unary = np.array([[[0.5, 2.0, -1.0]], [[1.5, 0.2, 0.1]]], np.float32)
  transitions = np.random.RandomState(0).randn(3, 3).astype(np.float32)
  placeholder = V1.placeholder(tf.float32, [None, None, 3])
  ll, _ = crf.crf_log_likelihood(placeholder, tf.constant([[1], [2]]), tf.constant([1, 1]),
                                 tf.constant(transitions))
  tags, score = crf.crf_decode(placeholder, tf.constant(transitions), tf.constant([1, 1]))
  got_ll, got_tags, got_score = sess.run((ll, tags, score), {placeholder: unary})
  log_norm = np.log(np.exp(unary[:, 0]).sum(1))
  np.testing.assert_allclose(got_ll, [2.0 - log_norm[0], 0.1 - log_norm[1]], rtol=1e-5)
  assert got_tags.tolist() == [[1], [0]]
  np.testing.assert_allclose(got_score, [2.0, 1.5])
  # The same placeholder graph with longer sequences takes the forward-algorithm path.
  longer = np.random.RandomState(1).randn(2, 3, 3).astype(np.float32)
  got_tags = sess.run(tags, {placeholder: longer})
  assert got_tags.shape == (2, 3)


def test_forward_cell_is_one_step_of_the_forward_algorithm(sess):
  transitions = np.random.RandomState(2).randn(3, 3).astype(np.float32)
  alphas = np.random.RandomState(3).randn(2, 3).astype(np.float32)
  unary = np.random.RandomState(4).randn(2, 3).astype(np.float32)
  cell = crf.CrfForwardRnnCell(tf.constant(transitions))
  assert cell.state_size == cell.output_size == 3
  out, state = sess.run(cell(tf.constant(unary), tf.constant(alphas)))
  expected = unary + np.log(np.exp(alphas[:, :, None] + transitions[None]).sum(1))
  np.testing.assert_allclose(out, expected, rtol=1e-5)
  np.testing.assert_allclose(state, expected, rtol=1e-5)
  backpointers, best = sess.run(crf.CrfDecodeForwardRnnCell(tf.constant(transitions))(
      tf.constant(unary), tf.constant(alphas)))
  np.testing.assert_array_equal(backpointers, np.argmax(alphas[:, :, None] + transitions[None], 1))
  np.testing.assert_allclose(best, unary + np.max(alphas[:, :, None] + transitions[None], 1),
                             rtol=1e-6)
  tags, _ = sess.run(crf.CrfDecodeBackwardRnnCell(3)(tf.constant(backpointers),
                                                     tf.constant([[2], [0]], tf.int32)))
  assert tags.tolist() == [[backpointers[0, 2]], [backpointers[1, 0]]]


def test_bad_ranks_are_rejected_naming_the_argument():
  with pytest.raises(ValueError, match="crf_log_likelihood expects `inputs` of rank 3"):
    crf.crf_log_likelihood(np.zeros((2, 3), np.float32), np.zeros((2, 3), np.int32), [3, 3])
  with pytest.raises(ValueError, match="crf_decode expects `potentials` of rank 3"):
    crf.crf_decode(np.zeros((2, 3), np.float32), np.zeros((3, 3), np.float32), [3, 3])
