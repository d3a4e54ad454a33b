"""tf.contrib.seq2seq attention: mechanisms, monotonic attention and AttentionWrapper against numpy."""

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import rnn
from tf1clip.contrib import seq2seq

V1 = tf.compat.v1
BATCH, MEM_T, MEM_D, UNITS = 2, 5, 3, 4
LENGTHS = [5, 3]


def _memory(seed=0):
  return np.random.RandomState(seed).randn(BATCH, MEM_T, MEM_D).astype(np.float32)


def _randomize(sess, seed=0):
  sess.run(V1.global_variables_initializer())
  rng = np.random.RandomState(seed)
  values = {}
  for var in V1.global_variables():
    value = rng.uniform(-1.0, 1.0, var.shape.as_list()).astype(np.float32)
    var.load(value, sess)
    values[var.op.name] = value
  return values


def _softmax(x):
  e = np.exp(x - x.max(-1, keepdims=True))
  return e / e.sum(-1, keepdims=True)


def _masked_softmax(score, lengths):
  mask = np.arange(score.shape[1])[None, :] < np.array(lengths)[:, None]
  return _softmax(np.where(mask, score, -np.inf))


# --- monotonic attention ---------------------------------------------------------------------------

def _recursion(p, prev):
  """Raffel et al.'s eq. 9-10 in numpy: q[i] = (1 - p[i-1]) q[i-1] + prev[i]; a[i] = p[i] q[i]."""
  q = np.zeros_like(p)
  for i in range(p.shape[1]):
    q[:, i] = (q[:, i - 1] * (1 - p[:, i - 1]) if i else 0.0) + prev[:, i]
  return p * q


def test_parallel_and_recursive_monotonic_attention_equal_the_recursion(sess):
  rng = np.random.RandomState(1)
  p = rng.uniform(0.05, 0.95, (3, 7)).astype(np.float32)
  prev = _softmax(rng.randn(3, 7)).astype(np.float32)
  parallel, recursive = sess.run([seq2seq.monotonic_attention(p, prev, "parallel"),
                                  seq2seq.monotonic_attention(p, prev, "recursive")])
  want = _recursion(p.astype(np.float64), prev.astype(np.float64))
  np.testing.assert_allclose(parallel, want, rtol=1e-4, atol=1e-6)
  np.testing.assert_allclose(recursive, want, rtol=1e-5, atol=1e-7)
  assert np.all(recursive.sum(-1) <= 1 + 1e-6)


def test_hard_monotonic_attention_picks_the_first_chosen_index_at_or_after_the_last(sess):
  p = np.array([[0, 1, 0, 1, 1], [1, 0, 0, 1, 0], [1, 1, 0, 0, 0], [0, 0, 0, 0, 1]], np.float32)
  prev = np.eye(5, dtype=np.float32)[[0, 2, 3, 4]]
  got = sess.run(seq2seq.monotonic_attention(p, prev, "hard"))
  np.testing.assert_array_equal(got, np.eye(5, dtype=np.float32)[[1, 3, 0, 4]] * [[1], [1], [0],
                                                                                  [1]])
  # On 0/1 inputs the soft modes compute the same thing.
  np.testing.assert_allclose(sess.run(seq2seq.monotonic_attention(p, prev, "recursive")), got)


def test_monotonic_attention_rejects_an_unknown_mode(graph):
  with pytest.raises(ValueError, match="mode must be 'recursive', 'parallel', or 'hard'; got 'soft'"):
    seq2seq.monotonic_attention(np.ones([1, 2]), np.ones([1, 2]), "soft")
  with pytest.raises(ValueError, match="mode must be"):
    seq2seq.BahdanauMonotonicAttention(UNITS, _memory(), mode="soft")


def test_safe_cumprod_equals_cumprod_and_does_not_underflow_to_nan(sess):
  x = np.random.RandomState(2).uniform(0.1, 1.0, (2, 6)).astype(np.float32)
  got, got_exclusive = sess.run([seq2seq.safe_cumprod(x, axis=1),
                                 seq2seq.safe_cumprod(x, axis=1, exclusive=True)])
  np.testing.assert_allclose(got, np.cumprod(x, 1), rtol=1e-5)
  np.testing.assert_allclose(got_exclusive[:, 1:], np.cumprod(x, 1)[:, :-1], rtol=1e-5)
  np.testing.assert_array_equal(got_exclusive[:, 0], 1.0)
  tiny = sess.run(seq2seq.safe_cumprod(np.zeros([1, 3], np.float32), axis=1))
  assert np.all(np.isfinite(tiny)) and np.all(tiny < 1e-30)


def test_hardmax_is_the_one_hot_argmax(sess):
  logits = np.array([[0.1, 2.0, -1.0], [3.0, 0.0, 2.9]], np.float32)
  np.testing.assert_array_equal(sess.run(seq2seq.hardmax(logits)), [[0, 1, 0], [1, 0, 0]])


# --- mechanisms ------------------------------------------------------------------------------------

MECHANISMS = {
    "bahdanau": lambda mem, lengths: seq2seq.BahdanauAttention(UNITS, mem, lengths),
    "bahdanau_normalized": lambda mem, lengths: seq2seq.BahdanauAttention(
        UNITS, mem, lengths, normalize=True),
    "luong": lambda mem, lengths: seq2seq.LuongAttention(UNITS, mem, lengths),
    "luong_scaled": lambda mem, lengths: seq2seq.LuongAttention(UNITS, mem, lengths, scale=True),
}


def _score(name, w, query, keys, prefix=""):
  if name.startswith("bahdanau"):
    scope = prefix + "bahdanau_attention/"
    processed = query @ w[scope + "query_layer/kernel"]
    v = w[scope + "attention_v"]
    if name.endswith("normalized"):
      v = w[scope + "attention_g"] * v / np.linalg.norm(v)
      return (v * np.tanh(keys + processed[:, None] + w[scope + "attention_b"])).sum(-1)
    return (v * np.tanh(keys + processed[:, None])).sum(-1)
  score = np.einsum("bd,btd->bt", query, keys)
  return score * w[prefix + "luong_attention/attention_g"] if name.endswith("scaled") else score


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_alignments_are_the_masked_softmax_of_the_written_out_score(sess, name):
  memory = _memory()
  mechanism = MECHANISMS[name](tf.constant(memory), LENGTHS)
  query = np.random.RandomState(3).randn(BATCH, UNITS).astype(np.float32)
  alignments, next_state = mechanism(tf.constant(query), state=mechanism.initial_state(
      BATCH, tf.float32))
  w = _randomize(sess)
  got, state = sess.run([alignments, next_state])
  keys = memory @ w["memory_layer/kernel"]
  want = _masked_softmax(_score(name, w, query, keys), LENGTHS)
  np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got.sum(-1), 1.0, rtol=1e-6)
  np.testing.assert_array_equal(got[1, LENGTHS[1]:], 0.0)
  np.testing.assert_array_equal(state, got)


def test_memory_past_its_length_is_zeroed_and_cannot_change_the_attention(sess):
  memory = _memory()
  garbage = memory.copy()
  garbage[1, LENGTHS[1]:] = 100.0
  placeholder = V1.placeholder(tf.float32, [BATCH, MEM_T, MEM_D])
  mechanism = seq2seq.BahdanauAttention(UNITS, placeholder, memory_sequence_length=LENGTHS)
  cell = seq2seq.AttentionWrapper(rnn.GRUCell(UNITS), mechanism, attention_layer_size=3)
  out, state = cell(tf.ones([BATCH, 2]), cell.zero_state(BATCH, tf.float32))
  _randomize(sess)
  clean = sess.run([out, mechanism.values], {placeholder: memory})
  dirty = sess.run([out, mechanism.values], {placeholder: garbage})
  np.testing.assert_allclose(clean[0], dirty[0], rtol=1e-6)
  np.testing.assert_array_equal(dirty[1][1, LENGTHS[1]:], 0.0)
  with pytest.raises(tf.errors.InvalidArgumentError, match="must greater than zero"):
    zero_length = seq2seq.LuongAttention(MEM_D, tf.constant(memory), [5, 0])
    sess.run(zero_length(tf.ones([BATCH, MEM_D]), None)[0])


@pytest.mark.parametrize("mode", ["parallel", "recursive", "hard"])
@pytest.mark.parametrize("kind", ["bahdanau", "luong"])
def test_monotonic_mechanisms_equal_the_recursion_on_their_scores(sess, kind, mode):
  memory = _memory(4)
  cls = (seq2seq.BahdanauMonotonicAttention if kind == "bahdanau"
         else seq2seq.LuongMonotonicAttention)
  mechanism = cls(UNITS, tf.constant(memory), LENGTHS, mode=mode, score_bias_init=-0.5)
  initial = mechanism.initial_alignments(BATCH, tf.float32)
  query = np.random.RandomState(5).randn(BATCH, UNITS).astype(np.float32)
  # Step 2 reuses step 1's variables, as inside an AttentionWrapper (re-entering the scope object).
  with V1.variable_scope("step") as scope:
    first, _ = mechanism(tf.constant(query), state=initial)
  with V1.variable_scope(scope, reuse=True):
    second, _ = mechanism(tf.constant(query * 0.5), state=first)
  w = {k.replace("step/", ""): v for k, v in _randomize(sess, seed=6).items()}
  init, got_first, got_second = sess.run([initial, first, second])
  np.testing.assert_array_equal(init, np.eye(MEM_T)[[0, 0]])
  keys = memory @ w["memory_layer/kernel"]
  prefix = kind + "_monotonic_attention"
  prev = init
  for got, q in ((got_first, query), (got_second, query * 0.5)):
    name = "bahdanau" if kind == "bahdanau" else "luong"
    scope_w = {k.replace(prefix, name + "_attention"): v for k, v in w.items()}
    score = _score(name, scope_w, q, keys) + w[prefix + "/attention_score_bias"]
    mask = np.arange(MEM_T)[None] < np.array(LENGTHS)[:, None]
    score = np.where(mask, score, -np.inf)
    p = (score > 0).astype(np.float64) if mode == "hard" else 1 / (1 + np.exp(-score))
    want = _recursion(p, prev.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)
    assert np.all(got.sum(-1) <= 1 + 1e-5)
    np.testing.assert_array_equal(got[1, LENGTHS[1]:], 0.0)
    prev = got


# --- AttentionWrapper ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["bahdanau", "luong_scaled"])
def test_attention_wrapper_two_steps_equal_the_formula(sess, name):
  memory = _memory(7)
  mechanism = MECHANISMS[name](tf.constant(memory), LENGTHS)
  cell = seq2seq.AttentionWrapper(rnn.BasicRNNCell(UNITS), mechanism, attention_layer_size=3,
                                  alignment_history=True)
  inputs = np.random.RandomState(8).randn(2, BATCH, 2).astype(np.float32)
  state = cell.zero_state(BATCH, tf.float32)
  outputs = []
  for t in range(2):
    out, state = cell(tf.constant(inputs[t]), state)
    outputs.append(out)
  history = state.alignment_history.stack()
  w = _randomize(sess, seed=9)
  got, got_state, got_history = sess.run([outputs, state._replace(alignment_history=()), history])
  keys = memory @ w["memory_layer/kernel"]
  prefix = "attention_wrapper/"
  attention = np.zeros((BATCH, 3))
  h = np.zeros((BATCH, UNITS))
  for t in range(2):
    x = np.concatenate([inputs[t], attention], 1)
    h = np.tanh(np.concatenate([x, h], 1) @ w[prefix + "basic_rnn_cell/kernel"]
                + w[prefix + "basic_rnn_cell/bias"])
    alignments = _masked_softmax(_score(name, w, h, keys, prefix), LENGTHS)
    context = np.einsum("bt,btd->bd", alignments, memory * (
        np.arange(MEM_T)[None, :, None] < np.array(LENGTHS)[:, None, None]))
    attention = np.concatenate([h, context], 1) @ w[prefix + "attention_layer/kernel"]
    np.testing.assert_allclose(got[t], attention, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_history[t], alignments, rtol=1e-4, atol=1e-6)
  assert got_state.time == 2
  np.testing.assert_allclose(got_state.cell_state, h, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(got_state.attention, attention, rtol=1e-4, atol=1e-5)


def test_variables_keep_tf115_names_under_dynamic_decode(graph):
  memory = tf.constant(_memory())
  mechanism = seq2seq.BahdanauAttention(UNITS, memory, LENGTHS, normalize=True)
  cell = seq2seq.AttentionWrapper(rnn.LSTMCell(UNITS), mechanism, attention_layer_size=6)
  helper = seq2seq.TrainingHelper(tf.zeros([BATCH, 3, 2]), [3, 2])
  decoder = seq2seq.BasicDecoder(cell, helper, cell.zero_state(BATCH, tf.float32),
                                 output_layer=V1.layers.Dense(9))
  outputs, state, _ = seq2seq.dynamic_decode(decoder)
  assert sorted(v.op.name for v in V1.global_variables()) == [
      "decoder/attention_wrapper/attention_layer/kernel",
      "decoder/attention_wrapper/bahdanau_attention/attention_b",
      "decoder/attention_wrapper/bahdanau_attention/attention_g",
      "decoder/attention_wrapper/bahdanau_attention/attention_v",
      "decoder/attention_wrapper/bahdanau_attention/query_layer/kernel",
      "decoder/attention_wrapper/lstm_cell/bias",
      "decoder/attention_wrapper/lstm_cell/kernel",
      "decoder/dense/bias", "decoder/dense/kernel",
      "memory_layer/kernel"]
  assert outputs.rnn_output.shape.as_list() == [BATCH, None, 9]
  assert isinstance(state, seq2seq.AttentionWrapperState)


def test_multiple_mechanisms_concatenate_and_output_attention_false_returns_the_cell_output(sess):
  memory = tf.constant(_memory())
  mechanisms = [seq2seq.LuongAttention(UNITS, memory, LENGTHS),
                seq2seq.BahdanauAttention(UNITS, memory, LENGTHS, name="second")]
  cell = seq2seq.AttentionWrapper(rnn.GRUCell(UNITS), mechanisms, attention_layer_size=[2, 3],
                                  output_attention=False)
  assert cell.output_size == UNITS
  state0 = cell.zero_state(BATCH, tf.float32)
  assert len(state0.alignments) == 2 and state0.alignment_history == ((), ())
  out, state = cell(tf.ones([BATCH, 1]), state0)
  assert state.attention.shape.as_list() == [BATCH, 5]
  _randomize(sess)
  got_out, got_state = sess.run([out, state])
  np.testing.assert_allclose(got_out, got_state.cell_state, rtol=1e-6)
  for alignments in got_state.alignments:
    np.testing.assert_allclose(alignments.sum(-1), 1.0, rtol=1e-6)
  no_layer = seq2seq.AttentionWrapper(rnn.GRUCell(UNITS), mechanisms[0], name="plain")
  assert no_layer.output_size == MEM_D  # the context itself


def test_clone_replaces_fields_keeping_static_shapes(graph):
  memory = tf.constant(_memory())
  cell = seq2seq.AttentionWrapper(rnn.BasicLSTMCell(UNITS),
                                  seq2seq.LuongAttention(UNITS, memory))
  state = cell.zero_state(BATCH, tf.float32)
  encoder_state = rnn.LSTMStateTuple(V1.placeholder(tf.float32, [None, UNITS]),
                                     V1.placeholder(tf.float32, [None, UNITS]))
  cloned = state.clone(cell_state=encoder_state)
  assert isinstance(cloned, seq2seq.AttentionWrapperState)
  assert cloned.cell_state.c.shape.as_list() == [BATCH, UNITS]
  assert cloned.attention is state.attention
  with pytest.raises(ValueError, match="incompatible"):
    state.clone(attention=tf.zeros([BATCH, UNITS + 1]))


def test_wrapper_rejects_bad_arguments(graph):
  memory = tf.constant(_memory())
  mechanism = seq2seq.LuongAttention(UNITS, memory)
  with pytest.raises(TypeError, match="must be an AttentionMechanism"):
    seq2seq.AttentionWrapper(rnn.GRUCell(UNITS), memory)
  with pytest.raises(ValueError, match="Only one of attention_layer_size and attention_layer"):
    seq2seq.AttentionWrapper(rnn.GRUCell(UNITS), mechanism, attention_layer_size=2,
                             attention_layer=V1.layers.Dense(2))
  with pytest.raises(ValueError, match="exactly one integer per attention_mechanism"):
    seq2seq.AttentionWrapper(rnn.GRUCell(UNITS), mechanism, attention_layer_size=[2, 3])
  with pytest.raises(ValueError, match="Incompatible or unknown inner dimensions"):
    cell = seq2seq.AttentionWrapper(rnn.GRUCell(UNITS + 1), mechanism)
    cell(tf.ones([BATCH, 1]), cell.zero_state(BATCH, tf.float32))
  with pytest.raises(TypeError, match="Expected state to be instance of AttentionWrapperState"):
    cell = seq2seq.AttentionWrapper(rnn.GRUCell(UNITS), mechanism, name="again")
    cell(tf.ones([BATCH, 1]), tf.zeros([BATCH, UNITS]))
