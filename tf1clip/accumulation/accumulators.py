"""Sums of gradients over micro-batches, dense or sparse, as tensors or in variables.

Two kinds of storage share one arithmetic:

- `add_to_sum` / `touched_rows_mean` work on plain tensors, for the fused micro-batch loop
  (`tf1clip.accumulation.fused`), whose sums are `tf.while_loop` loop variables.
- `GradientAccumulator` keeps the sum in non-trainable variables colocated with the variable
  it concerns, for `GradientAccumulationOptimizer` (`tf1clip.accumulation.optimizer`) and
  `tf1clip.v2.GradientAccumulationOptimizer`, whose sums must survive between steps and be
  checkpointed; the two adapters differ only in how the variables are created.

Sparse gradients (``tf.IndexedSlices``, e.g. of an embedding lookup) are added row by row
into a dense sum (scatter-add: duplicate indices within and across micro-batches add up), and
the rows they touched are marked. The mean is handed to the optimizer as ``tf.IndexedSlices``
over the touched rows, so the inner optimizer's sparse update runs on exactly the rows the big
batch would have touched: for Momentum, RMSProp and Ftrl, whose sparse update leaves untouched
rows alone while their dense update decays them, this is what makes n micro-batches equal one
big batch. Nothing converts a sparse gradient to a dense tensor. Memory: the sum is the size of
the variable, plus one scalar per row for the touched marks.

Place in the data flow (DESIGN.md): optimizer <- **accumulation** (this module is its core).
"""

import tensorflow as tf

from tf1clip import validation


def check_num_micro_batches(num_micro_batches):
  """Returns `num_micro_batches` as an int, or raises if it is not an int in [1, 2**31 - 1].

  Args:
    num_micro_batches: the number of micro-batches per applied update.

  Returns:
    int.

  Raises:
    ValueError: not an int (a bool is not), < 1, or too large for the window counter.
  """
  return validation.count(num_micro_batches, "num_micro_batches")


def check_graph_mode(what):
  """Raises RuntimeError when called eagerly or inside a tf.function of an eager program.

  Args:
    what: the API's name, for the message.

  Raises:
    RuntimeError: outside of graph mode (``tf.Graph().as_default()`` / TF1 scripts).
  """
  if tf.compat.v1.executing_eagerly_outside_functions():
    raise RuntimeError(
        "%s builds graph-mode (tf.compat.v1.Session) training and is not compatible with "
        "eager execution or tf.function; in TF2 code use tf1clip.v2." % what)


def _row_indices(grad):
  # scatter ops take [k, 1] indices for whole rows.
  return tf.expand_dims(grad.indices, -1)


def add_to_sum(total, rows, grad):
  """Adds one micro-batch's gradient to a running sum held in tensors.

  Args:
    total: Tensor shaped like the variable, the sum so far.
    rows: 1-D Tensor with one entry per row of the variable (> 0 where touched), the rows
      sparse gradients touched so far; unused for dense gradients.
    grad: a Tensor or ``tf.IndexedSlices`` shaped like the variable.

  Returns:
    ``(total, rows)`` after the addition.
  """
  if isinstance(grad, tf.IndexedSlices):
    values = tf.cast(grad.values, total.dtype)
    total = tf.tensor_scatter_nd_add(total, _row_indices(grad), values)
    rows = tf.tensor_scatter_nd_update(
        rows, _row_indices(grad), tf.ones(tf.shape(grad.indices), rows.dtype))
    return total, rows
  return total + tf.cast(grad, total.dtype), rows


def touched_rows_mean(total, rows, count, dense_shape):
  """The mean of a sparse sum, as ``tf.IndexedSlices`` over the rows that were touched.

  Args:
    total: Tensor, the sum of the micro-batch gradients.
    rows: 1-D Tensor, > 0 for the rows some micro-batch touched.
    count: number of micro-batches (the divisor).
    dense_shape: the variable's shape, as a 1-D int Tensor.

  Returns:
    ``tf.IndexedSlices`` with sorted, unique int64 indices.
  """
  indices = tf.reshape(tf.where(rows > 0), [-1])
  values = tf.gather(total, indices) / tf.cast(count, total.dtype)
  return tf.IndexedSlices(values, indices, tf.cast(dense_shape, tf.int64))


class Accumulating:
  """What both accumulation wrappers (TF1, TF2) say about their window (docs/architecture.md).

  A wrapper sets ``_num_micro_batches`` and ``_transform_micro_batches`` and has `skipped_steps`.
  """

  @property
  def num_micro_batches(self):
    """Micro-batches (runs or calls) per applied update."""
    return self._num_micro_batches

  @property
  def transform_micro_batches(self):
    """Whether the transforms act on each micro-batch's gradient instead of the window's mean."""
    return self._transform_micro_batches

  @property
  def skipped_windows(self):
    """int64 variable counting windows dropped by ``skip_non_finite`` (`skipped_steps`)."""
    return self.skipped_steps


def _zeros(var, dtype, rows_only=False):
  # From the static shape when known: tf.shape(var) of a resource variable needs the
  # variable initialized, which global_variables_initializer() does not order first.
  shape = var.shape[:1] if rows_only else var.shape
  if not shape.is_fully_defined():
    shape = tf.shape(var)[:1] if rows_only else tf.shape(var)
  return tf.zeros(shape, dtype)


def _kind(grad):
  return "sparse" if isinstance(grad, tf.IndexedSlices) else "dense"


class GradientAccumulator:
  """The sum of one variable's gradients over a window of micro-batches, in variables.

  The one accumulator of tf1clip's graph-mode and TF2 accumulation; only the creation of its
  variables differs, through `create_variable(name, initial_value, validate_shape)`:

  - graph mode (`GradientAccumulationOptimizer`): non-trainable resource variables in
    GLOBAL_VARIABLES, colocated with the variable, named ``<variable>/<name>`` and
    ``<variable>/<name>_rows``, so ``tf.compat.v1.train.Saver`` checkpoints them;
  - TF2 (`tf1clip.v2.GradientAccumulationOptimizer`): ``tf.Variable``\\ s tracked by the wrapper.

  A sparse gradient is scatter-added into the sum and marks the rows it touched; the mean is
  handed on over those rows only, and the reset zeroes only those rows: a window costs the rows it
  touched, not the whole (embedding-sized) variable.
  """

  def __init__(self, var, create_variable, sparse=None):
    """Creates the state for `var`.

    Args:
      var: the (tf.)Variable whose gradients are summed.
      create_variable: callable ``(suffix, initial_value, validate_shape) -> variable`` supplied
        by the adapter, which names the variable (suffix "" for the sum, "_rows" for the marks),
        places it and calls `initial_value` (a no-argument callable) where it creates it.
      sparse: whether the gradients are ``tf.IndexedSlices``; None when unknown yet (TF2 builds
        before the first gradient): then the touched-row marks are created for any variable of
        rank >= 1 and the kind is fixed by the first gradient added.
    """
    self._var = var
    self._kind = None if sparse is None else ("sparse" if sparse else "dense")
    dtype = var.dtype.base_dtype
    self.sum = create_variable("", lambda: _zeros(var, dtype), var.shape.is_fully_defined())
    self.rows = None
    if sparse or (sparse is None and var.shape.rank):
      self.rows = create_variable("_rows", lambda: _zeros(var, dtype, rows_only=True),
                                  var.shape[:1].is_fully_defined())

  @property
  def variables(self):
    """The state variables (the sum, then the touched-row marks when there are any)."""
    return [self.sum] + ([self.rows] if self.rows is not None else [])

  @property
  def sparse(self):
    """Whether the gradients added are sparse (None before the first one when unknown)."""
    return None if self._kind is None else self._kind == "sparse"

  def _check_kind(self, grad):
    kind = _kind(grad)
    if self._kind is None:
      self._kind = kind
    if kind != self._kind or (kind == "sparse" and self.rows is None):
      raise ValueError("the gradient of %s is %s but its accumulator holds %s gradients."
                       % (self._var.name, kind, self._kind))

  def add(self, grad):
    """Returns an op adding `grad` (dense Tensor or IndexedSlices) to the sum."""
    self._check_kind(grad)
    if isinstance(grad, tf.IndexedSlices):
      values = tf.cast(grad.values, self.sum.dtype)
      added = self.sum.scatter_add(tf.IndexedSlices(values, grad.indices))
      marked = self.rows.scatter_update(
          tf.IndexedSlices(tf.ones(tf.shape(grad.indices), self.rows.dtype), grad.indices))
      return tf.group(added, marked)
    return self.sum.assign_add(tf.cast(grad, self.sum.dtype), read_value=False)

  def mean(self, count):
    """The mean gradient over `count` micro-batches (IndexedSlices over the touched rows when sparse)."""
    if self._kind == "sparse":
      return touched_rows_mean(self.sum.read_value(), self.rows.read_value(), count,
                               tf.shape(self._var))
    return self.sum.read_value() / tf.cast(count, self.sum.dtype)

  def reset(self, mean):
    """Returns an op zeroing the state, given the `mean` read from it (touched rows only when sparse)."""
    if self._kind == "sparse":
      zero_rows = tf.IndexedSlices(tf.zeros_like(mean.values), mean.indices)
      return tf.group(
          self.sum.scatter_update(zero_rows),
          self.rows.scatter_update(
              tf.IndexedSlices(tf.zeros(tf.shape(mean.indices), self.rows.dtype),
                               mean.indices)))
    return self.sum.assign(_zeros(self._var, self.sum.dtype), read_value=False)
