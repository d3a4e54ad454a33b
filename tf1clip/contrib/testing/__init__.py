"""`tf.contrib.testing`: a fake summary writer and helpers that read summaries back (TF 1.15's code).

Place in the data flow (DESIGN.md): TensorFlow <- **contrib.testing** <- compat <- cli.

TF 1.15's contrib/testing/python/framework/fake_summary_writer.py and util_test.py, ported onto TF 2.21:
`FakeSummaryWriter` records what would be written (and `install()` makes TensorFlow's FileWriter and
FileWriterCache create it, as in TF 1.15: tf.compat.v1.summary.FileWriter itself, bound at import, stays the real
class); `latest_event_file` / `latest_events` / `latest_summaries` read the newest `events.*` file of a
directory; `simple_values_from_events`, `assert_summary` and `to_summary_proto` look into Summary protos.

`install()` / `uninstall()` rebind the `FileWriter` name of TensorFlow's writer and writer_cache modules, and
`assert_summaries(expected_added_meta_graphs=...)` compares with TensorFlow's test_util: there is no public way to
either, so those two reach into tensorflow.python (as TF 1.15's code did).
"""

import glob
import os

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog


def _writer_modules():
  # pylint: disable=g-direct-tensorflow-import,import-outside-toplevel
  from tensorflow.python.summary.writer import writer
  from tensorflow.python.summary.writer import writer_cache
  return writer, writer_cache


# TODO(ptucker): Replace with mock framework.
class FakeSummaryWriter(object):
  """Fake summary writer."""

  _replaced_summary_writer = None

  @classmethod
  def install(cls):
    if cls._replaced_summary_writer:
      raise ValueError("FakeSummaryWriter already installed.")
    writer, writer_cache = _writer_modules()
    cls._replaced_summary_writer = writer.FileWriter
    writer.FileWriter = FakeSummaryWriter
    writer_cache.FileWriter = FakeSummaryWriter

  @classmethod
  def uninstall(cls):
    if not cls._replaced_summary_writer:
      raise ValueError("FakeSummaryWriter not installed.")
    writer, writer_cache = _writer_modules()
    writer.FileWriter = cls._replaced_summary_writer
    writer_cache.FileWriter = cls._replaced_summary_writer
    cls._replaced_summary_writer = None

  def __init__(self, logdir, graph=None):
    self._logdir = logdir
    self._graph = graph
    self._summaries = {}
    self._added_graphs = []
    self._added_meta_graphs = []
    self._added_session_logs = []
    self._added_run_metadata = {}

  @property
  def summaries(self):
    return self._summaries

  def assert_summaries(self,
                       test_case,
                       expected_logdir=None,
                       expected_graph=None,
                       expected_summaries=None,
                       expected_added_graphs=None,
                       expected_added_meta_graphs=None,
                       expected_session_logs=None):
    """Assert expected items have been added to summary writer."""
    if expected_logdir is not None:
      test_case.assertEqual(expected_logdir, self._logdir)
    if expected_graph is not None:
      test_case.assertTrue(expected_graph is self._graph)
    expected_summaries = expected_summaries or {}
    for step in expected_summaries:
      test_case.assertTrue(
          step in self._summaries,
          msg="Missing step %s from %s." % (step, self._summaries.keys()))
      actual_simple_values = {}
      for step_summary in self._summaries[step]:
        for v in step_summary.value:
          # Ignore global_step/sec since it's written by Supervisor in a
          # separate thread, so it's non-deterministic how many get written.
          if "global_step/sec" != v.tag:
            actual_simple_values[v.tag] = v.simple_value
      test_case.assertEqual(expected_summaries[step], actual_simple_values)
    if expected_added_graphs is not None:
      test_case.assertEqual(expected_added_graphs, self._added_graphs)
    if expected_added_meta_graphs is not None:
      test_case.assertEqual(len(expected_added_meta_graphs),
                            len(self._added_meta_graphs))
      # pylint: disable=g-direct-tensorflow-import,import-outside-toplevel
      from tensorflow.python.framework import test_util
      for expected, actual in zip(expected_added_meta_graphs,
                                  self._added_meta_graphs):
        test_util.assert_meta_graph_protos_equal(test_case, expected, actual)
    if expected_session_logs is not None:
      test_case.assertEqual(expected_session_logs, self._added_session_logs)

  def add_summary(self, summ, current_global_step):
    """Add summary."""
    if isinstance(summ, bytes):
      summary_proto = tf.compat.v1.Summary()
      summary_proto.ParseFromString(summ)
      summ = summary_proto
    if current_global_step in self._summaries:
      step_summaries = self._summaries[current_global_step]
    else:
      step_summaries = []
      self._summaries[current_global_step] = step_summaries
    step_summaries.append(summ)

  # NOTE: Ignore global_step since its value is non-deterministic.
  def add_graph(self, graph, global_step=None, graph_def=None):
    """Add graph."""
    if (global_step is not None) and (global_step < 0):
      raise ValueError("Invalid global_step %s." % global_step)
    if graph_def is not None:
      raise ValueError("Unexpected graph_def %s." % graph_def)
    self._added_graphs.append(graph)

  def add_meta_graph(self, meta_graph_def, global_step=None):
    """Add metagraph."""
    if (global_step is not None) and (global_step < 0):
      raise ValueError("Invalid global_step %s." % global_step)
    self._added_meta_graphs.append(meta_graph_def)

  # NOTE: Ignore global_step since its value is non-deterministic.
  def add_session_log(self, session_log, global_step=None):
    # pylint: disable=unused-argument
    self._added_session_logs.append(session_log)

  def add_run_metadata(self, run_metadata, tag, global_step=None):
    if (global_step is not None) and (global_step < 0):
      raise ValueError("Invalid global_step %s." % global_step)
    self._added_run_metadata[tag] = run_metadata

  def flush(self):
    pass

  def reopen(self):
    pass

  def close(self):
    pass


def assert_summary(expected_tags, expected_simple_values, summary_proto):
  """Asserts summary contains the specified tags and values.

  Args:
    expected_tags: All tags in summary.
    expected_simple_values: Simply values for some tags.
    summary_proto: Summary to validate.

  Raises:
    ValueError: if expectations are not met.
  """
  actual_tags = set()
  for value in summary_proto.value:
    actual_tags.add(value.tag)
    if value.tag in expected_simple_values:
      expected = expected_simple_values[value.tag]
      actual = value.simple_value
      np.testing.assert_almost_equal(
          actual, expected, decimal=2, err_msg=value.tag)
  expected_tags = set(expected_tags)
  if expected_tags != actual_tags:
    raise ValueError("Expected tags %s, got %s." % (expected_tags, actual_tags))


def to_summary_proto(summary_str):
  """Create summary based on latest stats.

  Args:
    summary_str: Serialized summary.
  Returns:
    summary_pb2.Summary.
  Raises:
    ValueError: if tensor is not a valid summary tensor.
  """
  summary = tf.compat.v1.Summary()
  summary.ParseFromString(summary_str)
  return summary


# TODO(ptucker): Move to a non-test package?
def latest_event_file(base_dir):
  """Find latest event file in `base_dir`.

  Args:
    base_dir: Base directory in which TF event flies are stored.
  Returns:
    File path, or `None` if none exists.
  """
  file_paths = glob.glob(os.path.join(base_dir, "events.*"))
  return sorted(file_paths)[-1] if file_paths else None


def latest_events(base_dir):
  """Parse events from latest event file in base_dir.

  Args:
    base_dir: Base directory in which TF event flies are stored.
  Returns:
    Iterable of event protos.
  Raises:
    ValueError: if no event files exist under base_dir.
  """
  file_path = latest_event_file(base_dir)
  return tf.compat.v1.train.summary_iterator(file_path) if file_path else []


def latest_summaries(base_dir):
  """Parse summary events from latest event file in base_dir.

  Args:
    base_dir: Base directory in which TF event flies are stored.
  Returns:
    List of event protos.
  Raises:
    ValueError: if no event files exist under base_dir.
  """
  return [e for e in latest_events(base_dir) if e.HasField("summary")]


def simple_values_from_events(events, tags):
  """Parse summaries from events with simple_value.

  Args:
    events: List of tensorflow.Event protos.
    tags: List of string event tags corresponding to simple_value summaries.
  Returns:
    dict of tag:value.
  Raises:
   ValueError: if a summary with a specified tag does not contain simple_value.
  """
  step_by_tag = {}
  value_by_tag = {}
  for e in events:
    if e.HasField("summary"):
      for v in e.summary.value:
        tag = v.tag
        if tag in tags:
          if not v.HasField("simple_value"):
            raise ValueError("Summary for %s is not a simple_value." % tag)
          # The events are mostly sorted in step order, but we explicitly check
          # just in case.
          if tag not in step_by_tag or e.step > step_by_tag[tag]:
            step_by_tag[tag] = e.step
            value_by_tag[tag] = v.simple_value
  return value_by_tag


__getattr__ = _catalog.missing_attribute_hook("tf.contrib.testing", lazy=_catalog.served("tf.contrib.testing"))
