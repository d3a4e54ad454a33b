"""`tf.contrib.layers.fully_connected` and `flatten`, as in TF 1.15 (variable names included).

Place in the data flow (DESIGN.md): contrib.framework.model_variable <- contrib.layers (this
module) <- compat <- cli.

`fully_connected(x, n, scope="fc1")` creates `fc1/weights` and `fc1/biases` (default scope
`fully_connected`, `fully_connected_1`, ...), both in MODEL_VARIABLES, so checkpoints written by
TF1's contrib layer restore unchanged. Unlike `tf.compat.v1.layers.dense`, the default
activation is ReLU and the default weight initializer is contrib's xavier_initializer.
"""

import tensorflow as tf

from tf1clip.contrib import framework
from tf1clip.contrib.layers import graph_collections
from tf1clip.contrib.layers import initializers


def fully_connected(inputs, num_outputs, activation_fn=tf.nn.relu, normalizer_fn=None,
                    normalizer_params=None,
                    weights_initializer=initializers.xavier_initializer(),
                    weights_regularizer=None,
                    biases_initializer=tf.compat.v1.zeros_initializer(),
                    biases_regularizer=None, reuse=None, variables_collections=None,
                    outputs_collections=None, trainable=True, scope=None):
  """Adds a fully connected layer: activation_fn(normalizer_fn(inputs @ weights) or + biases).

  Inputs of rank > 2 are multiplied along their last dimension (as TF1's Dense layer did).

  Args:
    inputs: a Tensor of rank >= 2 whose last dimension is known.
    num_outputs: an int, the number of output units.
    activation_fn: applied last; None keeps the layer linear. Default ReLU.
    normalizer_fn: e.g. `layer_norm`; when given, no biases are created.
    normalizer_params: keyword arguments for `normalizer_fn`.
    weights_initializer, weights_regularizer: for the `weights` variable.
    biases_initializer: for `biases`; None creates no biases.
    biases_regularizer: for `biases`.
    reuse: reuse the variables of `scope`.
    variables_collections: extra collections, a list or a dict keyed "weights"/"biases".
    outputs_collections: collections for the output tensor.
    trainable: add the variables to TRAINABLE_VARIABLES.
    scope: the variable scope (default "fully_connected", made unique).

  Returns:
    The output Tensor, shape inputs.shape[:-1] + [num_outputs].

  Raises:
    ValueError: if `num_outputs` is not an int, or the rank or last dimension of `inputs` is
      unknown or the rank is below 2.
  """
  if isinstance(num_outputs, bool) or not isinstance(num_outputs, int):
    raise ValueError("num_outputs should be an int; got a %s: %r"
                     % (type(num_outputs).__name__, num_outputs))
  with tf.compat.v1.variable_scope(scope, "fully_connected", [inputs], reuse=reuse) as sc:
    inputs = tf.convert_to_tensor(inputs)
    dtype = inputs.dtype.base_dtype
    rank = inputs.shape.ndims
    if rank is None or rank < 2 or inputs.shape[-1] is None:
      raise ValueError("fully_connected needs inputs of rank >= 2 with a known last dimension; "
                       "got %s with shape %s" % (inputs.name, inputs.shape))
    weights = framework.model_variable(
        "weights", shape=[int(inputs.shape[-1]), num_outputs], dtype=dtype,
        initializer=weights_initializer, regularizer=weights_regularizer,
        trainable=trainable)
    graph_collections.add_variable_to_collections(weights, variables_collections, "weights")
    if rank == 2:
      outputs = tf.matmul(inputs, weights)
    else:
      outputs = tf.tensordot(inputs, weights, [[rank - 1], [0]])
      outputs.set_shape(inputs.shape[:-1].concatenate([num_outputs]))
    if normalizer_fn is None and biases_initializer is not None:
      biases = framework.model_variable(
          "biases", shape=[num_outputs], dtype=dtype, initializer=biases_initializer,
          regularizer=biases_regularizer, trainable=trainable)
      graph_collections.add_variable_to_collections(biases, variables_collections, "biases")
      outputs = tf.nn.bias_add(outputs, biases)
    if normalizer_fn is not None:
      outputs = normalizer_fn(outputs, **(normalizer_params or {}))
    if activation_fn is not None:
      outputs = activation_fn(outputs)
    return graph_collections.collect_named_outputs(outputs_collections, sc.name, outputs)


def flatten(inputs, outputs_collections=None, scope=None):
  """Flattens all but the first (batch) dimension: [N, d1, d2, ...] -> [N, d1 * d2 * ...].

  Args:
    inputs: a Tensor of known rank >= 1 (rank 1 becomes [N, 1]).
    outputs_collections: collections for the output tensor.
    scope: an optional name scope (default "Flatten").

  Returns:
    A rank-2 Tensor; its second dimension is static when the flattened dimensions are.

  Raises:
    ValueError: if the rank of `inputs` is unknown or 0.
  """
  with tf.compat.v1.name_scope(scope, "Flatten", [inputs]) as sc:
    inputs = tf.convert_to_tensor(inputs)
    rank = inputs.shape.ndims
    if rank is None or rank == 0:
      raise ValueError("flatten needs inputs of known rank >= 1; got %s with shape %s"
                       % (inputs.name, inputs.shape))
    if rank == 1:
      outputs = tf.expand_dims(inputs, 1)
    else:
      batch = inputs.shape[0] if inputs.shape[0] is not None else tf.shape(inputs)[0]
      outputs = tf.reshape(inputs, [batch, -1])
      inner = inputs.shape[1:].num_elements()
      outputs.set_shape([inputs.shape[0], inner])
    return graph_collections.collect_named_outputs(outputs_collections, sc, outputs)
