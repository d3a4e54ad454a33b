"""TF1-exact gradient clipping that keeps sparse gradients sparse.

This module is the bottom of tf1clip's data flow (clipping <- transforms <- optimizer <- accumulation <-
contrib/compat/v2 <- cli): it holds the five clipping functions of TensorFlow 1 with their names and
signatures. On dense tensors they compute the same numbers as ``tf.compat.v1``'s functions (the same
formulas, op for op). On top of that:

- ``tf.IndexedSlices`` in gives ``tf.IndexedSlices`` out for every function (TF's own
  ``clip_by_average_norm`` densifies); nothing here ever converts an ``IndexedSlices`` to a dense tensor.
- Repeated rows of an ``IndexedSlices`` (an embedding looked up twice in one batch lists the same index
  twice) are handled as ``repeated_rows`` says, in ``clip_by_value``, ``clip_by_norm``, ``global_norm``
  and ``clip_by_global_norm``: ``"summed"`` (the default, tf1clip's improvement) sums them first, so the
  values equal densify-then-clip -- the norm of the gradient the optimizer applies; ``"as_listed"`` measures
  and clips each listed row as it is listed, as TensorFlow 1.15 (and tf.compat.v1) did: the norm then counts
  ``|a|^2 + |b|^2`` for a row listed twice where the applied gradient has ``|a + b|^2``. ``tf1clip upgrade
  --stage 2`` writes ``"as_listed"``, so a rewritten script keeps TF1's numbers.
- ``None`` entries of ``t_list`` pass through, and clipping ``None`` returns ``None``.
- Bad clip values raise at graph construction, naming the argument; clip values only known at run time
  (placeholders, variables) are checked by assert ops that fail the ``sess.run``.

Every function builds plain TF ops, so it works in graph mode, eagerly and inside ``tf.function``.
"""

import collections.abc
import numbers

import numpy as np
import tensorflow as tf

from tf1clip import _graph
from tf1clip import validation

_HALF_DTYPES = (tf.float16, tf.bfloat16)
SUMMED = "summed"
AS_LISTED = "as_listed"
REPEATED_ROWS = (SUMMED, AS_LISTED)


def check_repeated_rows(repeated_rows):
  """Returns `repeated_rows` when it is "summed" or "as_listed"; raises a ValueError naming it otherwise."""
  if not isinstance(repeated_rows, str) or repeated_rows not in REPEATED_ROWS:
    raise ValueError(f"`repeated_rows` must be {SUMMED!r} (sum an IndexedSlices' rows that share an index "
                     f"first, as densifying does) or {AS_LISTED!r} (each listed row as listed, TF 1.15's "
                     f"result); got {repeated_rows!r}.")
  return repeated_rows


def _static_value(x):
  """Returns `x` as a numpy value when it is known while building the graph, else None."""
  if isinstance(x, (numbers.Number, np.ndarray, np.generic)):
    return np.asarray(x)
  if tf.is_tensor(x):
    try:
      value = tf.get_static_value(x)
    except (TypeError, ValueError):
      return None
    return None if value is None else np.asarray(value)
  try:
    return np.asarray(x, dtype=np.float64)
  except (TypeError, ValueError, NotImplementedError):  # e.g. a list holding symbolic tensors
    return None


def _shown(value):
  return value.tolist() if isinstance(value, np.ndarray) else value


def _is_sparse(t):
  return isinstance(t, tf.IndexedSlices)


def _dedupe(slices):
  """Sums the rows of `slices` that share an index, so each index appears once.

  Densifying sums duplicates (unsorted_segment_sum in order of appearance); doing the same here, in the
  same order, makes every clip of the result equal densify-then-clip.
  """
  unique_indices, positions = tf.unique(slices.indices)
  # tf.size is one op where tf.shape(...)[0] is two: on a sub-millisecond sparse step every op shows.
  values = tf.math.unsorted_segment_sum(slices.values, positions,
                                        tf.size(unique_indices, out_type=positions.dtype))
  return tf.IndexedSlices(values, unique_indices, slices.dense_shape)


def _values_of(t, arg_name, repeated_rows=SUMMED):
  """Returns (values tensor, slices or None) for a dense tensor or IndexedSlices `t`.

  The slices are deduplicated for "summed", `t` itself for "as_listed" (TF 1.15 read `t.values` as listed).
  """
  if _is_sparse(t):
    slices = _dedupe(t) if repeated_rows == SUMMED else t
    return tf.convert_to_tensor(slices.values, name=arg_name), slices
  try:
    values = tf.convert_to_tensor(t, name=arg_name)
  except (TypeError, ValueError) as e:
    raise TypeError(
        f"`{arg_name}` must be a Tensor, an IndexedSlices or convertible to a Tensor; "
        f"got {type(t).__name__}: {e}") from e
  return values, None


def _like(t_sparse, values):
  """Wraps clipped `values` like the (deduplicated) input: IndexedSlices when it was sparse."""
  if t_sparse is None:
    return values
  return tf.IndexedSlices(values, t_sparse.indices, t_sparse.dense_shape)


def _check_clip_norm(clip_norm, arg_name):
  """Validates a scalar clip norm > 0; returns it, with run-time asserts attached when not static.

  Raises:
    ValueError: if the value is known now and is not a positive scalar, or its static shape is not
      scalar.
  """
  if clip_norm is None or isinstance(clip_norm, (bool, np.bool_, str, bytes)):
    validation.number(clip_norm, arg_name)  # raises, naming the type
  value = _static_value(clip_norm)
  if value is not None:
    if value.ndim != 0:
      raise ValueError(
          f"`{arg_name}` must be a scalar; got shape {value.shape} (value {_shown(value)!r}).")
    if value.dtype.kind in "bcSUO":
      raise TypeError(f"`{arg_name}` must be a number or a scalar Tensor; got a Tensor of dtype "
                      f"{value.dtype} ({_shown(value)!r}).")
    validation.positive(float(value.astype(np.float64)), arg_name)
    return clip_norm
  clip_norm = tf.convert_to_tensor(clip_norm, name=arg_name)
  rank = clip_norm.shape.rank
  if rank is not None and rank != 0:
    raise ValueError(f"`{arg_name}` must be a scalar; got shape {clip_norm.shape}.")
  checks = []
  if rank is None:
    checks.append(tf.debugging.assert_rank(
        clip_norm, 0, message=f"`{arg_name}` must be a scalar"))
  checks.append(tf.debugging.assert_positive(
      clip_norm, message=f"`{arg_name}` must be > 0"))
  with tf.control_dependencies(checks):
    return tf.identity(clip_norm)


def _check_clip_bounds(clip_value_min, clip_value_max, dtype):
  """Checks clip_value_min <= clip_value_max now when both are static, else at run time.

  Returns:
    (clip_value_min, clip_value_max), the dynamic case as tensors of `dtype` guarded by an assert.
  """
  for arg_name, bound in (("clip_value_min", clip_value_min), ("clip_value_max", clip_value_max)):
    if bound is None:
      raise TypeError(f"`{arg_name}` must be a number or a Tensor; got a NoneType: None.")
    validation.not_nan(bound, arg_name)
  low, high = _static_value(clip_value_min), _static_value(clip_value_max)
  if low is not None and high is not None:
    try:
      bad = np.any(low.astype(np.float64) > high.astype(np.float64))
    except (TypeError, ValueError):
      bad = False  # shapes that do not broadcast: TF's own ops raise on them below
    if bad:
      raise ValueError(
          f"`clip_value_min` must be <= `clip_value_max`; got clip_value_min={_shown(low)!r}, "
          f"clip_value_max={_shown(high)!r}.")
    return clip_value_min, clip_value_max
  clip_value_min = tf.convert_to_tensor(clip_value_min, dtype=dtype, name="clip_value_min")
  clip_value_max = tf.convert_to_tensor(clip_value_max, dtype=dtype, name="clip_value_max")
  check = tf.debugging.assert_less_equal(
      clip_value_min, clip_value_max, message="`clip_value_min` must be <= `clip_value_max`")
  with tf.control_dependencies([check]):
    return tf.identity(clip_value_min), tf.identity(clip_value_max)


def _check_axes(axes, rank, sparse):
  """`axes` of clip_by_norm must name dimensions of `t` (known now when both are static)."""
  if axes is None or rank is None or tf.is_tensor(axes):
    return
  listed = [axes] if np.isscalar(axes) else list(np.ravel(axes))
  bad = [a for a in listed if not -rank <= int(a) < rank]
  if bad:
    raise ValueError(f"`axes` must be dimensions of `t` (rank {rank}{', its slices' if sparse else ''}: "
                     f"{-rank} to {rank - 1}); got axes={axes!r}.")


def _check_bound_shape(bound, arg_name, values):
  """A clip bound must broadcast to `t`'s shape without growing it (TF's op error names no argument)."""
  shape = bound.shape if tf.is_tensor(bound) else tf.TensorShape(np.shape(bound))
  if shape.rank is None or not values.shape.is_fully_defined() or not shape.is_fully_defined():
    return
  try:
    result = np.broadcast_shapes(tuple(values.shape.as_list()), tuple(shape.as_list()))
  except ValueError:
    result = None
  if result != tuple(values.shape.as_list()):
    raise ValueError(f"`{arg_name}` must broadcast to the shape of `t` {values.shape.as_list()}; got shape "
                     f"{shape.as_list()}.")


def _check_integer_bounds(low, high, dtype):
  """An integer `t` takes integer bounds: 0.5 would be truncated by TF's conversion, or fail in it."""
  if not dtype.is_integer:
    return
  for arg_name, bound in (("clip_value_min", low), ("clip_value_max", high)):
    value = _static_value(bound)
    if value is not None and value.dtype.kind == "f" and np.any(value != np.round(value)):
      raise TypeError(f"`{arg_name}` must be a whole number for an integer `t` ({dtype.name}); got "
                      f"{_shown(value)!r}.")


def _check_row_broadcast(bound, arg_name, values_rank):
  """For IndexedSlices a clip bound is applied to the rows present; it must broadcast against one row."""
  shape = tf.TensorShape(np.shape(bound)) if not tf.is_tensor(bound) else bound.shape
  if shape.rank is None or values_rank is None:
    return
  if shape.rank > values_rank or (shape.rank == values_rank and shape[0] not in (None, 1)):
    raise ValueError(
        f"`{arg_name}` must be a scalar or broadcast against one row when `t` is an IndexedSlices; "
        f"got shape {shape} for slices of rank {values_rank}.")


def _check_t_list(t_list):
  # The same rule and exception type as TF (any non-string sequence).
  if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, (str, bytes)):
    raise TypeError(f"`t_list` should be a sequence (list or tuple) of tensors; got {type(t_list)}.")
  return list(t_list)


def clip_by_value(t, clip_value_min, clip_value_max, name=None, *, repeated_rows=SUMMED):
  """Clips tensor values to `[clip_value_min, clip_value_max]`, as `tf.compat.v1.clip_by_value`.

  For an `IndexedSlices`, only the rows present are clipped: absent rows stay zero. With
  `repeated_rows="summed"` duplicate indices are summed first; that equals densify-then-clip only when
  `clip_value_min <= 0 <= clip_value_max` (otherwise densify-then-clip would move the absent zeros too, which a
  sparse result cannot express). With "as_listed" each listed row is clipped as listed (TF 1.15), so a row
  listed twice can sum to twice `clip_value_max` when applied.

  Args:
    t: A `Tensor`, an `IndexedSlices` or None.
    clip_value_min: The minimum value; a scalar or a `Tensor` broadcastable to `t` (to one row of `t`
      for an `IndexedSlices`).
    clip_value_max: The maximum value, likewise.
    name: A name for the operation (optional).
    repeated_rows: "summed" (default) or "as_listed", for an `IndexedSlices` (see the module docstring).

  Returns:
    The clipped `Tensor` or `IndexedSlices` (None for None).

  Raises:
    ValueError: if `clip_value_min > clip_value_max` when both are known while building the graph (a
      run-time assert checks them otherwise), or a bound does not fit an `IndexedSlices`.
  """
  check_repeated_rows(repeated_rows)
  if t is None:
    return None
  with tf.compat.v1.name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as name:
    values, sparse = _values_of(t, "t", repeated_rows)
    if not (values.dtype.is_floating or values.dtype.is_integer):
      validation.floating_dtype(values.dtype, "t")
    _check_integer_bounds(clip_value_min, clip_value_max, values.dtype)
    clip_value_min, clip_value_max = _check_clip_bounds(clip_value_min, clip_value_max, values.dtype)
    if sparse is not None:
      _check_row_broadcast(clip_value_min, "clip_value_min", values.shape.rank)
      _check_row_broadcast(clip_value_max, "clip_value_max", values.shape.rank)
    else:
      _check_bound_shape(clip_value_min, "clip_value_min", values)
      _check_bound_shape(clip_value_max, "clip_value_max", values)
    t_min = tf.minimum(values, clip_value_max)
    # As TF: refuse broadcasting that would make the result larger than the input.
    values.shape.assert_is_compatible_with(t_min.shape)
    t_max = tf.maximum(t_min, clip_value_min, name=name)
    values.shape.assert_is_compatible_with(t_max.shape)
    return _like(sparse, t_max)


def clip_by_norm(t, clip_norm, axes=None, name=None, *, repeated_rows=SUMMED):
  """Clips `t` to a maximum L2-norm along `axes`, as `tf.compat.v1.clip_by_norm`.

  A tensor function: it clips `t` now. `tf1clip.transforms.clip_by_norm(clip_norm)` is the transform
  factory of the same name, which clips each gradient of a `(gradient, variable)` list.

  Computes `t * clip_norm / max(l2norm(t, axes), clip_norm)`, with TF's where-guarded square root (no
  NaN gradient at zero). For an `IndexedSlices` with `repeated_rows="summed"`, duplicate indices are
  summed first; absent rows are zero, so norms over the present rows equal the dense norms for any `axes`.
  With "as_listed" the norm is that of the listed rows (TF 1.15's).

  Args:
    t: A floating point `Tensor`, an `IndexedSlices` or None.
    clip_norm: A scalar > 0 (number or `Tensor`).
    axes: Dimensions to compute the norm over (as for the dense tensor); None means all.
    name: A name for the operation (optional).
    repeated_rows: "summed" (default) or "as_listed", for an `IndexedSlices` (see the module docstring).

  Returns:
    The clipped `Tensor` or `IndexedSlices` (None for None).

  Raises:
    ValueError: if `clip_norm` is known now and is not a positive scalar, or has a non-scalar shape.
  """
  check_repeated_rows(repeated_rows)
  if t is None:
    return None
  with tf.compat.v1.name_scope(name, "clip_by_norm", [t, clip_norm]) as name:
    values, sparse = _values_of(t, "t", repeated_rows)
    validation.floating_dtype(values.dtype, "t")
    clip_norm = _check_clip_norm(clip_norm, "clip_norm")
    if np.isscalar(clip_norm):
      clip_norm = float(clip_norm) if isinstance(clip_norm, np.generic) else clip_norm
    else:
      clip_norm = tf.cast(tf.maximum(clip_norm, 0), dtype=values.dtype)
    _check_axes(axes, values.shape.rank, sparse is not None)
    l2sum = tf.reduce_sum(values * values, axes, keepdims=True)
    pred = l2sum > 0
    # Two-tap where, as TF: sqrt is never evaluated at 0, so its gradient is never NaN.
    l2sum_safe = tf.where(pred, l2sum, tf.ones_like(l2sum))
    l2norm = tf.where(pred, tf.sqrt(l2sum_safe), l2sum)
    intermediate = values * clip_norm
    values.shape.assert_is_compatible_with(intermediate.shape)
    values_clip = tf.identity(intermediate / tf.maximum(l2norm, clip_norm), name=name)
    return _like(sparse, values_clip)


def global_norm(t_list, name=None, *, repeated_rows=SUMMED):
  """Computes `sqrt(sum(l2norm(t)**2 for t in t_list))`, as `tf.compat.v1.global_norm`.

  None entries are ignored. With `repeated_rows="summed"` an `IndexedSlices` counts with its duplicate
  indices summed, so the result equals the norm of the dense tensors; with "as_listed" every listed row
  counts (TF 1.15's result).

  Args:
    t_list: A list or tuple of `Tensor`s, `IndexedSlices` or None, all of one dtype.
    name: A name for the operation (optional).
    repeated_rows: "summed" (default) or "as_listed" (see the module docstring).

  Returns:
    A scalar `Tensor` of that dtype (float32 when there is no tensor).

  Raises:
    TypeError: if `t_list` is not a sequence.
    ValueError: if the tensors have different dtypes.
  """
  t_list = _check_t_list(t_list)
  check_repeated_rows(repeated_rows)
  with tf.compat.v1.name_scope(name, "global_norm", [t for t in t_list if t is not None]) as name:
    values = [
        None if t is None else _values_of(t, "t_%d" % i, repeated_rows)[0] for i, t in enumerate(t_list)]
    present = [v for v in values if v is not None]
    for i, v in enumerate(values):
      if v is not None:
        validation.floating_dtype(v.dtype, "t_list[%d]" % i)
    dtypes = sorted({v.dtype.name for v in present})
    if len(dtypes) > 1:
      raise ValueError(
          f"`t_list` must hold tensors of one dtype to take their global norm; got dtypes {dtypes} "
          f"({[None if v is None else v.dtype.name for v in values]}). Cast them first.")
    half_squared_norms = []
    for v in present:
      with _graph.colocated(v):
        half_squared_norms.append(tf.nn.l2_loss(v))
    half_squared_norm = tf.reduce_sum(tf.stack(half_squared_norms))
    return tf.sqrt(
        half_squared_norm * tf.constant(2.0, dtype=half_squared_norm.dtype), name="global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None, *, repeated_rows=SUMMED):
  """Scales all of `t_list` by `clip_norm / max(global_norm, clip_norm)`, as `tf.clip_by_global_norm`.

  The direction of the whole gradient is kept (Pascanu et al., 2012). None entries stay None;
  `IndexedSlices` stay `IndexedSlices`: with `repeated_rows="summed"` (default) duplicate indices are
  summed and the norm is that of the dense gradient; with "as_listed" the rows stay as listed and the norm
  counts each listed row (TF 1.15's numbers). As in TF1, when the global norm is
  inf or NaN every entry becomes NaN, signalling the error; the optimizer wrappers' `skip_non_finite`
  is the protection against applying it.

  Args:
    t_list: A list or tuple of `Tensor`s, `IndexedSlices` or None.
    clip_norm: A scalar > 0 (number or `Tensor`).
    use_norm: The global norm to use, if already computed (a scalar `Tensor`); else `global_norm(t_list)`.
    name: A name for the operation (optional).
    repeated_rows: "summed" (default) or "as_listed" (see the module docstring).

  Returns:
    list_clipped: A list like `t_list`, clipped.
    global_norm: The scalar global norm used (`use_norm` when given).

  Raises:
    TypeError: if `t_list` is not a sequence.
    ValueError: if `clip_norm` is known now and is not a positive scalar, or the dtypes differ.

  References:
    Pascanu, Mikolov, Bengio. On the difficulty of training recurrent neural networks. ICML 2013
    (arXiv:1211.5063, 2012).
  """
  t_list = _check_t_list(t_list)
  check_repeated_rows(repeated_rows)
  with tf.compat.v1.name_scope(
      name, "clip_by_global_norm", [t for t in t_list if t is not None] + [clip_norm]) as name:
    clip_norm = _check_clip_norm(clip_norm, "clip_norm")
    # Deduplicate once: the norm and the clipped values then come from the same tensors.
    pairs = [(None, None) if t is None else _values_of(t, "t_%d" % i, repeated_rows)
             for i, t in enumerate(t_list)]
    for i, (v, _) in enumerate(pairs):
      if v is not None:
        validation.floating_dtype(v.dtype, "t_list[%d]" % i)
    if use_norm is None:
      use_norm = global_norm([v for v, _ in pairs])  # values already deduplicated (or as listed)
    else:
      if not tf.is_tensor(use_norm):
        validation.non_negative(use_norm, "use_norm")
      use_norm = tf.convert_to_tensor(use_norm, name="use_norm")
    if tf.is_tensor(clip_norm) and clip_norm.dtype != use_norm.dtype:
      clip_norm = tf.cast(clip_norm, use_norm.dtype)
    scale_for_finite = clip_norm * tf.minimum(
        1.0 / use_norm, tf.constant(1.0, dtype=use_norm.dtype) / clip_norm)
    # A no-op for a finite norm; NaN for inf/-inf/NaN, as TF1 documents.
    scale = scale_for_finite + (use_norm - use_norm)
    list_clipped = []
    for i, (v, sparse) in enumerate(pairs):
      if v is None:
        list_clipped.append(None)
        continue
      with _graph.colocated(v):
        clipped = tf.identity(v * tf.cast(scale, v.dtype), name="%s_%d" % (name, i))
      list_clipped.append(_like(sparse, clipped))
  return list_clipped, use_norm


def clip_by_average_norm(t, clip_norm, name=None):
  """Clips `t` to a maximum average L2-norm (`l2norm(t) / size(t)`), as `tf.compat.v1.clip_by_average_norm`.

  Computes `t * clip_norm * min(size(t) / l2norm(t), 1 / clip_norm)`. TF's own function accepts only
  float32; here float64 is computed in float64, and float16/bfloat16 in float32 then cast back (a half
  `size(t)` would overflow). For an `IndexedSlices`, `size(t)` is that of the dense tensor (so
  `dense_shape` is required), duplicate indices are summed first, and the result stays sparse.

  Args:
    t: A floating point `Tensor`, an `IndexedSlices` with `dense_shape`, or None.
    clip_norm: A scalar > 0 (number or `Tensor`).
    name: A name for the operation (optional).

  Returns:
    The clipped `Tensor` or `IndexedSlices` (None for None).

  Raises:
    ValueError: if `clip_norm` is known now and is not a positive scalar, or `t` is an `IndexedSlices`
      without `dense_shape`.
  """
  if t is None:
    return None
  if _is_sparse(t) and t.dense_shape is None:
    raise ValueError(
        "`t` is an IndexedSlices without dense_shape; clip_by_average_norm needs the dense size.")
  with tf.compat.v1.name_scope(name, "clip_by_average_norm", [t, clip_norm]) as name:
    values, sparse = _values_of(t, "t")
    validation.floating_dtype(values.dtype, "t")
    clip_norm = _check_clip_norm(clip_norm, "clip_norm")
    out_dtype = values.dtype
    if out_dtype in _HALF_DTYPES:
      values = tf.cast(values, tf.float32)
    dtype = values.dtype
    if tf.is_tensor(clip_norm) and clip_norm.dtype != dtype:
      clip_norm = tf.cast(clip_norm, dtype)
    if sparse is not None:
      size = tf.reduce_prod(sparse.dense_shape)
    else:
      size = tf.size(values)
    n_element = tf.cast(size, dtype)
    l2norm_inv = tf.math.rsqrt(tf.reduce_sum(values * values, tf.range(tf.rank(values))))
    clipped = values * clip_norm * tf.minimum(
        l2norm_inv * n_element, tf.constant(1.0, dtype=dtype) / clip_norm)
    if out_dtype != dtype:
      clipped = tf.cast(clipped, out_dtype)
    return _like(sparse, tf.identity(clipped, name=name))
