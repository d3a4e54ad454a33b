"""contrib.framework's own small ops of TF 1.15: shape checks, reduce_sum_n, remove_squeezable_dimensions,
assert_scalar_int, get_placeholders, fuse_op, py_func, zero_initializer and two checkpoint-remapping initializers.

Each follows TF 1.15's code (tensorflow/contrib/framework/python/...): the same checks, error types and
messages, name scopes and results. One stated difference: `zero_initializer` is an assign of zeros (TF 1.15's
was a contrib-only kernel that also refused a variable that was already initialized).
"""

import copy

import numpy as np
import tensorflow as tf

import tf1clip.python.util.nest as nest

V1 = tf.compat.v1


def reduce_sum_n(tensors, name=None):
  """The sum of all elements of all `tensors` (each reduced, then added)."""
  if not tensors:
    raise ValueError("No tensors provided.")
  with tf.name_scope(name or "reduce_sum_n") as scope:
    tensors = [tf.reduce_sum(t, name="%s/sum" % t.op.name) for t in tensors]
    if len(tensors) == 1:
      return tensors[0]
    return tf.add_n(tensors, name=scope)


def remove_squeezable_dimensions(predictions, labels, name=None):
  """Squeezes a last dimension of size 1 off whichever of the two has rank one more than the other."""
  with V1.name_scope(name, "remove_squeezable_dimensions", [predictions, labels]):
    predictions = tf.convert_to_tensor(predictions)
    labels = tf.convert_to_tensor(labels)
    predictions_rank = predictions.shape.ndims
    labels_rank = labels.shape.ndims
    if labels_rank is not None and predictions_rank is not None:
      rank_diff = predictions_rank - labels_rank
      if rank_diff == -1:
        labels = tf.squeeze(labels, [-1])
      elif rank_diff == 1:
        predictions = tf.squeeze(predictions, [-1])
      return predictions, labels
    rank_diff = tf.rank(predictions) - tf.rank(labels)
    if predictions_rank is None or predictions.shape.dims[-1].is_compatible_with(1):
      predictions = V1.cond(tf.equal(1, rank_diff), lambda: tf.squeeze(predictions, [-1]),
                            lambda: predictions)
    if labels_rank is None or labels.shape.dims[-1].is_compatible_with(1):
      labels = V1.cond(tf.equal(-1, rank_diff), lambda: tf.squeeze(labels, [-1]), lambda: labels)
    return predictions, labels


def _assert_shape_op(expected_shape, actual_tensor):
  with tf.name_scope("assert_shape") as scope:
    actual_shape = tf.shape(actual_tensor, name="actual")
    if isinstance(expected_shape, tf.TensorShape) and not expected_shape.is_fully_defined():
      expected_shape = [d if d else -1 for d in expected_shape.as_list()]
    with tf.name_scope("is_shape") as is_shape_scope:
      with tf.name_scope("is_rank") as is_rank_scope:
        is_rank = tf.equal(tf.convert_to_tensor(tf.size(expected_shape), name="expected"),
                           tf.rank(actual_tensor, name="actual"), name=is_rank_scope)
      with tf.name_scope("shape_tensor_equal") as equal_scope:
        shape_equal = tf.reduce_all(tf.logical_or(
            tf.equal(expected_shape, -1), tf.equal(expected_shape, actual_shape, "equal"),
            name="exclude_partial_shape"), name=equal_scope)
      is_shape = tf.logical_and(is_rank, shape_equal, name=is_shape_scope)
    return V1.Assert(is_shape, ["Wrong shape for %s [expected] [actual]." % actual_tensor.name,
                                expected_shape, actual_shape], name=scope)


def with_shape(expected_shape, tensor):
  """`tensor`, checked (statically, else by an Assert op) to have `expected_shape` (-1: any size)."""
  if isinstance(tensor, tf.SparseTensor):
    raise ValueError("SparseTensor not supported.")
  if tf.is_tensor(expected_shape) and expected_shape.dtype.base_dtype != tf.int32:
    raise ValueError("Invalid dtype %s for shape %s expected of tensor %s."
                     % (expected_shape.dtype, expected_shape, tensor.name))
  if isinstance(expected_shape, (list, tuple)):
    if not expected_shape:
      expected_shape = np.asarray([], dtype=np.int32)
    else:
      as_array = np.asarray(expected_shape)
      expected_shape = (np.asarray(expected_shape, dtype=np.int32) if as_array.dtype == np.int64
                        else as_array)
  if isinstance(expected_shape, np.ndarray):
    if expected_shape.ndim > 1:
      raise ValueError("Invalid rank %s for shape %s expected of tensor %s."
                       % (expected_shape.ndim, expected_shape, tensor.name))
    if expected_shape.dtype != np.int32:
      raise ValueError("Invalid dtype %s for shape %s expected of tensor %s."
                       % (expected_shape.dtype, expected_shape, tensor.name))
  actual_shape = tensor.shape
  if not actual_shape.is_fully_defined() or tf.is_tensor(expected_shape):
    with tf.name_scope("%s/" % tensor.op.name):
      if not tf.is_tensor(expected_shape) and len(expected_shape) < 1:
        return tf.reshape(tensor, [])
      with tf.control_dependencies([_assert_shape_op(expected_shape, tensor)]):
        result = tf.identity(tensor)
      if not tf.is_tensor(expected_shape):
        result.set_shape(expected_shape)
      return result
  if not tf.is_tensor(expected_shape) and not actual_shape.is_compatible_with(expected_shape):
    if len(expected_shape) < 1 and actual_shape.is_compatible_with([1]):
      with tf.name_scope("%s/" % tensor.op.name):
        return tf.reshape(tensor, [])
    raise ValueError("Invalid shape for tensor %s, expected %s, got %s."
                     % (tensor.name, expected_shape, actual_shape))
  return tensor


def with_same_shape(expected_tensor, tensor):
  """`tensor`, checked to have `expected_tensor`'s shape."""
  with tf.name_scope("%s/" % tensor.op.name):
    shape = expected_tensor.shape
    expected_shape = (shape.as_list() if shape.is_fully_defined()
                      else tf.shape(expected_tensor, name="expected_shape"))
    return with_shape(expected_shape, tensor)


def assert_scalar_int(tensor, name=None):
  """An assert that `tensor` is a scalar; a ValueError at once when its dtype is not an integer."""
  with V1.name_scope(name, "assert_scalar_int", [tensor]) as scope:
    tensor = tf.convert_to_tensor(tensor)
    if not tensor.dtype.base_dtype.is_integer:
      raise ValueError("Expected integer type for %s, received type: %s." % (tensor.name, tensor.dtype))
    return V1.assert_scalar(tensor, name=scope)


def get_placeholders(graph):
  """The outputs of every Placeholder op of `graph`."""
  if not isinstance(graph, tf.Graph):
    raise TypeError("Input graph needs to be a Graph: %s" % graph)
  return [op.outputs[0] for op in graph.get_operations() if op.type == "Placeholder"]


def _node_name(name):
  return name[1:] if name.startswith("^") else name.split(":")[0]


def _graph_summary(graph_def):
  """(inputs of each node, node by name, position by name) of `graph_def`, colocation counting as an input."""
  inputs, nodes, position = {}, {}, {}
  for seq, node in enumerate(graph_def.node):
    name = _node_name(node.name)
    nodes[name] = node
    inputs[name] = [_node_name(x) for x in node.input]
    if "_class" in node.attr:
      inputs[name] += [s.decode("utf-8")[len("loc:@"):] for s in node.attr["_class"].list.s
                       if s.decode("utf-8").startswith("loc:@")]
    position[name] = seq
  return inputs, nodes, position


def _reachable(targets, inputs):
  """The nodes `targets` depend on, themselves included."""
  seen, pending = set(), list(targets)
  while pending:
    node = pending.pop(0)
    if node not in seen:
      seen.add(node)
      pending += inputs.get(node, [])
  return seen


def fuse_op(graph_def, input_nodes, output_nodes, output_dtypes, output_quantized, op_name, op_type):
  """A GraphDef whose subgraph between `input_nodes` and `output_nodes` is one node `op_name` of type `op_type`.

  TF 1.15's contrib.framework.fuse_op: the nodes up to the inputs are kept in their order, then the fused node
  (inputs `input_nodes`, attrs `_output_types` and `_output_quantized`), then each output node reading its output
  of the fused node, then the nodes after the outputs. A subgraph node reading a node before the inputs is a
  TypeError, as there.
  """
  if not isinstance(graph_def, tf.compat.v1.GraphDef):
    raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")
  if isinstance(input_nodes, str):
    raise TypeError("input_nodes must be a list.")
  if isinstance(output_nodes, str):
    raise TypeError("output_nodes must be a list.")
  inputs, nodes, position = _graph_summary(graph_def)
  for name in input_nodes + output_nodes:
    assert name in nodes, "%s is not in graph" % name
  before_inputs = _reachable(input_nodes, inputs)
  before_outputs = _reachable(output_nodes, inputs)
  after_outputs = []
  for node in graph_def.node:
    name = _node_name(node.name)
    if name in before_outputs:
      if name not in before_inputs and name not in output_nodes:
        # a node of the fused subgraph: everything it reads must come through input_nodes
        pending, seen = [name], set()
        while pending:
          current = pending.pop(0)
          seen.add(current)
          if current in before_inputs and current not in input_nodes:
            raise TypeError("Node %s uses input %s not in input_nodes." % (name, current))
          if current not in input_nodes:
            pending += [x for x in inputs[current] if x not in seen]
    elif name not in before_inputs:
      after_outputs.append(name)
  out = tf.compat.v1.GraphDef()
  out.node.extend([copy.deepcopy(nodes[name]) for name in sorted(before_inputs, key=position.get)])
  fused = out.node.add()
  fused.input.extend(input_nodes)
  fused.attr["_output_types"].list.type[:] = output_dtypes
  fused.attr["_output_quantized"].b = output_quantized
  fused.op = op_type
  fused.name = op_name
  for index, name in enumerate(output_nodes):
    assert len(nodes[name].input) == 1
    node = copy.deepcopy(nodes[name])
    del node.input[:]
    node.input.append(op_name + (":%d" % index if index else ""))
    out.node.extend([node])
  out.node.extend([copy.deepcopy(nodes[name]) for name in after_outputs])
  out.library.CopyFrom(graph_def.library)
  out.versions.CopyFrom(graph_def.versions)
  return out


def py_func(func, args=(), kwargs=None, output_types=None, output_shapes=None, stateful=True,
            name=None):
  """tf.py_func with nested args / kwargs / outputs (TF 1.15's contrib.framework.py_func)."""
  if kwargs is None:
    kwargs = {}
  if not isinstance(args, (list, tuple)):
    raise TypeError("args must be list and not {}. args: {}".format(type(args), args))
  if not isinstance(kwargs, dict):
    raise TypeError("kwargs must be dict and not {}. args: {}".format(type(kwargs), kwargs))
  if callable(output_types):
    output_types = output_types(*args, **kwargs)
  if callable(output_shapes):
    output_shapes = output_shapes(*args, **kwargs)
  flat_output_types = nest.flatten(output_types)
  structure = (args, kwargs)

  def wrapper(*flat):
    py_args, py_kwargs = nest.pack_sequence_as(structure, flat)
    ret = func(*py_args, **py_kwargs)
    nest.assert_shallow_structure(output_types, ret)
    return nest.flatten(ret)

  flat_values = V1.py_func(wrapper, nest.flatten(structure), flat_output_types, stateful=stateful,
                           name=name)
  if output_shapes is not None:
    shapes = nest.map_structure_up_to(output_types, tf.TensorShape, output_shapes)
    for value, shape in zip(flat_values, nest.flatten(shapes)):
      value.set_shape(shape)
  return nest.pack_sequence_as(output_types, flat_values)


def zero_initializer(ref, use_locking=True, name="zero_initializer"):
  """An op that sets the variable `ref` to zeros (an assign; see the module docstring)."""
  return V1.assign(ref, tf.zeros(ref.shape, ref.dtype.base_dtype), use_locking=use_locking,
                   name=name).op


def _remap_initializer():
  from tensorflow.python.training import checkpoint_ops  # pylint: disable=import-outside-toplevel
  return checkpoint_ops._load_and_remap_matrix_initializer  # pylint: disable=protected-access


def load_linear_multiclass_bias_initializer(ckpt_path, bias_tensor_name, new_class_vocab_size,
                                            old_class_vocab_file, new_class_vocab_file,
                                            num_class_oov_buckets=0, initializer=None,
                                            max_rows_in_memory=-1):
  """An initializer of a multi-class bias [classes] from a checkpoint's, remapped to a new class vocabulary."""
  return _remap_initializer()(
      ckpt_path=ckpt_path, old_tensor_name=bias_tensor_name, new_row_vocab_size=new_class_vocab_size,
      new_col_vocab_size=1, old_row_vocab_file=old_class_vocab_file,
      new_row_vocab_file=new_class_vocab_file, old_col_vocab_file=None, new_col_vocab_file=None,
      num_row_oov_buckets=num_class_oov_buckets, num_col_oov_buckets=0,
      initializer=initializer if initializer is not None else V1.zeros_initializer(),
      max_rows_in_memory=max_rows_in_memory)


def load_variable_slot_initializer(ckpt_path, old_tensor_name, primary_partition_info,
                                   new_row_vocab_size, new_col_vocab_size, old_row_vocab_file=None,
                                   new_row_vocab_file=None, old_col_vocab_file=None,
                                   new_col_vocab_file=None, num_row_oov_buckets=0,
                                   num_col_oov_buckets=0, initializer=None, max_rows_in_memory=-1):
  """A remapping initializer of an optimizer slot, partitioned as its primary variable is."""
  initializer_fn = _remap_initializer()(
      ckpt_path=ckpt_path, old_tensor_name=old_tensor_name, new_row_vocab_size=new_row_vocab_size,
      new_col_vocab_size=new_col_vocab_size, old_row_vocab_file=old_row_vocab_file,
      new_row_vocab_file=new_row_vocab_file, old_col_vocab_file=old_col_vocab_file,
      new_col_vocab_file=new_col_vocab_file, num_row_oov_buckets=num_row_oov_buckets,
      num_col_oov_buckets=num_col_oov_buckets, initializer=initializer,
      max_rows_in_memory=max_rows_in_memory)

  def _initializer(shape, dtype=tf.float32, partition_info=None):
    del partition_info
    return initializer_fn(shape, dtype, partition_info=primary_partition_info)
  return _initializer
