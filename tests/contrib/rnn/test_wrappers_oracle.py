"""contrib.rnn's core_rnn_cell wrappers (EmbeddingWrapper, InputProjectionWrapper, OutputProjectionWrapper) and
helpers (transpose_batch_time, best_effort_input_batch_size, LayerRNNCell) against TF 1.15: variable names,
outputs, final states and gradients from the same weights, in dynamic_rnn and static_rnn; bad arguments."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.rnn." + n for n in (
    "EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper", "transpose_batch_time",
    "best_effort_input_batch_size", "LayerRNNCell", "ConvLSTMCell", "Conv1DLSTMCell", "Conv2DLSTMCell",
    "Conv3DLSTMCell"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
rnn = tf.contrib.rnn
rng = np.random.RandomState(0)
ids = tf.constant(rng.randint(0, 7, size=(3, 5)).astype(np.int32))   # [batch, time]
feats = tf.constant(rng.randn(3, 5, 4).astype(np.float32))
with tf.variable_scope("emb"):
    cell = rnn.OutputProjectionWrapper(rnn.EmbeddingWrapper(rnn.GRUCell(6), 7, 3), 2, activation=tf.tanh)
    out_e, state_e = tf.nn.dynamic_rnn(cell, ids[:, :, None], dtype=tf.float32)
with tf.variable_scope("proj"):
    cell2 = rnn.InputProjectionWrapper(rnn.BasicLSTMCell(5), 3, activation=tf.nn.relu)
    outs2, state2 = rnn.static_rnn(cell2, tf.unstack(feats, axis=1), dtype=tf.float32)
report("sizes", [cell.output_size, cell.state_size, cell2.output_size, list(cell2.state_size)])
report("is_layer_cell", isinstance(rnn.GRUCell(2), rnn.LayerRNNCell))
tm = rnn.transpose_batch_time(feats)
report("transposed_shape", tm.shape.as_list())
report("batch_static", rnn.best_effort_input_batch_size([tm]))
dyn = tf.placeholder(tf.float32, [5, None, 4])
report("batch_dynamic_is_tensor", isinstance(rnn.best_effort_input_batch_size([dyn]), tf.Tensor))
loss = tf.reduce_sum(out_e) + tf.reduce_sum(tf.stack(outs2)) + tf.reduce_sum(state_e)
grads = tf.gradients(loss, tf.trainable_variables())
report_errors("errors", (("embedding_classes", lambda: rnn.EmbeddingWrapper(rnn.GRUCell(2), 0, 3)),
                  ("output_size", lambda: rnn.OutputProjectionWrapper(rnn.GRUCell(2), 0)),
                  ("not_a_cell", lambda: rnn.InputProjectionWrapper("cell", 3))))
report_variables()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=4, scale=0.5)
    report("values", sess.run({"out_e": out_e, "state_e": state_e, "outs2": outs2, "state2": state2,
                               "tm": tm, "grads": grads}))
    report("batch_dynamic", sess.run(rnn.best_effort_input_batch_size([dyn]), {dyn: np.zeros([5, 2, 4])}))
'''


@requires_tf115
def test_core_rnn_cell_wrappers_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"] == {"embedding_classes": "ValueError", "output_size": "ValueError",
                             "not_a_cell": "TypeError"}
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)


CONV_SNIPPET = r'''
import numpy as np
import tensorflow as tf
rnn = tf.contrib.rnn
rng = np.random.RandomState(1)
runs = {}
for name, make, shape in (
        ("c1", lambda: rnn.Conv1DLSTMCell(input_shape=[6, 2], output_channels=3, kernel_shape=[3]), [2, 4, 6, 2]),
        ("c2", lambda: rnn.Conv2DLSTMCell(input_shape=[5, 5, 2], output_channels=3, kernel_shape=[3, 3],
                                          forget_bias=0.5), [2, 3, 5, 5, 2]),
        ("c3", lambda: rnn.Conv3DLSTMCell(input_shape=[3, 3, 3, 1], output_channels=2, kernel_shape=[2, 2, 2],
                                          use_bias=False), [1, 2, 3, 3, 3, 1]),
        ("generic", lambda: rnn.ConvLSTMCell(2, [4, 4, 1], 2, [1, 1]), [2, 2, 4, 4, 1])):
    with tf.variable_scope(name):
        cell = make()
        x = tf.constant(rng.randn(*shape).astype(np.float32))
        out, state = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        runs[name] = (out, state, tf.gradients(tf.reduce_sum(out), tf.trainable_variables(name)))
        report("sizes_" + name, [cell.output_size.as_list(), cell.state_size.c.as_list()])
# skip_connection: h grows by the input's channels, so (in TF 1.15 too) only a single step runs; dynamic_rnn
# refuses the changing state shape
with tf.variable_scope("skip"):
    skip = rnn.Conv2DLSTMCell(input_shape=[5, 5, 2], output_channels=3, kernel_shape=[3, 3], skip_connection=True)
    x1 = tf.constant(rng.randn(2, 5, 5, 2).astype(np.float32))
    runs["skip"] = skip(x1, skip.zero_state(2, tf.float32))
    report("sizes_skip", [skip.output_size.as_list(), skip.state_size.h.as_list()])
try:
    rnn.Conv2DLSTMCell(input_shape=[5, 2], output_channels=3, kernel_shape=[3, 3])
    report("error", "no error")
except Exception as e:
    report("error", type(e).__name__)
report_variables()
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=2, scale=0.3)
    report("values", sess.run(runs))
'''


@requires_tf115
def test_conv_lstm_cells_match_tf115():
  tf115, ours = run_both(CONV_SNIPPET)
  assert tf115["error"] == "ValueError"
  assert ["c2/rnn/conv_2d_lstm_cell/kernel", [3, 3, 5, 12]] in tf115["variables"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
