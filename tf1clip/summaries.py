"""Recording what the gradient pipeline does: norms, clipping, skipped steps, accumulation.

`observe(transform)` wraps a (clipping) transform into one that also writes scalar summaries,
all under the name scope ``tf1clip/`` (`SCOPE`):

==================================  =========================================================
tag                                 value
==================================  =========================================================
``tf1clip/global_norm``             global norm of the gradients before the transform
``tf1clip/clipped_global_norm``     global norm after it
``tf1clip/clipped``                 1.0 when this step was scaled down, else 0.0
``tf1clip/clip_rate``               clipped steps / observed steps since the start (running)
``tf1clip/clip_threshold``          the norm the step was clipped to (clip_by_global_norm's
                                    clip_norm, an adaptive transform's threshold; only
                                    written when the transform reports one)
``tf1clip/norm/<variable>``         per-variable gradient norm (opt-in: per_variable_norms)
``tf1clip/skipped_steps``           updates skipped for non-finite gradients (`record_skipped`)
``tf1clip/accumulation/micro_step`` micro-batches in the current window (`record_accumulation`)
``tf1clip/accumulation/window_fill`` micro_step / window size
==================================  =========================================================

Where they go: in graph mode, ``tf.compat.v1.summary.scalar`` ops in the ``SUMMARIES``
collection (``tf.compat.v1.summary.merge_all()``, ``MonitoredTrainingSession`` and estimators
pick them up; TF1 adds ``_1`` to a tag created twice in one graph). In TF2 (eagerly or in
``tf.function``), ``tf.summary.scalar`` to the default writer (nothing is written without
one), at ``tf.summary.experimental.get_step()`` or, when none is set, the observer's own step
count. The observer's counters are state made by ``build`` (checkpointed like any transform
state), so the clip rate survives a restart.

Cost: the norm before clipping is the one the clipping computes anyway when the wrapped
transform reports it (``with_stats``: `tf1clip.adaptive`'s transforms and
``transforms.clip_by_global_norm`` do); otherwise one more
global norm before and one after. benchmarks/summary_overhead.py measures the step time with
and without recording.

Place in the data flow (DESIGN.md): clipping <- transforms <- **summaries** <- optimizer
(the wrappers call `observe`, `record_skipped`, `record_accumulation`).
"""

import contextlib
import threading

import numpy as np
import tensorflow as tf

from tf1clip import adaptive
from tf1clip import clipping
from tf1clip import transforms as transforms_lib

SCOPE = "tf1clip"

TAGS = {
    "global_norm": SCOPE + "/global_norm",
    "clipped_global_norm": SCOPE + "/clipped_global_norm",
    "clipped": SCOPE + "/clipped",
    "clip_rate": SCOPE + "/clip_rate",
    "clip_threshold": SCOPE + "/clip_threshold",
    "variable_norm": SCOPE + "/norm/",
    "skipped_steps": SCOPE + "/skipped_steps",
    "micro_step": SCOPE + "/accumulation/micro_step",
    "window_fill": SCOPE + "/accumulation/window_fill",
}

# A transform that only rounds its input differently is not "clipping": a step counts as
# clipped when the norm went down by more than this fraction.
_CLIPPED_FRACTION = 1e-6


_STATE_ONLY = threading.local()


@contextlib.contextmanager
def reading_state_only():
  """Within it, graph-mode summaries never read the gradients, only variables.

  For gradients that a fetch must not recompute: `tf1clip.replicas.SyncReplicasOptimizer` hands
  its inner optimizer gradients taken from the chief's accumulators, and a summary fetched by a
  hook would take again (a deadlock). Inside, the default (``summaries=None``) observes nothing
  and an observer with counters writes its state (the last step's values).
  """
  previous = getattr(_STATE_ONLY, "on", False)
  _STATE_ONLY.on = True
  try:
    yield
  finally:
    _STATE_ONLY.on = previous


def _state_only():
  return getattr(_STATE_ONLY, "on", False) and _graph_mode()


def _graph_mode():
  return not tf.compat.v1.executing_eagerly_outside_functions()


def _in_control_flow():
  graph = tf.compat.v1.get_default_graph()
  return bool(getattr(graph, "building_function", False)) or (
      graph._get_control_flow_context() is not None)  # pylint: disable=protected-access


def _tag_name(tag):
  # Summaries are written inside `with tf.name_scope(SCOPE)`; the tag's last part is the name.
  return tag[len(SCOPE) + 1:]


def write_scalars(values, step=None):
  """Writes scalar summaries under ``tf1clip/``, in whichever world we are in.

  Args:
    values: dict tag (a `TAGS` value, or any ``tf1clip/...`` name) -> scalar tensor.
    step: TF2 only: the step when ``tf.summary.experimental.get_step()`` is None; without
      either nothing is written.

  Returns:
    Graph mode: the list of summary ops (also in the ``SUMMARIES`` collection). TF2: None.
  """
  if _graph_mode():
    ops = []
    # An absolute scope ("tf1clip/"), so a wrapper inside "OptimizeLoss/" still writes
    # "tf1clip/global_norm".
    with tf.compat.v1.name_scope(SCOPE + "/"):
      for tag, value in values.items():
        ops.append(tf.compat.v1.summary.scalar(_tag_name(tag), tf.cast(value, tf.float32)))
    return ops
  if tf.summary.experimental.get_step() is None:
    if step is None:
      return None
  else:
    step = None
  with tf.name_scope(SCOPE + "/"):  # absolute, as in graph mode
    for tag, value in values.items():
      tf.summary.scalar(_tag_name(tag), tf.cast(value, tf.float32), step=step)
  return None


class Observed(adaptive.StatefulTransform):
  """A transform that records norms and clipping around another one. See `observe`."""

  def __init__(self, transform, per_variable_norms, name, counters=True):
    super().__init__(name)
    self.transform = transform
    self.per_variable_norms = per_variable_norms
    # Without counters the observer has no state (no variable, checkpoints unchanged): it
    # writes this step's norms and clipped flag only, and nothing from inside control flow.
    self.counters = counters
    self.__name__ = "observe(%s)" % (
        "None" if transform is None else transforms_lib.transform_name(transform))

  def _state_spec(self):
    if not self.counters:
      return []
    return [("steps", np.zeros([], np.int64)), ("clipped_steps", np.zeros([], np.int64)),
            ("last_norm", np.zeros([], np.float32)),
            ("last_clipped_norm", np.zeros([], np.float32)),
            ("last_clipped", np.zeros([], np.float32))]

  def build(self, var_list):
    """Builds the wrapped transform's state and the observer's counters (see `adaptive`)."""
    if self.transform is not None and hasattr(self.transform, "build"):
      self.transform.build(var_list)
    return super().build(var_list)

  def _transform(self, grads_and_vars, state):
    inner = self.transform
    stats = {}
    if inner is None:
      out = list(grads_and_vars)
      norm = clipping.global_norm([g for g, _ in out])
      stats = {"norm": norm, "clipped_norm": norm, "clipped": tf.constant(False)}
    elif callable(getattr(inner, "with_stats", None)) and getattr(inner, "reports_stats", True):
      # A chain reports only when one of its members does (a clipping transform).
      out, stats = inner.with_stats(grads_and_vars)
      out = transforms_lib.check_transform_result(inner, grads_and_vars, out)
      if stats is None:  # no gradient reached the reporting member
        norm = clipping.global_norm([g for g, _ in out if g is not None] or [tf.zeros([])])
        stats = {"norm": norm, "clipped_norm": norm, "clipped": tf.constant(False)}
    else:
      norm = clipping.global_norm([g for g, _ in grads_and_vars])
      out = transforms_lib.check_transform_result(inner, grads_and_vars,
                                                  inner(list(grads_and_vars)))
      after = clipping.global_norm([g for g, _ in out])
      stats = {"norm": norm, "clipped_norm": after,
               "clipped": after < norm * (1.0 - _CLIPPED_FRACTION)}
    norm = tf.cast(stats["norm"], tf.float32)
    clipped_norm = tf.cast(stats["clipped_norm"], tf.float32)
    clipped = tf.cast(stats["clipped"], tf.float32)
    if not self.counters:
      return out, [], self._write_stateless(grads_and_vars, stats, norm, clipped_norm, clipped)
    steps = state["steps"].read_value() + 1
    clipped_steps = state["clipped_steps"].read_value() + tf.cast(stats["clipped"], tf.int64)
    assigns = [state["steps"].assign(steps), state["clipped_steps"].assign(clipped_steps),
               state["last_norm"].assign(norm),
               state["last_clipped_norm"].assign(clipped_norm),
               state["last_clipped"].assign(clipped)]
    values = {TAGS["global_norm"]: norm, TAGS["clipped_global_norm"]: clipped_norm,
              TAGS["clipped"]: clipped,
              TAGS["clip_rate"]: tf.cast(clipped_steps, tf.float32) / tf.cast(steps,
                                                                               tf.float32)}
    threshold = stats.get("threshold")
    if threshold is not None:
      # An unlimited step (inf) is not drawn: the report marks thresholds where they applied.
      values[TAGS["clip_threshold"]] = tf.where(tf.math.is_finite(threshold),
                                                tf.cast(threshold, tf.float32),
                                                clipped_norm)
    if self.per_variable_norms:
      for g, v in grads_and_vars:
        if g is not None:
          values[TAGS["variable_norm"] + transforms_lib.variable_name(v)] = (
              clipping.global_norm([g]))
    if _graph_mode() and (_in_control_flow() or _state_only()):
      # Inside a tf.cond (skip_non_finite) a summary op could not be fetched: write, outside
      # it, the state this step leaves behind (read when the summaries run).
      with tf.init_scope():
        self._write_from_state(state)
    else:
      # No control dependency on the assignments: the values are this step's tensors already,
      # and fetching merge_all() alone must not count a step.
      write_scalars(values, step=steps)
    return out, assigns, stats

  def _write_stateless(self, grads_and_vars, stats, norm, clipped_norm, clipped):
    if _graph_mode() and (_in_control_flow() or _state_only()):
      return stats  # a summary op in a cond branch could not be fetched
    values = {TAGS["global_norm"]: norm, TAGS["clipped_global_norm"]: clipped_norm,
              TAGS["clipped"]: clipped}
    threshold = stats.get("threshold")
    if threshold is not None:
      values[TAGS["clip_threshold"]] = tf.where(tf.math.is_finite(threshold),
                                                tf.cast(threshold, tf.float32), clipped_norm)
    if self.per_variable_norms:
      for g, v in grads_and_vars:
        if g is not None:
          values[TAGS["variable_norm"] + transforms_lib.variable_name(v)] = (
              clipping.global_norm([g]))
    write_scalars(values)
    return stats

  def _write_from_state(self, state):
    if getattr(self, "_wrote_from_state", None) is tf.compat.v1.get_default_graph():
      return
    self._wrote_from_state = tf.compat.v1.get_default_graph()
    steps = tf.cast(state["steps"].read_value(), tf.float32)
    write_scalars({
        TAGS["global_norm"]: state["last_norm"].read_value(),
        TAGS["clipped_global_norm"]: state["last_clipped_norm"].read_value(),
        TAGS["clipped"]: state["last_clipped"].read_value(),
        TAGS["clip_rate"]: tf.cast(state["clipped_steps"].read_value(), tf.float32)
                           / tf.maximum(steps, 1.0)})


def observe(transform=None, per_variable_norms=False, name="tf1clip_observe"):
  """Wraps a transform so that each step records its norms and clipping (``tf1clip/`` tags).

  Example::

    clip = tf1clip.summaries.observe(tf1clip.adaptive.autoclip(10.0))
    opt = tf1clip.WrappedOptimizer(tf.compat.v1.train.AdamOptimizer(1e-3), [clip])
    merged = tf.compat.v1.summary.merge_all()   # holds tf1clip/global_norm, ...

  Args:
    transform: the transform to observe (typically a clipping one), or None to record the
      norm only. A transform with ``with_stats`` (tf1clip.adaptive) reports its own norm and
      threshold, so nothing is computed twice; any other is measured before and after.
    per_variable_norms: also record ``tf1clip/norm/<variable>`` for every gradient.
    name: name scope of the observer's state (its step and clipped-step counters).

  Returns:
    An `Observed` transform: callable, with ``build(var_list)`` (builds the wrapped
    transform's state too) and ``with_stats``.

  Raises:
    TypeError: `transform` is not callable.
  """
  if transform is not None and not callable(transform):
    raise TypeError("observe() expects a transform (callable grads_and_vars -> "
                    "grads_and_vars) or None; got a %s: %r" % (type(transform).__name__,
                                                               transform))
  return Observed(transform, bool(per_variable_norms), name)


def record_skipped(skipped_steps, step=None):
  """Records the number of updates skipped for non-finite gradients (``tf1clip/skipped_steps``).

  Wrappers with ``skip_non_finite=True`` call it with their skip counter, outside any
  ``tf.cond``.

  Args:
    skipped_steps: scalar tensor or variable, the running count.
    step: TF2 only: the step if ``tf.summary.experimental.get_step()`` is unset.

  Returns:
    Graph mode: the summary ops. TF2: None.
  """
  value = skipped_steps.read_value() if hasattr(skipped_steps, "read_value") else skipped_steps
  return write_scalars({TAGS["skipped_steps"]: value}, step=step)


def record_accumulation(micro_step, num_micro_batches, step=None):
  """Records the accumulation window's progress (``tf1clip/accumulation/*``).

  Args:
    micro_step: scalar tensor or variable, micro-batches accumulated in the current window.
    num_micro_batches: the window size (int > 0).
    step: TF2 only: the step if ``tf.summary.experimental.get_step()`` is unset.

  Returns:
    Graph mode: the summary ops. TF2: None.

  Raises:
    ValueError: `num_micro_batches` is not a positive int.
  """
  if isinstance(num_micro_batches, bool) or not isinstance(num_micro_batches, int) or (
      num_micro_batches < 1):
    raise ValueError("num_micro_batches must be an int >= 1; got %r" % (num_micro_batches,))
  value = micro_step.read_value() if hasattr(micro_step, "read_value") else micro_step
  value = tf.cast(value, tf.float32)
  return write_scalars({TAGS["micro_step"]: value,
                        TAGS["window_fill"]: value / float(num_micro_batches)}, step=step)


# --- the wrappers' switch ---------------------------------------------------------------------

PER_VARIABLE = "per_variable"


def recording_clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
  """`tf.compat.v1.clip_by_global_norm` that also writes its norm, threshold and clipped flag (graph mode).

  Served as a legacy script's `tf.clip_by_global_norm` by `tf1clip run --record-clipping`
  (TF1CLIP_RECORD_CLIPPING=1), so a script that clips the TF1 way gets a `tf1clip report` without an edit:
  ``tf1clip/global_norm`` (the norm it measured, or `use_norm`), ``tf1clip/clipped_global_norm``,
  ``tf1clip/clipped`` and ``tf1clip/clip_threshold``, in the ``SUMMARIES`` collection the script's
  ``merge_all()`` fetches. The returned values are TF's own, unchanged. Inside a ``tf.cond`` or
  ``tf.while_loop`` nothing is recorded (a summary op there could not be fetched).
  """
  clipped_list, norm = tf.compat.v1.clip_by_global_norm(t_list, clip_norm, use_norm=use_norm, name=name)
  if _graph_mode() and not _in_control_flow():
    norm_f = tf.cast(norm, tf.float32)
    threshold = tf.cast(clip_norm, tf.float32)
    write_scalars({TAGS["global_norm"]: norm_f,
                   TAGS["clipped_global_norm"]: tf.minimum(norm_f, threshold),
                   TAGS["clipped"]: tf.cast(norm_f > threshold, tf.float32),
                   TAGS["clip_threshold"]: threshold})
  return clipped_list, norm


def check_summaries(summaries, arg="summaries"):
  """Checks a wrapper's ``summaries=`` argument: None, True, False or ``"per_variable"``.

  Args:
    summaries: the value given.
    arg: the argument's name, for the message.

  Returns:
    `summaries` unchanged.

  Raises:
    ValueError: any other value.
  """
  if summaries is None or isinstance(summaries, bool) or summaries == PER_VARIABLE:
    return summaries
  raise ValueError("`%s` must be None (default: record where summaries are written), True, "
                   "False or %r; got %r." % (arg, PER_VARIABLE, summaries))


def enabled(summaries):
  """Whether a wrapper with this ``summaries=`` records, decided where its state is built.

  None (the default) means: in graph mode yes (the ops only land in the ``SUMMARIES``
  collection and cost nothing unless fetched); in TF2 only when a default writer is set
  (``with writer.as_default():`` around the first step) and recording is on.

  Args:
    summaries: None, True, False or ``"per_variable"`` (see `check_summaries`).

  Returns:
    bool.
  """
  if summaries is None:
    if _graph_mode():
      return not _state_only()
    with tf.init_scope():
      return bool(tf.summary.should_record_summaries())
  return bool(summaries)


def observer_for(chain, summaries, name):
  """The `Observed` transform a wrapper runs instead of its chain, or None not to observe.

  With the default (None) an empty chain is not observed (no norm computed that nobody asked
  for, and a wrapper nested in another one does not write the norms twice), nor one that
  holds an `observe(...)` of the user's; in graph mode the default observer has no counters
  (no variable is added, so checkpoints are unchanged; no ``clip_rate``, and nothing is
  written from inside control flow such as an accumulation window's ``tf.cond``). True or
  ``"per_variable"`` observe with counters, even an empty chain (the norm only).

  Args:
    chain: the wrapper's `tf1clip.transforms.Chain`.
    summaries: the wrapper's ``summaries=`` value.
    name: name scope of the observer's counters.

  Returns:
    An `Observed` wrapping `chain`, or None.
  """
  if not enabled(summaries):
    return None
  if summaries is None and (not len(chain) or any(isinstance(t, Observed)
                                                 for t in chain.transforms)):
    return None  # nothing to observe, or the user observes already (tags written once)
  # Graph mode's default adds no variable: a checkpoint written before (or without) the
  # wrapper's recording still restores with tf.compat.v1.train.Saver.
  counters = not (summaries is None and _graph_mode())
  return Observed(chain if len(chain) else None, summaries == PER_VARIABLE, name,
                  counters=counters)
