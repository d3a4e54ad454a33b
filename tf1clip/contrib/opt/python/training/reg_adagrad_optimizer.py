"""`tf.contrib.opt.RegAdagradOptimizer`: Adagrad whose accumulator can be left alone for some updates.

Semantics (TF 1.15): Adagrad (slot `accumulator`, name "RegAdagrad"); update ops built inside
`with opt.avoid_updating_slots():` step the variable with the current accumulator but do not add g^2 to it (the
kernels' `update_slots=False`), e.g. for a regularization term applied separately from the data gradient.
"""

import contextlib

import tensorflow as tf


class RegAdagradOptimizer(tf.compat.v1.train.AdagradOptimizer):
  """Adagrad with `avoid_updating_slots()`."""

  def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="RegAdagrad"):
    super(RegAdagradOptimizer, self).__init__(learning_rate, initial_accumulator_value=initial_accumulator_value,
                                              use_locking=use_locking, name=name)
    self._should_update_slots = True

  @contextlib.contextmanager
  def avoid_updating_slots(self):
    """Update ops built in this context leave the accumulator unchanged."""
    old = self._should_update_slots
    self._should_update_slots = False
    try:
      yield
    finally:
      self._should_update_slots = old

  def _lr(self, dtype):
    return tf.cast(self._learning_rate_tensor, dtype)

  def _apply_dense(self, grad, var):
    return tf.raw_ops.ApplyAdagrad(var=var, accum=self.get_slot(var, "accumulator"),
                                   lr=self._lr(var.dtype.base_dtype), grad=grad, use_locking=self._use_locking,
                                   update_slots=self._should_update_slots).op

  def _resource_apply_dense(self, grad, var):
    return tf.raw_ops.ResourceApplyAdagrad(var=var.handle, accum=self.get_slot(var, "accumulator").handle,
                                           lr=self._lr(grad.dtype.base_dtype), grad=grad,
                                           use_locking=self._use_locking, update_slots=self._should_update_slots)

  def _apply_sparse(self, grad, var):
    return tf.raw_ops.SparseApplyAdagrad(var=var, accum=self.get_slot(var, "accumulator"),
                                         lr=self._lr(var.dtype.base_dtype), grad=grad.values, indices=grad.indices,
                                         use_locking=self._use_locking,
                                         update_slots=self._should_update_slots).op

  def _resource_apply_sparse(self, grad, var, indices):
    return tf.raw_ops.ResourceSparseApplyAdagrad(var=var.handle, accum=self.get_slot(var, "accumulator").handle,
                                                 lr=self._lr(grad.dtype), grad=grad, indices=indices,
                                                 use_locking=self._use_locking,
                                                 update_slots=self._should_update_slots)
