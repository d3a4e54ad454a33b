"""Fake-quantization layers, TF 1.15's `tensorflow/contrib/quantize/python/quant_ops.py` rewritten.

A layer is a FakeQuantWithMinMaxVars (FakeQuantWithMinMaxVarsPerChannel with `per_channel`; TensorFlow's own op,
with TF 1.15's kernel and gradient) reading two non-trainable variables, `<name_prefix>/min` and
`<name_prefix>/max`, made by `get_variable` in a variable scope of that name, so they are checkpointed under it.
How the range follows the data in a training graph is what tells the layers apart:

  LastValueQuantize   (weights)      min / max := the batch's range
  MovingAvgQuantize   (activations)  min / max := a zero-debiased moving average of the batches' ranges
                                     (TF 1.15's assign_moving_average: also `min/biased`, `min/local_step`, ...)
  FixedQuantize                      no variables, the range [init_min, init_max]

A batch's range always contains 0 (TFLite requires it); a symmetric one is widened to [-r * a, r] or [-r, r]
around the larger side. In an eval graph the variables are only read.

TensorFlow 2.21 has no public `assign_moving_average` (tf.compat.v1.train lacks it), so this module imports
`tensorflow.python.training.moving_averages`, as contrib.training.python.training.resample does.
"""

import tensorflow as tf
from tensorflow.python.training import moving_averages  # zero-debiased, as TF 1.15 called it

V1 = tf.compat.v1

# pylint: disable=invalid-name  (TF 1.15's function names)


def FixedQuantize(inputs, init_min=-6.0, init_max=6.0, scope=None):
  """`inputs` fake-quantized over the fixed range [init_min, init_max] (a FakeQuantWithMinMaxArgs op)."""
  with V1.name_scope(scope, 'FixedQuantize', values=[inputs]):
    return tf.quantization.fake_quant_with_min_max_args(inputs, min=init_min, max=init_max)


def LastValueQuantize(inputs, per_channel=False, init_min=-6.0, init_max=6.0, vars_collection=None,
                      name_prefix='LastValueQuant', reuse=None, is_training=True, num_bits=8, narrow_range=False,
                      symmetric=False):
  """`inputs` fake-quantized over the range of the last batch seen (`AssignMinLast` / `AssignMaxLast`).

  Args: as `MovingAvgQuantize`'s, without `ema_decay`; `vars_collection` defaults to none besides
    GLOBAL_VARIABLES.

  Returns:
    The fake-quantized tensor.
  """
  def last_value(variable, value, name):
    return V1.assign(variable, value, name=name + 'Last')

  return _quantize(inputs, last_value, per_channel, init_min, init_max, vars_collection, name_prefix, reuse,
                   is_training, num_bits, narrow_range, symmetric)


def MovingAvgQuantize(inputs, per_channel=False, init_min=-6.0, init_max=6.0, ema_decay=0.999,
                      vars_collection=V1.GraphKeys.MOVING_AVERAGE_VARIABLES, name_prefix='MovingAvgQuantize',
                      reuse=None, is_training=True, num_bits=8, narrow_range=False, symmetric=False):
  """`inputs` fake-quantized over a moving average of the batches' ranges (`AssignMinEma` / `AssignMaxEma`).

  Args:
    inputs: the float tensor to quantize.
    per_channel: one range per channel (the last dimension; 1-D, 2-D or 4-D `inputs`) instead of one.
    init_min: the initial value of the `min` variable.
    init_max: the initial value of the `max` variable.
    ema_decay: the moving average's decay.
    vars_collection: a collection the two variables join besides GLOBAL_VARIABLES (None: none).
    name_prefix: the variable scope of the layer (made unique: `_1`, ... when taken).
    reuse: reuse the variables of an existing layer of this name.
    is_training: whether the range follows the batches (else the variables are only read).
    num_bits: the quantization's bits, 2 to 8 (the op checks).
    narrow_range: quantize to [1, 2^num_bits - 1] instead of [0, 2^num_bits - 1].
    symmetric: a range symmetric around 0 instead of the trained min and max.

  Returns:
    The fake-quantized tensor.
  """
  def moving_average(variable, value, name):
    return moving_averages.assign_moving_average(variable, value, ema_decay, name=name + 'Ema')

  return _quantize(inputs, moving_average, per_channel, init_min, init_max, vars_collection, name_prefix, reuse,
                   is_training, num_bits, narrow_range, symmetric)


def _quantize(inputs, update, per_channel, init_min, init_max, vars_collection, name_prefix, reuse, is_training,
              num_bits, narrow_range, symmetric):
  """The body both layers share; `update(variable, batch_value, 'AssignMin' / 'AssignMax')` moves a bound."""
  with V1.variable_scope(None, default_name=name_prefix, values=[inputs], reuse=reuse) as scope:
    scope.set_partitioner(None)
    shape = inputs.get_shape()
    if per_channel:
      assert len(shape) in (1, 2, 4), 'Expected 1D, 2D or 4D input, was: %s in  scope: %s' % (shape, name_prefix)
    bound_shape = [shape[-1]] if per_channel else []
    collections = ([vars_collection] if vars_collection else []) + [V1.GraphKeys.GLOBAL_VARIABLES]
    bounds = [V1.get_variable(name, shape=bound_shape, initializer=V1.constant_initializer(value),
                              collections=collections, trainable=False, aggregation=tf.VariableAggregation.MEAN)
              for name, value in (('min', init_min), ('max', init_max))]
    if is_training:
      batch_bounds = _batch_range(inputs, per_channel, num_bits, narrow_range, symmetric)
      bounds = [update(bound, value, name)
                for bound, value, name in zip(bounds, batch_bounds, ('AssignMin', 'AssignMax'))]
    return _fake_quant(inputs, bounds[0], bounds[1], per_channel, num_bits, narrow_range)


def _batch_range(inputs, per_channel, num_bits, narrow_range, symmetric):
  """The batch's (min, max), per channel or overall, widened to contain 0 (and symmetric if asked)."""
  rank = len(inputs.get_shape())
  if per_channel and rank < 2:
    low = high = inputs  # a 1-D per-channel tensor is its own range
  else:
    axis = {2: [0], 4: [0, 1, 2]}[rank] if per_channel else None
    low = tf.reduce_min(inputs, axis=axis, name='BatchMin')
    high = tf.reduce_max(inputs, axis=axis, name='BatchMax')
  if not symmetric:
    return tf.minimum(low, 0.0), tf.maximum(high, 0.0)
  # two's complement: the negative side has one step more, unless the range is narrow
  ratio = -1 if narrow_range else -((1 << num_bits) - 2) / (1 << num_bits)
  # low <= high, so this range also contains 0
  return tf.minimum(low, high / ratio), tf.maximum(high, low * ratio)


def _fake_quant(inputs, low, high, per_channel, num_bits, narrow_range):
  """The FakeQuant op over [low, high] (vectors with `per_channel`, else scalars)."""
  if per_channel:
    assert low.get_shape().ndims == 1 and high.get_shape().ndims == 1
    return tf.quantization.fake_quant_with_min_max_vars_per_channel(inputs, low, high, num_bits=num_bits,
                                                                    narrow_range=narrow_range)
  assert low.get_shape().ndims == 0 and high.get_shape().ndims == 0
  return tf.quantization.fake_quant_with_min_max_vars(inputs, low, high, num_bits=num_bits,
                                                      narrow_range=narrow_range)
