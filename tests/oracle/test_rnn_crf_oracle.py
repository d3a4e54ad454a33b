"""tf.contrib.rnn's cells (tf1clip's ports on TF's kernels), cudnn_rnn's CPU cells and tf.contrib.crf against TF 1.15.

Every cell runs through `tf.nn.dynamic_rnn` (or its fused call) from the same weights on both sides:
outputs, final states, gradients of a loss with respect to every weight, variable names and shapes, and
the checkpoint keys TF 1.15 wrote for them (so old checkpoints restore). The CRF functions are compared
on fixed scores and tags, with their gradients.
"""

from harness import assert_same, requires_tf115, run_both

CELLS = ("LSTMBlockCell", "LSTMBlockFusedCell", "GRUBlockCell", "GRUBlockCellV2", "LayerNormBasicLSTMCell",
         "NASCell", "CoupledInputForgetGateLSTMCell", "IndyLSTMCell", "UGRNNCell", "HighwayWrapper",
         "AttentionCellWrapper", "LSTMBlockWrapper", "FusedRNNCellAdaptor", "TimeReversedFusedRNN",
         "stack_bidirectional_dynamic_rnn", "stack_bidirectional_rnn", "BasicLSTMCell", "MultiRNNCell",
         "static_rnn", "LSTMCell", "GRUCell", "DropoutWrapper", "ResidualWrapper")
ORACLE_TESTED = tuple("tf.contrib.rnn." + n for n in CELLS) + (
    "tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell", "tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell") + tuple(
        "tf.contrib.crf." + n for n in ("crf_log_likelihood", "crf_sequence_score", "crf_unary_score",
                                        "crf_binary_score", "crf_log_norm", "crf_decode", "viterbi_decode",
                                        "crf_multitag_sequence_score"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
rnn = tf.contrib.rnn
B, T, D, H = 3, 4, 5, 6
rng = np.random.RandomState(2)
x = tf.constant(rng.standard_normal([B, T, D]).astype(np.float32))
lengths = tf.constant([4, 2, 3])
cells = {
    "lstm_block": lambda: rnn.LSTMBlockCell(H, forget_bias=0.5),
    "lstm_block_peep": lambda: rnn.LSTMBlockCell(H, use_peephole=True, cell_clip=1.0),
    "gru_block": lambda: rnn.GRUBlockCell(H),
    "gru_block_v2": lambda: rnn.GRUBlockCellV2(H),
    "layer_norm_lstm": lambda: rnn.LayerNormBasicLSTMCell(H, norm_gain=1.1, norm_shift=0.1),
    "nas": lambda: rnn.NASCell(H, num_proj=4, use_bias=True),
    "cifg": lambda: rnn.CoupledInputForgetGateLSTMCell(H, use_peepholes=True),
    "indy_lstm": lambda: rnn.IndyLSTMCell(H),
    "ugrnn": lambda: rnn.UGRNNCell(H),
    "highway": lambda: rnn.HighwayWrapper(tf.nn.rnn_cell.GRUCell(D)),
    "attention_cell": lambda: rnn.AttentionCellWrapper(tf.nn.rnn_cell.LSTMCell(H), attn_length=2,
                                                       state_is_tuple=True),
    "cudnn_lstm": lambda: tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(H),
    "cudnn_gru": lambda: tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell(H),
    "multi_residual_dropout": lambda: tf.nn.rnn_cell.MultiRNNCell([
        tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(D), output_keep_prob=1.0),
        tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.LSTMCell(D, use_peepholes=True))]),
}
fetches, losses = {}, []
for name, make in sorted(cells.items()):
    with tf.variable_scope(name):
        out, state = tf.nn.dynamic_rnn(make(), x, sequence_length=lengths, dtype=tf.float32)
    fetches[name + "_out"] = out
    fetches[name + "_state"] = tf.nest.flatten(state)
    losses.append(tf.reduce_sum(tf.square(out)))
time_major = tf.transpose(x, [1, 0, 2])
with tf.variable_scope("fused"):
    fused_out, fused_state = rnn.LSTMBlockFusedCell(H, forget_bias=0.7)(time_major, sequence_length=lengths,
                                                                         dtype=tf.float32)
with tf.variable_scope("adaptor"):
    adaptor = rnn.FusedRNNCellAdaptor(tf.nn.rnn_cell.GRUCell(H), use_dynamic_rnn=True)
    adapt_out, _ = adaptor(time_major, sequence_length=lengths, dtype=tf.float32)
with tf.variable_scope("reversed"):
    rev_out, _ = rnn.TimeReversedFusedRNN(rnn.LSTMBlockFusedCell(H))(time_major, sequence_length=lengths,
                                                                      dtype=tf.float32)
with tf.variable_scope("stack_bi"):
    bi_out, bi_fw, bi_bw = rnn.stack_bidirectional_dynamic_rnn(
        [rnn.LSTMBlockCell(H), tf.nn.rnn_cell.GRUCell(H)], [rnn.LSTMBlockCell(H), tf.nn.rnn_cell.GRUCell(H)], x,
        sequence_length=lengths, dtype=tf.float32)
with tf.variable_scope("stack_bi_static"):
    sbi_out, _, _ = rnn.stack_bidirectional_rnn([tf.nn.rnn_cell.GRUCell(H)], [tf.nn.rnn_cell.GRUCell(H)],
                                                tf.unstack(x, axis=1), dtype=tf.float32)
with tf.variable_scope("static"):
    st_out, _ = rnn.static_rnn(tf.nn.rnn_cell.GRUCell(H), tf.unstack(x, axis=1), dtype=tf.float32)
for name, t in [("fused_out", fused_out), ("adaptor_out", adapt_out), ("reversed_out", rev_out),
                ("stack_bi_out", bi_out), ("stack_bi_static", sbi_out), ("static_out", st_out)]:
    fetches[name] = t
    losses.append(tf.reduce_sum(tf.square(t)))
fetches["fused_state"] = list(fused_state)

# CRF
N = 4
scores = tf.constant(rng.standard_normal([B, T, N]).astype(np.float32))
tags = tf.constant(rng.randint(0, N, [B, T]).astype(np.int32))
crf = tf.contrib.crf
with tf.variable_scope("crf"):
    log_lik, transitions = crf.crf_log_likelihood(scores, tags, lengths)
fetches["crf_log_lik"] = log_lik
fetches["crf_sequence_score"] = crf.crf_sequence_score(scores, tags, lengths, transitions)
fetches["crf_unary"] = crf.crf_unary_score(tags, lengths, scores)
fetches["crf_binary"] = crf.crf_binary_score(tags, lengths, transitions)
fetches["crf_log_norm"] = crf.crf_log_norm(scores, lengths, transitions)
decoded, best = crf.crf_decode(scores, transitions, lengths)
fetches["crf_decode"] = decoded
fetches["crf_best"] = best
# several allowed tags per step (one-hot rows give crf_sequence_score), a length-1 batch, and its gradient
bitmap = tf.constant(rng.rand(B, T, N) < 0.5) | tf.one_hot(tags, N, on_value=True, off_value=False)
fetches["crf_multitag"] = crf.crf_multitag_sequence_score(scores, bitmap, lengths, transitions)
fetches["crf_multitag_onehot"] = crf.crf_multitag_sequence_score(
    scores, tf.one_hot(tags, N, on_value=True, off_value=False), lengths, transitions)
fetches["crf_multitag_single"] = crf.crf_multitag_sequence_score(scores[:, :1], bitmap[:, :1], tf.ones([B], tf.int32),
                                                                 transitions)
fetches["crf_multitag_grad"] = tf.gradients(tf.reduce_sum(fetches["crf_multitag"]), [scores, transitions])
losses.append(-tf.reduce_sum(log_lik))
total = tf.add_n(losses)
variables = tf.trainable_variables()
fetches["grads"] = [tf.convert_to_tensor(g) for g in tf.gradients(total, variables)]
report_variables()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=7, scale=0.3)
    values = sess.run(fetches)
    for k, v in sorted(values.items()):
        report(k, v)
    trans = sess.run(transitions)
    s0 = sess.run(scores)[0]
    viterbi, vscore = crf.viterbi_decode(s0, trans)
    report("viterbi", list(viterbi))
    report("viterbi_score", float(vscore))
    report_checkpoint(sess)
'''


@requires_tf115
def test_rnn_cells_cudnn_cells_and_crf_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
