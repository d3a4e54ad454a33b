"""Old checkpoints restore: a model trained on TF 1.15 with this wave's contrib names (AdamW, Nadam, AdaMax, LARS,
MovingAverageOptimizer, OutputProjectionWrapper/EmbeddingWrapper, ConvLSTMCell, grid_rnn's Grid2LSTMCell trained by ShampooOptimizer) is saved by tf.train.Saver;
the same script under tf1clip restores that checkpoint (every key: weights, slots, beta powers, averages) and
its next steps end where TF 1.15's own continuation ends."""

import os
import tempfile

from harness import assert_same, requires_tf115, run_tf115, run_tf1clip

ORACLE_TESTED = ("tf.contrib.opt.AdamWOptimizer", "tf.contrib.opt.NadamOptimizer", "tf.contrib.opt.AdaMaxOptimizer",
                 "tf.contrib.opt.LARSOptimizer", "tf.contrib.opt.MovingAverageOptimizer",
                 "tf.contrib.rnn.OutputProjectionWrapper", "tf.contrib.rnn.EmbeddingWrapper",
                 "tf.contrib.rnn.Conv2DLSTMCell", "tf.contrib.grid_rnn.Grid2LSTMCell",
                 "tf.contrib.opt.ShampooOptimizer")

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
saver = tf.train.Saver()
path = os.path.join(ORACLE_SHARED, "model.ckpt")
'''

TRAIN_AND_SAVE = MODEL + r'''
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(3):
        for train in trains:
            sess.run(train)
    saver.save(sess, path)
    report("keys", sorted(k for k, _ in tf.train.list_variables(path)))
    for _ in range(3):
        for train in trains:
            sess.run(train)
    report("continued", sess.run({v.op.name: v for v in tf.global_variables()}))
'''

RESTORE_AND_CONTINUE = MODEL + r'''
report("keys", sorted(v.op.name for v in tf.global_variables()))
with tf.Session() as sess:
    saver.restore(sess, path)
    for _ in range(3):
        for train in trains:
            sess.run(train)
    report("continued", sess.run({v.op.name: v for v in tf.global_variables()}))
'''


@requires_tf115
def test_a_tf115_checkpoint_restores_and_training_continues_as_on_tf115():
  with tempfile.TemporaryDirectory() as shared:
    theirs = run_tf115(TRAIN_AND_SAVE, shared=shared)
    assert os.path.exists(os.path.join(shared, "model.ckpt.index"))
    ours = run_tf1clip(RESTORE_AND_CONTINUE, shared=shared)
  assert any(k.endswith("/AdamW_1") for k in theirs["keys"]) and any(
      k.endswith("ExponentialMovingAverage") for k in theirs["keys"]), theirs["keys"]
  assert sorted(theirs["keys"]) == sorted(ours["keys"])  # every variable of the graph is in the checkpoint
  assert_same(theirs, ours, rtol=2e-5, atol=1e-6, keys=["continued"])
