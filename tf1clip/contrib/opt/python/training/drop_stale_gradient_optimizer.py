"""`tf.contrib.opt.DropStaleGradientOptimizer`: in asynchronous training, skip an update whose gradient was
computed more than `staleness` global steps ago.

Semantics (TF 1.15): `compute_gradients` records the global step when the gradient computation starts; at
`apply_gradients` (after every gradient is computed) the staleness is `global_step - that step`; within
`staleness` the wrapped optimizer applies the gradients, else nothing moves. A float variable `stale_counter`
(created with `tf.get_variable` next to the global step, so in the caller's variable scope) counts the dropped
updates, a summary "Gradient staleness percentage" reports `stale_counter / (global_step + 1)`, and the op
returned is the counter's update.
"""

import tensorflow as tf


class DropStaleGradientOptimizer(tf.compat.v1.train.Optimizer):
  """Wraps `opt`; drops gradients staler than `staleness` steps (see the module docstring)."""

  def __init__(self, opt, staleness, use_locking=False, name="DropStaleGradient"):
    if not isinstance(opt, tf.compat.v1.train.Optimizer):
      raise TypeError("DropStaleGradientOptimizer: opt must be a tf.train.Optimizer, got %r" % (opt,))
    super(DropStaleGradientOptimizer, self).__init__(use_locking, name)
    self._opt = opt
    self._staleness = staleness
    self._local_step = None

  def compute_gradients(self, loss, *args, **kwargs):
    with tf.compat.v1.colocate_with(loss):
      self._local_step = tf.compat.v1.train.get_global_step() + 0
    with tf.control_dependencies([self._local_step]):
      loss = tf.identity(loss)
      return self._opt.compute_gradients(loss, *args, **kwargs)

  def get_slot(self, *args, **kwargs):
    return self._opt.get_slot(*args, **kwargs)

  def get_slot_names(self, *args, **kwargs):
    return self._opt.get_slot_names(*args, **kwargs)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    if global_step is None:
      raise ValueError("DropStaleGradientOptimizer.apply_gradients needs global_step (staleness is measured "
                       "in global steps)")
    if self._local_step is None:
      raise ValueError("DropStaleGradientOptimizer: call compute_gradients (or minimize) before "
                       "apply_gradients: the staleness is counted from it")
    grads_and_vars = list(grads_and_vars)
    with tf.compat.v1.colocate_with(global_step):
      stale_counter = tf.compat.v1.get_variable("stale_counter", [], initializer=tf.compat.v1.zeros_initializer(),
                                                trainable=False)

    def accept():
      with tf.control_dependencies([self._opt.apply_gradients(grads_and_vars, global_step=global_step,
                                                               name=name)]):
        return tf.identity(0.0)

    def drop():
      return tf.identity(1.0)

    computed = [g if isinstance(g, tf.Tensor) else g.op for g, _ in grads_and_vars if g is not None]
    with tf.control_dependencies(computed), tf.compat.v1.colocate_with(global_step):
      staleness = tf.reshape(global_step - self._local_step, shape=())
    update = stale_counter.assign_add(tf.compat.v1.cond(staleness <= self._staleness, accept, drop))
    tf.compat.v1.summary.scalar("Gradient staleness percentage",
                                stale_counter / tf.cast(global_step + 1, tf.float32))
    return update
