"""`tf.contrib.model_pruning`'s pruning_utils: the mask / threshold variables and the block-pruning helpers.

Mirrors TF 1.15's `tensorflow/contrib/model_pruning/python/pruning_utils.py`.

TF 1.15's code: `weight_mask_variable` / `weight_threshold_variable` create `<scope>/mask` (ones, the weight's
shape) and `<scope>/threshold` (a zero scalar), non-trainable; `expand_tensor` (a Kronecker product with a block of
ones, by scatter_nd as TF 1.15 did), `factorized_pool` (m x n pooling as 1 x m then 1 x n, the TPU path) and the
assign helpers for plain and partitioned variables.
"""

import numpy as np
import tensorflow as tf

def weight_mask_variable(var, scope):
  """The mask variable `<scope>/mask` of `var`'s shape and dtype, initialized to ones, not trainable."""
  with tf.compat.v1.variable_scope(scope):
    mask = tf.compat.v1.get_variable("mask", var.get_shape(), initializer=tf.compat.v1.ones_initializer(),
                                     trainable=False, dtype=var.dtype)
  return mask

def weight_threshold_variable(var, scope):
  """The scalar threshold variable `<scope>/threshold` of `var`'s dtype, initialized to 0, not trainable."""
  with tf.compat.v1.variable_scope(scope):
    threshold = tf.compat.v1.get_variable("threshold", [], initializer=tf.compat.v1.zeros_initializer(),
                                          trainable=False, dtype=var.dtype)
    return threshold

def kronecker_product(mat1, mat2):
  """The Kronecker product [m*p, n*q] of matrices mat1 [m, n] and mat2 [p, q]."""
  m1, n1 = mat1.get_shape().as_list()
  mat1_rsh = tf.reshape(mat1, [m1, 1, n1, 1])
  m2, n2 = mat2.get_shape().as_list()
  mat2_rsh = tf.reshape(mat2, [1, m2, 1, n2])
  return tf.reshape(mat1_rsh * mat2_rsh, [m1 * m2, n1 * n2])

def expand_tensor(tensor, block_dims):
  """Expands a 2D tensor by repeating each value into a block of `block_dims` [height, width].

  Args:
    tensor: a rank-2 tensor.
    block_dims: [block_height, block_width].

  Returns:
    The expanded tensor (the Kronecker product of `tensor` and ones(block_dims)).

  Raises:
    ValueError: if tensor is not rank 2 or block_dims does not have 2 elements.
  """
  if tensor.get_shape().ndims != 2:
    raise ValueError("Input tensor must be rank 2")

  if len(block_dims) != 2:
    raise ValueError("block_dims must have 2 elements")

  block_height, block_width = block_dims

  def _tile_rows(tensor, multiple):
    """Create a new tensor by tiling the tensor along rows."""
    return tf.tile(tensor, [multiple, 1])

  def _generate_indices(num_rows, block_dim):
    indices = np.zeros(shape=[num_rows * block_dim, 1], dtype=np.int32)
    for k in range(block_dim):
      for r in range(num_rows):
        indices[k * num_rows + r] = r * block_dim + k
    return indices

  def _replicate_rows(tensor, multiple):
    tensor_shape = tensor.shape.as_list()
    expanded_shape = [tensor_shape[0] * multiple, tensor_shape[1]]
    indices = tf.constant(_generate_indices(tensor_shape[0], multiple))
    return tf.scatter_nd(indices, _tile_rows(tensor, multiple), expanded_shape)

  expanded_tensor = tensor

  # Expand rows by factor block_height.
  if block_height > 1:
    expanded_tensor = _replicate_rows(tensor, block_height)

  # Transpose and expand by factor block_width. Transpose the result.
  if block_width > 1:
    expanded_tensor = tf.transpose(_replicate_rows(tf.transpose(expanded_tensor), block_width))

  return expanded_tensor

def factorized_pool(input_tensor, window_shape, pooling_type, strides, padding, name=None):
  """m x n pooling of a rank-2 tensor done as 1 x m then 1 x n pooling.

  Args:
    input_tensor: a rank-2 tensor.
    window_shape: the pooling window [m, n].
    pooling_type: "MAX" or "AVG".
    strides: the window's strides.
    padding: "SAME" or "VALID".
    name: the op's name scope.

  Returns:
    The rank-2 pooled tensor.

  Raises:
    ValueError: if the input tensor is not rank 2.
  """
  if input_tensor.get_shape().ndims != 2:
    raise ValueError("factorized_pool() accepts tensors of rank 2 only")

  [height, width] = input_tensor.get_shape()
  with tf.compat.v1.name_scope(name, "factorized_pool"):
    input_tensor_aligned = tf.reshape(input_tensor, [1, 1, height, width], name=input_tensor.op.name + "_aligned")

    height_pooling = tf.compat.v1.nn.pool(input_tensor_aligned, window_shape=[1, window_shape[0]],
                                          pooling_type=pooling_type, strides=[1, strides[0]], padding=padding)
    swap_height_width = tf.transpose(height_pooling, perm=[0, 1, 3, 2])

    width_pooling = tf.compat.v1.nn.pool(swap_height_width, window_shape=[1, window_shape[1]],
                                         pooling_type=pooling_type, strides=[1, strides[1]], padding=padding)

  return tf.squeeze(tf.transpose(width_pooling, perm=[0, 1, 3, 2]), axis=[0, 1])

def determine_partitioned_axis(partitioned_variable):
  """The one axis along which `partitioned_variable` is split (ValueError if not exactly one)."""
  partitioned_axis = 0
  concatenated_variable_shape = partitioned_variable.get_shape()
  for partition in partitioned_variable:
    partition_shape = partition.get_shape()
    maybe_partitioned_axis = np.less(partition_shape, concatenated_variable_shape)
    # Sanity check: make sure number of partitioned axis == 1
    if np.count_nonzero(maybe_partitioned_axis) != 1:
      raise ValueError("Number of partitioned axes %s not equal to 1" % np.count_nonzero(maybe_partitioned_axis))
    partitioned_axis = np.where(maybe_partitioned_axis)[0][0]
  return partitioned_axis

def variable_assign(var, new_value):
  """`tf.assign(var, new_value)` named `<var>_assign`."""
  return tf.compat.v1.assign(var, new_value, name=var.op.name + "_assign")

def partitioned_variable_assign(partitioned_var, new_value):
  """One op that assigns the matching slice of `new_value` to each partition of `partitioned_var`."""
  # Determine which axis was used to partition the variable. Currently
  # tensorflow allows partitioning variable only along 1 axis.
  axis = 0 if len(partitioned_var) == 1 else determine_partitioned_axis(partitioned_var)

  partition_sizes = np.array([tf.compat.dimension_value(partition.get_shape()[axis])
                              for partition in partitioned_var])
  new_partitioned_values = tf.split(new_value, tf.convert_to_tensor(partition_sizes, dtype=tf.int32), axis=axis)
  op_list = []
  for partition in partitioned_var:
    op_list.append(variable_assign(partition, new_partitioned_values[len(op_list)]))
  return tf.group(*op_list, name=partitioned_var.name + "_group_assign")
