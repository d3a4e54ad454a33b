"""`tf.contrib.specs.summaries`: string descriptions of TensorFlow graphs built from specs, TF 1.15's code.

Place in the data flow (DESIGN.md): tf.Graph, contrib.specs.specs <- **contrib.specs.summaries** <- compat <- cli.

`tf_structure(x)` is a postfix string of the op types under a tensor (`_ _ var conv var biasadd relu` for a
`Cr`), `tf_spec_structure(spec, input_shape=...)` the same for a spec; `tf_num_params` counts the elements of the
(ref) variables under a tensor, `tf_parameter_summary` / `tf_spec_summary` print them per layer and `tf_print` /
`tf_spec_print` print the op tree. TensorFlow 2.21 builds the op types TF 1.15 built for these layers (`Conv2D`,
`BiasAdd`, `MatMul`, `VariableV2`, ...), so the strings are TF 1.15's; where an op was renamed since (`Add` is
`AddV2` now) its lowercased type is today's.
"""

import re

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.specs.python.specs as specs

# Short abbreviations for common TensorFlow operations used in test cases with tf_structure; operations outside
# the scope of specs (e.g., Const and Placeholder) are just assigned "_" since they are not relevant to testing.

SHORT_NAMES_SRC = """
BiasAdd biasadd
Const _
Conv2D conv
MatMul dot
Placeholder _
Sigmoid sig
Variable var
""".split()

SHORT_NAMES = {x: y for x, y in zip(SHORT_NAMES_SRC[::2], SHORT_NAMES_SRC[1::2])}


def _truncate_structure(x):
  """Whether the subtree under tensor or op `x` is pruned (unrolled "/HorizontalLstm/" structures)."""
  if "/HorizontalLstm/" in x.name:
    return True
  return False


def tf_structure(x, include_shapes=False, finished=None):
  """A postfix expression of the op types under `x` (a tf.Tensor or tf.Operation), for gross structure checks.

  Args:
    x: a tf.Tensor or tf.Operation.
    include_shapes: include shapes in the output string.
    finished: a set of ops that have already been output.

  Returns:
    A string representing the structure as a string of postfix operations.
  """
  if finished is None:
    finished = set()
  if isinstance(x, tf.Tensor):
    shape = x.get_shape().as_list()
    x = x.op
  else:
    shape = []
  if x in finished:
    return " <>"
  finished |= {x}
  result = ""
  if not _truncate_structure(x):
    for y in x.inputs:
      result += tf_structure(y, include_shapes, finished)
  if include_shapes:
    result += " %s" % (shape,)
  if x.type != "Identity":
    name = SHORT_NAMES.get(x.type, x.type.lower())
    result += " " + name
  return result


def tf_print(x, depth=0, finished=None, printer=print):
  """Prints the op tree under `x` (a tf.Tensor or tf.Operation) with `printer`, one op a line, indented by depth."""
  if finished is None:
    finished = set()
  if isinstance(x, tf.Tensor):
    shape = x.get_shape().as_list()
    x = x.op
  else:
    shape = ""
  if x.type == "Identity":
    x = x.inputs[0].op
  if x in finished:
    printer("%s<%s> %s %s" % ("  " * depth, x.name, x.type, shape))
    return
  finished |= {x}
  printer("%s%s %s %s" % ("  " * depth, x.name, x.type, shape))
  if not _truncate_structure(x):
    for y in x.inputs:
      tf_print(y, depth + 1, finished, printer=printer)


def tf_num_params(x):
  """The total number of elements of the Variables in the subgraph under `x` (a Tensor; an Operation's inputs)."""
  if isinstance(x, tf.Tensor):
    shape = x.get_shape()
    x = x.op
  if x.type in ["Variable", "VariableV2"]:
    return shape.num_elements()
  totals = [tf_num_params(y) for y in x.inputs]
  return sum(totals)


def tf_left_split(op):
  """(the leftmost input tensor of `op`, a list of its other inputs); (None, []) for an op without inputs."""
  if len(op.inputs) < 1:
    return None, []
  if op.type == "Concat":
    return op.inputs[1], op.inputs[2:]
  return op.inputs[0], op.inputs[1:]


def tf_parameter_iter(x):
  """Yields (name, number of params, shape) along the left branches of the graph under `x` (Tensor, Operation)."""
  while 1:
    if isinstance(x, tf.Tensor):
      shape = x.get_shape().as_list()
      x = x.op
    else:
      shape = ""
    left, right = tf_left_split(x)
    totals = [tf_num_params(y) for y in right]
    total = sum(totals)
    yield x.name, total, shape
    if left is None:
      break
    x = left


def _combine_filter(x):
  """A filter for combining successive layers with similar names."""
  last_name = None
  last_total = 0
  last_shape = None
  for name, total, shape in x:
    name = re.sub("/.*", "", name)
    if name == last_name:
      last_total += total
      continue
    if last_name is not None:
      yield last_name, last_total, last_shape
    last_name = name
    last_total = total
    last_shape = shape
  if last_name is not None:
    yield last_name, last_total, last_shape


def tf_parameter_summary(x, printer=print, combine=True):
  """Prints the parameters by depth under `x` (Tensor, Operation), combined by top-level scope if `combine`."""
  seq = tf_parameter_iter(x)
  if combine:
    seq = _combine_filter(seq)
  seq = reversed(list(seq))
  for name, total, shape in seq:
    printer("%10d %-20s %s" % (total, name, shape))


def tf_spec_structure(spec, inputs=None, input_shape=None, input_type=tf.float32):
  """The `tf_structure` string of the network `spec` builds on `inputs` (default: a placeholder of input_shape)."""
  if inputs is None:
    inputs = tf.compat.v1.placeholder(input_type, input_shape)
  outputs = specs.create_net(spec, inputs)
  return str(tf_structure(outputs).strip())


def tf_spec_summary(spec, inputs=None, input_shape=None, input_type=tf.float32):
  """Prints the `tf_parameter_summary` of the network `spec` builds (on a placeholder of input_shape by default)."""
  if inputs is None:
    inputs = tf.compat.v1.placeholder(input_type, input_shape)
  outputs = specs.create_net(spec, inputs)
  tf_parameter_summary(outputs)


def tf_spec_print(spec, inputs=None, input_shape=None, input_type=tf.float32):
  """Prints the `tf_print` tree of the network `spec` builds (on a placeholder of input_shape by default)."""
  if inputs is None:
    inputs = tf.compat.v1.placeholder(input_type, input_shape)
  outputs = specs.create_net(spec, inputs)
  tf_print(outputs)


__getattr__ = _catalog.missing_attribute_hook("tf.contrib.specs.summaries",
                                              lazy=_catalog.served("tf.contrib.specs.summaries"))
