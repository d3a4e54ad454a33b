"""contrib.input_pipeline against TF 1.15: obtain_next's strings and counter over several runs, after an assign,
and its build errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.input_pipeline.obtain_next",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
c = tf.contrib
rng = np.random.RandomState(0)
sess = tf.Session()


def static(t):
  return None if t.shape.ndims is None else t.shape.as_list()


# input_pipeline.obtain_next
strings = tf.constant(["a", "b", "c"])
counter = tf.Variable(-1, dtype=tf.int64, name="counter")
nxt = c.input_pipeline.obtain_next(strings, counter)
other = tf.Variable(-1, dtype=tf.int64, name="other")
from_list = c.input_pipeline.obtain_next(["x", "y"], other)
report("obtain_next_built", [nxt.name, str(nxt.dtype), static(nxt), from_list.name])
sess.run(tf.global_variables_initializer())
report("obtain_next_runs", [[sess.run(nxt) for _ in range(5)], sess.run(counter),
                            [sess.run(from_list) for _ in range(3)], sess.run(other)])
sess.run(counter.assign(7))
report("obtain_next_assigned", [sess.run(nxt), sess.run(counter), sess.run([nxt, nxt]), sess.run(counter)])
resource = tf.get_variable("resource_counter", initializer=tf.constant(-1, tf.int64), use_resource=True)
report_errors("obtain_next_errors", [
    ("resource", lambda: c.input_pipeline.obtain_next(strings, resource)),
    ("tensor", lambda: c.input_pipeline.obtain_next(strings, tf.constant(1, tf.int64))),
    ("int32", lambda: c.input_pipeline.obtain_next(strings, tf.Variable(0, name="int32_counter"))),
    ("float_list", lambda: c.input_pipeline.obtain_next(tf.constant([1.0]), counter)),
    ("matrix", lambda: c.input_pipeline.obtain_next([["x", "y"], ["z", "w"]], counter))])
'''


@requires_tf115
def test_contrib_input_pipeline_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
