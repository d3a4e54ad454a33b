"""tf.contrib.opt's ps/worker optimizers against TF 1.15: ElasticAverageOptimizer / ElasticAverageCustomGetter,
ModelAverageOptimizer / ModelAverageCustomGetter and AGNOptimizer / AGNCustomGetter.

Each side starts its own in-process cluster (one ps and one worker task, gRPC on free loopback ports) and
trains one graph per optimizer through `tf.train.MonitoredTrainingSession` on the worker with the optimizer's
session-run hook: a small linear model (one partitioned variable for elastic average) with constant initial
values and a fixed batch, communication period 2 (1 for AGN: see there), 4 steps. Compared: every variable's
name, collection (global / local / trainable) and job, the losses, every global and local variable's value after
the steps, the default checkpoint's keys and ElasticAverageOptimizer.swapping_saver's keys and values, and the
errors of the documented bad uses.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.opt." + n for n in (
    "ElasticAverageOptimizer", "ElasticAverageCustomGetter", "ModelAverageOptimizer", "ModelAverageCustomGetter",
    "AGNOptimizer", "AGNCustomGetter"))

SNIPPET = r'''
import os
import socket
import numpy as np
import tensorflow as tf
opt_mod = tf.contrib.opt

def port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p

spec = tf.train.ClusterSpec({"ps": ["127.0.0.1:%d" % port()], "worker": ["127.0.0.1:%d" % port()]})
ps_server = tf.train.Server(spec, job_name="ps", task_index=0)
worker = tf.train.Server(spec, job_name="worker", task_index=0)
WORKER = "/job:worker/task:0"
X = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.7], [1.2, 1.1, -0.4]], np.float32)
Y = np.array([[1.0, -1.0], [0.0, 2.0], [-1.5, 0.5], [0.3, 0.3]], np.float32)
W0 = np.array([[0.1, -0.2], [0.3, 0.05], [-0.15, 0.2]], np.float32)

def describe(prefix):
    out = {}
    for key, coll in (("global", tf.GraphKeys.GLOBAL_VARIABLES), ("local", tf.GraphKeys.LOCAL_VARIABLES),
                      ("trainable", tf.GraphKeys.TRAINABLE_VARIABLES)):
        out[key] = sorted([v.op.name, v.shape.as_list(), tf.DeviceSpec.from_string(v.device).job]
                          for v in tf.get_collection(coll))
    report(prefix + "_variables", out)

def saved(saver, raw, name):
    path = saver.save(raw, os.path.join(os.getcwd(), name))
    return {key: tf.train.load_variable(path, key) for key, _ in tf.train.list_variables(path)}

def train(prefix, loss, train_op, hook, swapping=None):
    describe(prefix)
    all_vars = tf.global_variables() + tf.local_variables()
    saver = tf.train.Saver()  # built before the session finalizes the graph
    with tf.train.MonitoredTrainingSession(master=worker.target, is_chief=True, hooks=[hook],
                                           log_step_count_steps=None) as sess:
        raw = sess._tf_sess()
        losses = [sess.run([loss, train_op])[0] for _ in range(4)]
        report(prefix + "_losses", losses)
        report(prefix + "_values", raw.run({v.op.name: v for v in all_vars}))
        report(prefix + "_checkpoint", sorted(saved(saver, raw, prefix)))
        if swapping:
            report(prefix + "_swapped", saved(swapping, raw, prefix + "_swapped"))

def model(prefix, getter, partitioned=False):
    with tf.device(tf.train.replica_device_setter(worker_device=WORKER, ps_device="/job:ps", cluster=spec)), \
            tf.variable_scope(prefix, custom_getter=getter):
        w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer(W0))
        b = tf.get_variable("b", [2], initializer=tf.constant_initializer([0.1, -0.2]))
        gs = tf.train.get_or_create_global_step()
        pred = tf.matmul(tf.constant(X), w) + b
        if partitioned:
            p = tf.get_variable("p", [4], initializer=tf.constant_initializer(0.25),
                                partitioner=tf.fixed_size_partitioner(2))
            pred = pred + tf.reduce_sum(tf.concat(list(p), 0) * [1.0, 0.5, -0.5, 0.25])
        loss = tf.reduce_mean(tf.square(pred - Y))
    return loss, gs

# ElasticAverageOptimizer: momentum (its slots move to the local collection), a partitioned variable
with tf.Graph().as_default():
    getter = opt_mod.ElasticAverageCustomGetter(WORKER)
    loss, gs = model("ea", getter, partitioned=True)
    with tf.device(WORKER), tf.variable_scope("ea"):
        opt = opt_mod.ElasticAverageOptimizer(tf.train.MomentumOptimizer(0.1, 0.9), num_worker=1,
                                              ea_custom_getter=getter, communication_period=2, moving_rate=0.3)
        train_op = opt.minimize(loss, global_step=gs)
    report("ea_rates", [opt._moving_rate, opt._rho])
    train("ea", loss, train_op, opt.make_session_run_hook(True, 0), opt.swapping_saver())

# ModelAverageOptimizer: averaging through ConditionalAccumulators on the ps (one worker: the chief)
with tf.Graph().as_default():
    getter = opt_mod.ModelAverageCustomGetter(WORKER)
    loss, gs = model("ma", getter)
    with tf.device(WORKER), tf.variable_scope("ma"):
        opt = opt_mod.ModelAverageOptimizer(tf.train.GradientDescentOptimizer(0.2), num_worker=1, is_chief=True,
                                            ma_custom_getter=getter, interval_steps=2)
        train_op = opt.minimize(loss, global_step=gs)
    train("ma", loss, train_op, opt.make_session_run_hook())

# AGNOptimizer: Adam (local slots and beta powers local; the global variables' slots global)
with tf.Graph().as_default():
    getter = opt_mod.AGNCustomGetter(WORKER)
    loss, gs = model("agn", getter)
    with tf.device(WORKER), tf.variable_scope("agn"):
        # communication_period=1: TF 1.15's AGNOptimizer reads the summed gradients racing their division by the
        # period (with 2 it applied the undivided sums in 3 runs of 8; tf1clip reads them after the division).
        opt = opt_mod.AGNOptimizer(tf.train.AdamOptimizer(0.05), num_worker=1, custom_getter=getter,
                                   communication_period=1)
        train_op = opt.minimize(loss, global_step=gs)
    train("agn", loss, train_op, opt.make_session_run_hook(True, 0))

# bad uses
with tf.Graph().as_default():
    ea_getter = opt_mod.ElasticAverageCustomGetter(WORKER)
    ea_empty = opt_mod.ElasticAverageOptimizer(tf.train.GradientDescentOptimizer(0.1), 1, ea_getter)
    report("ea_default_rates", [ea_empty._moving_rate, ea_empty._rho])
    with tf.variable_scope("bad", custom_getter=opt_mod.ModelAverageCustomGetter(WORKER)):
        v = tf.get_variable("v", [2], initializer=tf.zeros_initializer())
    with tf.variable_scope("bad3"):
        ma = opt_mod.ModelAverageOptimizer(tf.train.GradientDescentOptimizer(0.1), 1, True,
                                           opt_mod.ModelAverageCustomGetter(WORKER))
    agn_getter = opt_mod.AGNCustomGetter(WORKER)
    with tf.variable_scope("bad2"):
        agn = opt_mod.AGNOptimizer(tf.train.GradientDescentOptimizer(0.1), 1, agn_getter)
    report_errors("errors", [
        ("ea_swapping_saver_before_model", lambda: ea_empty.swapping_saver()),
        ("ea_adam_default_rho", lambda: opt_mod.ElasticAverageOptimizer(
            tf.train.AdamOptimizer(0.1), 1, opt_mod.ElasticAverageCustomGetter(WORKER), name="x")),
        ("ma_no_global_step", lambda: ma.apply_gradients([(tf.ones([2]), v)])),
        ("ma_no_variables", lambda: ma.apply_gradients([], global_step=tf.train.get_or_create_global_step())),
        ("ma_init_unknown_variable", lambda: ma.get_init_op()),
        ("agn_init_unknown_variable", lambda: agn.get_init_op(0)),
    ])
finish()
'''


@requires_tf115
def test_distributed_optimizers_match_tf115():
  tf115, ours = run_both(SNIPPET, timeout=240)
  for prefix in ("ea", "ma", "agn"):
    assert prefix + "_values" in tf115 and prefix + "_values" in ours, (tf115, ours)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
