"""Gradient transforms: callables ``grads_and_vars -> grads_and_vars``, and ``chain`` to compose them.

A transform is the thing TF1's documentation calls ``MyCapper``: it takes the list of
``(gradient, variable)`` pairs that ``Optimizer.compute_gradients`` returns and gives back a
list of the same length, with the same variables in the same order. ``None`` gradients
(variables the loss does not reach) pass through untouched and ``tf.IndexedSlices`` stay
sparse. Transforms are built from plain TF ops, so they work in graph mode, eagerly and
inside ``tf.function``.

Place in the data flow (DESIGN.md): clipping <- **transforms** <- optimizer. The clipping
factories here wrap ``tf1clip.clipping``; ``tf1clip.optimizer.WrappedOptimizer`` runs a
chain of transforms between the inner optimizer's ``compute_gradients`` and
``apply_gradients``.

Example::

  grads_and_vars = opt.compute_gradients(loss)
  grads_and_vars = tf1clip.transforms.chain(
      tf1clip.transforms.freeze(["embedding"]),
      tf1clip.transforms.clip_by_global_norm(5.0))(grads_and_vars)
  train_op = opt.apply_gradients(grads_and_vars, global_step)
"""

import numbers
import re
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tf1clip import clipping
from tf1clip import validation
# The adaptive clipping transforms are transforms like the ones here (issue 15 names them
# tf1clip.transforms.autoclip etc.); their code lives in tf1clip.adaptive.
from tf1clip.adaptive import adaptive_grad_clip  # pylint: disable=unused-import
from tf1clip.adaptive import autoclip  # pylint: disable=unused-import
from tf1clip.adaptive import zclip  # pylint: disable=unused-import

# The protocol, in types: a transform maps (gradient, variable) pairs to pairs; it may also have
# build(var_list) -> None, called once by every adapter before the first step.
GradsAndVars = List[Tuple[Any, Any]]
Transform = Callable[[GradsAndVars], GradsAndVars]


def transform_name(transform: Any) -> str:
  """The name used for a transform in error messages: its ``__name__``, else its repr."""
  return getattr(transform, "__name__", None) or repr(transform)


def _named(fn, name):
  # Error messages name transforms by __name__; give each factory's result a readable one.
  fn.__name__ = name
  fn.__qualname__ = name
  return fn


def variable_name(var):
  """A variable's name without the ``:0`` output suffix (``"dense/kernel"``)."""
  return re.sub(r":\d+$", "", var.name)


def variable_key(var):
  """A hashable identity for a variable: ``var.ref()``.

  A Keras 3 variable has no ``ref()``; its TF variable (``.value``) stands for it, so a key made
  from either one matches the other.
  """
  if hasattr(var, "ref"):
    return var.ref()
  value = getattr(var, "value", None)
  if hasattr(value, "ref"):
    return value.ref()
  raise TypeError("expected a variable (with .ref()), got a %s: %r" % (type(var).__name__, var))


def _is_variable_like(x):
  return hasattr(x, "ref") or hasattr(getattr(x, "value", None), "ref")


def _var_names(grads_and_vars):
  return [variable_name(v) for _, v in grads_and_vars]


def check_gradients_provided(grads_and_vars: Iterable[Tuple[Any, Any]]) -> GradsAndVars:
  """Checks the list given to ``apply_gradients``, as TF1's ``Optimizer.apply_gradients`` does.

  Args:
    grads_and_vars: list (or iterator) of ``(gradient, variable)`` pairs.

  Returns:
    The pairs as a list.

  Raises:
    ValueError: if there is no pair, or every gradient is None (TF1's message, naming the
      variables).
  """
  grads_and_vars = list(grads_and_vars)
  if not grads_and_vars:
    raise ValueError("No variables provided.")
  if all(g is None for g, _ in grads_and_vars):
    raise ValueError("No gradients provided for any variable: %s." %
                     ([str(v) for _, v in grads_and_vars],))
  return grads_and_vars


def _dtype(x):
  return tf.as_dtype(getattr(x, "dtype")).base_dtype


def _check_gradient_matches_variable(name, i, grad, var):
  """A transform must not change a gradient's dtype or shape: TF would abort inside the update."""
  try:
    var_dtype = _dtype(var)
  except (TypeError, AttributeError):
    return
  values = grad.values if isinstance(grad, tf.IndexedSlices) else grad
  if not hasattr(values, "dtype"):
    return
  grad_dtype = _dtype(values)
  if grad_dtype != var_dtype:
    raise ValueError(
        "Gradient transform %s changed the dtype of the gradient of %s (position %d) to %s; "
        "it must stay the variable's dtype %s." % (name, variable_name(var), i, grad_dtype.name,
                                                   var_dtype.name))
  var_shape = tf.TensorShape(getattr(var, "shape", None))
  grad_shape = tf.TensorShape(getattr(values, "shape", None))
  if isinstance(grad, tf.IndexedSlices):
    compatible = (var_shape.rank is None or grad_shape.rank is None or
                  grad_shape[1:].is_compatible_with(var_shape[1:]))
  else:
    compatible = grad_shape.is_compatible_with(var_shape)
  if not compatible:
    raise ValueError(
        "Gradient transform %s changed the shape of the gradient of %s (position %d) to %s; "
        "it must stay the variable's shape %s." % (name, variable_name(var), i, grad_shape,
                                                   var_shape))


def check_transform_result(transform: Any, before: GradsAndVars, after: Any) -> GradsAndVars:
  """Checks that a transform kept the list's length, its variables in order, and each gradient's dtype/shape.

  Args:
    transform: the transform that produced `after` (named in the error message).
    before: the list of ``(gradient, variable)`` pairs given to the transform.
    after: what the transform returned.

  Returns:
    `after` as a list of ``(gradient, variable)`` tuples.

  Raises:
    ValueError: if `after` is not a list of pairs, has a different length than `before`, pairs a
      gradient with a different variable than `before` did at the same position, or holds a new
      gradient whose dtype or shape differs from its variable's (a float32 -> float64 change would
      otherwise abort the process inside ``sess.run``).
  """
  name = transform_name(transform)
  before = list(before)
  if after is None:
    raise ValueError(
        "Gradient transform %s returned None; a transform must return the list of "
        "(gradient, variable) pairs it was given, transformed." % name)
  try:
    after = [tuple(pair) for pair in after]
  except TypeError as e:
    raise ValueError(
        "Gradient transform %s must return a list of (gradient, variable) pairs; got %r (%s)."
        % (name, type(after).__name__, e)) from None
  if any(len(pair) != 2 for pair in after):
    raise ValueError(
        "Gradient transform %s must return a list of (gradient, variable) pairs; got an "
        "element of length %d." % (name, next(len(p) for p in after if len(p) != 2)))
  if len(after) != len(before):
    raise ValueError(
        "Gradient transform %s returned %d (gradient, variable) pairs for %d given: a "
        "transform must keep every variable (return None as the gradient to drop one). "
        "Given variables: %s; returned variables: %s."
        % (name, len(after), len(before), _var_names(before), _var_names(after)))
  for i, ((g_before, v_before), (g_after, v_after)) in enumerate(zip(before, after)):
    if v_after is not v_before:
      raise ValueError(
          "Gradient transform %s changed the variable at position %d from %s to %s: a "
          "transform must keep the variables and their order."
          % (name, i, variable_name(v_before), variable_name(v_after)))
    if g_after is not None and g_after is not g_before:
      _check_gradient_matches_variable(name, i, g_after, v_after)
  return after


def build_transform(transform: Transform, var_list: Sequence[Any]) -> None:
  """Calls ``transform.build(var_list)`` when the transform has one (creates its state)."""
  build = getattr(transform, "build", None)
  if callable(build):
    build(list(var_list))


class Chain:
  """Transforms composed left to right: ``build`` builds each one, a call runs and checks each one.

  The only code in tf1clip that runs transforms: every wrapper (TF1, TF2, ``optimize_loss``, the fused
  loop) calls ``chain(...)`` and nothing else.
  """

  def __init__(self, transforms):
    flat = []
    for t in transforms:
      flat.extend(t.transforms if isinstance(t, Chain) else [t])
    self.transforms = tuple(flat)
    self.__name__ = "chain(%s)" % ", ".join(transform_name(t) for t in transforms)

  def __repr__(self):
    return self.__name__

  def __len__(self):
    return len(self.transforms)

  def build(self, var_list: Sequence[Any]) -> None:
    """Creates every member's state for `var_list` (each member's ``build`` is idempotent)."""
    var_list = list(var_list)
    for t in self.transforms:
      build_transform(t, var_list)

  def __call__(self, grads_and_vars: Iterable[Tuple[Any, Any]]) -> GradsAndVars:
    grads_and_vars = list(grads_and_vars)
    for t in self.transforms:
      grads_and_vars = check_transform_result(t, grads_and_vars, t(list(grads_and_vars)))
    return grads_and_vars

  @property
  def reports_stats(self) -> bool:
    """Whether a member reports its norms (has ``with_stats``, e.g. a clipping transform)."""
    return any(callable(getattr(t, "with_stats", None)) for t in self.transforms)

  def with_stats(self, grads_and_vars: Iterable[Tuple[Any, Any]]):
    """Runs the chain; returns (grads_and_vars, stats of the last member that reports them).

    The norms are those the reporting (clipping) member saw and produced; members after it
    (noise, say) do not change them. stats is None when no member reports (see
    `reports_stats`) or the reporting member had no gradient. The `GUARD_NORM` entry is kept
    only when the reporting member is the chain's last: a later member could make finite
    gradients non-finite (or the reverse), so its norm would no longer decide `all_finite`.
    """
    grads_and_vars = list(grads_and_vars)
    stats = None
    for i, t in enumerate(self.transforms):
      member_with_stats = getattr(t, "with_stats", None)
      if callable(member_with_stats):
        out, member_stats = member_with_stats(list(grads_and_vars))
        if member_stats is not None:
          stats = member_stats
          last_reporter = i
      else:
        out = t(list(grads_and_vars))
      grads_and_vars = check_transform_result(t, grads_and_vars, out)
    if stats is not None and GUARD_NORM in stats and last_reporter != len(self.transforms) - 1:
      stats = {k: v for k, v in stats.items() if k != GUARD_NORM}
    return grads_and_vars, stats


# The stats key of a transform whose output gradients are all finite exactly when this scalar is
# (clip_by_global_norm's norm: a non-finite norm makes every clipped gradient NaN). Adapters pass
# it to `all_finite` (see `run_with_guard_norm`) instead of a pass over the gradients.
GUARD_NORM = "guard_norm"


def run_with_guard_norm(transform: Transform, grads_and_vars: Iterable[Tuple[Any, Any]]):
  """Runs `transform`; returns (grads_and_vars, the norm the non-finite guard may use, or None).

  The norm is the `GUARD_NORM` entry of the transform's ``with_stats`` (a `Chain` keeps it only
  when its last member reported it; `tf1clip.summaries.Observed` passes its inner stats on), so
  it is computed once, by the clip, and read by `all_finite(..., global_norm=...)`.

  Args:
    transform: a transform, typically the adapter's `Chain` or the observer wrapping it.
    grads_and_vars: list of ``(gradient, variable)`` pairs.

  Returns:
    ``(grads_and_vars, norm)``: the transform's checked output and a scalar Tensor or None.
  """
  grads_and_vars = list(grads_and_vars)
  if callable(getattr(transform, "with_stats", None)) and getattr(transform, "reports_stats",
                                                                  True):
    out, stats = transform.with_stats(list(grads_and_vars))
    out = check_transform_result(transform, grads_and_vars, out)
    return out, (stats or {}).get(GUARD_NORM)
  return check_transform_result(transform, grads_and_vars, transform(list(grads_and_vars))), None


def chain(*transforms: Transform) -> "Chain":
  """Composes transforms, applied left to right; each result is checked.

  Args:
    *transforms: callables ``grads_and_vars -> grads_and_vars`` (other chains included), each with
      an optional ``build(var_list)`` creating its state.

  Returns:
    A `Chain`: a transform applying them in order, whose ``build(var_list)`` builds each of them.

  Raises:
    TypeError: if one of `transforms` is not callable (at construction).
  """
  for i, t in enumerate(transforms):
    if not callable(t):
      raise TypeError(
          "chain() expects callables grads_and_vars -> grads_and_vars; argument %d is a %s: %r"
          % (i, type(t).__name__, t))
  return Chain(transforms)


def as_chain(transforms: Union[Transform, Sequence[Transform]], arg: str = "transforms") -> "Chain":
  """The one check of a wrapper's ``transforms=`` argument; returns their `Chain`.

  Args:
    transforms: a transform (callable ``grads_and_vars -> grads_and_vars``) or a list/tuple of them.
    arg: the argument's name, for the message.

  Returns:
    A `Chain`.

  Raises:
    TypeError: `transforms` is neither a callable nor a list/tuple, or an element is not callable.
  """
  if callable(transforms):
    transforms = (transforms,)
  if not isinstance(transforms, (list, tuple)):
    raise TypeError("`%s` must be a callable or a list of callables grads_and_vars -> "
                    "grads_and_vars; got a %s: %r." % (arg, type(transforms).__name__, transforms))
  for i, t in enumerate(transforms):
    if not callable(t):
      raise TypeError("`%s[%d]` must be a callable grads_and_vars -> grads_and_vars; got a %s: %r."
                      % (arg, i, type(t).__name__, t))
  return Chain(transforms)


class Pipeline:
  """What every tf1clip wrapper, TF1 or TF2, says about its pipeline (docs/architecture.md).

  A wrapper sets ``_optimizer``, ``_chain`` (from `as_chain`) and ``_skip_non_finite``.
  """

  @property
  def inner_optimizer(self):
    """The wrapped optimizer."""
    return self._optimizer

  @property
  def transforms(self):
    """The transforms, in the order they run (a tuple)."""
    return self._chain.transforms

  @property
  def skip_non_finite(self):
    """Whether updates with a NaN/Inf gradient are skipped."""
    return self._skip_non_finite


def _map_gradients(fn, grads_and_vars):
  return [(None if g is None else fn(g), v) for g, v in grads_and_vars]


def _is_python_number(x):
  return isinstance(x, (numbers.Real, np.number)) and not isinstance(x, bool)


def clip_by_value(clip_value_min: Any, clip_value_max: Any, *, repeated_rows: str = "summed") -> Transform:
  """Clips every gradient element-wise to ``[clip_value_min, clip_value_max]``.

  Args:
    clip_value_min: scalar (or broadcastable Tensor), the lower bound.
    clip_value_max: scalar (or broadcastable Tensor), the upper bound.
    repeated_rows: "summed" (default: a sparse gradient's repeated rows are summed before clipping) or
      "as_listed" (each listed row clipped as listed, TF 1.15's numbers); see `tf1clip.clipping`.

  Returns:
    A transform; sparse gradients stay sparse (see `tf1clip.clip_by_value`).

  Raises:
    ValueError: if both bounds are numbers and ``clip_value_min > clip_value_max``.
  """
  validation.not_nan(clip_value_min, "clip_value_min")
  validation.not_nan(clip_value_max, "clip_value_max")
  clipping.check_repeated_rows(repeated_rows)
  if (_is_python_number(clip_value_min) and _is_python_number(clip_value_max)
      and clip_value_min > clip_value_max):
    raise ValueError("`clip_value_min` must be <= `clip_value_max`; got clip_value_min=%r, "
                     "clip_value_max=%r." % (clip_value_min, clip_value_max))
  return _named(
      lambda gv: _map_gradients(
          lambda g: clipping.clip_by_value(g, clip_value_min, clip_value_max, repeated_rows=repeated_rows), gv),
      "clip_by_value(%r, %r%s)" % (clip_value_min, clip_value_max, _rows_shown(repeated_rows)))


def _rows_shown(repeated_rows):
  return "" if repeated_rows == clipping.SUMMED else ", repeated_rows=%r" % repeated_rows


def clip_by_norm(clip_norm: Any, *, repeated_rows: str = "summed") -> Transform:
  """Clips each gradient separately to L2 norm at most `clip_norm` (changes the direction).

  A transform factory: it returns a transform for lists of ``(gradient, variable)`` pairs. The
  tensor function of the same name, ``tf1clip.clip_by_norm(t, clip_norm)`` (TF's
  ``tf.clip_by_norm``), clips one tensor now; this one clips each gradient of a list, later.

  Args:
    clip_norm: positive scalar.
    repeated_rows: "summed" (default) or "as_listed" (TF 1.15's numbers); see `tf1clip.clipping`.

  Returns:
    A transform; sparse gradients stay sparse (see `tf1clip.clip_by_norm`).

  Raises:
    ValueError: if `clip_norm` is a number <= 0, or `repeated_rows` is neither.
  """
  clipping.check_repeated_rows(repeated_rows)
  validation.positive(clip_norm, "clip_norm")
  return _named(
      lambda gv: _map_gradients(lambda g: clipping.clip_by_norm(g, clip_norm, repeated_rows=repeated_rows), gv),
      "clip_by_norm(%r%s)" % (clip_norm, _rows_shown(repeated_rows)))


def clip_by_average_norm(clip_norm: Any) -> Transform:
  """Clips each gradient separately to average L2 norm (norm / size) at most `clip_norm`.

  Args:
    clip_norm: positive scalar.

  Returns:
    A transform; sparse gradients stay sparse (see `tf1clip.clip_by_average_norm`).

  Raises:
    ValueError: if `clip_norm` is a number <= 0.
  """
  return _per_gradient_clip(clipping.clip_by_average_norm, clip_norm)


def _per_gradient_clip(clip_fn, clip_norm):
  validation.positive(clip_norm, "clip_norm")
  return _named(lambda gv: _map_gradients(lambda g: clip_fn(g, clip_norm), gv),
                "%s(%r)" % (clip_fn.__name__, clip_norm))


def clip_by_global_norm(clip_norm: Any, *, repeated_rows: str = "summed") -> Transform:
  """Scales all gradients together so that their global norm is at most `clip_norm`.

  Keeps the direction of the whole update. This is what ``tf.contrib.estimator.
  clip_gradients_by_norm`` and ``optimize_loss(clip_gradients=x)`` did.

  Args:
    clip_norm: positive scalar.
    repeated_rows: "summed" (default: the norm of the gradient as applied, a sparse gradient's repeated
      rows summed) or "as_listed" (each listed row counted, TF 1.15's numbers); see `tf1clip.clipping`.

  Returns:
    A transform; sparse gradients stay sparse (see `tf1clip.clip_by_global_norm`).

  Raises:
    ValueError: if `clip_norm` is a number <= 0, or `repeated_rows` is neither.

  References:
    Pascanu, Mikolov, Bengio, "On the difficulty of training recurrent neural networks",
    ICML 2013 (arXiv:1211.5063).
  """
  validation.positive(clip_norm, "clip_norm")
  clipping.check_repeated_rows(repeated_rows)

  def with_stats(grads_and_vars):
    """Clips; returns (grads_and_vars, stats) with the norm the clip computed anyway.

    stats (scalar Tensors, or None when every gradient is None): "norm" (before),
    "clipped_norm" (after), "threshold" (`clip_norm`), "clipped" (bool: scaled down), and
    `GUARD_NORM` (the norm again: the clipped gradients are finite exactly when it is).
    `tf1clip.summaries.observe` records them without a second global norm; the non-finite
    guard reads `GUARD_NORM` (see `run_with_guard_norm`).
    """
    grads_and_vars = list(grads_and_vars)
    grads = [g for g, _ in grads_and_vars]
    if all(g is None for g in grads):
      return grads_and_vars, None
    clipped, norm = clipping.clip_by_global_norm(grads, clip_norm, repeated_rows=repeated_rows)
    threshold = tf.cast(clip_norm, norm.dtype)
    # min(norm, clip_norm) is the clipped norm; NaN/inf norms stay visible as they are.
    after = tf.where(norm > threshold, threshold, norm)
    stats = {"norm": norm, "clipped_norm": after, "threshold": threshold,
             "clipped": norm > threshold, GUARD_NORM: norm}
    return list(zip(clipped, [v for _, v in grads_and_vars])), stats

  def transform(grads_and_vars):
    return with_stats(grads_and_vars)[0]

  transform.with_stats = with_stats
  return _named(transform, "clip_by_global_norm(%r%s)" % (clip_norm, _rows_shown(repeated_rows)))


def _scale(grad, factor):
  if isinstance(grad, tf.IndexedSlices):
    return tf.IndexedSlices(grad.values * tf.cast(factor, grad.values.dtype), grad.indices,
                            grad.dense_shape)
  return grad * tf.cast(factor, grad.dtype)


def _multiplier_lookup(multipliers):
  """Splits a multipliers dict into {variable ref: m} and {name: m}."""
  by_ref, by_name = {}, {}
  for key, m in multipliers.items():
    if isinstance(key, str):
      by_name[re.sub(r":\d+$", "", key)] = m
    elif hasattr(key, "deref"):  # a variable.ref(), the hashable handle TF2 wants in dicts
      by_ref[key] = m
    elif _is_variable_like(key):
      by_ref[variable_key(key)] = m
    else:
      raise TypeError("multipliers keys must be variables, variable.ref() or variable names; "
                      "got a %s: %r" % (type(key).__name__, key))
  return by_ref, by_name


def scale_by_multipliers(multipliers: dict) -> Transform:
  """Multiplies the gradients of some variables by constants (``gradient_multipliers``).

  Args:
    multipliers: dict keyed by variable (or ``variable.ref()``) or by variable name
      (``"dense/kernel"``; a ``:0`` suffix is optional) to a number or scalar Tensor.
      Variables not in the dict keep their gradient.

  Returns:
    A transform. Sparse gradients are scaled on their values.

  Raises:
    TypeError: if `multipliers` is not a dict (at construction).
    ValueError: when the transform runs, if a name in `multipliers` matches no variable of the
      list; the message lists the variables' names.
  """
  if not isinstance(multipliers, dict):
    raise TypeError("multipliers must be a dict {variable or name: multiplier}; got a %s."
                    % type(multipliers).__name__)
  by_ref, by_name = _multiplier_lookup(multipliers)

  def transform(grads_and_vars):
    names = _var_names(grads_and_vars)
    unknown = sorted(set(by_name) - set(names))
    if unknown:
      raise ValueError("scale_by_multipliers: no variable named %s among the variables %s."
                       % (unknown, names))
    out = []
    for (g, v), name in zip(grads_and_vars, names):
      m = by_ref.get(variable_key(v), by_name.get(name))
      out.append((g if g is None or m is None else _scale(g, m), v))
    return out

  return _named(transform, "scale_by_multipliers")


def add_gradient_noise(scale: Any, seed: Optional[int] = None) -> Transform:
  """Adds zero-mean noise of standard deviation `scale` to every gradient.

  As ``tf.contrib.layers.optimize_loss(gradient_noise_scale=...)``: the noise is
  ``truncated_normal(shape) * scale`` (a normal cut at two standard deviations), drawn
  afresh at every step. Unlike contrib, a sparse gradient gets noise on its values only
  (the rows it touches), so it stays sparse.

  Args:
    scale: non-negative number or scalar Tensor, the noise's standard deviation.
    seed: optional int; gradient ``i`` uses op seed ``seed + i`` so that equal-shaped
      gradients do not receive identical noise.

  Returns:
    A transform.

  Raises:
    ValueError: if `scale` is a negative number.

  References:
    Neelakantan et al., "Adding Gradient Noise Improves Learning for Very Deep Networks",
    arXiv:1511.06807, 2015.
  """
  validation.non_negative(scale, "scale")

  def noisy(values, i):
    noise = tf.random.truncated_normal(
        tf.shape(values), dtype=values.dtype, seed=None if seed is None else seed + i)
    return values + noise * tf.cast(scale, values.dtype)

  def transform(grads_and_vars):
    out = []
    for i, (g, v) in enumerate(grads_and_vars):
      if isinstance(g, tf.IndexedSlices):
        g = tf.IndexedSlices(noisy(g.values, i), g.indices, g.dense_shape)
      elif g is not None:
        g = noisy(tf.convert_to_tensor(g), i)
      out.append((g, v))
    return out

  return _named(transform, "add_gradient_noise(%r)" % (scale,))


def freeze(selection: Any) -> Transform:
  """Drops the gradients of selected variables (they become None, so nothing updates them).

  The inner optimizer then creates no slots for them and does not touch them, exactly as
  if they had been left out of ``var_list``.

  Args:
    selection: one of
      - a callable ``variable -> bool`` (True freezes),
      - a list of booleans, one per (gradient, variable) pair (True freezes),
      - a variable, a variable name, or a list of variables and/or names
        (``"dense/kernel"``; ``:0`` optional), e.g. ``tf1clip.select_variables(scope=...)``.

  Returns:
    A transform.

  Raises:
    ValueError: when the transform runs, if a boolean mask's length differs from the list's
      or a name matches no variable (the message lists the variables' names).
  """
  predicate, mask, refs, names = None, None, set(), set()
  if callable(selection):
    predicate = selection
    label = transform_name(selection)
  else:
    items = list(selection) if isinstance(selection, (list, tuple)) else [selection]
    if items and all(isinstance(x, (bool, np.bool_)) for x in items):
      mask = [bool(x) for x in items]
      label = "mask"
    else:
      for x in items:
        if isinstance(x, str):
          names.add(re.sub(r":\d+$", "", x))
        elif _is_variable_like(x):
          refs.add(variable_key(x))
        else:
          raise TypeError("freeze() selection must hold variables or variable names; got a "
                          "%s: %r" % (type(x).__name__, x))
      label = "variables"

  def transform(grads_and_vars):
    grads_and_vars = list(grads_and_vars)
    all_names = _var_names(grads_and_vars)
    if predicate is not None:
      frozen = [bool(predicate(v)) for _, v in grads_and_vars]
    elif mask is not None:
      if len(mask) != len(grads_and_vars):
        raise ValueError("freeze: the mask has %d entries for %d (gradient, variable) pairs "
                         "(variables: %s)." % (len(mask), len(grads_and_vars), all_names))
      frozen = mask
    else:
      unknown = sorted(names - set(all_names))
      if unknown:
        raise ValueError("freeze: no variable named %s among the variables %s."
                         % (unknown, all_names))
      frozen = [variable_key(v) in refs or n in names for (_, v), n in zip(grads_and_vars, all_names)]
    return [(None if f else g, v) for (g, v), f in zip(grads_and_vars, frozen)]

  return _named(transform, "freeze(%s)" % label)


def all_finite(grads_and_vars: Iterable[Tuple[Any, Any]], global_norm: Any = None) -> tf.Tensor:
  """A scalar bool Tensor: True when every non-None gradient is finite (no NaN, no Inf).

  Sparse gradients are checked on their values. Integer gradients count as finite. With
  `global_norm` the flag is ``is_finite(global_norm)`` and no pass over the gradients is built.

  Otherwise one reduction per gradient: a finite sum of all gradients' sums proves every element
  finite; only when that sum is not finite (a NaN/Inf, or finite values overflowing) does an exact
  element-wise check run, lazily, in a cond. That costs one op per gradient instead of two.

  Args:
    grads_and_vars: list of ``(gradient, variable)`` pairs.
    global_norm: optional scalar Tensor, the norm of the global-norm clip whose outputs are
      exactly these gradients (as `run_with_guard_norm` returns it). Only valid then: the clip
      makes every gradient NaN when its norm is not finite, and a finite norm gives finite
      clipped gradients; after any other change to the gradients, leave it None.

  Returns:
    A scalar ``tf.bool`` Tensor (True when there is no gradient at all).
  """
  grads_and_vars = list(grads_and_vars)
  if global_norm is not None:
    return tf.math.is_finite(global_norm, name="all_finite")
  with tf.name_scope("all_finite"):
    values = []
    for g, _ in grads_and_vars:
      if g is None:
        continue
      v = tf.convert_to_tensor(g.values if isinstance(g, tf.IndexedSlices) else g)
      if v.dtype.is_floating:
        values.append(v)
    if not values:
      return tf.constant(True)
    by_dtype = {}
    for v in values:
      by_dtype.setdefault(v.dtype.base_dtype, []).append(tf.reduce_sum(v))
    totals = [tf.add_n(sums) if len(sums) > 1 else sums[0] for sums in by_dtype.values()]
    flags = [tf.math.is_finite(t) for t in totals]
    sum_finite = flags[0] if len(flags) == 1 else tf.reduce_all(tf.stack(flags))
    # Deferred import: _graph is an adapter helper; transforms stays importable on its own.
    from tf1clip import _graph  # pylint: disable=g-import-not-at-top
    return _graph.functional_cond(sum_finite, lambda: tf.constant(True),
                                  lambda: _elementwise_all_finite(values), name="exact")


def _elementwise_all_finite(values):
  checks = [tf.reduce_all(tf.math.is_finite(v)) for v in values]
  return checks[0] if len(checks) == 1 else tf.reduce_all(tf.stack(checks))
