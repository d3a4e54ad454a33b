"""tf.contrib.seq2seq.sequence_loss against the written-out masked cross-entropy, every flag combination."""

import inspect
import itertools

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import seq2seq

BATCH, STEPS, SYMBOLS = 3, 4, 5


def _data(seed=0):
  rng = np.random.RandomState(seed)
  logits = rng.randn(BATCH, STEPS, SYMBOLS).astype(np.float32)
  targets = rng.randint(0, SYMBOLS, size=(BATCH, STEPS)).astype(np.int32)
  # A mask with a padded tail per example, a fractional weight, and one all-zero time step
  # (column 3) so the div_no_nan paths and count_nonzero are exercised.
  weights = np.array([[1.0, 1.0, 0.5, 0.0],
                      [1.0, 0.0, 0.0, 0.0],
                      [1.0, 2.0, 1.0, 0.0]], np.float32)
  return logits, targets, weights


def _xent(logits, targets):
  shifted = logits - logits.max(axis=-1, keepdims=True)
  log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
  return -np.take_along_axis(log_probs, targets[..., None], axis=-1)[..., 0]


def _div_no_nan(a, b):
  b = np.asarray(b, np.float64)
  return np.where(b == 0, 0.0, np.asarray(a, np.float64) / np.where(b == 0, 1.0, b))


def _reference(logits, targets, weights, avg_t, avg_b, sum_t, sum_b):
  """TF 1.15's sequence_loss written out: which axes are reduced and by what divisor."""
  loss = _xent(logits, targets) * weights
  if avg_t and avg_b:
    return _div_no_nan(loss.sum(), weights.sum())
  if sum_t and sum_b:
    return _div_no_nan(loss.sum(), np.count_nonzero(weights))
  if avg_t or avg_b:
    axis = 0 if avg_b else 1
    return _div_no_nan(loss.sum(axis=axis), weights.sum(axis=axis))
  if sum_t or sum_b:
    axis = 0 if sum_b else 1
    return _div_no_nan(loss.sum(axis=axis), np.count_nonzero(weights, axis=axis))
  return loss


VALID_FLAGS = [flags for flags in itertools.product([False, True], repeat=4)
               if not (flags[0] and flags[2]) and not (flags[1] and flags[3])]


@pytest.mark.parametrize("avg_t,avg_b,sum_t,sum_b", VALID_FLAGS)
def test_sequence_loss_equals_the_written_out_formula(sess, avg_t, avg_b, sum_t, sum_b):
  logits, targets, weights = _data()
  loss = seq2seq.sequence_loss(
      tf.constant(logits), tf.constant(targets), tf.constant(weights),
      average_across_timesteps=avg_t, average_across_batch=avg_b,
      sum_over_timesteps=sum_t, sum_over_batch=sum_b)
  expected = _reference(logits, targets, weights, avg_t, avg_b, sum_t, sum_b)
  got = sess.run(loss)
  assert got.shape == np.shape(expected)
  np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_the_default_is_the_mean_per_unit_of_weight_and_matches_the_legacy_list_version(sess):
  logits, targets, weights = _data(1)
  got = seq2seq.sequence_loss(tf.constant(logits), tf.constant(targets), tf.constant(weights))
  np.testing.assert_allclose(
      sess.run(got), (_xent(logits, targets) * weights).sum() / weights.sum(), rtol=1e-5)


def test_softmax_loss_function_is_called_with_flat_keyword_arguments(sess):
  logits, targets, weights = _data(2)
  seen = {}

  def doubled_xent(labels, logits):
    seen["shapes"] = (labels.shape.as_list(), logits.shape.as_list())
    return 2.0 * tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)

  loss = seq2seq.sequence_loss(tf.constant(logits), tf.constant(targets), tf.constant(weights),
                               average_across_timesteps=False, average_across_batch=False,
                               softmax_loss_function=doubled_xent)
  assert seen["shapes"][0] == [BATCH * STEPS]
  np.testing.assert_allclose(sess.run(loss), 2.0 * _xent(logits, targets) * weights, rtol=1e-5)


def test_gradient_reaches_only_the_unmasked_logits(sess):
  logits, targets, weights = _data(3)
  logits_t = tf.constant(logits)
  grad = tf.gradients(seq2seq.sequence_loss(logits_t, tf.constant(targets),
                                            tf.constant(weights)), logits_t)[0]
  g = sess.run(grad)
  assert np.all(g[weights == 0] == 0)
  assert np.all(np.abs(g[weights != 0]).sum(axis=-1) > 0)


@pytest.mark.parametrize("kwargs,message", [
    (dict(average_across_timesteps=True, sum_over_timesteps=True), "average_across_timesteps and"),
    (dict(average_across_batch=True, sum_over_batch=True), "average_across_batch and sum_over"),
])
def test_conflicting_flags_are_rejected(graph, kwargs, message):
  logits, targets, weights = _data()
  with pytest.raises(ValueError, match=message):
    seq2seq.sequence_loss(logits, targets, weights, **kwargs)


@pytest.mark.parametrize("argument", ["logits", "targets", "weights"])
def test_wrong_ranks_are_rejected_naming_the_argument(graph, argument):
  args = dict(zip(["logits", "targets", "weights"], _data()))
  args[argument] = args[argument][0]
  with pytest.raises(ValueError, match=r"%s must be a \[batch_size x sequence_length" % argument):
    seq2seq.sequence_loss(**args)


def test_signature_is_tf115s():
  assert list(inspect.signature(seq2seq.sequence_loss).parameters) == [
      "logits", "targets", "weights", "average_across_timesteps", "average_across_batch",
      "sum_over_timesteps", "sum_over_batch", "softmax_loss_function", "name"]
