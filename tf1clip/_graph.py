"""Private graph-mode helpers shared by the TF1 adapters (optimizer.py, accumulation/, training_op.py).

Place in the data flow (DESIGN.md): below the adapters; not public API. What lives here: placing new
state next to a variable, re-entering a caller's name scope inside a `tf.cond` branch, replacing the
TRAIN_OP entries an update built inside a branch registers, and the key TF's base Optimizer uses for
per-graph non-slot variables.
"""

import contextlib

import tensorflow as tf


def colocated(var):
  """Graph.colocate_with(var), as TF's own optimizers place state; nothing to do when eager."""
  if tf.executing_eagerly():
    return contextlib.nullcontext()
  return tf.compat.v1.get_default_graph().colocate_with(var)


def absolute_name_scope(scope):
  """Enters the absolute name scope `scope` ("" is the top level) of the default graph.

  A `tf.cond` branch starts with an empty name scope; re-entering the caller's scope there keeps
  the variables the inner optimizer creates lazily (Adam's beta powers) at their usual names.
  """
  return tf.compat.v1.get_default_graph().name_scope(scope + "/" if scope else None)


@contextlib.contextmanager
def replacing_train_ops():
  """Yields a list; TRAIN_OP entries added inside the block are replaced by the list's ops at its end.

  An update built inside a `tf.cond` branch registers its op in TRAIN_OP, but running that op
  alone would be wrong; the block's owner appends the op that runs the whole cond instead.
  """
  train_ops = tf.compat.v1.get_collection_ref(tf.compat.v1.GraphKeys.TRAIN_OP)
  n_before = len(train_ops)
  added = []
  yield added
  del train_ops[n_before:]
  train_ops.extend(added)


def non_slot_key():
  """The graph key of TF's base Optimizer's non-slot variables: None when eager (also in tf.function)."""
  with tf.init_scope():
    return None if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
