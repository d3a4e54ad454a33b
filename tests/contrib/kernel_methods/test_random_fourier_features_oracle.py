"""tf.contrib.kernel_methods.RandomFourierFeatureMapper (TF 1.15's kernel_methods/python/mappers/) against TF 1.15:
its outputs for a fixed seed (numpy's draws, and numpy's global generator left reseeded as TF 1.15 left it), its
properties and shape errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.kernel_methods.RandomFourierFeatureMapper",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
km, tfprof = tf.contrib.kernel_methods, tf.contrib.tfprof
root = os.path.abspath("out")
# -- RandomFourierFeatureMapper ---------------------------------------------------------------------------
m = km.RandomFourierFeatureMapper(3, 5, stddev=2.0, seed=7, name="rffm")
mapped = m.map(tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 10))
report("numpy_after_map", np.random.rand(3))  # TF 1.15 reseeded numpy's global generator
report("mapper_props", [m.name, m.input_dim, m.output_dim, km.RandomFourierFeatureMapper(2, 3).name.isdigit()])
report_errors("mapper_errors", [
    ("rank3", lambda: m.map(tf.zeros([2, 3, 1]))), ("dim", lambda: m.map(tf.zeros([2, 4]))),
    ("unknown_dim", lambda: m.map(tf.placeholder(tf.float32, [None, None]))),
    ("unknown_rank", lambda: m.map(tf.placeholder(tf.float32))),
    ("float64", lambda: m.map(tf.zeros([2, 3], tf.float64)))])
with tf.Session() as sess:
    report("values", sess.run({"mapped": mapped}))
'''


@requires_tf115
def test_random_fourier_features_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["mapper_errors"]["dim"] == "InvalidShapeError", tf115["mapper_errors"]
  assert_same(tf115, ours, rtol=2e-5, atol=2e-6)
