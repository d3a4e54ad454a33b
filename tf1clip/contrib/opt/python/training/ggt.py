"""`tf.contrib.opt.GGTOptimizer`: full-matrix adaptive preconditioning on a window of recent gradients (TF 1.15's).

TF 1.15's code, moved from its OptimizerV2 base onto the v1 Optimizer. Every variable's gradient is written into
one flat vector (`flat_grad`, variables ordered by name); its moving average `moment1` is stored in a ring of
the last `window` averages (`grad_buffer`); the step is the GGT preconditioner (Agarwal et al., 2018: an SVD of
the small window x window Gram matrix) applied to moment1, `lr` times, and the `global_step` counter advances.
These four are the optimizer's non-slot variables, as in TF 1.15. Sparse gradients are refused (as TF 1.15).

References:
  Agarwal et al., "The Case for Full-Matrix Adaptive Regularization", 2018 (arXiv:1806.02958).
"""

import collections

import numpy as np
import tensorflow as tf

V1 = tf.compat.v1


class GGTOptimizer(V1.train.Optimizer):
  """GGT: Adam-like momentum with a full-matrix preconditioner from the last `window` gradients."""

  def __init__(self, learning_rate=0.001, beta1=0.9, use_locking=False, name="GGT", window=10,
               eps=1e-4, svd_eps=1e-6, sigma_eps=1e-2):
    super().__init__(use_locking, name)
    self._lr = learning_rate
    self._beta1 = beta1
    self._window = window
    self._eps = eps
    self._svd_eps = svd_eps
    self._sigma_eps = sigma_eps
    self.index_dict = {}
    self.shape_dict = {}
    self._variables = []

  def _create_slots(self, var_list):
    shape_dict = {v.name: int(np.prod(v.shape.as_list())) for v in var_list}
    self.shape_dict = collections.OrderedDict(sorted(shape_dict.items(), key=lambda t: t[0]))
    index = 0
    for name, dim in self.shape_dict.items():
      self.index_dict[name] = index
      index += dim
    dtype = var_list[0].dtype.base_dtype
    first = min(var_list, key=lambda x: x.name)
    self._create_non_slot_variable(tf.cast(0.0, dtype), "global_step", first)
    self._create_non_slot_variable(tf.zeros([self._window, index], dtype), "grad_buffer", first)
    self._create_non_slot_variable(tf.zeros((index,), dtype), "moment1", first)
    self._create_non_slot_variable(tf.zeros((index,), dtype), "flat_grad", first)

  def _non_slot(self, name):
    graph = None if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
    return self._get_non_slot_variable(name, graph=graph)

  def _prepare(self):
    self._variables = []

  def _write_flat_grad(self, grad, var):
    self._variables.append(var)
    start = self.index_dict[var.name]
    return V1.scatter_update(self._non_slot("flat_grad"),
                             tf.range(start, start + self.shape_dict[var.name]),
                             tf.reshape(grad, [-1]))

  def _apply_dense(self, grad, var):
    return self._write_flat_grad(grad, var)

  def _resource_apply_dense(self, grad, var):
    return self._write_flat_grad(grad, var)

  def _apply_sparse(self, grad, var):
    raise NotImplementedError("Sparse gradient updates are not supported.")

  def _resource_apply_sparse(self, grad, handle, indices):
    raise NotImplementedError("Sparse gradient updates are not supported.")

  def _finish(self, update_ops, name_scope):
    with tf.control_dependencies(update_ops):
      dtype = self._variables[0].dtype.base_dtype
      update_global_step = V1.assign_add(self._non_slot("global_step"), 1.0)
      beta1 = tf.cast(self._call_if_callable(self._beta1), dtype)
      moment1 = self._non_slot("moment1")
      flat_grad = self._non_slot("flat_grad")
      update_moment1 = moment1.assign(beta1 * moment1 + (1.0 - beta1) * flat_grad)
      window = self._window
      next_grad_index = tf.math.floormod(tf.cast(update_global_step - 1.0, tf.int32), window)
      update_grad_buffer = V1.scatter_update(self._non_slot("grad_buffer"), next_grad_index,
                                             update_moment1)
      eps = tf.cast(self._eps, dtype)
      svd_eps = tf.cast(self._svd_eps, dtype)
      sigma_eps = tf.cast(self._sigma_eps, dtype)
      lr = tf.cast(self._call_if_callable(self._lr), dtype)
      denom = tf.sqrt(tf.minimum(update_global_step, tf.cast(window, dtype)))
      moment1_2d = tf.expand_dims(update_moment1, -1)
      m = tf.transpose(tf.divide(update_grad_buffer, denom))
      mm = tf.matmul(m, m, transpose_a=True)
      damping = tf.cast(tf.eye(window), dtype) * svd_eps
      sigma, u, _ = tf.linalg.svd(mm + damping)
      sigma_sqrt = tf.sqrt(sigma)
      sigma_sqrt_min = tf.reduce_min(sigma_sqrt)
      sigma_sqrt_inv = tf.divide(tf.cast(1.0, dtype), tf.pow(sigma_sqrt + sigma_eps, 3))
      new_step = tf.expand_dims(tf.zeros(flat_grad.shape, dtype), -1)
      projected = tf.matmul(u, tf.matmul(m, moment1_2d, transpose_a=True), transpose_a=True)
      head = tf.matmul(m, tf.matmul(u, tf.matmul(tf.linalg.diag(sigma_sqrt_inv), projected)))
      tail = moment1_2d - tf.matmul(m, tf.matmul(u, tf.matmul(
          tf.linalg.diag(tf.divide(tf.cast(1.0, dtype), sigma)), projected)))
      scaled_tail = tf.divide(tail, sigma_sqrt_min)
      update_new_step = V1.cond(sigma_sqrt_min > eps, lambda: tf.add(head, scaled_tail),
                                lambda: tf.add(new_step, head))
      updates = []
      for var in self._variables:
        start = self.index_dict[var.name]
        step = tf.reshape(update_new_step[start:start + self.shape_dict[var.name]], var.shape)
        updates.append(V1.assign_sub(var, lr * step))
      return tf.group(*updates, name=name_scope)
