"""contrib.summary against TF 1.15: a graph-mode contrib.summary file writer whose event file is read back
(tags, steps, values).
"""

from harness import assert_same, requires_tf115, run_both

SUMMARY = ("SummaryWriter", "all_summary_ops", "always_record_summaries", "create_file_writer", "flush", "histogram",
           "scalar", "image", "audio", "generic", "initialize", "never_record_summaries",
           "record_summaries_every_n_global_steps", "should_record_summaries", "summary_writer_initializer_op",
           "eval_dir")
ORACLE_TESTED = tuple("tf.contrib.summary." + n for n in SUMMARY)

SNIPPET = r'''
import glob
import os
import tensorflow as tf
c = tf.contrib
# summary: a graph-mode file writer, read back
W = c.summary
logdir = os.path.join(os.getcwd(), "summaries")
step = tf.train.get_or_create_global_step()
writer = W.create_file_writer(logdir, flush_millis=100)
with writer.as_default(), W.always_record_summaries():
    W.scalar("loss", tf.constant(0.5))
    W.histogram("weights", tf.constant([1.0, 2.0, 2.0, 3.0]))
    W.image("picture", tf.zeros([1, 2, 2, 1]), max_images=1)
    W.generic("raw", tf.constant([1.0]), metadata=None)
with writer.as_default(), W.never_record_summaries():
    never = W.should_record_summaries()
    W.scalar("never_written", tf.constant(1.0))
with writer.as_default(), W.record_summaries_every_n_global_steps(2):
    W.scalar("every_two", tf.cast(step, tf.float32))
report("summary_api", [isinstance(writer, W.SummaryWriter), W.eval_dir("/m", "val"), W.eval_dir("/m")])
report_errors("summary_errors", (("no_writer_scalar", lambda: W.initialize()),))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    with writer.as_default():
        W.initialize(graph=tf.get_default_graph(), session=sess)
    report("never", sess.run(never))
    for _ in range(3):
        sess.run(W.all_summary_ops())
        sess.run(tf.assign_add(step, 1))
    sess.run(W.flush())
    sess.run(writer.flush())
events = []
for path in sorted(glob.glob(os.path.join(logdir, "events.*"))):
    for event in tf.train.summary_iterator(path):
        for v in event.summary.value:
            events.append((event.step, v.tag, round(float(v.simple_value), 6) if v.HasField("simple_value") else
                           round(float(tf.make_ndarray(v.tensor).ravel()[0]), 6) if v.HasField("tensor") and
                           v.tensor.dtype == 1 else v.WhichOneof("value")))
report("events", sorted(events, key=repr))
'''


@requires_tf115
def test_summary_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert any(tag == "loss" for _, tag, _ in tf115["events"]), tf115["events"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
