"""contrib.autograph against TF 1.15: to_graph / do_not_convert / stack."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.autograph.to_graph", "tf.contrib.autograph.do_not_convert", "tf.contrib.autograph.stack")

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# autograph (the conversion itself is TensorFlow's: checked by name here, not run; TF 1.15's converter does
# not convert a function defined in this generated snippet file)
def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps
report("to_graph_callable", callable(c.autograph.to_graph(collatz)))
report("do_not_convert_callable", callable(c.autograph.do_not_convert(collatz)))
stacked = c.autograph.stack(tf.constant([1.0, 2.0]))
report_errors("autograph_errors", (("stack_python_list", lambda: c.autograph.stack([tf.constant(1.0)])),))
with tf.Session() as sess:
    report("stacked", sess.run(stacked))
'''


@requires_tf115
def test_autograph_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
