"""tf.contrib.rnn and tf.contrib.legacy_seq2seq: TF1 variable names, shapes, and numbers against numpy."""

import os
import subprocess
import sys
import textwrap

import hypothesis
import hypothesis.strategies as st
import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import legacy_seq2seq
from tf1clip.contrib import rnn

V1 = tf.compat.v1
BATCH, DEPTH, STEPS = 3, 4, 5


def _inputs(steps=STEPS, depth=DEPTH):
  rng = np.random.RandomState(0)
  values = [rng.randn(BATCH, depth).astype(np.float32) for _ in range(steps)]
  return [tf.constant(v) for v in values], values


def _names(variables=None):
  return [v.op.name for v in (V1.global_variables() if variables is None else variables)]


def _sigmoid(x):
  return 1.0 / (1.0 + np.exp(-x))


def _randomize_variables(sess, seed=3):
  """Random values in every variable, so a numeric check cannot pass by zero biases/unit gains."""
  sess.run(V1.global_variables_initializer())
  rng = np.random.RandomState(seed)
  for var in V1.global_variables():
    var.load(rng.uniform(-0.8, 0.8, var.shape.as_list()).astype(np.float32), sess)
  return {var.op.name: sess.run(var) for var in V1.global_variables()}


# --- core cells through static_rnn -----------------------------------------------------------------

CELLS = {
    "BasicRNNCell": (lambda: rnn.BasicRNNCell(6), ["rnn/basic_rnn_cell/kernel",
                                                   "rnn/basic_rnn_cell/bias"]),
    "BasicLSTMCell": (lambda: rnn.BasicLSTMCell(6), ["rnn/basic_lstm_cell/kernel",
                                                     "rnn/basic_lstm_cell/bias"]),
    "LSTMCell": (lambda: rnn.LSTMCell(6, num_proj=2, use_peepholes=True), [
        "rnn/lstm_cell/kernel", "rnn/lstm_cell/bias", "rnn/lstm_cell/w_f_diag",
        "rnn/lstm_cell/w_i_diag", "rnn/lstm_cell/w_o_diag", "rnn/lstm_cell/projection/kernel"]),
    "GRUCell": (lambda: rnn.GRUCell(6), [
        "rnn/gru_cell/gates/kernel", "rnn/gru_cell/gates/bias", "rnn/gru_cell/candidate/kernel",
        "rnn/gru_cell/candidate/bias"]),
    "MultiRNNCell+wrappers": (lambda: rnn.MultiRNNCell([
        rnn.DropoutWrapper(rnn.BasicLSTMCell(6), output_keep_prob=0.5),
        rnn.ResidualWrapper(rnn.GRUCell(6))]), [
            "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel",
            "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias",
            "rnn/multi_rnn_cell/cell_1/gru_cell/gates/kernel",
            "rnn/multi_rnn_cell/cell_1/gru_cell/gates/bias",
            "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/kernel",
            "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/bias"]),
}


@pytest.mark.parametrize("name", sorted(CELLS))
def test_static_rnn_runs_each_tf1_cell_with_tf1_variable_names(sess, name):
  make_cell, expected_names = CELLS[name]
  cell = make_cell()
  xs, _ = _inputs()
  outputs, state = rnn.static_rnn(cell, xs, dtype=tf.float32)
  assert sorted(_names()) == sorted(expected_names)
  assert len(outputs) == STEPS
  assert all(o.shape.as_list() == [BATCH, cell.output_size] for o in outputs)
  sess.run(V1.global_variables_initializer())
  values = sess.run(outputs)
  assert all(np.all(np.isfinite(v)) for v in values)
  tf.nest.assert_same_structure(state, cell.zero_state(BATCH, tf.float32))


def test_static_bidirectional_rnn_concatenates_both_directions(sess):
  xs, _ = _inputs()
  outputs, fw_state, bw_state = rnn.static_bidirectional_rnn(
      rnn.LSTMCell(3), rnn.GRUCell(2), xs, dtype=tf.float32)
  assert [o.shape.as_list() for o in outputs] == [[BATCH, 5]] * STEPS
  assert isinstance(fw_state, rnn.LSTMStateTuple)
  assert sorted(_names()) == sorted([
      "bidirectional_rnn/fw/lstm_cell/kernel", "bidirectional_rnn/fw/lstm_cell/bias",
      "bidirectional_rnn/bw/gru_cell/gates/kernel", "bidirectional_rnn/bw/gru_cell/gates/bias",
      "bidirectional_rnn/bw/gru_cell/candidate/kernel",
      "bidirectional_rnn/bw/gru_cell/candidate/bias"])
  sess.run(V1.global_variables_initializer())
  assert sess.run(bw_state).shape == (BATCH, 2)


class TanhAccumulator(rnn.RNNCell):
  """A user-written TF1 cell, as 2018 scripts subclassed tf.contrib.rnn.RNNCell: h' = tanh(x W + h)."""

  def __init__(self, units, **kwargs):
    super().__init__(**kwargs)
    self._units = units

  @property
  def state_size(self):
    return self._units

  @property
  def output_size(self):
    return self._units

  def call(self, inputs, state):
    w = V1.get_variable("w", [inputs.shape[-1], self._units])
    new_state = tf.tanh(tf.matmul(inputs, w) + state)
    return new_state, new_state


def test_a_user_subclass_of_rnn_cell_runs_in_static_rnn_with_tf1_scopes(sess):
  xs, x_values = _inputs(steps=3)
  cell = TanhAccumulator(5)
  outputs, state = rnn.static_rnn(cell, xs, dtype=tf.float32)
  assert _names() == ["rnn/tanh_accumulator/w"]
  assert cell.zero_state(BATCH, tf.float32).shape.as_list() == [BATCH, 5]
  v = _randomize_variables(sess)
  got_outputs, got_state = sess.run([outputs, state])
  h = np.zeros([BATCH, 5], np.float32)
  for x, got in zip(x_values, got_outputs):
    h = np.tanh(x @ v["rnn/tanh_accumulator/w"] + h)
    np.testing.assert_allclose(got, h, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got_state, h, rtol=1e-5, atol=1e-6)


# --- NASCell ---------------------------------------------------------------------------------------

def _nas_step(x, c, m, v, prefix, use_bias, num_proj):
  mm = m @ v[prefix + "recurrent_kernel"]
  if use_bias:
    mm = mm + v[prefix + "bias"]
  xm = x @ v[prefix + "kernel"]
  ms, xs = np.split(mm, 8, axis=1), np.split(xm, 8, axis=1)
  relu = lambda z: np.maximum(z, 0.0)
  l1 = [_sigmoid(xs[0] + ms[0]), relu(xs[1] + ms[1]), _sigmoid(xs[2] + ms[2]),
        relu(xs[3] * ms[3]), np.tanh(xs[4] + ms[4]), _sigmoid(xs[5] + ms[5]),
        np.tanh(xs[6] + ms[6]), _sigmoid(xs[7] + ms[7])]
  l2_0 = np.tanh(np.tanh(l1[0] * l1[1]) + c)
  new_c = l2_0 * np.tanh(l1[2] + l1[3])
  new_m = np.tanh(new_c * np.tanh(np.tanh(l1[4] * l1[5]) + _sigmoid(l1[6] + l1[7])))
  if num_proj is not None:
    new_m = new_m @ v[prefix + "projection_weights"]
  return new_c, new_m


@pytest.mark.parametrize("num_proj,use_bias", [(None, False), (3, True)])
def test_nas_cell_names_shapes_and_numbers_match_tf115(sess, num_proj, use_bias):
  units = 5
  cell = rnn.NASCell(units, num_proj=num_proj, use_bias=use_bias)
  xs, x_values = _inputs(steps=2)
  outputs, state = rnn.static_rnn(cell, xs, dtype=tf.float32)
  m_size = num_proj or units
  expected = {"rnn/nas_cell/recurrent_kernel": [m_size, 8 * units],
              "rnn/nas_cell/kernel": [DEPTH, 8 * units]}
  if use_bias:
    expected["rnn/nas_cell/bias"] = [8 * units]
  if num_proj:
    expected["rnn/nas_cell/projection_weights"] = [units, num_proj]
  assert {v.op.name: v.shape.as_list() for v in V1.global_variables()} == expected
  assert outputs[0].shape.as_list() == [BATCH, m_size]
  assert cell.state_size == rnn.LSTMStateTuple(units, m_size)
  v = _randomize_variables(sess)
  got_outputs, got_state = sess.run([outputs, state])
  c, m = np.zeros([BATCH, units], np.float32), np.zeros([BATCH, m_size], np.float32)
  for x, got in zip(x_values, got_outputs):
    c, m = _nas_step(x, c, m, v, "rnn/nas_cell/", use_bias, num_proj)
    np.testing.assert_allclose(got, m, rtol=1e-4, atol=1e-5)
  np.testing.assert_allclose(got_state.c, c, rtol=1e-4, atol=1e-5)


# --- LayerNormBasicLSTMCell ------------------------------------------------------------------------

GATES = ("input", "transform", "forget", "output", "state")


def _layer_norm(z, gamma, beta):
  mean = z.mean(axis=1, keepdims=True)
  return (z - mean) / np.sqrt(z.var(axis=1, keepdims=True) + 1e-12) * gamma + beta


def _ln_lstm_step(x, c, h, v, prefix, forget_bias):
  i, j, f, o = np.split(np.concatenate([x, h], 1) @ v[prefix + "kernel"], 4, axis=1)
  norm = lambda z, gate: _layer_norm(z, v[prefix + gate + "/gamma"], v[prefix + gate + "/beta"])
  i, j, f, o = norm(i, "input"), norm(j, "transform"), norm(f, "forget"), norm(o, "output")
  new_c = norm(c * _sigmoid(f + forget_bias) + _sigmoid(i) * np.tanh(j), "state")
  return new_c, np.tanh(new_c) * _sigmoid(o)


def test_layer_norm_basic_lstm_cell_names_and_numbers_match_tf115(sess):
  units = 6
  cell = rnn.LayerNormBasicLSTMCell(units, forget_bias=0.5, norm_gain=1.5, norm_shift=0.1)
  xs, x_values = _inputs(steps=3)
  outputs, state = rnn.static_rnn(cell, xs, dtype=tf.float32)
  prefix = "rnn/layer_norm_basic_lstm_cell/"
  expected = {prefix + "kernel": [DEPTH + units, 4 * units]}
  expected.update({prefix + g + "/" + p: [units] for g in GATES for p in ("gamma", "beta")})
  assert {v.op.name: v.shape.as_list() for v in V1.global_variables()} == expected
  sess.run(V1.global_variables_initializer())
  initial = {v.op.name: sess.run(v) for v in V1.global_variables()}
  for gate in GATES:
    np.testing.assert_allclose(initial[prefix + gate + "/gamma"], np.full([units], 1.5))
    np.testing.assert_allclose(initial[prefix + gate + "/beta"], np.full([units], 0.1))
  v = _randomize_variables(sess)
  got_outputs, got_state = sess.run([outputs, state])
  c = h = np.zeros([BATCH, units], np.float32)
  for x, got in zip(x_values, got_outputs):
    c, h = _ln_lstm_step(x, c, h, v, prefix, forget_bias=0.5)
    np.testing.assert_allclose(got, h, rtol=1e-4, atol=1e-4)
  np.testing.assert_allclose(got_state.c, c, rtol=1e-4, atol=1e-4)


def test_layer_norm_basic_lstm_cell_without_layer_norm_is_a_biased_lstm(graph):
  xs, _ = _inputs(steps=2)
  rnn.static_rnn(rnn.LayerNormBasicLSTMCell(4, layer_norm=False), xs, dtype=tf.float32)
  assert _names() == ["rnn/layer_norm_basic_lstm_cell/kernel",
                      "rnn/layer_norm_basic_lstm_cell/bias"]


def test_layer_norm_basic_lstm_cell_drops_only_with_keep_prob_below_one(sess):
  xs, _ = _inputs(steps=1)
  keep = V1.placeholder_with_default(1.0, [])
  outputs, _ = rnn.static_rnn(rnn.LayerNormBasicLSTMCell(64, dropout_keep_prob=keep,
                                                         dropout_prob_seed=1), xs,
                              dtype=tf.float32)
  sess.run(V1.global_variables_initializer())
  full = sess.run(outputs[0])
  dropped = sess.run(outputs[0], {keep: 0.5})
  assert not np.allclose(full, dropped)
  assert any("dropout" in op.name for op in V1.get_default_graph().get_operations())
  with tf.Graph().as_default():
    rnn.static_rnn(rnn.LayerNormBasicLSTMCell(4, dropout_keep_prob=1.0), _inputs(1)[0],
                   dtype=tf.float32)
    names = [op.name for op in V1.get_default_graph().get_operations()]
    assert not any("dropout" in n for n in names)


# --- legacy_seq2seq --------------------------------------------------------------------------------

def _xent(logits, labels):
  shifted = logits - logits.max(axis=1, keepdims=True)
  log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
  return -log_probs[np.arange(len(labels)), labels]


@hypothesis.given(seed=st.integers(0, 2 ** 16), steps=st.integers(1, 4),
                  across_time=st.booleans(), across_batch=st.booleans(),
                  zero_weights=st.booleans())
def test_sequence_losses_match_numpy(seed, steps, across_time, across_batch, zero_weights):
  rng = np.random.RandomState(seed)
  logits = [rng.randn(BATCH, 7).astype(np.float32) for _ in range(steps)]
  targets = [rng.randint(0, 7, BATCH).astype(np.int32) for _ in range(steps)]
  weights = [rng.uniform(0, 2, BATCH).astype(np.float32) * (not zero_weights)
             for _ in range(steps)]
  per_example = sum(w * _xent(l, t) for l, t, w in zip(logits, targets, weights))
  if across_time:
    per_example = per_example / (sum(weights) + 1e-12)
  total = per_example.sum() / (BATCH if across_batch else 1)
  with tf.Graph().as_default():
    consts = lambda xs: [tf.constant(x) for x in xs]
    by_example = legacy_seq2seq.sequence_loss_by_example(
        consts(logits), consts(targets), consts(weights), average_across_timesteps=across_time)
    loss = legacy_seq2seq.sequence_loss(consts(logits), consts(targets), consts(weights),
                                        average_across_timesteps=across_time,
                                        average_across_batch=across_batch)
    with V1.Session() as s:
      got_by_example, got_loss = s.run([by_example, loss])
  np.testing.assert_allclose(got_by_example, per_example, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(got_loss, total, rtol=1e-5, atol=1e-6)


def test_sequence_loss_calls_a_custom_softmax_loss_with_keywords(sess):
  calls = []

  def loss_fn(labels, logits):
    calls.append((labels, logits))
    return tf.reduce_sum(logits, axis=1) * tf.cast(labels, tf.float32)

  logits = [tf.ones([2, 3]), 2 * tf.ones([2, 3])]
  targets = [tf.constant([1, 0]), tf.constant([1, 1])]
  weights = [tf.ones([2]), tf.ones([2])]
  loss = legacy_seq2seq.sequence_loss(logits, targets, weights, softmax_loss_function=loss_fn,
                                      average_across_timesteps=False)
  assert len(calls) == 2
  np.testing.assert_allclose(sess.run(loss), ((3 + 6) + (0 + 6)) / 2)
  with pytest.raises(ValueError, match="must be the same; got 2, 1, 2"):
    legacy_seq2seq.sequence_loss(logits, targets, weights[:1])


def test_rnn_decoder_feeds_outputs_back_through_loop_function(sess):
  cell = rnn.GRUCell(DEPTH)
  xs, x_values = _inputs(steps=3)
  init = tf.zeros([BATCH, DEPTH])
  fed = []

  def loop_function(prev, i):
    fed.append(i)
    return prev * 2.0

  outputs, state = legacy_seq2seq.rnn_decoder(xs, init, cell, loop_function=loop_function)
  assert fed == [1, 2]
  assert len(_names()) == 4 and all(n.startswith("rnn_decoder/gru_cell/") for n in _names())
  sess.run(V1.global_variables_initializer())
  got = sess.run(outputs)
  # Step 2's input was 2 * step 1's output: running the cell on it reproduces output 2.
  step = cell(tf.constant(2.0 * got[0]), tf.constant(got[0]))[0]
  np.testing.assert_allclose(sess.run(step), got[1], rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(sess.run(state), got[2])


def test_basic_rnn_seq2seq_has_separate_encoder_and_decoder_variables(sess):
  enc, _ = _inputs(steps=4)
  dec, _ = _inputs(steps=3, depth=2)
  outputs, state = legacy_seq2seq.basic_rnn_seq2seq(enc, dec, rnn.BasicLSTMCell(6))
  assert _names() == [
      "basic_rnn_seq2seq/rnn/basic_lstm_cell/kernel", "basic_rnn_seq2seq/rnn/basic_lstm_cell/bias",
      "basic_rnn_seq2seq/rnn_decoder/basic_lstm_cell/kernel",
      "basic_rnn_seq2seq/rnn_decoder/basic_lstm_cell/bias"]
  assert [o.shape.as_list() for o in outputs] == [[BATCH, 6]] * 3
  sess.run(V1.global_variables_initializer())
  assert sess.run(state).h.shape == (BATCH, 6)


def test_cells_work_in_a_process_without_legacy_keras():
  # `import tf1clip.compat.v1 as tf` under plain python may find Keras 3 already chosen;
  # contrib.rnn takes its cells from tf_keras directly, so they must still build and run.
  script = textwrap.dedent("""
      import os
      assert "TF_USE_LEGACY_KERAS" not in os.environ
      import tensorflow as tf
      from tf1clip.contrib import layers, rnn
      with tf.Graph().as_default():
        cell = rnn.MultiRNNCell([rnn.LayerNormBasicLSTMCell(4), rnn.NASCell(3)])
        outputs, _ = rnn.static_rnn(cell, [tf.ones([2, 3])] * 2, dtype=tf.float32)
        logits = layers.fully_connected(outputs[-1], 2)
        with tf.compat.v1.Session() as sess:
          sess.run(tf.compat.v1.global_variables_initializer())
          print(sess.run(logits).shape)
      """)
  env = {k: v for k, v in os.environ.items() if k != "TF_USE_LEGACY_KERAS"}
  result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          timeout=300, check=False)
  assert result.returncode == 0, result.stderr[-3000:]
  assert result.stdout.strip().endswith("(2, 2)")
