"""`tf.contrib.opt.ModelAverageOptimizer` and `ModelAverageCustomGetter`: synchronous model averaging on a
ps/worker cluster (each worker trains local copies; every `interval_steps` steps the copies are averaged into
global variables on the ps and every worker restarts from the average).

Semantics and names (TF 1.15's contrib/opt/python/training/model_average_optimizer.py, ported onto
tf.compat.v1): the custom getter, used on a `tf.compat.v1.variable_scope` under `replica_device_setter`, makes
each trainable variable `<name>` a worker-local variable (trainable, LOCAL_VARIABLES, on `worker_device`) and
adds a `tf.compat.v1.Variable` `global_center_variable/<name>` (so under the current name scope too;
GLOBAL_VARIABLES, not trainable, placed by the device setter) initialized from the local variable's
initialized value. The optimizer keeps a `local_step` (LOCAL_VARIABLES); `apply_gradients` (which needs
`global_step`) applies the wrapped optimizer, increments `local_step`, and when `local_step % interval_steps ==
0` puts each local variable's value into a ConditionalAccumulator on its global variable's device (shared name
`<global>:0/var_accum`, ops under `<name>/global`), the chief assigns the averages of `num_worker` values to the
global variables, increments `global_step` and enqueues `num_worker - 1` tokens in the shared FIFOQueue
`sync_queue`; the other workers dequeue one; then every worker copies the global variables into its local ones.
`make_session_run_hook` returns TF 1.15's hook, which builds the init ops in `begin` and runs none of them.
"""

import tensorflow as tf

GLOBAL_VARIABLE_NAME = "global_center_variable"

_GLOBAL = tf.compat.v1.GraphKeys.GLOBAL_VARIABLES
_LOCAL = tf.compat.v1.GraphKeys.LOCAL_VARIABLES


class ModelAverageCustomGetter(object):
  """Custom getter: local trainable copies on `worker_device` and their global variables (ps)."""

  def __init__(self, worker_device):
    self._worker_device = worker_device
    self._local_2_global = {}

  def __call__(self, getter, name, trainable, collections, *args, **kwargs):
    if trainable:
      with tf.compat.v1.device(self._worker_device):
        local_var = getter(name, trainable=True, collections=[_LOCAL], *args, **kwargs)
      global_variable = tf.compat.v1.Variable(name="%s/%s" % (GLOBAL_VARIABLE_NAME, name),
                                              initial_value=local_var.initialized_value(), trainable=False,
                                              collections=[_GLOBAL])
      self._local_2_global[local_var] = global_variable
      return local_var
    kwargs["trainable"] = trainable
    kwargs["collections"] = collections
    if _LOCAL in collections:
      with tf.compat.v1.device(self._worker_device):
        return getter(name, *args, **kwargs)
    return getter(name, *args, **kwargs)


class ModelAverageOptimizer(tf.compat.v1.train.Optimizer):
  """Wraps `opt`: synchronous model averaging every `interval_steps` steps (see the module docstring)."""

  def __init__(self, opt, num_worker, is_chief, ma_custom_getter, interval_steps=100, use_locking=True,
               name="ModelAverageOptimizer"):
    super(ModelAverageOptimizer, self).__init__(use_locking, name)
    self._opt = opt
    self._num_worker = num_worker
    self._is_chief = is_chief
    self._local_2_global = ma_custom_getter._local_2_global  # pylint: disable=protected-access
    self._interval_steps = interval_steps
    self._accumulator_list = []
    self._chief_init_op = None
    self._local_step = tf.compat.v1.get_variable(initializer=0, trainable=False, collections=[_LOCAL],
                                                 name="local_step")
    self._opt._prepare()  # pylint: disable=protected-access

  def compute_gradients(self, *args, **kwargs):
    """The wrapped optimizer's compute_gradients."""
    return self._opt.compute_gradients(*args, **kwargs)

  def _local_vars_update(self, var_list):
    if not var_list:
      raise ValueError("The list of local_variables should not be empty")
    update_ops = []
    global_center_vars = [self._local_2_global[var] for var in var_list]
    for lvar, gvar in zip(var_list, global_center_vars):
      with tf.compat.v1.device(lvar.device):
        update_ops.append(tf.compat.v1.assign(lvar, gvar.read_value()))
    return tf.group(*update_ops)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    """The wrapped optimizer's update, then every `interval_steps` steps the averaging.

    Raises:
      ValueError: `grads_and_vars` is empty, or `global_step` is None.
    """
    if not grads_and_vars:
      raise ValueError("Must supply at least one variable")
    if global_step is None:
      raise ValueError("Global step is required")

    apply_updates = self._opt.apply_gradients(grads_and_vars)
    with tf.control_dependencies([apply_updates]):
      local_update = tf.compat.v1.assign_add(self._local_step, 1, name="local_step_update").op

    def _update_global_variables():
      local_vars = [v for g, v in grads_and_vars if g is not None]
      global_vars = [self._local_2_global[v] for v in local_vars]
      with tf.compat.v1.colocate_with(global_step):
        sync_queue = tf.queue.FIFOQueue(-1, [tf.bool], shapes=[[]], shared_name="sync_queue")
      train_ops = []
      aggregated_vars = []
      with tf.compat.v1.name_scope(None, self._name + "/global"):
        for var, gvar in zip(local_vars, global_vars):
          with tf.compat.v1.device(gvar.device):
            ref = var._ref()  # pylint: disable=protected-access  (a RefVariable's ref tensor, as TF 1.15)
            if isinstance(ref, tf.Tensor):
              var_accum = tf.compat.v1.ConditionalAccumulator(var.dtype, shape=var.get_shape(),
                                                              shared_name=gvar.name + "/var_accum")
              train_ops.append(var_accum.apply_grad(ref, local_step=global_step))
              aggregated_vars.append(var_accum.take_grad(self._num_worker))
            else:
              raise ValueError("Unknown local variable type!")
            self._accumulator_list.append((var_accum, gvar.device))
      if self._is_chief:
        update_ops = []
        with tf.control_dependencies(train_ops):
          for avg_var, gvar in zip(aggregated_vars, global_vars):
            with tf.compat.v1.device(gvar.device):
              update_ops.append(tf.compat.v1.assign(gvar, avg_var))
          with tf.compat.v1.device(global_step.device):
            update_ops.append(tf.compat.v1.assign_add(global_step, 1))
        with tf.control_dependencies(update_ops), tf.compat.v1.device(global_step.device):
          tokens = tf.fill([self._num_worker - 1], tf.constant(False))
          sync_op = sync_queue.enqueue_many(tokens)
      else:
        with tf.control_dependencies(train_ops), tf.compat.v1.device(global_step.device):
          sync_op = sync_queue.dequeue()
      with tf.control_dependencies([sync_op]):
        local_update_op = self._local_vars_update(local_vars)
      return local_update_op

    with tf.control_dependencies([local_update]):
      condition = tf.equal(tf.math.floormod(self._local_step, self._interval_steps), 0)
      conditional_update = tf.compat.v1.cond(condition, _update_global_variables, tf.no_op)

    chief_init_ops = []
    for accum, dev in self._accumulator_list:
      with tf.compat.v1.device(dev):
        chief_init_ops.append(accum.set_global_step(global_step, name="SetGlobalStep"))
    self._chief_init_op = tf.group(*chief_init_ops)
    return conditional_update

  def get_init_op(self):
    """The op that sets every local variable to its global variable (before training)."""
    return self._local_vars_update(tf.compat.v1.trainable_variables())

  def make_session_run_hook(self):
    """TF 1.15's hook: builds the init ops in `begin` (and, as TF 1.15's, runs none of them)."""
    return _ModelAverageOptimizerHook(self, self._is_chief)


class _ModelAverageOptimizerHook(tf.compat.v1.train.SessionRunHook):
  """Builds the ModelAverageOptimizer's init ops."""

  def __init__(self, ma_optimizer, is_chief):
    self._ma_optimizer = ma_optimizer
    self._is_chief = is_chief

  def begin(self):
    self._local_init_op = tf.compat.v1.local_variables_initializer()
    self._global_init_op = None
    if self._is_chief:
      self._global_init_op = tf.compat.v1.global_variables_initializer()
      self._chief_init_op = self._ma_optimizer._chief_init_op  # pylint: disable=protected-access
    self._variable_init_op = self._ma_optimizer.get_init_op()
