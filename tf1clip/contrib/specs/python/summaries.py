"""Strings that describe TensorFlow graphs (as specs build them): op structure, parameter counts, op trees.

TF 1.15's `tensorflow/contrib/specs/python/summaries.py`, written by tf1clip. `tf_structure(x)` is a postfix
string of the op types under a tensor (`_ _ var conv var biasadd relu` for a `Cr`), `tf_spec_structure` the same
for a spec; `tf_num_params` counts the elements of the (ref) variables under a tensor, `tf_parameter_summary` /
`tf_spec_summary` print them layer by layer along the left-most inputs, and `tf_print` / `tf_spec_print` print the
op tree. TensorFlow 2.21 builds the op types TF 1.15 built for these layers (Conv2D, BiasAdd, MatMul, VariableV2,
...), so the strings are TF 1.15's; an op renamed since (Add is AddV2 now) shows its type of today.
"""

import itertools

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.specs.python import specs

# the op types tf_structure abbreviates; ops a spec does not make (Const, Placeholder) read "_"
SHORT_NAMES = {"BiasAdd": "biasadd", "Const": "_", "Conv2D": "conv", "MatMul": "dot", "Placeholder": "_",
               "Sigmoid": "sig", "Variable": "var"}
SHORT_NAMES_SRC = [word for pair in SHORT_NAMES.items() for word in pair]  # TF 1.15's source of the table


def _op_and_shape(x, no_shape):
  """(the op, the tensor's static shape as a list) of a tensor; (the op, `no_shape`) of an op."""
  if isinstance(x, tf.Tensor):
    return x.op, x.get_shape().as_list()
  return x, no_shape


def _pruned(op):
  # TF 1.15 did not describe the unrolled inside of an LSTM layer (HorizontalLstm): too big to read
  return "/HorizontalLstm/" in op.name


def tf_structure(x, include_shapes=False, finished=None):
  """A postfix string of the op types under `x` (a tf.Tensor or tf.Operation), to compare graph structures.

  Args:
    x: where to start.
    include_shapes: put each tensor's shape before its op.
    finished: the ops described already (" <>" stands for them again); shared by the recursion.

  Returns:
    The string (not invertible: a summary).
  """
  finished = set() if finished is None else finished
  op, shape = _op_and_shape(x, [])
  if op in finished:
    return " <>"
  finished.add(op)
  parts = [] if _pruned(op) else [tf_structure(t, include_shapes, finished) for t in op.inputs]
  if include_shapes:
    parts.append(" %s" % (shape,))
  if op.type != "Identity":
    parts.append(" " + SHORT_NAMES.get(op.type, op.type.lower()))
  return "".join(parts)


def tf_print(x, depth=0, finished=None, printer=print):
  """Prints the op tree under `x`, one op a line (`<name> type shape`, indented by depth; `<name>` again for an
  op printed already). An Identity stands for its input."""
  finished = set() if finished is None else finished
  op, shape = _op_and_shape(x, "")
  if op.type == "Identity":
    op = op.inputs[0].op
  indent = "  " * depth
  if op in finished:
    printer("%s<%s> %s %s" % (indent, op.name, op.type, shape))
    return
  finished.add(op)
  printer("%s%s %s %s" % (indent, op.name, op.type, shape))
  if not _pruned(op):
    for t in op.inputs:
      tf_print(t, depth + 1, finished, printer=printer)


def tf_num_params(x):
  """The number of variable elements under `x` (a tensor; for an op, under its inputs): every (ref) Variable met
  on the way, counted each time it is met."""
  op, shape = _op_and_shape(x, None)
  if op.type in ("Variable", "VariableV2"):
    return (op.outputs[0].shape if shape is None else tf.TensorShape(shape)).num_elements()
  return sum(tf_num_params(t) for t in op.inputs)


def tf_left_split(op):
  """(the op's left-most data input, its other inputs); (None, []) for an op without inputs. A Concat's first
  input is its axis, so its data starts at the second."""
  if not op.inputs:
    return None, []
  first = 1 if op.type == "Concat" else 0
  return op.inputs[first], op.inputs[first + 1:]


def tf_parameter_iter(x):
  """Yields (op name, parameters of its other inputs, shape) along the left-most inputs from `x` down."""
  while x is not None:
    op, shape = _op_and_shape(x, "")
    x, others = tf_left_split(op)
    yield op.name, sum(tf_num_params(t) for t in others), shape


def _by_top_scope(rows):
  """Merges consecutive rows of one top-level name scope: their counts added, the first row's shape kept."""
  for scope, group in itertools.groupby(rows, key=lambda row: row[0].split("/", 1)[0]):
    group = list(group)
    yield scope, sum(row[1] for row in group), group[0][2]


def tf_parameter_summary(x, printer=print, combine=True):
  """Prints the parameter counts along the left-most inputs of `x`, input first (merged by top-level scope
  unless `combine` is False)."""
  rows = tf_parameter_iter(x)
  if combine:
    rows = _by_top_scope(rows)
  for name, total, shape in reversed(list(rows)):
    printer("%10d %-20s %s" % (total, name, shape))


def _spec_outputs(spec, inputs, input_shape, input_type):
  if inputs is None:
    inputs = tf.compat.v1.placeholder(input_type, input_shape)
  return specs.create_net(spec, inputs)


def tf_spec_structure(spec, inputs=None, input_shape=None, input_type=tf.float32):
  """`tf_structure` of the network `spec` builds on `inputs` (default: a placeholder of `input_shape`)."""
  return str(tf_structure(_spec_outputs(spec, inputs, input_shape, input_type)).strip())


def tf_spec_summary(spec, inputs=None, input_shape=None, input_type=tf.float32):
  """Prints `tf_parameter_summary` of the network `spec` builds (on `inputs` or a placeholder)."""
  tf_parameter_summary(_spec_outputs(spec, inputs, input_shape, input_type))


def tf_spec_print(spec, inputs=None, input_shape=None, input_type=tf.float32):
  """Prints `tf_print` of the network `spec` builds (on `inputs` or a placeholder)."""
  tf_print(_spec_outputs(spec, inputs, input_shape, input_type))


__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.specs.summaries")
