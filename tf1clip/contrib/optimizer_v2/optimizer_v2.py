"""`tf.contrib.optimizer_v2.OptimizerV2`: TF 1.15's base class of the OptimizerV2 optimizers (TF 1.15's code).

A TF 1.15 script subclasses `OptimizerV2(use_locking, name)`: it sets hyper-parameters with
`self._set_hyper(name, value)` (a callable value is re-evaluated every step), creates slot and non-slot
variables in `_create_vars(var_list, state)` (`state.zeros_slot(var, "m")`, `state.create_slot(...)`,
`state.create_non_slot(initial_value, name)`) and updates in `_apply_dense(grad, var, state)` /
`_apply_sparse(grad, var, state)` / `_resource_apply_*` / `_finish(state)`, reading
`state.get_hyper(name, dtype)` and `state.get_slot(var, name)`. `minimize` / `compute_gradients` /
`apply_gradients` work as TF 1.15's (through the current distribution strategy's merge_call, its
`extended.update` and `update_non_slot`), with TF 1.15's variable names (`v/<name>` slots) and op scopes.
In a tf.train.Checkpoint the optimizer's non-slot variables are its dependencies and its slots are saved as
`<var>/.OPTIMIZER_SLOT/<optimizer>/<slot>`, restored when created (TF 1.15's keys).

Internals used (no public equivalent): tensorflow.python.training.slot_creator (slot variables named and
placed as the v1 optimizers' are), optimizer._deduplicate_indexed_slices (the v1 optimizers' own) and the
Trackable hooks (`_trackable_children`, `_lookup_dependency`, `_create_or_restore_slot_variable`) that
object-based checkpoints call.
"""

import tensorflow as tf
from tensorflow.python.trackable import base as trackable_base
from tensorflow.python.training import optimizer as optimizer_v1
from tensorflow.python.training import slot_creator

V1 = tf.compat.v1


class _RefVariableProcessor(object):
  """Processor for reference Variables."""

  def __init__(self, v):
    self._v = v

  def target(self):
    return self._v._ref()  # pylint: disable=protected-access

  def update_op(self, optimizer, g, *args):
    if isinstance(g, tf.Tensor):
      update_op = optimizer._apply_dense(g, self._v, *args)  # pylint: disable=protected-access
      if self._v.constraint is not None:
        with tf.control_dependencies([update_op]):
          return self._v.assign(self._v.constraint(self._v))
      return update_op
    assert isinstance(g, tf.IndexedSlices), ("Gradient ", g, " is neither a tensor nor IndexedSlices.")
    if self._v.constraint is not None:
      raise RuntimeError("Cannot use a constraint function on a sparse variable.")
    return optimizer._apply_sparse_duplicate_indices(g, self._v, *args)  # pylint: disable=protected-access


class _DenseResourceVariableProcessor(object):
  """Processor for ResourceVariables."""

  def __init__(self, v):
    self._v = v

  def target(self):
    return self._v

  def update_op(self, optimizer, g, *args):
    # pylint: disable=protected-access
    if isinstance(g, tf.IndexedSlices):
      if self._v.constraint is not None:
        raise RuntimeError("Cannot use a constraint function on a sparse variable.")
      return optimizer._resource_apply_sparse_duplicate_indices(g.values, self._v, g.indices, *args)
    update_op = optimizer._resource_apply_dense(g, self._v, *args)
    if self._v.constraint is not None:
      with tf.control_dependencies([update_op]):
        return self._v.assign(self._v.constraint(self._v))
    return update_op


class _TensorProcessor(object):
  """Processor for ordinary Tensors (gradients only; updating one is refused)."""

  def __init__(self, v):
    self._v = v

  def target(self):
    return self._v

  def update_op(self, optimizer, g, *args):
    raise NotImplementedError("Trying to update a Tensor ", self._v)


def _get_processor(v):
  """The processor of v."""
  if tf.executing_eagerly():
    if isinstance(v, tf.Tensor):
      return _TensorProcessor(v)
    return _DenseResourceVariableProcessor(v)
  if isinstance(v, tf.Variable):
    if hasattr(v, "_ref") and not hasattr(v, "handle"):
      return _RefVariableProcessor(v)
    return _DenseResourceVariableProcessor(v)
  if isinstance(v, tf.Tensor):
    return _TensorProcessor(v)
  raise NotImplementedError("Trying to optimize unsupported type ", v)


def _var_key_v2(var):
  """Key for representing a primary variable, for looking up slots."""
  # pylint: disable=protected-access
  if hasattr(var, "_distributed_container"):
    distributed_container = var._distributed_container()
    assert distributed_container is not None
    if tf.executing_eagerly():
      return distributed_container._unique_id
    return distributed_container._shared_name
  if tf.executing_eagerly():
    return var._unique_id
  return var.op.name


def _resolve(value, name):
  if callable(value):
    value = value()
  return tf.convert_to_tensor(value, name=name)


def _is_dynamic(value):
  """True when `__init__` arg `value` should be re-evaluated each step."""
  if callable(value):
    return True
  return tf.executing_eagerly() and isinstance(value, tf.Variable)


class _OptimizerV2State(object):
  """Per-graph and per-step optimizer state: hyper-parameters, slot and non-slot variables."""

  def __init__(self, op_name):
    self._op_name = op_name

  def _init_with_static_hyper(self, hyper):
    """Initializes a fresh state object from the hyper dict."""
    with tf.init_scope():
      self._hyper = {name: {None: tf.convert_to_tensor(value, name=name)}
                     for name, (dynamic, value) in sorted(hyper.items()) if not dynamic}
    self._slots = {}
    self._non_slot_dict = {}
    self._deferred_dependencies = {}  # non-slot variables
    self._deferred_slot_restorations = {}  # slot variables

  def _copy_with_dynamic_hyper(self, hyper, distribution, non_slot_devices):
    """A new state object for one step."""
    ret = _OptimizerV2State(self._op_name)
    # pylint: disable=protected-access
    ret._slots = self._slots
    ret._non_slot_dict = self._non_slot_dict
    ret._deferred_dependencies = self._deferred_dependencies
    ret._deferred_slot_restorations = self._deferred_slot_restorations
    ret._hyper = {name: {None: _resolve(value, name)}
                  for name, (dynamic, value) in sorted(hyper.items()) if dynamic}
    ret._hyper.update(self._hyper)
    ret._non_slot_devices = non_slot_devices
    ret._distribution = distribution
    return ret

  def _variables(self):
    """All variables held by self, sorted by name."""
    optimizer_variables = list(self._non_slot_dict.values())
    for variable_dict in self._slots.values():
      optimizer_variables.extend(variable_dict.values())
    return sorted(optimizer_variables, key=lambda v: v.name)

  def _slot_dict(self, slot_name):
    return self._slots.setdefault(slot_name, {})

  def create_slot(self, var, val, slot_name, optional_op_name=None):
    """Finds or creates the slot `slot_name` of `var`, initialized to the Tensor `val`."""
    named_slots = self._slot_dict(slot_name)
    var_key = _var_key_v2(var)
    if var_key not in named_slots:
      new_slot_variable = slot_creator.create_slot(var, val, optional_op_name or self._op_name)
      self._restore_slot_variable(slot_name=slot_name, variable=var, slot_variable=new_slot_variable)
      named_slots[var_key] = new_slot_variable
    return named_slots[var_key]

  def create_slot_with_initializer(self, var, initializer, shape, dtype, slot_name, optional_op_name=None):
    """Finds or creates the slot `slot_name` of `var` from an initializer."""
    named_slots = self._slot_dict(slot_name)
    var_key = _var_key_v2(var)
    if var_key not in named_slots:
      new_slot_variable = slot_creator.create_slot_with_initializer(
          var, initializer, shape, dtype, optional_op_name or self._op_name)
      self._restore_slot_variable(slot_name=slot_name, variable=var, slot_variable=new_slot_variable)
      named_slots[var_key] = new_slot_variable
    return named_slots[var_key]

  def zeros_slot(self, var, slot_name, optional_op_name=None):
    """Finds or creates the slot `slot_name` of `var`, initialized with 0."""
    named_slots = self._slot_dict(slot_name)
    var_key = _var_key_v2(var)
    if var_key not in named_slots:
      new_slot_variable = slot_creator.create_zeros_slot(var, optional_op_name or self._op_name)
      self._restore_slot_variable(slot_name=slot_name, variable=var, slot_variable=new_slot_variable)
      named_slots[var_key] = new_slot_variable
    return named_slots[var_key]

  def _create_or_restore_slot_variable(self, slot_variable_position, slot_name, variable):
    """Restores a slot variable's value now, or when the slot is created (graph mode creates none here)."""
    slot_variable = self.get_slot(var=variable, name=slot_name)
    if slot_variable is not None:
      slot_variable_position.restore(slot_variable)
    else:
      self._deferred_slot_restorations.setdefault(slot_name, {}).setdefault(
          _var_key_v2(variable), []).append(slot_variable_position)

  def _restore_slot_variable(self, slot_name, variable, slot_variable):
    """Restores a newly created slot variable's value."""
    deferred_restorations = self._deferred_slot_restorations.get(slot_name, {}).pop(_var_key_v2(variable), [])
    deferred_restorations.sort(key=lambda position: position.restore_uid, reverse=True)
    for checkpoint_position in deferred_restorations:
      checkpoint_position.restore(slot_variable)

  def get_slot(self, var, name):
    """The slot `name` created for `var`, or None."""
    named_slots = self._slots.get(name, None)
    if not named_slots:
      return None
    return named_slots.get(_var_key_v2(var), None)

  def get_slot_names(self):
    """The sorted names of the slots created."""
    return sorted(self._slots.keys())

  def create_non_slot(self, initial_value, name, colocate_with=None):
    """Adds an extra variable, not associated with a slot."""
    v = self._non_slot_dict.get(name, None)
    if v is None:
      if colocate_with is None:
        colocate_with = self._non_slot_devices
      with self._distribution.extended.colocate_vars_with(colocate_with):
        v = V1.Variable(initial_value, name=name, trainable=False)
      self._non_slot_dict[name] = v
      deferred_dependencies_list = self._deferred_dependencies.pop(name, ())
      for checkpoint_position in sorted(deferred_dependencies_list,
                                        key=lambda restore: restore.checkpoint.restore_uid, reverse=True):
        checkpoint_position.restore(v)
    return v

  def get_non_slot(self, name):
    """The non-slot variable identified by `name`."""
    return self._non_slot_dict.get(name, None)

  def get_hyper(self, name, dtype=None):
    """The `name` hyper-parameter, optionally cast to `dtype`."""
    dtype_dict = self._hyper[name]
    if dtype in dtype_dict:
      return dtype_dict[dtype]
    result = tf.cast(dtype_dict[None], dtype)
    dtype_dict[dtype] = result
    return result


class OptimizerV2(V1.train.Optimizer):
  """TF 1.15's contrib OptimizerV2: per-step hyper-parameters and a `state` passed to the update methods."""

  def __init__(self, use_locking, name):  # pylint: disable=super-init-not-called
    # TF 1.15's did not call Optimizer.__init__ either.
    # pylint: disable=protected-access
    if self.__class__._create_slots.__code__ is not OptimizerV2._create_slots.__code__:
      raise RuntimeError("Override _create_vars instead of _create_slots when "
                         "descending from OptimizerV2 (class %s)" % self.__class__.__name__)
    if not name:
      raise ValueError("Must specify the optimizer name")
    self._use_locking = use_locking
    self._name = name
    replica_context = tf.distribute.get_replica_context()
    if replica_context is None:
      self._per_graph_state = {}
    else:
      self._per_graph_state = replica_context.merge_call(lambda _: {})
    self._hyper = {}

  def _set_hyper(self, name, value):
    self._hyper[name] = (_is_dynamic(value), value)

  def minimize(self, loss, global_step=None, var_list=None, gate_gradients=V1.train.Optimizer.GATE_OP,
               aggregation_method=None, name=None, grad_loss=None, stop_gradients=None,
               scale_loss_by_num_replicas=False):
    """Adds operations to minimize `loss` by updating `var_list` (TF 1.15's arguments)."""
    grads_and_vars = self.compute_gradients(
        loss, var_list=var_list, gate_gradients=gate_gradients, aggregation_method=aggregation_method,
        grad_loss=grad_loss, stop_gradients=stop_gradients,
        scale_loss_by_num_replicas=scale_loss_by_num_replicas)
    vars_with_grad = [v for g, v in grads_and_vars if g is not None]
    if not vars_with_grad:
      raise ValueError(
          "No gradients provided for any variable, check your graph for ops"
          " that do not support gradients, between variables %s and loss %s." %
          ([str(v) for _, v in grads_and_vars], loss))
    return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

  def compute_gradients(self, loss, var_list=None, gate_gradients=V1.train.Optimizer.GATE_OP,
                        aggregation_method=None, grad_loss=None, stop_gradients=None,
                        scale_loss_by_num_replicas=False):
    """[(gradient, variable)] of `loss` (a Tensor, or a callable when executing eagerly)."""
    if callable(loss):
      with tf.GradientTape() as tape:
        if var_list is not None:
          tape.watch(var_list)
        loss_value = self._scale_loss(loss(), scale_loss_by_num_replicas)
      if var_list is None:
        var_list = tape.watched_variables()
      grads = tape.gradient(loss_value, var_list, grad_loss)
      return list(zip(grads, var_list))
    if tf.executing_eagerly():
      raise RuntimeError("`loss` passed to Optimizer.compute_gradients should "
                         "be a function when eager execution is enabled.")
    loss = self._scale_loss(loss, scale_loss_by_num_replicas)
    if gate_gradients not in [V1.train.Optimizer.GATE_NONE, V1.train.Optimizer.GATE_OP,
                              V1.train.Optimizer.GATE_GRAPH]:
      raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, "
                       "Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not %s" % gate_gradients)
    self._assert_valid_dtypes([loss])
    if grad_loss is not None:
      self._assert_valid_dtypes([grad_loss])
    if var_list is None:
      var_list = (V1.trainable_variables() +
                  V1.get_collection(V1.GraphKeys.TRAINABLE_RESOURCE_VARIABLES))
    else:
      var_list = tf.nest.flatten(var_list)
    var_list += V1.get_collection("streaming_model_ports")  # ops.GraphKeys._STREAMING_MODEL_PORTS
    processors = [_get_processor(v) for v in var_list]
    if not var_list:
      raise ValueError("No variables to optimize.")
    var_refs = [p.target() for p in processors]
    grads = V1.gradients(loss, var_refs, grad_ys=grad_loss,
                         gate_gradients=(gate_gradients == V1.train.Optimizer.GATE_OP),
                         aggregation_method=aggregation_method, stop_gradients=stop_gradients)
    if gate_gradients == V1.train.Optimizer.GATE_GRAPH:
      grads = V1.tuple(grads)
    grads_and_vars = list(zip(grads, var_list))
    self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None and v.dtype != tf.resource])
    return grads_and_vars

  @staticmethod
  def _scale_loss(loss_value, scale_loss_by_num_replicas):
    if scale_loss_by_num_replicas:
      num_replicas = tf.distribute.get_strategy().num_replicas_in_sync
      if num_replicas > 1:
        loss_value *= 1. / num_replicas
    return loss_value

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    """An op applying `grads_and_vars` (and incrementing `global_step` if given)."""
    grads_and_vars = tuple(grads_and_vars)
    if not grads_and_vars:
      raise ValueError("No variables provided.")
    filtered = tuple((g, v) for (g, v) in grads_and_vars if g is not None)
    if not filtered:
      raise ValueError("No gradients provided for any variable: %s." % ([str(v) for _, v in grads_and_vars],))
    return tf.distribute.get_replica_context().merge_call(
        self._distributed_apply, args=(filtered,), kwargs={"global_step": global_step, "name": name})

  def _get_or_create_state(self, var_list=None):
    """The per-graph state of the graph of `var_list` (or the default graph)."""
    if tf.executing_eagerly() or var_list is None:
      graph = V1.get_default_graph()
    else:
      graph = var_list[0].graph
    graph_key = graph._graph_key  # pylint: disable=protected-access
    if graph_key in self._per_graph_state:
      return self._per_graph_state[graph_key]
    per_graph_state = _OptimizerV2State(self._name)
    per_graph_state._init_with_static_hyper(self._hyper)  # pylint: disable=protected-access
    self._per_graph_state[graph_key] = per_graph_state
    return per_graph_state

  def _distributed_apply(self, distribution, grads_and_vars, global_step, name):
    """`apply_gradients` for a cross-replica context."""
    reduced_grads = distribution.extended.batch_reduce_to(tf.distribute.ReduceOp.SUM, grads_and_vars)
    var_list = [v for _, v in grads_and_vars]
    grads_and_vars = zip(reduced_grads, var_list)
    unwrapped_var_list = [x for v in var_list for x in distribution.experimental_local_results(v)]
    eager_execution = tf.executing_eagerly()
    if eager_execution:
      for v in unwrapped_var_list:
        if isinstance(v, tf.Tensor):
          raise NotImplementedError("Trying to update a Tensor ", v)
    with V1.name_scope(name, self._name) as name:
      per_graph_state = self._get_or_create_state(var_list=unwrapped_var_list)
      non_slot_devices = distribution.extended.non_slot_devices(var_list)
      state = per_graph_state._copy_with_dynamic_hyper(  # pylint: disable=protected-access
          self._hyper, distribution, non_slot_devices)
    with tf.init_scope():
      self._create_vars(var_list, state)
    with V1.name_scope(name):  # re-enters the name scope created above

      def update(v, g):
        assert v is not None
        if not isinstance(g, tf.IndexedSlices):
          try:
            g = tf.convert_to_tensor(g)
          except (TypeError, ValueError):
            raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, or None: %s" % g)
        processor = _get_processor(v)
        scope_name = "" if eager_execution else v.op.name
        with V1.name_scope("update_" + scope_name):
          return processor.update_op(self, g, state)

      update_ops = []
      for grad, var in grads_and_vars:
        update_ops.extend(distribution.extended.update(var, update, args=(grad,), group=False))

      def finish():
        return self._finish(state)

      update_ops = tf.group(update_ops)
      with tf.control_dependencies([update_ops]):
        finish_updates = distribution.extended.update_non_slot(non_slot_devices, finish, group=False)
      if finish_updates == (None,) or finish_updates == [None]:
        finish_updates = (update_ops,)
      if global_step is None:
        apply_updates = distribution.group(finish_updates, name=name)
      else:
        with tf.control_dependencies(finish_updates):

          def update_global_step(global_step, name):
            return global_step.assign_add(1, read_value=False, name=name)

          apply_updates = distribution.extended.update(global_step, update_global_step, args=(name,))
      if not eager_execution:
        if isinstance(apply_updates, tf.Tensor):
          apply_updates = apply_updates.op
        train_op = V1.get_collection_ref(V1.GraphKeys.TRAIN_OP)
        if apply_updates not in train_op:
          train_op.append(apply_updates)
      return apply_updates

  def get_slot(self, var, name):
    """The slot `name` of `var` created by this optimizer, or None."""
    state = self._get_state_for_var(var)
    return state.get_slot(var, name) if state is not None else None

  def get_slot_names(self):
    """The names of the slots created in the default graph."""
    state = self._get_per_graph_state()
    return state.get_slot_names() if state is not None else []

  def variables(self):
    """The optimizer's variables in the default graph, sorted by name."""
    state = self._get_per_graph_state()
    return state._variables() if state is not None else []  # pylint: disable=protected-access

  # -- what subclasses implement ------------------------------------------------------------------------
  def _create_vars(self, var_list, state):
    """Creates the slot and non-slot variables (override)."""

  def _prepare(self, state):
    """Creates ops run before the updates (override)."""

  def _apply_dense(self, grad, var, state):
    raise NotImplementedError()

  def _resource_apply_dense(self, grad, handle, state):
    raise NotImplementedError()

  def _resource_apply_sparse_duplicate_indices(self, grad, handle, indices, state):
    summed_grad, unique_indices = optimizer_v1._deduplicate_indexed_slices(  # pylint: disable=protected-access
        values=grad, indices=indices)
    return self._resource_apply_sparse(summed_grad, handle, unique_indices, state)

  def _resource_apply_sparse(self, grad, handle, indices, state):
    raise NotImplementedError()

  def _apply_sparse_duplicate_indices(self, grad, var, state):
    summed_values, unique_indices = optimizer_v1._deduplicate_indexed_slices(  # pylint: disable=protected-access
        values=grad.values, indices=grad.indices)
    gradient_no_duplicate_indices = tf.IndexedSlices(indices=unique_indices, values=summed_values,
                                                     dense_shape=grad.dense_shape)
    return self._apply_sparse(gradient_no_duplicate_indices, var, state)

  def _apply_sparse(self, grad, var, state):
    raise NotImplementedError()

  def _finish(self, state):
    """Ops run after the updates (override); None when there are none."""
    return None

  def _get_per_graph_state(self):
    return self._per_graph_state.get(V1.get_default_graph()._graph_key, None)  # pylint: disable=protected-access

  def _get_state_for_var(self, var):
    return self._per_graph_state.get(var.graph._graph_key, None)  # pylint: disable=protected-access

  # -- object-based checkpoints: the non-slot variables are dependencies, slots are restored when created ------
  def _track_trackable(self, *args, **kwargs):
    raise NotImplementedError("Optimizers may not have dependencies. File a feature request if this "
                              "limitation bothers you.")

  def _trackable_children(self, save_type="checkpoint", **kwargs):
    del save_type, kwargs
    state = self._get_per_graph_state()
    return dict(sorted(state._non_slot_dict.items())) if state is not None else {}  # pylint: disable=protected-access

  @property
  def _checkpoint_dependencies(self):
    return [trackable_base.TrackableReference(name=name, ref=ref) for name, ref in self._trackable_children().items()]

  def _lookup_dependency(self, name, cached_dependencies=None):
    del cached_dependencies
    state = self._get_per_graph_state()
    return None if state is None else state.get_non_slot(name)

  @property
  def _deferred_dependencies(self):
    return self._get_or_create_state()._deferred_dependencies  # pylint: disable=protected-access

  def _create_or_restore_slot_variable(self, slot_variable_position, slot_name, variable):
    state = self._get_or_create_state(var_list=[variable])
    state._create_or_restore_slot_variable(  # pylint: disable=protected-access
        slot_variable_position=slot_variable_position, slot_name=slot_name, variable=variable)

  # -- the v1 slot API, refused as TF 1.15 refused it ---------------------------------------------------
  def _slot_dict(self, slot_name):
    raise NotImplementedError("_slot_dict() method unsupported in OptimizerV2")

  def _get_or_make_slot(self, var, val, slot_name, op_name):
    raise NotImplementedError("_get_or_make_slot() method unsupported in OptimizerV2")

  def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name, op_name):
    raise NotImplementedError("_get_or_make_slot_with_initializer() method unsupported in OptimizerV2")

  def _create_non_slot_variable(self, initial_value, name, colocate_with):
    raise NotImplementedError("_create_non_slot_variable() method unsupported in OptimizerV2")

  def _get_non_slot_variable(self, name, graph=None):
    raise NotImplementedError("_get_non_slot_variable() method unsupported in OptimizerV2")

  def _non_slot_variables(self):
    raise NotImplementedError("_non_slot_variables() method unsupported in OptimizerV2")
