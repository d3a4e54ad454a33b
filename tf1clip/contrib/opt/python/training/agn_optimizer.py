"""`tf.contrib.opt.AGNOptimizer` and `AGNCustomGetter`: Accumulated Gradient Normalization (Hermans, ACML 2017)
on a ps/worker cluster (each worker trains local copies and sums its gradients; every `communication_period`
steps the mean of the summed gradients is applied to global variables on the ps and the worker pulls them).

Semantics and names (TF 1.15's contrib/opt/python/training/agn_optimizer.py, ported onto tf.compat.v1): the
custom getter, used on a `tf.compat.v1.variable_scope` under `replica_device_setter`, turns each trainable
variable `<name>` into `<name>` (trainable, LOCAL_VARIABLES, on the worker), `global_center_variable/<name>`
(GLOBAL_VARIABLES, placed by the device setter: the ps) and `grad_variable/<name>` (LOCAL_VARIABLES, on the
worker), all with the caller's initializer. The optimizer keeps a `local_step` (LOCAL_VARIABLES);
`apply_gradients` applies the wrapped optimizer to the local variables (the variables it creates there, such
as slots, go to LOCAL_VARIABLES instead of GLOBAL_VARIABLES), adds each gradient to its grad variable,
increments `local_step`, and when `local_step % communication_period == 0` divides the grad variables by
`communication_period`, applies the wrapped optimizer to the global variables with these means (its slots for
the global variables stay global), increments `global_step` (only then), copies the global variables into the
local ones and zeroes the grad variables. `make_session_run_hook` sets the local variables to the global ones
and zeroes the grad variables once the session exists.

Difference from TF 1.15: TF 1.15 handed the wrapped optimizer the grad variables' snapshots, which raced the
division, so it sometimes applied the undivided sums (3 runs in 8 on an in-process cluster); tf1clip reads the
grad variables after the division and applies the means, TF 1.15's usual result, every time.
"""

import tensorflow as tf

import tf1clip.contrib.opt.python.training._worker_copies as worker_copies

GLOBAL_VARIABLE_NAME = worker_copies.GLOBAL_VARIABLE_NAME
GRAD_VARIABLE_NAME = "grad_variable"

_GLOBAL = tf.compat.v1.GraphKeys.GLOBAL_VARIABLES
_LOCAL = tf.compat.v1.GraphKeys.LOCAL_VARIABLES


class AGNCustomGetter(worker_copies.WorkerCopyGetter):
  """Custom getter: local trainable copies and grad sums on `worker_device`, global variables (ps)."""

  COMPANION = GRAD_VARIABLE_NAME

  @property
  def _grad_map(self):
    return self._companion_map


class AGNOptimizer(tf.compat.v1.train.Optimizer):
  """Wraps `optimizer`: Accumulated Gradient Normalization (see the module docstring)."""

  def __init__(self, optimizer, num_worker, custom_getter, communication_period=10, use_locking=True,
               name="AGNOptimizer"):
    super(AGNOptimizer, self).__init__(use_locking, name)
    self._opt = optimizer
    self._num_worker = num_worker
    self._period = communication_period
    self._global_map = custom_getter._global_map  # pylint: disable=protected-access
    self._grad_map = custom_getter._grad_map  # pylint: disable=protected-access
    self._local_step = tf.compat.v1.get_variable(initializer=0, trainable=False, collections=[_LOCAL],
                                                 name="local_step")
    self._opt._prepare()  # pylint: disable=protected-access

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    """The wrapped optimizer's local update and gradient sum; every `communication_period` steps the global
    update and the pull."""
    local_vars = [v for g, v in grads_and_vars if g is not None]
    grads = [g for g, v in grads_and_vars if g is not None]

    def _variable_creator(next_creator, collections, **kwargs):
      if not collections:
        collections = [_LOCAL]
      elif _GLOBAL in collections:
        collections = list(collections)
        collections.append(_LOCAL)
        collections.remove(_GLOBAL)
      return next_creator(collections=collections, **kwargs)

    # theta = theta - lr * grad
    with tf.compat.v1.variable_creator_scope(_variable_creator):
      local_update_op = self._opt.apply_gradients(grads_and_vars)

    # a = a + grad
    update_ops = [local_update_op]
    grad_vars = [self._grad_map[var] for var in local_vars]
    for g, grad_var in zip(grads, grad_vars):
      update_ops.append(tf.compat.v1.assign_add(grad_var, g))
    global_center_vars = [self._global_map[var] for var in local_vars]

    def _update_global_variables():
      # a = a / t
      global_norm = [tf.compat.v1.assign(g, g / self._period) for g in grad_vars]
      with tf.control_dependencies(global_norm):
        # TF 1.15 passed the grad variables themselves, i.e. their snapshots taken outside the cond, which race
        # the division: usually the mean reached the wrapped optimizer, sometimes the undivided sum (3 runs in
        # 8 on an in-process cluster). Reading them after the division gives the mean every time.
        normalized = [g.read_value() for g in grad_vars]
        apply_global_op = self._opt.apply_gradients(zip(normalized, global_center_vars))
      # pull
      with tf.control_dependencies([apply_global_op]):
        pull_ops = []
        if global_step:
          with tf.compat.v1.colocate_with(global_step):
            pull_ops.append(tf.compat.v1.assign_add(global_step, 1))
        for lvar in local_vars:
          pull_ops.append(tf.compat.v1.assign(lvar, self._global_map[lvar].read_value()))
        for grad_var in grad_vars:
          pull_ops.append(tf.compat.v1.assign(grad_var, tf.zeros_like(grad_var)))
        return tf.group(*pull_ops)

    local_update = tf.compat.v1.assign_add(self._local_step, 1, name="local_step_update").op
    with tf.control_dependencies([local_update]):
      condition = tf.equal(tf.math.floormod(self._local_step, self._period), 0)
    with tf.control_dependencies(update_ops):
      conditional_update = tf.compat.v1.cond(condition, _update_global_variables, tf.no_op)
    return conditional_update

  def get_init_op(self, task_index):  # pylint: disable=unused-argument
    """The op that sets every local variable to its global variable and zeroes the grad variables."""
    init_ops = []
    local_vars = tf.compat.v1.trainable_variables()
    global_center_vars = [self._global_map[var] for var in local_vars]
    grad_vars = [self._grad_map[var] for var in local_vars]
    if not (local_vars and global_center_vars and grad_vars):
      raise ValueError("The lists of local_variables, global_center_variables,"
                       "grad_center_variables should not be empty")
    for lvar, gc_var in zip(local_vars, global_center_vars):
      init_ops.append(tf.compat.v1.assign(lvar, gc_var))
    for g in grad_vars:
      init_ops.append(tf.compat.v1.assign(g, tf.zeros_like(g)))
    return tf.group(*init_ops)

  def make_session_run_hook(self, is_chief, task_index):
    """A hook that runs `get_init_op(task_index)` once the session is created."""
    return _AGNOptimizerHook(self, is_chief, task_index)


class _AGNOptimizerHook(tf.compat.v1.train.SessionRunHook):
  """Runs the AGNOptimizer's init op after the session is created."""

  def __init__(self, agn_optimizer, is_chief, task_index):
    self._agn_optimizer = agn_optimizer
    self._is_chief = is_chief
    self._task_index = task_index

  def begin(self):
    self._local_init_op = tf.compat.v1.local_variables_initializer()
    self._global_init_op = None
    if self._is_chief:
      self._global_init_op = tf.compat.v1.global_variables_initializer()
    self._variable_init_op = self._agn_optimizer.get_init_op(self._task_index)

  def after_create_session(self, session, coord):
    session.run(self._variable_init_op)
