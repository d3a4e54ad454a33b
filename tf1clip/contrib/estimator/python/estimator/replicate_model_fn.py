"""`tf.contrib.estimator.replicate_model_fn` and `TowerOptimizer`: TF 1.15's in-graph model_fn replication, ported.

`replicate_model_fn(model_fn, loss_reduction, devices)` returns a model_fn that splits the features and labels
along dimension 0 into one shard per device, calls `model_fn` once per device (a "tower"; the first tower's ops
and variables keep their names, the others are under `tower_<i>/` and reuse the first tower's variables, which
live on the CPU, or on the GPU when there is exactly one), and combines the towers: the losses summed (each
divided by the number of towers unless `loss_reduction` is SUM), the gradients gathered by `TowerOptimizer` and
summed before the wrapped optimizer applies them once in the last tower, eval metric variables added into the
first tower's, predictions and export outputs concatenated. With one device (`devices=None` on a machine
without GPUs means the CPU) the model_fn just runs on it. TensorFlow deprecated this for
`tf.distribute.MirroredStrategy` (RunConfig(train_distribute=...)), which tf1clip serves as well.
"""

import collections
import contextlib
import copy

import tensorflow as tf
from absl import logging


# pylint: disable=g-import-not-at-top,wrong-import-position,protected-access
from tensorflow_estimator.python.estimator import model_fn as model_fn_lib
from tensorflow_estimator.python.estimator import util as estimator_util
from tensorflow_estimator.python.estimator.export import export_output as export_output_lib

V1 = tf.compat.v1
_DEPRECATION = ("replicate_model_fn / TowerOptimizer (from tensorflow.contrib.estimator) are deprecated and will "
                "be removed after 2018-05-31. Instructions for updating: Please use "
                "`tf.contrib.distribute.MirroredStrategy` instead.")


def replicate_model_fn(model_fn, loss_reduction=V1.losses.Reduction.SUM_BY_NONZERO_WEIGHTS, devices=None):
  """Replicates an Estimator `model_fn` over `devices` (all local GPUs, else the CPU, when None).

  Each tower's optimizers must be wrapped in `TowerOptimizer` when there is more than one device. Batch sizes must
  be divisible by the number of devices.

  Args:
    model_fn: an Estimator model_fn (features, labels, mode[, params][, config]).
    loss_reduction: how tower losses combine: SUM adds them, any other reduction (not NONE) averages them.
    devices: device strings to replicate over.

  Returns:
    A model_fn for `tf.estimator.Estimator`.

  Raises:
    ValueError: `loss_reduction` is NONE; (when the model_fn runs) the optimizers are not TowerOptimizers,
      towers made different optimizer calls, or a batch does not divide by the number of devices.
  """
  logging.log_first_n(logging.WARNING, _DEPRECATION, 1)
  return _replicate_model_fn_with_mode(model_fn, loss_reduction, devices,
                                       mode=_VariableDistributionMode.SHARED_LOCAL_PARAMETER_SERVER)


class _VariableDistributionMode(object):
  """Where the variables go: one device shared by all towers (the default), or round robin over the devices."""

  SHARED_LOCAL_PARAMETER_SERVER = 1
  SHARED_ROUND_ROBIN = 2


def _replicate_model_fn_with_mode(model_fn, loss_reduction, devices=None,
                                  mode=_VariableDistributionMode.SHARED_LOCAL_PARAMETER_SERVER):
  """`replicate_model_fn` with a `_VariableDistributionMode`."""
  if loss_reduction == V1.losses.Reduction.NONE:
    raise ValueError("Tower losses need to be reduced in some way, yet {} reduction is specified."
                     .format(loss_reduction))
  if not devices:
    devices = _get_local_devices("GPU") or _get_local_devices("CPU")

  is_a_single_gpu_case = len(devices) == 1 and "GPU" in devices[0].upper()
  consolidation_device = devices[0] if is_a_single_gpu_case else "/CPU:0"

  ps_devices = [consolidation_device]
  if mode == _VariableDistributionMode.SHARED_ROUND_ROBIN:
    ps_devices = devices

  logging.info("Replicating the `model_fn` across {}.  Variables are going to be placed on {}.  Consolidation "
               "device is going to be {}.".format(devices, ps_devices, consolidation_device))

  def single_device_model_fn(features, labels, mode, params=None, config=None):
    """`model_fn` on a single device without reduction overhead."""
    return _get_loss_towers(model_fn=model_fn, mode=mode, features=[features], labels=[labels], params=params,
                            loss_reduction=loss_reduction, config=config, devices=devices,
                            local_ps_devices=ps_devices)[0]

  def replicated_model_fn(features, labels, mode, params=None, config=None):
    """Replicated version of `model_fn` to be used instead."""
    feature_shards, label_shards = _split_batch(features, labels, len(devices), device=consolidation_device)
    tower_specs = _get_loss_towers(model_fn=model_fn, mode=mode, features=feature_shards, labels=label_shards,
                                   params=params, loss_reduction=loss_reduction, config=config, devices=devices,
                                   local_ps_devices=ps_devices)
    if mode == model_fn_lib.ModeKeys.TRAIN:
      train_op = _minimize_towers(tower_specs)
      return _train_spec(tower_specs, train_op, aggregation_device=consolidation_device)
    elif mode == model_fn_lib.ModeKeys.EVAL:
      return _eval_spec(tower_specs, aggregation_device=consolidation_device)
    elif mode == model_fn_lib.ModeKeys.PREDICT:
      return _predict_spec(tower_specs, aggregation_device=consolidation_device)

  if len(devices) == 1:
    return single_device_model_fn
  return replicated_model_fn


class TowerOptimizer(V1.train.Optimizer):
  """Gathers gradients from all towers and reduces them in the last one.

  Every call of the model_fn must make the same optimizer calls in the same order. Without
  `replicate_model_fn` (or with one tower) it forwards every call to the wrapped optimizer.
  """

  COLLECTION_FOR_GRAPH_STATES = "replicate_model_fn_graph_states"

  def __init__(self, optimizer_or_optimizer_fn):  # pylint: disable=super-init-not-called
    """Wraps an optimizer, or a no-argument function returning one (called under the model_fn's graph)."""
    logging.log_first_n(logging.WARNING, _DEPRECATION, 1)
    self._optimizer_or_optimizer_fn = optimizer_or_optimizer_fn

  @staticmethod
  def has_been_used():
    return TowerOptimizer._graph_state().has_tower_optimizer_been_used

  def get_slot(self, *args, **kwargs):
    return self._get_optimizer().get_slot(*args, **kwargs)

  def get_slot_names(self, *args, **kwargs):
    return self._get_optimizer().get_slot_names(*args, **kwargs)

  def get_name(self, *args, **kwargs):
    return self._get_optimizer().get_name(*args, **kwargs)

  def variables(self, *args, **kwargs):
    return self._get_optimizer().variables(*args, **kwargs)

  def compute_gradients(self, loss, *args, **kwargs):
    """Compute gradients, but first, if needed, scale the loss."""
    loss = _scale_loss(loss, self._graph_state().loss_reduction, self._graph_state().number_of_towers)
    return self._get_optimizer().compute_gradients(loss, *args, **kwargs)

  def apply_gradients(self, grads_and_vars, global_step=None, **kwargs):
    """Collect gradients updates to apply them with the last tower."""
    if self._graph_state().number_of_towers == 1:
      # one tower (or no replicate_model_fn): no reduction
      return self._get_optimizer().apply_gradients(grads_and_vars, global_step, **kwargs)

    self._graph_state().collect_gradients(grads_and_vars)

    if not self._graph_state().is_the_last_tower:
      with tf.control_dependencies(_extract_tensors(grads_and_vars)):
        return self._construct_no_op_train_op()
    # applied in the first tower's scopes, so that names without a prefix reach them
    var_scope, name_scope = self._graph_state().scopes_of_the_first_tower
    with V1.variable_scope(var_scope):
      with V1.name_scope(name_scope):
        return self._apply_gathered_gradients(global_step, **kwargs)

  def _apply_gathered_gradients(self, global_step, **kwargs):
    graph_state = self._graph_state()
    optimizer = self._get_optimizer()

    grad_lists = {}
    for grad, var in graph_state.get_latest_gradients_from_all_towers():
      if grad is not None:
        grad_lists.setdefault(var.ref(), []).append(grad)

    aggregated_grads = []
    with V1.name_scope("gradient_aggregating"):
      for var_ref, grads in grad_lists.items():
        var = var_ref.deref()
        grad = _compute_sum_on_device(grads, var.device)
        aggregated_grads.append((grad, var))
    return optimizer.apply_gradients(aggregated_grads, global_step=global_step, **kwargs)

  def _get_optimizer(self):
    if callable(self._optimizer_or_optimizer_fn):
      # built under the right graph: the first time it is needed
      self._optimizer_or_optimizer_fn = self._optimizer_or_optimizer_fn()
    self._graph_state().has_tower_optimizer_been_used = True
    return self._optimizer_or_optimizer_fn

  def _construct_no_op_train_op(self):
    return tf.no_op(name="train_op_placeholder")

  @staticmethod
  def _graph_state():
    graph_states = V1.get_default_graph().get_collection_ref(TowerOptimizer.COLLECTION_FOR_GRAPH_STATES)
    if not graph_states:
      graph_states.append(TowerOptimizer._PerGraphState())
    return graph_states[-1]

  @staticmethod
  def _did_towers_have_same_optimizer_calls():
    return TowerOptimizer._graph_state().did_towers_have_same_optimizer_calls()

  @staticmethod
  def _clear_graph_state():
    # the state must not be serialized with the graph
    V1.get_default_graph().clear_collection(TowerOptimizer.COLLECTION_FOR_GRAPH_STATES)

  class _PerGraphState(object):
    """Gradient reduction related state of a Tensorflow graph."""

    def __init__(self):
      self._collected_grads_and_vars = collections.defaultdict(list)
      self._current_tower_index = 0
      self._number_of_towers = 1
      self._loss_reduction = None
      # Scopes of the first tower that don't have a prefix:
      self._variable_scope = None
      self._name_scope = None
      # If needed, alert that TowerOptimizer needs to be used with model_fn.
      self._has_tower_optimizer_been_used = False

    def collect_gradients(self, grads_and_vars):
      self._collected_grads_and_vars[self._current_tower_index].append(grads_and_vars)

    def get_latest_gradients_from_all_towers(self):
      """Get gradients across towers for the last called optimizer."""
      grads_and_vars = []
      index_of_last_gradients = len(self._collected_grads_and_vars[self._current_tower_index]) - 1
      for tower_id in range(self._current_tower_index + 1):
        grads_and_vars.extend(self._collected_grads_and_vars[tower_id][index_of_last_gradients])
      return grads_and_vars

    def set_reduction_across_towers(self, loss_reduction, number_of_towers):
      self._loss_reduction = loss_reduction
      self._number_of_towers = number_of_towers

    @contextlib.contextmanager
    def tower(self, tower_id, var_scope, name_scope):
      if tower_id == 0:
        self._variable_scope = var_scope
        self._name_scope = name_scope
      self._current_tower_index = tower_id
      yield

    @property
    def scopes_of_the_first_tower(self):
      return self._variable_scope, self._name_scope

    @property
    def is_the_last_tower(self):
      return self._current_tower_index == (self._number_of_towers - 1)

    @property
    def number_of_towers(self):
      return self._number_of_towers

    @property
    def loss_reduction(self):
      return self._loss_reduction

    @property
    def has_tower_optimizer_been_used(self):
      return self._has_tower_optimizer_been_used

    @has_tower_optimizer_been_used.setter
    def has_tower_optimizer_been_used(self, value):
      self._has_tower_optimizer_been_used = value

    def did_towers_have_same_optimizer_calls(self):
      total_number_of_grads = sum(len(grads) for grads in self._collected_grads_and_vars.values())
      return total_number_of_grads % self._number_of_towers == 0


def _get_local_devices(device_type):
  return [device.name for device in tf.config.list_logical_devices(device_type)]


def _split_batch(features, labels, number_of_shards, device):
  """Split input features and labels into batches."""

  def ensure_divisible_by_shards(sequence):
    batch_size = tf.convert_to_tensor(sequence).get_shape()[0]
    if batch_size % number_of_shards != 0:
      raise ValueError("Batch size {} needs to be divisible by the number of GPUs, which is {}."
                       .format(batch_size, number_of_shards))

  def split_dictionary(dictionary):
    """Split a dictionary into shards."""
    shards = [{} for _ in range(number_of_shards)]
    for name, tensor in dictionary.items():
      if isinstance(tensor, tf.SparseTensor):
        for i, shard in enumerate(V1.sparse.split(sp_input=tensor, num_split=number_of_shards, axis=0)):
          shards[i][name] = shard
      else:
        ensure_divisible_by_shards(tensor)
        for i, shard in enumerate(tf.split(tensor, number_of_shards)):
          shards[i][name] = shard
    return shards

  with V1.name_scope("split_inputs"):
    with V1.device(device):
      if isinstance(features, dict):
        feature_shards = split_dictionary(features)
      else:
        ensure_divisible_by_shards(features)
        feature_shards = tf.split(features, number_of_shards)

      if labels is None:
        label_shards = None
      elif isinstance(labels, dict):
        label_shards = split_dictionary(labels)
      else:
        ensure_divisible_by_shards(labels)
        label_shards = tf.split(labels, number_of_shards)
  return feature_shards, label_shards


_DEFAULT_NAME_SCOPE_PATTERN = "tower_{}"


def _round_robin_strategy(num_tasks):
  """TF 1.15's device_setter._RoundRobinStrategy: op -> the next of `num_tasks` ps tasks, in turn."""
  next_task = [0]

  def strategy(unused_op):
    task = next_task[0]
    next_task[0] = (task + 1) % num_tasks
    return task

  return strategy


def _get_loss_towers(model_fn, mode, features, labels, params, config, devices, local_ps_devices, loss_reduction,
                     name_scope_pattern=_DEFAULT_NAME_SCOPE_PATTERN):
  """Replicate the loss computation across devices."""
  tower_specs = []

  model_fn_args = estimator_util.fn_args(model_fn)
  optional_params = {}
  if "params" in model_fn_args:
    optional_params["params"] = copy.deepcopy(params)
  if "config" in model_fn_args:
    optional_params["config"] = copy.deepcopy(config)

  round_robin_strategy = _round_robin_strategy(num_tasks=len(local_ps_devices))
  TowerOptimizer._graph_state().set_reduction_across_towers(loss_reduction, len(devices))

  for i, device in enumerate(devices):
    is_the_first_tower = (i == 0)
    device_setter = _local_device_setter(worker_device=device, ps_devices=local_ps_devices,
                                         ps_strategy=round_robin_strategy)
    # names without a prefix resolve to the first tower's variables and ops
    name_scope = name_scope_pattern
    if is_the_first_tower:
      name_scope = ""

    with V1.variable_scope("", reuse=not is_the_first_tower) as var_scope:
      with V1.name_scope(name_scope.format(i)) as name_scope:
        with TowerOptimizer._graph_state().tower(tower_id=i, var_scope=var_scope, name_scope=name_scope):
          with V1.device(device_setter):
            labels_shard = None
            if labels:
              labels_shard = labels[i]

            tower_spec = model_fn(mode=mode, features=features[i], labels=labels_shard, **optional_params)

            if tower_spec.train_op is not None and len(devices) > 1 and not TowerOptimizer.has_been_used():
              raise ValueError("Please wrap optimizers with TowerOptimizer in order to use replicate_model_fn "
                               "with multiple `devices`.")

            # this scaling does not change the gradients (TowerOptimizer scales those)
            tower_spec = _scale_tower_loss(tower_spec, loss_reduction, number_of_towers=len(devices))
            tower_specs.append(tower_spec)

  if not TowerOptimizer._did_towers_have_same_optimizer_calls():
    raise ValueError("Each invocation of model_fn was supposed to make the same optimizer calls.")
  TowerOptimizer._clear_graph_state()
  return tower_specs


def _local_device_setter(worker_device, ps_devices, ps_strategy):
  """A device function putting variables on `ps_devices` (by `ps_strategy`) and other ops on `worker_device`."""
  ps_ops = ["Variable", "VariableV2", "VarHandleOp"]

  def local_device_chooser(op):
    current_device = V1.DeviceSpec.from_string(op.device or "")
    node_def = op if isinstance(op, V1.NodeDef) else op.node_def
    if node_def.op in ps_ops:
      ps_device_spec = V1.DeviceSpec.from_string("{}".format(ps_devices[ps_strategy(op)]))
      ps_device_spec.merge_from(current_device)
      return ps_device_spec.to_string()
    worker_device_spec = V1.DeviceSpec.from_string(worker_device or "")
    worker_device_spec.merge_from(current_device)
    return worker_device_spec.to_string()

  return local_device_chooser


def _scale_tower_loss(tower_spec, loss_reduction, number_of_towers):
  """Produce an EstimatorSpec with appropriately scaled loss."""
  if tower_spec.loss is None:
    return tower_spec
  estimator_spec = _asdict(tower_spec)
  estimator_spec["loss"] = _scale_loss(tower_spec.loss, loss_reduction, number_of_towers)
  return model_fn_lib.EstimatorSpec(**estimator_spec)


def _scale_loss(loss, loss_reduction, number_of_towers):
  """If needed, scale down the loss for averaging loss by summing."""
  if loss is None:
    return None
  if number_of_towers == 1:
    return loss
  if loss_reduction != V1.losses.Reduction.SUM:
    return V1.div(loss, 1.0 * number_of_towers, name="averaged_loss")
  return loss


def _minimize_towers(tower_specs):
  """`train_op` of the last tower applies aggregated gradients."""
  return tower_specs[-1].train_op


def _compute_sum_on_device(values, device, name=None):
  with V1.device(device):
    if isinstance(values[0], tf.IndexedSlices):
      if name:
        raise ValueError("The name {} is not expected to be given to IndexedSlices {}".format(name, values))
      values_concat = tf.concat([v.values for v in values], axis=0)
      indices_concat = tf.concat([v.indices for v in values], axis=0)
      return tf.IndexedSlices(values_concat, indices_concat, values[0].dense_shape)
    return tf.add_n(values, name=name)


def _train_spec(tower_specs, train_op, aggregation_device, aggregated_loss_name="loss"):
  """Populate replicated EstimatorSpec for `GraphKeys.TRAIN`."""
  # the last tower's spec: its training_hooks may rely on calls made only in the last tower
  estimator_spec = _asdict(tower_specs[-1])
  estimator_spec["mode"] = model_fn_lib.ModeKeys.TRAIN
  estimator_spec["train_op"] = train_op
  estimator_spec["loss"] = _compute_sum_on_device([spec.loss for spec in tower_specs], aggregation_device,
                                                  aggregated_loss_name)
  return model_fn_lib.EstimatorSpec(**estimator_spec)


def _eval_spec(tower_specs, aggregation_device, aggregated_loss_name="loss"):
  """Populate replicated EstimatorSpec for `GraphKeys.EVAL`."""
  estimator_spec = _asdict(tower_specs[0])
  estimator_spec["mode"] = model_fn_lib.ModeKeys.EVAL
  estimator_spec["loss"] = _compute_sum_on_device([spec.loss for spec in tower_specs], aggregation_device,
                                                  aggregated_loss_name)
  update_ops = []
  for tower_spec in tower_specs:
    for _, (_, update_op) in tower_spec.eval_metric_ops.items():
      update_ops.append(update_op)

  with tf.control_dependencies(update_ops):
    reduced_update_op = _reduce_metric_variables(len(tower_specs))

  eval_metric_ops = {}
  for name, (metric_tensor, _) in tower_specs[0].eval_metric_ops.items():
    eval_metric_ops[name] = (metric_tensor, reduced_update_op)
  estimator_spec["eval_metric_ops"] = eval_metric_ops
  return model_fn_lib.EstimatorSpec(**estimator_spec)


def _reduce_metric_variables(number_of_towers):
  """Adds the other towers' metric variables into the first tower's (and zeroes them: idempotent)."""
  if number_of_towers == 1:
    return tf.no_op(name="no_eval_metric_reduction")

  metric_variables = V1.get_collection(V1.GraphKeys.METRIC_VARIABLES)
  variables_per_tower = len(metric_variables) // number_of_towers

  if len(metric_variables) % number_of_towers != 0:
    raise ValueError("Different `EstimatorSpec.eval_metric_ops` across `model_fn()` calls. Expected {} local "
                     "variables, but got {} instead.".format(variables_per_tower * number_of_towers,
                                                             len(metric_variables)))

  # variable j of tower t is metric_variables[t * variables_per_tower + j]
  ops = []
  for i in range(0, variables_per_tower):
    next_replica_id = i + variables_per_tower
    replicas = [metric_variables[replica_id]
                for replica_id in range(next_replica_id, len(metric_variables), variables_per_tower)]
    reduce_op = V1.assign_add(metric_variables[i], tf.add_n(replicas))
    with tf.control_dependencies([reduce_op]):
      for replica in replicas:
        zeros_for_replica = tf.zeros(tf.shape(replica), dtype=replica.dtype)
        ops.append(V1.assign(replica, zeros_for_replica))
  return tf.group(*ops)


def _predict_spec(tower_specs, aggregation_device):
  """Populate replicated EstimatorSpec for `GraphKeys.PREDICT`."""
  estimator_spec = _asdict(tower_specs[0])
  estimator_spec["mode"] = model_fn_lib.ModeKeys.PREDICT

  with V1.device(aggregation_device):
    estimator_spec["predictions"] = _concat_tensor_dicts(*[tower_spec.predictions for tower_spec in tower_specs])
    export_outputs_dict = _dict_concat(*[tower_spec.export_outputs for tower_spec in tower_specs])

    export_outputs = {}
    for name, export_output_list in export_outputs_dict.items():
      if isinstance(export_output_list[0], export_output_lib.PredictOutput):
        export_outputs[name] = export_output_lib.PredictOutput(outputs=_concat_tensor_dicts(
            *[export_output.outputs for export_output in export_output_list]))
      elif isinstance(export_output_list[0], export_output_lib.RegressionOutput):
        export_outputs[name] = export_output_lib.RegressionOutput(value=tf.concat(
            [export_output.value for export_output in export_output_list], axis=0))
      elif isinstance(export_output_list[0], export_output_lib.ClassificationOutput):
        scores = None
        if export_output_list[0].scores is not None:
          scores = tf.concat([export_output.scores for export_output in export_output_list], axis=0)
        classes = None
        if export_output_list[0].classes is not None:
          classes = tf.stack([export_output.classes for export_output in export_output_list], axis=0)
        export_outputs[name] = export_output_lib.ClassificationOutput(scores=scores, classes=classes)

  estimator_spec["export_outputs"] = export_outputs
  return model_fn_lib.EstimatorSpec(**estimator_spec)


def _concat_tensor_dicts(*tensor_dicts):
  return {name: tf.concat(tensors, axis=0, name=name)
          for name, tensors in _dict_concat(*tensor_dicts).items()}


def _extract_tensors(tensors_and_vars):
  tensors = []
  for tensor, _ in tensors_and_vars:
    if isinstance(tensor, tf.IndexedSlices):
      tensors.append(tensor.values)
    elif tensor is not None:
      tensors.append(tensor)
  return tensors


def _dict_concat(*dicts):
  list_dict = {}
  for d in dicts:
    if d is None:
      continue
    for k, v in d.items():
      list_dict.setdefault(k, []).append(v)
  return list_dict


def _asdict(namedtuple):
  """The fields of a namedtuple (subclass) as a dict."""
  return {k: getattr(namedtuple, k) for k in namedtuple._fields}
