"""`tf.contrib.optimizer_v2`: TF 1.15's OptimizerV2 versions of six optimizers, on the v1 optimizers.

TF 1.15's contrib OptimizerV2 classes took the v1 optimizers' arguments and created the same slot and
non-slot variables (`v/Adam`, `beta1_power`, ...). Adadelta, Adagrad, Adam, GradientDescent and Momentum also
made the same updates: `tf.compat.v1.train.<name>` is served for them (imported below). RMSProp did not:
its `rms` slot started at `epsilon` (not 1) and epsilon was no longer added to the denominator, so
`RMSPropOptimizer` here is the v1 optimizer with those two changes. All six are checked against TF 1.15 by
tests/contrib/optimizer_v2/test_optimizer_v2_oracle.py. The OptimizerV2 base class itself (hyper-parameters
re-evaluated per step, `_create_vars(var_list, state)`, `_apply_dense(grad, var, state)`) is TF 1.15's code in
tf1clip.contrib.optimizer_v2.optimizer_v2, for scripts that subclass it (the six here are not its subclasses).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.compat.v1.train import (
    AdadeltaOptimizer, AdagradOptimizer, AdamOptimizer, GradientDescentOptimizer, MomentumOptimizer)
from tf1clip.contrib.optimizer_v2.optimizer_v2 import OptimizerV2


class RMSPropOptimizer(tf.compat.v1.train.RMSPropOptimizer):
  """TF 1.15's contrib.optimizer_v2 RMSProp: the `rms` slot starts at epsilon, the update adds no epsilon."""

  def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False,
               centered=False, name="RMSProp"):
    super().__init__(learning_rate, decay=decay, momentum=momentum, epsilon=epsilon,
                     use_locking=use_locking, centered=centered, name=name)

  def _create_slots(self, var_list):
    epsilon = self._call_if_callable(self._epsilon)
    for v in var_list:
      dtype = v.dtype.base_dtype
      self._get_or_make_slot_with_initializer(
          v, tf.compat.v1.constant_initializer(epsilon, dtype=dtype), v.shape, dtype, "rms",
          self._name)
      if self._centered:
        self._zeros_slot(v, "mg", self._name)
      self._zeros_slot(v, "momentum", self._name)

  def _prepare(self):
    super()._prepare()
    self._epsilon_tensor = tf.convert_to_tensor(0.0, name="epsilon")  # epsilon lives in the slot now

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = ("tf.compat.v1.train optimizers (tf1clip serves contrib.optimizer_v2's six and the OptimizerV2 base), "
             'or tf.keras.optimizers')

__getattr__ = _catalog.module_getattr(__name__)
