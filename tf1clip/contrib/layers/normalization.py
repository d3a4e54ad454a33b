"""`tf.contrib.layers.layer_norm`, as in TF 1.15 (variables `LayerNorm/beta`, `LayerNorm/gamma`).

Place in the data flow (DESIGN.md): contrib.framework.model_variable <- contrib.layers (this
module; also used by contrib.rnn.LayerNormBasicLSTMCell) <- compat <- cli.
"""

import tensorflow as tf

from tf1clip.contrib import framework
from tf1clip.contrib.layers import graph_collections


def layer_norm(inputs, center=True, scale=True, activation_fn=None, reuse=None,
               variables_collections=None, outputs_collections=None, trainable=True,
               begin_norm_axis=1, begin_params_axis=-1, scope=None):
  """Adds layer normalization: normalize over axes begin_norm_axis..R-1, then scale and shift.

  outputs = gamma * (inputs - mean) / sqrt(variance + eps) + beta, with mean and variance over
  axes begin_norm_axis..R-1 of each example, eps = 1e-12 (1e-3 for float16), and beta/gamma of
  shape inputs.shape[begin_params_axis:] (initialized to 0 and 1).

  Args:
    inputs: a Tensor of known rank R.
    center: create and add `beta`.
    scale: create and multiply by `gamma`.
    activation_fn: applied to the result when not None.
    reuse: reuse the variables of `scope`.
    variables_collections: extra collections, a list or a dict keyed "beta"/"gamma".
    outputs_collections: collections for the output tensor.
    trainable: add the variables to TRAINABLE_VARIABLES.
    begin_norm_axis: first normalized axis (negative counts from the end).
    begin_params_axis: first axis of beta and gamma's shape.
    scope: the variable scope (default "LayerNorm", made unique).

  Returns:
    A Tensor with the shape and dtype of `inputs`.

  Raises:
    ValueError: if the rank of `inputs` is unknown, an axis is out of range, or
      inputs.shape[begin_params_axis:] is not fully defined.

  References:
    Ba, Kiros, Hinton, "Layer Normalization", 2016 (arXiv:1607.06450).
  """
  with tf.compat.v1.variable_scope(scope, "LayerNorm", [inputs], reuse=reuse) as sc:
    inputs = tf.convert_to_tensor(inputs)
    inputs_shape = inputs.shape
    rank = inputs_shape.ndims
    if rank is None:
      raise ValueError("layer_norm needs inputs of known rank; got %s" % inputs.name)
    dtype = inputs.dtype.base_dtype
    if begin_norm_axis < 0:
      begin_norm_axis = rank + begin_norm_axis
    if begin_params_axis >= rank or begin_norm_axis >= rank:
      raise ValueError("begin_params_axis (%d) and begin_norm_axis (%d) must be < rank(inputs) "
                       "(%d)" % (begin_params_axis, begin_norm_axis, rank))
    params_shape = inputs_shape[begin_params_axis:]
    if not params_shape.is_fully_defined():
      raise ValueError("layer_norm: inputs %s have shape %s; shape[%d:] must be fully defined"
                       % (inputs.name, inputs_shape, begin_params_axis))
    beta = gamma = None
    if center:
      beta = framework.model_variable(
          "beta", shape=params_shape, dtype=dtype,
          initializer=tf.compat.v1.zeros_initializer(),
          collections=graph_collections.variable_collections(variables_collections, "beta"),
          trainable=trainable)
    if scale:
      gamma = framework.model_variable(
          "gamma", shape=params_shape, dtype=dtype,
          initializer=tf.compat.v1.ones_initializer(),
          collections=graph_collections.variable_collections(variables_collections, "gamma"),
          trainable=trainable)
    mean, variance = tf.nn.moments(inputs, list(range(begin_norm_axis, rank)), keepdims=True)
    # float16 cannot represent 1e-12 usefully.
    variance_epsilon = 1e-12 if dtype != tf.float16 else 1e-3
    outputs = tf.nn.batch_normalization(inputs, mean, variance, offset=beta, scale=gamma,
                                        variance_epsilon=variance_epsilon)
    outputs.set_shape(inputs_shape)
    if activation_fn is not None:
      outputs = activation_fn(outputs)
    return graph_collections.collect_named_outputs(outputs_collections, sc.name, outputs)
