"""`tf.contrib.opt.ElasticAverageOptimizer` and `ElasticAverageCustomGetter`: Elastic Average SGD on a ps/worker
cluster (each worker trains local copies; every `communication_period` steps they are pulled toward a global
center copy on the ps, and the center toward them).

Semantics and names (TF 1.15's contrib/opt/python/training/elastic_average_optimizer.py, ported onto
tf.compat.v1): the custom getter, used on a `tf.compat.v1.variable_scope` under `replica_device_setter`, turns
each trainable variable `<name>` into three: `<name>` itself (trainable, in LOCAL_VARIABLES, on the worker),
`global_center_variable/<name>` (GLOBAL_VARIABLES, placed by the device setter: the ps) and
`local_center_variable/<name>` (LOCAL_VARIABLES, on the worker), all with the caller's initializer. The
optimizer keeps a `local_step` (LOCAL_VARIABLES, in the caller's variable scope); `compute_gradients` adds
`rho * sum(l2_loss(var - local_center))` to the loss; `apply_gradients` applies the wrapped optimizer to the
local variables (its new variables, such as momentum slots, move from GLOBAL_VARIABLES to LOCAL_VARIABLES),
increments `local_step`, and when `local_step % communication_period == 0` copies the global center into the
local center and moves the local variables by `-moving_rate * (var - local_center)` and the global center by
`+moving_rate * (var - local_center)` (and increments `global_step`, only then). `moving_rate` defaults to
0.9 / communication_period / num_worker and `rho` to moving_rate / the wrapped optimizer's `_learning_rate`.
`make_session_run_hook` copies the global center into the local variables and local centers once the session
exists (with `synchronous=True` behind a barrier of per-worker FIFOQueues); `swapping_saver` saves the global
centers under the trained variables' names.
"""

import tensorflow as tf

import tf1clip.contrib.opt.python.training._worker_copies as worker_copies

LOCAL_VARIABLE_NAME = "local_center_variable"
GLOBAL_VARIABLE_NAME = worker_copies.GLOBAL_VARIABLE_NAME
GLOBAL_STEP = "global_step"

_GLOBAL = tf.compat.v1.GraphKeys.GLOBAL_VARIABLES
_LOCAL = tf.compat.v1.GraphKeys.LOCAL_VARIABLES


class ElasticAverageCustomGetter(worker_copies.WorkerCopyGetter):
  """Custom getter: local trainable copies on `worker_device`, global centers (ps) and local centers (worker)."""

  COMPANION = LOCAL_VARIABLE_NAME

  @property
  def _local_map(self):
    return self._companion_map

  def _untrainable(self, getter, name, trainable, collections, *args, **kwargs):
    kwargs["trainable"] = trainable
    kwargs["collections"] = collections
    if _LOCAL in collections:
      with tf.compat.v1.device(self._worker_device):
        return getter(name, *args, **kwargs)
    return getter(name, *args, **kwargs)


class ElasticAverageOptimizer(tf.compat.v1.train.Optimizer):
  """Wraps `opt`: asynchronous Elastic Average SGD (see the module docstring)."""

  # Default value as the paper describes.
  BETA = 0.9

  def __init__(self, opt, num_worker, ea_custom_getter, communication_period=10, moving_rate=None, rho=None,
               use_locking=True, synchronous=False, name="ElasticAverageOptimizer"):
    super(ElasticAverageOptimizer, self).__init__(use_locking, name)
    self._opt = opt
    self._num_worker = num_worker
    self._period = communication_period
    self._local_map = ea_custom_getter._local_map  # pylint: disable=protected-access
    self._global_map = ea_custom_getter._global_map  # pylint: disable=protected-access
    self._synchronous = synchronous
    if moving_rate is None:
      self._moving_rate = self.BETA / communication_period / num_worker
    else:
      self._moving_rate = moving_rate
    if rho is None:
      self._rho = self._moving_rate / self._opt._learning_rate  # pylint: disable=protected-access
    else:
      self._rho = rho
    self._local_step = tf.compat.v1.get_variable(initializer=0, trainable=False, collections=[_LOCAL],
                                                 name="local_step")
    self._opt._prepare()  # pylint: disable=protected-access

  def compute_gradients(self, loss, var_list=None, gate_gradients=tf.compat.v1.train.Optimizer.GATE_OP,
                        aggregation_method=None, colocate_gradients_with_ops=False, grad_loss=None):
    """The wrapped optimizer's gradients of `loss + rho * sum(l2_loss(var - local_center))`."""
    if not var_list:
      var_list = tf.compat.v1.trainable_variables()
    # As TF 1.15: the differences pair every trainable variable with var_list's local centers, in order.
    elastic_difference = [tf.subtract(v, lv) for v, lv in zip(tf.compat.v1.trainable_variables(),
                                                               [self._local_map[var] for var in var_list])]
    distance_loss = self._rho * tf.add_n([tf.nn.l2_loss(ed) for ed in elastic_difference])
    total_loss = loss + distance_loss
    return self._opt.compute_gradients(total_loss, var_list, gate_gradients, aggregation_method,
                                       colocate_gradients_with_ops, grad_loss)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    """The wrapped optimizer's update of the local variables, then every `communication_period` steps the
    elastic exchange with the global centers (and `global_step += 1`)."""
    global_old = set(n.op.name for n in tf.compat.v1.global_variables())
    apply_updates = self._opt.apply_gradients(grads_and_vars)
    global_new = set(n.op.name for n in tf.compat.v1.global_variables())
    with tf.control_dependencies([apply_updates]):
      local_update = tf.compat.v1.assign_add(self._local_step, 1, name="local_step_update").op

    # The wrapped optimizer's new variables (momentum slots, Adam's beta powers) are the worker's own.
    opt_vars = global_new - global_old
    global_ref = tf.compat.v1.get_collection_ref(_GLOBAL)
    idx = 0
    for _ in range(len(global_ref)):
      var = global_ref[idx]
      if var.op.name in opt_vars:
        tf.compat.v1.add_to_collection(_LOCAL, var)
        del global_ref[idx]
      else:
        idx += 1

    def _update_global_variables():
      local_vars = [v for g, v in grads_and_vars if g is not None]
      global_center_vars = [self._global_map[var] for var in local_vars]
      local_center_vars = [self._local_map[var] for var in local_vars]
      local_center_vars_update = [lvar.assign(var) for lvar, var in zip(local_center_vars, global_center_vars)]
      update_ops = []
      differences = []
      with tf.control_dependencies(local_center_vars_update):
        for v, lv in zip(local_vars, local_center_vars):
          with tf.compat.v1.device(v.device):
            differences.append(tf.subtract(v, lv))
        for lvar, diff in zip(local_vars, differences):
          with tf.compat.v1.device(lvar.device):
            update_ops.append(tf.compat.v1.assign_sub(lvar, tf.multiply(self._moving_rate, diff)))
        for var, diff in zip(global_center_vars, differences):
          with tf.compat.v1.device(var.device):
            update_ops.append(tf.compat.v1.assign_add(var, tf.multiply(self._moving_rate, diff)))
        if global_step:
          with tf.compat.v1.colocate_with(global_step):
            update_ops.append(tf.compat.v1.assign_add(global_step, 1))
      return tf.group(*update_ops)

    with tf.control_dependencies([local_update]):
      condition = tf.equal(tf.math.floormod(self._local_step, self._period), 0)
      conditional_update = tf.compat.v1.cond(condition, _update_global_variables, tf.no_op)
    return conditional_update

  def get_init_op(self, task_index):
    """The op that sets every local variable and local center to its global center (before training)."""

    def _add_sync_queues_and_barrier(enqueue_after_list):
      sync_queues = [tf.queue.FIFOQueue(self._num_worker, [tf.bool], shapes=[[]],
                                        shared_name="%s%s" % ("variable_init_sync_queue", i))
                     for i in range(self._num_worker)]
      queue_ops = []
      token = tf.constant(False)
      with tf.control_dependencies(enqueue_after_list):
        for i, q in enumerate(sync_queues):
          if i == task_index:
            queue_ops.append(tf.no_op())
          else:
            queue_ops.append(q.enqueue(token))
      queue_ops.append(sync_queues[task_index].dequeue_many(len(sync_queues) - 1))
      return tf.group(*queue_ops)

    init_ops = []
    local_vars = tf.compat.v1.trainable_variables()
    global_center_vars = [self._global_map[var] for var in local_vars]
    local_center_vars = [self._local_map[var] for var in local_vars]
    if not (local_vars and global_center_vars and local_center_vars):
      raise ValueError("The lists of local_variables, global_center_variables, "
                       "local_center_variables should not be empty  ")
    for lvar, gc_var, lc_var in zip(local_vars, global_center_vars, local_center_vars):
      init_ops.append(tf.compat.v1.assign(lvar, gc_var))
      init_ops.append(tf.compat.v1.assign(lc_var, gc_var))
    init_op = tf.group(*init_ops)
    if not self._synchronous:
      return init_op
    return _add_sync_queues_and_barrier([init_op])

  def make_session_run_hook(self, is_chief, task_index):
    """A hook that runs `get_init_op(task_index)` once the session is created."""
    return _ElasticAverageOptimizerHook(self, is_chief, task_index)

  def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
    """A `tf.compat.v1.train.Saver` that saves each global center under its trained variable's name.

    Raises:
      RuntimeError: no variable was created through the ElasticAverageCustomGetter yet.
    """
    if not self._global_map:
      raise RuntimeError("global_center_variable is empty, please make sure "
                         "this is called after model created and "
                         "ElasticAverageCustomGetter is used when declaring "
                         "you model")
    if var_list is None:
      var_list = tf.compat.v1.trainable_variables()
    if not isinstance(var_list, dict):
      # No public API turns a Saver's var_list into its name -> variable(s) dict (partitioned variables
      # grouped under their full name); TF's own helper is what tf.compat.v1.train.Saver uses.
      from tensorflow.python.training.saving import saveable_object_util  # pylint: disable=g-import-not-at-top
      var_list = saveable_object_util.op_list_to_dict(var_list)
    swapped_var_list = {}
    for key, var in var_list.items():
      tensor = var
      if not isinstance(var, list):
        for tvar in tf.compat.v1.trainable_variables():
          if tvar.op.name == var.op.name:
            tensor = self._global_map.get(tvar, var)
            break
      else:  # a partitioned variable
        tensor = [self._global_map.get(lvar, lvar) for lvar in var]
      swapped_var_list[key] = tensor
    return tf.compat.v1.train.Saver(swapped_var_list, name=name, **kwargs)


class _ElasticAverageOptimizerHook(tf.compat.v1.train.SessionRunHook):
  """Runs the ElasticAverageOptimizer's init op after the session is created."""

  def __init__(self, ea_optimizer, is_chief, task_index):
    self._ea_optimizer = ea_optimizer
    self._is_chief = is_chief
    self._task_index = task_index

  def begin(self):
    self._local_init_op = tf.compat.v1.local_variables_initializer()
    self._global_init_op = None
    if self._is_chief:
      self._global_init_op = tf.compat.v1.global_variables_initializer()
    self._variable_init_op = self._ea_optimizer.get_init_op(self._task_index)

  def after_create_session(self, session, coord):
    session.run(self._variable_init_op)
