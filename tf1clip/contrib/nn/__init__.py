"""`tf.contrib.nn`: TF 1.15's extra neural-network ops.

`conv1d_transpose` is TensorFlow 2.21's `tf.nn.conv1d_transpose` (the same function); the rest
is tf1clip's code with TF 1.15's semantics:
- `alpha_dropout(x, keep_prob, noise_shape, seed)`: SELU's dropout (Klambauer et al. 2017): a dropped unit
  becomes alpha' = -1.7581, then `a * x + b` restores mean 0 and variance 1; keep_prob 1 returns x itself.
- `scaled_softplus(x, alpha, clip)`: `alpha * softplus(x / alpha)`, optionally `min(., clip)`, with TF 1.15's
  hand-written gradient for x, alpha and clip (stable where softplus saturates).
- `nth_element(input, n, reverse)`: the n-th smallest (largest if reverse) value along the last axis (the
  NthElement kernel).
- `deprecated_flipped_*_cross_entropy_with_logits(logits, labels_or_targets, ...)`: the tf.nn losses with the
  pre-1.0 argument order.
- `sampled_sparse_softmax_loss(weights, biases, labels [batch, 1], inputs, ...)`: sampled softmax with one
  true class per example, on TensorFlow's own `_compute_sampled_logits` (labels [batch, 1], as TF 1.15 needed).
- `rank_sampled_softmax_loss(...)`: sampled softmax whose `num_sampled` candidates are resampled down to the
  `num_resampled` with the highest logsumexp logits (Jean et al. 2014's rank-based resampling), as TF 1.15 did.
"""

import numbers

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.nn import conv1d_transpose

_SELU_ALPHA_PRIME = -1.7580993408473766


def alpha_dropout(x, keep_prob, noise_shape=None, seed=None, name=None):
  """Dropout for SELU networks: keeps the mean and variance of the input (TF 1.15's contrib.nn.alpha_dropout)."""
  with tf.compat.v1.name_scope(name, "alpha_dropout", [x]):
    x = tf.convert_to_tensor(x, name="x")
    if isinstance(keep_prob, numbers.Real) and not 0 < keep_prob <= 1.0:
      raise ValueError("keep_prob must be a scalar tensor or a float in the range (0, 1], got %g" % keep_prob)
    keep_prob = tf.convert_to_tensor(keep_prob, dtype=x.dtype, name="keep_prob")
    keep_prob.get_shape().assert_has_rank(0)
    if tf.get_static_value(keep_prob) == 1:
      return x
    shape = noise_shape if noise_shape is not None else tf.shape(x)
    kept = tf.cast(tf.compat.v1.random_uniform(shape, seed=seed, dtype=x.dtype) >= 1 - keep_prob, x.dtype)
    x = x * kept + _SELU_ALPHA_PRIME * (1 - kept)
    a = (keep_prob + keep_prob * (1 - keep_prob) * _SELU_ALPHA_PRIME ** 2) ** -0.5
    b = -a * _SELU_ALPHA_PRIME * (1 - keep_prob)
    return a * x + b


def _summed_to(grad, like):
  """`grad` summed over the axes `like` was broadcast along, in `like`'s shape."""
  shape = tf.shape(like)
  axes, _ = tf.raw_ops.BroadcastGradientArgs(s0=shape, s1=tf.shape(grad))
  return tf.reshape(tf.reduce_sum(grad, axes), shape)


def scaled_softplus(x, alpha, clip=None, name=None):
  """`alpha * softplus(x / alpha)`, clipped at `clip` if given (TF 1.15's contrib.nn.scaled_softplus)."""
  values = [x, alpha] + ([clip] if clip is not None else [])
  with tf.compat.v1.name_scope(name, "scaled_softplus", values):
    x = tf.convert_to_tensor(x, name="x")
    alpha = tf.convert_to_tensor(alpha, dtype=x.dtype, name="alpha")
    inputs = [x, alpha]
    if clip is not None:
      inputs.append(tf.convert_to_tensor(clip, dtype=x.dtype, name="clip"))

    @tf.custom_gradient
    def forward(*args):
      x, alpha = args[:2]
      y = alpha * tf.nn.softplus(x / alpha)
      if len(args) == 3:
        y = tf.minimum(y, args[2])

      def grad(g):
        clip_grads = []
        if len(args) == 3:
          unclipped = tf.cast(y < args[2], g.dtype)
          clip_grads = [_summed_to(g * (1.0 - unclipped), args[2])]
          g = g * unclipped
        scaled = y / alpha
        emy = tf.exp(-scaled)
        dy_dx = 1.0 - emy
        dy_dalpha = scaled * emy - dy_dx * tf.math.log(dy_dx + 1e-8)
        return [_summed_to(g * dy_dx, x), _summed_to(g * dy_dalpha, alpha)] + clip_grads

      return y, grad

    return forward(*inputs)


def nth_element(input, n, reverse=False, name=None):  # pylint: disable=redefined-builtin
  """The `n`-th smallest (or, with `reverse`, largest) value along the last dimension of `input`."""
  return tf.raw_ops.NthElement(input=input, n=n, reverse=reverse, name=name)


def deprecated_flipped_softmax_cross_entropy_with_logits(logits, labels, dim=-1, name=None):
  """`tf.nn.softmax_cross_entropy_with_logits` with logits first (TF 1.15's deprecated order)."""
  return tf.compat.v1.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, dim=dim, name=name)


def deprecated_flipped_sparse_softmax_cross_entropy_with_logits(logits, labels, name=None):
  """`tf.nn.sparse_softmax_cross_entropy_with_logits` with logits first."""
  return tf.compat.v1.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name=name)


def deprecated_flipped_sigmoid_cross_entropy_with_logits(logits, targets, name=None):
  """`tf.nn.sigmoid_cross_entropy_with_logits` with logits first; `targets` are the labels."""
  return tf.compat.v1.nn.sigmoid_cross_entropy_with_logits(labels=targets, logits=logits, name=name)


def _sampling_internals():
  from tensorflow.python.ops import embedding_ops  # pylint: disable=import-outside-toplevel
  from tensorflow.python.ops import nn_impl  # pylint: disable=import-outside-toplevel
  return nn_impl._compute_sampled_logits, embedding_ops._embedding_lookup_and_transform  # pylint: disable=protected-access


def sampled_sparse_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes,
                                sampled_values=None, remove_accidental_hits=True,
                                partition_strategy="mod", name="sampled_sparse_softmax_loss"):
  """The sampled softmax loss [batch] of `labels` [batch, 1] (one true class each), TF 1.15's."""
  compute_sampled_logits, _ = _sampling_internals()
  logits, _ = compute_sampled_logits(
      weights=weights, biases=biases, labels=labels, inputs=inputs,
      num_sampled=num_sampled, num_classes=num_classes, num_true=1, sampled_values=sampled_values,
      subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
      partition_strategy=partition_strategy, name=name)
  true_labels = tf.zeros([tf.shape(logits)[0], 1], dtype=tf.int64)
  return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.squeeze(true_labels),
                                                        logits=logits)


def _rank_resample(weights, biases, inputs, sampled_values, num_resampled, resampling_temperature,
                   partition_strategy):
  """Keeps the `num_resampled` candidates whose logsumexp logit over the batch is highest."""
  _, lookup_and_transform = _sampling_internals()
  sampled, true_expected_count, sampled_expected_count = sampled_values
  sampled = tf.cast(tf.stop_gradient(sampled), tf.int64)
  true_expected_count = tf.stop_gradient(true_expected_count)
  sampled_expected_count = tf.stop_gradient(sampled_expected_count)
  reweighted_inputs = inputs / resampling_temperature

  def logsumexp_logit(embeddings):
    return tf.reduce_logsumexp(tf.matmul(embeddings, reweighted_inputs, transpose_b=True), axis=1,
                               keepdims=False)

  sampled_logits = lookup_and_transform(weights, sampled, partition_strategy,
                                        transform_fn=logsumexp_logit)
  sampled_b = tf.reshape(tf.compat.v1.nn.embedding_lookup(biases, sampled, partition_strategy), [-1])
  sampled_logits += sampled_b / resampling_temperature
  _, resampled_indices = tf.nn.top_k(sampled_logits, k=num_resampled, sorted=False)
  resampled = tf.gather(sampled, indices=resampled_indices)
  resampled_expected_count = tf.gather(sampled_expected_count, indices=resampled_indices)
  return resampled, true_expected_count, resampled_expected_count


def rank_sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_resampled,
                              num_classes, num_true, sampled_values, resampling_temperature,
                              remove_accidental_hits, partition_strategy, name=None):
  """Sampled softmax over the `num_resampled` best of `num_sampled` candidates (TF 1.15's)."""
  if num_sampled > num_classes:
    raise ValueError("num_sampled ({}) cannot be greater than num_classes ({})".format(
        num_sampled, num_classes))
  if num_sampled <= num_resampled:
    raise ValueError("num_resampled ({}) must be less than num_sampled ({})".format(
        num_resampled, num_sampled))
  if partition_strategy not in ("div", "mod"):
    raise ValueError("unsupported partition_strategy ({})".format(partition_strategy))
  with tf.compat.v1.name_scope(name, "rank_sampled_softmax_loss",
                               [weights, biases, labels, inputs, sampled_values,
                                resampling_temperature]) as name:
    if not sampled_values:
      sampled_values = tf.random.learned_unigram_candidate_sampler(
          true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True,
          range_max=num_classes)
    resampled_values = _rank_resample(weights, biases, inputs, sampled_values, num_resampled,
                                      resampling_temperature, partition_strategy)
    return tf.compat.v1.nn.sampled_softmax_loss(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_resampled,
        num_classes=num_classes, num_true=num_true, sampled_values=resampled_values,
        remove_accidental_hits=remove_accidental_hits, partition_strategy=partition_strategy,
        name=name)


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.nn'

__getattr__ = _catalog.module_getattr(__name__)
