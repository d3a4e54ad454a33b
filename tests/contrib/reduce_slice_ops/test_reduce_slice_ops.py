"""contrib.reduce_slice_ops beyond TF 1.15 (values are judged by tests/contrib/reduce_slice_ops/test_reduce_slice_ops_oracle.py):
the public module has the functions TF 1.15 only had at its internal path, and they have gradients (each data row
gets one per range covering it for sums; the chosen element for maxima)."""

import numpy as np
import tensorflow as tf

from tf1clip import contrib
from tf1clip.contrib.reduce_slice_ops.python.ops import reduce_slice_ops as internal


def test_public_module_and_internal_path_are_the_same_functions():
  for name in ("reduce_slice_sum", "reduce_slice_prod", "reduce_slice_max", "reduce_slice_min"):
    assert getattr(contrib.reduce_slice_ops, name) is getattr(internal, name)


def test_gradients_of_sum_and_max(graph):  # pylint: disable=unused-argument
  data = tf.constant(np.array([[1.0, 5.0], [4.0, 2.0], [3.0, 0.0]], np.float32))
  total = tf.reduce_sum(contrib.reduce_slice_ops.reduce_slice_sum(data, [[0, 2], [1, 3], [2, 2]], 0))
  peak = tf.reduce_sum(contrib.reduce_slice_ops.reduce_slice_max(data, [[0, 3]], 0))
  with tf.compat.v1.Session() as sess:
    # gather gives IndexedSlices gradients: densified to compare
    sum_grad, max_grad = sess.run([tf.convert_to_tensor(tf.gradients(y, data)[0]) for y in (total, peak)])
  np.testing.assert_allclose(sum_grad, [[1, 1], [2, 2], [1, 1]])
  np.testing.assert_allclose(max_grad, [[0, 1], [1, 0], [0, 0]])
