"""`tf.contrib.opt.VariableClippingOptimizer`: after the wrapped optimizer's step, clip chosen variables' norms.

Semantics (TF 1.15): `vars_to_clip_dims` maps a variable to the dimensions over which its norm is measured
(`tf.clip_by_norm(var, max_norm, axes=dims)`: [1] clips each row of an embedding). After the wrapped update, each
listed variable that received a gradient is clipped; for a sparse gradient only the touched rows are (unless
dimension 0 is among the dims: then the whole variable, with a warning, as TF 1.15). Slots are the wrapped
optimizer's (`get_slot`, `get_slot_names` pass through); the wrapper creates no variable.
"""

import contextlib

import tensorflow as tf


class VariableClippingOptimizer(tf.compat.v1.train.Optimizer):
  """Wraps `opt`; after each update, clips the norms of the variables in `vars_to_clip_dims` to `max_norm`."""

  def __init__(self, opt, vars_to_clip_dims, max_norm, use_locking=False, colocate_clip_ops_with_vars=False,
               name="VariableClipping"):
    if not isinstance(opt, tf.compat.v1.train.Optimizer):
      raise TypeError("VariableClippingOptimizer: opt must be a tf.train.Optimizer, got %r" % (opt,))
    super(VariableClippingOptimizer, self).__init__(use_locking, name)
    self._opt = opt
    self._clip_dims = {var.ref(): list(dims) for var, dims in vars_to_clip_dims.items()}
    self._max_norm = max_norm
    self._colocate_clip_ops_with_vars = colocate_clip_ops_with_vars

  def compute_gradients(self, *args, **kwargs):
    return self._opt.compute_gradients(*args, **kwargs)

  def get_slot(self, *args, **kwargs):
    return self._opt.get_slot(*args, **kwargs)

  def get_slot_names(self, *args, **kwargs):
    return self._opt.get_slot_names(*args, **kwargs)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    grads_and_vars = list(grads_and_vars)
    with tf.compat.v1.name_scope(name, self._name) as name:
      update = self._opt.apply_gradients(grads_and_vars, global_step=global_step)
      clips = []
      with tf.control_dependencies([update]):
        for grad, var in grads_and_vars:
          if grad is None or var.ref() not in self._clip_dims:
            continue
          with tf.compat.v1.name_scope("clip_" + var.op.name):
            if isinstance(grad, tf.IndexedSlices):
              clips.append(self._clip_rows(grad, var))
            else:
              clips.append(self._clip_whole(var))
      return tf.group(*[update] + clips, name=name)

  @contextlib.contextmanager
  def _maybe_colocated(self, var):
    if self._colocate_clip_ops_with_vars:
      with tf.compat.v1.colocate_with(var):
        yield
    else:
      yield

  def _clip_whole(self, var):
    with self._maybe_colocated(var):
      value = var.read_value()
      excess = value - tf.clip_by_norm(value, self._max_norm, self._clip_dims[var.ref()])
    with tf.compat.v1.colocate_with(var):
      return var.assign_sub(excess, use_locking=self._use_locking)

  def _clip_rows(self, grad, var):
    dims = self._clip_dims[var.ref()]
    if 0 in dims:
      tf.compat.v1.logging.warning(
          "Clipping norm across dims %s for %s is inefficient when including sparse dimension 0.", dims,
          var.op.name)
      return self._clip_whole(var)
    with tf.compat.v1.colocate_with(var):
      rows = tf.gather(var, grad.indices)
    with self._maybe_colocated(var):
      excess = tf.IndexedSlices(rows - tf.clip_by_norm(rows, self._max_norm, dims), grad.indices,
                                grad.dense_shape)
    with tf.compat.v1.colocate_with(var):
      return var.scatter_sub(excess, use_locking=self._use_locking)
