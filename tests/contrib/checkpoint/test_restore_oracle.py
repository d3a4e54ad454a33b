"""Old checkpoints restore: a model trained on TF 1.15 with the contrib modules that keep state in a checkpoint is
saved by tf.train.Saver; the same script under tf1clip restores that checkpoint (every key: weights, slots, beta
powers, averages, tables), saves the same keys again, and its next steps end where TF 1.15's own continuation ends.

In the model: opt (AdamW, Nadam, AdaMax, LARS, MovingAverageOptimizer, Shampoo), rnn (OutputProjectionWrapper /
EmbeddingWrapper, ConvLSTMCell), grid_rnn's Grid2LSTMCell; layers (conv2d with batch_norm's moving statistics,
layer_norm, fully_connected, trained by optimize_loss with Adam and gradient clipping), cudnn_rnn's CPU-compatible
LSTM / GRU cells and crf's transition matrix (Adagrad), legacy_seq2seq's embedding_attention_seq2seq (RMSProp),
mixed_precision's LossScaleOptimizer (the loss scale and its step counters), model_pruning (masked layer, mask
thresholds and the last mask-update step), factorization's KMeans and lookup's mutable tables; and, in a graph of its own, contrib.quantize's training
rewrite (the fake-quant ranges' variables and moving averages); constrained_optimization's multiplicative swap-regret
state and optimizer_v2's Adam."""

import os
import tempfile

from harness import assert_same, requires_tf115, run_tf115, run_tf1clip

ORACLE_TESTED = ("tf.contrib.opt.AdamWOptimizer", "tf.contrib.opt.NadamOptimizer", "tf.contrib.opt.AdaMaxOptimizer",
                 "tf.contrib.opt.LARSOptimizer", "tf.contrib.opt.MovingAverageOptimizer",
                 "tf.contrib.rnn.OutputProjectionWrapper", "tf.contrib.rnn.EmbeddingWrapper",
                 "tf.contrib.rnn.Conv2DLSTMCell", "tf.contrib.grid_rnn.Grid2LSTMCell",
                 "tf.contrib.opt.ShampooOptimizer", "tf.contrib.layers.optimize_loss", "tf.contrib.layers.batch_norm",
                 "tf.contrib.layers.layer_norm", "tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell",
                 "tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell", "tf.contrib.crf.crf_log_likelihood",
                 "tf.contrib.legacy_seq2seq.embedding_attention_seq2seq",
                 "tf.contrib.mixed_precision.ExponentialUpdateLossScaleManager",
                 "tf.contrib.mixed_precision.LossScaleOptimizer", "tf.contrib.model_pruning.masked_fully_connected",
                 "tf.contrib.model_pruning.Pruning", "tf.contrib.factorization.KMeans",
                 "tf.contrib.lookup.MutableHashTable", "tf.contrib.lookup.MutableDenseHashTable",
                 "tf.contrib.quantize.create_training_graph",
                 "tf.contrib.constrained_optimization.MultiplicativeSwapRegretOptimizer",
                 "tf.contrib.optimizer_v2.AdamOptimizer")

MODEL = r'''
import os
import numpy as np
import tensorflow as tf
rnn, opt = tf.contrib.rnn, tf.contrib.opt
rng = np.random.RandomState(0)
ids = tf.constant(rng.randint(0, 9, size=(4, 5, 1)).astype(np.int32))
frames = tf.constant(rng.randn(2, 3, 4, 4, 1).astype(np.float32))
with tf.variable_scope("seq"):
    cell = rnn.OutputProjectionWrapper(rnn.EmbeddingWrapper(rnn.GRUCell(6), 9, 3), 2)
    out, _ = tf.nn.dynamic_rnn(cell, ids, dtype=tf.float32)
with tf.variable_scope("video"):
    conv = rnn.Conv2DLSTMCell(input_shape=[4, 4, 1], output_channels=2, kernel_shape=[3, 3])
    video, _ = tf.nn.dynamic_rnn(conv, frames, dtype=tf.float32)
loss_seq = tf.reduce_mean(tf.square(out - 0.5))
loss_video = tf.reduce_mean(tf.square(video - 0.25))
video_vars = tf.trainable_variables("video")
bias = [v for v in tf.trainable_variables("seq") if v.op.name.endswith("output_projection_wrapper/bias")]
seq_vars = [v for v in tf.trainable_variables("seq") if v not in bias]
# Each update runs on its own (one sess.run each): updates of variables another loss reads would race. AdamW's
# loss is linear in its variable, so its decay cannot race its own gradient (as in TF 1.15, nothing orders them).
trains = [
    opt.AdamWOptimizer(0.01, learning_rate=0.05).minimize(tf.reduce_sum(out), var_list=bias),
    opt.NadamOptimizer(0.05).minimize(loss_seq, var_list=seq_vars[1:]),
    opt.AdaMaxOptimizer(0.05).minimize(loss_video, var_list=video_vars[:1]),
    opt.LARSOptimizer(0.5, eeta=0.1).minimize(loss_video, var_list=video_vars[1:]),
]
with tf.variable_scope("grid", initializer=tf.glorot_uniform_initializer(seed=1)):
    grid_out, _ = tf.nn.dynamic_rnn(tf.contrib.grid_rnn.Grid2LSTMCell(2, non_recurrent_fn=tf.nn.tanh),
                                    tf.reshape(frames, [2, 3, 16]), dtype=tf.float32)
trains.append(opt.ShampooOptimizer(learning_rate=0.05, gbar_decay=0.5, svd_interval=2).minimize(tf.reduce_mean(tf.square(grid_out[0] - 0.1)),
                                                    var_list=tf.trainable_variables("grid/")))
average = opt.MovingAverageOptimizer(tf.train.GradientDescentOptimizer(0.1), average_decay=0.5)
trains.append(average.minimize(loss_seq + loss_video, var_list=[seq_vars[-1]]))
# contrib.layers (tf-slim's conv2d / batch_norm / layer_norm / fully_connected) trained by optimize_loss
c = tf.contrib
pics = tf.constant(rng.rand(4, 6, 6, 2).astype(np.float32))
classes = tf.constant(rng.randint(0, 3, size=(4,)).astype(np.int64))
with tf.variable_scope("cnn"):
    net = c.layers.conv2d(pics, 3, [3, 3], normalizer_fn=c.layers.batch_norm,
                          normalizer_params={"is_training": True, "decay": 0.9})
    net = c.layers.layer_norm(c.layers.flatten(net))
    logits = c.layers.fully_connected(net, 3, activation_fn=None)
    cnn_loss = tf.losses.sparse_softmax_cross_entropy(classes, logits)
trains.append(c.layers.optimize_loss(cnn_loss, tf.train.get_or_create_global_step(), 0.05, "Adam",
                                     clip_gradients=0.5, summaries=[], variables=tf.trainable_variables("cnn")))
# contrib.crf: the transition matrix; contrib.cudnn_rnn's CPU-compatible cells
tags = tf.constant(rng.randint(0, 3, size=(2, 4)).astype(np.int32))
with tf.variable_scope("tagger"):
    feats, _ = tf.nn.dynamic_rnn(c.cudnn_rnn.CudnnCompatibleLSTMCell(3), tf.reshape(frames[:, :, :2, :2, 0], [2, 3, 4]),
                                 dtype=tf.float32)
    feats2, _ = tf.nn.dynamic_rnn(c.cudnn_rnn.CudnnCompatibleGRUCell(3), feats, dtype=tf.float32, scope="gru")
    unary = tf.concat([feats2, feats2[:, :1]], axis=1)
    log_likelihood, transitions = c.crf.crf_log_likelihood(unary, tags, tf.constant([4, 3]))
trains.append(tf.train.AdagradOptimizer(0.1).minimize(-tf.reduce_mean(log_likelihood),
                                                       var_list=tf.trainable_variables("tagger")))
# contrib.legacy_seq2seq: an attention seq2seq model
enc = [tf.constant(rng.randint(0, 7, size=(2,)).astype(np.int32)) for _ in range(3)]
dec = [tf.constant(rng.randint(0, 7, size=(2,)).astype(np.int32)) for _ in range(3)]
with tf.variable_scope("translate"):
    outs, _ = c.legacy_seq2seq.embedding_attention_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(4), 7, 7, 3)
    s2s_loss = c.legacy_seq2seq.sequence_loss(outs, dec, [tf.ones([2])] * 3)
trains.append(tf.train.RMSPropOptimizer(0.05).minimize(s2s_loss, var_list=tf.trainable_variables("translate")))
# contrib.mixed_precision: the loss scale and its step counters live in variables
manager = c.mixed_precision.ExponentialUpdateLossScaleManager(init_loss_scale=8.0, incr_every_n_steps=2)
scaled = c.mixed_precision.LossScaleOptimizer(tf.train.GradientDescentOptimizer(0.1), manager)
trains.append(scaled.minimize(cnn_loss, var_list=tf.trainable_variables("cnn")[-1:]))
# contrib.model_pruning: masks and thresholds updated with the weights
with tf.variable_scope("pruned"):
    pruned = c.model_pruning.masked_fully_connected(tf.reshape(pics, [4, -1]), 5)
    pruning = c.model_pruning.Pruning(c.model_pruning.get_pruning_hparams().parse(
        "target_sparsity=0.5,begin_pruning_step=0,end_pruning_step=20,pruning_frequency=1"),
        global_step=tf.train.get_or_create_global_step())
    prune_loss = tf.reduce_mean(tf.square(pruned - 0.3))
trains.append(tf.group(tf.train.GradientDescentOptimizer(0.2).minimize(
    prune_loss, var_list=tf.trainable_variables("pruned"))))
trains.append(pruning.conditional_mask_update_op())
# contrib.factorization: k-means (its centers and its initialized flag are variables)
points = tf.constant(rng.rand(12, 2).astype(np.float32))
# full-batch: TF 1.15's mini-batch update races with itself (two TF 1.15 runs end 2e-2 apart)
kmeans = c.factorization.KMeans(points, 3, initial_clusters=points[:3], use_mini_batch=False)
_, _, _, _, kmeans_init, kmeans_train = kmeans.training_graph()
trains.append(kmeans_train)
# contrib.lookup: mutable tables are checkpointed with the variables
table = c.lookup.MutableHashTable(tf.string, tf.int64, -1, name="words")
dense_table = c.lookup.MutableDenseHashTable(tf.int64, tf.float32, default_value=0.0, empty_key=-1, deleted_key=-2,
                                            name="ids")
step_now = tf.cast(tf.train.get_or_create_global_step(), tf.int64)
fill = tf.group(table.insert(tf.constant(["a", "b"]), tf.stack([step_now, step_now + 1])),
                dense_table.insert(tf.stack([step_now % 5, tf.constant(7, tf.int64)]),
                                   tf.cast(tf.stack([step_now, -step_now]), tf.float32)))
trains.append(fill)
tables = {"words": table.export(), "ids": dense_table.export(), "words_b": table.lookup(tf.constant(["b", "z"]))}
# contrib.constrained_optimization: the swap-regret state matrix and the constraint optimizer's slots
class Problem(c.constrained_optimization.ConstrainedMinimizationProblem):
    def __init__(self, w):
        self.w = w

    @property
    def objective(self):
        return tf.reduce_sum(tf.square(self.w - tf.constant([1.0, 2.0])))

    @property
    def constraints(self):
        return tf.stack([self.w[0] + self.w[1] - 1.0, self.w[0] - 0.2])
with tf.variable_scope("constrained"):
    w_constrained = tf.get_variable("w", initializer=tf.constant([0.5, 0.25]))
    trains.append(c.constrained_optimization.MultiplicativeSwapRegretOptimizer(
        tf.train.GradientDescentOptimizer(0.1), constraint_optimizer=tf.train.AdagradOptimizer(0.5)).minimize(
            Problem(w_constrained), var_list=[w_constrained]))
# contrib.optimizer_v2: its Adam's slots and beta powers
with tf.variable_scope("optimizer_v2"):
    w_v2 = tf.get_variable("w", initializer=tf.constant([1.0, -1.0]))
    trains.append(c.optimizer_v2.AdamOptimizer(0.1).minimize(tf.reduce_sum(tf.square(w_v2 - 0.3)), var_list=[w_v2]))
saver = tf.train.Saver()
path = os.path.join(ORACLE_SHARED, "model.ckpt")


def quantized_model():
    """contrib.quantize's training rewrite (fake-quant ops, their min/max variables) on a graph of its own."""
    graph = tf.Graph()
    with graph.as_default():
        pics_q = tf.constant(np.random.RandomState(1).rand(4, 6, 6, 2).astype(np.float32))
        net_q = c.layers.conv2d(pics_q, 3, [3, 3], activation_fn=tf.nn.relu6, scope="qconv")
        logits_q = c.layers.fully_connected(c.layers.flatten(net_q), 2, activation_fn=None, scope="qfc")
        loss_q = tf.reduce_mean(tf.square(logits_q - 0.5))
        c.quantize.create_training_graph(graph, quant_delay=0)
        train_q = tf.train.GradientDescentOptimizer(0.1).minimize(loss_q)
        values_q = {v.op.name: v for v in tf.global_variables()}
        saver_q = tf.train.Saver(var_list=list(values_q.values()))
    return graph, train_q, saver_q, values_q


path_q = os.path.join(ORACLE_SHARED, "quantized.ckpt")


def report_state(sess):
    report("continued", sess.run({v.op.name: v for v in tf.global_variables()}))
    found = sess.run(tables)
    report("tables", {"words": sorted(zip(found["words"][0].tolist(), found["words"][1].tolist())),
                      "ids": sorted(zip(found["ids"][0].tolist(), found["ids"][1].tolist())),
                      "words_b": found["words_b"]})
'''

TRAIN_AND_SAVE = MODEL + r'''
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(kmeans_init)
    for _ in range(3):
        for train in trains:
            sess.run(train)
    saver.save(sess, path)
    report("keys", sorted(k for k, _ in tf.train.list_variables(path)))
    for _ in range(3):
        for train in trains:
            sess.run(train)
    report_state(sess)
graph_q, train_q, saver_q, values_q = quantized_model()
with tf.Session(graph=graph_q) as sess:
    sess.run(tf.variables_initializer(list(values_q.values())))
    for _ in range(3):
        sess.run(train_q)
    saver_q.save(sess, path_q)
    report("keys_quantized", sorted(k for k, _ in tf.train.list_variables(path_q)))
    for _ in range(3):
        sess.run(train_q)
    report("continued_quantized", sess.run(values_q))
'''

RESTORE_AND_CONTINUE = MODEL + r'''
with tf.Session() as sess:
    saver.restore(sess, path)
    # what this graph saves: every variable and table, under TF 1.15's keys
    report("keys", sorted(k for k, _ in tf.train.list_variables(saver.save(sess, os.path.abspath("resaved.ckpt")))))
    for _ in range(3):
        for train in trains:
            sess.run(train)
    report_state(sess)
graph_q, train_q, saver_q, values_q = quantized_model()
with tf.Session(graph=graph_q) as sess:
    saver_q.restore(sess, path_q)
    report("keys_quantized", sorted(k for k, _ in tf.train.list_variables(
        saver_q.save(sess, os.path.abspath("resaved_quantized.ckpt")))))
    for _ in range(3):
        sess.run(train_q)
    report("continued_quantized", sess.run(values_q))
'''


@requires_tf115
def test_a_tf115_checkpoint_restores_and_training_continues_as_on_tf115():
  with tempfile.TemporaryDirectory() as shared:
    theirs = run_tf115(TRAIN_AND_SAVE, shared=shared)
    assert os.path.exists(os.path.join(shared, "model.ckpt.index"))
    ours = run_tf1clip(RESTORE_AND_CONTINUE, shared=shared)
  assert any(k.endswith("/AdamW_1") for k in theirs["keys"]) and any(
      k.endswith("ExponentialMovingAverage") for k in theirs["keys"]), theirs["keys"]
  assert sorted(theirs["keys"]) == sorted(ours["keys"])  # every variable and table of the graph is in the checkpoint
  assert any("weights_quant/min" in k for k in theirs["keys_quantized"]), theirs["keys_quantized"]
  assert_same(theirs, ours, rtol=2e-5, atol=1e-6, keys=["continued", "tables", "keys_quantized", "continued_quantized"])
