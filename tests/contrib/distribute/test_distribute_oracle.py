"""tf.contrib.distribute against TF 1.15: MirroredStrategy over two CPU replicas (one session with two CPU devices)
in an Estimator (the same weights after the same steps: per-replica input batches, averaged gradients) and in
plain graph code (make_dataset_iterator gives every replica a whole batch, as TF 1.15's contrib strategy did;
experimental_run, reduce, mirrored variables), one-device and context functions, and the errors.

StandardSingleLossStep on a OneDeviceStrategy (STEP_SNIPPET): two steps of two iterations.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.distribute." + n for n in (
    "MirroredStrategy", "OneDeviceStrategy", "get_replica_context", "get_cross_replica_context",
    "in_cross_replica_context", "has_strategy", "get_strategy", "get_distribution_strategy",
    "has_distribution_strategy", "ReplicaContext", "DistributionStrategy", "AllReduceCrossDeviceOps",
    "get_loss_reduction", "Monitor"))

ORACLE_TESTED = ORACLE_TESTED + tuple("tf.contrib.distribute." + n for n in ("Step", "StandardInputStep",
                                                                         "StandardSingleLossStep"))

SNIPPET = r'''
import os, shutil
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
dist = tf.contrib.distribute
two_cpus = tf.ConfigProto(device_count={"CPU": 2})
x = (np.arange(48, dtype=np.float32).reshape(16, 3) % 7) / 7.0
y = (x.dot([1.0, -2.0, 0.5]) + 0.2).reshape(16, 1).astype(np.float32)

def model_fn(features, labels, mode):
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.1))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    pred = tf.matmul(features, w) + b
    loss = tf.losses.mean_squared_error(labels, pred)
    train_op = tf.train.GradientDescentOptimizer(0.2).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, predictions=pred)

def input_fn():
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat()

for name, strategy in (("mirrored2", dist.MirroredStrategy(devices=["/cpu:0", "/cpu:1"])),
                       ("mirrored_default", dist.MirroredStrategy()),
                       ("one_device", dist.OneDeviceStrategy("/cpu:0"))):
    model_dir = os.path.abspath(name)
    config = tf.estimator.RunConfig(train_distribute=strategy, model_dir=model_dir, session_config=two_cpus)
    est = tf.estimator.Estimator(model_fn, config=config)
    est.train(input_fn, steps=6)
    report("est_" + name, {"w": est.get_variable_value("w"), "b": est.get_variable_value("b"),
                           "step": est.get_variable_value("global_step"),
                           "replicas": strategy.num_replicas_in_sync})
    report("is_strategy_" + name, isinstance(strategy, dist.DistributionStrategy))

# plain graph code: per-replica batches, experimental_run, reduce, mirrored variables
with tf.Graph().as_default():
    strategy = dist.MirroredStrategy(devices=["/cpu:0", "/cpu:1"])
    report("outside", [dist.has_strategy(), dist.has_distribution_strategy(), dist.in_cross_replica_context()])
    with strategy.scope():
        report("in_scope", [dist.has_strategy(), dist.in_cross_replica_context(),
                            dist.get_strategy() is strategy, dist.get_distribution_strategy() is strategy,
                            dist.get_cross_replica_context() is strategy, dist.get_replica_context() is None])
        v = tf.Variable(1.0, name="mirrored_v")
        iterator = strategy.make_dataset_iterator(tf.data.Dataset.from_tensor_slices(x).batch(4))

        def step(batch):
            ctx = dist.get_replica_context()
            return tf.reduce_sum(batch), tf.shape(batch)[0], ctx.replica_id_in_sync_group, isinstance(
                ctx, dist.ReplicaContext)

        sums, sizes, ids, is_ctx = strategy.experimental_run(step, iterator)
        total = strategy.reduce(tf.distribute.ReduceOp.SUM, sums)
        sizes = strategy.experimental_local_results(sizes)
        ids = strategy.experimental_local_results(ids)
        report("loss_reduction", str(dist.get_loss_reduction()))
    with tf.Session(config=two_cpus) as sess:
        sess.run(iterator.initialize())
        sess.run(tf.global_variables_initializer())
        report("per_replica", sess.run({"total": total, "sizes": sizes, "ids": ids}))
        report("mirrored_v", sess.run(v))

report_errors("errors", (
    ("gpus_and_per_worker", lambda: dist.MirroredStrategy(num_gpus=1, num_gpus_per_worker=1)),
    ("devices_and_gpus", lambda: dist.MirroredStrategy(devices=["/cpu:0"], num_gpus=0)),
    ("old_small_grads", lambda: dist.AllReduceCrossDeviceOps(agg_small_grads_max_bytes=1024)),
    ("monitor_without_session", lambda: dist.Monitor(lambda: None))))
'''


@requires_tf115
def test_contrib_distribute_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=600)
  assert tf115["est_mirrored2"]["replicas"] == 2
  # TF 1.15's contrib strategy: each replica gets a whole batch of 4 (core strategies split it into 2 + 2)
  assert [int(size) for size in tf115["per_replica"]["sizes"]] == [4, 4]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)


STEP_SNIPPET = r'''
import tensorflow as tf
# -- distribute step functions --------------------------------------------------------------------------------
strategy = tf.contrib.distribute.OneDeviceStrategy("/cpu:0")
with strategy.scope():
    layer = tf.layers.Dense(1, kernel_initializer=tf.ones_initializer(), use_bias=False)
    def loss_fn(ctx, inputs):
        y = tf.reshape(layer(inputs), []) - 1.
        return y * y
    step = tf.contrib.distribute.StandardSingleLossStep(
        lambda: tf.data.Dataset.from_tensors([[2.0]]).repeat(), loss_fn,
        tf.train.GradientDescentOptimizer(0.05), strategy, iterations_per_step=2)
    step_op = step()
    step_init = step.initialize()
report("step_types", [isinstance(step, tf.contrib.distribute.StandardInputStep),
                      isinstance(step, tf.contrib.distribute.Step), step.distribution is strategy,
                      tf.contrib.distribute.Step(strategy).initialize()])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(step_init)
    sess.run(step_op)
    sess.run(step_op)
    report("trained", sess.run({"kernel": layer.kernel}))
'''


@requires_tf115
def test_standard_single_loss_step_matches_tf115():
  tf115, ours = run_both(STEP_SNIPPET)
  assert_same(tf115, ours)
