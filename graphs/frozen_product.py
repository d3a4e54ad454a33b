"""Reference graph: w1 learns to match a frozen product w2 * w3 behind tf.stop_gradient.

The situation it reproduces: training only some variables. Here the loss
mean((x @ w1 - stop_gradient(x @ (w2 * w3)))^2) reaches w2 and w3 only through
`tf.stop_gradient`, so `compute_gradients` returns (None, w2) and (None, w3): the `None`
entries that break naive clipping code (`[tf.clip_by_norm(g, c) for g, v in ...]`), and
that tf1clip passes through. Plain SGD drives w1 to w2 * w3 while w2 and w3 stay put,
which is the contrast with `var_list` (no gradient asked for) and with evaluating
`tf.gradients` (no update at all) that docs/graphs.md draws.
"""

import dataclasses

import numpy as np
import tensorflow as tf

from graphs import model as model_lib


@dataclasses.dataclass(frozen=True, eq=False)
class Model(model_lib.Model):
  """The frozen-product graph.

  Attributes:
    w1: the learned [input_size, output_size] variable.
    w2, w3: the frozen factors (same shape); trainable, but the loss blocks their gradient.
    target: the Tensor w2 * w3 that w1 converges to.
  """
  w1: object
  w2: object
  w3: object
  target: object


def build(input_size=4, output_size=2, seed=0, scope="frozen_product"):
  """Builds the frozen-product regression in the default graph.

  Placeholder: "x" [batch, input_size] float32 (standard normal batches, so any
  input_size gives a well-conditioned least-squares problem).

  Args:
    input_size: rows of w1, w2, w3.
    output_size: columns of w1, w2, w3.
    seed: int; fixes the initial values of w1, w2, w3.
    scope: variable scope of the weights and name scope of the placeholder.

  Returns:
    Model, with placeholders {"x"}, variables [w1, w2, w3] and extras w1, w2, w3, target.

  Raises:
    ValueError: a size is not a positive int.
  """
  model_lib.check_sizes(input_size=input_size, output_size=output_size)
  shape = [input_size, output_size]
  with tf.compat.v1.variable_scope(scope):
    x = tf.compat.v1.placeholder(tf.float32, [None, input_size], name="x")
    w1, w2, w3 = [
        tf.compat.v1.get_variable(
            name, shape, initializer=tf.compat.v1.random_normal_initializer(
                seed=model_lib.op_seed(seed, index)))
        for index, name in enumerate(("w1", "w2", "w3"))]
    target = w2 * w3
    loss = tf.reduce_mean(
        tf.square(tf.matmul(x, w1) - tf.stop_gradient(tf.matmul(x, target))), name="loss")

  def make_arrays(batch_seed, batch_size):
    rng = model_lib.batch_rng(batch_seed)
    batch_size = model_lib.check_batch_size(batch_size)
    return {"x": rng.standard_normal((batch_size, input_size)).astype(np.float32)}

  return Model(placeholders={"x": x}, loss=loss, variables=[w1, w2, w3],
               make_arrays=make_arrays, w1=w1, w2=w2, w3=w3, target=target)
