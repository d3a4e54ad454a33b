"""TF 1.15's rnn_cell `_Linear` and sharded weights: the affine maps contrib's cells and wrappers build gates with.

Place in the data flow (DESIGN.md): tf.compat.v1 variables <- **contrib.rnn.linear** <- contrib.rnn's
wrappers and gated cells.
"""

import math

import tensorflow as tf

V1 = tf.compat.v1


def linear(args, output_size, bias=True):
  """[args] kernel (+ bias): variables `kernel` [sum of depths, output_size] and `bias` in the scope."""
  args = args if isinstance(args, (list, tuple)) else [args]
  total = 0
  for arg in args:
    depth = tf.compat.dimension_value(arg.shape.with_rank(2)[1])
    if depth is None:
      raise ValueError("linear needs every argument's last dimension known; got shape %s" % arg.shape)
    total += int(depth)
  dtype = args[0].dtype
  kernel = V1.get_variable("kernel", [total, output_size], dtype=dtype)
  inputs = args[0] if len(args) == 1 else tf.concat(args, 1)
  out = tf.matmul(inputs, kernel)
  if not bias:
    return out
  bias_var = V1.get_variable("bias", [output_size], dtype=dtype,
                             initializer=V1.constant_initializer(0.0, dtype=dtype))
  return tf.nn.bias_add(out, bias_var)


def concat_sharded_variable(name, shape, dtype, num_shards):
  """TF 1.15's sharded weight: `name`_0 .. `name`_{n-1} split over rows, used concatenated."""
  if num_shards > shape[0]:
    raise ValueError("Too many shards: %d shards for a variable of shape %s" % (num_shards, shape))
  unit = int(math.floor(shape[0] / num_shards))
  remaining = shape[0] - unit * num_shards
  shards = [V1.get_variable("%s_%d" % (name, i), [unit + (1 if i < remaining else 0)] + shape[1:],
                            dtype=dtype) for i in range(num_shards)]
  return shards[0] if num_shards == 1 else tf.concat(shards, 0, name=name + "/concat")
