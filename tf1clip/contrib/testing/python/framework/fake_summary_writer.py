"""`FakeSummaryWriter`: a summary writer that records what it is given, for tests of code that writes summaries.

TF 1.15's `tensorflow/contrib/testing/python/framework/fake_summary_writer.py`, written by tf1clip. `install()` makes
TensorFlow's `FileWriter` (as its writer and writer_cache modules see it, so `tf.summary.FileWriterCache.get` and
the training hooks get a fake) this class until `uninstall()`; `tf.compat.v1.summary.FileWriter` itself, bound when
TensorFlow was imported, stays the real class, as in TF 1.15. `assert_summaries` checks what was recorded with a
`tf.test.TestCase`'s asserts.

Both reach TensorFlow internals that have no public spelling: the modules whose `FileWriter` name is rebound
(tensorflow.python.summary.writer.writer / writer_cache) and test_util's `assert_meta_graph_protos_equal`.
"""

import tensorflow as tf


def _writer_modules():
  # pylint: disable=g-direct-tensorflow-import,import-outside-toplevel
  from tensorflow.python.summary.writer import writer
  from tensorflow.python.summary.writer import writer_cache
  return writer, writer_cache


def _check_step(global_step):
  if global_step is not None and global_step < 0:
    raise ValueError("Invalid global_step %s." % global_step)


class FakeSummaryWriter(object):
  """Records summaries, graphs, meta graphs, session logs and run metadata instead of writing an event file.

  Args:
    logdir: the log directory it stands for.
    graph: the graph it was made with.
  """

  _real_writer = None  # TensorFlow's FileWriter while a fake is installed

  @classmethod
  def install(cls):
    """Makes TensorFlow's writer modules create this class instead of FileWriter.

    Raises:
      ValueError: already installed.
    """
    if cls._real_writer is not None:
      raise ValueError("FakeSummaryWriter already installed.")
    modules = _writer_modules()
    cls._real_writer = modules[0].FileWriter
    for module in modules:
      module.FileWriter = cls

  @classmethod
  def uninstall(cls):
    """Puts TensorFlow's FileWriter back.

    Raises:
      ValueError: not installed.
    """
    if cls._real_writer is None:
      raise ValueError("FakeSummaryWriter not installed.")
    for module in _writer_modules():
      module.FileWriter = cls._real_writer
    cls._real_writer = None

  def __init__(self, logdir, graph=None):
    self._logdir = logdir
    self._graph = graph
    self._summaries = {}  # step -> [Summary, ...] in the order added
    self._added_graphs = []
    self._added_meta_graphs = []
    self._added_session_logs = []
    self._added_run_metadata = {}

  @property
  def summaries(self):
    """global step -> the Summary protos added at that step."""
    return self._summaries

  def _simple_values_at(self, step):
    # "global_step/sec" comes from a timer thread (Supervisor, the step-counter hook): how many is not fixed
    return {value.tag: value.simple_value for summary in self._summaries[step] for value in summary.value
            if value.tag != "global_step/sec"}

  def assert_summaries(self, test_case, expected_logdir=None, expected_graph=None, expected_summaries=None,
                       expected_added_graphs=None, expected_added_meta_graphs=None, expected_session_logs=None):
    """Asserts, with `test_case`'s assert methods, what was recorded; an argument left None is not checked.

    Args:
      test_case: a tf.test.TestCase (or unittest.TestCase).
      expected_logdir: the log directory.
      expected_graph: the graph the writer was made with (the same object).
      expected_summaries: step -> {tag: simple value} of every simple value added at that step.
      expected_added_graphs: the graphs added, in order.
      expected_added_meta_graphs: the MetaGraphDefs added, in order (compared as TensorFlow's tests compare them).
      expected_session_logs: the SessionLogs added, in order.
    """
    if expected_logdir is not None:
      test_case.assertEqual(expected_logdir, self._logdir)
    if expected_graph is not None:
      test_case.assertTrue(expected_graph is self._graph)
    for step, values in (expected_summaries or {}).items():
      test_case.assertTrue(step in self._summaries, msg="Missing step %s from %s." % (step, self._summaries.keys()))
      test_case.assertEqual(values, self._simple_values_at(step))
    if expected_added_graphs is not None:
      test_case.assertEqual(expected_added_graphs, self._added_graphs)
    if expected_added_meta_graphs is not None:
      test_case.assertEqual(len(expected_added_meta_graphs), len(self._added_meta_graphs))
      from tensorflow.python.framework import test_util  # pylint: disable=g-direct-tensorflow-import,import-outside-toplevel
      for expected, actual in zip(expected_added_meta_graphs, self._added_meta_graphs):
        test_util.assert_meta_graph_protos_equal(test_case, expected, actual)
    if expected_session_logs is not None:
      test_case.assertEqual(expected_session_logs, self._added_session_logs)

  def add_summary(self, summ, current_global_step):
    """Records a Summary proto (or its serialized bytes) at `current_global_step`."""
    if isinstance(summ, bytes):
      summ = tf.compat.v1.Summary.FromString(summ)
    self._summaries.setdefault(current_global_step, []).append(summ)

  def add_graph(self, graph, global_step=None, graph_def=None):
    """Records a graph (its step is not recorded).

    Raises:
      ValueError: a negative `global_step`, or a `graph_def` (only graphs are expected).
    """
    _check_step(global_step)
    if graph_def is not None:
      raise ValueError("Unexpected graph_def %s." % graph_def)
    self._added_graphs.append(graph)

  def add_meta_graph(self, meta_graph_def, global_step=None):
    """Records a MetaGraphDef (ValueError for a negative `global_step`)."""
    _check_step(global_step)
    self._added_meta_graphs.append(meta_graph_def)

  def add_session_log(self, session_log, global_step=None):
    """Records a SessionLog (its step is not recorded)."""
    del global_step
    self._added_session_logs.append(session_log)

  def add_run_metadata(self, run_metadata, tag, global_step=None):
    """Records RunMetadata under `tag` (ValueError for a negative `global_step`)."""
    _check_step(global_step)
    self._added_run_metadata[tag] = run_metadata

  def flush(self):
    """Nothing to write."""

  def reopen(self):
    """Nothing to reopen."""

  def close(self):
    """Nothing to close."""
