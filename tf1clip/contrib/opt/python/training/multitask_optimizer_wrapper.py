"""`tf.contrib.opt.MultitaskOptimizerWrapper` and `clip_gradients_by_global_norm`, as in TF 1.15.

A multi-task loss whose component is masked out of a batch gives its variables an all-zero
gradient; applying it would still decay Adam's or Momentum's state towards zero. The wrapper
skips the update of every variable whose gradient is entirely zero, leaving its weights and
slots untouched (the optimizer's non-slot state, e.g. Adam's beta powers, still advances,
as in TF1).
"""

import tensorflow as tf

from tf1clip import clipping
from tf1clip import optimizer as optimizer_lib

_WRAPPED_METHODS = ("_apply_dense", "_resource_apply_dense", "_apply_sparse",
                    "_resource_apply_sparse")


def _is_all_zeros(grad):
  return tf.equal(tf.math.count_nonzero(grad), 0)


def _skip_all_zero(fn):
  """Wraps an `_apply_*` method so an all-zero gradient runs no update."""

  def wrapper(grad, *args, **kwargs):
    # For the sparse methods `grad` is the IndexedSlices' values (or the IndexedSlices),
    # either way all zeros exactly when the row updates are.
    values = grad.values if isinstance(grad, tf.IndexedSlices) else grad
    return tf.group(tf.compat.v1.cond(_is_all_zeros(values), tf.no_op,
                                      lambda: tf.group(fn(grad, *args, **kwargs))))

  return wrapper


def _innermost(optimizer):
  while isinstance(optimizer, optimizer_lib.WrappedOptimizer):
    optimizer = optimizer.inner_optimizer
  return optimizer


class MultitaskOptimizerWrapper(optimizer_lib.WrappedOptimizer):
  """Wraps an optimizer so that all-zero gradients leave its variables and slots unchanged.

  As in TF 1.15 it patches the wrapped optimizer's `_apply_dense`, `_resource_apply_dense`,
  `_apply_sparse` and `_resource_apply_sparse` (of the innermost optimizer when `opt` is itself a
  tf1clip wrapper). Unlike TF 1.15's it is a ``tf.compat.v1.train.Optimizer`` (a
  `tf1clip.WrappedOptimizer` with no transforms), so it nests:
  ``tf1clip.clip_gradients_by_norm(MultitaskOptimizerWrapper(opt), 5.0)`` works.

  Example::

    opt = tf.contrib.opt.MultitaskOptimizerWrapper(tf.train.MomentumOptimizer(0.1, 0.9))
    grads_and_vars = opt.compute_gradients(loss)
    grads_and_vars, _ = tf.contrib.opt.clip_gradients_by_global_norm(grads_and_vars, 15.0)
    train_op = opt.apply_gradients(grads_and_vars, global_step=global_step)
  """

  def __init__(self, opt):
    """Wraps `opt`.

    Args:
      opt: a `tf.compat.v1.train.Optimizer` instance (its innermost optimizer is modified in
        place, as TF 1.15 did).

    Raises:
      TypeError: if `opt` is not an Optimizer.
    """
    optimizer_lib.check_optimizer(opt, "opt")
    super().__init__(opt)
    inner = _innermost(opt)
    for name in _WRAPPED_METHODS:
      setattr(inner, name, _skip_all_zero(getattr(inner, name)))


def clip_gradients_by_global_norm(gradients_variables, clip_norm=20.0):
  """Clips the gradients of (gradient, variable) pairs by their global norm.

  contrib replaced all-zero gradients by scalar zeros before taking the norm; they add nothing
  to a sum of squares, so the norm here is the plain global norm (None gradients are skipped,
  sparse gradients stay sparse).

  Args:
    gradients_variables: a list of (gradient, variable) pairs.
    clip_norm: the global norm to clip to (float or scalar Tensor); default 20.0.

  Returns:
    (list of (clipped gradient, variable) pairs, the global norm before clipping).
  """
  pairs = list(gradients_variables)
  gradients = [g for g, _ in pairs]
  clipped, global_norm = clipping.clip_by_global_norm(gradients, clip_norm)
  return [(g, v) for g, (_, v) in zip(clipped, pairs)], global_norm
