"""tf.contrib.distribute.MultiWorkerAllReduce against TF 1.15: a MirroredStrategy on two CPU devices of one
worker with MultiWorkerAllReduce as its cross-device ops. For each all-reduce spec TF 1.15 could run on CPUs
("pscpu", "pscpu/pscpu", a tuple without shards or limit, a size-split list): the SUM and MEAN batch reduction
of two per-replica tensors, and three gradient-descent steps of a mirrored variable whose per-replica gradients
differ; with num_packs; and the errors TF 1.15 gave: more shards than workers, rings and psgpu without GPUs,
NCCL without its kernel, a spec list entry that is not a tuple, a spec tuple of four elements.

Stated differences (tf1clip/python/distribute/cross_device_ops.py says why):
- a spec list that splits the tensors by size: TF 1.15 returned the reduced values in the order of the groups,
  paired with the wrong destinations ("split/sum" swapped the [4, 3] and [2] sums); tf1clip keeps each in place;
- a four-element spec tuple: TF 1.15's own message formatting failed (TypeError), tf1clip's ValueError names it;
- sparse gradients: TF 1.15's class refused IndexedSlices; tf1clip reduces them as TensorFlow's
  AllReduceCrossDeviceOps does (the test checks they are summed)."""

import numpy as np

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.distribute.MultiWorkerAllReduce",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
config = tf.ConfigProto(device_count={"CPU": 2})
devices = ["/job:localhost/replica:0/task:0/device:CPU:0", "/job:localhost/replica:0/task:0/device:CPU:1"]
worker = ["/job:localhost/replica:0/task:0"]
CASES = (("pscpu", "pscpu", 0), ("pscpu_tuple", ("pscpu", 1, -1), 0), ("hier", ("pscpu/pscpu",), 0),
         ("hier_packed", ("pscpu/pscpu", 1, -1), 2), ("split", [("pscpu", 1, 4), ("pscpu/pscpu", 1, -1)], 0),
         ("too_many_shards", ("pscpu/pscpu", 2, -1), 0), ("xring", "xring", 0), ("psgpu", "psgpu", 0),
         ("nccl", "nccl", 0))
for key, spec, packs in CASES:
    with case(key), tf.Graph().as_default():
        ops = tf.contrib.distribute.MultiWorkerAllReduce(worker, 0, all_reduce_spec=spec, num_packs=packs)
        strategy = tf.contrib.distribute.MirroredStrategy(devices, cross_device_ops=ops)
        with strategy.scope():
            def values():
                k = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32)
                return k * tf.reshape(tf.range(12.0), [4, 3]), k * tf.constant([1.0, -2.0])
            a, b = strategy.extended.call_for_each_replica(values)
            reductions = {op: strategy.extended.batch_reduce_to(getattr(tf.distribute.ReduceOp, op), [(a, a), (b, b)])
                          for op in ("SUM", "MEAN")}
            w = tf.get_variable("w", initializer=tf.constant([[1.0], [2.0], [3.0]]))
            bias = tf.get_variable("bias", initializer=tf.constant([0.5]))
            def step():
                k = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32)
                x = k * tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0)
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + bias - 1.0))
                return tf.train.GradientDescentOptimizer(0.05).minimize(loss)
            train = strategy.group(strategy.extended.call_for_each_replica(step))
        with tf.Session(config=config) as sess:
            sess.run(tf.global_variables_initializer())
            for op, reduced in reductions.items():
                for name, value in zip(("a", "b"), reduced):
                    report("%s/%s/%s" % (key, op, name), sess.run(strategy.experimental_local_results(value)))
            for _ in range(3):
                sess.run(train)
            report(key + "/trained", sess.run({"w": strategy.experimental_local_results(w),
                                               "bias": strategy.experimental_local_results(bias)}))

with case("spec_list_entry"):
    tf.contrib.distribute.MultiWorkerAllReduce(worker, 0, all_reduce_spec=[["pscpu", 1, -1]])
with case("spec_four_elements"):
    tf.contrib.distribute.MultiWorkerAllReduce(worker, 0, all_reduce_spec=("pscpu", 1, -1, 3))

# sparse gradients (an embedding lookup): TF 1.15's class refused them
with case("sparse"), tf.Graph().as_default():
    strategy = tf.contrib.distribute.MirroredStrategy(
        devices, cross_device_ops=tf.contrib.distribute.MultiWorkerAllReduce(worker, 0, all_reduce_spec="pscpu"))
    with strategy.scope():
        table = tf.get_variable("table", initializer=tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2)))
        def sparse_step():
            ids = tf.constant([0, 2]) + tf.distribute.get_replica_context().replica_id_in_sync_group
            loss = tf.reduce_sum(tf.nn.embedding_lookup(table, ids))
            return tf.train.GradientDescentOptimizer(1.0).minimize(loss)
        train = strategy.group(strategy.extended.call_for_each_replica(sparse_step))
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train)
        report("sparse/table", sess.run(strategy.experimental_local_results(table)))
'''


@requires_tf115
def test_multi_worker_all_reduce_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  # what TF 1.15 could not run on CPUs, and its errors
  assert tf115["too_many_shards:error"] == ours["too_many_shards:error"] == "ValueError"
  assert tf115["xring:error"] == "IndexError" and tf115["psgpu:error"] == "ValueError"
  assert tf115["nccl:error"] == "InvalidArgumentError"
  assert tf115["spec_four_elements:error"] == "TypeError"
  assert ours["spec_four_elements:error"] == "ValueError"
  # the reductions themselves: replica values k * x for k = 1, 2
  x = np.arange(12.0).reshape(4, 3)
  for key in ("pscpu", "pscpu_tuple", "hier", "hier_packed"):
    np.testing.assert_allclose(tf115[key + "/SUM/a"], [3 * x, 3 * x])
    np.testing.assert_allclose(tf115[key + "/MEAN/b"], [[1.5, -3.0], [1.5, -3.0]])
  # TF 1.15 returned a size-split spec's sums in the order of the groups: the [2] sum where the [4, 3] one goes
  np.testing.assert_allclose(tf115["split/SUM/a"], [[3.0, -6.0], [3.0, -6.0]])
  np.testing.assert_allclose(ours["split/SUM/a"], [3 * x, 3 * x])
  np.testing.assert_allclose(ours["split/SUM/b"], [[3.0, -6.0], [3.0, -6.0]])
  # sparse: both replicas' rows summed into every copy (rows 0 and 2 from replica 0, 1 and 3 from replica 1)
  assert "sparse:error" in tf115
  np.testing.assert_allclose(ours["sparse/table"], [np.arange(8.0).reshape(4, 2) - 1.0] * 2)
  split_keys = ["split/%s/%s" % (op, name) for op in ("SUM", "MEAN") for name in "ab"]
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6, differences={
      **{k: "TF 1.15 paired a size-split spec's results with the wrong values" for k in split_keys},
      "spec_four_elements:error": "TF 1.15's message formatting raised TypeError; tf1clip's ValueError names it",
      "sparse:error": "TF 1.15's class refused IndexedSlices; tf1clip reduces them",
      "sparse/table": "TF 1.15's class refused IndexedSlices; tf1clip reduces them"})
