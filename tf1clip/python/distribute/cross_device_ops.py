"""`tf.contrib.distribute.MultiWorkerAllReduce`: TF 1.15's cross-device ops on the all-reduce algorithm library.

Place in the data flow (DESIGN.md): TensorFlow's distribute/v1/all_reduce (the algorithms) and
cross_device_ops (grouping, packing, Mirrored results) <- **tf1clip.python.distribute.cross_device_ops** <-
contrib.distribute <- compat <- cli (`MirroredStrategy(cross_device_ops=MultiWorkerAllReduce(...))`).

TF 1.15's class, which TF 2 removed: gradients are grouped by device and reduced with the algorithm an
`all_reduce_spec` names ("pscpu", "psgpu", "pscpu/pscpu", "xring", "nccl", "nccl/xring", "nccl/rechd",
"nccl/pscpu"; with a "/" two levels: within a worker, then across `worker_devices`), split into `shards`, and a
spec list picks the algorithm by tensor size (each `(alg, shards, limit)` takes the tensors of at most
`limit` elements left by the ones before; -1 is no limit). TensorFlow 2.21 still has the algorithms
(`tensorflow.python.distribute.v1.all_reduce`); the plan that maps a spec onto them (TF 1.15's
cross_device_utils.sum_gradients_all_reduce) is here.

Stated differences from TF 1.15 (tests/contrib/distribute/test_all_reduce_oracle.py):
- With a spec list that splits the tensors, TF 1.15 returned the reduced tensors in the order of the groups
  (small ones first), so values came back paired with the wrong destinations. Here every result is in the
  order of its input.
- A spec tuple of more than three elements is a ValueError naming it (TF 1.15 failed formatting its own
  message: TypeError).
- IndexedSlices (sparse gradients) are reduced as TensorFlow 2.21's AllReduceCrossDeviceOps reduces them (on
  one device, then copied back), where TF 1.15's class refused them; dense values take the spec's algorithms.
- `agg_small_grads_max_bytes` / `agg_small_grads_max_group` are accepted without effect, as in
  contrib.distribute's AllReduceCrossDeviceOps (a speed option; the reduced values are the same).
"""

import tensorflow as tf
from tensorflow.python.distribute import cross_device_ops as _cross_device_ops
from tensorflow.python.distribute.v1 import all_reduce as _all_reduce

AllReduceSpecTuple = _cross_device_ops.AllReduceSpecTuple


class AllReduceCrossDeviceOps(_cross_device_ops.AllReduceCrossDeviceOps):
  """TensorFlow's AllReduceCrossDeviceOps with TF 1.15's arguments.

  `agg_small_grads_max_bytes` / `agg_small_grads_max_group` packed small gradients together before the
  all-reduce in TF 1.15 (a speed option: the reduced values are the same); TF 2 removed it, so they are
  accepted and have no effect (`num_packs` still packs).
  """

  def __init__(self, all_reduce_alg="nccl", num_packs=1, agg_small_grads_max_bytes=0,
               agg_small_grads_max_group=10):
    del agg_small_grads_max_bytes, agg_small_grads_max_group
    super().__init__(all_reduce_alg=all_reduce_alg, num_packs=num_packs)


def _spec_tuple(spec, all_reduce_spec):
  """One `(alg[, shards[, limit]])` tuple, completed with shards 1 and limit -1 (TF 1.15's rules)."""
  if not isinstance(spec, tuple):
    raise ValueError("A tuple is expected for all-reduce spec: %r" % (all_reduce_spec,))
  if not spec or len(spec) > 3:
    raise ValueError("Too many elements in the all-reduce spec tuple: %r" % (spec,))
  return AllReduceSpecTuple(*(tuple(spec) + (1, -1)[len(spec) - 1:]))


def _group_device_names(devices, group_size):
  """`devices` in groups of `group_size`, every device in at least one group (TF 1.15's round robin)."""
  if group_size > len(devices):
    raise ValueError("only %d devices, but group_size=%d" % (len(devices), group_size))
  num_groups = -(-len(devices) // group_size)
  groups = [[] for _ in range(num_groups)]
  for i in range(num_groups * group_size):
    groups[i % num_groups].append(devices[i % len(devices)])
  return groups


def _reduce_one(tensors, num_workers, alg, gpu_indices, aux_devices, num_shards):
  """The sums of one tensor's per-device copies, one a device, by algorithm `alg`."""
  with tf.name_scope("allreduce"):
    if alg == "nccl":
      return _all_reduce.build_nccl_all_reduce(tensors, tf.add)
    if alg == "xring":
      return _all_reduce.build_ring_all_reduce(tensors, num_workers, num_shards, gpu_indices, tf.add)
    if alg == "nccl/xring":
      return _all_reduce.build_nccl_then_ring(tensors, num_shards, tf.add)
    if alg == "nccl/rechd":
      return _all_reduce.build_nccl_then_recursive_hd(tensors, tf.add)
    if alg == "nccl/pscpu":
      return _all_reduce.build_nccl_then_shuffle(tensors, aux_devices, tf.add, tf.add_n)
    if alg == "pscpu/pscpu":
      return _all_reduce.build_shuffle_then_shuffle(tensors, aux_devices, aux_devices[:num_shards], tf.add_n)
    if alg in ("pscpu", "psgpu"):
      return _all_reduce.build_shuffle_all_reduce(tensors, aux_devices, tf.add_n)
    raise ValueError("unsupported all_reduce alg: ", alg)


def _sum_all_reduce(worker_devices, device_grads, alg, num_shards, gpu_indices):
  """TF 1.15's sum_gradients_all_reduce: device_grads[device][i] = (tensor, None) -> the same, summed."""
  if "pscpu" in alg:
    aux_devices = [prefix + "/cpu:0" for prefix in worker_devices]
  elif "psgpu" in alg:
    aux_devices = [prefix + "/gpu:%d" % i for i in range(len(gpu_indices)) for prefix in worker_devices]
  else:
    aux_devices = ["/job:localhost/cpu:0"]
  shuffles = "pscpu" in alg or "psgpu" in alg
  hierarchical = "/" in alg
  aux_groups = _group_device_names(aux_devices, num_shards if shuffles else 1)
  reduced = []
  for index, grad_and_vars in enumerate(zip(*device_grads)):
    devices_for_this = aux_devices if hierarchical else aux_groups[index % len(aux_groups)]
    sums = _reduce_one([g for g, _ in grad_and_vars], len(worker_devices), alg, gpu_indices,
                       devices_for_this, num_shards)
    reduced.append([(s, v) for (_, v), s in zip(grad_and_vars, sums)])
  return [list(per_device) for per_device in zip(*reduced)]


class MultiWorkerAllReduce(AllReduceCrossDeviceOps):
  """All-reduce algorithms for distributed TensorFlow (TF 1.15's `tf.contrib.distribute.MultiWorkerAllReduce`).

  Args:
    worker_devices: the device prefixes of the workers taking part ("/job:worker/task:0", ...).
    num_gpus_per_worker: GPUs on each worker (the ring and "psgpu" algorithms use them).
    all_reduce_spec: an algorithm name, an `(alg, shards, limit)` tuple (shards and limit may be left out),
      or a list of tuples with increasing limits ending with -1.
    num_packs: pack the tensors into this many before reducing (0: no packing).
    agg_small_grads_max_bytes, agg_small_grads_max_group: accepted, without effect (module docstring).
  """

  def __init__(self, worker_devices, num_gpus_per_worker, all_reduce_spec=("pscpu/pscpu", 2, -1), num_packs=0,
               agg_small_grads_max_bytes=0, agg_small_grads_max_group=10):
    self._worker_devices = worker_devices
    self._num_gpus_per_worker = num_gpus_per_worker
    super().__init__(num_packs=num_packs, agg_small_grads_max_bytes=agg_small_grads_max_bytes,
                     agg_small_grads_max_group=agg_small_grads_max_group)
    if isinstance(all_reduce_spec, str):
      self._all_reduce_spec = [AllReduceSpecTuple(all_reduce_spec, 1, -1)]
    elif isinstance(all_reduce_spec, tuple):
      self._all_reduce_spec = [_spec_tuple(all_reduce_spec, all_reduce_spec)]
    elif isinstance(all_reduce_spec, list):
      self._all_reduce_spec = [_spec_tuple(spec, all_reduce_spec) for spec in all_reduce_spec]
    else:  # TF 1.15 kept no spec at all and reduced nothing; name the argument instead
      raise ValueError("all_reduce_spec must be an algorithm name, a tuple or a list of tuples, got %r"
                       % (all_reduce_spec,))

  def _do_batch_all_reduce(self, reduce_op, dense_values):
    """Reduces dense PerReplica values by the spec's algorithms (TensorFlow calls it for the dense part)."""
    tf.compat.v1.logging.log_first_n(
        tf.compat.v1.logging.INFO,
        "Distributed batch_all_reduce: %d all-reduces with allreduce_spec = %r, num_packs = %d"
        % (len(dense_values), self._all_reduce_spec, self._num_packs), 10)
    device_grads = _cross_device_ops._group_value_by_device(dense_values)  # pylint: disable=protected-access
    # the algorithms need fully defined shapes
    for device_grad in device_grads:
      for grad, _ in device_grad:
        if not grad.shape.is_fully_defined():
          raise ValueError("Shape is unknown for node %r" % grad)
    # each tensor's position, so results come back in the input's order whatever spec took it
    remaining = list(range(len(device_grads[0])))
    reduced_by_position = {}
    for spec in self._all_reduce_spec:
      if spec.limit < 0:
        taken, remaining = remaining, []
      else:
        taken = [i for i in remaining if device_grads[0][i][0].shape.num_elements() <= spec.limit]
        remaining = [i for i in remaining if i not in taken]
      if not taken:
        continue
      # pylint: disable=protected-access
      packs, packer = _cross_device_ops._pack_tensors(
          [[per_device[i] for i in taken] for per_device in device_grads], self._num_packs)
      reduced = _sum_all_reduce(self._worker_devices, packs, spec.alg, spec.shards,
                                range(self._num_gpus_per_worker))
      reduced = _cross_device_ops._unpack_tensors(reduced, packer)
      # pylint: enable=protected-access
      for k, i in enumerate(taken):
        reduced_by_position[i] = [per_device[k] for per_device in reduced]
    if remaining:
      raise ValueError("all_reduce_spec %r leaves %d tensors without an algorithm: end it with a limit of -1"
                       % (self._all_reduce_spec, len(remaining)))
    grouped = [[reduced_by_position[i][d] for i in range(len(device_grads[0]))] for d in range(len(device_grads))]
    return _cross_device_ops._ungroup_and_make_mirrored(  # pylint: disable=protected-access
        grouped, dense_values[0], reduce_op)
