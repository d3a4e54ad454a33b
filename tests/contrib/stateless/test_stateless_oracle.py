"""contrib.stateless against TF 1.15: the stateless random ops give the same numbers for the same seeds."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.stateless." + n for n in (
    "stateless_random_uniform", "stateless_random_normal", "stateless_truncated_normal", "stateless_multinomial"))

SNIPPET = r'''
import tensorflow as tf
st = tf.contrib.stateless
out = {
    "uniform": st.stateless_random_uniform([3, 4], seed=[1, 2]),
    "uniform_int": st.stateless_random_uniform([5], seed=[3, 4], minval=0, maxval=10, dtype=tf.int32),
    "normal": st.stateless_random_normal([3, 4], seed=[5, 6]),
    "truncated": st.stateless_truncated_normal([3, 4], seed=[7, 8]),
    "multinomial": st.stateless_multinomial(tf.log([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]), 6, seed=[9, 10]),
}
with tf.Session() as sess:
    report("out", sess.run(out))
'''


@requires_tf115
def test_contrib_stateless_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
