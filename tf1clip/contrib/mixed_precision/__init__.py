"""`tf.contrib.mixed_precision`: TF 1.15's LossScaleOptimizer and its loss-scale managers, tf1clip's own code.

TF 2.21 kept only a different API (`MixedPrecisionLossScaleOptimizer` with `LossScale` objects), so TF 1.15's
classes are ported with its semantics and variable names:

- `LossScaleOptimizer(opt, loss_scale_manager)`: `compute_gradients` multiplies the loss by the loss scale and
  divides the gradients by it again, so whatever comes next (tf1clip's clipping inside or around it, the inner
  optimizer) sees unscaled gradients; `apply_gradients` applies them only when every gradient is finite, and
  always lets the manager update the scale. Sparse gradients stay `IndexedSlices` (TF 1.15 densified them in
  the division; the values are the same). The finite check is the gradient pipeline's own `all_finite`.
- `FixedLossScaleManager(loss_scale)`: a constant scale.
- `ExponentialUpdateLossScaleManager(init_loss_scale, incr_every_n_steps, decr_every_n_nan_or_inf=2,
  incr_ratio=2, decr_ratio=0.8)`: non-trainable variables `loss_scale`, `good_steps`, `bad_steps` (checkpointed
  like TF 1.15's); the scale grows by `incr_ratio` after `incr_every_n_steps` consecutive finite steps (unless
  that would overflow) and shrinks by `decr_ratio` (not below 1) every `decr_every_n_nan_or_inf` non-finite ones.
"""

import abc

import tensorflow as tf

from tf1clip import transforms
from tf1clip.contrib import catalog as _catalog

_V1 = tf.compat.v1


class LossScaleManager(abc.ABC):
  """The interface: `get_loss_scale()` -> scalar float32 Tensor; `update_loss_scale(finite_grads)` -> op.

  Abstract, as TF 1.15's (an abc.ABCMeta class): a subclass must define both methods to be instantiated.
  """

  @abc.abstractmethod
  def get_loss_scale(self):
    raise NotImplementedError("LossScaleManager.get_loss_scale")

  @abc.abstractmethod
  def update_loss_scale(self, finite_grads):
    raise NotImplementedError("LossScaleManager.update_loss_scale")


class FixedLossScaleManager(LossScaleManager):
  """A loss scale that never changes."""

  def __init__(self, loss_scale):
    if loss_scale < 1:
      raise ValueError("loss scale must be at least 1.")
    self._loss_scale = tf.convert_to_tensor(loss_scale, dtype=tf.float32)

  def get_loss_scale(self):
    return self._loss_scale

  def update_loss_scale(self, finite_grads):
    del finite_grads
    return tf.no_op()


class ExponentialUpdateLossScaleManager(LossScaleManager):
  """A loss scale that grows after a run of finite steps and shrinks after non-finite ones (see module)."""

  def __init__(self, init_loss_scale, incr_every_n_steps, decr_every_n_nan_or_inf=2, incr_ratio=2,
               decr_ratio=0.8):
    self._incr_every_n_steps = incr_every_n_steps
    self._decr_every_n_nan_or_inf = decr_every_n_nan_or_inf
    self._incr_ratio = incr_ratio
    self._decr_ratio = decr_ratio
    self._loss_scale = _V1.Variable(tf.convert_to_tensor(init_loss_scale, tf.float32), name="loss_scale",
                                    dtype=tf.float32, trainable=False)
    self._num_good_steps = _V1.Variable(0, name="good_steps", dtype=tf.int32, trainable=False)
    self._num_bad_steps = _V1.Variable(0, name="bad_steps", dtype=tf.int32, trainable=False)

  def _reset_stats(self):
    return tf.group(_V1.assign(self._num_good_steps, 0), _V1.assign(self._num_bad_steps, 0))

  def get_loss_scale(self):
    return self._loss_scale

  def update_loss_scale(self, finite_grads):
    def on_finite():
      def increase():
        grown = self._loss_scale * self._incr_ratio
        new = _V1.cond(tf.math.is_finite(grown), lambda: grown, lambda: tf.identity(self._loss_scale))
        return tf.group(_V1.assign(self._loss_scale, new), self._reset_stats())
      return _V1.cond(self._num_good_steps + 1 >= self._incr_every_n_steps, increase,
                      lambda: _V1.assign_add(self._num_good_steps, 1).op)

    def on_non_finite():
      def decrease():
        shrunk = tf.maximum(1.0, self._loss_scale * self._decr_ratio)
        return tf.group(_V1.assign(self._loss_scale, shrunk), self._reset_stats())

      def count():
        return tf.group(_V1.assign_add(self._num_bad_steps, 1), _V1.assign(self._num_good_steps, 0))
      return _V1.cond(self._num_bad_steps + 1 >= self._decr_every_n_nan_or_inf, decrease, count)

    return _V1.cond(finite_grads, on_finite, on_non_finite)


class LossScaleOptimizer(_V1.train.Optimizer):
  """TF 1.15's loss-scaling wrapper (see the module docstring); the inner optimizer owns every slot."""

  def __init__(self, opt, loss_scale_manager):
    if not isinstance(opt, _V1.train.Optimizer):
      raise TypeError("LossScaleOptimizer: `opt` must be a tf.compat.v1.train.Optimizer; got %r" % (opt,))
    if not isinstance(loss_scale_manager, LossScaleManager):
      raise TypeError("LossScaleOptimizer: `loss_scale_manager` must be a LossScaleManager "
                      "(FixedLossScaleManager, ExponentialUpdateLossScaleManager); got %r" % (loss_scale_manager,))
    super().__init__(use_locking=False, name="LossScaleOptimizer")
    self._opt = opt
    self._loss_scale_manager = loss_scale_manager

  def compute_gradients(self, loss, var_list=None, gate_gradients=_V1.train.Optimizer.GATE_OP,
                        aggregation_method=None, colocate_gradients_with_ops=False, grad_loss=None):
    loss_scale = self._loss_scale_manager.get_loss_scale()
    loss_value = loss() if callable(loss) else loss
    scaled_loss = loss_value * tf.cast(loss_scale, loss_value.dtype.base_dtype)
    grads_and_vars = self._opt.compute_gradients(
        scaled_loss, var_list=var_list, gate_gradients=gate_gradients, aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
    inverse = tf.math.reciprocal(loss_scale)
    return [(_scaled(g, inverse), v) for g, v in grads_and_vars]

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    grads_and_vars = list(grads_and_vars)
    finite = transforms.all_finite(grads_and_vars)
    update_vars = _V1.cond(finite, lambda: self._opt.apply_gradients(grads_and_vars, global_step, name),
                           tf.no_op)
    return tf.group(update_vars, self._loss_scale_manager.update_loss_scale(finite))

  def get_slot(self, var, name):
    return self._opt.get_slot(var, name)

  def get_slot_names(self):
    return self._opt.get_slot_names()

  def variables(self):
    return self._opt.variables()


def _scaled(grad, factor):
  if grad is None:
    return None
  if isinstance(grad, tf.IndexedSlices):  # stays sparse
    return tf.IndexedSlices(grad.values * tf.cast(factor, grad.values.dtype.base_dtype), grad.indices,
                            grad.dense_shape)
  return grad * tf.cast(factor, grad.dtype.base_dtype)


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer, or tf.keras.mixed_precision'

__getattr__ = _catalog.module_getattr(__name__)
