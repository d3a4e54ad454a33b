"""`tf.contrib.opt.AdamGSOptimizer` and `LazyAdamGSOptimizer`: Adam and LazyAdam whose bias correction counts
the global step instead of keeping beta-power variables.

Semantics (TF 1.15): `beta1^t` and `beta2^t` are `pow(beta, global_step + 1)`, with `global_step` read when the
update runs (a tensor or variable given to the constructor; the default 0 means every step corrects as the
first one), so workers of an asynchronous job that share the global step agree on t; there are no
`beta1_power`/`beta2_power` variables and nothing is added at the end of a step (`apply_gradients`'s own
`global_step` argument advances the step as usual). Slots `m`, `v`; the name defaults to "Adam". Dense and
sparse updates are Adam's (AdamGS) and LazyAdam's (LazyAdamGS).
"""

import tensorflow as tf

from tf1clip.contrib.opt.python.training import lazy_adam_optimizer


class _GlobalStepPowers(object):
  """Mixin over an Adam class: the beta powers from the global step (see the module docstring)."""

  def __init__(self, global_step=0, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False,
               name="Adam"):
    super(_GlobalStepPowers, self).__init__(learning_rate=learning_rate, beta1=beta1, beta2=beta2,
                                            epsilon=epsilon, use_locking=use_locking, name=name)
    self._global_step = global_step
    self._global_step_on_worker = None

  def _create_slots(self, var_list):
    for v in var_list:
      self._zeros_slot(v, "m", self._name)
      self._zeros_slot(v, "v", self._name)

  def _prepare(self):
    super(_GlobalStepPowers, self)._prepare()
    self._global_step_on_worker = tf.cast(tf.identity(self._global_step) + 1, tf.float32)

  def _get_beta_accumulators(self):
    return (tf.pow(self._beta1_t, self._global_step_on_worker),
            tf.pow(self._beta2_t, self._global_step_on_worker))

  def _finish(self, update_ops, name_scope):
    return tf.group(*update_ops, name=name_scope)


class AdamGSOptimizer(_GlobalStepPowers, tf.compat.v1.train.AdamOptimizer):
  """Adam with the beta powers from the global step (TF 1.15's `tf.contrib.opt.AdamGSOptimizer`)."""


class LazyAdamGSOptimizer(_GlobalStepPowers, lazy_adam_optimizer.LazyAdamOptimizer):
  """LazyAdam with the beta powers from the global step (TF 1.15's `tf.contrib.opt.LazyAdamGSOptimizer`)."""
