"""`tf.contrib.opt.LazyAdamOptimizer`: Adam whose sparse updates touch only the looked-up rows.

It is an AdamOptimizer subclass (slots `m` and `v`, the beta-power accumulators, the name "Adam"), so it wraps in
tf1clip's optimizers like any TF1 optimizer.

Semantics (TF 1.15): on dense gradients it is Adam. On a `tf.IndexedSlices` gradient (an
embedding lookup), only the rows in `indices` change, in the variable and in both moment slots;
the other rows keep their m and v instead of decaying them, and their weights do not move on
momentum alone. Duplicate indices are summed first (the base Optimizer's
`_apply_sparse_duplicate_indices`). The beta powers advance once per step, as in Adam, so a row's
bias correction uses the global step count.
"""

import tensorflow as tf


class LazyAdamOptimizer(tf.compat.v1.train.AdamOptimizer):
  """Adam that updates m, v and the variable only at the rows of a sparse gradient.

  Dense gradients get plain Adam. For a sparse gradient with rows `idx` and values `g`:

    lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)
    m[idx] = beta1 * m[idx] + (1 - beta1) * g
    v[idx] = beta2 * v[idx] + (1 - beta2) * g^2
    var[idx] -= lr_t * m[idx] / (sqrt(v[idx]) + epsilon)

  References:
    Kingma, Ba, "Adam: A Method for Stochastic Optimization", ICLR 2015 (arXiv:1412.6980).
  """

  def _sparse_coefficients(self, dtype):
    beta1_power, beta2_power = self._get_beta_accumulators()
    cast = lambda x: tf.cast(x, dtype)
    beta1_t, beta2_t = cast(self._beta1_t), cast(self._beta2_t)
    lr = cast(self._lr_t) * tf.sqrt(1 - cast(beta2_power)) / (1 - cast(beta1_power))
    return lr, beta1_t, beta2_t, cast(self._epsilon_t)

  def _apply_sparse(self, grad, var):
    lr, beta1_t, beta2_t, epsilon_t = self._sparse_coefficients(var.dtype.base_dtype)
    indices, values = grad.indices, grad.values
    m = self.get_slot(var, "m")
    m_t = tf.compat.v1.scatter_update(
        m, indices, beta1_t * tf.gather(m, indices) + (1 - beta1_t) * values,
        use_locking=self._use_locking)
    v = self.get_slot(var, "v")
    v_t = tf.compat.v1.scatter_update(
        v, indices, beta2_t * tf.gather(v, indices) + (1 - beta2_t) * tf.square(values),
        use_locking=self._use_locking)
    m_t_slice = tf.gather(m_t, indices)
    v_t_slice = tf.gather(v_t, indices)
    var_update = tf.compat.v1.scatter_sub(
        var, indices, lr * m_t_slice / (tf.sqrt(v_t_slice) + epsilon_t),
        use_locking=self._use_locking)
    return tf.group(var_update, m_t, v_t)

  def _resource_apply_sparse(self, grad, var, indices):
    lr, beta1_t, beta2_t, epsilon_t = self._sparse_coefficients(var.dtype.base_dtype)
    m = self.get_slot(var, "m")
    m_t_slice = beta1_t * tf.gather(m, indices) + (1 - beta1_t) * grad
    m_update = m.scatter_update(tf.IndexedSlices(m_t_slice, indices))
    v = self.get_slot(var, "v")
    v_t_slice = beta2_t * tf.gather(v, indices) + (1 - beta2_t) * tf.square(grad)
    v_update = v.scatter_update(tf.IndexedSlices(v_t_slice, indices))
    var_update = var.scatter_sub(
        tf.IndexedSlices(lr * m_t_slice / (tf.sqrt(v_t_slice) + epsilon_t), indices))
    return tf.group(var_update, m_update, v_update)
