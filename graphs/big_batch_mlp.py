"""Reference graph: an MLP whose activations, not its parameters, fill memory.

The situation it reproduces: "the batch I want does not fit on my one GPU". Memory of a
training step is parameters (+ gradients + optimizer slots, independent of the batch) plus
activations kept for backprop (proportional to the batch). With hidden layers of width w,
parameters grow like w^2 while activations grow like batch * w, so at batch >> w the
activations dominate and the only way to a big effective batch is to accumulate gradients
of micro-batches and apply their mean once (tf1clip.accumulation). `parameter_count` and
`activations_per_example` let a benchmark print that ratio.

`MEMORY_BOUND` holds sizes for such a benchmark (with batch sizes in the thousands); the
defaults are small, for tests.
"""

import dataclasses
from typing import Callable

import numpy as np
import tensorflow as tf

from graphs import model as model_lib

# At batch_size 4096 these keep ~16.8M activation floats alive, ~18x the ~0.92M parameters.
MEMORY_BOUND = {"input_size": 256, "hidden_sizes": (512, 512, 512, 512), "num_classes": 10}


@dataclasses.dataclass(frozen=True, eq=False)
class Model(model_lib.Model):
  """The MLP graph.

  Attributes:
    logits: [batch, num_classes] float32 Tensor.
    parameter_count: floats in all variables.
    activations_per_example: floats of the layer outputs one example keeps alive for
      backprop (hidden pre- and post-ReLU, and logits); a lower bound of the real count.
    loss_fn: callable ``(inputs, labels) -> loss``: the same forward pass and mean loss on
      other tensors (a micro-batch of a fused accumulation loop), with this model's
      variables; creates none.
  """
  logits: object
  parameter_count: int
  activations_per_example: int
  loss_fn: Callable


def build(input_size=16, hidden_sizes=(32, 32, 32), num_classes=4, seed=0,
          scope="big_batch_mlp"):
  """Builds a ReLU MLP classifier in the default graph.

  Placeholders: "inputs" [batch, input_size] float32 and "labels" [batch] int32; a batch's
  labels are the argmax of a fixed random linear map of its inputs.

  Args:
    input_size: input features.
    hidden_sizes: widths of the hidden layers (a non-empty sequence of positive ints).
    num_classes: classes of the softmax.
    seed: int; fixes the initial weights and the synthetic task.
    scope: variable scope of the weights and name scope of the placeholders.

  Returns:
    Model, with placeholders {"inputs", "labels"}, variables [w0, b0, w1, b1, ...,
    softmax_w, softmax_b] and extras logits, parameter_count, activations_per_example,
    loss_fn.

  Raises:
    ValueError: a size is not a positive int or hidden_sizes is empty.
  """
  model_lib.check_sizes(input_size=input_size, num_classes=num_classes)
  hidden_sizes = tuple(hidden_sizes)
  if not hidden_sizes:
    raise ValueError("`hidden_sizes` must name at least one layer; got %r" % (hidden_sizes,))
  model_lib.check_sizes(**{"hidden_sizes[%d]" % i: w for i, w in enumerate(hidden_sizes)})
  variables = []
  with tf.compat.v1.variable_scope(scope):
    inputs = tf.compat.v1.placeholder(tf.float32, [None, input_size], name="inputs")
    labels = tf.compat.v1.placeholder(tf.int32, [None], name="labels")
    widths = (input_size,) + hidden_sizes + (num_classes,)
    for index, (fan_in, fan_out) in enumerate(zip(widths[:-1], widths[1:])):
      last = index == len(widths) - 2
      # He initialisation keeps ReLU activations at unit scale through the depth.
      variables.append(tf.compat.v1.get_variable(
          "softmax_w" if last else "w%d" % index, [fan_in, fan_out],
          initializer=tf.compat.v1.variance_scaling_initializer(
              scale=1.0 if last else 2.0, seed=model_lib.op_seed(seed, index))))
      variables.append(tf.compat.v1.get_variable(
          "softmax_b" if last else "b%d" % index, [fan_out],
          initializer=tf.compat.v1.zeros_initializer()))
    logits = _logits(variables, inputs)
    loss = _mean_loss(logits, labels, name="loss")

  teacher = model_lib.task_rng(seed).standard_normal((input_size, num_classes))

  def make_arrays(batch_seed, batch_size):
    rng = model_lib.batch_rng(batch_seed)
    batch_size = model_lib.check_batch_size(batch_size)
    x = rng.standard_normal((batch_size, input_size)).astype(np.float32)
    return {"inputs": x, "labels": np.argmax(x @ teacher, axis=1).astype(np.int32)}

  def loss_fn(micro_inputs, micro_labels):
    return _mean_loss(_logits(variables, micro_inputs), micro_labels)

  parameter_count = sum(a * b + b for a, b in zip(widths[:-1], widths[1:]))
  return Model(placeholders={"inputs": inputs, "labels": labels}, loss=loss,
               variables=variables, make_arrays=make_arrays, logits=logits,
               parameter_count=parameter_count,
               activations_per_example=2 * sum(hidden_sizes) + num_classes, loss_fn=loss_fn)


def _logits(variables, inputs):
  """The forward pass: ReLU layers of `variables` [w0, b0, ..., softmax_w, softmax_b]."""
  layer = inputs
  pairs = list(zip(variables[0::2], variables[1::2]))
  for index, (w, b) in enumerate(pairs):
    layer = tf.matmul(layer, w) + b
    if index < len(pairs) - 1:
      layer = tf.nn.relu(layer)
  return layer


def _mean_loss(logits, labels, name=None):
  return tf.reduce_mean(
      tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits), name=name)
