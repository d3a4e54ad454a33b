"""`tf.contrib.opt.LARSOptimizer`: layer-wise adaptive rate scaling (You, Gitman, Ginsburg, arXiv:1708.03888).

Semantics (TF 1.15): for a dense gradient of a variable not in `skip_list` (matched as a substring of the
variable's name), `trust = eeta * |w| / (|g| + weight_decay * |w| + epsilon)` (1 where |w| or |g| is 0), the
gradient becomes `g + weight_decay * w`, and TF's momentum kernel steps with learning rate 1 and gradient
`lr * trust * g'` (slot `momentum`; Nesterov if asked). A skipped variable steps with plain `lr * g`. A sparse
gradient gets TF's sparse momentum update at `learning_rate` and `momentum`, without scaling or decay.
"""

import tensorflow as tf


class LARSOptimizer(tf.compat.v1.train.Optimizer):
  """Momentum with a per-variable learning rate scaled by the ratio of the weight and gradient norms."""

  def __init__(self, learning_rate, momentum=0.9, weight_decay=0.0001, eeta=0.001, epsilon=0.0,
               name="LARSOptimizer", skip_list=None, use_nesterov=False):
    if momentum < 0.0:
      raise ValueError("momentum should be positive: %s" % momentum)
    if weight_decay < 0.0:
      raise ValueError("weight_decay should be positive: %s" % weight_decay)
    super(LARSOptimizer, self).__init__(use_locking=False, name=name)
    self._learning_rate = learning_rate
    self._momentum = momentum
    self._weight_decay = weight_decay
    self._eeta = eeta
    self._epsilon = epsilon
    self._skip_list = skip_list
    self._use_nesterov = use_nesterov

  def _create_slots(self, var_list):
    for v in var_list:
      self._zeros_slot(v, "momentum", self._name)

  def _prepare(self):
    lr = self._learning_rate() if callable(self._learning_rate) else self._learning_rate
    momentum = self._momentum() if callable(self._momentum) else self._momentum
    self._learning_rate_tensor = tf.convert_to_tensor(lr, name="learning_rate")
    self._momentum_tensor = tf.convert_to_tensor(momentum, name="momentum")

  def compute_lr(self, grad, var):
    """(the scaled learning rate, the gradient with weight decay) for `var`, as the docstring says."""
    if self._skip_list is not None and any(s in var.name for s in self._skip_list):
      return self._learning_rate, grad
    w_norm = tf.norm(var, ord=2)
    g_norm = tf.norm(grad, ord=2)
    trust = tf.where(w_norm > 0,
                     tf.where(g_norm > 0,
                              self._eeta * w_norm / (g_norm + self._weight_decay * w_norm + self._epsilon),
                              1.0),
                     1.0)
    return self._learning_rate * trust, grad + self._weight_decay * var

  def _dense_arguments(self, grad, var):
    scaled_lr, grad = self.compute_lr(grad, var)
    dtype = var.dtype.base_dtype
    return dict(lr=tf.cast(1.0, dtype), grad=grad * scaled_lr, momentum=tf.cast(self._momentum, dtype),
                use_locking=False, use_nesterov=self._use_nesterov)

  def _apply_dense(self, grad, var):
    return tf.raw_ops.ApplyMomentum(var=var, accum=self.get_slot(var, "momentum"),
                                    **self._dense_arguments(grad, var)).op

  def _resource_apply_dense(self, grad, var):
    return tf.raw_ops.ResourceApplyMomentum(var=var.handle, accum=self.get_slot(var, "momentum").handle,
                                            **self._dense_arguments(grad, var))

  def _apply_sparse(self, grad, var):
    dtype = var.dtype.base_dtype
    return tf.raw_ops.SparseApplyMomentum(
        var=var, accum=self.get_slot(var, "momentum"), lr=tf.cast(self._learning_rate_tensor, dtype),
        grad=grad.values, indices=grad.indices, momentum=tf.cast(self._momentum_tensor, dtype),
        use_locking=self._use_locking, use_nesterov=self._use_nesterov).op

  def _resource_apply_sparse(self, grad, var, indices):
    return tf.raw_ops.ResourceSparseApplyMomentum(
        var=var.handle, accum=self.get_slot(var, "momentum").handle,
        lr=tf.cast(self._learning_rate_tensor, grad.dtype), grad=grad, indices=indices,
        momentum=tf.cast(self._momentum_tensor, grad.dtype), use_locking=self._use_locking,
        use_nesterov=self._use_nesterov)
