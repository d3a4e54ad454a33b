"""`tf.contrib.opt.AddSignOptimizer` and `PowerSignOptimizer` (Bello et al., "Neural Optimizer Search with
Reinforcement Learning", ICML 2017), on TensorFlow's own ApplyAddSign / ApplyPowerSign kernels.

Semantics (TF 1.15): one slot `m` (`m = beta m + (1 - beta) g`), then
AddSign `var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g` and
PowerSign `var -= lr * exp(logbase * sign_decay * sign(g) * sign(m)) * g`. `sign_decay_fn(global_step)`, when
given, is evaluated when the update is built (at `apply_gradients`), else the decay is 1. A sparse gradient
(duplicate rows summed first, by the base Optimizer) decays m on every row, as TF 1.15's densified update did,
and moves the variable at its rows only; here without densifying the gradient.
"""

import math

import tensorflow as tf

from tf1clip.contrib.opt.python.training import _rows


class _SignOptimizer(tf.compat.v1.train.Optimizer):
  """The shared part: slot m, the sign-decay tensor, the sparse update; subclasses give the multiplier."""

  _KERNEL = None  # (ref kernel, resource kernel, name of the shape argument) in tf.raw_ops

  def __init__(self, learning_rate, shape, beta, sign_decay_fn, use_locking, name):
    super(_SignOptimizer, self).__init__(use_locking, name)
    self._lr, self._shape, self._beta = learning_rate, shape, beta
    self._sign_decay_fn = sign_decay_fn
    self._sign_decay_t = None

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    if self._sign_decay_fn is not None:
      self._sign_decay_t = tf.convert_to_tensor(self._sign_decay_fn(global_step), name="sign_decay")
    return super(_SignOptimizer, self).apply_gradients(grads_and_vars, global_step=global_step, name=name)

  def _create_slots(self, var_list):
    for v in var_list:
      self._zeros_slot(v, "m", self._name)

  def _prepare(self):
    self._lr_t = tf.convert_to_tensor(self._lr, name="learning_rate")
    self._beta_t = tf.convert_to_tensor(self._beta, name="beta")
    self._shape_t = tf.convert_to_tensor(self._shape, name=self._KERNEL[2])
    if self._sign_decay_fn is None:
      self._sign_decay_t = tf.convert_to_tensor(1.0, name="sign_decay")

  def _arguments(self, dtype):
    cast = lambda x: tf.cast(x, dtype)
    return {"lr": cast(self._lr_t), self._KERNEL[2]: cast(self._shape_t),
            "sign_decay": cast(self._sign_decay_t), "beta": cast(self._beta_t)}

  def _apply_dense(self, grad, var):
    kernel = getattr(tf.raw_ops, self._KERNEL[0])
    return kernel(var=var, m=self.get_slot(var, "m"), grad=grad, use_locking=self._use_locking,
                  **self._arguments(var.dtype.base_dtype)).op

  def _resource_apply_dense(self, grad, var):
    kernel = getattr(tf.raw_ops, self._KERNEL[1])
    return kernel(var=var.handle, m=self.get_slot(var, "m").handle, grad=grad, use_locking=self._use_locking,
                  **self._arguments(var.dtype.base_dtype))

  def _multiplier(self, shape, sign_decay, agreement):
    raise NotImplementedError

  def _rows_update(self, values, var, indices, ops):
    args = self._arguments(var.dtype.base_dtype)
    beta = args["beta"]
    m = self.get_slot(var, "m")
    with tf.control_dependencies([tf.compat.v1.assign(m, m * beta, use_locking=self._use_locking)]):
      m_t = ops.add(m, indices, values * (1 - beta))
    agreement = tf.gather(tf.sign(m_t), indices) * tf.sign(values)
    step = args["lr"] * self._multiplier(args[self._KERNEL[2]], args["sign_decay"], agreement) * values
    return tf.group(ops.sub(var, indices, step), m_t)

  def _apply_sparse(self, grad, var):
    return self._rows_update(grad.values, var, grad.indices, _rows.ref(self._use_locking))

  def _resource_apply_sparse(self, grad, var, indices):
    return self._rows_update(grad, var, indices, _rows.RESOURCE)


class AddSignOptimizer(_SignOptimizer):
  """AddSign: `var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g` (TF 1.15's contrib.opt)."""

  _KERNEL = ("ApplyAddSign", "ResourceApplyAddSign", "alpha")

  def __init__(self, learning_rate=0.1, alpha=1.0, beta=0.9, sign_decay_fn=None, use_locking=False,
               name="AddSignOptimizer"):
    super(AddSignOptimizer, self).__init__(learning_rate, alpha, beta, sign_decay_fn, use_locking, name)

  def _multiplier(self, alpha, sign_decay, agreement):
    return alpha + sign_decay * agreement


class PowerSignOptimizer(_SignOptimizer):
  """PowerSign: `var -= lr * exp(logbase * sign_decay * sign(g) * sign(m)) * g` (TF 1.15's contrib.opt)."""

  _KERNEL = ("ApplyPowerSign", "ResourceApplyPowerSign", "logbase")

  def __init__(self, learning_rate=0.1, base=math.e, beta=0.9, sign_decay_fn=None, use_locking=False,
               name="PowerSignOptimizer"):
    super(PowerSignOptimizer, self).__init__(learning_rate, math.log(base), beta, sign_decay_fn, use_locking,
                                             name)

  def _multiplier(self, logbase, sign_decay, agreement):
    return tf.exp(logbase * sign_decay * agreement)
