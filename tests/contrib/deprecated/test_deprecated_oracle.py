"""contrib.deprecated against TF 1.15: the tag-named summaries (the same serialized Summary protos)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.deprecated.scalar_summary", "tf.contrib.deprecated.histogram_summary",
    "tf.contrib.deprecated.image_summary", "tf.contrib.deprecated.audio_summary",
    "tf.contrib.deprecated.merge_summary", "tf.contrib.deprecated.merge_all_summaries")

SNIPPET = r'''
import tensorflow as tf
c = tf.contrib
# deprecated summaries
s1 = c.deprecated.scalar_summary(["a", "b"], tf.constant([1.5, 2.5]))
s2 = c.deprecated.histogram_summary("h", tf.constant([1.0, 2.0, 2.0, 3.0]))
s3 = c.deprecated.image_summary("img", tf.zeros([2, 4, 4, 3]), max_images=1)
s4 = c.deprecated.audio_summary("snd", tf.zeros([1, 8]), sample_rate=8000)
merged = c.deprecated.merge_all_summaries()
merged_two = c.deprecated.merge_summary([s1, s2])
report("summary_collection", len(tf.get_collection(tf.GraphKeys.SUMMARIES)))
report("merge_none", c.deprecated.merge_all_summaries(key="nothing_here") is None)
with tf.Session() as sess:
    report("summaries", [sess.run(s) for s in (s1, s2, s3, s4, merged, merged_two)])
'''


@requires_tf115
def test_deprecated_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
