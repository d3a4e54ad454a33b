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


def _in_v1_control_flow():
  graph = tf.compat.v1.get_default_graph()
  return graph._get_control_flow_context() is not None  # pylint: disable=protected-access


def _is_resource(x):
  # A RefVariable (disable_resource_variables) cannot be captured by a function branch.
  return x is None or getattr(x, "dtype", None) == tf.resource or hasattr(x, "handle")


def functional_cond(pred, true_fn, false_fn, name, captured_variables=()):
  """`tf.cond` built as one functional ``If`` that is not lowered to per-input Switch ops.

  Lowering (what TF does to a cond_v2 in a graph run by a Session) puts one Switch op on every
  tensor the branches capture, run at every step. An unlowered If passes the captures to the
  branch function as arguments instead: one op per step when the branch is rarely taken, as for
  `transforms.all_finite`'s exact fallback. (Around a whole optimizer update it measured slower
  than lowering at 2000 variables, so the guard's update keeps `tf.cond`: docs/benchmarks.md.) Falls back to
  `tf.cond` eagerly, inside v1 control flow (a v1 while loop cannot hold a functional If), and
  when a variable in `captured_variables` is a RefVariable (a function cannot capture one).

  Args:
    pred: scalar bool Tensor.
    true_fn, false_fn: zero-argument callables returning one scalar Tensor each.
    name: name of the cond.
    captured_variables: the variables the branches update.

  Returns:
    The cond's output Tensor.
  """
  if (tf.executing_eagerly() or _in_v1_control_flow()
      or not tf.compat.v1.resource_variables_enabled()
      or not all(_is_resource(v) for v in captured_variables)):
    return tf.cond(pred, true_fn, false_fn, name=name)
  # pylint: disable=g-import-not-at-top
  from tensorflow.python.ops import cond_v2
  from tensorflow.python.ops import control_flow_util_v2
  # pylint: enable=g-import-not-at-top
  out = cond_v2.cond_v2(pred, true_fn, false_fn, name=name)
  out = out[0] if isinstance(out, (list, tuple)) else out
  if_op = out.op.inputs[0].op if out.op.type == "Identity" else out.op
  if if_op.type in ("If", "StatelessIf"):
    control_flow_util_v2.maybe_set_lowering_attr(if_op, False)
  return out
