"""tf.contrib.rnn's block/fused cells against tf-keras' BasicLSTMCell/LSTMCell/GRUCell, and contrib's
other cells and wrappers against numpy: TF 1.15 variable names, states, outputs, gradients, training."""

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

from tf1clip.contrib import rnn

V1 = tf.compat.v1
BATCH, DEPTH, STEPS, UNITS = 3, 4, 5, 6
LENGTHS = np.array([5, 1, 3], np.int32)


def _batch_major_inputs(seed=0, steps=STEPS):
  return np.random.RandomState(seed).randn(BATCH, steps, DEPTH).astype(np.float32)


def _sigmoid(x):
  return 1.0 / (1.0 + np.exp(-x))


def _names(scope=None):
  return sorted(v.op.name for v in V1.global_variables(scope))


def _random_values(variables, seed=3):
  rng = np.random.RandomState(seed)
  return [rng.uniform(-0.7, 0.7, v.shape.as_list()).astype(np.float32) for v in variables]


def _weighted_sum(result):
  """A scalar that weights every element of every tensor differently, so no gradient term cancels."""
  total = 0.0
  for k, t in enumerate(tf.nest.flatten(result)):
    weights = tf.reshape(tf.cos(tf.cast(tf.range(tf.size(t)), t.dtype) + float(k)), tf.shape(t))
    total += tf.reduce_sum(t * weights)
  return total


def _run_pair(sess, build_reference, build_candidate, x, sequence_length=None, order=None):
  """Builds both models on the same inputs and weights; returns their results and gradients.

  Each builder returns (outputs, final_state). `order` maps the candidate's variables onto the
  reference's (default: the same creation order).
  """
  inputs = tf.constant(x)
  with V1.variable_scope("reference"):
    ref = build_reference(inputs, sequence_length)
  with V1.variable_scope("candidate"):
    cand = build_candidate(inputs, sequence_length)
  ref_vars = V1.trainable_variables("reference")
  cand_vars = V1.trainable_variables("candidate")
  if order is not None:
    cand_vars = [cand_vars[i] for i in order]
  assert [v.shape.as_list() for v in ref_vars] == [v.shape.as_list() for v in cand_vars]
  # Gradients first: a while loop's gradient cannot be added once the graph has run.
  ref_grads = tf.gradients(_weighted_sum(ref), ref_vars + [inputs])
  cand_grads = tf.gradients(_weighted_sum(cand), cand_vars + [inputs])
  sess.run(V1.global_variables_initializer())
  for ref_var, cand_var, value in zip(ref_vars, cand_vars, _random_values(ref_vars)):
    ref_var.load(value, sess)
    cand_var.load(value, sess)
  return sess.run((ref, cand, ref_grads, cand_grads))


def _assert_same(pair, rtol=2e-5, atol=2e-5):
  ref, cand, ref_grads, cand_grads = pair
  tf.nest.assert_same_structure(ref, cand)
  for a, b in zip(tf.nest.flatten(ref), tf.nest.flatten(cand)):
    np.testing.assert_allclose(b, a, rtol=rtol, atol=atol)
  assert len(ref_grads) == len(cand_grads)
  for a, b in zip(ref_grads, cand_grads):
    assert np.abs(a).max() > 0
    np.testing.assert_allclose(b, a, rtol=rtol, atol=atol)


def _dynamic(make_cell, time_major=False):
  def build(inputs, sequence_length):
    if time_major:
      inputs = tf.transpose(inputs, [1, 0, 2])
    return V1.nn.dynamic_rnn(make_cell(), inputs, sequence_length=sequence_length, dtype=tf.float32,
                             time_major=time_major)
  return build


# --- LSTMBlockCell / GRUBlockCell vs the core cells -------------------------------------------------

PAIRS = {
    "LSTMBlockCell=BasicLSTMCell": (lambda: rnn.BasicLSTMCell(UNITS, forget_bias=0.7),
                                    lambda: rnn.LSTMBlockCell(UNITS, forget_bias=0.7)),
    "LSTMBlockCell(peephole)=LSTMCell": (
        lambda: rnn.LSTMCell(UNITS, use_peepholes=True),
        lambda: rnn.LSTMBlockCell(UNITS, use_peephole=True)),
    "GRUBlockCellV2=GRUCell": (lambda: rnn.GRUCell(UNITS), lambda: rnn.GRUBlockCellV2(UNITS)),
    "GRUBlockCell=GRUCell": (lambda: rnn.GRUCell(UNITS), lambda: rnn.GRUBlockCell(UNITS)),
}
# LSTMCell creates kernel, bias, w_f_diag, w_i_diag, w_o_diag; LSTMBlockCell w_i_diag, w_f_diag, ...
ORDERS = {"LSTMBlockCell(peephole)=LSTMCell": [0, 1, 3, 2, 4]}


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_block_cell_equals_core_cell_states_outputs_and_gradients(sess, name):
  # LENGTHS holds a full-length, a length-1 and a partial sequence.
  make_reference, make_candidate = PAIRS[name]
  pair = _run_pair(sess, _dynamic(make_reference), _dynamic(make_candidate), _batch_major_inputs(),
                   sequence_length=LENGTHS, order=ORDERS.get(name))
  _assert_same(pair)


@pytest.mark.parametrize("fused", [False, True])
def test_block_lstm_cell_clip_clips_forward_and_its_gradient_ignores_the_clip(sess, fused):
  """TF's block kernels clip the cell state going forward; their gradient passes through the clip.

  That is TF 1.15's LSTMBlockCellGrad / BlockLSTMGrad, kept as is: LSTMCell's clip_by_value gradient
  is zero where the state was clipped, so the two agree forward and differ backward.
  """
  make_reference = lambda: rnn.LSTMCell(UNITS, use_peepholes=True, cell_clip=0.3)
  if fused:
    candidate = _fused(lambda: rnn.LSTMBlockFusedCell(UNITS, use_peephole=True, cell_clip=0.3))
  else:
    candidate = _dynamic(lambda: rnn.LSTMBlockCell(UNITS, use_peephole=True, cell_clip=0.3))
  ref, cand, ref_grads, cand_grads = _run_pair(sess, _dynamic(make_reference), candidate,
                                               _batch_major_inputs(), order=[0, 1, 3, 2, 4])
  assert np.abs(ref[1].c).max() == pytest.approx(0.3)
  for a, b in zip(tf.nest.flatten(ref), tf.nest.flatten(cand)):
    np.testing.assert_allclose(b, a, rtol=2e-5, atol=2e-5)
  assert np.abs(ref_grads[0] - cand_grads[0]).max() > 1e-3


def test_block_cells_keep_tf115_variable_names(graph):
  x = tf.constant(_batch_major_inputs())
  for scope, cell in [("lstm", rnn.LSTMBlockCell(UNITS, use_peephole=True)),
                      ("gru", rnn.GRUBlockCell(num_units=UNITS)), ("gru2", rnn.GRUBlockCellV2(UNITS)),
                      ("gru_deprecated", rnn.GRUBlockCell(cell_size=UNITS))]:
    with V1.variable_scope(scope):
      V1.nn.dynamic_rnn(cell, x, dtype=tf.float32)
  assert _names() == sorted([
      "lstm/rnn/lstm_cell/kernel", "lstm/rnn/lstm_cell/bias", "lstm/rnn/lstm_cell/w_i_diag",
      "lstm/rnn/lstm_cell/w_f_diag", "lstm/rnn/lstm_cell/w_o_diag",
      "gru/rnn/gru_cell/w_c", "gru/rnn/gru_cell/b_ru", "gru/rnn/gru_cell/w_ru", "gru/rnn/gru_cell/b_c",
      "gru2/rnn/gru_cell/gates/kernel", "gru2/rnn/gru_cell/gates/bias",
      "gru2/rnn/gru_cell/candidate/kernel", "gru2/rnn/gru_cell/candidate/bias",
      "gru_deprecated/rnn/gru_cell/w_c", "gru_deprecated/rnn/gru_cell/b_ru",
      "gru_deprecated/rnn/gru_cell/w_ru", "gru_deprecated/rnn/gru_cell/b_c"])
  shapes = {v.op.name: v.shape.as_list() for v in V1.global_variables()}
  # As TF 1.15 wrote them (tests/oracle/test_rnn_crf_oracle.py compares with TF 1.15 itself).
  assert shapes["gru/rnn/gru_cell/w_ru"] == [DEPTH + UNITS, 2 * UNITS]
  assert shapes["gru/rnn/gru_cell/w_c"] == [DEPTH + UNITS, UNITS]


def test_block_gradients_are_registered_once_and_never_replaced(graph):
  from tf1clip.contrib.rnn.python.ops import lstm_ops  # pylint: disable=import-outside-toplevel
  rnn.LSTMBlockCell(2)(tf.zeros([1, 3]), (tf.zeros([1, 2]), tf.zeros([1, 2])))
  assert lstm_ops.register_gradients() == []
  from tensorflow.python.framework import ops  # pylint: disable=import-outside-toplevel
  assert ops.gradient_registry.lookup("LSTMBlockCell") is lstm_ops._lstm_block_cell_grad  # pylint: disable=protected-access
  assert ops.gradient_registry.lookup("GRUBlockCell") is lstm_ops._gru_block_cell_grad  # pylint: disable=protected-access


def test_gru_block_cell_rejects_both_or_neither_size():
  with pytest.raises(ValueError, match="exactly one of num_units or cell_size"):
    rnn.GRUBlockCell()
  with pytest.raises(ValueError, match="exactly one of num_units or cell_size"):
    rnn.GRUBlockCell(num_units=3, cell_size=3)


def test_block_cell_checkpoint_restores_into_basic_lstm_cell(tmp_path):
  x = _batch_major_inputs()
  path = str(tmp_path / "ckpt")
  with tf.Graph().as_default(), V1.Session() as sess:
    outputs, _ = V1.nn.dynamic_rnn(rnn.LSTMBlockCell(UNITS), tf.constant(x), dtype=tf.float32)
    sess.run(V1.global_variables_initializer())
    expected = sess.run(outputs)
    V1.train.Saver().save(sess, path)
  with tf.Graph().as_default(), V1.Session() as sess:
    # LSTMCell's default scope is lstm_cell, as LSTMBlockCell's.
    outputs, _ = V1.nn.dynamic_rnn(rnn.LSTMCell(UNITS), tf.constant(x), dtype=tf.float32)
    V1.train.Saver().restore(sess, path)
    np.testing.assert_allclose(sess.run(outputs), expected, rtol=1e-5, atol=1e-6)


# --- LSTMBlockFusedCell and the fused adaptors ------------------------------------------------------

def _fused(make_fused):
  def build(inputs, sequence_length):
    outputs, state = make_fused()(tf.transpose(inputs, [1, 0, 2]), dtype=tf.float32,
                                  sequence_length=sequence_length)
    return tf.transpose(outputs, [1, 0, 2]), state
  return build


@pytest.mark.parametrize("with_lengths,peephole", [(False, True), (True, False)])
def test_lstm_block_fused_cell_equals_dynamic_rnn_of_lstm_cell(sess, with_lengths, peephole):
  if peephole:
    make_reference = lambda: rnn.LSTMCell(UNITS, use_peepholes=True)
    make_fused = lambda: rnn.LSTMBlockFusedCell(UNITS, use_peephole=True)
    order = [0, 1, 3, 2, 4]
  else:
    make_reference = lambda: rnn.BasicLSTMCell(UNITS)
    make_fused = lambda: rnn.LSTMBlockFusedCell(UNITS)
    order = None
  pair = _run_pair(sess, _dynamic(make_reference), _fused(make_fused), _batch_major_inputs(),
                   sequence_length=LENGTHS if with_lengths else None, order=order)
  _assert_same(pair)


def test_lstm_block_fused_cell_names_list_inputs_and_initial_state(sess):
  x = _batch_major_inputs().transpose(1, 0, 2)
  cell = rnn.LSTMBlockFusedCell(UNITS)
  c0 = tf.constant(np.full((BATCH, UNITS), 0.3, np.float32))
  h0 = tf.constant(np.full((BATCH, UNITS), -0.2, np.float32))
  outputs, state = cell(tf.constant(x), initial_state=(c0, h0))
  list_outputs, list_state = cell([tf.constant(step) for step in x], initial_state=(c0, h0))
  assert _names() == ["lstm_fused_cell/bias", "lstm_fused_cell/kernel"]
  assert isinstance(list_outputs, list) and len(list_outputs) == STEPS
  sess.run(V1.global_variables_initializer())
  a, b, s1, s2 = sess.run((outputs, tf.stack(list_outputs), state, list_state))
  np.testing.assert_allclose(b, a, rtol=1e-6)
  np.testing.assert_allclose(s2.h, s1.h, rtol=1e-6)
  with pytest.raises(ValueError, match="initial_state or dtype"):
    cell(tf.constant(x))


def test_fused_rnn_cell_adaptor_static_and_dynamic_agree(sess):
  x = tf.constant(_batch_major_inputs().transpose(1, 0, 2))
  cell = rnn.BasicLSTMCell(UNITS)
  with V1.variable_scope("shared") as scope:
    static_out, static_state = rnn.FusedRNNCellAdaptor(cell)(x, dtype=tf.float32,
                                                             sequence_length=LENGTHS)
    scope.reuse_variables()
    dynamic_out, dynamic_state = rnn.FusedRNNCellAdaptor(cell, use_dynamic_rnn=True)(
        x, dtype=tf.float32, sequence_length=LENGTHS)
  sess.run(V1.global_variables_initializer())
  a, b, sa, sb = sess.run((static_out, dynamic_out, static_state, dynamic_state))
  np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(sb.c, sa.c, rtol=1e-5, atol=1e-6)


def test_time_reversed_fused_rnn_runs_each_sequence_backwards(sess):
  x = _batch_major_inputs().transpose(1, 0, 2)
  fused = rnn.LSTMBlockFusedCell(UNITS)
  outputs, state = rnn.TimeReversedFusedRNN(fused)(tf.constant(x), dtype=tf.float32,
                                                   sequence_length=LENGTHS)
  reversed_x = tf.reverse_sequence(tf.constant(x), LENGTHS, seq_axis=0, batch_axis=1)
  forward_outputs, forward_state = fused(reversed_x, dtype=tf.float32, sequence_length=LENGTHS)
  expected = tf.reverse_sequence(forward_outputs, LENGTHS, seq_axis=0, batch_axis=1)
  sess.run(V1.global_variables_initializer())
  got, want, s1, s2 = sess.run((outputs, expected, state, forward_state))
  np.testing.assert_allclose(got, want, rtol=1e-6)
  np.testing.assert_allclose(s1.h, s2.h, rtol=1e-6)
  # Sequence 1 has length 1: its only output is at t=0, everything after is zero.
  assert np.all(got[1:, 1] == 0) and np.abs(got[0, 1]).max() > 0


# --- same training trajectory -----------------------------------------------------------------------

def _train(make_cell, fused, steps=6):
  rng = np.random.RandomState(5)
  x = rng.randn(BATCH, STEPS, DEPTH).astype(np.float32)
  y = rng.randn(BATCH, STEPS, UNITS).astype(np.float32)
  with tf.Graph().as_default(), V1.Session() as sess:
    V1.set_random_seed(0)
    if fused:
      outputs, _ = make_cell()(tf.transpose(tf.constant(x), [1, 0, 2]), dtype=tf.float32)
      outputs = tf.transpose(outputs, [1, 0, 2])
    else:
      outputs, _ = V1.nn.dynamic_rnn(make_cell(), tf.constant(x), dtype=tf.float32)
    loss = tf.reduce_mean(tf.square(outputs - y))
    train = V1.train.AdamOptimizer(0.05).minimize(loss)
    sess.run(V1.global_variables_initializer())
    for var, value in zip(V1.trainable_variables(), _random_values(V1.trainable_variables())):
      var.load(value, sess)
    losses = [sess.run((loss, train))[0] for _ in range(steps)]
    return losses, sess.run(V1.trainable_variables())


@pytest.mark.parametrize("candidate,fused", [
    (lambda: rnn.LSTMBlockCell(UNITS), False), (lambda: rnn.LSTMBlockFusedCell(UNITS), True)])
def test_block_lstm_trains_the_same_trajectory_as_basic_lstm_cell(candidate, fused):
  ref_losses, ref_vars = _train(lambda: rnn.BasicLSTMCell(UNITS), fused=False)
  losses, variables = _train(candidate, fused=fused)
  assert ref_losses[-1] < ref_losses[0]
  np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
  for a, b in zip(variables, ref_vars):
    np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


def test_gru_block_cell_trains_the_same_trajectory_as_gru_cell():
  ref_losses, ref_vars = _train(lambda: rnn.GRUCell(UNITS), fused=False)
  losses, variables = _train(lambda: rnn.GRUBlockCellV2(UNITS), fused=False)
  assert ref_losses[-1] < ref_losses[0]
  np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
  for a, b in zip(variables, ref_vars):
    np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-5)


# --- contrib's own cells against numpy --------------------------------------------------------------

def _one_step(sess, cell, x, state):
  output, new_state = cell(tf.constant(x), tf.nest.map_structure(tf.constant, state))
  sess.run(V1.global_variables_initializer())
  values = _random_values(V1.global_variables(), seed=11)
  for var, value in zip(V1.global_variables(), values):
    var.load(value, sess)
  return sess.run((output, new_state)), {v.op.name: val for v, val in zip(V1.global_variables(), values)}


def _step_inputs(units=UNITS, depth=DEPTH):
  rng = np.random.RandomState(2)
  return (rng.randn(BATCH, depth).astype(np.float32), rng.randn(BATCH, units).astype(np.float32),
          rng.randn(BATCH, units).astype(np.float32))


@pytest.mark.parametrize("peepholes,num_proj", [(False, None), (True, 3)])
def test_coupled_input_forget_gate_lstm_cell_matches_numpy(sess, peepholes, num_proj):
  x, c, m = _step_inputs()
  m = m[:, :num_proj] if num_proj else m
  cell = rnn.CoupledInputForgetGateLSTMCell(UNITS, use_peepholes=peepholes, num_proj=num_proj,
                                            proj_clip=0.3 if num_proj else None, forget_bias=0.5)
  (output, (new_c, new_m)), v = _one_step(sess, cell, x, rnn.LSTMStateTuple(c, m))
  p = "coupled_input_forget_gate_lstm_cell/"
  expected_names = [p + "W_0", p + "B"] + ([p + "W_F_diag", p + "W_O_diag"] if peepholes else []) + (
      [p + "W_P_0"] if num_proj else [])
  assert sorted(v) == sorted(expected_names)
  j, f, o = np.split(np.concatenate([x, m], 1) @ v[p + "W_0"] + v[p + "B"], 3, axis=1)
  f = f + 0.5 + (v[p + "W_F_diag"] * c if peepholes else 0)
  want_c = _sigmoid(f) * c + (1 - _sigmoid(f)) * np.tanh(j)
  want_m = _sigmoid(o + (v[p + "W_O_diag"] * want_c if peepholes else 0)) * np.tanh(want_c)
  if num_proj:
    want_m = np.clip(want_m @ v[p + "W_P_0"], -0.3, 0.3)
  np.testing.assert_allclose(new_c, want_c, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(new_m, want_m, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(output, want_m, rtol=1e-5, atol=1e-6)


def test_coupled_input_forget_gate_lstm_cell_shards_and_layer_norm_names(graph):
  cell = rnn.CoupledInputForgetGateLSTMCell(UNITS, num_unit_shards=3, layer_norm=True)
  x, c, m = (tf.constant(a) for a in _step_inputs())
  cell(x, rnn.LSTMStateTuple(c, m))
  p = "coupled_input_forget_gate_lstm_cell/"
  assert _names() == sorted([p + "W_0", p + "W_1", p + "W_2", p + "B"] + [
      p + scope + "/" + name for scope in ("transform", "forget", "output", "state")
      for name in ("gamma", "beta")])
  # DEPTH + UNITS = 10 rows over 3 shards: 4, 3, 3, as TF 1.15 split them.
  assert [v.shape.as_list()[0] for v in V1.global_variables() if "/W_" in v.op.name] == [4, 3, 3]


def test_indy_lstm_cell_matches_numpy(sess):
  x, c, h = _step_inputs()
  (output, (new_c, new_h)), v = _one_step(sess, rnn.IndyLSTMCell(UNITS, forget_bias=0.25), x,
                                          rnn.LSTMStateTuple(c, h))
  p = "indy_lstm_cell/"
  assert sorted(v) == [p + "bias", p + "kernel_u", p + "kernel_w"]
  gates = x @ v[p + "kernel_w"] + np.tile(h, [1, 4]) * v[p + "kernel_u"] + v[p + "bias"]
  i, j, f, o = np.split(gates, 4, axis=1)
  want_c = c * _sigmoid(f + 0.25) + _sigmoid(i) * np.tanh(j)
  want_h = np.tanh(want_c) * _sigmoid(o)
  np.testing.assert_allclose(new_c, want_c, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(new_h, want_h, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(output, want_h, rtol=1e-5, atol=1e-6)


def test_ugrnn_cell_matches_numpy(sess):
  x, h, _ = _step_inputs()
  (output, new_h), v = _one_step(sess, rnn.UGRNNCell(UNITS, forget_bias=0.5), x, h)
  p = "ugrnn_cell/"
  assert sorted(v) == [p + "bias", p + "kernel"]
  g, cand = np.split(np.concatenate([x, h], 1) @ v[p + "kernel"] + v[p + "bias"], 2, axis=1)
  g = _sigmoid(g + 0.5)
  want = g * h + (1 - g) * np.tanh(cand)
  np.testing.assert_allclose(new_h, want, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(output, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("coupled", [True, False])
def test_highway_wrapper_matches_numpy_and_names(sess, coupled):
  x, h, _ = _step_inputs(units=DEPTH)
  cell = rnn.HighwayWrapper(rnn.BasicRNNCell(DEPTH), couple_carry_transform_gates=coupled)
  (output, new_h), v = _one_step(sess, cell, x, h)
  expected = ["basic_rnn_cell/bias", "basic_rnn_cell/kernel", "carry_b", "carry_w"]
  assert sorted(v) == sorted(expected + ([] if coupled else ["transform_b", "transform_w"]))
  y = np.tanh(np.concatenate([x, h], 1) @ v["basic_rnn_cell/kernel"] + v["basic_rnn_cell/bias"])
  carry = _sigmoid(x @ v["carry_w"] + v["carry_b"])
  transform = 1 - carry if coupled else _sigmoid(x @ v["transform_w"] + v["transform_b"])
  np.testing.assert_allclose(new_h, y, rtol=1e-5, atol=1e-6)
  np.testing.assert_allclose(output, x * carry + y * transform, rtol=1e-5, atol=1e-6)


def test_attention_cell_wrapper_matches_numpy_and_names(sess):
  attn_length, units = 3, 4
  rng = np.random.RandomState(4)
  x = rng.randn(BATCH, DEPTH).astype(np.float32)
  h = rng.randn(BATCH, units).astype(np.float32)
  attns = rng.randn(BATCH, units).astype(np.float32)
  window = rng.randn(BATCH, attn_length * units).astype(np.float32)
  cell = rnn.AttentionCellWrapper(rnn.BasicRNNCell(units), attn_length, attn_vec_size=5)
  (output, (new_h, new_attns, new_window)), v = _one_step(sess, cell, x, (h, attns, window))
  p = "attention_cell_wrapper/"
  assert sorted(v) == sorted(p + n for n in [
      "kernel", "bias", "basic_rnn_cell/kernel", "basic_rnn_cell/bias", "attention/attn_w",
      "attention/attn_v", "attention/kernel", "attention/bias", "attn_output_projection/kernel",
      "attn_output_projection/bias"])
  x_proj = np.concatenate([x, attns], 1) @ v[p + "kernel"] + v[p + "bias"]
  want_h = np.tanh(np.concatenate([x_proj, h], 1) @ v[p + "basic_rnn_cell/kernel"]
                   + v[p + "basic_rnn_cell/bias"])
  hidden = window.reshape(BATCH, attn_length, units)
  features = hidden @ v[p + "attention/attn_w"][0, 0]                       # [B, L, vec]
  y = want_h @ v[p + "attention/kernel"] + v[p + "attention/bias"]          # [B, vec]
  scores = (v[p + "attention/attn_v"] * np.tanh(features + y[:, None, :])).sum(-1)
  weights = np.exp(scores - scores.max(1, keepdims=True))
  weights /= weights.sum(1, keepdims=True)
  want_attns = (weights[:, :, None] * hidden).sum(1)
  want_output = (np.concatenate([want_h, want_attns], 1) @ v[p + "attn_output_projection/kernel"]
                 + v[p + "attn_output_projection/bias"])
  want_window = np.concatenate([hidden[:, 1:], want_output[:, None]], 1).reshape(BATCH, -1)
  np.testing.assert_allclose(new_h, want_h, rtol=1e-5, atol=1e-5)
  np.testing.assert_allclose(new_attns, want_attns, rtol=1e-5, atol=1e-5)
  np.testing.assert_allclose(output, want_output, rtol=1e-5, atol=1e-5)
  np.testing.assert_allclose(new_window, want_window, rtol=1e-5, atol=1e-5)


def test_attention_cell_wrapper_rejects_bad_arguments():
  with pytest.raises(ValueError, match="attn_length must be greater than zero"):
    rnn.AttentionCellWrapper(rnn.BasicRNNCell(3), 0)
  with pytest.raises(ValueError, match="state_is_tuple=False"):
    rnn.AttentionCellWrapper(rnn.BasicLSTMCell(3), 2, state_is_tuple=False)
  with pytest.raises(TypeError, match="must be an RNNCell"):
    rnn.AttentionCellWrapper("cell", 2)


# --- stacked bidirectional RNNs ---------------------------------------------------------------------

def test_stack_bidirectional_dynamic_rnn_equals_two_bidirectional_layers(sess):
  x = tf.constant(_batch_major_inputs())
  cells = lambda: [rnn.GRUCell(3), rnn.GRUCell(2)]
  outputs, states_fw, states_bw = rnn.stack_bidirectional_dynamic_rnn(
      cells(), cells(), x, dtype=tf.float32, sequence_length=LENGTHS)
  stacked_names = _names()
  assert "stack_bidirectional_rnn/cell_0/bidirectional_rnn/fw/gru_cell/gates/kernel" in stacked_names
  assert "stack_bidirectional_rnn/cell_1/bidirectional_rnn/bw/gru_cell/candidate/bias" in stacked_names
  assert len(states_fw) == len(states_bw) == 2
  layer = x
  fw_cells, bw_cells = cells(), cells()
  with V1.variable_scope("manual"):
    for i in range(2):
      with V1.variable_scope("cell_%d" % i):
        (fw, bw), _ = V1.nn.bidirectional_dynamic_rnn(fw_cells[i], bw_cells[i], layer,
                                                      dtype=tf.float32, sequence_length=LENGTHS)
        layer = tf.concat([fw, bw], 2)
  sess.run(V1.global_variables_initializer())
  for name in stacked_names:
    manual = [v for v in V1.global_variables("manual/") if v.op.name ==
              name.replace("stack_bidirectional_rnn", "manual")][0]
    manual.load(sess.run(V1.global_variables(name)[0]), sess)
  got, want = sess.run((outputs, layer))
  assert got.shape == (BATCH, STEPS, 4)
  np.testing.assert_allclose(got, want, rtol=1e-6)


def test_stack_bidirectional_rnn_static_names_and_shapes(sess):
  xs = [tf.constant(step) for step in _batch_major_inputs().transpose(1, 0, 2)]
  outputs, states_fw, states_bw = rnn.stack_bidirectional_rnn(
      [rnn.LSTMBlockCell(3), rnn.LSTMBlockCell(2)], [rnn.LSTMBlockCell(3), rnn.LSTMBlockCell(2)], xs,
      dtype=tf.float32)
  assert "stack_bidirectional_rnn/cell_0/fw/lstm_cell/kernel" in _names()
  assert "stack_bidirectional_rnn/cell_1/bw/lstm_cell/bias" in _names()
  sess.run(V1.global_variables_initializer())
  assert [o.shape for o in sess.run(outputs)] == [(BATCH, 4)] * STEPS
  with pytest.raises(ValueError, match="same depth"):
    rnn.stack_bidirectional_rnn([rnn.GRUCell(2)], [rnn.GRUCell(2)] * 2, xs, dtype=tf.float32)


# --- under `tf1clip run` (TF1 shapes: Dimension objects) -------------------------------------------

def test_a_legacy_tagger_with_every_new_cell_and_a_crf_trains_under_tf1clip_run():
  repo = pathlib.Path(__file__).resolve().parents[3]
  fixtures = repo / "tests" / "fixtures" / "legacy"
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=str(repo))
  result = subprocess.run([sys.executable, "-m", "tf1clip", "run", "sequence_cells_script.py"],
                          cwd=str(fixtures), env=env, capture_output=True, text=True, timeout=300)
  assert result.returncode == 0, result.stderr[-3000:]
  lines = [l for l in result.stdout.splitlines() if l.startswith("RESULT ")]
  got = json.loads(lines[0][len("RESULT "):])
  assert got["losses"][-1] < 0.5 * got["losses"][0]
  assert got["decoded"] == got["viterbi"]
  assert [len(t) for t in got["decoded"]] == [5, 1, 3, 4]
  for name in ["cell_0/rnn/lstm_cell/kernel", "cell_2/rnn/gru_cell/w_c", "fused/lstm_fused_cell/kernel",
               "cell_5/rnn/coupled_input_forget_gate_lstm_cell/W_0", "cell_6/rnn/carry_w",
               "cell_7/rnn/attention_cell_wrapper/attention/attn_w", "transitions",
               "stack_bidirectional_rnn/cell_0/bidirectional_rnn/bw/lstm_cell/kernel"]:
    assert name in got["variables"]
