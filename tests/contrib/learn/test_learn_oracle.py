"""contrib.learn's package-level names against TF 1.15: ModeKeys' mode strings."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.learn.ModeKeys",)

SNIPPET = r'''
import tensorflow as tf
report("mode_keys", [tf.contrib.learn.ModeKeys.TRAIN, tf.contrib.learn.ModeKeys.EVAL,
                     tf.contrib.learn.ModeKeys.INFER])
'''


@requires_tf115
def test_learn_mode_keys_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
