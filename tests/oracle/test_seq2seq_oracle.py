"""tf.contrib.seq2seq and tf.contrib.legacy_seq2seq (tf1clip's own ports) against TF 1.15: outputs, gradients, names.

One snippet builds, from the same weights on both sides: a BasicDecoder with TrainingHelper over an
AttentionWrapper (Bahdanau normalized, Luong scaled, both monotonic variants, alignment history), greedy
and beam-search inference, sequence_loss, tile_batch/gather_tree/hardmax/safe_cumprod/monotonic_attention,
and all of legacy_seq2seq (the embedding, tied, attention and one-to-many models with feed_previous as a bool
and as a Tensor, model_with_buckets, the losses, the errors); then a checkpoint written by TF 1.15 restores
under tf1clip and training goes on with the same loss.
"""

import os
import tempfile

from harness import assert_same, requires_tf115, run_both, run_tf115, run_tf1clip

ORACLE_TESTED = tuple("tf.contrib.seq2seq." + n for n in (
    "BasicDecoder", "TrainingHelper", "GreedyEmbeddingHelper", "AttentionWrapper", "BahdanauAttention",
    "LuongAttention", "BahdanauMonotonicAttention", "LuongMonotonicAttention", "BeamSearchDecoder",
    "dynamic_decode", "sequence_loss", "tile_batch", "gather_tree", "hardmax", "safe_cumprod",
    "monotonic_attention", "AttentionWrapperState", "ScheduledEmbeddingTrainingHelper",
    "InferenceHelper")) + tuple("tf.contrib.legacy_seq2seq." + n for n in (
        "rnn_decoder", "basic_rnn_seq2seq", "sequence_loss", "sequence_loss_by_example", "tied_rnn_seq2seq",
        "embedding_rnn_decoder", "embedding_rnn_seq2seq", "embedding_tied_rnn_seq2seq", "attention_decoder",
        "embedding_attention_decoder", "embedding_attention_seq2seq", "one2many_rnn_seq2seq", "model_with_buckets"))

BUILD = r'''
import copy
import numpy as np
import tensorflow as tf
s2s = tf.contrib.seq2seq
B, T, S, V, E, H = 3, 5, 4, 7, 6, 8
rng = np.random.RandomState(1)
memory = tf.constant(rng.standard_normal([B, S, H]).astype(np.float32))
memory_len = tf.constant([4, 2, 3])
targets = tf.constant(rng.randint(0, V, [B, T]).astype(np.int32))
target_len = tf.constant([5, 3, 4])
embedding = tf.get_variable("embedding", [V, E])
inputs = tf.nn.embedding_lookup(embedding, targets)
projection = tf.layers.Dense(V, name="projection")
mechanisms = {
    "bahdanau": s2s.BahdanauAttention(H, memory, memory_len, normalize=True),
    "luong": s2s.LuongAttention(H, memory, memory_len, scale=True),
    "bahdanau_mono": s2s.BahdanauMonotonicAttention(H, memory, memory_len, sigmoid_noise=0.0, mode="parallel"),
    "luong_mono": s2s.LuongMonotonicAttention(H, memory, memory_len, mode="recursive"),
}
fetches = {}
losses = []
for name, mechanism in sorted(mechanisms.items()):
    with tf.variable_scope(name):
        cell = s2s.AttentionWrapper(tf.nn.rnn_cell.LSTMCell(H), mechanism, attention_layer_size=H,
                                    alignment_history=True)
        helper = s2s.TrainingHelper(inputs, target_len)
        init = cell.zero_state(B, tf.float32)
        decoder = s2s.BasicDecoder(cell, helper, init, output_layer=projection)
        out, state, lengths = s2s.dynamic_decode(decoder, impute_finished=True)
        mask = tf.sequence_mask(target_len, T, dtype=tf.float32)
        loss = s2s.sequence_loss(out.rnn_output, targets, mask)
        losses.append(loss)
        fetches[name + "_logits"] = out.rnn_output
        fetches[name + "_lengths"] = lengths
        fetches[name + "_alignments"] = state.alignment_history.stack()
        fetches[name + "_loss"] = loss
total = tf.add_n(losses)
grads = tf.gradients(total, tf.trainable_variables())
fetches["grad_norms"] = [tf.norm(tf.convert_to_tensor(g)) for g in grads]
with tf.variable_scope("greedy"):
    cell = s2s.AttentionWrapper(tf.nn.rnn_cell.LSTMCell(H), mechanisms["bahdanau"], attention_layer_size=H)
    greedy = s2s.GreedyEmbeddingHelper(embedding, tf.fill([B], 1), 0)
    g_out, _, g_len = s2s.dynamic_decode(s2s.BasicDecoder(cell, greedy, cell.zero_state(B, tf.float32),
                                                          output_layer=projection), maximum_iterations=6)
    fetches["greedy_ids"] = g_out.sample_id
with tf.variable_scope("beam"):
    beam = 3
    tiled = s2s.tile_batch(memory, beam)
    mech = s2s.LuongAttention(H, tiled, s2s.tile_batch(memory_len, beam), scale=True)
    cell = s2s.AttentionWrapper(tf.nn.rnn_cell.LSTMCell(H), mech, attention_layer_size=H)
    bs = s2s.BeamSearchDecoder(cell, embedding, tf.fill([B], 1), 0, cell.zero_state(B * beam, tf.float32),
                               beam, output_layer=projection, length_penalty_weight=0.6)
    b_out, b_state, b_len = s2s.dynamic_decode(bs, maximum_iterations=6)
    fetches["beam_ids"] = b_out.predicted_ids
    fetches["beam_scores"] = b_out.beam_search_decoder_output.scores
report("state_is_attention_wrapper_state", isinstance(state, s2s.AttentionWrapperState))
with tf.variable_scope("scheduled"):
    cell = tf.nn.rnn_cell.GRUCell(H)
    scheduled = s2s.ScheduledEmbeddingTrainingHelper(inputs, target_len, embedding, 0.0)
    sch_out, _, _ = s2s.dynamic_decode(s2s.BasicDecoder(cell, scheduled, cell.zero_state(B, tf.float32),
                                                        output_layer=projection))
    fetches["scheduled_logits"] = sch_out.rnn_output
with tf.variable_scope("inference"):
    cell = tf.nn.rnn_cell.GRUCell(H)
    infer = s2s.InferenceHelper(sample_fn=lambda o: o, sample_shape=[V], sample_dtype=tf.float32,
                                start_inputs=tf.zeros([B, V]), end_fn=lambda s: tf.reduce_all(s > 10.0, 1))
    inf_out, _, _ = s2s.dynamic_decode(s2s.BasicDecoder(cell, infer, cell.zero_state(B, tf.float32),
                                                        output_layer=tf.layers.Dense(V, name="inf_proj")),
                                       maximum_iterations=3)
    fetches["inference_ids"] = inf_out.sample_id
fetches["gather_tree"] = s2s.gather_tree(tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]),
                                         tf.constant([[[0, 0], [0, 0]], [[1, 0], [1, 1]]]),
                                         tf.constant([2, 2]), 9)
fetches["hardmax"] = s2s.hardmax(tf.constant([[0.1, 0.7, 0.2], [0.5, 0.5, 0.0]]))
fetches["safe_cumprod"] = s2s.safe_cumprod(tf.constant([[0.5, 0.9, 0.1]]), axis=1)
fetches["monotonic"] = s2s.monotonic_attention(tf.constant([[0.3, 0.6, 0.2]]), tf.constant([[1.0, 0.0, 0.0]]),
                                               "parallel")
# legacy_seq2seq
lcell = tf.nn.rnn_cell.GRUCell(H)
enc = [tf.constant(rng.standard_normal([B, E]).astype(np.float32)) for _ in range(3)]
dec = [tf.constant(rng.standard_normal([B, E]).astype(np.float32)) for _ in range(4)]
with tf.variable_scope("legacy"):
    seq_out, seq_state = tf.contrib.legacy_seq2seq.basic_rnn_seq2seq(enc, dec, lcell)
    logits = [tf.layers.dense(o, V, name="proj", reuse=tf.AUTO_REUSE) for o in seq_out]
    dec_out, _ = tf.contrib.legacy_seq2seq.rnn_decoder(dec, seq_state, lcell, scope="again")
labels = [targets[:, i] for i in range(4)]
weights = [tf.ones([B]) for _ in range(4)]
fetches["legacy_out"] = seq_out
fetches["legacy_again"] = dec_out
fetches["legacy_loss"] = tf.contrib.legacy_seq2seq.sequence_loss(logits, labels, weights)
fetches["legacy_loss_by_example"] = tf.contrib.legacy_seq2seq.sequence_loss_by_example(logits, labels, weights)
# the rest of legacy_seq2seq: the embedding and attention models (the translate tutorial's), feed_previous as a
# bool and as a boolean Tensor (both decoders under a tf.cond), and model_with_buckets; trained with the rest
L, GRU, LSTM = tf.contrib.legacy_seq2seq, tf.nn.rnn_cell.GRUCell, tf.nn.rnn_cell.BasicLSTMCell
enc_ids = [tf.constant(rng.randint(0, 5, size=[B]).astype(np.int32)) for _ in range(3)]
dec_ids = [tf.constant(rng.randint(0, V, size=[B]).astype(np.int32)) for _ in range(4)]
with tf.variable_scope("legacy_models"):
    outs = {
        "tied": L.tied_rnn_seq2seq(enc, dec, GRU(E), loop_function=lambda prev, i: prev * 0.5),
        "emb": L.embedding_rnn_seq2seq(enc_ids, dec_ids, GRU(4), 5, V, 3),
        "emb_feed_tensor": L.embedding_rnn_seq2seq(enc_ids, dec_ids, LSTM(4), 5, V, 3, feed_previous=tf.constant(True),
                                                   scope="emb_feed"),
        "emb_tied_feed": L.embedding_tied_rnn_seq2seq(enc_ids, dec_ids, GRU(4), V, 3, feed_previous=True),
        "emb_tied_feed_tensor": L.embedding_tied_rnn_seq2seq(enc_ids, dec_ids, LSTM(4), V, 3, num_decoder_symbols=5,
                                                             feed_previous=tf.constant(False), scope="tied_feed"),
        "attn": L.embedding_attention_seq2seq(enc_ids, dec_ids, GRU(4), 5, V, 3, num_heads=2,
                                              initial_state_attention=True),
        "one2many": L.one2many_rnn_seq2seq(enc_ids, {"a": dec_ids, "b": dec_ids[:2]}, GRU(4), {"a": GRU(4), "b": GRU(4)},
                                           5, {"a": V, "b": 8}, 3, feed_previous=tf.constant(False)),
    }
    proj = (tf.get_variable("proj_w", [4, V]), tf.get_variable("proj_b", [V]))
    outs["attn_proj_feed_tensor"] = L.embedding_attention_seq2seq(
        enc_ids, dec_ids, LSTM(4), 5, V, 3, output_projection=proj, feed_previous=tf.constant(True), scope="attn_feed")
    attn_cell = GRU(4)
    buckets_out, bucket_losses = L.model_with_buckets(
        enc_ids, dec_ids, labels, weights, [(2, 2), (3, 4)],
        lambda e, d: L.embedding_attention_seq2seq(e, d, copy.deepcopy(attn_cell), 5, V, 3, feed_previous=False,
                                                   scope="buckets"))
    _, bucket_losses_by_example = L.model_with_buckets(
        enc_ids, dec_ids, labels, weights, [(3, 4)], lambda e, d: L.basic_rnn_seq2seq([tf.one_hot(x, 5) for x in e], [tf.one_hot(x, V) for x in d],
                                                                                  GRU(V), scope="per_example"),
        per_example_loss=True)
fetches["legacy_models"] = outs
fetches["legacy_buckets"] = [buckets_out, bucket_losses, bucket_losses_by_example]
report_errors("legacy_errors", (
    ("attention_no_inputs", lambda: L.attention_decoder([], enc[0], tf.zeros([B, 3, 4]), GRU(4))),
    ("attention_no_heads", lambda: L.attention_decoder(dec, enc[0], tf.zeros([B, 3, 4]), GRU(4), num_heads=0)),
    ("attention_unknown_size", lambda: L.attention_decoder(dec, enc[0], tf.placeholder(tf.float32, [B, 3, None]),
                                                           GRU(4))),
    ("buckets_too_long", lambda: L.model_with_buckets(enc_ids, dec_ids, labels, weights, [(5, 4)], None)),
    ("one2many_not_a_cell", lambda: L.one2many_rnn_seq2seq(enc_ids, {"a": dec_ids}, 4, {"a": GRU(4)}, 5, {"a": V}, 3)),
    ("one2many_keys", lambda: L.one2many_rnn_seq2seq(enc_ids, {"a": dec_ids}, GRU(4), {"b": GRU(4)}, 5, {"a": V}, 3)),
    ("projection_shape", lambda: L.embedding_rnn_decoder(dec_ids, enc[0], GRU(4), V, 3,
                                                         output_projection=(tf.zeros([4, 2]), tf.zeros([2])),
                                                         scope="bad_projection"))))
total = total + tf.add_n(bucket_losses) + tf.reduce_sum(bucket_losses_by_example) + L.sequence_loss(
    outs["attn"][0], labels, weights) + tf.add_n([tf.reduce_sum(o) for o in tf.nest.flatten(outs["one2many"])])
'''

RUN = r'''
report_variables()
train = tf.train.AdamOptimizer(0.01).minimize(total)
saver = tf.train.Saver(tf.global_variables())
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=11)
    for k, v in sorted(sess.run(fetches).items()):
        report(k, v)
    sess.run(train)
    report("loss_after_step", sess.run(total))
'''

SAVE_TF115 = r'''
train = tf.train.AdamOptimizer(0.01).minimize(total)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=11)
    sess.run(train)
    tf.train.Saver().save(sess, ORACLE_SHARED + "/s2s")
    report("next_loss", sess.run([total, train])[0])
    report("checkpoint", sorted(n for n, _ in tf.train.list_variables(ORACLE_SHARED + "/s2s")))
'''

RESTORE = r'''
train = tf.train.AdamOptimizer(0.01).minimize(total)
with tf.Session() as sess:
    tf.train.Saver().restore(sess, ORACLE_SHARED + "/s2s")
    report("next_loss", sess.run([total, train])[0])
    report("checkpoint", sorted(n for n, _ in tf.train.list_variables(ORACLE_SHARED + "/s2s")))
'''


@requires_tf115
def test_seq2seq_and_legacy_seq2seq_match_tf115():
  tf115, ours = run_both(BUILD + RUN)
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)


@requires_tf115
def test_seq2seq_checkpoint_written_by_tf115_restores_and_trains_on():
  with tempfile.TemporaryDirectory() as shared:
    written = run_tf115(BUILD + SAVE_TF115, shared=shared)
    restored = run_tf1clip(BUILD + RESTORE, shared=shared)
  assert os.path.basename(shared)
  assert_same(written, restored, rtol=2e-5, atol=2e-5)
