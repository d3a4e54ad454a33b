"""TF 1.15's rnn_cell `_Linear`, sharded weights and the cells' layer norm: what contrib's cells build gates with.

Place in the data flow (DESIGN.md): tf.compat.v1 variables, tf-slim's layer_norm <- **contrib.rnn.linear** <-
contrib.rnn's wrappers and cells, legacy_seq2seq, grid_rnn.
"""

import math

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

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


# Not converted by AutoGraph (Keras converts a cell's `call`): resolving tf-slim's function imports modules, and
# AutoGraph would convert the import machinery too (an order-dependent failure: a dict instead of the function).
@tf.autograph.experimental.do_not_convert
def layer_norm(inp, scope, gain, shift, dtype=None):
  """TF 1.15's cells' layer normalization of `inp` in `scope`: `gamma`/`beta` start at gain/shift.

  The variables are created here with the cell's initial gain and shift; contrib.layers.layer_norm (tf-slim's,
  the very function TF 1.15's cells called) then reuses them.
  """
  dtype = dtype or inp.dtype
  with V1.variable_scope(scope):
    V1.get_variable("gamma", shape=inp.shape[-1:], dtype=dtype, initializer=V1.constant_initializer(gain))
    V1.get_variable("beta", shape=inp.shape[-1:], dtype=dtype, initializer=V1.constant_initializer(shift))
  return _catalog.resolve("tf_slim:layer_norm")(inp, reuse=True, scope=scope)
