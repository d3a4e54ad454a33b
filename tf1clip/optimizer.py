"""The wrapper Optimizer that runs gradient transforms between compute and apply.

``WrappedOptimizer(inner, transforms)`` is a ``tf.compat.v1.train.Optimizer``: its
``compute_gradients`` is the inner optimizer's, its ``apply_gradients`` runs the transforms
(``tf1clip.transforms``) in order and then calls the inner optimizer's ``apply_gradients``.
The inner optimizer therefore keeps owning every slot and non-slot variable under its own
names, so checkpoints written with or without the wrapper are interchangeable, and wrappers
nest. ``clip_gradients_by_norm`` is ``tf.contrib.estimator.clip_gradients_by_norm``.

Place in the data flow (DESIGN.md): clipping <- transforms <- **optimizer** <- accumulation.

One training step::

  loss -> inner.compute_gradients -> [(g, v)] -> transform 1 -> ... -> transform n
       -> (skip_non_finite: tf.cond(all finite)) -> inner.apply_gradients

Global step policy of the non-finite guard: a skipped update does not increment
``global_step`` (it is incremented by the inner ``apply_gradients``, which does not run),
exactly as ``tf.compat.v1.train.experimental.MixedPrecisionLossScaleOptimizer`` and
``tf.contrib.mixed_precision.LossScaleOptimizer`` behave. The skipped steps are counted in
``WrappedOptimizer.skipped_steps``.
"""

from typing import Any, Iterable, Optional, Sequence, Tuple, Union

import numpy as np
import tensorflow as tf

from tf1clip import _graph
from tf1clip import summaries as summaries_lib
from tf1clip import transforms as transforms_lib
from tf1clip import validation

_Optimizer = tf.compat.v1.train.Optimizer

Transform = transforms_lib.Transform


def check_optimizer(optimizer: Any, arg: str = "optimizer") -> None:
  """Raises TypeError unless `optimizer` is a ``tf.compat.v1.train.Optimizer`` (wrappers included)."""
  if not isinstance(optimizer, _Optimizer):
    raise TypeError(
        "`%s` must be a tf.compat.v1.train.Optimizer (e.g. tf.compat.v1.train.AdamOptimizer); "
        "got a %s: %r" % (arg, type(optimizer).__name__, optimizer))


class WrappedOptimizer(transforms_lib.Pipeline, _Optimizer):
  """An Optimizer that transforms the gradients before the inner optimizer applies them.

  Same name as its tf1clip.v2 counterpart, different contract (graph mode vs eager):
  docs/architecture.md, "The v1/v2 pairs".

  Example::

    opt = tf1clip.WrappedOptimizer(
        tf.compat.v1.train.AdamOptimizer(1e-3),
        transforms=[tf1clip.transforms.clip_by_global_norm(5.0)],
        skip_non_finite=True)
    train_op = opt.minimize(loss, global_step=global_step)

  Subclasses (gradient accumulation) build on `_transform`, `_apply_inner` and
  `_apply_inner_if_finite`.
  """

  def __init__(self, optimizer: _Optimizer,
               transforms: Union[Transform, Sequence[Transform]] = (),
               skip_non_finite: bool = False, name: Optional[str] = None,
               summaries: Union[None, bool, str] = None) -> None:
    """Wraps `optimizer`.

    Args:
      optimizer: the inner ``tf.compat.v1.train.Optimizer``; it owns slots and names.
      transforms: a transform (callable ``grads_and_vars -> grads_and_vars``) or a sequence
        of them, applied in order.
      skip_non_finite: if True, an update whose (transformed) gradients contain NaN or Inf is
        skipped entirely: weights, slots, the inner optimizer's counters (Adam's beta powers)
        and ``global_step`` stay as they are, and `skipped_steps` is incremented.
      name: the wrapper's name (`get_name()`); defaults to the inner optimizer's. Ops and
        variables of the update keep the inner optimizer's names either way.
      summaries: record the ``tf1clip/`` scalars (docs/observability.md): the global norm
        before and after the transforms, whether this step clipped, the clip rate, the
        threshold, and the skipped steps. None (default): on in graph mode, where the ops only
        join the ``SUMMARIES`` collection (``merge_all``, ``MonitoredTrainingSession`` and
        estimators fetch them; unfetched they cost nothing), if there are transforms to
        observe; eagerly, only under a default ``tf.summary`` writer. False: record nothing,
        create no counters. True: on (an empty chain records its norm). ``"per_variable"``:
        True plus ``tf1clip/norm/<variable>``.

    Raises:
      TypeError: if `optimizer` is not an Optimizer or a transform is not callable.
      ValueError: if `summaries` is not None, a bool or ``"per_variable"``.
    """
    check_optimizer(optimizer)
    self._chain = transforms_lib.as_chain(transforms)
    self._summaries = summaries_lib.check_summaries(summaries)
    self._recording = None  # decided, with the observer, where the transforms are built
    self._observer = None
    self._recorded_graphs = set()  # graphs (non-slot keys) whose counters are recorded
    if name is not None:
      validation.string(name, "name")
    super().__init__(use_locking=optimizer._use_locking,  # pylint: disable=protected-access
                     name=name or optimizer.get_name())
    self._optimizer = optimizer
    self._skip_non_finite = bool(skip_non_finite)
    self._track_trackable(optimizer, "base_optimizer")

  @property
  def skipped_steps(self):
    """int64 variable counting updates skipped for non-finite gradients (current graph).

    None until `apply_gradients` has been built with ``skip_non_finite=True``. It is a
    non-trainable variable in GLOBAL_VARIABLES, so ``tf.compat.v1.train.Saver`` saves it.
    """
    return self._get_non_slot_variable(self._skip_counter_name, _graph.non_slot_key())

  @property
  def _skip_counter_name(self):
    return self._name + "_skipped_steps"

  # --- the pipeline -------------------------------------------------------------------------

  def compute_gradients(self, loss, var_list=None, gate_gradients=_Optimizer.GATE_OP,
                        aggregation_method=None, colocate_gradients_with_ops=False,
                        grad_loss=None):
    """The inner optimizer's ``compute_gradients`` (see ``tf.compat.v1.train.Optimizer``)."""
    return self._optimizer.compute_gradients(
        loss, var_list=var_list, gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)

  def apply_gradients(self, grads_and_vars: Iterable[Tuple[Any, Any]], global_step: Any = None,
                      name: Optional[str] = None) -> tf.Operation:
    """Runs the transforms, then the inner optimizer's ``apply_gradients``.

    Args:
      grads_and_vars: list (or iterator) of ``(gradient, variable)`` pairs, as
        `compute_gradients` returns.
      global_step: optional variable, incremented by one when the update is applied.
      name: optional name for the inner optimizer's update op.

    Returns:
      An Operation that applies the transformed gradients (when ``skip_non_finite``, that
      applies them only if all are finite and otherwise increments `skipped_steps`).

    Raises:
      ValueError: if `grads_and_vars` is empty, every gradient is None, or a transform
        returned a malformed list (the message names the transform).
    """
    grads_and_vars = transforms_lib.check_gradients_provided(grads_and_vars)
    self._build_transforms([v for _, v in grads_and_vars])
    grads_and_vars, guard_norm = self._run_chain_with_guard_norm(grads_and_vars)
    return self._apply_inner(grads_and_vars, global_step, name, guard_norm)

  def _build_transforms(self, var_list):
    """Creates the transforms' state (their ``build``), out of any control flow being built."""
    with tf.init_scope():
      if self._recording is None:
        self._recording = summaries_lib.enabled(self._summaries)
        self._observer = summaries_lib.observer_for(self._chain, self._summaries,
                                                    self._name + "_summaries")
      (self._observer or self._chain).build(var_list)

  def _run_chain(self, grads_and_vars):
    """The transforms (observed when recording): what every step runs on its gradients."""
    return self._run_chain_with_guard_norm(grads_and_vars)[0]

  def _run_chain_with_guard_norm(self, grads_and_vars):
    """`_run_chain`, and the norm `all_finite` may use for its output (or None).

    The norm is the clip's when it is the chain's last member (`transforms.run_with_guard_norm`);
    the observer passes it on, so recording does not compute a second norm.
    """
    return transforms_lib.run_with_guard_norm(self._observer or self._chain, grads_and_vars)

  def _record_once(self, record):
    """Calls `record()` (a summaries.record_* call) once per graph, out of control flow."""
    key = _graph.non_slot_key()
    if self._recording and key not in self._recorded_graphs:
      self._recorded_graphs.add(key)
      with tf.init_scope():
        record()

  def _apply_inner(self, grads_and_vars, global_step=None, name=None, guard_norm=None):
    """The inner ``apply_gradients``, guarded by `all_finite` when ``skip_non_finite``."""
    if not self._skip_non_finite:
      return self._optimizer.apply_gradients(grads_and_vars, global_step=global_step,
                                             name=name)
    with _graph.replacing_train_ops() as train_ops:
      applied = self._apply_inner_if_finite(grads_and_vars, global_step, name, guard_norm)
      if tf.executing_eagerly():
        return applied
      op = tf.group(applied, name=(name or self._name) + "_if_finite")
      train_ops.append(op)
    return op

  def _apply_inner_if_finite(self, grads_and_vars, global_step=None, name=None,
                             guard_norm=None):
    """Applies through the inner optimizer only when every gradient is finite.

    `guard_norm` (from `_run_chain_with_guard_norm` on exactly these gradients, else None)
    decides the flag without a pass over the gradients (`transforms.all_finite`).

    Returns:
      A scalar bool Tensor: True when the update was applied, False when it was skipped (and
      `skipped_steps` incremented).
    """
    counter = self._skip_counter(global_step if global_step is not None
                                 else grads_and_vars[0][1])
    self._record_once(lambda: summaries_lib.record_skipped(counter))
    finite = transforms_lib.all_finite(grads_and_vars, global_norm=guard_norm)
    caller_scope = tf.compat.v1.get_default_graph().get_name_scope()

    def apply_fn():
      with _graph.absolute_name_scope(caller_scope):
        update = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step,
                                                 name=name)
      with tf.control_dependencies([update]):
        return tf.constant(True)

    def skip_fn():
      with tf.control_dependencies([tf.compat.v1.assign_add(counter, 1)]):
        return tf.constant(False)

    # A lowered cond (per-input Switch ops), measured faster per step at 2000 variables than an
    # unlowered functional If, whose branch runs as a function call (docs/benchmarks.md, scaling).
    return tf.cond(finite, apply_fn, skip_fn, name="apply_if_finite")

  def _skip_counter(self, colocate_with):
    # A non-slot variable of this wrapper: the base Optimizer keeps one per graph, restores and
    # checkpoints it (tf.train.Checkpoint) under its name.
    with tf.init_scope():
      return self._create_non_slot_variable(np.int64(0), self._skip_counter_name, colocate_with)

  # --- delegation: the inner optimizer owns slots and update rules -----------------------------

  def get_slot(self, var, name):
    return self._optimizer.get_slot(var, name)

  def get_slot_names(self):
    return self._optimizer.get_slot_names()

  def variables(self):
    """The inner optimizer's variables, then this wrapper's own (non-slot) state, in creation order."""
    key = _graph.non_slot_key()
    own = [v for (_, graph), v in self._non_slot_dict.items() if graph is key]
    return self._optimizer.variables() + own


def clip_gradients_by_norm(optimizer: _Optimizer, clip_norm: Any,
                           name: Optional[str] = None,
                           summaries: Union[None, bool, str] = None, *,
                           repeated_rows: str = "summed") -> WrappedOptimizer:
  """Returns an optimizer that clips gradients by their global norm before applying them.

  ``tf.contrib.estimator.clip_gradients_by_norm``: all gradients are scaled together so
  that their global norm is at most `clip_norm` (``tf.clip_by_global_norm``), then the inner
  optimizer applies them. Sparse gradients stay sparse.

  Example::

    optimizer = tf1clip.clip_gradients_by_norm(
        tf.compat.v1.train.ProximalAdagradOptimizer(0.1), clip_norm=5.0)

  Args:
    optimizer: a ``tf.compat.v1.train.Optimizer``.
    clip_norm: a positive number or scalar Tensor.
    name: the wrapper's name; defaults to ``"ClipByNorm" + optimizer.get_name()``.
    summaries: record the ``tf1clip/`` scalars (global norm before and after, clipped,
      clip rate, threshold); see `WrappedOptimizer`. Default: on in graph mode (estimators
      write them with their other summaries).
    repeated_rows: "summed" (default: a sparse gradient's repeated rows are summed, so the norm is that of
      the gradient applied) or "as_listed" (each listed row counted, TF 1.15's numbers: what
      ``tf.contrib.estimator.clip_gradients_by_norm`` gave, and what ``tf1clip upgrade --stage 2`` writes).

  Returns:
    A `WrappedOptimizer`.

  Raises:
    TypeError: if `optimizer` is not an Optimizer.
    ValueError: if `clip_norm` is a number <= 0, `summaries` is not None, a bool or
      ``"per_variable"``, or `repeated_rows` is neither "summed" nor "as_listed".

  References:
    Pascanu, Mikolov, Bengio, "On the difficulty of training recurrent neural networks",
    ICML 2013 (arXiv:1211.5063).
  """
  check_optimizer(optimizer)
  return WrappedOptimizer(optimizer, [transforms_lib.clip_by_global_norm(clip_norm, repeated_rows=repeated_rows)],
                          name=name or "ClipByNorm" + optimizer.get_name(), summaries=summaries)
