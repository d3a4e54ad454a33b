"""tf.contrib.testing.FakeSummaryWriter (TF 1.15's testing/python/framework/fake_summary_writer.py) against TF 1.15:
installed behind tf.summary.FileWriterCache, what it records, assert_summaries and the errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.testing.FakeSummaryWriter",)

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
proto = T.to_summary_proto(serialized[0])
fake = T.FakeSummaryWriter
fake.install()
cached = tf.summary.FileWriterCache.get(logdir + "_fake")
report("fake_installed", [type(cached).__name__, tf.summary.FileWriter.__name__])
cached.add_summary(serialized[0], 5)
cached.add_summary(proto, 6)
cached.add_session_log(tf.SessionLog(status=tf.SessionLog.START), 5)
case_ = tf.test.TestCase()
cached.add_meta_graph(tf.train.export_meta_graph(graph=tf.Graph()))
cached.assert_summaries(case_, expected_logdir=logdir + "_fake",
                        expected_summaries={5: {"loss": 3.0, "acc": 0.25, "h": 0.0}},
                        expected_session_logs=[tf.SessionLog(status=tf.SessionLog.START)],
                        expected_added_meta_graphs=[tf.train.export_meta_graph(graph=tf.Graph())])
report("fake_summaries", sorted(cached.summaries))
report_errors("fake_errors", [
    ("install_twice", fake.install),
    ("wrong_values", lambda: cached.assert_summaries(case_, expected_summaries={5: {"loss": 1.0}})),
    ("missing_step", lambda: cached.assert_summaries(case_, expected_summaries={9: {}})),
    ("negative_step", lambda: cached.add_graph(tf.Graph(), global_step=-1)),
    ("graph_def", lambda: cached.add_graph(None, graph_def=tf.GraphDef())),
    ("uninstall", fake.uninstall), ("uninstall_twice", fake.uninstall)])
report("fake_uninstalled", type(tf.summary.FileWriterCache.get(logdir + "_real")).__name__)
'''


@requires_tf115
def test_fake_summary_writer_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
