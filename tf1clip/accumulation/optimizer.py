"""GradientAccumulationOptimizer: n micro-batches, one `sess.run` each, one exact update.

The in-graph recipe for "the convergence of a batch n times larger than fits on my device":
``train_op = opt.minimize(loss, global_step)`` and one ``sess.run(train_op, feed)`` per
micro-batch. Each run adds the micro-batch's gradients to accumulators
(`tf1clip.accumulation.accumulators`); every n-th run a ``tf.cond`` applies their mean through
the inner optimizer (transforms and the non-finite guard of `tf1clip.WrappedOptimizer`
included) and resets them. With equal micro-batch sizes and a mean loss, that update is the
inner optimizer's step on the big batch, slots and Adam's beta powers included.

Place in the data flow (DESIGN.md): optimizer <- **accumulation** <- contrib/compat/v2.
"""

from typing import Sequence, Union

import numpy as np
import tensorflow as tf

from tf1clip import _graph
from tf1clip import summaries as summaries_lib
from tf1clip import transforms as transforms_lib
from tf1clip.accumulation import accumulators
from tf1clip.optimizer import WrappedOptimizer
from tf1clip.transforms import Transform


class GradientAccumulationOptimizer(accumulators.Accumulating, WrappedOptimizer):
  """Accumulates gradients over `num_micro_batches` runs and applies their mean once.

  Same name as its tf1clip.v2 counterpart, different contract (graph mode vs eager):
  docs/architecture.md, "The v1/v2 pairs".

  Example::

    opt = tf1clip.GradientAccumulationOptimizer(
        tf.compat.v1.train.AdamOptimizer(1e-3), num_micro_batches=8,
        transforms=[tf1clip.transforms.clip_by_global_norm(5.0)])
    train_op = opt.minimize(loss, global_step=global_step)
    for step in range(8 * num_updates):
      _, applied = sess.run([train_op, opt.applied], feed_dict=next_micro_batch())

  Every run adds to the accumulators; the n-th run of a window also applies the mean
  gradient through the inner optimizer and zeroes the accumulators. The inner optimizer owns
  its slots under its own names (``w/Adam``, ``beta1_power``), exactly as without the wrapper.

  ``global_step`` increments once per applied update (so learning-rate schedules count
  updates), or once per run with ``count_micro_steps=True``. Ops the user groups with the
  train op (``UPDATE_OPS`` of batch normalization) run on every micro-batch.
  """

  def __init__(self, optimizer: tf.compat.v1.train.Optimizer, num_micro_batches: int,
               transforms: Union[Transform, Sequence[Transform]] = (),
               transform_micro_batches: bool = False, skip_non_finite: bool = False,
               count_micro_steps: bool = False, name: str = "GradientAccumulation",
               summaries=None) -> None:
    """Wraps `optimizer`.

    Args:
      optimizer: the inner ``tf.compat.v1.train.Optimizer`` (it may itself be wrapped).
      num_micro_batches: int >= 1, runs per applied update.
      transforms: a transform (callable ``grads_and_vars -> grads_and_vars``) or a list of
        them, e.g. ``tf1clip.transforms.clip_by_global_norm(5.0)``.
      transform_micro_batches: if False (default), the transforms act on the accumulated
        mean, i.e. on the big batch's gradient (clip the update that is applied). If True,
        they act on each micro-batch's gradient before it is added (clip each contribution,
        e.g. per-example-group clipping, or noise per micro-batch).
      skip_non_finite: if True, a NaN or Inf in any micro-batch's gradient drops the whole
        window: weights, slots and ``global_step`` (unless `count_micro_steps`) stay as they
        are, the accumulators are reset, and `skipped_steps` counts the dropped window.
      count_micro_steps: if True, ``global_step`` increments on every run (micro-step)
        instead of once per applied update.
      name: the wrapper's name; prefixes its state (``<variable>/<name>``,
        ``<name>_micro_step``) and its ops.
      summaries: record the ``tf1clip/`` scalars: those of `tf1clip.WrappedOptimizer`
        (norms of the gradient the transforms see; with the default
        ``transform_micro_batches=False`` the window's mean, written as of the latest applied
        window) plus ``tf1clip/accumulation/micro_step`` and ``window_fill``. None (default):
        on in graph mode; False: off; ``"per_variable"``: plus per-variable norms.

    Raises:
      TypeError: if `optimizer` is not an Optimizer or a transform is not callable.
      ValueError: if `num_micro_batches` is not an int >= 1, or `summaries` is not None, a
        bool or ``"per_variable"``.
    """
    self._num_micro_batches = accumulators.check_num_micro_batches(num_micro_batches)
    super().__init__(optimizer, transforms=transforms, skip_non_finite=skip_non_finite,
                     name=name, summaries=summaries)
    self._transform_micro_batches = bool(transform_micro_batches)
    self._count_micro_steps = bool(count_micro_steps)
    self._applied = {}  # graph -> the latest call's `applied` tensor (an output, not state)

  @property
  def applied(self):
    """Scalar bool Tensor: did this run apply an update? (latest `apply_gradients`).

    Fetch it together with the train op (``sess.run([train_op, opt.applied])``); it is an
    output of the accumulation step, so fetching it alone also runs a micro-step. False on
    runs that only accumulate, and on the last run of a window dropped by
    ``skip_non_finite``. None before `minimize` / `apply_gradients`.
    """
    return self._applied.get(_graph.non_slot_key())

  @property
  def micro_step(self):
    """int64 variable: micro-batches accumulated in the current window (latest call)."""
    return self._get_non_slot_variable(self._micro_step_name, _graph.non_slot_key())

  @property
  def _micro_step_name(self):
    return self._name + "_micro_step"

  def _record_accumulation_once(self, micro_step):
    key = ("accumulation", _graph.non_slot_key())
    if self._recording and key not in self._recorded_graphs:
      self._recorded_graphs.add(key)
      with tf.init_scope():
        summaries_lib.record_accumulation(micro_step, self._num_micro_batches)

  @property
  def count_micro_steps(self):
    """Whether ``global_step`` counts runs (micro-steps) instead of applied updates."""
    return self._count_micro_steps

  def _accumulator(self, var, sparse):
    """The `GradientAccumulator` of `var`; its variables are non-slot variables of this wrapper."""
    graph = tf.compat.v1.get_default_graph()

    def create_variable(suffix, initial_value, validate_shape):
      key = (var.op.name + "/" + self._name + suffix, graph)
      if key not in self._non_slot_dict:
        # As the base Optimizer does for slots: out of any control flow / function being built,
        # out of the caller's control dependencies, at the top-level name scope.
        with tf.init_scope(), graph.name_scope(None), graph.colocate_with(var):
          self._non_slot_dict[key] = tf.compat.v1.Variable(
              initial_value(), trainable=False, name=key[0],
              collections=[tf.compat.v1.GraphKeys.GLOBAL_VARIABLES], use_resource=True,
              validate_shape=validate_shape)
      return self._non_slot_dict[key]

    return accumulators.GradientAccumulator(var, create_variable, sparse=sparse)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    """Adds the gradients to the accumulators; every n-th run applies their mean.

    Args:
      grads_and_vars: list of ``(gradient, variable)`` pairs from `compute_gradients`;
        gradients may be Tensors, ``tf.IndexedSlices`` or None.
      global_step: optional variable, incremented per applied update (per run with
        ``count_micro_steps``).
      name: optional name of the returned op.

    Returns:
      An Operation running one micro-step. `applied` holds whether it applied an update.

    Raises:
      ValueError: if `grads_and_vars` is empty, every gradient is None (before or after
        micro-batch transforms), or a transform returned a malformed list.
      RuntimeError: when executing eagerly (see `tf1clip.v2` for TF2 code).
    """
    accumulators.check_graph_mode("GradientAccumulationOptimizer")
    grads_and_vars = transforms_lib.check_gradients_provided(grads_and_vars)
    n = self._num_micro_batches
    # The inner optimizer names its non-slot variables (Adam's beta1_power) after the name
    # scope it is called in; calling it from inside our scope and a cond branch must not
    # rename them, or checkpoints of the wrapped and unwrapped optimizer would differ.
    caller_scope = tf.compat.v1.get_default_graph().get_name_scope()
    self._build_transforms([v for _, v in grads_and_vars])
    with _graph.replacing_train_ops() as train_ops, tf.name_scope(name or self._name) as scope:
      if self._transform_micro_batches:
        with tf.name_scope("transform_micro_batch"):
          grads_and_vars = self._run_chain(grads_and_vars)
        if all(g is None for g, _ in grads_and_vars):
          raise ValueError("No gradients left for any variable after the transforms: %s."
                           % ([str(v) for _, v in grads_and_vars],))
      pairs = [(g, v) for g, v in grads_and_vars if g is not None]
      accums = [self._accumulator(v, isinstance(g, tf.IndexedSlices)) for g, v in pairs]
      with tf.init_scope(), _graph.absolute_name_scope(caller_scope):
        micro_step = self._create_non_slot_variable(np.int64(0), self._micro_step_name,
                                                    pairs[0][1])
      # Read when the summaries run: after a run, the micro-batches in the open window.
      self._record_accumulation_once(micro_step)

      with tf.name_scope("accumulate"):
        adds = [a.add(g) for a, (g, _) in zip(accums, pairs)]
        with tf.control_dependencies(adds):
          count = micro_step.assign_add(1)
      inner_step = None if self._count_micro_steps else global_step

      def apply_mean():
        means = [a.mean(n) for a in accums]
        mean_pairs = [(m, v) for m, (_, v) in zip(means, pairs)]
        if not self._transform_micro_batches:
          with tf.name_scope("transform"):
            mean_pairs, guard_norm = self._run_chain_with_guard_norm(mean_pairs)
        else:
          guard_norm = None  # the chain ran on each micro-batch, not on this mean
        with _graph.absolute_name_scope(caller_scope):
          if self._skip_non_finite:
            applied = self._apply_inner_if_finite(mean_pairs, inner_step, None, guard_norm)
          else:
            with tf.control_dependencies(
                [self._optimizer.apply_gradients(mean_pairs, global_step=inner_step)]):
              applied = tf.constant(True)
        with tf.control_dependencies([applied]):
          reset = [a.reset(m) for a, m in zip(accums, means)]
          reset.append(micro_step.assign(0, read_value=False))
        with tf.control_dependencies(reset):
          return tf.identity(applied)

      def keep_accumulating():
        return tf.constant(False)

      applied = tf.cond(count >= n, apply_mean, keep_accumulating, name="apply_if_window_done")
      self._applied[_graph.non_slot_key()] = applied
      step_ops = [applied]
      if self._count_micro_steps and global_step is not None:
        with tf.control_dependencies([applied]), \
            tf.compat.v1.get_default_graph().colocate_with(global_step):
          step_ops.append(tf.compat.v1.assign_add(global_step, 1))
      # Named like the scope ("GradientAccumulation"), as the base Optimizer names its op.
      op = tf.group(*step_ops, name=scope)
      train_ops.append(op)
    return op
