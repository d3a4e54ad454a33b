"""`tf.contrib.opt.MovingAverageOptimizer`: train with any optimizer, keep an exponential moving average of the
weights, and save the averages under the weights' names.

Semantics (TF 1.15): `apply_gradients` runs the wrapped optimizer's step and then (or, with
`sequential_update=False`, alongside it) `ExponentialMovingAverage(average_decay, num_updates).apply` to every
variable that received a gradient; the averages are variables named `<var>/ExponentialMovingAverage`.
`swapping_saver()` is a `tf.train.Saver` that writes each average under its variable's name and the variable
under its average's name, so a checkpoint it writes restores the averaged weights into an evaluation graph
that has no averages; it needs `apply_gradients`/`minimize` first and every swapped partner in its var_list.
"""

import tensorflow as tf


def _is_partitioned(value):
  # tf.compat.v1 does not export PartitionedVariable (tf.compat.v1.get_variable with a partitioner returns one).
  return type(value).__name__ == "PartitionedVariable"


class MovingAverageOptimizer(tf.compat.v1.train.Optimizer):
  """Wraps `opt`; maintains moving averages of the trained variables; `swapping_saver()` saves them."""

  def __init__(self, opt, average_decay=0.9999, num_updates=None, sequential_update=True):
    if not isinstance(opt, tf.compat.v1.train.Optimizer):
      raise TypeError("MovingAverageOptimizer: opt must be a tf.train.Optimizer, got %r" % (opt,))
    # Like TF 1.15's, this wrapper has no name and no state of its own besides the averages: the base
    # Optimizer's constructor is not run.
    self._optimizer = opt
    self._ema = tf.compat.v1.train.ExponentialMovingAverage(average_decay, num_updates=num_updates)
    self._swapped = None  # variable op name -> its partner's (average <-> variable), after apply_gradients
    self._sequential_update = sequential_update

  def compute_gradients(self, *args, **kwargs):
    return self._optimizer.compute_gradients(*args, **kwargs)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    grads_and_vars = list(grads_and_vars)
    train_op = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name)
    var_list = [v for g, v in grads_and_vars if g is not None]
    if self._sequential_update:
      with tf.control_dependencies([train_op]):
        average_op = self._ema.apply(var_list)
    else:
      average_op = self._ema.apply(var_list)
    self._swapped = {}
    for v in var_list:
      average = self._ema.average(v)
      self._swapped[v.op.name] = average.op.name
      self._swapped[average.op.name] = v.op.name
    return tf.group(train_op, average_op, name="train_with_avg")

  def _partner(self, by_name, name, value):
    partner = self._swapped.get(name)
    if partner is None:
      return value
    if partner not in by_name:
      raise ValueError("Variable to swap %s is not part of variables to save. This breaks "
                       "MovingAverageOptimizer." % partner)
    return by_name[partner]

  def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
    """A `tf.train.Saver` over `var_list` (default: all global variables) with averages and weights swapped."""
    if self._swapped is None:
      raise RuntimeError("Must call apply_gradients or minimize before creating the swapping_saver")
    if var_list is None:
      var_list = tf.compat.v1.global_variables()
    if not isinstance(var_list, dict):
      var_list = {v.op.name: v for v in var_list}
    by_name = {}
    for key, value in var_list.items():
      if isinstance(value, list) or _is_partitioned(value):
        by_name.update((part.op.name, part) for part in value)
      else:
        by_name[key] = value
    swapped = {}
    for key, value in var_list.items():
      if isinstance(value, list):
        swapped[key] = [self._partner(by_name, part.op.name, part) for part in value]
      else:
        swapped[key] = self._partner(by_name, key, value)
    return tf.compat.v1.train.Saver(swapped, name=name, **kwargs)
