"""Placeholder-fed averaging: gradients to numpy, averaged on the host, fed back to apply.

The other classic big-batch recipe, for users who want host-side control between micro-batches
(inspect, log, skip, or gather gradients from several processes): run the gradient tensors
for each micro-batch, average the numpy values, and feed the mean through placeholders into
``optimizer.apply_gradients``. `HostGradientAverager` builds that graph once. It never touches
``Variable.initialized_value()`` (which raises on TF 2.21's resource variables, breaking the
classic ``tf.Variable(tf.zeros_like(tv.initialized_value()))`` snippet): the placeholders take
their shapes and dtypes from the variables themselves.

Sparse gradients come back as ``IndexedSlicesValue`` (what ``sess.run`` returns) and are
averaged by concatenating the micro-batches' rows (values divided by the count); the optimizer
sums duplicate rows, exactly as for the big batch's gradient, so no dense array is ever built.

Place in the data flow (DESIGN.md): optimizer <- **accumulation** <- contrib/compat/v2.
"""

import numpy as np
import tensorflow as tf

from tf1clip import optimizer as optimizer_lib


def _is_sparse_value(g):
  # What sess.run returns for an IndexedSlices: an IndexedSlicesValue namedtuple (not in
  # TF 2.21's public API, hence the duck typing).
  return hasattr(g, "indices") and hasattr(g, "values") and hasattr(g, "dense_shape")


def average_gradients(gradients_list):
  """The element-wise mean of several micro-batches' gradient lists, in numpy.

  Args:
    gradients_list: non-empty list (one entry per micro-batch) of equally long lists of
      np.ndarray, ``IndexedSlicesValue`` (what ``sess.run`` returns for a
      ``tf.IndexedSlices``) or None, as `HostGradientAverager.compute`
      returns.

  Returns:
    A list: dense means as np.ndarray; sparse means as ``IndexedSlicesValue`` holding every
    micro-batch's rows (duplicates kept, values divided by the number of micro-batches);
    None where the gradients are None.

  Raises:
    ValueError: if `gradients_list` is empty or its lists differ in length or kind.
  """
  gradients_list = [list(g) for g in gradients_list]
  if not gradients_list:
    raise ValueError("gradients_list must hold the gradients of at least one micro-batch; "
                     "got an empty list.")
  n = len(gradients_list)
  lengths = sorted({len(g) for g in gradients_list})
  if len(lengths) != 1:
    raise ValueError("every micro-batch must give one gradient per variable; got lists of "
                     "lengths %s." % lengths)
  means = []
  for column in zip(*gradients_list):
    if all(g is None for g in column):
      means.append(None)
    elif all(_is_sparse_value(g) for g in column):
      values = np.concatenate([g.values for g in column])
      means.append(type(column[0])(
          values=values / np.asarray(n, values.dtype),
          indices=np.concatenate([g.indices for g in column]),
          dense_shape=column[0].dense_shape))
    elif any(g is None or _is_sparse_value(g) for g in column):
      raise ValueError("a variable's gradient must be of one kind (dense, sparse or None) in "
                       "every micro-batch; got %s." % [type(g).__name__ for g in column])
    else:
      for i, g in enumerate(column):
        if np.asarray(g).dtype.kind not in "iuf":
          raise TypeError("`gradients_list[%d][%d]` must be a numeric array (a gradient as "
                          "compute() returns it); got a %s: %r." % (i, len(means), type(g).__name__, g))
      first = np.asarray(column[0])
      total = np.zeros_like(first)
      for g in column:
        total += g
      means.append(total / np.asarray(n, first.dtype))
  return means


class HostGradientAverager:
  """Computes gradients per micro-batch into numpy and applies their host-side mean.

  Example::

    averager = tf1clip.HostGradientAverager(
        tf.compat.v1.train.AdamOptimizer(1e-3), loss, global_step=global_step)
    sess.run(tf.compat.v1.global_variables_initializer())
    grads = [averager.compute(sess, feed) for feed in micro_batch_feeds]
    averager.apply(sess, grads)      # one update with the mean gradient
    # or, in one call: averager.step(sess, micro_batch_feeds)
  """

  def __init__(self, optimizer, loss, var_list=None, global_step=None, name=None):
    """Builds the gradient tensors, their placeholders and the apply op.

    Args:
      optimizer: a ``tf.compat.v1.train.Optimizer`` (transforms of a `tf1clip.WrappedOptimizer`
        act on the fed mean).
      loss: scalar Tensor, a mean over the micro-batch.
      var_list: variables to train; default the trainable variables.
      global_step: optional variable incremented by each `apply`.
      name: optional name of the apply op.

    Raises:
      TypeError: if `optimizer` is not an Optimizer.
      ValueError: if no variable gets a gradient from `loss`.
    """
    optimizer_lib.check_optimizer(optimizer)
    grads_and_vars = [(g, v) for g, v in optimizer.compute_gradients(loss, var_list=var_list)
                      if g is not None]
    if not grads_and_vars:
      raise ValueError("No gradients provided for any variable: loss %s reaches none of %s."
                       % (loss.name, var_list))
    self.gradients = [g for g, _ in grads_and_vars]
    self.variables = [v for _, v in grads_and_vars]
    self._placeholders = []
    fed = []
    with tf.name_scope("host_averaged_gradients"):
      for g, v in grads_and_vars:
        var_name = v.op.name.replace("/", "_")
        if isinstance(g, tf.IndexedSlices):
          values = tf.compat.v1.placeholder(g.values.dtype, [None] + v.shape[1:].as_list(),
                                            name=var_name + "_values")
          indices = tf.compat.v1.placeholder(g.indices.dtype, [None], name=var_name + "_indices")
          self._placeholders.append((values, indices))
          fed.append(tf.IndexedSlices(values, indices, tf.shape(v, out_type=tf.int64)))
        else:
          p = tf.compat.v1.placeholder(g.dtype, v.shape, name=var_name)
          self._placeholders.append(p)
          fed.append(p)
    self.apply_op = optimizer.apply_gradients(list(zip(fed, self.variables)),
                                              global_step=global_step, name=name)

  def compute(self, sess, feed_dict=None, fetches=None):
    """Runs one micro-batch's gradients.

    Args:
      sess: the Session.
      feed_dict: the micro-batch's feed.
      fetches: optional extra fetches (e.g. the loss) evaluated by the same run.

    Returns:
      The gradients, one per entry of `variables`: np.ndarray, or ``IndexedSlicesValue``
      for sparse ones. With `fetches`: ``(gradients, fetched_values)``.
    """
    if fetches is None:
      return list(sess.run(self.gradients, feed_dict=feed_dict))
    grads, fetched = sess.run((self.gradients, fetches), feed_dict=feed_dict)
    return list(grads), fetched

  def feed_dict(self, mean_gradients):
    """The feed dict that gives `mean_gradients` (list as `average_gradients` returns) to
    the apply op."""
    feed = {}
    for p, g in zip(self._placeholders, mean_gradients):
      if isinstance(p, tuple):
        feed[p[0]] = g.values
        feed[p[1]] = g.indices
      else:
        feed[p] = g
    return feed

  def apply(self, sess, gradients_list, feed_dict=None):
    """Applies the mean of several micro-batches' gradients as one update.

    Args:
      sess: the Session.
      gradients_list: list of `compute` results, one per micro-batch.
      feed_dict: optional extra feeds for the apply op (e.g. a learning-rate placeholder).
    """
    means = average_gradients(gradients_list)
    if len(means) != len(self._placeholders):
      raise ValueError("`gradients_list` must hold one gradient per variable (%d, as compute() "
                       "returns); got lists of length %d." % (len(self._placeholders), len(means)))
    feed = self.feed_dict(means)
    if feed_dict:
      feed.update(feed_dict)
    sess.run(self.apply_op, feed_dict=feed)

  def step(self, sess, feed_dicts, feed_dict=None):
    """Computes the gradients of each micro-batch in `feed_dicts`, then applies their mean.

    Args:
      sess: the Session.
      feed_dicts: one feed dict per micro-batch.
      feed_dict: optional extra feeds for the apply op.

    Returns:
      The list of per-micro-batch gradients that were averaged.
    """
    gradients_list = [self.compute(sess, f) for f in feed_dicts]
    self.apply(sess, gradients_list, feed_dict=feed_dict)
    return gradients_list
