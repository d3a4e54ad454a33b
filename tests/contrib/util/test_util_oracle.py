"""tf.contrib.util (TF 1.15's contrib/util/__init__.py: TensorFlow's tensor-proto helpers and op lists) against TF
1.15.
"""

from harness import assert_same, requires_tf115, run_both

UTIL = ("constant_value", "make_ndarray", "make_tensor_proto", "ops_used_by_graph_def", "stripped_op_list_for_graph")

ORACLE_TESTED = tuple("tf.contrib.util." + n for n in UTIL)

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# util
U = c.util
proto = U.make_tensor_proto([[1.0, 2.0], [3.0, 4.0]])
small = tf.Graph()
with small.as_default():  # op types that both TensorFlows build alike
    tf.identity(tf.multiply(tf.constant(2.0), tf.placeholder(tf.float32)))
report("util", [U.make_ndarray(proto).tolist(), U.constant_value(tf.constant([5, 6])).tolist(),
                U.constant_value(tf.shape(tf.zeros([2, 3]))).tolist(),
                sorted(U.ops_used_by_graph_def(small.as_graph_def())),
                sorted(op.name for op in U.stripped_op_list_for_graph(small.as_graph_def()).op)])
'''


@requires_tf115
def test_contrib_util_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
