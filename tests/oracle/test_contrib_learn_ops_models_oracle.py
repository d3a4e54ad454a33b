"""contrib.learn's ops (embeddings, linear losses, seq2seq helpers) and models (linear / logistic regression)
against TF 1.15: variables, values from the same weights, the histogram summaries' tags, and a training step."""

from harness import assert_same, requires_tf115, run_both

OPS = ("embeddings_ops", "losses_ops", "seq2seq_ops", "categorical_variable", "embedding_lookup",
       "mean_squared_error_regressor", "softmax_classifier", "rnn_decoder", "rnn_seq2seq", "seq2seq_inputs",
       "sequence_classifier")
MODELS = ("linear_regression", "linear_regression_zero_init", "logistic_regression", "logistic_regression_zero_init")
ORACLE_TESTED = ("tf.contrib.learn.ops", "tf.contrib.learn.models") + tuple(
    "tf.contrib.learn.ops." + n for n in OPS) + tuple("tf.contrib.learn.models." + n for n in MODELS)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
ops, models = tf.contrib.learn.ops, tf.contrib.learn.models
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(5, 3).astype(np.float32))
y_reg = tf.constant(rng.randn(5).astype(np.float32))
y_onehot = tf.one_hot([0, 1, 1, 0, 1], 2)
ids = tf.constant([[0, 2], [1, 1]])
out = {}
with tf.variable_scope("emb"):
    out["lookup"] = ops.embedding_lookup(tf.constant(rng.randn(4, 3).astype(np.float32)), ids)
    out["categorical"] = ops.embeddings_ops.categorical_variable(ids, 4, 2, "cat")
with tf.variable_scope("lin"):
    out["linear"] = models.linear_regression(x, y_reg)
with tf.variable_scope("lin0"):
    out["linear_zero"] = models.linear_regression_zero_init(x, tf.stack([y_reg, y_reg], 1))
with tf.variable_scope("log"):
    out["logistic"] = models.logistic_regression(x, y_onehot, class_weight=[1.0, 2.0])
tf.constant([1.0, 3.0], name="class_weight")  # read by name when no class_weight is given, as TF 1.15 did
with tf.variable_scope("log0"):
    out["logistic_zero"] = models.logistic_regression_zero_init(x, y_onehot)
w, b = tf.constant(rng.randn(3, 2).astype(np.float32)), tf.constant([0.1, -0.2])
out["mse"] = ops.losses_ops.mean_squared_error_regressor(x, y_onehot, w, b)
out["softmax"] = ops.softmax_classifier(x, y_onehot, w, b)
seq_x = tf.constant(rng.randn(2, 3, 4).astype(np.float32))
seq_y = tf.constant(rng.randn(2, 2, 4).astype(np.float32))
in_x, in_y, out_y = ops.seq2seq_inputs(seq_x, seq_y, 3, 2)
cell = tf.nn.rnn_cell.GRUCell(4)
decoded, states, sampled, sampled_states = ops.rnn_seq2seq(in_x, in_y, cell)
out["seq2seq"] = [decoded, sampled, states[-1]]
with tf.variable_scope("dec2"):
    out["decoder"] = ops.seq2seq_ops.rnn_decoder(in_y, states[-1], tf.nn.rnn_cell.BasicRNNCell(4))[0]
out["sequence_classifier"] = ops.sequence_classifier(decoded, [tf.nn.softmax(t) for t in out_y], sampled)
report("summaries", sorted(op.name for op in tf.get_collection(tf.GraphKeys.SUMMARIES)))
report_variables()
train = tf.train.GradientDescentOptimizer(0.1).minimize(out["linear"][1] + out["logistic"][1])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    init_from_numpy(sess, seed=2, scale=0.5)
    report("values", sess.run(out))
    sess.run(train)
    report("after_step", sess.run([out["linear"][1], out["logistic"][1]]))
'''


@requires_tf115
def test_contrib_learn_ops_and_models_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
