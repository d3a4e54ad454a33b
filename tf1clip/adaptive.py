"""Adaptive clipping transforms: AutoClip, AGC and ZClip, with their state made by ``build``.

Each factory returns a gradient transform (``grads_and_vars -> grads_and_vars``, see
`tf1clip.transforms`) whose threshold comes from the training run itself:

- `autoclip(percentile, history)`: clip the global norm to the p-th percentile of the norms
  seen so far (Seetharaman et al., 2020), over a fixed window.
- `adaptive_grad_clip(clipping, eps)`: clip each unit's gradient to `clipping` times its
  parameter's norm (Brock et al., 2021). Stateless.
- `zclip(z_thresh, alpha, warmup_steps)`: z-score spike detection on an EMA of the global
  norm's mean and variance; a spike is clipped to the paper's reciprocal threshold
  (Kumar et al., 2025).

Stateful transforms follow the pipeline's protocol: ``build(var_list)`` creates their
non-trainable variables (graph mode: in ``GLOBAL_VARIABLES`` so ``tf.train.Saver`` checkpoints
them; TF2: tracked by ``tf.train.Checkpoint(transform)``), colocated with the first variable,
under the transform's own name scope, once per graph (a second call creates nothing). Adapters
call it before any ``tf.cond`` / ``tf.function`` trace; a transform called unbuilt builds
itself (in ``tf.init_scope``), which is fine outside control flow. Each also offers
``with_stats(grads_and_vars) -> (grads_and_vars, stats)`` with the global norm before and after,
the threshold and whether this step clipped, so `tf1clip.summaries.observe` records them
without computing the norm twice.

Place in the data flow (DESIGN.md): clipping <- **adaptive** (transforms) <- optimizer.
"""

import weakref

import numpy as np
import tensorflow as tf

from tf1clip import clipping
from tf1clip import validation


def _scale(grad, factor):
  """`grad` times a scalar or broadcastable factor; IndexedSlices stay sparse."""
  if grad is None:
    return None
  if isinstance(grad, tf.IndexedSlices):
    return tf.IndexedSlices(grad.values * tf.cast(factor, grad.values.dtype), grad.indices,
                            grad.dense_shape)
  return grad * tf.cast(factor, grad.dtype)


def _with_dependencies(deps, grad):
  if grad is None or not deps:
    return grad
  with tf.control_dependencies(deps):
    if isinstance(grad, tf.IndexedSlices):
      return tf.IndexedSlices(tf.identity(grad.values), grad.indices, grad.dense_shape)
    return tf.identity(grad)


class StatefulTransform(tf.__internal__.tracking.AutoTrackable):
  """Base of the transforms that keep state in variables made by ``build(var_list)``.

  Subclasses define ``_state_spec()`` -> list of (name, initial numpy value) and
  ``_transform(grads_and_vars, state)`` -> (grads_and_vars, assign ops, stats).
  """

  def __init__(self, name):
    # AutoTrackable, not tf.Module: a Module enters its name scope when constructed, which in
    # graph mode would take "zclip" and leave "zclip_1" to the state made by build().
    super().__init__()
    self.name = name
    # One set of variables per graph (a graph is weakly held so it can be collected);
    # eagerly, `eager_state` (a dict, tracked by tf.train.Checkpoint).
    self._graph_states = weakref.WeakKeyDictionary()
    self.eager_state = None

  def _state_spec(self):
    raise NotImplementedError

  def _current_state(self):
    with tf.init_scope():
      if tf.executing_eagerly():
        return self.eager_state
      return self._graph_states.get(tf.compat.v1.get_default_graph())

  def build(self, var_list):
    """Creates the state variables (once per graph; once eagerly).

    Args:
      var_list: the variables being trained; the state is colocated with the first one.

    Returns:
      dict name -> the state variable.
    """
    var_list = [v for v in (var_list or []) if v is not None]
    with tf.init_scope():
      state = self._current_state()
      if state is not None:
        return state
      eager = tf.executing_eagerly()
      first = var_list[0] if var_list else None
      if first is not None and not hasattr(first, "handle") and hasattr(first, "value") and (
          not callable(first.value)):
        first = first.value  # a Keras 3 variable holds its TF one in .value (a RefVariable's
        # .value is a method, and colocating with the RefVariable itself works)
      state = {}
      with tf.name_scope(self.name):
        for name, value in self._state_spec():
          if eager:
            with tf.device(first.device if first is not None else None):
              state[name] = tf.Variable(value, trainable=False, name=name)
          else:
            graph = tf.compat.v1.get_default_graph()
            with graph.colocate_with(first, ignore_existing=True) if (
                first is not None) else _null():
              state[name] = tf.compat.v1.Variable(
                  value, trainable=False, name=name, use_resource=True,
                  collections=[tf.compat.v1.GraphKeys.GLOBAL_VARIABLES])
      if eager:
        self.eager_state = state
        return self.eager_state
      self._graph_states[tf.compat.v1.get_default_graph()] = state
      return state

  @property
  def state(self):
    """dict name -> variable in the current context (graph or eager), or None if unbuilt."""
    return self._current_state()

  def with_stats(self, grads_and_vars):
    """Runs the transform; returns (grads_and_vars, stats).

    stats holds scalar tensors: "norm" (global norm before), "clipped_norm" (after),
    "threshold" (the norm the step was clipped to; inf when it was not limited) and "clipped"
    (bool: this step was scaled down).
    """
    grads_and_vars = list(grads_and_vars)
    state = self._current_state()
    if state is None:
      state = self.build([v for _, v in grads_and_vars])
    with tf.name_scope(self.name):
      out, assigns, stats = self._transform(grads_and_vars, state)
    out = [(_with_dependencies(assigns, g), v) for g, v in out]
    return out, stats

  def __call__(self, grads_and_vars):
    return self.with_stats(grads_and_vars)[0]


class _null:  # pylint: disable=invalid-name
  def __enter__(self):
    return None

  def __exit__(self, *exc):
    return False


def _global_clip(grads_and_vars, norm, threshold):
  """Scales all gradients by threshold / max(norm, threshold) (tf.clip_by_global_norm's rule)."""
  threshold = tf.cast(threshold, norm.dtype)
  # threshold / max(norm, threshold), written so that an infinite threshold gives 1, not NaN.
  scale = tf.where(norm > threshold, threshold / norm, tf.ones_like(norm))
  return [(_scale(g, scale), v) for g, v in grads_and_vars], scale


class AutoClip(StatefulTransform):
  """AutoClip: the threshold is the p-th percentile of the recent global norms.

  See `autoclip`.
  """

  def __init__(self, percentile, history, name="autoclip"):
    super().__init__(name)
    self.percentile = percentile
    self.history = history

  def _state_spec(self):
    return [("norm_history", np.zeros([self.history], np.float32)),
            ("count", np.zeros([], np.int64))]

  def _transform(self, grads_and_vars, state):
    grads = [g for g, _ in grads_and_vars]
    norm = tf.cast(clipping.global_norm(grads), tf.float32)
    # Each state variable is read once: in a TF1 graph a second read is not ordered before
    # the assignment below and could see this step's value.
    history, count = state["norm_history"].read_value(), state["count"].read_value()
    finite = tf.math.is_finite(norm)
    # A NaN/Inf norm would make every later percentile NaN: it is not recorded.
    slot = tf.math.floormod(count, self.history)
    recorded = tf.tensor_scatter_nd_update(history, [[slot]], [norm])
    new_history = tf.where(finite, recorded, history)
    new_count = count + tf.cast(finite, tf.int64)
    n = tf.minimum(new_count, self.history)
    valid = tf.range(self.history, dtype=tf.int64) < n
    ordered = tf.sort(tf.where(valid, new_history, tf.fill([self.history], np.inf)))
    # numpy's default ("linear") percentile over the n recorded norms.
    position = (self.percentile / 100.0) * tf.cast(tf.maximum(n - 1, 0), tf.float64)
    lower = tf.floor(position)
    low = tf.gather(ordered, tf.cast(lower, tf.int32))
    high = tf.gather(ordered, tf.cast(tf.math.ceil(position), tf.int32))
    fraction = tf.cast(position - lower, tf.float32)
    threshold = low + (high - low) * fraction
    # Before any finite norm there is no history: nothing to clip to.
    threshold = tf.where(n > 0, threshold, tf.constant(np.inf, tf.float32))
    out, scale = _global_clip(grads_and_vars, norm, threshold)
    assigns = [state["norm_history"].assign(new_history), state["count"].assign(new_count)]
    stats = {"norm": norm, "clipped_norm": norm * scale, "threshold": threshold,
             "clipped": norm > threshold}
    return out, assigns, stats


def autoclip(percentile=10.0, history=1000, name="autoclip"):
  """AutoClip: clips the global norm to the `percentile`-th percentile of the norms seen.

  At every step the global gradient norm is appended to the history, then all gradients are
  scaled by ``threshold / max(norm, threshold)`` with ``threshold = percentile(history, p)``
  (numpy's linear interpolation). The history is a ring buffer of the last `history` norms
  (bounded memory, a checkpointed float32 variable): for the first `history` steps the result
  is exactly the paper's (which keeps every norm); after that the percentile is over the
  window. A fixed window is chosen over a streaming quantile estimator (P², t-digest) because it
  is exact (testable against numpy), follows a run whose norm drifts downwards as training
  settles, and costs one sort of `history` floats per step. A non-finite norm is not recorded
  (the gradients are scaled as ``tf.clip_by_global_norm`` would, i.e. to NaN; use the wrappers'
  ``skip_non_finite``).

  Args:
    percentile: p in [0, 100]; the paper recommends 10.
    history: how many recent norms to keep, an int >= 1.
    name: name scope of the state variables and ops.

  Returns:
    An `AutoClip` transform (callable, with ``build(var_list)`` and ``with_stats``); its state
    is ``norm_history`` [history] and ``count`` (norms recorded).

  Raises:
    TypeError: `percentile` is not a number.
    ValueError: `percentile` not in [0, 100], or `history` not an int >= 1 (the wordings of
      `tf1clip.validation`).

  References:
    Seetharaman, Wichern, Pardo, Le Roux. "AutoClip: Adaptive Gradient Clipping for Source
    Separation Networks". IEEE MLSP 2020 (arXiv:2007.14469).
  """
  percentile = float(validation.in_range(percentile, "percentile", 0.0, 100.0,
                                         allow_tensor=False))
  history = validation.count(history, "history")
  return AutoClip(percentile, history, name=name)


def unitwise_norm(x):
  """The norm of each unit of a parameter or gradient (AGC's convention), keepdims.

  Rank <= 1 (biases, gains): the whole tensor is one unit. Rank 2 and 3 (dense kernels
  [in, out], multi-head [in, heads, out]): reduce axis 0, one norm per output unit. Rank 4
  (conv kernels HWIO): reduce axes 0, 1, 2, one norm per output channel (the paper's fan-in
  convention). Rank 5 (3-D conv kernels): reduce all axes but the last.

  Args:
    x: a dense Tensor.

  Returns:
    A Tensor of norms, broadcastable against `x`.
  """
  return tf.sqrt(_unitwise_sum_squares(x, x.shape.rank))


def _unit_axes(rank):
  if rank is None:
    raise ValueError("adaptive_grad_clip needs variables of known rank")
  if rank <= 1:
    return None
  if rank in (2, 3):
    return [0]
  return list(range(rank - 1))


def _unitwise_sum_squares(x, rank):
  axes = _unit_axes(rank)
  if axes is None:
    return tf.reduce_sum(tf.square(x))
  return tf.reduce_sum(tf.square(x), axis=axes, keepdims=True)


def _sparse_unitwise_norm(grad, rank):
  # Every convention reduces axis 0, the sliced one: sum repeated rows first so the norm is the
  # dense gradient's, then reduce the values over the unit axes.
  unique, position = tf.unique(grad.indices)
  summed = tf.math.unsorted_segment_sum(grad.values, position, tf.shape(unique)[0])
  return tf.sqrt(_unitwise_sum_squares(summed, rank))


class AdaptiveGradClip(StatefulTransform):
  """AGC: clips each unit's gradient to `clipping` times its parameter's norm. See `adaptive_grad_clip`."""

  def __init__(self, clipping_ratio, eps, name="adaptive_grad_clip"):
    super().__init__(name)
    self.clipping = clipping_ratio
    self.eps = eps

  def _state_spec(self):
    return []

  def _transform(self, grads_and_vars, state):
    del state
    norm = clipping.global_norm([g for g, _ in grads_and_vars])
    out = []
    for g, v in grads_and_vars:
      if g is None:
        out.append((g, v))
        continue
      rank = len(v.shape)  # a TensorShape or (Keras 3) a tuple
      values = g.values if isinstance(g, tf.IndexedSlices) else g
      param = tf.cast(v.read_value() if hasattr(v, "read_value") else tf.convert_to_tensor(v),
                      values.dtype)
      max_norm = tf.maximum(unitwise_norm(param), self.eps) * self.clipping
      if isinstance(g, tf.IndexedSlices):
        grad_norm = _sparse_unitwise_norm(g, rank)
      else:
        grad_norm = unitwise_norm(g)
      # Where the unit is over its limit, scale it to the limit (1e-6 guards a zero norm).
      factor = tf.where(grad_norm > max_norm, max_norm / tf.maximum(grad_norm, 1e-6),
                        tf.ones_like(grad_norm))
      out.append((_scale(g, factor), v))
    after = clipping.global_norm([g for g, _ in out])
    stats = {"norm": norm, "clipped_norm": after,
             "threshold": tf.constant(np.inf, norm.dtype), "clipped": after < norm}
    return out, [], stats


def adaptive_grad_clip(clipping, eps=1e-3, name="adaptive_grad_clip"):  # pylint: disable=redefined-outer-name
  """Adaptive gradient clipping (AGC): unit-wise ratio of gradient norm to parameter norm.

  For each unit i of each variable W with gradient G (units as in `unitwise_norm`):
  ``max_i = clipping * max(||W_i||, eps)``; if ``||G_i|| > max_i`` then
  ``G_i <- G_i * max_i / ||G_i||``, else G_i is unchanged. `eps` keeps zero-initialised
  parameters (biases) from freezing. A sparse gradient (``tf.IndexedSlices``) stays sparse:
  its unit norms are the dense gradient's (repeated rows summed), the scale is applied to its
  values. Stateless (``build`` creates nothing); the paper does not clip the final linear layer:
  exclude it with ``tf1clip.transforms.freeze``-style selection or apply AGC to a `var_list`.

  Args:
    clipping: the ratio lambda > 0 (the paper uses 0.01 to 0.16 depending on batch size).
    eps: the floor of the parameter norm, > 0.
    name: name scope of the ops.

  Returns:
    An `AdaptiveGradClip` transform.

  Raises:
    TypeError: `clipping` or `eps` is not a number.
    ValueError: `clipping` or `eps` not a finite number > 0.

  References:
    Brock, De, Smith, Simonyan. "High-Performance Large-Scale Image Recognition Without
    Normalization". ICML 2021 (arXiv:2102.06171), Section 4.1.
  """
  clipping_ratio = float(validation.positive(clipping, "clipping", allow_tensor=False))
  eps = float(validation.positive(eps, "eps", allow_tensor=False))
  return AdaptiveGradClip(clipping_ratio, eps, name=name)


class ZClip(StatefulTransform):
  """ZClip: z-score spike detection on EMA statistics of the global norm. See `zclip`."""

  def __init__(self, z_thresh, alpha, warmup_steps, eps, clip_option, max_grad_norm,
               name="zclip"):
    super().__init__(name)
    self.z_thresh = z_thresh
    self.alpha = alpha
    self.warmup_steps = warmup_steps
    self.eps = eps
    self.clip_option = clip_option
    self.max_grad_norm = max_grad_norm

  def _state_spec(self):
    return [("count", np.zeros([], np.int64)), ("mean", np.zeros([], np.float32)),
            ("var", np.zeros([], np.float32))]

  def _transform(self, grads_and_vars, state):
    grads = [g for g, _ in grads_and_vars]
    norm = tf.cast(clipping.global_norm(grads), tf.float32)
    count, mean, var = (state[k].read_value() for k in ("count", "mean", "var"))
    finite = tf.math.is_finite(norm)
    in_warmup = count < self.warmup_steps
    # Warm-up: Welford's running mean and sum of squares (kept in `var`), no clipping; at the
    # last warm-up step `var` becomes the population variance of the warm-up norms.
    n = tf.cast(count + 1, tf.float32)
    delta = norm - mean
    warm_mean = mean + delta / n
    warm_m2 = var + delta * (norm - warm_mean)
    warm_var = tf.where(tf.equal(count + 1, self.warmup_steps), warm_m2 / n, warm_m2)
    # After warm-up: z-score against the statistics before this step.
    std = tf.sqrt(var)
    z = (norm - mean) / (std + self.eps)
    spike = tf.logical_and(tf.logical_not(in_warmup), z > self.z_thresh)
    if self.clip_option == "mean":
      spike_norm = mean
    else:  # "adaptive_scaling": the reciprocal threshold mu + (z_thresh^2 / z) * sigma
      spike_norm = mean + (self.z_thresh ** 2) * std / tf.where(spike, z, tf.ones_like(z))
    effective = tf.where(spike, spike_norm, norm)
    ema_mean = self.alpha * mean + (1.0 - self.alpha) * effective
    ema_var = self.alpha * var + (1.0 - self.alpha) * tf.square(effective - ema_mean)
    new_mean = tf.where(in_warmup, warm_mean, ema_mean)
    new_var = tf.where(in_warmup, warm_var, ema_var)
    threshold = tf.where(spike, spike_norm, tf.constant(np.inf, tf.float32))
    if self.max_grad_norm is not None:
      threshold = tf.minimum(threshold, self.max_grad_norm)
    out, scale = _global_clip(grads_and_vars, norm, threshold)
    # A non-finite norm leaves the statistics alone (it would poison them for good).
    assigns = [state["count"].assign(tf.where(finite, count + 1, count)),
               state["mean"].assign(tf.where(finite, new_mean, mean)),
               state["var"].assign(tf.where(finite, new_var, var))]
    stats = {"norm": norm, "clipped_norm": norm * scale, "threshold": threshold,
             "clipped": norm > threshold, "z_score": tf.where(in_warmup, 0.0, z)}
    return out, assigns, stats


def zclip(z_thresh=2.5, alpha=0.97, warmup_steps=25, eps=1e-6, clip_option="adaptive_scaling",
          max_grad_norm=None, name="zclip"):
  """ZClip: clips global-norm spikes detected by a z-score against EMA statistics.

  Warm-up: the first `warmup_steps` norms are only recorded (no clipping); their mean and
  population variance start the statistics. Then, at step t with global norm g_t and the
  statistics mu, sigma^2 of the steps before:
  ``z_t = (g_t - mu) / (sigma + eps)``; if ``z_t > z_thresh`` (a spike) the gradients are
  scaled to the norm ``g*_t = mu + (z_thresh^2 / z_t) * sigma`` (the reciprocal rule: the
  larger the outlier the harder it is pulled back; ``clip_option="mean"`` clips to mu instead),
  otherwise ``g*_t = g_t`` and nothing changes. The statistics then follow the clipped norm:
  ``mu <- alpha mu + (1 - alpha) g*_t``, ``sigma^2 <- alpha sigma^2 + (1 - alpha)(g*_t - mu)^2``
  (with the updated mu), so a spike does not inflate them. `max_grad_norm`, if set, also caps
  every step (warm-up included) at a fixed norm, as the authors' code's option does. A
  non-finite norm leaves the statistics unchanged.

  Args:
    z_thresh: z-score above which a norm is a spike, > 0 (paper: 2.5).
    alpha: EMA smoothing factor in (0, 1) (paper: 0.97).
    warmup_steps: steps that only collect statistics, an int >= 1 (paper's code: 25).
    eps: added to sigma in the z-score, >= 0.
    clip_option: "adaptive_scaling" (the paper's reciprocal rule) or "mean".
    max_grad_norm: optional fixed cap (finite > 0) applied on top.
    name: name scope of the state variables and ops.

  Returns:
    A `ZClip` transform; its state is ``count``, ``mean`` and ``var`` (float32).

  Raises:
    TypeError: a numeric argument is not a number.
    ValueError: an argument out of range (named, in `tf1clip.validation`'s wording).

  References:
    Kumar, Owen, Roy Chowdhury, Güra. "ZClip: Adaptive Spike Mitigation for LLM
    Pre-Training". arXiv:2504.02507, 2025 (Algorithm 1; code: github.com/bluorion-com/ZClip).
  """
  z_thresh = float(validation.positive(z_thresh, "z_thresh", allow_tensor=False))
  alpha = float(validation.in_open_range(alpha, "alpha", 0.0, 1.0, allow_tensor=False))
  warmup_steps = validation.count(warmup_steps, "warmup_steps")
  eps = float(validation.non_negative(eps, "eps", allow_tensor=False))
  if clip_option not in ("adaptive_scaling", "mean"):
    raise ValueError("`clip_option` must be 'adaptive_scaling' or 'mean'; got %r."
                     % (clip_option,))
  if max_grad_norm is not None:
    max_grad_norm = float(validation.positive(max_grad_norm, "max_grad_norm",
                                              allow_tensor=False))
  return ZClip(z_thresh, alpha, warmup_steps, eps, clip_option, max_grad_norm, name=name)
