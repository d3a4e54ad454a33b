"""contrib.recurrent against TF 1.15.

`Recurrent` (explicit weights, full / shorter / end-aligned / single-step loops, a user's `cell_grad`) and
`functional_rnn` / `bidirectional_functional_rnn` on LSTM, GRU and basic cells (batch- and time-major, sequence
lengths, fast_reverse): outputs, final states, gradients and variable names. TF 1.15's own gradient for an
end-aligned loop shorter than its inputs fed the first step a zero state (tf1clip.contrib.recurrent says so and
uses state0); that case is run forward only. TF 1.15's Recurrent returned tensors of unknown shape (Defun outputs);
tf1clip's keep their static shapes, so only functional_rnn's shapes are compared.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.recurrent.Recurrent", "tf.contrib.recurrent.functional_rnn",
    "tf.contrib.recurrent.bidirectional_functional_rnn")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
c = tf.contrib
rng = np.random.RandomState(0)
x_np = rng.randn(3, 5, 4).astype(np.float32)
lengths = np.array([5, 2, 0], np.int32)
# Recurrent with explicit theta
w = tf.constant(rng.randn(4, 3).astype(np.float32))
u = tf.constant(rng.randn(3, 3).astype(np.float32))
xs = tf.constant(rng.randn(6, 2, 4).astype(np.float32))
s0 = {"h": tf.constant(rng.randn(2, 3).astype(np.float32))}
def cell_fn(theta, state0, inputs):
    h = tf.tanh(tf.matmul(inputs, theta["w"]) + tf.matmul(state0["h"], theta["u"]))
    return {"h": h}, []
theta = {"w": w, "u": u}
acc, final = c.recurrent.Recurrent(theta, s0, xs, cell_fn)
acc2, final2 = c.recurrent.Recurrent(theta, s0, xs, cell_fn, max_input_length=tf.constant(4))
acc3, final3 = c.recurrent.Recurrent(theta, s0, xs, cell_fn, max_input_length=tf.constant(3), aligned_end=True)
acc4, final4 = c.recurrent.Recurrent(theta, s0, xs[:1], cell_fn, max_input_length=1)
loss = tf.reduce_sum(acc["h"] * tf.range(1.0, 4.0)) + tf.reduce_sum(final["h"])
loss2 = tf.reduce_sum(acc2["h"]) + 2.0 * tf.reduce_sum(final2["h"])
def dense(grads):
    return dict(zip("w u xs h".split(), [tf.convert_to_tensor(g) for g in grads]))
grads = dense(tf.gradients(loss, [w, u, xs, s0["h"]]))
grads2 = dense(tf.gradients(loss2, [w, u, xs, s0["h"]]))
def cell_grad(theta, state0, inputs, extras, dstate1):
    # the true gradient of cell_fn, written out, times 2 (to see it is the one used)
    h = tf.tanh(tf.matmul(inputs, theta["w"]) + tf.matmul(state0["h"], theta["u"]))
    dz = 2.0 * dstate1["h"] * (1 - h * h)
    return ({"w": tf.matmul(inputs, dz, transpose_a=True), "u": tf.matmul(state0["h"], dz, transpose_a=True)},
            {"h": tf.matmul(dz, theta["u"], transpose_b=True)}, tf.matmul(dz, theta["w"], transpose_b=True))
acc5, final5 = c.recurrent.Recurrent(theta, s0, xs, cell_fn, cell_grad=cell_grad, max_input_length=tf.constant(5))
grads5 = dict(zip("w u xs h".split(), tf.gradients(tf.reduce_sum(acc5["h"]) + tf.reduce_sum(final5["h"]),
                                                  [w, u, xs, s0["h"]])))
# functional_rnn
x = tf.constant(x_np)
with tf.variable_scope("f1"):
    out1, st1 = c.recurrent.functional_rnn(tf.nn.rnn_cell.BasicLSTMCell(3), x, dtype=tf.float32)
with tf.variable_scope("f2"):
    out2, st2 = c.recurrent.functional_rnn(tf.nn.rnn_cell.GRUCell(3), x, sequence_length=lengths, dtype=tf.float32)
with tf.variable_scope("f3"):
    out3, st3 = c.recurrent.functional_rnn(tf.nn.rnn_cell.BasicRNNCell(3), tf.transpose(x, [1, 0, 2]),
                                           time_major=True, dtype=tf.float32)
with tf.variable_scope("f4"):
    (ofw, obw), (sfw, sbw) = c.recurrent.bidirectional_functional_rnn(
        tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.LSTMCell(2), x, dtype=tf.float32, sequence_length=lengths)
with tf.variable_scope("f5"):
    (ofw5, obw5), (sfw5, sbw5) = c.recurrent.bidirectional_functional_rnn(
        tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.GRUCell(2), x, dtype=tf.float32, fast_reverse=True)
rnn_loss = tf.reduce_sum(out1) + tf.reduce_sum(out2 * 2.0) + tf.reduce_sum(st2) + tf.reduce_sum(out3) + \
    tf.reduce_sum(ofw) + tf.reduce_sum(obw) + tf.reduce_sum(sbw.h) + tf.reduce_sum(obw5) + tf.reduce_sum(sbw5)
train_vars = tf.trainable_variables()
rnn_grads = tf.gradients(rnn_loss, train_vars + [x])
report_variables()
report("shapes", [str(t.shape) for t in (out1, st1.c, out2, st2, out3, ofw, obw)])
with tf.Session() as sess:
    init_from_numpy(sess, seed=3, scale=0.5)
    report("recurrent", sess.run({"acc": acc, "final": final, "acc2": acc2, "final2": final2, "acc3": acc3,
                                  "final3": final3, "acc4": acc4, "final4": final4, "grads": grads,
                                  "grads2": grads2, "acc5": acc5, "final5": final5, "grads5": grads5}))
    report("rnn", sess.run({"out1": out1, "st1": st1, "out2": out2, "st2": st2, "out3": out3, "st3": st3,
                            "ofw": ofw, "obw": obw, "sfw": sfw, "sbw": sbw, "ofw5": ofw5, "obw5": obw5,
                            "sfw5": sfw5, "sbw5": sbw5}))
    report("rnn_grads_none", [v.name for v, g in zip(train_vars + [x], rnn_grads) if g is None])
    report("rnn_grads", sess.run([g for g in rnn_grads if g is not None]))
'''


@requires_tf115
def test_recurrent_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
