"""tf.contrib.testing's summary readers (TF 1.15's testing/python/framework/util_test.py) against TF 1.15, on a
directory written with tf.summary.FileWriter in the snippet: latest_event_file, latest_events, latest_summaries,
simple_values_from_events, to_summary_proto, assert_summary and their errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.testing." + n for n in (
    "assert_summary", "latest_event_file", "latest_events", "latest_summaries", "simple_values_from_events",
    "to_summary_proto"))

SNIPPET = r'''
import os
import tempfile
import tensorflow as tf
c = tf.contrib
# testing: summaries written with tf.summary.FileWriter, read back
T = c.testing
logdir = tempfile.mkdtemp(dir=os.getcwd())
with tf.Graph().as_default():
  x = tf.placeholder(tf.float32, [])
  merged = tf.summary.merge([tf.summary.scalar("loss", x), tf.summary.scalar("acc", 1.0 - x / 4),
                             tf.summary.histogram("h", tf.stack([x, x + 1.0]))])
  writer = tf.summary.FileWriter(logdir)
  with tf.Session() as s:
    serialized = []
    for step, value in ((1, 3.0), (3, 1.0), (2, 2.0)):
      serialized.append(s.run(merged, {x: value}))
      writer.add_summary(serialized[-1], step)
  writer.close()
event_file = T.latest_event_file(logdir)
events = list(T.latest_events(logdir))
summaries = T.latest_summaries(logdir)
proto = T.to_summary_proto(serialized[0])
report("testing_files", [os.path.basename(event_file).startswith("events.out.tfevents."),
                         os.path.dirname(event_file) == logdir, T.latest_event_file(tempfile.mkdtemp(dir=os.getcwd())),
                         list(T.latest_events(tempfile.mkdtemp(dir=os.getcwd())))])
report("testing_events", [[e.step, e.HasField("summary"), [v.tag for v in e.summary.value]] for e in events])
report("testing_summaries", [[e.step, [v.tag for v in e.summary.value]] for e in summaries])
report("testing_simple_values", T.simple_values_from_events(events, ["loss", "acc", "missing"]))
report("testing_proto", [type(proto).__name__,
                         [[v.tag, v.simple_value] for v in proto.value if v.HasField("simple_value")]])
T.assert_summary(["loss", "acc", "h"], {"loss": 3.0, "acc": 0.25}, proto)
report_errors("testing_errors", [
    ("not_simple", lambda: T.simple_values_from_events(events, ["h"])),
    ("tags", lambda: T.assert_summary(["loss"], {}, proto)),
    ("value", lambda: T.assert_summary(["loss", "acc", "h"], {"loss": 2.0}, proto)),
    ("bad_proto", lambda: T.to_summary_proto(b"\xff\xff"))])
'''


@requires_tf115
def test_contrib_testing_readers_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
