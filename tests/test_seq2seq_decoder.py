"""tf.contrib.seq2seq decoding: dynamic_decode + BasicDecoder + Helpers against hand-unrolled loops."""


import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import rnn
from tf1clip.contrib import seq2seq

V1 = tf.compat.v1
BATCH, STEPS, DEPTH, UNITS, VOCAB = 3, 5, 4, 6, 7


def _randomize(sess, seed=0):
  sess.run(V1.global_variables_initializer())
  rng = np.random.RandomState(seed)
  for var in V1.global_variables():
    var.load(rng.uniform(-1.0, 1.0, var.shape.as_list()).astype(np.float32), sess)


def _names():
  return sorted(v.op.name for v in V1.global_variables())


def _inputs(seed=0):
  return np.random.RandomState(seed).randn(BATCH, STEPS, DEPTH).astype(np.float32)


def test_training_helper_decode_equals_dynamic_rnn_on_the_same_cell(sess):
  inputs = tf.constant(_inputs())
  lengths = tf.constant([5, 2, 3])
  cell = rnn.BasicLSTMCell(UNITS)
  decoder = seq2seq.BasicDecoder(cell, seq2seq.TrainingHelper(inputs, lengths),
                                 cell.zero_state(BATCH, tf.float32))
  outputs, state, seq_lengths = seq2seq.dynamic_decode(decoder, impute_finished=True)
  assert _names() == ["decoder/basic_lstm_cell/bias", "decoder/basic_lstm_cell/kernel"]
  rnn_outputs, rnn_state = V1.nn.dynamic_rnn(cell, inputs, sequence_length=lengths,
                                             dtype=tf.float32)
  assert _names() == ["decoder/basic_lstm_cell/bias", "decoder/basic_lstm_cell/kernel"]
  _randomize(sess)
  got, want = sess.run([(outputs, state, seq_lengths), (rnn_outputs, rnn_state)])
  np.testing.assert_allclose(got[0].rnn_output, want[0], rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got[1].c, want[1].c, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got[1].h, want[1].h, rtol=1e-5, atol=1e-6)
  np.testing.assert_array_equal(got[2], [5, 2, 3])
  np.testing.assert_array_equal(got[0].sample_id, np.argmax(want[0], -1))
  assert got[0].sample_id.dtype == np.int32


def _greedy_graph(end_token, max_iters=6, helper_cls=None, **helper_kwargs):
  embedding = V1.get_variable("embedding", [VOCAB, DEPTH])
  cell = rnn.GRUCell(UNITS)
  dense = V1.layers.Dense(VOCAB, use_bias=False)
  start = tf.constant([1, 2, 3])
  helper_cls = helper_cls or seq2seq.GreedyEmbeddingHelper
  helper = helper_cls(embedding, start, end_token, **helper_kwargs)
  decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32),
                                 output_layer=dense)
  decoded = seq2seq.dynamic_decode(decoder, maximum_iterations=max_iters)
  # The same model, unrolled by hand with the same (already built) cell and layer.
  x, state, ids, logits = tf.nn.embedding_lookup(embedding, start), cell.zero_state(
      BATCH, tf.float32), [], []
  for _ in range(max_iters):
    out, state = cell(x, state)
    logit = dense(out)
    step_ids = tf.argmax(logit, -1, output_type=tf.int32)
    ids.append(step_ids)
    logits.append(logit)
    x = tf.nn.embedding_lookup(embedding, step_ids)
  return decoded, tf.stack(ids, 1), tf.stack(logits, 1)


def _expected_lengths(ids, end_token, max_iters):
  lengths = []
  for row in ids:
    hits = np.nonzero(row == end_token)[0]
    lengths.append(hits[0] + 1 if hits.size else max_iters)
  return np.array(lengths)


def test_greedy_basic_decoder_equals_a_hand_unrolled_greedy_loop(sess):
  end_token = V1.placeholder(tf.int32, [])
  (outputs, _, lengths), hand_ids, hand_logits = _greedy_graph(end_token)
  assert _names() == ["decoder/dense/kernel", "decoder/gru_cell/candidate/bias",
                      "decoder/gru_cell/candidate/kernel", "decoder/gru_cell/gates/bias",
                      "decoder/gru_cell/gates/kernel", "embedding"]
  _randomize(sess, seed=4)
  ids, logits = sess.run([hand_ids, hand_logits], {end_token: -1})
  # End on the token entry 0 emits at step 2, so sequences stop at different steps.
  for token in (ids[0, 2], -1):
    got, got_lengths = sess.run([outputs, lengths], {end_token: token})
    want_lengths = _expected_lengths(ids, token, 6)
    np.testing.assert_array_equal(got_lengths, want_lengths)
    steps = want_lengths.max()
    assert got.sample_id.shape == (BATCH, steps)
    np.testing.assert_array_equal(got.sample_id, ids[:, :steps])
    np.testing.assert_allclose(got.rnn_output, logits[:, :steps], rtol=1e-5, atol=1e-6)


def test_sample_embedding_helper_at_low_temperature_is_greedy(sess):
  (outputs, _, _), hand_ids, _ = _greedy_graph(
      -1, helper_cls=seq2seq.SampleEmbeddingHelper, softmax_temperature=1e-4, seed=1)
  _randomize(sess, seed=4)
  got, want = sess.run([outputs.sample_id, hand_ids])
  np.testing.assert_array_equal(got, want)


def test_maximum_iterations_time_major_and_impute_finished(sess):
  inputs = tf.constant(_inputs(1))
  cell = rnn.BasicRNNCell(UNITS)
  helper = seq2seq.TrainingHelper(inputs, tf.constant([4, 1, 2]))
  decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
  imputed, _, lengths = seq2seq.dynamic_decode(decoder, impute_finished=True,
                                               output_time_major=True, maximum_iterations=3)
  raw, _, _ = seq2seq.dynamic_decode(decoder, maximum_iterations=3, scope="decoder")
  _randomize(sess)
  imputed, lengths, raw = sess.run([imputed, lengths, raw])
  assert imputed.rnn_output.shape == (3, BATCH, UNITS)  # time-major, cut at 3 steps
  assert raw.rnn_output.shape == (BATCH, 3, UNITS)
  np.testing.assert_array_equal(lengths, [3, 1, 2])
  np.testing.assert_array_equal(imputed.rnn_output[1:, 1], 0.0)  # entry 1 finished after 1 step
  np.testing.assert_array_equal(imputed.rnn_output[2:, 2], 0.0)
  np.testing.assert_allclose(imputed.rnn_output[0], raw.rnn_output[:, 0], rtol=1e-6)
  assert np.all(raw.rnn_output[1, 1:] != 0.0)  # without imputing, the cell keeps running


def test_scheduled_embedding_helper_probability_0_is_teacher_forcing_and_1_samples(sess):
  inputs = tf.constant(_inputs(2))
  embedding = tf.constant(np.random.RandomState(5).randn(UNITS, DEPTH).astype(np.float32))
  cell = rnn.BasicRNNCell(UNITS)
  lengths = tf.constant([5, 3, 4])
  results = {}
  for probability in (0.0, 1.0):
    helper = seq2seq.ScheduledEmbeddingTrainingHelper(inputs, lengths, embedding, probability,
                                                      seed=3, scheduling_seed=4)
    decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
    results[probability] = seq2seq.dynamic_decode(decoder)[0]
  teacher = seq2seq.dynamic_decode(seq2seq.BasicDecoder(
      cell, seq2seq.TrainingHelper(inputs, lengths), cell.zero_state(BATCH, tf.float32)))[0]
  # Hand loop for probability 1: every next input is the embedding of the sampled id.
  _randomize(sess)
  never, always, teacher = sess.run([results[0.0], results[1.0], teacher])
  np.testing.assert_array_equal(never.sample_id, -1)
  np.testing.assert_allclose(never.rnn_output, teacher.rnn_output, rtol=1e-6)
  assert np.all(always.sample_id >= 0) and np.all(always.sample_id < UNITS)
  x = _inputs(2)[:, 0]
  kernel, bias = sess.run(cell.weights)
  emb = sess.run(embedding)
  for t in range(STEPS - 1):
    h = always.rnn_output[:, t]
    assert np.all(always.sample_id[:, t] >= 0)
    if t == 0:
      np.testing.assert_allclose(h, np.tanh(np.concatenate([x, np.zeros((BATCH, UNITS))], 1)
                                            @ kernel + bias), rtol=1e-5, atol=1e-6)
    next_x = emb[always.sample_id[:, t]]
    np.testing.assert_allclose(always.rnn_output[0, t + 1], np.tanh(
        np.concatenate([next_x[0], h[0]]) @ kernel + bias), rtol=1e-5, atol=1e-6)


def test_scheduled_output_helper_feeds_the_transformed_output_with_auxiliary_inputs(sess):
  inputs = tf.constant(_inputs(3)[..., :2])
  auxiliary = tf.constant(_inputs(4)[..., :2])
  cell = rnn.BasicRNNCell(2)
  helper = seq2seq.ScheduledOutputTrainingHelper(
      inputs, tf.constant([5, 5, 5]), 1.0, next_inputs_fn=lambda out: 2.0 * out,
      auxiliary_inputs=auxiliary)
  decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
  outputs = seq2seq.dynamic_decode(decoder)[0]
  _randomize(sess)
  got = sess.run(outputs)
  kernel, bias = sess.run(cell.weights)
  np.testing.assert_array_equal(got.sample_id, 1)
  aux = _inputs(4)[..., :2]
  h = got.rnn_output
  for t in range(STEPS - 1):
    x = np.concatenate([2.0 * h[:, t], aux[:, t + 1]], 1)
    np.testing.assert_allclose(h[:, t + 1], np.tanh(np.concatenate([x, h[:, t]], 1) @ kernel
                                                    + bias), rtol=1e-5, atol=1e-6)


def test_inference_and_custom_helpers_feed_outputs_back(sess):
  cell = rnn.BasicRNNCell(DEPTH)
  start = tf.constant(_inputs(5)[:, 0])
  inference = seq2seq.InferenceHelper(
      sample_fn=lambda out: out, sample_shape=[DEPTH], sample_dtype=tf.float32,
      start_inputs=start, end_fn=lambda s: tf.reduce_all(s > 0.99, axis=-1))
  custom = seq2seq.CustomHelper(
      initialize_fn=lambda: (tf.zeros([BATCH], tf.bool), start),
      sample_fn=lambda time, outputs, state: tf.zeros([BATCH], tf.int32),
      next_inputs_fn=lambda time, outputs, state, sample_ids: (
          tf.fill([BATCH], time + 1 >= 4), outputs, state))
  results = []
  for helper in (inference, custom):
    decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32))
    results.append(seq2seq.dynamic_decode(decoder, maximum_iterations=4))
  _randomize(sess)
  (inf_out, _, inf_len), (cus_out, _, cus_len) = sess.run(results)
  kernel, bias = sess.run(cell.weights)
  x, h = _inputs(5)[:, 0], np.zeros((BATCH, DEPTH))
  for t in range(4):
    h = np.tanh(np.concatenate([x, h], 1) @ kernel + bias)
    np.testing.assert_allclose(inf_out.rnn_output[:, t], h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(inf_out.sample_id[:, t], h, rtol=1e-5, atol=1e-6)
    x = h
  np.testing.assert_allclose(cus_out.rnn_output, inf_out.rnn_output, rtol=1e-6)
  np.testing.assert_array_equal(inf_len, 4)
  np.testing.assert_array_equal(cus_len, 4)


def test_bad_arguments_fail_naming_what_was_expected(graph):
  cell = rnn.BasicRNNCell(2)
  helper = seq2seq.TrainingHelper(tf.zeros([2, 3, 2]), [3, 3])
  with pytest.raises(TypeError, match="helper must be a tf.contrib.seq2seq Helper"):
    seq2seq.BasicDecoder(cell, object(), cell.zero_state(2, tf.float32))
  with pytest.raises(TypeError, match="'cell'.*is not an RNNCell"):
    seq2seq.BasicDecoder(object(), helper, None)
  with pytest.raises(TypeError, match="output_layer must be a Layer"):
    seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32), output_layer=tf.tanh)
  with pytest.raises(TypeError, match="Expected decoder to be"):
    seq2seq.dynamic_decode(cell)
  with pytest.raises(ValueError, match="sequence_length to be a vector"):
    seq2seq.TrainingHelper(tf.zeros([2, 3, 2]), [[3, 3]])
  with pytest.raises(ValueError, match="start_tokens must be a vector"):
    seq2seq.GreedyEmbeddingHelper(tf.zeros([4, 2]), 0, 1)
  with pytest.raises(ValueError, match="sampling_probability must be either a scalar or a vector"):
    seq2seq.ScheduledOutputTrainingHelper(tf.zeros([2, 3, 2]), [3, 3], [[0.5]])
  decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32))
  with pytest.raises(ValueError, match="maximum_iterations must be a scalar"):
    seq2seq.dynamic_decode(decoder, maximum_iterations=[3])


def test_swap_memory_and_an_outer_while_loop_give_the_same_decode(sess):
  inputs = tf.constant(_inputs(6))
  lengths = tf.constant([5, 2, 4])
  cell = rnn.GRUCell(UNITS)

  def decode(**kwargs):
    decoder = seq2seq.BasicDecoder(cell, seq2seq.TrainingHelper(inputs, lengths),
                                   cell.zero_state(BATCH, tf.float32))
    return seq2seq.dynamic_decode(decoder, **kwargs)[0].rnn_output

  plain = decode()
  swapped = decode(swap_memory=True)
  # Decoding inside a while loop (no caching device there, as in TF 1.15) runs the same step.
  _, looped = V1.while_loop(
      lambda i, _: i < 1, lambda i, _: (i + 1, tf.ensure_shape(decode(), [BATCH, STEPS, UNITS])),
      (tf.constant(0), tf.zeros([BATCH, STEPS, UNITS])))
  _randomize(sess)
  got_plain, got_swapped, got_looped = sess.run([plain, swapped, looped])
  np.testing.assert_allclose(got_swapped, got_plain, rtol=1e-6)
  np.testing.assert_allclose(got_looped, got_plain, rtol=1e-6)


# TF 1.15's signatures of every seq2seq name are checked against TF 1.15 itself by
# tests/oracle/test_inventory.py (the inventory tf1clip/tf115/api.tsv, written inside TF 1.15).
