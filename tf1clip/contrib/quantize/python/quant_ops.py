"""`tf.contrib.quantize`'s quant_ops: fake-quantization layers with min/max variables (TF 1.15's code).

Place in the data flow (DESIGN.md): tf ops <- **contrib.quantize.quant_ops** <- quantize <- quantize_graph <-
compat <- cli.

`LastValueQuantize` (weights) and `MovingAvgQuantize` (activations) create the non-trainable variables
`<name_prefix>/min` and `<name_prefix>/max` and feed `FakeQuantWithMinMaxVars` (TensorFlow's own op, the same
kernel and gradient as TF 1.15's). When training, the range is the batch's [min(x, 0), max(x, 0)] assigned as is
(last value) or as a zero-debiased moving average (TF 1.15's `assign_moving_average`, which adds the
`min/biased`, `min/local_step`, ... variables); in an eval graph the variables are read as they are.

TensorFlow 2.21 has no public `assign_moving_average` (tf.compat.v1.train lacks it), so this module imports
`tensorflow.python.training.moving_averages`, as contrib.training.python.training.resample does.
"""

import tensorflow as tf
from tensorflow.python.training import moving_averages  # zero-debiased, as TF 1.15 called it

V1 = tf.compat.v1

# pylint: disable=invalid-name  (TF 1.15's CamelCase function names)


def FixedQuantize(inputs, init_min=-6.0, init_max=6.0, scope=None):
  """A fake quantize layer with the fixed interval [init_min, init_max]."""
  with V1.name_scope(scope, 'FixedQuantize', values=[inputs]):
    return tf.quantization.fake_quant_with_min_max_args(inputs, min=init_min, max=init_max)


def _ModelVariable(name, shape=None, initializer=None, collections=None, trainable=None):
  collections = list(collections or [])
  collections += [V1.GraphKeys.GLOBAL_VARIABLES]
  return V1.get_variable(name, shape=shape, initializer=initializer, collections=collections, trainable=trainable,
                         aggregation=tf.VariableAggregation.MEAN)


def _MinMaxVariables(inputs, per_channel, init_min, init_max, vars_collection, name_prefix):
  """The 'min' and 'max' variables of one quantize layer (in the current variable scope)."""
  input_shape = inputs.get_shape()
  if per_channel:
    input_dim = len(input_shape)
    # Only support quantizing 1-, 2- and 4-dimensional tensors.
    assert input_dim in [1, 2, 4], ('Expected 1D, 2D or 4D input, was: %s in  scope: %s' %
                                    (input_shape, name_prefix))
    min_max_shape = [input_shape[-1]]
  else:
    min_max_shape = []
  vars_collections = [vars_collection] if vars_collection else []
  min_var = _ModelVariable('min', shape=min_max_shape, initializer=V1.constant_initializer(init_min),
                           collections=vars_collections, trainable=False)
  max_var = _ModelVariable('max', shape=min_max_shape, initializer=V1.constant_initializer(init_max),
                           collections=vars_collections, trainable=False)
  return min_var, max_var


def _BatchRange(inputs, per_channel, num_bits, narrow_range, symmetric):
  """The batch's quantization range (range_min, range_max), 0 always inside."""
  input_dim = len(inputs.get_shape())
  if per_channel:
    if input_dim == 2:
      reduce_dims = [0]
    elif input_dim == 4:
      reduce_dims = [0, 1, 2]

  if per_channel:
    if input_dim >= 2:
      batch_min = tf.reduce_min(inputs, axis=reduce_dims, name='BatchMin')
    else:
      batch_min = inputs
  else:
    batch_min = tf.reduce_min(inputs, name='BatchMin')

  if per_channel:
    if input_dim >= 2:
      batch_max = tf.reduce_max(inputs, axis=reduce_dims, name='BatchMax')
    else:
      batch_max = inputs
  else:
    batch_max = tf.reduce_max(inputs, name='BatchMax')

  if symmetric:
    if narrow_range:
      min_max_ratio = -1
    else:
      # In two's complement notation, the negative range is slightly larger than the positive range.
      min_max_ratio = -((1 << num_bits) - 2) / (1 << num_bits)

    # TFLite requires that 0.0 is always in the [min; max] range. Because batch_min <= batch_max, it follows that
    # range_min <= 0 <= range_max.
    range_min = tf.minimum(batch_min, batch_max / min_max_ratio)
    range_max = tf.maximum(batch_max, batch_min * min_max_ratio)
  else:
    # TFLite requires that 0.0 is always in the [min; max] range.
    range_min = tf.minimum(batch_min, 0.0)
    range_max = tf.maximum(batch_max, 0.0)
  return range_min, range_max


def LastValueQuantize(inputs, per_channel=False, init_min=-6.0, init_max=6.0, vars_collection=None,
                      name_prefix='LastValueQuant', reuse=None, is_training=True, num_bits=8, narrow_range=False,
                      symmetric=False):
  """A fake quantize layer whose range is the last batch's (variables 'min' and 'max' under `name_prefix`).

  Args:
    inputs: a tensor containing values to be quantized.
    per_channel: (Optional) a boolean specifying whether to use different quantization ranges per output channel.
    init_min: a float scalar, the initial value for variable min.
    init_max: a float scalar, the initial value for variable max.
    vars_collection: (Optional) collection where to store variables for quantization interval ends.
    name_prefix: name_prefix for created nodes.
    reuse: whether or not the layer and its variables should be reused.
    is_training: Whether the op is applied to a training or eval graph.
    num_bits: Number of bits to use for quantization, must be between 2 and 8.
    narrow_range: Whether to use the narrow quantization range [1; 2^num_bits - 1] or wide range
      [0; 2^num_bits - 1].
    symmetric: If true, use symmetric quantization limits instead of training the minimum and maximum of each
      quantization range separately.

  Returns:
    a tensor containing quantized values.
  """
  with V1.variable_scope(None, default_name=name_prefix, values=[inputs], reuse=reuse) as scope:
    scope.set_partitioner(None)
    min_var, max_var = _MinMaxVariables(inputs, per_channel, init_min, init_max, vars_collection, name_prefix)
    if not is_training:
      return _FakeQuantWithMinMaxVars(inputs, min_var, max_var, per_channel=per_channel, num_bits=num_bits,
                                      narrow_range=narrow_range)
    range_min, range_max = _BatchRange(inputs, per_channel, num_bits, narrow_range, symmetric)
    assign_min = V1.assign(min_var, range_min, name='AssignMinLast')
    assign_max = V1.assign(max_var, range_max, name='AssignMaxLast')
    return _FakeQuantWithMinMaxVars(inputs, assign_min, assign_max, per_channel=per_channel, num_bits=num_bits,
                                    narrow_range=narrow_range)


def MovingAvgQuantize(inputs, per_channel=False, init_min=-6.0, init_max=6.0, ema_decay=0.999,
                      vars_collection=V1.GraphKeys.MOVING_AVERAGE_VARIABLES, name_prefix='MovingAvgQuantize',
                      reuse=None, is_training=True, num_bits=8, narrow_range=False, symmetric=False):
  """A fake quantize layer whose range is a moving average of the batches' (variables 'min' and 'max').

  Args:
    inputs: a tensor containing values to be quantized.
    per_channel: (default False) a boolean specifying whether to use different quantization ranges per output
      channel.
    init_min: a float scalar, the initial value for variable min.
    init_max: a float scalar, the initial value for variable max.
    ema_decay: EMA decay parameter.
    vars_collection: (Optional) collection where to store variables for quantization interval ends.
    name_prefix: name_prefix for created nodes.
    reuse: whether or not the layer and its variables should be reused.
    is_training: Whether the op is applied to a training or eval graph.
    num_bits: Number of bits to use for quantization, must be between 2 and 8.
    narrow_range: Whether to use the narrow quantization range [1; 2^num_bits - 1] or wide range
      [0; 2^num_bits - 1].
    symmetric: If true, use symmetric quantization limits instead of training the minimum and maximum of each
      quantization range separately.

  Returns:
    a tensor containing quantized values.
  """
  with V1.variable_scope(None, default_name=name_prefix, values=[inputs], reuse=reuse) as scope:
    scope.set_partitioner(None)
    min_var, max_var = _MinMaxVariables(inputs, per_channel, init_min, init_max, vars_collection, name_prefix)
    if not is_training:
      return _FakeQuantWithMinMaxVars(inputs, min_var, max_var, per_channel=per_channel, num_bits=num_bits,
                                      narrow_range=narrow_range)
    range_min, range_max = _BatchRange(inputs, per_channel, num_bits, narrow_range, symmetric)
    assign_min = moving_averages.assign_moving_average(min_var, range_min, ema_decay, name='AssignMinEma')
    assign_max = moving_averages.assign_moving_average(max_var, range_max, ema_decay, name='AssignMaxEma')
    return _FakeQuantWithMinMaxVars(inputs, assign_min, assign_max, per_channel=per_channel, num_bits=num_bits,
                                    narrow_range=narrow_range)


def _FakeQuantWithMinMaxVars(inputs, min_var, max_var, per_channel, num_bits, narrow_range):
  """A FakeQuantWithMinMaxVars op (per channel: FakeQuantWithMinMaxVarsPerChannel) of `inputs`."""
  if per_channel:
    assert len(min_var.get_shape()) == 1
    assert len(max_var.get_shape()) == 1
    return tf.quantization.fake_quant_with_min_max_vars_per_channel(
        inputs, min_var, max_var, num_bits=num_bits, narrow_range=narrow_range)
  else:
    assert min_var.get_shape() == []  # pylint: disable=g-explicit-bool-comparison
    assert max_var.get_shape() == []  # pylint: disable=g-explicit-bool-comparison
    return tf.quantization.fake_quant_with_min_max_vars(
        inputs, min_var, max_var, num_bits=num_bits, narrow_range=narrow_range)
