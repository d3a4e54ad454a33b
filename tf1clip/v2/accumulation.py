"""Gradient accumulation for TF2 code: n calls with micro-batch gradients, one Keras update.

``tf1clip.v2.GradientAccumulationOptimizer(keras_optimizer, num_micro_batches)`` is the
eager / ``tf.function`` counterpart of the graph-mode ``tf1clip.GradientAccumulationOptimizer``
and has its semantics: each ``apply_gradients`` adds the (replica-reduced) gradients to sums
held in ``tf.Variable``\\ s; every n-th call hands their mean to the Keras optimizer, whose
``iterations`` (and so Adam's bias correction and any learning-rate schedule) therefore
advance once per applied update. With equal micro-batch sizes and a mean loss, that update is
the Keras optimizer's step on the big batch. The sums and the micro-step counter are tracked
by ``tf.train.Checkpoint``: a checkpoint taken mid-window resumes the same trajectory.

The sums are `tf1clip.accumulation.accumulators.GradientAccumulator`\\ s, the same core as the
graph-mode path: sparse gradients are added row by row (no dense temporary per micro-batch), the
mean is handed on as ``tf.IndexedSlices`` over the touched rows, and the reset zeroes only those
rows, so a window costs the rows it touched.

Place in the data flow (DESIGN.md): accumulation <- **v2** (builds on v2.optimizer).
"""

from typing import Any, Optional, Sequence, Union

import tensorflow as tf

from tf1clip import summaries as summaries_lib
from tf1clip.accumulation import accumulators
from tf1clip.transforms import Transform
from tf1clip.v2 import optimizer as optimizer_lib


class GradientAccumulationOptimizer(accumulators.Accumulating, optimizer_lib.WrappedOptimizer):
  """Accumulates gradients over `num_micro_batches` calls and applies their mean once.

  Same name as its TF1 (graph-mode) counterpart, different contract (eager / tf.function):
  docs/architecture.md, "The v1/v2 pairs".

  Example::

    opt = tf1clip.v2.GradientAccumulationOptimizer(
        keras.optimizers.Adam(1e-3, epsilon=1e-8), num_micro_batches=4,
        transforms=[tf1clip.transforms.clip_by_global_norm(5.0)])

    @tf.function
    def micro_step(x, y):
      return opt.minimize(lambda: loss_fn(model(x), y), model.trainable_variables)

    for x, y in micro_batches:      # every 4th call applies; it returns True then
      applied = micro_step(x, y)
  """

  def __init__(self, optimizer: Any, num_micro_batches: int,
               transforms: Union[Transform, Sequence[Transform]] = (),
               transform_micro_batches: bool = False, skip_non_finite: bool = False,
               name: Optional[str] = None, summaries=None) -> None:
    # No count_micro_steps: the Keras optimizer's `iterations` counts applied updates, and a
    # schedule reads it; count calls yourself if you need the micro-step count.
    """Wraps `optimizer`.

    Args:
      optimizer: a Keras 3 or tf-keras optimizer (or a tf1clip.v2 wrapper).
      num_micro_batches: int >= 1, calls per applied update.
      transforms: transforms (``tf1clip.transforms``) applied, by default, to the mean
        gradient of the window (the big batch's gradient).
      transform_micro_batches: if True, the transforms act on each micro-batch's gradient
        before it is added instead.
      skip_non_finite: if True, a NaN or Inf in any micro-batch drops the whole window: the
        sums are reset, the Keras optimizer is not called, and `skipped_steps` counts it.
      name: the wrapper's name; defaults to ``"GradientAccumulation"``.
      summaries: as `tf1clip.v2.WrappedOptimizer` (norms of the gradient the transforms
        see, written when a window is applied), plus ``tf1clip/accumulation/micro_step`` and
        ``window_fill`` on every call. None (default): on under a default writer.

    Raises:
      TypeError: `optimizer` is not a Keras optimizer, or a transform is not callable.
      ValueError: `num_micro_batches` is not an int >= 1, or `summaries` is not None, a
        bool or ``"per_variable"``.
    """
    n = accumulators.check_num_micro_batches(num_micro_batches)
    super().__init__(optimizer, transforms=transforms, skip_non_finite=skip_non_finite,
                     name=name or "GradientAccumulation", summaries=summaries)
    self._num_micro_batches = n
    self._transform_micro_batches = bool(transform_micro_batches)
    self._micro_step = None
    self._accumulators = {}  # tf.Variable ref -> accumulation.accumulators.GradientAccumulator
    self._accumulator_variables = []  # tracked, so tf.train.Checkpoint saves the sums

  @property
  def micro_step(self):
    """int64 tf.Variable: micro-batches accumulated in the current window."""
    return self._micro_step

  def _own_variables(self):
    state = [self._micro_step] if self._micro_step is not None else []
    return super()._own_variables() + state + list(self._accumulator_variables)

  def _build_own(self, var_list):
    super()._build_own(var_list)
    for var in var_list:
      tf_var = optimizer_lib.tf_variable(var)
      if tf_var.ref() in self._accumulators:
        continue
      base = optimizer_lib._module_name(tf_var.name.split(":")[0])  # pylint: disable=protected-access

      def create_variable(suffix, initial_value, validate_shape, base=base, var=var):
        del validate_shape  # eager variables always have a known shape
        with optimizer_lib._colocated(var):  # pylint: disable=protected-access
          created = tf.Variable(initial_value(), trainable=False,
                                name=base + ("_sum" if not suffix else suffix))
        self._accumulator_variables.append(created)
        return created

      self._accumulators[tf_var.ref()] = accumulators.GradientAccumulator(tf_var, create_variable)
    if self._micro_step is None:
      with optimizer_lib._colocated(var_list[0]):  # pylint: disable=protected-access
        self._micro_step = tf.Variable(0, dtype=tf.int64, trainable=False,
                                       name=self.name + "_micro_step")

  def _sum_of(self, var):
    key = optimizer_lib.tf_variable(var).ref()
    if key in self._accumulators:
      return self._accumulators[key]
    raise ValueError(
        "%s has no accumulator: build the optimizer with every variable it will see "
        "(optimizer.build(var_list)) before the first step." % var.name)

  def _pipeline(self, grads_and_vars, strategy):
    """Adds one micro-batch; the n-th call applies the window's mean through the inner."""
    n = self._num_micro_batches
    if self._transform_micro_batches:
      self._ensure_transforms_built([v for _, v in grads_and_vars])
      grads_and_vars = self._transform(grads_and_vars)
    present = [(g, v) for g, v in grads_and_vars if g is not None]
    if not present:
      raise ValueError("No gradients left to accumulate after the transforms (every "
                       "gradient is None).")
    self._ensure_built([v for _, v in present])
    if not self._transform_micro_batches:
      self._ensure_transforms_built([v for _, v in present])
    sums = [self._sum_of(v) for _, v in present]
    adds = [s.add(g) for s, (g, _) in zip(sums, present)]
    with tf.control_dependencies(adds):
      count = self._micro_step.assign_add(1)

    def apply_mean():
      raw_means = [s.mean(n) for s in sums]
      means = [(m, v) for m, (_, v) in zip(raw_means, present)]
      guard_norm = None  # with transformed micro-batches, the chain did not produce the mean
      if not self._transform_micro_batches:
        means, guard_norm = self._transform_with_guard_norm(means)
      applied = self._guarded_apply(means, strategy, guard_norm)
      with tf.control_dependencies([applied]):
        resets = [self._micro_step.assign(0)]
        resets += [s.reset(m) for s, m in zip(sums, raw_means)]
      with tf.control_dependencies(resets):
        return tf.identity(applied)

    applied = tf.cond(count >= n, apply_mean, lambda: tf.constant(False))
    if self._recording:
      summaries_lib.record_accumulation(self._micro_step, n, step=self._summary_step())
    return applied
