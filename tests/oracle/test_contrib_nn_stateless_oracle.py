"""contrib.nn and contrib.stateless against TF 1.15: values and gradients of the ported ops (alpha_dropout with
the same op seed, scaled_softplus with and without clip, nth_element, the flipped losses), the served
conv1d_transpose and stateless random ops (same seeds, same numbers), and the errors for bad arguments."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.nn." + n for n in (
    "alpha_dropout", "scaled_softplus", "nth_element", "conv1d_transpose",
    "deprecated_flipped_softmax_cross_entropy_with_logits",
    "deprecated_flipped_sparse_softmax_cross_entropy_with_logits",
    "deprecated_flipped_sigmoid_cross_entropy_with_logits")) + tuple("tf.contrib.stateless." + n for n in (
        "stateless_random_uniform", "stateless_random_normal", "stateless_truncated_normal",
        "stateless_multinomial"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
nn, st = tf.contrib.nn, tf.contrib.stateless
tf.set_random_seed(7)
rng = np.random.RandomState(0)
x = tf.constant(rng.randn(4, 6).astype(np.float32))
alpha = tf.constant([0.5, 1.0, 2.0, 0.5, 1.0, 3.0])
clip = tf.constant(1.5)
out = {
    "alpha_dropout": nn.alpha_dropout(x, 0.7, seed=3),
    "alpha_dropout_shape": nn.alpha_dropout(x, 0.5, noise_shape=[4, 1], seed=5),
    "alpha_dropout_keep_all_is_x": tf.reduce_all(tf.equal(nn.alpha_dropout(x, 1.0), x)),
    "softplus": nn.scaled_softplus(x, alpha),
    "softplus_clip": nn.scaled_softplus(x, alpha, clip),
    "nth": nn.nth_element(x, 2),
    "nth_reverse": nn.nth_element(x, 0, reverse=True),
    "flipped_softmax": nn.deprecated_flipped_softmax_cross_entropy_with_logits(x, tf.nn.softmax(x * 2)),
    "flipped_sparse": nn.deprecated_flipped_sparse_softmax_cross_entropy_with_logits(x, [0, 5, 2, 1]),
    "flipped_sigmoid": nn.deprecated_flipped_sigmoid_cross_entropy_with_logits(x, tf.sigmoid(x * 3)),
    "conv1d_transpose": nn.conv1d_transpose(tf.reshape(x, [2, 4, 3]), tf.ones([3, 2, 3]), [2, 8, 2], 2),
    "uniform": st.stateless_random_uniform([3, 4], seed=[1, 2]),
    "uniform_int": st.stateless_random_uniform([5], seed=[3, 4], minval=0, maxval=10, dtype=tf.int32),
    "normal": st.stateless_random_normal([3, 4], seed=[5, 6]),
    "truncated": st.stateless_truncated_normal([3, 4], seed=[7, 8]),
    "multinomial": st.stateless_multinomial(tf.log([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]), 6, seed=[9, 10]),
}
grads = {}
for key in ("softplus", "softplus_clip"):
    inputs = [x, alpha] + ([clip] if key.endswith("clip") else [])
    grads[key] = tf.gradients(tf.reduce_sum(out[key] * tf.cos(x)), inputs)
report_errors("errors", (("keep_prob_0", lambda: nn.alpha_dropout(x, 0.0)), ("keep_prob_2", lambda: nn.alpha_dropout(x, 2.0)),
                  ("keep_prob_rank", lambda: nn.alpha_dropout(x, tf.constant([0.5, 0.5])))))
with tf.Session() as sess:
    report("out", sess.run(out))
    report("grads", sess.run(grads))
'''


@requires_tf115
def test_contrib_nn_and_stateless_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"] == {"keep_prob_0": "ValueError", "keep_prob_2": "ValueError", "keep_prob_rank": "ValueError"}
  assert tf115["out"]["alpha_dropout_keep_all_is_x"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
