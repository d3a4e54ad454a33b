"""Gradient accumulation for TF2 code: n calls with micro-batch gradients, one Keras update.

``tf1clip.v2.GradientAccumulationOptimizer(keras_optimizer, num_micro_batches)`` is the
eager / ``tf.function`` counterpart of the graph-mode ``tf1clip.GradientAccumulationOptimizer``
and has its semantics: each ``apply_gradients`` adds the (replica-reduced) gradients to sums
held in ``tf.Variable``\\ s; every n-th call hands their mean to the Keras optimizer, whose
``iterations`` (and so Adam's bias correction and any learning-rate schedule) therefore
advance once per applied update. With equal micro-batch sizes and a mean loss, that update is
the Keras optimizer's step on the big batch. The sums and the micro-step counter are tracked
by ``tf.train.Checkpoint``: a checkpoint taken mid-window resumes the same trajectory.

Sparse gradients are added row by row into the sums (no dense temporary per micro-batch) and
the mean is handed on as ``tf.IndexedSlices`` over the touched rows, as the graph-mode path
does (`tf1clip.accumulation.accumulators.touched_rows_mean`).

Place in the data flow (DESIGN.md): accumulation <- **v2** (builds on v2.optimizer).
"""

import tensorflow as tf

from tf1clip.accumulation import accumulators
from tf1clip.v2 import optimizer as optimizer_lib


class _Sum(tf.Module):
  """The running sum of one variable's gradients (and, for sparse ones, the touched rows)."""

  def __init__(self, var, name):
    super().__init__(name=name)
    tf_var = optimizer_lib.tf_variable(var)
    self.key = tf_var.ref()
    shape, dtype = tf_var.shape, tf_var.dtype.base_dtype
    base = optimizer_lib._module_name(tf_var.name.split(":")[0])  # pylint: disable=protected-access
    self.total = tf.Variable(tf.zeros(shape, dtype), trainable=False, name=base + "_sum")
    # One marker per row, so a sparse window's mean covers exactly the rows it touched.
    self.rows = (tf.Variable(tf.zeros(shape[:1], dtype), trainable=False, name=base + "_rows")
                 if shape.rank else None)

  def add(self, grad):
    if isinstance(grad, tf.IndexedSlices):
      values = tf.cast(grad.values, self.total.dtype)
      rows = tf.IndexedSlices(tf.ones(tf.shape(grad.indices), self.rows.dtype), grad.indices)
      return [self.total.scatter_add(tf.IndexedSlices(values, grad.indices)),
              self.rows.scatter_update(rows)]
    ops = [self.total.assign_add(tf.cast(grad, self.total.dtype))]
    if self.rows is not None:  # a dense gradient touches every row
      ops.append(self.rows.assign(tf.ones_like(self.rows)))
    return ops

  def mean(self, count, sparse):
    if sparse:
      return accumulators.touched_rows_mean(
          self.total.read_value(), self.rows.read_value(), count,
          tf.shape(self.total, out_type=tf.int64))
    return self.total.read_value() / tf.cast(count, self.total.dtype)

  def reset(self):
    ops = [self.total.assign(tf.zeros_like(self.total))]
    if self.rows is not None:
      ops.append(self.rows.assign(tf.zeros_like(self.rows)))
    return ops


class GradientAccumulationOptimizer(optimizer_lib.WrappedOptimizer):
  """Accumulates gradients over `num_micro_batches` calls and applies their mean once.

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

  def __init__(self, optimizer, num_micro_batches, transforms=(),
               transform_micro_batches=False, skip_non_finite=False, name=None):
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

    Raises:
      TypeError: `optimizer` is not a Keras optimizer, or a transform is not callable.
      ValueError: `num_micro_batches` is not an int >= 1.
    """
    n = accumulators.check_num_micro_batches(num_micro_batches)
    super().__init__(optimizer, transforms=transforms, skip_non_finite=skip_non_finite,
                     name=name or "GradientAccumulation")
    self._num_micro_batches = n
    self._transform_micro_batches = bool(transform_micro_batches)
    self._micro_step = None
    self._sums = []

  @property
  def num_micro_batches(self):
    """Calls per applied update."""
    return self._num_micro_batches

  @property
  def micro_step(self):
    """int64 tf.Variable: micro-batches accumulated in the current window."""
    return self._micro_step

  @property
  def skipped_windows(self):
    """int64 tf.Variable counting windows dropped by ``skip_non_finite`` (`skipped_steps`)."""
    return self._skipped_steps

  def _own_variables(self):
    state = [self._micro_step] if self._micro_step is not None else []
    for s in self._sums:
      state += [s.total] + ([s.rows] if s.rows is not None else [])
    return super()._own_variables() + state

  def _build_own(self, var_list):
    super()._build_own(var_list)
    known = {s.key for s in self._sums}
    for var in var_list:
      if optimizer_lib.tf_variable(var).ref() in known:
        continue
      with optimizer_lib._colocated(var):  # pylint: disable=protected-access
        self._sums.append(_Sum(var, "accumulator"))
    if self._micro_step is None:
      with optimizer_lib._colocated(var_list[0]):  # pylint: disable=protected-access
        self._micro_step = tf.Variable(0, dtype=tf.int64, trainable=False,
                                       name=self.name + "_micro_step")

  def _sum_of(self, var):
    key = optimizer_lib.tf_variable(var).ref()
    for s in self._sums:
      if s.key == key:
        return s
    raise ValueError(
        "%s has no accumulator: build the optimizer with every variable it will see "
        "(optimizer.build(var_list)) before the first step." % var.name)

  def _pipeline(self, grads_and_vars, strategy):
    """Adds one micro-batch; the n-th call applies the window's mean through the inner."""
    n = self._num_micro_batches
    if self._transform_micro_batches:
      grads_and_vars = self._transform(grads_and_vars)
    present = [(g, v) for g, v in grads_and_vars if g is not None]
    if not present:
      raise ValueError("No gradients left to accumulate after the transforms (every "
                       "gradient is None).")
    self._ensure_built([v for _, v in present])
    sums = [self._sum_of(v) for _, v in present]
    adds = []
    for s, (g, _) in zip(sums, present):
      adds += s.add(g)
    with tf.control_dependencies(adds):
      count = self._micro_step.assign_add(1)

    def apply_mean():
      means = [(s.mean(n, isinstance(g, tf.IndexedSlices)), v)
               for s, (g, v) in zip(sums, present)]
      if not self._transform_micro_batches:
        means = self._transform(means)
      applied = self._guarded_apply(means, strategy)
      with tf.control_dependencies([applied]):
        resets = [self._micro_step.assign(0)]
        for s in sums:
          resets += s.reset()
      with tf.control_dependencies(resets):
        return tf.identity(applied)

    return tf.cond(count >= n, apply_mean, lambda: tf.constant(False))
