"""``tf.contrib.layers.optimize_loss`` and ``adaptive_clipping_fn``, rebuilt on tf1clip's transforms.

Same signatures, variable names, summary names and numbers as contrib, with these fixes:
an integer ``clip_gradients`` (or learning rate) is accepted; sparse gradients stay sparse
through noise, multipliers and clipping (norms are those of the gradients themselves, with
repeated indices summed); a ``gradient_multipliers`` name that matches no variable raises
instead of being silently ignored; a ``global_step`` variable found by name works with
resource variables.

The order of operations is contrib's: gradient noise -> multipliers -> clipping (a number
means global-norm clipping) -> apply. Summaries: "loss", "learning_rate" (written when a
decay function is given, as contrib did), "global_norm/gradient_norm",
"global_norm/clipped_gradient_norm", "gradients/<var>", "gradient_norm/<var>", and
"global_norm/adaptive_max_gradient_norm" from ``adaptive_clipping_fn(report_summary=True)``.

Place in the data flow (DESIGN.md): transforms <- optimizer <- **training_op** (optimize_loss) <- contrib
(``tf1clip.contrib.layers`` re-exports these names).
"""

import contextlib
import numbers
from typing import Any, Optional

import tensorflow as tf

from tf1clip import _graph
from tf1clip import clipping
from tf1clip import transforms
from tf1clip import validation

V1 = tf.compat.v1

OPTIMIZER_CLS_NAMES = {
    "Adagrad": V1.train.AdagradOptimizer,
    "Adam": V1.train.AdamOptimizer,
    "Ftrl": V1.train.FtrlOptimizer,
    "Momentum": lambda learning_rate: V1.train.MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": V1.train.RMSPropOptimizer,
    "SGD": V1.train.GradientDescentOptimizer,
}

OPTIMIZER_SUMMARIES = [
    "learning_rate",
    "loss",
    "gradients",
    "gradient_norm",
    "global_gradient_norm",
]


def _is_number(x):
  return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _default_global_step():
  """``tf.train.get_global_step()``, also finding a resource variable named "global_step"."""
  graph = V1.get_default_graph()
  candidates = graph.get_collection(V1.GraphKeys.GLOBAL_STEP)
  if not candidates:
    candidates = [v for v in V1.global_variables() if v.op.name == "global_step"]
  if not candidates:
    return None
  if len(candidates) > 1:
    raise TypeError("There are %d global step variables: %s" % (len(candidates), candidates))
  V1.train.assert_global_step(candidates[0])
  return candidates[0]


def _check_global_step(global_step, increment):
  V1.train.assert_global_step(global_step)
  if increment and not hasattr(global_step, "assign_add"):
    raise TypeError("global_step must be an integer scalar variable to be incremented; got %r "
                    "(pass increment_global_step=False to use a Tensor for decay only)."
                    % (global_step,))


def _learning_rate(learning_rate):
  if learning_rate is None:
    return None
  if (tf.is_tensor(learning_rate) or isinstance(learning_rate, tf.Variable)) and (
      learning_rate.shape.ndims == 0):
    return learning_rate
  if _is_number(learning_rate):
    validation.non_negative(learning_rate, "learning_rate")
    return V1.get_variable("learning_rate", [], trainable=False,
                           initializer=V1.constant_initializer(float(learning_rate)))
  raise ValueError("Learning rate should be 0d Tensor or float. Got %s of type %s"
                   % (learning_rate, type(learning_rate)))


def _make_optimizer(optimizer, lr, learning_rate):
  if isinstance(optimizer, str):
    if lr is None:
      raise ValueError("Learning rate is None, but should be specified if optimizer is string "
                       "(%s)." % optimizer)
    if optimizer not in OPTIMIZER_CLS_NAMES:
      raise ValueError("Optimizer name should be one of [%s], you provided %s."
                       % (", ".join(OPTIMIZER_CLS_NAMES), optimizer))
    return OPTIMIZER_CLS_NAMES[optimizer](learning_rate=lr)
  if isinstance(optimizer, type) and issubclass(optimizer, V1.train.Optimizer):
    if lr is None:
      raise ValueError("Learning rate is None, but should be specified if optimizer is class "
                       "(%s)." % optimizer)
    return optimizer(learning_rate=lr)
  if isinstance(optimizer, V1.train.Optimizer):
    return optimizer
  if callable(optimizer):
    opt = optimizer(lr) if learning_rate is not None else optimizer()
    if not isinstance(opt, V1.train.Optimizer):
      raise ValueError("Unrecognized optimizer: function should return subclass of Optimizer. "
                       "Got %s." % (opt,))
    return opt
  raise ValueError("Unrecognized optimizer: should be string, subclass of Optimizer, instance "
                   "of subclass of Optimizer or function with one argument. Got %s."
                   % (optimizer,))


def _with_dependencies(dependencies, output):
  # contrib's control_flow_ops.with_dependencies: an Identity named "control_dependency".
  with V1.name_scope(None, "control_dependency", list(dependencies) + [output]) as name:
    with V1.get_default_graph().colocate_with(output.op):
      with tf.control_dependencies(dependencies):
        return tf.identity(output, name=name)


def _values(grad):
  return grad.values if isinstance(grad, tf.IndexedSlices) else grad


def optimize_loss(loss,
                  global_step,
                  learning_rate,
                  optimizer,
                  gradient_noise_scale=None,
                  gradient_multipliers=None,
                  clip_gradients=None,
                  learning_rate_decay_fn=None,
                  update_ops=None,
                  variables=None,
                  name=None,
                  summaries=None,
                  colocate_gradients_with_ops=False,
                  increment_global_step=True):
  """Given a loss and optimizer settings, builds the training step; ``tf.contrib.layers``'.

  Example::

    train_op = tf1clip.optimize_loss(loss, tf.train.get_or_create_global_step(),
                                     learning_rate=0.1, optimizer="Adam", clip_gradients=5)

  Args:
    loss: scalar Tensor.
    global_step: scalar integer variable incremented at each step (unless
      `increment_global_step` is False); None looks it up in the graph (GLOBAL_STEP collection,
      else a variable named "global_step"); when there is none, no step is counted.
      `learning_rate_decay_fn` requires it.
    learning_rate: number or scalar Tensor, or None when `optimizer` is a no-argument callable.
      A number becomes the non-trainable variable "OptimizeLoss/learning_rate".
    optimizer: a name from `OPTIMIZER_CLS_NAMES` ("SGD", "Adam", "Adagrad", "Ftrl",
      "Momentum", "RMSProp"), a ``tf.compat.v1.train.Optimizer`` subclass taking the learning
      rate, an instance, or a callable of the learning rate (of nothing if it is None).
    gradient_noise_scale: None or number; adds ``truncated_normal * scale`` noise to gradients.
    gradient_multipliers: None or dict {variable or name: multiplier}.
    clip_gradients: None, a number (global-norm clipping; ints accepted), or a callable
      ``grads_and_vars -> grads_and_vars`` such as `adaptive_clipping_fn()`.
    learning_rate_decay_fn: callable ``(learning_rate, global_step) -> Tensor``, e.g.
      ``functools.partial(tf.train.exponential_decay, decay_steps=..., decay_rate=...)``.
    update_ops: operations run before the loss is computed (e.g. batch-norm statistics); None
      uses the UPDATE_OPS collection.
    variables: variables to optimize; None means all trainable variables.
    name: scope of the ops and variables (default "OptimizeLoss").
    summaries: list from `OPTIMIZER_SUMMARIES`; None means ["loss", "learning_rate",
      "global_gradient_norm"].
    colocate_gradients_with_ops: passed to ``compute_gradients``.
    increment_global_step: whether the step increments `global_step`.

  Returns:
    The loss Tensor, with the training step as a control dependency: running it trains.

  Raises:
    ValueError: `loss` is not a scalar Tensor; `learning_rate` is negative or of a wrong type;
      `optimizer` is not recognised; `summaries` names an unknown summary; `clip_gradients` is
      neither a number nor a callable (or is a number <= 0); a decay function is given without a
      global step.
    TypeError: `global_step` is not a scalar integer variable.
  """
  loss = tf.convert_to_tensor(loss)
  if loss.shape.ndims != 0:
    raise ValueError("Expected scalar shape for %s, saw shape: %s." % (loss.name, loss.shape))
  if global_step is None:
    global_step = _default_global_step()
  else:
    _check_global_step(global_step, increment_global_step)
  if summaries is None:
    summaries = ["loss", "learning_rate", "global_gradient_norm"]
  else:
    for summ in summaries:
      if summ not in OPTIMIZER_SUMMARIES:
        raise ValueError("Summaries should be one of [%s], you provided %s."
                         % (", ".join(OPTIMIZER_SUMMARIES), summ))
  if clip_gradients is not None and not callable(clip_gradients):
    if not _is_number(clip_gradients):
      # contrib raised ValueError here; the type stays, the message says what is accepted.
      raise ValueError("`clip_gradients` must be a number > 0 or a callable grads_and_vars -> "
                       "grads_and_vars; got a %s: %r." % (type(clip_gradients).__name__,
                                                           clip_gradients))
    validation.positive(clip_gradients, "clip_gradients")
    clip_transform = transforms.clip_by_global_norm(clip_gradients)
  else:
    clip_transform = clip_gradients
  if gradient_noise_scale is not None:
    validation.non_negative(gradient_noise_scale, "gradient_noise_scale")

  with V1.variable_scope(name, "OptimizeLoss", [loss, global_step]):
    if update_ops is None:
      update_ops = set(V1.get_collection(V1.GraphKeys.UPDATE_OPS))
    if update_ops:
      loss = _with_dependencies(list(update_ops), loss)

    lr = _learning_rate(learning_rate)
    if learning_rate is not None and learning_rate_decay_fn is not None:
      if global_step is None:
        raise ValueError("global_step is required for learning_rate_decay_fn.")
      lr = learning_rate_decay_fn(lr, global_step)
      if "learning_rate" in summaries:
        V1.summary.scalar("learning_rate", lr)

    opt = _make_optimizer(optimizer, lr, learning_rate)
    if variables is None:
      variables = V1.trainable_variables()
    gradients = opt.compute_gradients(
        loss, variables, colocate_gradients_with_ops=colocate_gradients_with_ops)

    # contrib's order: noise -> multipliers -> (norm summary) -> clipping.
    before_clip = transforms.chain(*(
        ([transforms.add_gradient_noise(gradient_noise_scale)]
         if gradient_noise_scale is not None else []) +
        ([transforms.scale_by_multipliers(gradient_multipliers)]
         if gradient_multipliers is not None else [])))
    clip = transforms.as_chain(clip_transform if clip_transform is not None else [],
                               "clip_gradients")
    with tf.init_scope():
      var_list = [v for _, v in gradients]
      before_clip.build(var_list)
      clip.build(var_list)
    gradients = before_clip(gradients)

    norm_summaries = "global_gradient_norm" in summaries or "gradient_norm" in summaries
    if norm_summaries:
      V1.summary.scalar("global_norm/gradient_norm",
                        clipping.global_norm([g for g, _ in gradients]))
    gradients = clip(gradients)

    if "loss" in summaries:
      V1.summary.scalar("loss", loss)
    for gradient, variable in gradients:
      if gradient is None:
        continue
      var_name = variable.name.replace(":", "_")
      if "gradients" in summaries:
        V1.summary.histogram("gradients/%s" % var_name, _values(gradient))
      if "gradient_norm" in summaries:
        V1.summary.scalar("gradient_norm/%s" % var_name, clipping.global_norm([gradient]))
    if clip_gradients is not None and norm_summaries:
      V1.summary.scalar("global_norm/clipped_gradient_norm",
                        clipping.global_norm([g for g, _ in gradients]))

    grad_updates = opt.apply_gradients(
        gradients, global_step=global_step if increment_global_step else None, name="train")
    return _with_dependencies([grad_updates], loss)


class AdaptiveClipping:
  """contrib's adaptive clipping as a stateful transform (see `adaptive_clipping_fn`).

  ``build(var_list)`` creates the two statistics "<scope>/AdaptiveMaxNorm/mean" and ".../sq_mean":
  non-trainable, colocated with the first variable, with ``tf.compat.v1.get_variable`` in graph mode
  (GLOBAL_VARIABLES, so ``tf.train.Saver`` saves them; the enclosing variable scope names them as in
  contrib) and as ``tf.Variable``\\ s eagerly (the tf1clip.v2 wrappers track them). One pair per graph.
  """

  def __init__(self, std_factor, decay, static_max_norm, global_step, report_summary, epsilon,
               name):
    self._std_factor, self._decay, self._static_max_norm = std_factor, decay, static_max_norm
    self._global_step, self._report_summary = global_step, report_summary
    self._epsilon, self._name = epsilon, name
    self._state = {}  # graph key (None when eager) -> (scope name, mean, sq_mean)
    self.__name__ = "adaptive_clipping_fn"

  def build(self, var_list):
    """Creates the moving statistics once per graph (idempotent)."""
    key = _graph.non_slot_key()
    if key in self._state:
      return
    with tf.init_scope():
      dtype = tf.float32
      first = var_list[0] if var_list else None
      with (_graph.colocated(first) if first is not None else contextlib.nullcontext()):
        if tf.executing_eagerly():
          name = self._name or "AdaptiveMaxNorm"
          mean = tf.Variable(tf.zeros([], dtype), trainable=False, name=name + "/mean")
          sq_mean = tf.Variable(tf.zeros([], dtype), trainable=False, name=name + "/sq_mean")
          scope = name
        else:
          with V1.variable_scope(self._name, "AdaptiveMaxNorm") as vs:
            scope = vs.original_name_scope
            mean, sq_mean = [
                V1.get_variable(n, shape=[], dtype=dtype, initializer=V1.zeros_initializer(),
                                trainable=False) for n in ("mean", "sq_mean")]
    self._state[key] = (scope, mean, sq_mean)

  def __call__(self, grads_and_vars):
    grads_and_vars = list(grads_and_vars)
    if _graph.non_slot_key() not in self._state:
      self.build([v for _, v in grads_and_vars])
    scope, mean_var, sq_mean_var = self._state[_graph.non_slot_key()]
    grads = [g for g, _ in grads_and_vars]
    norm = clipping.global_norm(grads)
    with tf.name_scope("adaptive_clipping"):
      log_norm = tf.math.log(norm + self._epsilon)
      decay = self._decay
      if self._global_step is not None:
        # Quicker adaptation at the beginning.
        n = tf.cast(self._global_step, tf.float32)
        decay = tf.minimum(decay, n / (n + 1.))
      mean = _moving_average(mean_var, log_norm, decay)
      sq_mean = _moving_average(sq_mean_var, tf.square(log_norm), decay)
      variance = sq_mean - tf.square(mean)
      std = tf.sqrt(tf.maximum(self._epsilon, variance))
      max_norm = tf.exp(mean + self._std_factor * std)
    if self._report_summary and not tf.executing_eagerly():
      V1.summary.scalar("global_norm/adaptive_max_gradient_norm", max_norm)
    # The factor is 1 when the norm is below max_norm.
    factor = tf.where(norm < max_norm, tf.ones_like(norm), tf.exp(mean) / norm)
    if self._static_max_norm is not None:
      factor = tf.minimum(self._static_max_norm / norm, factor)
    clipped = []
    for grad, var in grads_and_vars:
      if grad is None:
        clipped.append((None, var))
      elif isinstance(grad, tf.IndexedSlices):
        values = grad.values * tf.cast(factor, grad.values.dtype)
        clipped.append((tf.IndexedSlices(values, grad.indices, grad.dense_shape), var))
      else:
        clipped.append((grad * tf.cast(factor, grad.dtype), var))
    return clipped


def _moving_average(variable, value, decay):
  # assign_moving_average(zero_debias=False): variable -= (variable - value) * (1 - decay).
  with _graph.colocated(variable):
    decay = tf.cast(1.0 - decay, variable.dtype.base_dtype)
    return V1.assign_sub(variable, (variable - value) * decay)


def adaptive_clipping_fn(std_factor: Any = 2.,
                         decay: Any = 0.95,
                         static_max_norm: Any = None,
                         global_step: Any = None,
                         report_summary: bool = False,
                         epsilon: float = 1e-8,
                         name: Optional[str] = None) -> "AdaptiveClipping":
  """Adapts the clipping threshold to moving statistics of the log global norm (contrib's).

  Keeps moving averages of the mean and the square of log(global norm) in the non-trainable
  variables "AdaptiveMaxNorm/mean" and "AdaptiveMaxNorm/sq_mean" (under the enclosing
  variable scope, e.g. "OptimizeLoss/"), updated each time the clipped gradients are
  computed. When the norm exceeds ``exp(mean + std_factor * std)`` all gradients are rescaled
  so that their global norm becomes ``exp(mean)``. The result is a stateful transform: every
  tf1clip wrapper (TF1 and ``tf1clip.v2``) creates its statistics with ``build(var_list)``
  before the first step, so it also works eagerly and inside ``tf.function``.

  Args:
    std_factor: number >= 0 or scalar Tensor; ``max_norm = exp(mean + std_factor * std)``.
    decay: smoothing factor of the moving averages, in [0, 1].
    static_max_norm: optional extra hard threshold on the norm (> 0).
    global_step: optional; if given, ``decay = min(decay, n / (n + 1))`` for quicker adaptation
      in the first steps.
    report_summary: if True, writes the scalar summary "global_norm/adaptive_max_gradient_norm"
      (graph mode).
    epsilon: small value > 0 avoiding log(0) and zero variance.
    name: variable scope (default "AdaptiveMaxNorm").

  Returns:
    An `AdaptiveClipping` transform ``grads_and_vars -> grads_and_vars`` with ``build(var_list)``
    (pass it as `clip_gradients`, or in a wrapper's ``transforms``).

  Raises:
    TypeError, ValueError: a bad `std_factor`, `decay`, `static_max_norm` or `epsilon`.

  References:
    Chorowski, Bahdanau, Cho, Bengio, "End-to-end Continuous Speech Recognition using
    Attention-based Recurrent NN: First Results", arXiv:1412.1602, 2014 (section 3.2.1).
  """
  validation.non_negative(std_factor, "std_factor")
  validation.in_range(decay, "decay", 0.0, 1.0)
  if static_max_norm is not None:
    validation.positive(static_max_norm, "static_max_norm")
  validation.positive(epsilon, "epsilon")
  if name is not None:
    validation.string(name, "name")
  return AdaptiveClipping(std_factor, decay, static_max_norm, global_step, report_summary,
                          epsilon, name)
