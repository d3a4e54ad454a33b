"""`tf.contrib.opt.ShampooOptimizer`: Kronecker-factored preconditioning per tensor dimension (TF 1.15's).

TF 1.15's algorithm, step for step, with its slots (so its checkpoints restore): per variable a momentum `gbar`
(`<var>/Shampoo`) and per dimension i a statistic `Gbar_i` (`<var>/Shampoo_<k>`): for a dimension of size
<= max_matrix_size the d x d matrix sum of G G^T contracted over the other dimensions, preconditioning with its
power -alpha / rank (by SVD, or by coupled Newton iterations with `use_iterative_root`; every `svd_interval`
steps into the `H_i` slot); for a bigger dimension a diagonal statistic. Sparse gradients of a variable whose
first dimension is small (or with momentum) are densified first; otherwise only their rows are updated. Every
hyperparameter may be a callable of the step (`global_step + 1`). The statistics are float32, as in TF 1.15.

References:
  Gupta, Koren, Singer, "Shampoo: Preconditioned Stochastic Tensor Optimization", ICML 2018
  (arXiv:1802.09568).
"""

import tensorflow as tf
from absl import logging

V1 = tf.compat.v1


def _param(value, step):
  """A hyperparameter: a constant, or a callable of the step."""
  return value(step) if callable(value) else value


def _matrix_square_root(mat_a, size, iter_count=100, ridge_epsilon=1e-4):
  """sqrt(mat_a + ridge I) by coupled Newton (Denman-Beavers) iterations, stopping when the error grows."""
  identity = tf.eye(tf.cast(size, tf.int32))
  mat_a = mat_a + ridge_epsilon * identity
  norm = tf.sqrt(tf.reduce_sum(mat_a * mat_a))

  def condition(i, unused_y, unused_old_y, unused_z, unused_old_z, err, old_err):
    return tf.logical_and(i < iter_count, err < old_err)

  def body(i, mat_y, unused_old_y, mat_z, unused_old_z, err, unused_old_err):
    step = 0.5 * (3.0 * identity - tf.matmul(mat_z, mat_y))
    new_y = tf.matmul(mat_y, step)
    new_z = tf.matmul(step, mat_z)
    root = new_y * tf.sqrt(norm)
    residual = mat_a - tf.matmul(root, root)
    return i + 1, new_y, mat_y, new_z, mat_z, tf.sqrt(tf.reduce_sum(residual * residual)) / norm, err

  start = mat_a / norm
  # the last iterate before the error stopped falling
  _, _, prev_y, _, _, _, _ = V1.while_loop(condition, body, [0, start, start, identity, identity, norm, norm + 1.0])
  return prev_y * tf.sqrt(norm)


def _matrix_inverse_pth_root(mat_g, size, alpha, iter_count=100, epsilon=1e-6, ridge_epsilon=1e-6):
  """(mat_g + ridge I)^alpha for alpha = -1/p by coupled Newton iterations."""
  identity = tf.eye(tf.cast(size, tf.int32))

  def power(mat, p):  # mat^p for a positive integer p, by squaring
    assert p == int(p) and p > 0
    result = None
    while p > 0:
      if p % 2 == 1:
        result = tf.matmul(mat, result) if result is not None else mat
      p //= 2
      mat = tf.matmul(mat, mat)
    return result

  def condition(i, mat_m, _):
    return tf.logical_and(i < iter_count, tf.reduce_max(tf.abs(mat_m - identity)) > epsilon)

  def body(i, mat_m, mat_x):
    mat_m_i = (1 - alpha) * identity + alpha * mat_m
    return i + 1, tf.matmul(power(mat_m_i, -1.0 / alpha), mat_m), tf.matmul(mat_x, mat_m_i)

  if size == 1:
    return tf.pow(mat_g + ridge_epsilon, alpha)
  damped = mat_g + ridge_epsilon * identity
  z = (1 - 1 / alpha) / (2 * tf.norm(damped))
  _, _, mat_h = V1.while_loop(condition, body, [0, damped * z, identity * tf.pow(z, -alpha)])
  return mat_h


class ShampooOptimizer(V1.train.Optimizer):
  """Shampoo: precondition the gradient along each dimension by a power of that dimension's statistic."""

  def __init__(self, global_step=0, max_matrix_size=768, gbar_decay=0.0, gbar_weight=1.0, mat_gbar_decay=1.0,
               mat_gbar_weight=1.0, learning_rate=1.0, svd_interval=1, precond_update_interval=1, epsilon=1e-4,
               alpha=0.5, use_iterative_root=False, use_locking=False, name="Shampoo"):
    super().__init__(use_locking, name)
    self._global_step = tf.cast(global_step, tf.float32)
    self._max_matrix_size = max_matrix_size
    self._gbar_decay = gbar_decay
    self._gbar_weight = gbar_weight
    self._mat_gbar_decay = mat_gbar_decay
    self._mat_gbar_weight = mat_gbar_weight
    self._learning_rate = learning_rate
    self._svd_interval = svd_interval
    self._precond_update_interval = precond_update_interval
    self._epsilon = epsilon
    self._alpha = alpha
    self._use_iterative_root = use_iterative_root
    self._name = name

  def _create_slots(self, var_list):
    for v in var_list:
      with tf.compat.v1.colocate_with(v):
        self._zeros_slot(v, "gbar", self._name)
        for i, d in enumerate(v.shape.as_list()):
          d_tensor = tf.convert_to_tensor(d)
          if d <= self._max_matrix_size:
            init = tf.zeros_like(tf.eye(d_tensor))
            if self._svd_interval > 1:
              self._get_or_make_slot(v, tf.eye(d_tensor), "H_" + str(i), self._name)
          else:
            init = tf.zeros([d_tensor])
          self._get_or_make_slot(v, init, "Gbar_" + str(i), self._name)

  def _resource_apply_dense(self, grad, var):
    return self._apply_gradient(grad, var)

  def _apply_dense(self, grad, var):
    return self._apply_gradient(grad, var)

  def _resource_apply_sparse(self, grad, var, indices):
    return self._apply_sparse_shared(grad, indices, var)

  def _apply_sparse(self, grad, var):
    return self._apply_sparse_shared(grad.values, grad.indices, var)

  def _apply_sparse_shared(self, values, indices, var):
    if var.shape.as_list()[0] <= self._max_matrix_size or self._gbar_decay != 0.0:
      # a small first dimension (or momentum) needs the whole gradient: densify it (duplicates add up)
      dense = tf.scatter_nd(tf.expand_dims(indices, axis=1), values, tf.shape(var, out_type=indices.dtype))
      return self._apply_gradient(dense, var)
    return self._apply_gradient(values, var, indices)

  def _weighted_average(self, var, weight, weight_t, rest):
    """var <- weight_t * var + rest (assigned unless weight is 0: then just `rest`)."""
    if weight == 0.0:
      return rest
    if weight == 1.0:
      return V1.assign_add(var, rest)
    return var.assign_add((weight_t - 1) * var + rest)

  def _update_mat_g(self, mat_g, grad, axes, mat_gbar_decay, mat_gbar_weight, i):
    grad_outer = tf.tensordot(grad, grad, axes=(axes, axes), name="grad_outer_" + str(i))
    return self._weighted_average(mat_g, self._mat_gbar_decay, mat_gbar_decay, mat_gbar_weight * grad_outer)

  def _compute_power(self, var, mat_g, size, alpha, slot_name=None):
    """mat_g^alpha (by SVD with epsilon damping, or iteratively), stored in the slot `slot_name` if given."""
    with tf.name_scope("matrix_iterative_power"):
      if self._use_iterative_root:
        mat_h = _matrix_inverse_pth_root(_matrix_square_root(mat_g, size, 100, self._epsilon), size, 2 * alpha,
                                         100, 1e-6, ridge_epsilon=0.0)
      elif size == 1:
        mat_h = tf.pow(mat_g + self._epsilon, alpha)
      else:
        damping = self._epsilon * tf.eye(tf.cast(size, tf.int32))
        diag_d, mat_u, mat_v = tf.linalg.svd(mat_g + damping, full_matrices=True)
        mat_h = tf.matmul(mat_v * tf.pow(tf.maximum(diag_d, self._epsilon), alpha), tf.transpose(mat_u))
      if slot_name is not None:
        return V1.assign(self.get_slot(var, slot_name), mat_h)
      return mat_h

  def _apply_gradient(self, grad, var, indices=None):
    global_step = self._global_step + 1
    gbar = self.get_slot(var, "gbar")
    if indices is not None:
      if self._gbar_decay != 0.0:
        logging.warning("Not applying momentum for variable: %s", var.name)
      gbar_updated = grad
    else:
      gbar_updated = self._weighted_average(gbar, self._gbar_decay, _param(self._gbar_decay, global_step),
                                            _param(self._gbar_weight, global_step) * grad)
    shape = var.shape.as_list()
    rank = len(shape)
    mat_gbar_decay_t = _param(self._mat_gbar_decay, global_step)
    mat_gbar_weight_t = _param(self._mat_gbar_weight, global_step)
    neg_alpha = -_param(self._alpha, global_step) / rank
    svd_interval = _param(self._svd_interval, global_step)
    update_interval = _param(self._precond_update_interval, global_step)
    preconditioned = gbar_updated
    for i in range(rank):
      mat_g = self.get_slot(var, "Gbar_" + str(i))
      axes = list(range(i)) + list(range(i + 1, rank))
      if shape[i] <= self._max_matrix_size:
        # the statistic is refreshed every precond_update_interval steps (weighted by it)
        mat_g_updated = tf.cond(
            tf.math.floormod(global_step, update_interval) < 1,
            lambda: self._update_mat_g(mat_g, grad, axes, mat_gbar_decay_t,  # pylint: disable=cell-var-from-loop
                                       mat_gbar_weight_t * update_interval, i),  # pylint: disable=cell-var-from-loop
            lambda: tf.identity(mat_g))  # pylint: disable=cell-var-from-loop
        mat_g_updated = mat_g_updated / float(shape[i])
        if self._svd_interval == 1:
          mat_h = self._compute_power(var, mat_g_updated, shape[i], neg_alpha)
        else:
          mat_h = tf.cond(
              tf.math.floormod(global_step, svd_interval) < 1,
              lambda: self._compute_power(var, mat_g_updated, shape[i],  # pylint: disable=cell-var-from-loop
                                          neg_alpha, "H_" + str(i)),  # pylint: disable=cell-var-from-loop
              lambda: tf.identity(self.get_slot(var, "H_" + str(i))))  # pylint: disable=cell-var-from-loop
        # contracting dimension 0 and appending the result's moves dimension i+1 to the front for the next turn
        preconditioned = tf.tensordot(preconditioned, mat_h, axes=([0], [0]), name="precond_" + str(i))
      else:
        # a big dimension keeps a diagonal statistic
        if axes:
          normalizer = 1.0 if indices is not None else float(shape[i])
          grad_outer = tf.reduce_sum(grad * grad, axis=axes) / normalizer
        else:
          grad_outer = grad * grad
        if i == 0 and indices is not None:
          assert self._mat_gbar_decay == 1.0
          mat_g_updated = V1.scatter_add(mat_g, indices, mat_gbar_weight_t * grad_outer)
          mat_g_rows = tf.gather(mat_g_updated, indices)
          mat_h = tf.where(tf.greater(mat_g_rows, 0), tf.pow(mat_g_rows, neg_alpha), tf.zeros_like(mat_g_rows))
        else:
          mat_g_updated = self._weighted_average(mat_g, self._mat_gbar_decay, mat_gbar_decay_t,
                                                 mat_gbar_weight_t * grad_outer)
          mat_h = tf.where(tf.greater(mat_g_updated, 0), tf.pow(mat_g_updated, neg_alpha),
                           tf.zeros_like(mat_g_updated))
        preconditioned = tf.transpose(preconditioned, perm=list(range(1, rank)) + [0]) * mat_h
    learning_rate = _param(self._learning_rate, global_step)
    if indices is not None:
      return V1.scatter_add(var, indices, -learning_rate * preconditioned)
    return V1.assign_sub(var, learning_rate * preconditioned)
