"""tf.contrib.seq2seq beam search: gather_tree vs a numpy backtrack, beam width 1 vs greedy, and
a tiny vocabulary's exhaustive search."""

import itertools

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import rnn
from tf1clip.contrib import seq2seq
from tf1clip.contrib.seq2seq.python.ops import beam_search_decoder

_get_scores = beam_search_decoder._get_scores  # pylint: disable=protected-access

V1 = tf.compat.v1


def _numpy_gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token):
  """TF 1.15's GatherTree kernel, loop for loop."""
  max_time, batch_size, beam_width = parent_ids.shape
  beams = np.full_like(step_ids, end_token)
  for b in range(batch_size):
    length = min(max_time, max_sequence_lengths[b])
    for w in range(beam_width):
      if length <= 0:
        continue
      beams[length - 1, b, w] = step_ids[length - 1, b, w]
      parent = parent_ids[length - 1, b, w]
      for t in range(length - 2, -1, -1):
        beams[t, b, w] = step_ids[t, b, parent]
        parent = parent_ids[t, b, parent]
      finished = False
      for t in range(length):
        if finished:
          beams[t, b, w] = end_token
        elif beams[t, b, w] == end_token:
          finished = True
  return beams


@hypothesis.given(st.integers(1, 5), st.integers(1, 3), st.integers(1, 4), st.integers(0, 10**6))
def test_gather_tree_equals_a_numpy_backtrack(max_time, batch_size, beam_width, seed):
  rng = np.random.RandomState(seed)
  step_ids = rng.randint(0, 5, (max_time, batch_size, beam_width)).astype(np.int32)
  parent_ids = rng.randint(0, beam_width, (max_time, batch_size, beam_width)).astype(np.int32)
  lengths = rng.randint(0, max_time + 2, batch_size).astype(np.int32)
  with tf.Graph().as_default(), V1.Session() as sess:
    got = sess.run(seq2seq.gather_tree(step_ids, parent_ids, lengths, end_token=4))
  np.testing.assert_array_equal(got, _numpy_gather_tree(step_ids, parent_ids, lengths, 4))


def test_gather_tree_on_tf115s_kernel_test_example(sess):
  # TF 1.15's beam_search_ops_test.testGatherTreeOne: one batch entry, 3 beams, end_token 10.
  step_ids = np.array([[[1, 2, 3]], [[4, 5, 6]], [[7, 8, 9]], [[-1, -1, -1]]], np.int32)
  parent_ids = np.array([[[0, 0, 0]], [[0, 1, 1]], [[2, 1, 2]], [[-1, -1, -1]]], np.int32)
  got = sess.run(seq2seq.gather_tree(step_ids, parent_ids, [3], end_token=10))
  np.testing.assert_array_equal(got, [[[2, 2, 2]], [[6, 5, 6]], [[7, 8, 9]], [[10, 10, 10]]])


def test_gather_tree_rejects_a_parent_outside_the_beam(sess):
  bad = seq2seq.gather_tree([[[0, 1]], [[1, 0]]], [[[0, 0]], [[0, 5]]], [2], end_token=9)
  with pytest.raises(tf.errors.InvalidArgumentError, match="invalid parent id"):
    sess.run(bad)


def test_tile_batch_repeats_each_entry_in_place(sess):
  t = tf.constant([[1, 2], [3, 4]])
  nested = seq2seq.tile_batch((t, tf.constant([5, 6])), 3)
  assert nested[0].shape.as_list() == [6, 2]
  got = sess.run(nested)
  np.testing.assert_array_equal(got[0], [[1, 2]] * 3 + [[3, 4]] * 3)
  np.testing.assert_array_equal(got[1], [5, 5, 5, 6, 6, 6])
  with pytest.raises(ValueError, match="statically known rank"):
    seq2seq.tile_batch(tf.constant(1), 2)


VOCAB, EMB, UNITS, BATCH = 4, 3, 5, 2
END = 0


def _model():
  embedding = V1.get_variable("embedding", [VOCAB, EMB])
  cell = rnn.GRUCell(UNITS)
  dense = V1.layers.Dense(VOCAB, name="output_projection")
  return embedding, cell, dense


def _randomize(sess, seed):
  sess.run(V1.global_variables_initializer())
  rng = np.random.RandomState(seed)
  for var in V1.global_variables():
    var.load(rng.uniform(-2.0, 2.0, var.shape.as_list()).astype(np.float32), sess)


@pytest.mark.parametrize("seed", [0, 1])
def test_beam_width_1_equals_greedy_decoding(sess, seed):
  embedding, cell, dense = _model()
  start = tf.constant([1, 2])
  greedy = seq2seq.BasicDecoder(
      cell, seq2seq.GreedyEmbeddingHelper(embedding, start, END),
      cell.zero_state(BATCH, tf.float32), output_layer=dense)
  greedy_out, _, greedy_len = seq2seq.dynamic_decode(greedy, maximum_iterations=6)
  beam = seq2seq.BeamSearchDecoder(cell, embedding, start, END, cell.zero_state(BATCH, tf.float32),
                                   beam_width=1, output_layer=dense)
  beam_out, beam_state, beam_len = seq2seq.dynamic_decode(beam, maximum_iterations=6)
  names = sorted(v.op.name for v in V1.global_variables())
  assert names == ["decoder/gru_cell/candidate/bias", "decoder/gru_cell/candidate/kernel",
                   "decoder/gru_cell/gates/bias", "decoder/gru_cell/gates/kernel",
                   "decoder/output_projection/bias", "decoder/output_projection/kernel",
                   "embedding"]
  _randomize(sess, seed)
  g, g_len, b, b_len = sess.run([greedy_out, greedy_len, beam_out, beam_len])
  np.testing.assert_array_equal(b_len[:, 0], g_len)
  ids = b.predicted_ids[:, :, 0]
  for i in range(BATCH):
    np.testing.assert_array_equal(ids[i, :g_len[i]], g.sample_id[i, :g_len[i]])
    np.testing.assert_array_equal(ids[i, g_len[i]:], END)


def _exhaustive_best(sess, embedding, cell, dense, start, steps, alpha):
  """Scores every id sequence of `steps` steps with the same model, teacher-forced."""
  sequences = np.array(list(itertools.product(range(VOCAB), repeat=steps)), np.int32)
  n = len(sequences)
  prev = np.concatenate([np.full((n, 1), start), sequences[:, :-1]], 1)
  state = cell.zero_state(n, tf.float32)
  log_probs = []
  for t in range(steps):
    out, state = cell(tf.nn.embedding_lookup(embedding, prev[:, t]), state)
    log_probs.append(tf.nn.log_softmax(dense(out)))
  log_probs = sess.run(tf.stack(log_probs, 1))
  best = {}
  for seq, lp in zip(sequences, log_probs):
    ends = np.nonzero(seq == END)[0]
    length = ends[0] + 1 if ends.size else steps
    total = lp[np.arange(length), seq[:length]].sum()
    score = total / (((5.0 + length) / 6.0) ** alpha)
    best[tuple(seq[:length])] = score
  hyp = max(best, key=best.get)
  return hyp, best[hyp]


@pytest.mark.parametrize("alpha", [0.0, 1.0])
def test_beam_search_finds_the_exhaustive_best_sequence_on_a_tiny_vocabulary(sess, alpha):
  steps = 3
  beam_width = VOCAB ** (steps - 1)  # wide enough that no prefix of the best is ever pruned
  embedding, cell, dense = _model()
  start = [1, 3]
  decoder = seq2seq.BeamSearchDecoder(
      cell, embedding, start, END, cell.zero_state(BATCH * beam_width, tf.float32),
      beam_width=beam_width, output_layer=dense, length_penalty_weight=alpha)
  outputs, _, _ = seq2seq.dynamic_decode(decoder, maximum_iterations=steps)
  for seed in (2, 3):
    _randomize(sess, seed)
    got = sess.run(outputs)
    for i in range(BATCH):
      hyp, score = _exhaustive_best(sess, embedding, cell, dense, start[i], steps, alpha)
      ids = got.predicted_ids[i, :, 0]
      np.testing.assert_array_equal(ids[:len(hyp)], hyp)
      np.testing.assert_array_equal(ids[len(hyp):], END)
      np.testing.assert_allclose(got.beam_search_decoder_output.scores[i, -1, 0], score,
                                 rtol=1e-5)
      # Beams come out best first.
      final_scores = got.beam_search_decoder_output.scores[i, -1]
      assert np.all(np.diff(final_scores) <= 1e-6)


def test_length_and_coverage_penalties_are_gnmts_formula(sess):
  log_probs = np.log(np.array([[[0.5, 0.2], [0.1, 0.3]]], np.float32))  # [batch 1, beam 2, vocab 2]
  lengths = np.array([[[3, 4], [2, 2]]], np.int64)
  finished = np.array([[True, False]])
  coverage = np.array([[[0.5, 1.5, 0.0], [0.2, 0.3, 0.1]]], np.float32)  # [1, 2, memory 3]
  got = sess.run(_get_scores(log_probs, lengths, 0.6, 0.4, finished, coverage))
  penalty = ((5.0 + lengths) / 6.0) ** 0.6
  cov = np.log(np.minimum(np.where(coverage == 0, 1.0, coverage), 1.0)).sum(-1) * finished
  np.testing.assert_allclose(got, log_probs / penalty + 0.4 * cov[..., None], rtol=1e-5)
  unpenalised = sess.run(_get_scores(log_probs, lengths, 0.0, 0.0, finished, None))
  np.testing.assert_allclose(unpenalised, log_probs, rtol=1e-6)


def test_beam_search_with_attention_tiled_memory_coverage_and_alignment_history(sess):
  beam_width, mem_t = 3, 4
  memory = tf.constant(np.random.RandomState(0).randn(BATCH, mem_t, UNITS).astype(np.float32))
  embedding = V1.get_variable("embedding", [VOCAB, EMB])
  lengths = tf.constant([4, 2])

  def decoder_cell(mem, mem_lengths):
    mechanism = seq2seq.BahdanauAttention(UNITS, mem, mem_lengths)
    return seq2seq.AttentionWrapper(rnn.LSTMCell(UNITS), mechanism, attention_layer_size=UNITS,
                                    alignment_history=True)

  with V1.variable_scope("model"):
    train_cell = decoder_cell(memory, lengths)
    helper = seq2seq.TrainingHelper(tf.zeros([BATCH, 2, EMB]), [2, 2])
    dense = V1.layers.Dense(VOCAB, name="output_projection")
    train = seq2seq.dynamic_decode(seq2seq.BasicDecoder(
        train_cell, helper, train_cell.zero_state(BATCH, tf.float32), output_layer=dense))
  train_names = sorted(v.op.name for v in V1.global_variables())
  with V1.variable_scope("model", reuse=True):
    cell = decoder_cell(seq2seq.tile_batch(memory, beam_width),
                        seq2seq.tile_batch(lengths, beam_width))
    decoder = seq2seq.BeamSearchDecoder(
        cell, embedding, tf.constant([1, 2]), END,
        cell.zero_state(BATCH * beam_width, tf.float32), beam_width, output_layer=dense,
        length_penalty_weight=0.5, coverage_penalty_weight=0.3)
    outputs, state, _ = seq2seq.dynamic_decode(decoder, maximum_iterations=5)
  # The beam decoder reuses every variable the training decoder made: one checkpoint serves both.
  assert sorted(v.op.name for v in V1.global_variables()) == train_names
  assert "model/decoder/attention_wrapper/bahdanau_attention/query_layer/kernel" in train_names
  history = state.cell_state.alignment_history
  assert isinstance(history, tf.Tensor)  # reordered along the beams by finalize
  _randomize(sess, 4)
  got, got_history, log_probs = sess.run([outputs, history, state.log_probs])
  steps = got.predicted_ids.shape[1]
  assert got.predicted_ids.shape == (BATCH, steps, beam_width)
  assert got_history.shape == (steps, BATCH * beam_width, mem_t)
  np.testing.assert_allclose(got_history.sum(-1), 1.0, rtol=1e-5)
  np.testing.assert_array_equal(got_history[:, beam_width:, 2:], 0.0)  # entry 1's memory is 2 long
  assert np.all(np.isfinite(log_probs))
  del train


def test_bad_arguments_fail_early(graph):
  embedding, cell, dense = _model()
  state = cell.zero_state(BATCH, tf.float32)
  with pytest.raises(ValueError, match="start_tokens must be a vector"):
    seq2seq.BeamSearchDecoder(cell, embedding, 1, END, state, 1)
  with pytest.raises(ValueError, match="end_token must be a scalar"):
    seq2seq.BeamSearchDecoder(cell, embedding, [1, 1], [END], state, 1)
  with pytest.raises(ValueError, match="beam_width must be a positive int"):
    seq2seq.BeamSearchDecoder(cell, embedding, [1, 1], END, state, 0)
  with pytest.raises(ValueError, match="forgot to create a zero_state with batch_size"):
    seq2seq.BeamSearchDecoder(cell, embedding, [1, 1], END, state, 3)
  with pytest.raises(ValueError, match="coverage_penalty_weight must be 0.0 if no cell is"):
    decoder = seq2seq.BeamSearchDecoder(cell, embedding, [1, 1], END, state, 1,
                                        output_layer=dense, coverage_penalty_weight=0.5)
    seq2seq.dynamic_decode(decoder)
