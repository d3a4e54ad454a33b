"""tf.contrib.tpu.Topology / DeviceAssignment / device_assignment against TF 1.15: TF 1.15's 3-D TPU mesh. Topologies
built from a mesh shape and device coordinates (a 2x2x2 slice on one host, a 4x4x2 slice on four hosts) and from
their serialized TopologyProto give the same inverted maps, device names and proto bytes; device_assignment places
replicas the same way (single cores, the 2-D ring tiling of two-core computations filling the mesh, 2x2x1 blocks,
strides, fewer replicas than fit, from serialized bytes), and every DeviceAssignment query agrees (coordinates,
lookup_replicas, tpu_ordinal, host_device / tpu_device with and without a job); and the errors: a mesh of rank 4,
coordinates of the wrong rank, negative coordinates in a proto, a computation that does not fit, too many
replicas, a shape of the wrong size, a non-positive stride, a topology that is not one, a replica lookup that
finds nothing."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.tpu.Topology", "tf.contrib.tpu.DeviceAssignment", "tf.contrib.tpu.device_assignment")

SNIPPET = r'''
import itertools
import numpy as np
import tensorflow as tf
tpu = tf.contrib.tpu

def coords(mesh, hosts):
    cells = [list(c) for c in itertools.product(*[range(n) for n in mesh])]
    per_host = len(cells) // hosts
    return np.array(cells).reshape(hosts, per_host, len(mesh))

small = tpu.Topology(mesh_shape=[2, 2, 2], device_coordinates=coords([2, 2, 2], 1))
big = tpu.Topology(mesh_shape=[4, 4, 2], device_coordinates=coords([4, 4, 2], 4)[:, ::-1, :])
parsed = tpu.Topology(serialized=big.serialized())
for key, topo in (("small", small), ("big", big), ("parsed", parsed)):
    report(key + "/topology", {
        "mesh_shape": topo.mesh_shape, "mesh_rank": topo.mesh_rank, "coords": topo.device_coordinates,
        "num_tasks": topo.num_tasks, "num_tpus_per_task": topo.num_tpus_per_task,
        "serialized": topo.serialized(),
        "task_at": topo.task_ordinal_at_coordinates([1, 2, 1]) if topo.mesh_shape[1] > 2 else
                   topo.task_ordinal_at_coordinates([1, 1, 0]),
        "ordinal_at": topo.tpu_device_ordinal_at_coordinates([1, 1, 1]),
        "cpu": topo.cpu_device_name_at_coordinates([1, 0, 1]),
        "tpu_job": topo.tpu_device_name_at_coordinates([0, 1, 1], job="tpu_worker")})

ASSIGNMENTS = (
    ("single", small, {}), ("replicas8", small, dict(num_replicas=8)),
    ("ring", big, dict(computation_shape=[2, 2, 2], num_replicas=4)),
    ("ring_full", big, dict(computation_shape=[1, 2, 2], num_replicas=8)),
    ("blocks", big, dict(computation_shape=[2, 2, 1], num_replicas=6)),
    ("stride", big, dict(computation_shape=[2, 1, 1], computation_stride=[2, 1, 1], num_replicas=16)),
    ("bytes", big.serialized(), dict(computation_shape=[1, 1, 2], num_replicas=5)),
    ("build", big, dict(computation_shape=[4, 1, 1], num_replicas=3, use_build=True)))
for key, topo, kwargs in ASSIGNMENTS:
    build = kwargs.pop("use_build", False)
    da = (tpu.DeviceAssignment.build if build else tpu.device_assignment)(topo, **kwargs)
    replica, core = da.num_replicas - 1, da.num_cores_per_replica - 1
    report(key + "/assignment", {
        "core_assignment": da.core_assignment, "num_replicas": da.num_replicas,
        "num_cores_per_replica": da.num_cores_per_replica, "coordinates": list(da.coordinates(replica, core)),
        "lookup": da.lookup_replicas(da.topology.task_ordinal_at_coordinates(da.coordinates(0, 0)), 0),
        "tpu_ordinal": da.tpu_ordinal(replica, core), "host": da.host_device(replica, core),
        "tpu": da.tpu_device(replica, core, job="worker"), "default_tpu": da.tpu_device()})

direct = tpu.DeviceAssignment(small, [[[0, 0, 0], [1, 1, 1]], [[1, 0, 0], [0, 1, 1]]])
report("direct", {"ordinals": [direct.tpu_ordinal(r, c) for r in range(2) for c in range(2)],
                  "replicas": direct.lookup_replicas(0, 1)})
report_errors("errors", [
    ("rank4_mesh", lambda: tpu.Topology(mesh_shape=[2, 2, 1, 2], device_coordinates=coords([2, 2, 1, 2], 1))),
    ("coords_rank", lambda: tpu.Topology(mesh_shape=[2, 2, 2], device_coordinates=np.zeros([8, 3], np.int32))),
    ("negative_proto", lambda: tpu.Topology(serialized=tpu.Topology(
        mesh_shape=[1, 1, 2], device_coordinates=[[[0, 0, -1], [0, 0, 1]]]).serialized())),
    ("too_big", lambda: tpu.device_assignment(small, computation_shape=[4, 1, 1])),
    ("too_many", lambda: tpu.device_assignment(small, num_replicas=9)),
    ("shape_size", lambda: tpu.device_assignment(small, computation_shape=[1, 1])),
    ("stride_zero", lambda: tpu.device_assignment(small, computation_stride=[1, 0, 1])),
    ("not_topology", lambda: tpu.device_assignment("topology")),
    ("not_topology_da", lambda: tpu.DeviceAssignment(object(), [[[0, 0, 0]]])),
    ("assignment_rank", lambda: tpu.DeviceAssignment(small, [[0, 0, 0]])),
    ("lookup_none", lambda: direct.lookup_replicas(3, 0))])
'''


@requires_tf115
def test_tpu_topology_and_device_assignment_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"]["rank4_mesh"] == tf115["errors"]["lookup_none"] == "ValueError"
  assert tf115["replicas8/assignment"]["num_replicas"] == 8
  assert_same(tf115, ours, rtol=0, atol=0)
