"""`tf.contrib.opt.NadamOptimizer` and `AdaMaxOptimizer`: Adam's relatives on TensorFlow's own training kernels.

Both subclass TF's Adam (slots `m` and `v`, colocated non-slot beta powers), so they nest in tf1clip's wrappers
and checkpoints keep TF 1.15's keys (`<var>/Nadam`, `<var>/Nadam_1`, `beta1_power`, ...).

Semantics (TF 1.15):
- Nadam (Dozat, "Incorporating Nesterov Momentum into Adam", 2016): dense updates are the ApplyAdam kernel with
  `use_nesterov=True`; a sparse gradient decays m and v everywhere and adds its rows, and moves only its rows,
  by `lr_t * m_bar / (sqrt(v) + eps)` with `m_bar = (1 - beta1) * g + beta1 * m_t` at those rows.
- AdaMax (Kingma & Ba, section 7.1): `m = beta1 m + (1 - beta1) g`, `v = max(beta2 v, |g|)`,
  `var -= lr / (1 - beta1^t) * m / (v + eps)`; one non-slot accumulator, `beta1_power`; a sparse gradient
  updates m, v and the variable at its rows only.
"""

import tensorflow as tf

from tf1clip.contrib.opt.python.training import _rows


def _cast(value, dtype):
  return tf.cast(value, dtype)


class NadamOptimizer(tf.compat.v1.train.AdamOptimizer):
  """Adam with Nesterov momentum (TF 1.15's `tf.contrib.opt.NadamOptimizer`; the name stays "Adam")."""

  def _coefficients(self, dtype):
    beta1_power, beta2_power = self._get_beta_accumulators()
    return [_cast(x, dtype) for x in (beta1_power, beta2_power, self._lr_t, self._beta1_t, self._beta2_t,
                                      self._epsilon_t)]

  def _apply_dense(self, grad, var):
    b1p, b2p, lr, b1, b2, eps = self._coefficients(var.dtype.base_dtype)
    return tf.raw_ops.ApplyAdam(var=var, m=self.get_slot(var, "m"), v=self.get_slot(var, "v"), beta1_power=b1p,
                                beta2_power=b2p, lr=lr, beta1=b1, beta2=b2, epsilon=eps, grad=grad,
                                use_locking=self._use_locking, use_nesterov=True).op

  def _resource_apply_dense(self, grad, var):
    b1p, b2p, lr, b1, b2, eps = self._coefficients(grad.dtype.base_dtype)
    return tf.raw_ops.ResourceApplyAdam(
        var=var.handle, m=self.get_slot(var, "m").handle, v=self.get_slot(var, "v").handle, beta1_power=b1p,
        beta2_power=b2p, lr=lr, beta1=b1, beta2=b2, epsilon=eps, grad=grad, use_locking=self._use_locking,
        use_nesterov=True)

  def _apply_sparse_shared(self, grad, var, indices, scatter_add):
    b1p, b2p, lr, b1, b2, eps = self._coefficients(var.dtype.base_dtype)
    lr = lr * tf.sqrt(1 - b2p) / (1 - b1p)
    m = self.get_slot(var, "m")
    m_scaled = grad * (1 - b1)
    with tf.control_dependencies([tf.compat.v1.assign(m, m * b1, use_locking=self._use_locking)]):
      m_t = scatter_add(m, indices, m_scaled)
      m_bar = m_scaled + b1 * tf.gather(m_t, indices)
    v = self.get_slot(var, "v")
    with tf.control_dependencies([tf.compat.v1.assign(v, v * b2, use_locking=self._use_locking)]):
      v_t = scatter_add(v, indices, tf.square(grad) * (1 - b2))
    step = -lr * m_bar / (tf.sqrt(tf.gather(v_t, indices)) + eps)
    return tf.group(scatter_add(var, indices, step), m_bar, v_t)


class AdaMaxOptimizer(tf.compat.v1.train.AdamOptimizer):
  """Adam's infinity-norm variant (TF 1.15's `tf.contrib.opt.AdaMaxOptimizer`)."""

  def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False,
               name="AdaMax"):
    super(AdaMaxOptimizer, self).__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

  def _get_beta_accumulators(self):
    graph = None if tf.executing_eagerly() else tf.compat.v1.get_default_graph()
    return self._get_non_slot_variable("beta1_power", graph=graph)

  def _create_slots(self, var_list):
    first = min(var_list, key=lambda v: v.name)  # as Adam: the accumulator lives with the first variable
    self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power", colocate_with=first)
    for v in var_list:
      self._zeros_slot(v, "m", self._name)
      self._zeros_slot(v, "v", self._name)

  def _coefficients(self, dtype):
    return [_cast(x, dtype) for x in (self._get_beta_accumulators(), self._lr_t, self._beta1_t, self._beta2_t,
                                      self._epsilon_t)]

  def _apply_dense(self, grad, var):
    b1p, lr, b1, b2, eps = self._coefficients(var.dtype.base_dtype)
    return tf.raw_ops.ApplyAdaMax(var=var, m=self.get_slot(var, "m"), v=self.get_slot(var, "v"),
                                  beta1_power=b1p, lr=lr, beta1=b1, beta2=b2, epsilon=eps, grad=grad,
                                  use_locking=self._use_locking).op

  def _resource_apply_dense(self, grad, var):
    b1p, lr, b1, b2, eps = self._coefficients(grad.dtype.base_dtype)
    return tf.raw_ops.ResourceApplyAdaMax(
        var=var.handle, m=self.get_slot(var, "m").handle, v=self.get_slot(var, "v").handle, beta1_power=b1p,
        lr=lr, beta1=b1, beta2=b2, epsilon=eps, grad=grad, use_locking=self._use_locking)

  def _rows_update(self, grad, var, indices, ops):
    b1p, lr, b1, b2, eps = self._coefficients(var.dtype.base_dtype)
    m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
    m_rows = tf.gather(m, indices) * b1 + grad * (1 - b1)
    v_rows = tf.maximum(tf.gather(v, indices) * b2, tf.abs(grad))
    m_t = ops.update(m, indices, m_rows)
    v_t = ops.update(v, indices, v_rows)
    step = -lr / (1 - b1p) * (m_rows / (v_rows + eps))
    return tf.group(ops.add(var, indices, step), m_t, v_t)

  def _apply_sparse(self, grad, var):
    return self._rows_update(grad.values, var, grad.indices, _rows.ref(self._use_locking))

  def _resource_apply_sparse(self, grad, var, indices):
    return self._rows_update(grad, var, indices, _rows.RESOURCE)

  def _finish(self, update_ops, name_scope):
    with tf.control_dependencies(update_ops):
      beta1_power = self._get_beta_accumulators()
      with tf.compat.v1.colocate_with(beta1_power):
        advance = beta1_power.assign(beta1_power * self._beta1_t, use_locking=self._use_locking)
    return tf.group(*update_ops + [advance], name=name_scope)
