"""`tf.contrib.summary`: the TF2-style summary-writer API as TF 1.15 had it, for graph-mode scripts.

TF 1.15's contrib.summary re-exported `tensorflow.python.ops.summary_ops_v2`; TensorFlow 2.21 still has that module,
with the graph-mode functions (`create_file_writer`, `always_record_summaries`, `scalar`, `all_summary_ops`,
`initialize`, `summary_writer_initializer_op`, ...) that the public `tf.summary` replaced. They are served as those
same objects (imported below). The classic graph-mode use:

    writer = tf.contrib.summary.create_file_writer(logdir)
    with writer.as_default(), tf.contrib.summary.always_record_summaries():
      tf.contrib.summary.scalar("loss", loss)            # step: the global step
      with tf.Session() as sess:
        tf.contrib.summary.initialize(graph=tf.get_default_graph(), session=sess)  # needs the writer
        sess.run(tf.contrib.summary.all_summary_ops())

`create_db_writer(db_uri, experiment_name, run_name, user_name)` is TF 1.15's function, written here: TensorFlow
2.21 dropped the Python function but kept the SQLite writer's kernel (`CreateSummaryDbWriter`), so the writer is
that op's, behind summary_ops_v2's graph-mode writer class, with TF 1.15's defaults (the local time for the
experiment and run names, the login name for the user) and its name checks.
"""

import getpass
import re
import time

import tensorflow as tf

from tensorflow.python.ops import summary_ops_v2  # pylint: disable=g-direct-tensorflow-import

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.python.ops.summary_ops_v2 import (
    all_v2_summary_ops as all_summary_ops, always_record_summaries, audio, create_file_writer,
    create_summary_file_writer, eval_dir, flush, generic, graph_v1 as graph, histogram, image, import_event,
    initialize, never_record_summaries, record_summaries_every_n_global_steps, scalar, should_record_summaries,
    summary_writer_initializer_op, SummaryWriter)

_NAME_PATTERNS = {
    "experiment_name": re.compile(r"^[^\x00-\x1F<>]{0,256}$"),
    "run_name": re.compile(r"^[^\x00-\x1F<>]{0,512}$"),
    "user_name": re.compile(r"^[a-z]([-a-z0-9]{0,29}[a-z0-9])?$", re.I),
}


def create_db_writer(db_uri, experiment_name=None, run_name=None, user_name=None, name=None):
  """A summary writer into the SQLite database `db_uri` (TF 1.15's experimental DB writer).

  Raises:
    ValueError: a name given as a Python string does not match TF 1.15's pattern for it.
  """
  now = time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(time.time()))
  names = {"experiment_name": now if experiment_name is None else experiment_name,
           "run_name": now if run_name is None else run_name,
           "user_name": getpass.getuser() if user_name is None else user_name}
  for key, value in names.items():
    if isinstance(value, str) and _NAME_PATTERNS[key].search(value) is None:
      raise ValueError("%s (%s) must match %s" % (key, value, _NAME_PATTERNS[key].pattern))
    names[key] = tf.convert_to_tensor(value, tf.string)
  return summary_ops_v2._LegacyResourceSummaryWriter(  # pylint: disable=protected-access
      resource=tf.raw_ops.SummaryWriter(shared_name=name or ""),
      init_op_fn=lambda resource: tf.raw_ops.CreateSummaryDbWriter(writer=resource, db_uri=db_uri, **names))


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.summary (TF2) or tf.compat.v1.summary'

__getattr__ = _catalog.module_getattr(__name__)
