"""Reference graph: an LSTM sequence classifier, statically unrolled, that can explode.

The situation it reproduces: a recurrent model whose gradient norm spikes by orders of
magnitude from one step to the next, which is why `clip_by_global_norm` goes between
`compute_gradients` and `apply_gradients` (examples/clip_lstm.py, benchmarks/clip_overhead.py).
The cell is written out with `get_variable` weights and raw ops (BasicLSTMCell's math:
one kernel for the four gates, forget-gate bias 1.0) because `tf.compat.v1.nn.rnn_cell`
needs tf-keras; the Python loop unrolls it `num_steps` times, as TF1 `static_rnn` did.

`EXPLODING` holds settings (large uniform init, small inputs) whose gradient global norm
is in the tens to hundreds while the default settings give a norm near 0.15.
"""

import dataclasses

import numpy as np
import tensorflow as tf

from graphs import model as model_lib

# Recurrent weights from U(-3, 3) amplify the backpropagated signal at every unrolled step
# instead of damping it; small inputs keep the gates out of saturation, where the
# amplification would vanish. At 20 steps and batch 32 the global norm is ~20 to ~800
# (median ~100) against ~0.15 for the default init, and it grows with num_steps.
EXPLODING = {"init_scale": 3.0, "input_scale": 0.1}


@dataclasses.dataclass(frozen=True, eq=False)
class Model(model_lib.Model):
  """The LSTM classifier's graph.

  Attributes:
    logits: [batch, num_classes] float32 Tensor.
    kernel: the [input_size + hidden_size, 4 * hidden_size] gate kernel (i, j, f, o).
    final_state: (c, h) Tensors after the last step.
  """
  logits: object
  kernel: object
  final_state: tuple


def build(num_steps=20, input_size=4, hidden_size=16, num_classes=3, init_scale=0.1,
          input_scale=1.0, forget_bias=1.0, seed=0, scope="lstm_classifier"):
  """Builds the classifier in the default graph.

  Placeholders: "inputs" [batch, num_steps, input_size] float32 and "labels" [batch] int32.
  The synthetic task: a sequence's label is the argmax of a fixed random projection of
  its time-mean, so the loss falls within a few dozen steps.

  Args:
    num_steps: unrolled length.
    input_size: features per step.
    hidden_size: LSTM units.
    num_classes: classes of the softmax.
    init_scale: weights start uniform in [-init_scale, init_scale] (biases at 0).
    input_scale: synthetic inputs are standard normal times this.
    forget_bias: added to the forget gate, as BasicLSTMCell does.
    seed: int; fixes the initial weights and the synthetic task.
    scope: variable scope of the weights and name scope of the placeholders.

  Returns:
    Model, with placeholders {"inputs", "labels"}, variables [kernel, bias, softmax_w,
    softmax_b] and extras logits, kernel, final_state.

  Raises:
    ValueError: a size is not a positive int or a scale is not positive.
  """
  model_lib.check_sizes(num_steps=num_steps, input_size=input_size,
                        hidden_size=hidden_size, num_classes=num_classes)
  for name, value in (("init_scale", init_scale), ("input_scale", input_scale)):
    if not value > 0:
      raise ValueError("`%s` must be positive; got %r" % (name, value))
  with tf.compat.v1.variable_scope(scope):
    inputs = tf.compat.v1.placeholder(tf.float32, [None, num_steps, input_size], name="inputs")
    labels = tf.compat.v1.placeholder(tf.int32, [None], name="labels")

    def uniform(index):
      return tf.compat.v1.random_uniform_initializer(
          -init_scale, init_scale, seed=model_lib.op_seed(seed, index))

    kernel = tf.compat.v1.get_variable(
        "kernel", [input_size + hidden_size, 4 * hidden_size], initializer=uniform(0))
    bias = tf.compat.v1.get_variable(
        "bias", [4 * hidden_size], initializer=tf.compat.v1.zeros_initializer())
    softmax_w = tf.compat.v1.get_variable(
        "softmax_w", [hidden_size, num_classes], initializer=uniform(1))
    softmax_b = tf.compat.v1.get_variable(
        "softmax_b", [num_classes], initializer=tf.compat.v1.zeros_initializer())

    zeros = tf.zeros(tf.stack([tf.shape(inputs)[0], hidden_size]))
    c, h = zeros, zeros
    for x in tf.unstack(inputs, num=num_steps, axis=1):
      gates = tf.matmul(tf.concat([x, h], axis=1), kernel) + bias
      i, j, f, o = tf.split(gates, 4, axis=1)
      c = c * tf.sigmoid(f + forget_bias) + tf.sigmoid(i) * tf.tanh(j)
      h = tf.tanh(c) * tf.sigmoid(o)
    logits = tf.matmul(h, softmax_w) + softmax_b
    loss = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits),
        name="loss")

  teacher = model_lib.task_rng(seed).standard_normal((input_size, num_classes))

  def make_arrays(batch_seed, batch_size):
    rng = model_lib.batch_rng(batch_seed)
    batch_size = model_lib.check_batch_size(batch_size)
    x = rng.standard_normal((batch_size, num_steps, input_size))
    y = np.argmax(x.mean(axis=1) @ teacher, axis=1)
    return {"inputs": (x * input_scale).astype(np.float32), "labels": y.astype(np.int32)}

  return Model(placeholders={"inputs": inputs, "labels": labels}, loss=loss,
               variables=[kernel, bias, softmax_w, softmax_b], make_arrays=make_arrays,
               logits=logits, kernel=kernel, final_state=(c, h))
