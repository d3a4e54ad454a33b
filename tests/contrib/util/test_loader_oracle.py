"""tf.contrib.util.loader (TF 1.15's contrib/util/loader.py) against TF 1.15: load_op_library of a missing library
raises the same error (no TF 1.15 op library loads into TensorFlow 2.21).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.util.loader.load_op_library",)

SNIPPET = r'''
import os
import tensorflow as tf
c = tf.contrib
report_errors("loader", [("missing_library", lambda: c.util.loader.load_op_library(
    os.path.join(ORACLE_SHARED, "no_such_ops.so")))])
'''


@requires_tf115
def test_load_op_library_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours)
