"""`tf.contrib.tpu.Topology`, `DeviceAssignment`, `device_assignment`: TF 1.15's 3-D TPU topology and core placement.

Place in the data flow (DESIGN.md): TensorFlow's TopologyProto <- **contrib.tpu.python.tpu.topology** <- contrib.tpu <- compat <-
cli (`tf.contrib.tpu.device_assignment(topology, computation_shape, num_replicas=...)`).

TF 1.15 described a TPU slice as a 3-D mesh `(x, y, core)`; TensorFlow 2.21's `tf.tpu.experimental.Topology` and
`DeviceAssignment` insist on a 4-D one `(x, y, z, core)`, so TF 1.15's calls (a 3-entry `mesh_shape`, 3-entry
`computation_shape`, the serialized topology a TF 1.15-era `initialize_system` returned) do not carry over. These
are TF 1.15's classes and function with TF 1.15's rules: the topology validated and inverted to per-coordinate
task / device maps, the replicas packed into the mesh (the 2-D ring tiling for two-core computations that fill
it), the device names. They are plain Python objects, as TF 1.15's were. Stated difference: TensorFlow 2.21's own
TPU functions (`tf.compat.v1.tpu.replicate`, TPUStrategy) take only its 4-D classes, and this machine-independent
code cannot make a 3-D assignment run on today's TPU runtime; what the objects compute is TF 1.15's.
"""

import math

import numpy as np
from absl import logging
from tensorflow.core.protobuf.tpu import topology_pb2

from tf1clip import validation

SINGLE_CORE_ASSIGNMENT = [[[0, 0, 0]]]


def _tpu_device_name(job, task, device):
  return ("/task:%d/device:TPU:%d" % (task, device) if job is None
          else "/job:%s/task:%d/device:TPU:%d" % (job, task, device))


def _tpu_host_device_name(job, task):
  return "/task:%d/device:CPU:0" % task if job is None else "/job:%s/task:%d/device:CPU:0" % (job, task)


class Topology(object):
  """A set of TPU devices: the physical mesh's shape and which TensorFlow device sits at each coordinate.

  Args:
    serialized: a serialized TopologyProto (then the other arguments are ignored), or None.
    mesh_shape: 3 positive integers, the mesh in cores (x, y, core).
    device_coordinates: a [tasks, devices per task, 3] array: each TPU device's mesh coordinates.

  Raises:
    ValueError: a malformed proto, mesh_shape or device_coordinates.
  """

  def __init__(self, serialized=None, mesh_shape=None, device_coordinates=None):
    self._serialized = serialized
    if serialized:
      self._parse_topology(serialized)
    else:
      self._mesh_shape = np.asarray(mesh_shape, dtype=np.int32)
      self._device_coordinates = np.asarray(device_coordinates, np.int32)
      if len(self._mesh_shape) != 3 or any(self._mesh_shape < 1):
        raise ValueError("`mesh_shape` must be a sequence of 3 positive entries; got {}".format(self._mesh_shape))
      if len(self._device_coordinates.shape) != 3 or self._device_coordinates.shape[2] != len(self._mesh_shape):
        raise ValueError("`device_coordinates` must be a rank 3 int32 array with minor dimension equal to the "
                         "mesh shape rank")
    self._topology_tasks, self._topology_devices = self._invert_topology()

  def _parse_topology(self, serialized):
    proto = topology_pb2.TopologyProto()
    proto.ParseFromString(serialized)
    self._mesh_shape = np.array(proto.mesh_shape, dtype=np.int32)
    if len(self._mesh_shape) != 3 or any(self._mesh_shape < 1):
      raise ValueError("`mesh_shape` must be a vector of size 3 with positive entries; got {}".format(
          self._mesh_shape))
    validation.non_negative(proto.num_tasks, "num_tasks", allow_tensor=False)
    validation.non_negative(proto.num_tpu_devices_per_task, "num_tpu_devices_per_task", allow_tensor=False)
    expected = proto.num_tasks * proto.num_tpu_devices_per_task * len(proto.mesh_shape)
    if len(proto.device_coordinates) != expected:
      raise ValueError("`device_coordinates` must have shape num_tasks ({}) * num_tpu_devices_per_task ({}) * "
                       "len(mesh_shape) ({}); got shape {}".format(proto.num_tasks, proto.num_tpu_devices_per_task,
                                                                   proto.mesh_shape, len(proto.device_coordinates)))
    coords = np.array(proto.device_coordinates, dtype=np.int32)
    if any(coords < 0):
      raise ValueError("`device_coordinates` must be >= 0")
    self._device_coordinates = coords.reshape(
        (proto.num_tasks, proto.num_tpu_devices_per_task, len(proto.mesh_shape)))

  def _invert_topology(self):
    """[task, device, axis] -> the task and the device at each (x, y, core)."""
    tasks = np.full(list(self.mesh_shape), -1, dtype=np.int32)
    devices = np.full(list(self.mesh_shape), -1, dtype=np.int32)
    for task in range(self.device_coordinates.shape[0]):
      for device in range(self.device_coordinates.shape[1]):
        x, y, z = self.device_coordinates[task, device, :]
        tasks[x, y, z] = task
        devices[x, y, z] = device
    return tasks, devices

  @property
  def mesh_shape(self):
    """A rank 1 int32 array: the mesh's shape."""
    return self._mesh_shape

  @property
  def mesh_rank(self):
    """The number of mesh dimensions (3)."""
    return len(self._mesh_shape)

  @property
  def device_coordinates(self):
    """A [tasks, devices, axis] int32 array: each task / device pair's mesh coordinates."""
    return self._device_coordinates

  def task_ordinal_at_coordinates(self, device_coordinates):
    """The TensorFlow task holding the TPU device at `device_coordinates`."""
    return self._topology_tasks[tuple(device_coordinates)]

  def tpu_device_ordinal_at_coordinates(self, device_coordinates):
    """The TPU device number, within its task, at `device_coordinates`."""
    return self._topology_devices[tuple(device_coordinates)]

  def cpu_device_name_at_coordinates(self, device_coordinates, job=None):
    """The host CPU device of the TPU device at `device_coordinates`."""
    return _tpu_host_device_name(job, self._topology_tasks[tuple(device_coordinates)])

  def tpu_device_name_at_coordinates(self, device_coordinates, job=None):
    """The TPU device name at `device_coordinates`."""
    return _tpu_device_name(job, self._topology_tasks[tuple(device_coordinates)],
                            self._topology_devices[tuple(device_coordinates)])

  @property
  def num_tasks(self):
    """The number of TensorFlow tasks in the slice."""
    return self._device_coordinates.shape[0]

  @property
  def num_tpus_per_task(self):
    """The number of TPU devices per task."""
    return self._device_coordinates.shape[1]

  def serialized(self):
    """The TopologyProto, serialized."""
    if self._serialized is None:
      proto = topology_pb2.TopologyProto()
      proto.mesh_shape[:] = list(self._mesh_shape)
      proto.num_tasks = self._device_coordinates.shape[0]
      proto.num_tpu_devices_per_task = self._device_coordinates.shape[1]
      proto.device_coordinates.extend(list(self._device_coordinates.flatten()))
      self._serialized = proto.SerializeToString()
    return self._serialized


def _task_and_cores_to_replicas(core_assignment, topology):
  """{task: {logical core: sorted replicas}} of an assignment."""
  found = {}
  for replica in range(core_assignment.shape[0]):
    for logical_core in range(core_assignment.shape[1]):
      task = topology.task_ordinal_at_coordinates(core_assignment[replica, logical_core, :])
      found.setdefault(task, {}).setdefault(logical_core, set()).add(replica)
  return {task: {core: sorted(replicas) for core, replicas in cores.items()} for task, cores in found.items()}


class DeviceAssignment(object):
  """Which physical TPU core runs each logical core of each replica (TF 1.15's).

  Args:
    topology: a Topology.
    core_assignment: a [replicas, cores per replica, 3] array of mesh coordinates.

  Raises:
    ValueError: `topology` is not a Topology, or `core_assignment` is not rank 3 with the topology's rank last.
  """

  def __init__(self, topology, core_assignment):
    if not isinstance(topology, Topology):
      raise ValueError("topology must be a Topology object, got {}".format(type(topology)))
    core_assignment = np.asarray(core_assignment, dtype=np.int32)
    self._topology = topology
    if core_assignment.ndim != 3:
      raise ValueError("core_assignment must be a rank 3 numpy array, got shape {}".format(core_assignment.shape))
    self._num_replicas = core_assignment.shape[0]
    self._num_cores_per_replica = core_assignment.shape[1]
    if core_assignment.shape[-1] != topology.mesh_rank:
      raise ValueError("minor dimension of core_assignment must have size equal to topology rank ({}), got shape "
                       "{}".format(topology.mesh_rank, core_assignment.shape))
    self._core_assignment = core_assignment
    self._task_and_cores_to_replicas = _task_and_cores_to_replicas(core_assignment, topology)

  @property
  def topology(self):
    return self._topology

  @property
  def num_cores_per_replica(self):
    return self._num_cores_per_replica

  @property
  def num_replicas(self):
    return self._num_replicas

  @property
  def core_assignment(self):
    """The [replicas, cores per replica, topology rank] int32 array of mesh coordinates."""
    return self._core_assignment

  def coordinates(self, replica, logical_core):
    """The mesh coordinates of a replica's logical core."""
    return tuple(self.core_assignment[replica, logical_core, :])

  def lookup_replicas(self, task_id, logical_core):
    """The sorted replicas whose `logical_core` is on task `task_id`; ValueError when there are none."""
    try:
      return self._task_and_cores_to_replicas[task_id][logical_core]
    except KeyError:
      raise ValueError("Can not find any replica in task: {} contains logical_core: {} ".format(
          task_id, logical_core)) from None

  def tpu_ordinal(self, replica=0, logical_core=0):
    """The TPU device number (within its task) of a replica's logical core."""
    return self._topology.tpu_device_ordinal_at_coordinates(self.coordinates(replica, logical_core))

  def host_device(self, replica=0, logical_core=0, job=None):
    """The host CPU device of a replica's logical core."""
    return self._topology.cpu_device_name_at_coordinates(self.coordinates(replica, logical_core), job=job)

  def tpu_device(self, replica=0, logical_core=0, job=None):
    """The TPU device name of a replica's logical core."""
    return self._topology.tpu_device_name_at_coordinates(self.coordinates(replica, logical_core), job=job)

  @staticmethod
  def build(topology, computation_shape=None, computation_stride=None, num_replicas=1):
    return device_assignment(topology, computation_shape, computation_stride, num_replicas)


def _ring_2d(height, width):
  """[y, x] pairs of a height x width mesh in ring order (a snake through even row pairs, back up column 0)."""
  if height == 1:
    return [(0, i) for i in range(width)]
  if width == 1:
    return [(i, 0) for i in range(height)]
  if height % 2 != 0:
    logging.warning("Odd dimension")
    return [(i % height, i // height) for i in range(width * height)]
  ring = [(0, 0)]
  for i in range(height // 2):
    ring.extend((2 * i, j) for j in range(1, width))
    ring.extend((2 * i + 1, j) for j in range(width - 1, 0, -1))
  ring.extend((i, 0) for i in range(height - 1, 0, -1))
  return ring


def _vector(value, rank, name):
  vector = np.array([1] * rank, dtype=np.int32) if value is None else np.asarray(value, dtype=np.int32)
  if vector.shape != (rank,):
    raise ValueError("{} must have shape [{}]; got {}".format(name, rank, vector.shape))
  if any(vector < 1):
    raise ValueError("{} must be positive; got {}={}".format(name, name, vector))
  return vector


def device_assignment(topology, computation_shape=None, computation_stride=None, num_replicas=1):
  """A DeviceAssignment packing `num_replicas` blocks of `computation_shape` cores into the topology.

  Args:
    topology: a Topology, or a serialized TopologyProto (what `initialize_system` returned, evaluated).
    computation_shape: 3 positive integers, the block of cores of one replica (default [1, 1, 1]).
    computation_stride: 3 positive integers, the spacing of those cores (default [1, 1, 1]).
    num_replicas: how many replicas to place.

  Raises:
    ValueError: not a topology, a shape or stride of the wrong size or not positive, or replicas that do not fit.
  """
  if isinstance(topology, bytes):
    topology = Topology(serialized=topology)
  if not isinstance(topology, Topology):
    raise ValueError("`topology` is not a Topology object; got {}".format(type(topology)))
  rank = len(topology.mesh_shape)
  mesh_shape = topology.mesh_shape
  computation_shape = _vector(computation_shape, rank, "computation_shape")
  computation_stride = _vector(computation_stride, rank, "computation_stride")
  footprint = computation_shape * computation_stride
  if any(footprint > mesh_shape):
    raise ValueError("computation footprint {} does not fit in TPU topology shape {}".format(footprint, mesh_shape))
  replica_counts = (mesh_shape // footprint) * computation_stride
  max_replicas = np.prod(replica_counts)
  if num_replicas > max_replicas:
    raise ValueError("requested {} replicas but only {} replicas with shape {} and computation_stride {} fit in a "
                     "TPU mesh of shape {}".format(num_replicas, max_replicas, computation_shape, computation_stride,
                                                   mesh_shape))
  # the replicas' grid: as near a cube as the mesh allows, smallest dimensions first
  replica_shape = [0] * rank
  if num_replicas > 0:
    remaining, dims = num_replicas, rank
    for count, neg_index in sorted((x, -i) for i, x in enumerate(replica_counts)):
      size = min(int(math.ceil(remaining ** (1.0 / dims))), count)
      replica_shape[-neg_index] = size
      remaining, dims = (remaining + size - 1) // size, dims - 1
    assert remaining == 1 and dims == 0
  tile_2d = (rank == 3 and computation_shape[-1] == 2 and np.prod(computation_stride) == 1
             and num_replicas == max_replicas)
  logging.info("enable_2d_tiling: {}".format(tile_2d))
  if tile_2d:
    inner_ring = _ring_2d(computation_shape[0], computation_shape[1])
    outer_ring = _ring_2d(replica_shape[0], replica_shape[1])
    assignment = []
    for replica in range(num_replicas):
      outer_x, outer_y = outer_ring[replica]
      assignment.append([[outer_x * computation_shape[0] + inner_ring[index // 2][0],
                          outer_y * computation_shape[1] + inner_ring[index // 2][1], index % 2]
                         for index in range(np.prod(computation_shape))])
  else:
    offsets = np.full([num_replicas, rank], -1, dtype=np.int32)
    for replica in range(num_replicas):
      t, position = replica, []
      for dim in replica_shape[::-1]:
        position.append(t % dim)
        t //= dim
      position = np.array(position[::-1], dtype=np.int32)
      offsets[replica, :] = (position // computation_stride) * footprint + position % computation_stride
    axes = [np.arange(0, computation_shape[i] * computation_stride[i], computation_stride[i]) for i in range(rank)]
    indices = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape((-1, rank))
    assignment = indices + offsets[:, np.newaxis, :]
  return DeviceAssignment(topology, core_assignment=assignment)
