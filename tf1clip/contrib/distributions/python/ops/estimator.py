"""`tf.contrib.distributions.estimator_head_distribution_regression`: a contrib.learn regression head whose loss
is a distribution's negative log-likelihood, TF 1.15's function.

As in TF 1.15: `make_distribution_fn(logits)` builds the distribution (once per logits tensor, kept in
`head.distributions`); the loss is the (weighted) mean of `-log_prob(labels)`, the labels reshaped to the
batch shape plus the distribution's event shape; the predictions are the distribution's mean.
"""

import tensorflow as tf

from tf1clip.contrib.learn import head as _head

V1 = tf.compat.v1


def estimator_head_distribution_regression(make_distribution_fn, label_dimension=1, logits_dimension=None,
                                           label_name=None, weight_column_name=None, enable_centered_bias=False,
                                           head_name=None):
  """A contrib.learn `Head` for regression under the distribution `make_distribution_fn(logits)` returns.

  Raises:
    TypeError: `make_distribution_fn` is not callable.
  """
  return _DistributionRegressionHead(
      make_distribution_fn=make_distribution_fn, label_dimension=label_dimension,
      logits_dimension=logits_dimension, label_name=label_name, weight_column_name=weight_column_name,
      enable_centered_bias=enable_centered_bias, head_name=head_name)


def _concat_vectors(*vectors):
  """The vectors joined, as a Python list where every one is known statically, else as a Tensor."""
  static = [tf.get_static_value(tf.convert_to_tensor(v)) for v in vectors]
  if any(v is None for v in static):
    return tf.concat(vectors, axis=0)
  return [value for vector in static for value in vector]


class _DistributionRegressionHead(_head._RegressionHead):  # pylint: disable=protected-access
  """A `_RegressionHead` whose loss is -log_prob of the labels and whose predictions are the mean."""

  def __init__(self, make_distribution_fn, label_dimension, logits_dimension=None, label_name=None,
               weight_column_name=None, enable_centered_bias=False, head_name=None):
    if not callable(make_distribution_fn):
      raise TypeError("`make_distribution_fn` must be a callable function.")
    self._distributions = {}
    self._make_distribution_fn = make_distribution_fn

    def loss_fn(labels, logits, weights=None):
      d = self.distribution(logits)
      batch_shape = labels.shape.with_rank_at_least(1)[:-1]
      batch_shape = batch_shape.as_list() if batch_shape.is_fully_defined() else tf.shape(labels)[:-1]
      labels = tf.reshape(labels, shape=_concat_vectors(batch_shape, d.event_shape_tensor()))
      return _head._compute_weighted_loss(loss_unweighted=-d.log_prob(labels), weight=weights)  # pylint: disable=protected-access

    def link_fn(logits):
      return self.distribution(logits).mean()  # TF 1.15's "link function" is the inverse link: the mean

    super().__init__(label_dimension=label_dimension, loss_fn=loss_fn, link_fn=link_fn,
                     logits_dimension=logits_dimension, label_name=label_name,
                     weight_column_name=weight_column_name, enable_centered_bias=enable_centered_bias,
                     head_name=head_name)

  @property
  def distributions(self):
    """{logits tensor: the distribution made from it}."""
    return self._distributions

  def distribution(self, logits, name=None):
    """The distribution parameterized by `logits` (made once per logits tensor)."""
    with V1.name_scope(name, "distribution", [logits]):
      d = self._distributions.get(logits)
      if d is None:
        d = self._make_distribution_fn(logits)
        self._distributions[logits] = d
      return d
