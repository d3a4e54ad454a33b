"""tf.contrib.training's sequence state saver against TF 1.15: batch_sequences_with_states over three fed examples
(padding to num_unroll, a SparseTensor sequence and a SparseTensor context, one prefetch thread run by hand) driving
tf.nn.static_state_saving_rnn from the same init_from_numpy values: every batch's keys, next keys, sequence numbers,
lengths, inputs, states and RNN outputs over three takes; SequenceQueueingStateSaver used directly (save_state,
barrier layout, names, summaries) and the construction / run-time errors."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.training.batch_sequences_with_states", "tf.contrib.training.SequenceQueueingStateSaver",
                 "tf.contrib.training.NextQueuedSequenceBatch")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
training = tf.contrib.training
config = tf.ConfigProto(operation_timeout_in_ms=20000)
rng = np.random.RandomState(0)

def sparse_value(value):
    return {"indices": value.indices, "values": value.values, "dense_shape": value.dense_shape}

# -- batch_sequences_with_states + static_state_saving_rnn ---------------------------------------------------
with tf.Graph().as_default():
    key = tf.placeholder(tf.string, [])
    seq = tf.placeholder(tf.float32, [None, 2])
    ctx = tf.placeholder(tf.float32, [3])
    sp_seq = tf.sparse_placeholder(tf.int64, shape=[None, 3])
    sp_ctx = tf.sparse_placeholder(tf.int64, shape=[4])
    batch = training.batch_sequences_with_states(
        input_key=key, input_sequences={"x": seq, "s": sp_seq}, input_context={"c": ctx, "sc": sp_ctx},
        input_length=None, initial_states={"h": tf.zeros([3])}, num_unroll=2, batch_size=2, num_threads=1,
        capacity=4)
    report("batch_type", [type(batch).__name__, isinstance(batch, training.NextQueuedSequenceBatch)])
    report("sequence_keys", sorted(batch.sequences))
    report("context_keys", sorted(batch.context))
    report("shapes", {"x": batch.sequences["x"].shape.as_list(), "c": batch.context["c"].shape.as_list(),
                      "h": batch.state("h").shape.as_list(), "key": batch.key.shape.as_list()})
    report("summaries", sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))
    runners = tf.get_collection(tf.GraphKeys.QUEUE_RUNNERS)
    report("queue_runners", [len(r.enqueue_ops) for r in runners])
    cell = tf.nn.rnn_cell.BasicRNNCell(3)
    outputs, state = tf.nn.static_state_saving_rnn(
        cell, tf.unstack(batch.sequences["x"], axis=1), state_saver=batch, state_name="h",
        sequence_length=batch.length)
    report_variables("rnn_variables")
    fetch = {"key": batch.key, "next_key": batch.next_key, "sequence": batch.sequence,
             "sequence_count": batch.sequence_count, "length": batch.length, "total_length": batch.total_length,
             "batch_size": batch.batch_size, "insertion_index": batch.insertion_index,
             "x": batch.sequences["x"], "c": batch.context["c"], "h": batch.state("h"), "outputs": outputs,
             "state": state, "s": batch.sequences["s"], "sc": batch.context["sc"]}
    lengths = [3, 4, 1]
    examples = []
    for i, n in enumerate(lengths):
        sp_s = tf.SparseTensorValue([[t, t % 3] for t in range(n)], list(range(10 * i, 10 * i + n)), [n, 3])
        sp_c = tf.SparseTensorValue([[i % 4]], [100 + i], [4])
        examples.append({key: "ex%d" % i, seq: rng.randn(n, 2).astype(np.float32),
                         ctx: np.full([3], i, np.float32), sp_seq: sp_s, sp_ctx: sp_c})
    with tf.Session(config=config) as sess:
        init_from_numpy(sess, seed=7)
        prefetch = runners[0].enqueue_ops[0]
        for feed in examples:
            sess.run(prefetch, feed_dict=feed)
        report("ready_after_prefetch", sess.run(runners[0].queue.barrier.ready_size()))
        sess.run(runners[0].queue.close())
        for step in range(3):
            got = sess.run(fetch)
            for name in ("s", "sc"):
                got[name] = sparse_value(got[name])
            for name, value in sorted(got.items()):
                report("take%d/%s" % (step, name), value)
        report_errors("after_last", [("take", lambda: sess.run(batch.key))])

# -- SequenceQueueingStateSaver directly ---------------------------------------------------------------------
with tf.Graph().as_default():
    key = tf.placeholder(tf.string, [])
    seq = tf.placeholder(tf.int32, [None])
    length = tf.placeholder(tf.int32, [])
    saver = training.SequenceQueueingStateSaver(
        batch_size=2, num_unroll=2, input_length=length, input_key=key, input_sequences={"x": seq, "a": seq * 2},
        input_context={"c": tf.constant([1.0, 2.0])}, initial_states={"st": tf.constant([0.5, 0.5]),
                                                                       "n": tf.constant(0)},
        capacity=3, allow_small_batch=True, name="sqss")
    report("sqss_name", saver.name)
    report("sqss_attributes", [saver.batch_size, saver.num_unroll])
    nb = saver.next_batch
    report("sqss_batch_type", [type(nb).__name__, isinstance(nb, training.NextQueuedSequenceBatch)])
    new_st = nb.state("st") + tf.cast(nb.sequences["x"][:, :1], tf.float32)
    save = tf.group(nb.save_state("st", new_st), nb.save_state("n", nb.state("n") + 1))
    fetch = {"key": nb.key, "x": nb.sequences["x"], "a": nb.sequences["a"], "st": nb.state("st"),
             "n": nb.state("n"), "c": nb.context["c"], "length": nb.length, "sequence": nb.sequence}
    with tf.Session(config=config) as sess:
        sess.run(saver.prefetch_op, {key: "k0", seq: [1, 2, 3, 4], length: 4})
        sess.run(saver.prefetch_op, {key: "k1", seq: [5, 6, 7, 8, 9, 10], length: 5})
        takes = [sess.run([fetch, save])[0] for _ in range(2)]
        report("sqss_sizes", sess.run([saver.barrier.ready_size(), saver.barrier.incomplete_size()]))
        report_errors("sqss_runtime", [
            ("not_multiple", lambda: sess.run(saver.prefetch_op, {key: "bad", seq: [1, 2, 3], length: 3})),
            ("length_too_long", lambda: sess.run(saver.prefetch_op, {key: "bad2", seq: [1, 2], length: 3})),
        ])
        sess.run(saver.close())
        report_errors("sqss_closed", [("prefetch", lambda: sess.run(saver.prefetch_op, {key: "k9", seq: [1, 2],
                                                                                          length: 2}))])
        takes.append(sess.run(fetch))  # the last segment of k1: a small batch, the barrier being closed
        for i, got in enumerate(takes):
            for name, value in sorted(got.items()):
                report("sqss_take%d/%s" % (i, name), value)
        report_errors("sqss_empty", [("take", lambda: sess.run(fetch))])
    report_errors("sqss_save_unknown", [("unknown_state", lambda: nb.save_state("nope", new_st))])

def build(**kw):
    with tf.Graph().as_default():
        args = dict(batch_size=2, num_unroll=2, input_length=tf.constant(2), input_key=tf.constant("k"),
                    input_sequences={"x": tf.constant([1, 2])}, input_context={},
                    initial_states={"s": tf.constant(0)})
        args.update(kw)
        return training.SequenceQueueingStateSaver(**args)
report_errors("construction", [
    ("empty_states", lambda: build(initial_states={})),
    ("states_not_dict", lambda: build(initial_states=[tf.constant(0)])),
    ("state_colon", lambda: build(initial_states={"a:b": tf.constant(0)})),
    ("sequence_colon", lambda: build(input_sequences={"a:b": tf.constant([1, 2])})),
    ("no_sequences", lambda: build(input_sequences={})),
    ("capacity", lambda: build(capacity=1)),
    ("length_dtype", lambda: build(input_length=tf.constant(2, tf.int64))),
    ("key_dtype", lambda: build(input_key=tf.constant(1))),
    ("undefined_state_shape", lambda: build(initial_states={"s": tf.placeholder(tf.float32, [None])})),
    ("num_unroll_tensor", lambda: training.batch_sequences_with_states(
        tf.constant("k"), {"x": tf.constant([1.0])}, {}, None, {"s": tf.constant(0)}, tf.constant(2), 2)),
])
'''


@requires_tf115
def test_contrib_training_state_saver_against_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours)
