"""The gradient pipeline for TF2 code: transforms between ``GradientTape`` and a Keras optimizer.

``tf1clip.v2.WrappedOptimizer(keras_optimizer, transforms)`` is the eager / ``tf.function``
counterpart of the graph-mode ``tf1clip.WrappedOptimizer``: it runs the same transforms
(``tf1clip.transforms``, plain callables ``grads_and_vars -> grads_and_vars``) between the
gradients and the Keras optimizer's update. The Keras optimizer (Keras 3, or tf-keras' new
or legacy optimizers) keeps owning its slots, its ``iterations`` and its learning rate.

One step (``apply_gradients``)::

  [(g, v)] -> (tf.distribute: all-reduce SUM across replicas) -> transform 1 -> ... -> n
           -> (skip_non_finite: tf.cond(all finite)) -> keras_optimizer.apply(...)

Under ``tf.distribute`` the transforms run after the cross-replica reduction, on the
gradient of the global batch, so clipping sees the same numbers as on one device. Keras
itself clips per replica, before the reduction (its ``clipnorm`` / ``global_clipnorm``).

Place in the data flow (DESIGN.md): clipping <- transforms <- optimizer <- accumulation
<- **v2** <- cli.
"""

import inspect
import re
from typing import Any, Iterable, Optional, Sequence, Tuple, Union

import tensorflow as tf

from tf1clip import summaries as summaries_lib
from tf1clip import transforms as transforms_lib
from tf1clip import validation

KERAS = "keras"
TF_KERAS = "tf_keras"
TF_KERAS_LEGACY = "tf_keras_legacy"
WRAPPED = "tf1clip.v2"


def optimizer_kind(optimizer):
  """Says which optimizer API `optimizer` speaks.

  Args:
    optimizer: a Keras 3 optimizer (``keras.optimizers.Adam()``), a tf-keras one
      (``tf_keras.optimizers.Adam()`` or ``tf_keras.optimizers.legacy.Adam()``), or a
      `WrappedOptimizer`.

  Returns:
    One of ``"keras"``, ``"tf_keras"``, ``"tf_keras_legacy"``, ``"tf1clip.v2"``.

  Raises:
    TypeError: for a ``tf.compat.v1.train.Optimizer`` (graph mode: use
      ``tf1clip.WrappedOptimizer``, or map it with ``tf1clip.v2.keras_optimizer_like``) or
      anything else.
  """
  if isinstance(optimizer, WrappedOptimizer):
    return WRAPPED
  if isinstance(optimizer, tf.compat.v1.train.Optimizer):
    raise TypeError(
        "optimizer must be a Keras optimizer for tf1clip.v2; got the TF1 optimizer %s. "
        "In graph mode use tf1clip.WrappedOptimizer; to move to TF2, "
        "tf1clip.v2.keras_optimizer_like(optimizer) builds the Keras optimizer that takes the "
        "same steps." % type(optimizer).__name__)
  # Keras 3's BaseOptimizer is the one with a stateless API next to apply().
  if all(hasattr(optimizer, a) for a in ("apply", "stateless_apply", "apply_gradients")):
    return KERAS
  apply = getattr(optimizer, "apply_gradients", None)
  if callable(apply):
    params = inspect.signature(apply).parameters
    if "skip_gradients_aggregation" in params:
      return TF_KERAS
    if "experimental_aggregate_gradients" in params:
      return TF_KERAS_LEGACY
  raise TypeError(
      "optimizer must be a Keras optimizer (keras.optimizers.*, tf_keras.optimizers.*) or a "
      "tf1clip.v2 wrapper; got a %s: %r" % (type(optimizer).__name__, optimizer))


def tf_variable(var):
  """The ``tf.Variable`` behind `var` (a Keras 3 ``keras.Variable`` wraps one in ``.value``)."""
  if isinstance(var, tf.Variable):
    return var
  value = getattr(var, "value", None)
  if isinstance(value, tf.Variable):
    return value
  raise TypeError("expected a tf.Variable or a keras.Variable; got a %s: %r"
                  % (type(var).__name__, var))


def _module_name(name):
  # tf.Module names must be Python identifiers.
  name = re.sub(r"\W", "_", str(name))
  return name if re.match(r"[A-Za-z_]", name) else "_" + name


def distribution():
  """The tf.distribute.Strategy to reduce across, or None on one device.

  Raises:
    RuntimeError: when called in the cross-replica context of a strategy: gradients of
      one replica are only defined inside ``strategy.run``.
  """
  if not tf.distribute.has_strategy():
    return None
  if tf.distribute.in_cross_replica_context():
    raise RuntimeError(
        "tf1clip.v2 optimizers apply per-replica gradients: call apply_gradients/minimize "
        "inside strategy.run(...), as Keras' own optimizers require.")
  return tf.distribute.get_strategy()


def sum_duplicates(grad):
  """Sums the values of repeated indices of a ``tf.IndexedSlices`` (others pass through).

  Keras 3 and tf-keras square a sparse gradient's values row by row (Adam, Adagrad,
  RMSprop, Adadelta, Ftrl): an index repeated in one batch (a token seen twice) then adds
  g1^2 + g2^2 to Adam's v or Adagrad's accumulator instead of (g1 + g2)^2, unlike TF1 and
  unlike the dense gradient. Summing first makes the update the dense one.
  """
  if not isinstance(grad, tf.IndexedSlices):
    return grad
  unique, positions = tf.unique(grad.indices)
  values = tf.math.unsorted_segment_sum(grad.values, positions, tf.shape(unique)[0])
  return tf.IndexedSlices(values, unique, grad.dense_shape)


def _scale(grad, factor):
  if isinstance(grad, tf.IndexedSlices):
    return tf.IndexedSlices(grad.values * factor, grad.indices, grad.dense_shape)
  return grad * factor


class WrappedOptimizer(transforms_lib.Pipeline, tf.Module):
  """A Keras optimizer whose gradients pass through tf1clip transforms first.

  Same name as its TF1 (graph-mode) counterpart, different contract (eager / tf.function):
  docs/architecture.md, "The v1/v2 pairs".

  Works eagerly, inside ``tf.function`` and inside ``strategy.run`` (MirroredStrategy).

  Example::

    opt = tf1clip.v2.WrappedOptimizer(
        keras.optimizers.Adam(1e-3, epsilon=1e-8),
        transforms=[tf1clip.transforms.clip_by_global_norm(5.0)],
        skip_non_finite=True)

    @tf.function
    def train_step(x, y):
      return opt.minimize(lambda: loss_fn(model(x), y), model.trainable_variables)

  Subclasses (gradient accumulation) override `_pipeline`.
  """

  def __init__(self, optimizer: Any,
               transforms: Union[transforms_lib.Transform, Sequence[transforms_lib.Transform]] = (),
               skip_non_finite: bool = False, name: Optional[str] = None,
               summaries: Union[None, bool, str] = None) -> None:
    """Wraps `optimizer`.

    Args:
      optimizer: a Keras 3 or tf-keras optimizer, or another tf1clip.v2 wrapper.
      transforms: a transform (callable ``grads_and_vars -> grads_and_vars``) or a sequence
        of them, applied in order; ``tf1clip.transforms`` has the ready ones.
      skip_non_finite: if True, an update whose transformed gradients hold a NaN or Inf is
        skipped entirely (weights, slots and the Keras ``iterations`` stay as they are) and
        `skipped_steps` is incremented.
      name: the wrapper's name; defaults to the inner optimizer's.
      summaries: record the ``tf1clip/`` scalars with ``tf.summary`` (docs/observability.md):
        global norm before and after the transforms, clipped, clip rate, threshold, skipped
        steps. None (default): on when a default writer is set where the wrapper builds (its
        first step, or `build`) and there are transforms; False: off, no counters; True: on
        (records nothing without a writer); ``"per_variable"``: plus per-variable norms. The
        step is ``tf.summary.experimental.get_step()``, else the wrapper's own step count.

    Raises:
      TypeError: if `optimizer` is not a Keras optimizer or a transform is not callable.
      ValueError: if `summaries` is not None, a bool or ``"per_variable"``.
    """
    kind = optimizer_kind(optimizer)
    chain = transforms_lib.as_chain(transforms)
    summaries_lib.check_summaries(summaries)
    if name is not None:
      validation.string(name, "name")
    inner_name = getattr(optimizer, "name", None) or type(optimizer).__name__
    super().__init__(name=_module_name(name or inner_name))
    self._optimizer = optimizer
    self._kind = kind
    self._chain = chain
    self._skip_non_finite = bool(skip_non_finite)
    self._skipped_steps = None
    self._summaries = summaries
    self._recording = None  # decided, with the observer, where the transforms are built
    self._observer = None
    # Variables the transforms create in their build(): tracked here so tf.train.Checkpoint
    # saves them whatever object holds them.
    self._transform_variables = []
    self._transforms_built = False
    self._built = False

  # --- what the wrapper is ------------------------------------------------------------------

  @property
  def skipped_steps(self):
    """int64 tf.Variable counting skipped updates (None until built with skip_non_finite)."""
    return self._skipped_steps

  @property
  def iterations(self):
    """The Keras optimizer's update counter (advances once per applied update)."""
    return self._optimizer.iterations

  @property
  def learning_rate(self):
    """The inner optimizer's learning rate."""
    return self._optimizer.learning_rate

  @learning_rate.setter
  def learning_rate(self, value):
    self._optimizer.learning_rate = value

  @property
  def variables(self):
    """The inner optimizer's variables, then the wrapper's own state."""
    inner = self._optimizer.variables
    inner = list(inner() if callable(inner) else inner)
    return inner + self._own_variables()

  def _own_variables(self):
    own = [self._skipped_steps] if self._skipped_steps is not None else []
    return own + list(self._transform_variables)

  # --- building state -----------------------------------------------------------------------

  def build(self, var_list: Sequence[Any]) -> None:
    """Creates the inner optimizer's slots, the transforms' state (their build) and the wrapper's own.

    Called by the first `apply_gradients`; call it yourself under ``strategy.scope()``
    before ``strategy.run``, or to create slots for variables the first step does not reach.

    Args:
      var_list: the trainable variables (``tf.Variable`` or ``keras.Variable``).
    """
    var_list = list(var_list)
    with tf.init_scope():
      if self._kind == WRAPPED:
        self._optimizer.build(var_list)
      elif self._kind == KERAS:
        if not self._optimizer.built:
          self._optimizer.build(var_list)
      elif self._kind == TF_KERAS:
        if not getattr(self._optimizer, "_built", False):
          self._optimizer.build(var_list)
      else:
        self._optimizer._create_all_weights(var_list)  # pylint: disable=protected-access
      self._ensure_transforms_built(var_list)
      self._build_own(var_list)
    self._built = True

  def _build_transforms(self, var_list):
    """Runs the transforms' ``build`` eagerly, recording the variables they create."""
    created = []

    def record(next_creator, **kwargs):
      var = next_creator(**kwargs)
      created.append(var)
      return var

    with tf.init_scope(), tf.variable_creator_scope(record):
      if self._recording is None:
        self._recording = summaries_lib.enabled(self._summaries)
        self._observer = summaries_lib.observer_for(self._chain, self._summaries,
                                                    self.name + "_summaries")
      (self._observer or self._chain).build([tf_variable(v) for v in var_list])
    known = {v.ref() for v in self._transform_variables}
    self._transform_variables.extend(v for v in created if v.ref() not in known)
    self._transforms_built = True

  def _ensure_transforms_built(self, var_list):
    # Before the transforms first run (and before any tf.cond): a stateful transform's
    # variables must exist, created eagerly, before the first traced step uses them.
    if not self._transforms_built:
      self._build_transforms(var_list)

  def _build_own(self, var_list):
    """Creates the wrapper's own variables once (override to add more; must be idempotent)."""
    if self._skip_non_finite and self._skipped_steps is None:
      with _colocated(var_list[0]):
        self._skipped_steps = tf.Variable(0, dtype=tf.int64, trainable=False,
                                          name=self.name + "_skipped_steps")

  def _ensure_built(self, var_list):
    # Before any tf.cond: state created inside a branch of a tf.function would be wrong.
    if not self._built:
      self.build(var_list)

  # --- TF1-style entry points ---------------------------------------------------------------

  def compute_gradients(self, loss, var_list, tape=None, grad_loss=None):
    """Gradients of `loss` as TF1's ``compute_gradients`` returns them: ``[(g, v)]``.

    Args:
      loss: a callable with no arguments returning the loss, or a Tensor computed under
        `tape`.
      var_list: list of variables (or a callable returning it).
      tape: the ``tf.GradientTape`` that recorded `loss` (required for a Tensor loss).
      grad_loss: optional Tensor, the gradient to back-propagate from `loss`.

    Returns:
      A list of ``(gradient, variable)`` pairs; a variable the loss does not reach gets None.

    Raises:
      ValueError: a Tensor loss without a tape, or an empty `var_list`.
    """
    if callable(loss):
      with tf.GradientTape() as tape:
        if not callable(var_list):
          # As TF1's compute_gradients: non-trainable variables in var_list get gradients too.
          tape.watch([tf_variable(v) for v in var_list])
        loss_value = loss()
    else:
      if tape is None:
        raise ValueError("loss is a Tensor: pass the tf.GradientTape that computed it as "
                         "`tape`, or pass loss as a callable with no arguments.")
      loss_value = loss
    if callable(var_list):
      var_list = var_list()
    var_list = list(var_list)
    if not var_list:
      raise ValueError("No variables provided (var_list is empty).")
    grads = tape.gradient(loss_value, var_list, output_gradients=grad_loss)
    return list(zip(grads, var_list))

  def minimize(self, loss, var_list, tape=None):
    """`compute_gradients` then `apply_gradients`; returns the applied flag."""
    return self.apply_gradients(self.compute_gradients(loss, var_list, tape=tape))

  def apply(self, grads, trainable_variables):
    """Keras 3 spelling of `apply_gradients`: ``apply(grads, trainable_variables)``."""
    return self.apply_gradients(zip(grads, trainable_variables))

  def apply_gradients(self, grads_and_vars: Iterable[Tuple[Any, Any]],
                      name: Optional[str] = None) -> tf.Tensor:
    """Reduces across replicas, runs the transforms, and applies through the inner optimizer.

    Args:
      grads_and_vars: ``(gradient, variable)`` pairs; None gradients are left out of the
        update (the variable is not touched), ``tf.IndexedSlices`` stay sparse.
      name: optional name scope.

    Returns:
      A scalar bool Tensor: True when the inner optimizer applied an update.

    Raises:
      ValueError: an empty list, every gradient None, or a transform returned a malformed
        list (the message names the transform).
    """
    grads_and_vars = transforms_lib.check_gradients_provided(grads_and_vars)
    strategy = distribution()
    if strategy is not None and not self._built:
      raise RuntimeError(
          "Build the tf1clip.v2 optimizer before strategy.run: call "
          "optimizer.build(model.trainable_variables) under strategy.scope(), so that its "
          "state is mirrored across replicas.")
    with tf.name_scope(name or self.name):
      if strategy is None:
        return self._pipeline(grads_and_vars, None)
      return self._distributed(grads_and_vars, strategy)

  # --- the pipeline -------------------------------------------------------------------------

  def _distributed(self, grads_and_vars, strategy):
    """All-reduces in replica context, then runs the pipeline in cross-replica context.

    The pipeline holds a tf.cond around the inner update, and an update's own
    synchronisation (merge_call) cannot sit inside control flow of a replica function; so the
    condition is decided once, in cross-replica context, and the update runs back in
    replica context through ``strategy.run``.
    """
    ctx = tf.distribute.get_replica_context()
    present = [i for i, (g, _) in enumerate(grads_and_vars) if g is not None]
    reduced = ctx.all_reduce(tf.distribute.ReduceOp.SUM,
                             [grads_and_vars[i][0] for i in present])
    variables = [v for _, v in grads_and_vars]

    def cross_replica(strategy, reduced):
      grads = [None] * len(variables)
      for i, g in zip(present, reduced):
        grads[i] = strategy.experimental_local_results(g)[0]
      return self._pipeline(list(zip(grads, variables)), strategy)

    return ctx.merge_call(cross_replica, args=(reduced,))

  def _pipeline(self, grads_and_vars, strategy):
    """Transforms then (guarded) inner update; `strategy` is set in cross-replica context.

    Returns:
      A scalar bool Tensor, True when the update was applied.
    """
    self._ensure_transforms_built([v for _, v in grads_and_vars])
    grads_and_vars, guard_norm = self._transform_with_guard_norm(grads_and_vars)
    return self._guarded_apply(grads_and_vars, strategy, guard_norm)

  def _transform(self, grads_and_vars):
    """Runs the chain on (gradient, tf.Variable) pairs; returns the original variables."""
    return self._transform_with_guard_norm(grads_and_vars)[0]

  def _transform_with_guard_norm(self, grads_and_vars):
    """`_transform`, and the norm `all_finite` may use for its output (or None).

    The norm is the clip's when it is the chain's last member (`transforms.run_with_guard_norm`);
    the observer passes it on, so recording does not compute a second norm.
    """
    original = [v for _, v in grads_and_vars]
    pairs, guard_norm = transforms_lib.run_with_guard_norm(
        self._observer or self._chain, [(g, tf_variable(v)) for g, v in grads_and_vars])
    return [(g, v) for (g, _), v in zip(pairs, original)], guard_norm

  def _guarded_apply(self, grads_and_vars, strategy, guard_norm=None):
    """The inner update, under a tf.cond on `all_finite` when ``skip_non_finite``.

    `guard_norm` (from `_transform_with_guard_norm` on exactly these gradients, else None)
    decides the flag without a pass over the gradients (`transforms.all_finite`).
    """
    present = [(g, v) for g, v in grads_and_vars if g is not None]
    if not present:
      raise ValueError("No gradients left to apply after the transforms %s (every gradient is "
                       "None)." % [transforms_lib.transform_name(t) for t in self.transforms])
    self._ensure_built([v for _, v in present])  # variables frozen by a transform get no slots
    if not self._skip_non_finite:
      return self._apply_inner(present, strategy)

    def apply_fn():
      return self._apply_inner(present, strategy)

    def skip_fn():
      self._skipped_steps.assign_add(1)
      return tf.constant(False)

    applied = tf.cond(transforms_lib.all_finite(present, global_norm=guard_norm), apply_fn,
                      skip_fn)
    if self._recording and self._skipped_steps is not None:
      summaries_lib.record_skipped(self._skipped_steps, step=self._summary_step())
    return applied

  def _summary_step(self):
    """The step of the wrapper's own records when tf.summary has none: the observer's count
    of transformed steps, else the inner optimizer's applied updates."""
    if self._observer is not None and self._observer.state is not None:
      return self._observer.state["steps"].read_value()
    return tf.cast(tf.convert_to_tensor(tf_variable(self.iterations)), tf.int64)

  def _apply_inner(self, grads_and_vars, strategy):
    """Hands already-reduced gradients to the inner optimizer; returns its applied flag."""
    if self._kind == WRAPPED:
      return self._optimizer._pipeline(grads_and_vars, strategy)  # pylint: disable=protected-access
    if strategy is None:
      self._inner_update(grads_and_vars, 1)
      return tf.constant(True)
    grads = [g for g, _ in grads_and_vars]
    variables = [v for _, v in grads_and_vars]
    replicas = strategy.num_replicas_in_sync

    def replica_fn(*grads):
      self._inner_update(list(zip(grads, variables)), replicas)

    strategy.run(replica_fn, args=tuple(grads))
    return tf.constant(True)

  def _inner_update(self, grads_and_vars, replicas):
    """One inner update of gradients that are already summed across replicas."""
    grads_and_vars = [(sum_duplicates(g), v) for g, v in grads_and_vars]
    if self._kind == KERAS:
      # Keras 3 always all-reduces (SUM) in replica context; handing it 1/replicas of the
      # reduced gradient makes its sum the reduced gradient again (exact for 2 and 4).
      if replicas > 1:
        grads_and_vars = [(_scale(g, 1.0 / replicas), v) for g, v in grads_and_vars]
      self._optimizer.apply([g for g, _ in grads_and_vars], [v for _, v in grads_and_vars])
    elif self._kind == TF_KERAS:
      self._optimizer.apply_gradients(grads_and_vars, skip_gradients_aggregation=True)
    else:
      self._optimizer.apply_gradients(grads_and_vars, experimental_aggregate_gradients=False)


def _colocated(var):
  """Places new state next to `var` (with its strategy's colocation when distributed)."""
  if tf.distribute.has_strategy():
    return tf.distribute.get_strategy().extended.colocate_vars_with(var)
  return tf.device(tf_variable(var).device)


def clip_gradients_by_norm(optimizer: Any, clip_norm: Any, name: Optional[str] = None,
                           summaries: Union[None, bool, str] = None, *,
                           repeated_rows: str = "summed") -> WrappedOptimizer:
  """Returns a Keras optimizer wrapper that clips gradients by their global norm first.

  The TF2 counterpart of ``tf1clip.clip_gradients_by_norm`` (``tf.contrib.estimator``'s):
  all gradients are scaled together so that their global norm is at most `clip_norm`
  (``tf.clip_by_global_norm``), after the cross-replica reduction when distributed.

  Args:
    optimizer: a Keras 3 or tf-keras optimizer.
    clip_norm: a positive number or scalar Tensor.
    name: the wrapper's name; defaults to ``"ClipByNorm" + inner name``.
    summaries: record the ``tf1clip/`` scalars; see `WrappedOptimizer` (default: on under a
      default ``tf.summary`` writer).
    repeated_rows: as ``tf1clip.clip_gradients_by_norm``'s ("summed", or "as_listed": TF 1.15's norm of a
      sparse gradient's rows as listed, what `upgrade --stage 2` writes).

  Returns:
    A `WrappedOptimizer`.

  Raises:
    TypeError: `optimizer` is not a Keras optimizer.
    ValueError: `clip_norm` is a number <= 0.

  References:
    Pascanu, Mikolov, Bengio, "On the difficulty of training recurrent neural networks",
    ICML 2013 (arXiv:1211.5063).
  """
  optimizer_kind(optimizer)
  inner_name = getattr(optimizer, "name", None) or type(optimizer).__name__
  return WrappedOptimizer(optimizer, [transforms_lib.clip_by_global_norm(clip_norm, repeated_rows=repeated_rows)],
                          name=name or "ClipByNorm" + str(inner_name), summaries=summaries)
