"""`tf.contrib.opt` decoupled weight decay: AdamWOptimizer, MomentumWOptimizer, the extension and its factory.

Semantics (TF 1.15, Loshchilov & Hutter, "Decoupled Weight Decay Regularization", arXiv:1711.05101): before the
wrapped optimizer's update of a variable, the variable shrinks by `weight_decay * var` (for a sparse gradient,
only its rows: `var[idx] -= weight_decay * var[idx]`); the decay is not scaled by the learning rate, and it
is not part of the gradient (so Adam's moments never see it). `decay_var_list` given to `minimize` /
`apply_gradients` limits the decay to those variables; without it every updated variable decays. Slots,
variable and checkpoint names are the base optimizer's under the names "AdamW" / "MomentumW".
"""

import tensorflow as tf

from tf1clip.contrib.opt.python.training import _rows


class DecoupledWeightDecayExtension(object):
  """Mixin: `class MyW(DecoupledWeightDecayExtension, tf.compat.v1.train.X)` adds decoupled weight decay to X.

  The first argument of the combined constructor is `weight_decay` (a float, a tensor or a callable returning
  one); the rest are X's, by keyword.
  """

  def __init__(self, weight_decay, **kwargs):
    self._weight_decay = weight_decay
    self._decay_refs = None  # None: decay every variable; else the refs of the variables to decay
    super(DecoupledWeightDecayExtension, self).__init__(**kwargs)

  def _select_decayed(self, decay_var_list):
    self._decay_refs = {v.ref() for v in decay_var_list} if decay_var_list else None

  def minimize(self, loss, global_step=None, var_list=None,
               gate_gradients=tf.compat.v1.train.Optimizer.GATE_OP, aggregation_method=None,
               colocate_gradients_with_ops=False, name=None, grad_loss=None, decay_var_list=None):
    """As the base optimizer's `minimize`; `decay_var_list` limits the decay to those variables."""
    self._select_decayed(decay_var_list)
    return super(DecoupledWeightDecayExtension, self).minimize(
        loss, global_step=global_step, var_list=var_list, gate_gradients=gate_gradients,
        aggregation_method=aggregation_method, colocate_gradients_with_ops=colocate_gradients_with_ops,
        name=name, grad_loss=grad_loss)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None, decay_var_list=None):
    """As the base optimizer's `apply_gradients`; `decay_var_list` limits the decay to those variables."""
    self._select_decayed(decay_var_list)
    return super(DecoupledWeightDecayExtension, self).apply_gradients(
        grads_and_vars, global_step=global_step, name=name)

  def _prepare(self):
    decay = self._weight_decay() if callable(self._weight_decay) else self._weight_decay
    self._weight_decay_tensor = tf.convert_to_tensor(decay, name="weight_decay")
    super(DecoupledWeightDecayExtension, self)._prepare()

  def _decays(self, var):
    return self._decay_refs is None or var.ref() in self._decay_refs

  def _decay(self, var):
    if not self._decays(var):
      return tf.no_op()
    return var.assign_sub(tf.cast(self._weight_decay_tensor, var.dtype.base_dtype) * var,
                          use_locking=self._use_locking)

  def _decay_rows(self, var, indices, ops):
    if not self._decays(var):
      return tf.no_op()
    shrink = -tf.cast(self._weight_decay_tensor, var.dtype.base_dtype) * tf.gather(var, indices)
    return ops.add(var, indices, shrink)

  def _apply_dense(self, grad, var):
    with tf.control_dependencies([self._decay(var)]):
      return super(DecoupledWeightDecayExtension, self)._apply_dense(grad, var)

  def _resource_apply_dense(self, grad, var):
    with tf.control_dependencies([self._decay(var)]):
      return super(DecoupledWeightDecayExtension, self)._resource_apply_dense(grad, var)

  def _apply_sparse(self, grad, var):
    decay = self._decay_rows(var, grad.indices, _rows.ref(self._use_locking))
    with tf.control_dependencies([decay]):
      return super(DecoupledWeightDecayExtension, self)._apply_sparse(grad, var)

  def _resource_apply_sparse(self, grad, var, indices):
    decay = self._decay_rows(var, indices, _rows.RESOURCE)
    with tf.control_dependencies([decay]):
      return super(DecoupledWeightDecayExtension, self)._resource_apply_sparse(grad, var, indices)


def extend_with_decoupled_weight_decay(base_optimizer):
  """A subclass of the optimizer class `base_optimizer` whose first constructor argument is `weight_decay`.

  `extend_with_decoupled_weight_decay(tf.train.AdamOptimizer)(weight_decay=1e-4, learning_rate=1e-3)` is AdamW
  (named "Adam", as the base class names itself).
  """
  if not (isinstance(base_optimizer, type) and issubclass(base_optimizer, tf.compat.v1.train.Optimizer)):
    raise TypeError("extend_with_decoupled_weight_decay: base_optimizer must be a tf.train.Optimizer "
                    "subclass (a class, not an instance), got %r" % (base_optimizer,))

  class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
    """`base_optimizer` with decoupled weight decay (see DecoupledWeightDecayExtension)."""

    def __init__(self, weight_decay, *args, **kwargs):
      super(OptimizerWithDecoupledWeightDecay, self).__init__(weight_decay, *args, **kwargs)

  return OptimizerWithDecoupledWeightDecay


class MomentumWOptimizer(DecoupledWeightDecayExtension, tf.compat.v1.train.MomentumOptimizer):
  """Momentum with decoupled weight decay (TF 1.15's `tf.contrib.opt.MomentumWOptimizer`)."""

  def __init__(self, weight_decay, learning_rate, momentum, use_locking=False, name="MomentumW",
               use_nesterov=False):
    super(MomentumWOptimizer, self).__init__(
        weight_decay, learning_rate=learning_rate, momentum=momentum, use_locking=use_locking, name=name,
        use_nesterov=use_nesterov)


class AdamWOptimizer(DecoupledWeightDecayExtension, tf.compat.v1.train.AdamOptimizer):
  """Adam with decoupled weight decay (TF 1.15's `tf.contrib.opt.AdamWOptimizer`)."""

  def __init__(self, weight_decay, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
               use_locking=False, name="AdamW"):
    super(AdamWOptimizer, self).__init__(
        weight_decay, learning_rate=learning_rate, beta1=beta1, beta2=beta2, epsilon=epsilon,
        use_locking=use_locking, name=name)
