"""`tf.contrib.seq2seq.sequence_loss` and `SequenceLoss`: weighted cross-entropy of a batch of sequences, as in TF 1.15.

Place in the data flow (DESIGN.md): model logits -> **contrib.seq2seq.loss** -> the loss a script
hands to `compute_gradients` / `minimize`. Batch-major, 3-D logits (the contrib.seq2seq layout; the
list-of-time-steps layout is `tf.contrib.legacy_seq2seq.sequence_loss`).
"""

import tensorflow as tf
from tf_keras import losses as tf_keras_losses


def _check_rank(argument, tensor, rank, layout):
  ndims = tensor.shape.ndims
  if ndims != rank:
    raise ValueError("%s must be a %s tensor (rank %d); got shape %s (rank %s)."
                     % (argument, layout, rank, tensor.shape, ndims))


def sequence_loss(logits, targets, weights, average_across_timesteps=True,
                  average_across_batch=True, sum_over_timesteps=False, sum_over_batch=False,
                  softmax_loss_function=None, name=None):
  """Weighted cross-entropy loss for a batch of sequences of logits.

  With per-position loss `l[b, t] = w[b, t] * xent(logits[b, t], targets[b, t])`, TF 1.15 returns:

  - average_across_timesteps and average_across_batch (default): `sum(l) / sum(w)`, a scalar;
  - sum_over_timesteps and sum_over_batch: `sum(l) / count_nonzero(w)`, a scalar;
  - otherwise the `[batch, time]` loss reduced over one axis: over batch (axis 0) when
    `average_across_batch` (`sum_b l / sum_b w`) or `sum_over_batch` (`sum_b l / count_nonzero_b w`),
    else over time (axis 1) when `average_across_timesteps` / `sum_over_timesteps`; with no flag,
    `l` itself. An average flag on one axis wins over a sum flag on the other (as in TF 1.15:
    `average_across_timesteps=True, sum_over_batch=True` gives a `[batch]` result).

  Every division is `div_no_nan`: a position, example or step with zero total weight contributes 0.

  Args:
    logits: float Tensor [batch_size, sequence_length, num_decoder_symbols].
    targets: int Tensor [batch_size, sequence_length], the true class at each step.
    weights: float Tensor [batch_size, sequence_length]; 1 for valid steps, 0 for padding.
    average_across_timesteps: divide the sum over time by the total weight over time.
    average_across_batch: divide the sum over the batch by the total weight over the batch.
    sum_over_timesteps: divide the sum over time by the number of non-zero weights over time.
    sum_over_batch: divide the sum over the batch by the number of non-zero weights over it.
    softmax_loss_function: optional `fn(labels=..., logits=...)` on the flattened
      `[batch * time]` labels and `[batch * time, symbols]` logits, used instead of sparse
      softmax cross-entropy; called with keyword arguments.
    name: name scope; default "sequence_loss".

  Returns:
    A float Tensor: a scalar, `[batch_size]`, `[sequence_length]` or `[batch_size, sequence_length]`
    depending on the flags (see above).

  Raises:
    ValueError: if logits is not rank 3, targets or weights not rank 2, or an average flag and
      the sum flag of the same axis are both set.
  """
  logits = tf.convert_to_tensor(logits)
  targets = tf.convert_to_tensor(targets)
  weights = tf.convert_to_tensor(weights)
  _check_rank("logits", logits, 3, "[batch_size x sequence_length x logits]")
  _check_rank("targets", targets, 2, "[batch_size x sequence_length]")
  _check_rank("weights", weights, 2, "[batch_size x sequence_length]")
  if average_across_timesteps and sum_over_timesteps:
    raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True at "
                     "same time (got both True); choose one.")
  if average_across_batch and sum_over_batch:
    raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same time "
                     "(got both True); choose one.")
  with tf.compat.v1.name_scope(name, "sequence_loss", [logits, targets, weights]):
    num_classes = tf.shape(logits)[2]
    logits_flat = tf.reshape(logits, [-1, num_classes])
    targets_flat = tf.reshape(targets, [-1])
    if softmax_loss_function is None:
      crossent = tf.nn.sparse_softmax_cross_entropy_with_logits(
          labels=targets_flat, logits=logits_flat)
    else:
      crossent = softmax_loss_function(labels=targets_flat, logits=logits_flat)
    crossent *= tf.reshape(weights, [-1])
    if average_across_timesteps and average_across_batch:
      return tf.math.divide_no_nan(tf.reduce_sum(crossent), tf.reduce_sum(weights))
    if sum_over_timesteps and sum_over_batch:
      count = tf.cast(tf.math.count_nonzero(weights), crossent.dtype)
      return tf.math.divide_no_nan(tf.reduce_sum(crossent), count)
    crossent = tf.reshape(crossent, tf.shape(logits)[0:2])
    if average_across_timesteps or average_across_batch:
      axis = [0] if average_across_batch else [1]
      return tf.math.divide_no_nan(tf.reduce_sum(crossent, axis=axis),
                                   tf.reduce_sum(weights, axis=axis))
    if sum_over_timesteps or sum_over_batch:
      axis = [0] if sum_over_batch else [1]
      count = tf.cast(tf.math.count_nonzero(weights, axis=axis), crossent.dtype)
      return tf.math.divide_no_nan(tf.reduce_sum(crossent, axis=axis), count)
    return crossent


class SequenceLoss(tf_keras_losses.Loss):
  """`sequence_loss` as a (tf-keras) Loss object; note its defaults sum over time and batch.

  `loss(y_true, y_pred, sample_weight)` is `sequence_loss(y_pred, y_true, sample_weight, ...)`
  with this object's flags (TF 1.15's defaults: average_across_timesteps=False,
  average_across_batch=False, sum_over_timesteps=True, sum_over_batch=True).
  """

  def __init__(self, average_across_timesteps=False, average_across_batch=False,
               sum_over_timesteps=True, sum_over_batch=True, softmax_loss_function=None,
               name=None):
    """Creates the loss; the arguments are `sequence_loss`'s flags."""
    super().__init__(name=name)
    self.average_across_timesteps = average_across_timesteps
    self.average_across_batch = average_across_batch
    self.sum_over_timesteps = sum_over_timesteps
    self.sum_over_batch = sum_over_batch
    self.softmax_loss_function = softmax_loss_function

  def __call__(self, y_true, y_pred, sample_weight=None):
    return sequence_loss(y_pred, y_true, sample_weight,
                         average_across_timesteps=self.average_across_timesteps,
                         average_across_batch=self.average_across_batch,
                         sum_over_timesteps=self.sum_over_timesteps,
                         sum_over_batch=self.sum_over_batch,
                         softmax_loss_function=self.softmax_loss_function, name=self.name)

  def call(self, y_true, y_pred):
    raise NotImplementedError("SequenceLoss computes in __call__ (it needs sample_weight).")
