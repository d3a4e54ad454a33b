"""`sparse_multiclass_hinge_loss`: the Crammer-Singer multiclass hinge loss.

TF 1.15's `tensorflow/contrib/kernel_methods/python/losses.py`, tf1clip's code: max over classes c of
(logits_c - logits_label + [c != label])^+ per example, weighted and reduced by
tf.compat.v1.losses.compute_weighted_loss.
"""

import tensorflow as tf


def sparse_multiclass_hinge_loss(labels, logits, weights=1.0, scope=None, loss_collection="losses",
                                 reduction="weighted_sum_by_nonzero_weights"):
  r"""Crammer-Singer multiclass hinge loss: max_c {logits_c - logits_{c*} + [c != c*]} per example, weighted.

  Args:
    labels: int32 / int64 `Tensor` [batch_size] or [batch_size, 1] of class indices in [0, num_classes).
    logits: `Tensor` [batch_size, num_classes] (cast to float32).
    weights: Optional scalar or `Tensor` of rank 1 ([batch_size]) or 2 ([batch_size, 1]).
    scope: The scope for the operations performed in computing the loss.
    loss_collection: collection to which the loss will be added (tf.GraphKeys.LOSSES).
    reduction: Type of reduction to apply to loss (tf.losses.Reduction.SUM_BY_NONZERO_WEIGHTS).

  Returns:
    Weighted loss float `Tensor`: the shape of `labels` for reduction NONE, else a scalar.

  Raises:
    ValueError: If `logits`, `labels` or `weights` have invalid or inconsistent shapes, or `labels` an invalid
      dtype.
  """
  with tf.compat.v1.name_scope(scope, "sparse_multiclass_hinge_loss", (logits, labels)) as scope:
    logits_rank = logits.get_shape().ndims
    if logits_rank != 2:
      raise ValueError("logits should have rank 2 ([batch_size, num_classes]). Given rank is"
                       " {}".format(logits_rank))
    logits_shape = tf.shape(logits)
    batch_size, num_classes = logits_shape[0], logits_shape[1]
    logits = tf.cast(logits, tf.float32)

    if labels.dtype != tf.int32 and labels.dtype != tf.int64:
      raise ValueError("Invalid dtype for labels: {}. Acceptable dtypes: int32 and int64".format(labels.dtype))

    labels_rank = labels.get_shape().ndims
    if labels_rank not in [1, 2]:
      raise ValueError("labels should have rank 1 ([batch_size]) or 2 ([batch_size, 1]). "
                       "Given rank is {}".format(labels_rank))
    with tf.control_dependencies([tf.compat.v1.assert_less(labels, tf.cast(num_classes, labels.dtype))]):
      labels = tf.reshape(labels, shape=[-1])

    weights = tf.convert_to_tensor(weights)
    weights_rank = weights.get_shape().ndims
    if weights_rank not in [0, 1, 2]:
      # (TF 1.15's message gives the labels' rank)
      raise ValueError("non-scalar weights should have rank 1 ([batch_size]) or 2 "
                       "([batch_size, 1]). Given rank is {}".format(labels_rank))
    if weights_rank > 0:
      weights = tf.reshape(weights, shape=[-1])
      weights.get_shape().assert_is_compatible_with(labels.get_shape())

    example_indices = tf.reshape(tf.range(batch_size), shape=[batch_size, 1])
    indices = tf.concat([example_indices,
                         tf.reshape(tf.cast(labels, example_indices.dtype), shape=[batch_size, 1])], axis=1)
    label_logits = tf.reshape(tf.gather_nd(params=logits, indices=indices), shape=[batch_size, 1])

    one_cold_labels = tf.one_hot(indices=labels, depth=num_classes, on_value=0.0, off_value=1.0)
    margin = tf.nn.relu(logits - label_logits + one_cold_labels)
    loss = tf.reduce_max(margin, axis=1)
    return tf.compat.v1.losses.compute_weighted_loss(loss, weights, scope, loss_collection, reduction=reduction)
