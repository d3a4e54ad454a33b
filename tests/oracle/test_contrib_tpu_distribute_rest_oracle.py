"""The rest of tf.contrib.tpu, tf.contrib.distribute, tf.contrib.estimator and tf.contrib.summary against TF 1.15,
on a CPU-only machine as TF 1.15 ran there.

tpu: replicate / shard / batch_parallel / rewrite / initialize_system / shutdown_system / cross_replica_sum build
their graphs (outputs' shapes and dtypes, the TPU ops in the graph) and fail when run (no TPU kernels);
outside_compilation outside a TPU computation runs its function; core's device names; InputPipelineConfig's
values; bfloat16_scope's variables; CrossShardOptimizer's gradients (one shard) and the apply that needs a TPU;
export_estimator_savedmodel's CPU and TPU graphs; the argument errors. distribute: DistributeConfig, UpdateContext
(which component of a mirrored variable is read and assigned inside it), require_replica_context inside and
outside replicas, CrossDeviceOps' one-device shortcut and broadcast, ParameterServerStrategy and
CollectiveAllReduceStrategy on one machine (devices, variables, a step), run_standard_tensorflow_server and
TPUStrategy / initialize_tpu_system without a cluster or a TPU (errors). estimator: a model_fn of
dnn_logit_fn_builder + linear_logit_fn_builder through call_logit_fn, trained, evaluated with add_metrics and
predicted with forward_features; exported with the supervised receivers (build_raw_supervised_input_receiver_fn,
build_supervised_input_receiver_fn_from_input_fn) and run again by SavedModelEstimator. summary:
create_summary_file_writer, graph and import_event: the events written (tensorboard.plugins:
tests/contrib/tensorboard/).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.tpu." + n for n in (
    "CrossShardOptimizer", "InputPipelineConfig", "batch_parallel", "bfloat16_scope", "core", "cross_replica_sum",
    "initialize_system", "outside_compilation", "replicate", "rewrite", "shard", "shutdown_system",
    "export_estimator_savedmodel")) + tuple(
        "tf.contrib.distribute." + n for n in (
            "CollectiveAllReduceStrategy", "ParameterServerStrategy", "DistributeConfig", "UpdateContext",
            "require_replica_context", "run_standard_tensorflow_server", "CrossDeviceOps", "TPUStrategy",
            "initialize_tpu_system")) + tuple("tf.contrib.estimator." + n for n in (
                "SavedModelEstimator", "add_metrics", "forward_features", "call_logit_fn", "dnn_logit_fn_builder",
                "linear_logit_fn_builder", "build_raw_supervised_input_receiver_fn",
                "build_supervised_input_receiver_fn_from_input_fn")) + tuple(
                    "tf.contrib.summary." + n for n in ("create_summary_file_writer", "graph", "import_event"))

DIFFERENCES = {
    "tpu_strategy": (
        "TPUStrategy() without a TPU: TF 1.15 crashed with IndexError (no TPU devices, tpu_devices[0]); "
        "TensorFlow 2.21's TPUClusterResolver('') raises ValueError (no TPU name) first"),
    "initialize_tpu_system": (
        "initialize_tpu_system() without a TPU: TF 1.15's TPUClusterResolver('') meant the in-process master, and "
        "running ConfigureDistributedTPU there failed (InvalidArgumentError: no kernel); TensorFlow 2.21's asks the "
        "Cloud TPU API for a TPU name and raises ValueError before building anything"),
    "update_context_assign": (
        "UpdateContext(device) outside the strategy's scope: TF 1.15 found the device among each mirrored "
        "variable's own components; TensorFlow 2.21's variables look up a replica id, which tf1clip's UpdateContext "
        "finds among the devices of the strategy in scope: with none in scope the assign goes to every component"),
    "cross_device_ops_short_device": (
        "CrossDeviceOps.reduce of a value on one device named '/device:CPU:0' to '/cpu:0': TF 1.15 took its "
        "one-device shortcut (the value itself); TensorFlow 2.21 compares the value's device uncanonicalized, "
        "misses the shortcut and calls reduce_implementation (NotImplementedError on the abstract base; a "
        "subclass reduces the one value to the same result)"),
}

SNIPPET = r'''
import json, os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
tpu, dist = tf.contrib.tpu, tf.contrib.distribute

def summary(outs):
    return [[t.shape.as_list() if t.shape.ndims is not None else None, str(t.dtype)] for t in tf.nest.flatten(outs)]

# ---- tf.contrib.tpu ----
report("core", [tpu.core(0), tpu.core(3)])
ipc = tpu.InputPipelineConfig
report("input_pipeline_config", [ipc.PER_SHARD_V1, ipc.PER_HOST_V1, ipc.PER_HOST_V2, ipc.BROADCAST, ipc.SLICED])
with tf.Graph().as_default():
    x = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2))
    replicated = tpu.replicate(lambda a, b: (a * 2.0 + b, tf.reduce_sum(a)), [[x, tf.constant(1.0)],
                                                                              [x + 1.0, tf.constant(2.0)]])
    sharded = tpu.shard(lambda a: [a * 3.0], [x], num_shards=2)
    parallel = tpu.batch_parallel(lambda a: a + 1.0, [x], num_shards=2)
    rewritten = tpu.rewrite(lambda a, b: a + b, [x, x])
    init = tpu.initialize_system()
    shutdown = tpu.shutdown_system()
    summed = tpu.cross_replica_sum(x)
    report("tpu_graphs", {"replicate": [len(replicated), [summary(o) for o in replicated]],
                          "shard": summary(sharded), "batch_parallel": summary(parallel),
                          "rewrite": summary(rewritten), "initialize_system": [summary(init), init.op.type],
                          "shutdown_system": [type(shutdown).__name__, shutdown.type],
                          "cross_replica_sum": [summed.op.type, summary(summed)]})
    types = set(op.type for op in tf.get_default_graph().get_operations())
    report("tpu_op_types", [t for t in ("TPUReplicateMetadata", "TPUReplicatedInput", "TPUReplicatedOutput",
                                        "TPUCompilationResult", "ConfigureDistributedTPU", "ShutdownDistributedTPU",
                                        "CrossReplicaSum") if t in types])
    with tf.Session() as sess:
        report_errors("tpu_run", (("replicate", lambda: sess.run(replicated)), ("shard", lambda: sess.run(sharded)),
                                  ("initialize_system", lambda: sess.run(init)),
                                  ("shutdown_system", lambda: sess.run(shutdown)),
                                  ("cross_replica_sum", lambda: sess.run(summed))))
report_errors("tpu_errors", (
    ("shard_zero", lambda: tpu.shard(lambda a: a, [tf.zeros([4])], num_shards=0)),
    ("shard_indivisible", lambda: tpu.shard(lambda a: a, [tf.zeros([3])], num_shards=2)),
    ("replicate_mismatch", lambda: tpu.replicate(lambda a: a, [[tf.zeros([2])], [tf.zeros([2]), tf.zeros([2])]])),
    ("batch_parallel_zero", lambda: tpu.batch_parallel(lambda a: a, [tf.zeros([4])], num_shards=0))))
with tf.Graph().as_default():
    outside = tpu.outside_compilation(lambda a, b=1.0: a * 5.0 + b, tf.constant([1.0, 2.0]), b=3.0)
    with tpu.bfloat16_scope():
        half = tf.get_variable("half", [2], dtype=tf.bfloat16, initializer=tf.constant_initializer(1.5))
        full = tf.get_variable("full", [2], dtype=tf.float32, initializer=tf.constant_initializer(2.5))
    report("bfloat16_scope", [half.dtype.name, full.dtype.name,
                              [[v.op.name, v.dtype.base_dtype.name] for v in tf.global_variables()]])
    w = tf.Variable([1.0, 2.0], name="w")
    loss = tf.reduce_sum(w * w)
    opt = tpu.CrossShardOptimizer(tf.train.GradientDescentOptimizer(0.1))
    grads = opt.compute_gradients(loss, var_list=[w])
    mean_grads = tpu.CrossShardOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                         reduction=tf.losses.Reduction.MEAN).compute_gradients(loss, var_list=[w])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        report("tpu_values", sess.run({"outside": outside, "half": tf.cast(half, tf.float32), "full": full,
                                       "grads": [g for g, _ in grads + mean_grads]}))
        train = opt.apply_gradients(grads)  # a CrossReplicaSum per gradient: needs a TPU
        report_errors("cross_shard_apply", (("run", lambda: sess.run(train)),))
    report("cross_shard", [opt.get_name(), opt.get_slot_names(), opt.variables(),
                           "CrossReplicaSum" in set(op.type for op in tf.get_default_graph().get_operations())])
    report_errors("cross_shard_errors", (
        ("reduction", lambda: tpu.CrossShardOptimizer(tf.train.GradientDescentOptimizer(0.1), reduction="bad")),
        ("group_assignment", lambda: tpu.CrossShardOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                                             group_assignment=[[0, 1]]).compute_gradients(loss))))

# ---- tf.contrib.distribute ----
config = dist.DistributeConfig()
report("distribute_config", [list(config._fields), list(config),
                             list(dist.DistributeConfig(train_distribute=1, remote_cluster={"a": 1}))])
with tf.Graph().as_default():
    strategy = dist.MirroredStrategy(["/cpu:0", "/cpu:1"])  # built, not run: one CPU device is enough
    with strategy.scope():
        v = tf.Variable(1.0, name="v")
    parts = strategy.experimental_local_results(v)

    def in_update(device, how):
        with dist.UpdateContext(device):
            t = how(v)
        return [t.op.type, t.op.inputs[0].op.name]

    with strategy.scope():  # where TF 1.15's strategies entered it: the variable is its component on that device
        report("update_context", [in_update(parts[1].device, lambda v: v.value()),
                                  in_update(parts[0].device, lambda v: v.value()),
                                  in_update(parts[1].device, lambda v: v.assign(3.0)),
                                  in_update(parts[0].device, lambda v: v.assign_add(1.0)),
                                  in_update("/replica:0/task:0/device:CPU:1", lambda v: v.read_value())[:1],
                                  in_update(parts[1].device, lambda v: tf.identity(v))[:1]])
    with case("update_context_assign"):  # outside the strategy's scope (see differences)
        report("update_context_assign", in_update(parts[1].device, lambda v: v.assign(3.0)))

    def step():
        context = tf.distribute.get_replica_context()
        dist.require_replica_context(context)
        return context.replica_id_in_sync_group

    with strategy.scope():
        ids = strategy.experimental_local_results(strategy.extended.call_for_each_replica(step))
        report("replica_ids", [[i.dtype.name, i.shape.as_list()] for i in ids])
        report_errors("require_in_scope", (("cross_replica", lambda: dist.require_replica_context(
            tf.distribute.get_replica_context())),))
report_errors("require_replica_context", (
    ("default", lambda: dist.require_replica_context(tf.distribute.get_replica_context())),
    ("none", lambda: dist.require_replica_context(None))))

class OneDeviceOps(dist.CrossDeviceOps):
    def reduce_implementation(self, reduce_op, per_replica_value, destinations, options=None):
        return "reduce_implementation"
with tf.Graph().as_default():
    with tf.device("/replica:0/task:0/device:CPU:0"):
        placed = tf.constant([1.0, 2.0])
    base = dist.CrossDeviceOps()
    cross = {"base_reduce": base.reduce(tf.distribute.ReduceOp.SUM, placed, "/cpu:0"),
             "base_broadcast": base.broadcast(placed, "/cpu:0"),
             "one_device": OneDeviceOps().reduce(tf.distribute.ReduceOp.SUM, placed, "/cpu:0"),
             "to_one_device": tf.distribute.ReductionToOneDevice().reduce(tf.distribute.ReduceOp.MEAN, placed,
                                                                           "/cpu:0")}
    report("cross_device_ops_kinds", [isinstance(tf.distribute.ReductionToOneDevice(), dist.CrossDeviceOps),
                                      isinstance(dist.AllReduceCrossDeviceOps(), dist.CrossDeviceOps)])
    with tf.device("/cpu:0"):
        short_name = tf.constant([3.0])
    report_errors("cross_device_ops_short_device", (("base_reduce", lambda: base.reduce(
        tf.distribute.ReduceOp.SUM, short_name, "/cpu:0")),))
    with tf.Session() as sess:
        report("cross_device_ops", sess.run(cross))

for key, make in (("parameter_server", lambda: dist.ParameterServerStrategy()),
                  ("collective", lambda: dist.CollectiveAllReduceStrategy(num_gpus_per_worker=0))):
    with tf.Graph().as_default():
        strategy = make()
        extended = strategy.extended
        with strategy.scope():
            weight = tf.Variable(2.0, name="weight")
            doubled = strategy.experimental_local_results(extended.call_for_each_replica(lambda: weight * 2.0))
        report(key, {"replicas": strategy.num_replicas_in_sync, "workers": list(extended.worker_devices),
                     "parameters": list(extended.parameter_devices), "between_graph": extended.experimental_between_graph,
                     "should_init": extended.experimental_should_init, "checkpoint": extended.should_checkpoint,
                     "summary": extended.should_save_summary, "variable": [weight.op.name if hasattr(weight, "op")
                                                                          else None, weight.device]})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            report(key + "_values", sess.run([weight, list(doubled)]))
os.environ.pop("TF_CONFIG", None)
report_errors("server", (("no_tf_config", lambda: dist.run_standard_tensorflow_server()),))
os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": ["localhost:1"]}})
report_errors("server_no_task", (("no_task", lambda: dist.run_standard_tensorflow_server()),))
del os.environ["TF_CONFIG"]
report_errors("tpu_strategy", (("strategy", lambda: dist.TPUStrategy()),))
report_errors("initialize_tpu_system", (("no_tpu", lambda: dist.initialize_tpu_system()),))

# ---- tf.contrib.estimator: logit_fn builders, add_metrics, forward_features, supervised receivers,
# SavedModelEstimator ----
est_lib = tf.contrib.estimator
features_np = {"x": (np.arange(16, dtype=np.float32).reshape(8, 2) % 5) / 5.0, "id": np.arange(8, dtype=np.int64)}
labels_np = (features_np["x"].dot([[1.0], [-2.0]]) + 0.3).astype(np.float32)

def input_fn():
    return tf.data.Dataset.from_tensor_slices((features_np, labels_np)).batch(4)

columns = [tf.feature_column.numeric_column("x", shape=[2])]
dnn_logits = est_lib.dnn_logit_fn_builder(units=1, hidden_units=[3], feature_columns=columns,
                                          activation_fn=tf.nn.relu, dropout=None, input_layer_partitioner=None,
                                          batch_norm=False)
linear_logits = est_lib.linear_logit_fn_builder(units=1, feature_columns=columns)

def model_fn(features, labels, mode, params, config):
    with tf.variable_scope("dnn"):
        dnn = est_lib.call_logit_fn(dnn_logits, features, mode, params, config)
    with tf.variable_scope("linear"):
        linear = est_lib.call_logit_fn(linear_logits, features, mode, params, config)
    predictions = {"pred": dnn + linear}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions=predictions)
    loss = tf.losses.mean_squared_error(labels, predictions["pred"])
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    scaffold = tf.train.Scaffold(init_fn=lambda scaffold, sess: init_from_numpy(sess, seed=4))
    return tf.estimator.EstimatorSpec(mode, predictions=predictions, loss=loss, train_op=train_op,
                                      scaffold=scaffold)

est = tf.estimator.Estimator(model_fn, model_dir=os.path.abspath("est"))
est.train(input_fn, steps=2)
report("estimator_variables", sorted(est.get_variable_names()))

def metric_fn(labels, predictions, features):
    return {"mae": tf.metrics.mean_absolute_error(labels, predictions["pred"]),
            "mean_id": tf.metrics.mean(tf.cast(features["id"], tf.float32))}

with_metrics = est_lib.add_metrics(est, metric_fn)
report("add_metrics", with_metrics.evaluate(input_fn, steps=2))
forwarding = est_lib.forward_features(est, "id")
report("forward_features", list(forwarding.predict(input_fn, yield_single_examples=False)))
report_errors("forward_errors", (("not_str", lambda: est_lib.forward_features(est, 3)),
                                 ("not_estimator", lambda: est_lib.forward_features("est", "id")),
                                 ("add_metrics_bad_args", lambda: est_lib.add_metrics(est, lambda weights: {}))))

raw_receiver = est_lib.build_raw_supervised_input_receiver_fn(
    {"x": tf.placeholder(tf.float32, [None, 2]), "id": tf.placeholder(tf.int64, [None])},
    tf.placeholder(tf.float32, [None, 1]))
from_input_fn = est_lib.build_supervised_input_receiver_fn_from_input_fn(input_fn)
with tf.Graph().as_default():
    raw = raw_receiver()
    made = from_input_fn()
    report("receivers", {"raw": [sorted(raw.features), sorted(raw.receiver_tensors), type(raw).__name__,
                                 summary(raw.labels)], "from_input_fn": [sorted(made.features),
                                                                         sorted(made.receiver_tensors),
                                                                         summary(made.features), summary(made.labels)]})
serving = tf.estimator.export.build_raw_serving_input_receiver_fn(
    {"x": tf.placeholder(tf.float32, [None, 2]), "id": tf.placeholder(tf.int64, [None])})
export_dir = est.experimental_export_all_saved_models(
    os.path.abspath("export"), {tf.estimator.ModeKeys.EVAL: raw_receiver, tf.estimator.ModeKeys.PREDICT: serving})
saved = est_lib.SavedModelEstimator(export_dir, model_dir=os.path.abspath("saved_est"))
report("saved_model_estimator", {"predict": list(saved.predict(input_fn, yield_single_examples=False)),
                                 "evaluate": saved.evaluate(input_fn, steps=2)})
# tpu.export_estimator_savedmodel: a TPUEstimator(use_tpu=True) on the estimator's model_fn exports the CPU
# graph ("serve") and the TPU one ("serve", "tpu": loading it on a CPU fails, no TPU kernels)
exported = tpu.export_estimator_savedmodel(est, os.path.abspath("tpu_export"), serving)
report("tpu_export_files", sorted(os.listdir(exported)))
for tags in (["serve"], ["serve", "tpu"]):
    with tf.Graph().as_default(), tf.Session() as sess, case("tpu_export_" + "_".join(tags)):
        signature = tf.saved_model.loader.load(sess, tags, exported).signature_def["serving_default"]
        report("tpu_export_" + "_".join(tags), [sorted(signature.inputs), sorted(signature.outputs),
                                                signature.method_name, sess.run(signature.outputs["pred"].name, {
                                                    signature.inputs["x"].name: features_np["x"][:3],
                                                    signature.inputs["id"].name: features_np["id"][:3]})])

# ---- tf.contrib.summary ----
with tf.Graph().as_default():
    logdir = os.path.abspath("summaries")
    writer = tf.contrib.summary.create_summary_file_writer(logdir, max_queue=1, flush_millis=100, filename_suffix=".x")
    step = tf.train.get_or_create_global_step()
    event = tf.Event(step=7, summary=tf.Summary(value=[tf.Summary.Value(tag="imported", simple_value=2.5)]))
    with writer.as_default(), tf.contrib.summary.always_record_summaries():
        scalar = tf.contrib.summary.scalar("loss", tf.constant(0.5), step=3)
        graph_op = tf.contrib.summary.graph(tf.constant(tf.get_default_graph().as_graph_def().SerializeToString()),
                                            step=4)
        imported = tf.contrib.summary.import_event(tf.constant(event.SerializeToString()))
        flushed = tf.contrib.summary.flush()
    report_errors("summary_errors", (("graph_not_tensor", lambda: tf.contrib.summary.graph(
        tf.get_default_graph().as_graph_def())),))
    report("summary_ops", [isinstance(writer, tf.contrib.summary.SummaryWriter), type(graph_op).__name__, graph_op.type,
                           imported.type, flushed.type])
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.contrib.summary.summary_writer_initializer_op()])
        sess.run(scalar)
        sess.run(graph_op)
        sess.run(imported)
        sess.run(flushed)
    events = []
    for name in sorted(os.listdir(logdir)):
        for e in tf.train.summary_iterator(os.path.join(logdir, name)):
            kind = e.WhichOneof("what")
            events.append([e.step, kind, [[v.tag, v.simple_value or None] for v in e.summary.value]
                           if kind == "summary" else None, bool(e.graph_def) if kind == "graph_def" else None])
    report("summary_files", [name.endswith(".x") for name in os.listdir(logdir)])
    report("summary_events", events)
'''


@requires_tf115
def test_contrib_tpu_distribute_estimator_summary_rest_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["tpu_run"]["replicate"] == "InvalidArgumentError"  # no TPU kernels on TF 1.15 either
  # TF 1.15 failed too, where TensorFlow 2.21 cannot do what it did
  assert tf115["tpu_strategy"]["strategy"] == "IndexError" and ours["tpu_strategy"]["strategy"] != "no error"
  assert tf115["initialize_tpu_system"]["no_tpu"] == "InvalidArgumentError"
  assert ours["initialize_tpu_system"]["no_tpu"] != "no error"
  assert tf115["update_context_assign"][1] == "v/replica_1"
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6, differences=DIFFERENCES)
