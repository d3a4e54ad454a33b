"""A TF 1.x eager script (`tf.enable_eager_execution()` first, `tfe = tf.contrib.eager`) under `tf1clip run`,
against TF 1.15 itself: variables, the gradient functions, GradientTape, defun, py_func, Iterator, Checkpoint,
tfe.metrics (eagerly and in a graph), tfe.Saver, restore_variables_on_create, get_optimizer_variables,
list_devices and tfe.run."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.eager." + n for n in (
    "Variable", "GradientTape", "gradients_function", "value_and_gradients_function", "implicit_gradients",
    "implicit_value_and_gradients", "defun", "py_func", "Iterator", "Checkpoint", "executing_eagerly",
    "enable_eager_execution", "num_gpus", "in_eager_mode", "metrics", "metrics.Metric", "metrics.Mean",
    "metrics.Accuracy", "metrics.CategoricalAccuracy", "metrics.BinaryAccuracy", "metrics.SparseAccuracy",
    "Saver", "restore_variables_on_create", "get_optimizer_variables", "list_devices", "run", "ExecutionCallback",
    "add_execution_callback", "clear_execution_callbacks", "errstate", "seterr", "inf_callback", "nan_callback",
    "inf_nan_callback")) + (
        "tf.enable_eager_execution",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.enable_eager_execution()
tfe = tf.contrib.eager
report("eager", [tf.executing_eagerly(), tfe.executing_eagerly(), tfe.in_eager_mode(), tfe.num_gpus()])
w = tfe.Variable(np.array([[0.5], [-1.0]], np.float32), name="w")
b = tfe.Variable(0.25, name="b")
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
def loss_fn(x):
    return tf.reduce_sum(tf.square(tf.matmul(x, w) + b))
report("implicit", [g.numpy() for g, _ in tfe.implicit_gradients(loss_fn)(x)])
value, grads = tfe.implicit_value_and_gradients(loss_fn)(x)
report("implicit_value", value.numpy())
f = lambda a, c: a * a * c
report("gradients_function", [g.numpy() for g in tfe.gradients_function(f)(3.0, 2.0)])
v, gs = tfe.value_and_gradients_function(f)(3.0, 2.0)
report("value_and_gradients", [v.numpy()] + [g.numpy() for g in gs])
with tfe.GradientTape() as tape:
    loss = loss_fn(x)
report("tape", [g.numpy() for g in tape.gradient(loss, [w, b])])
report("defun", tfe.defun(lambda t: tf.matmul(t, w) * 2.0)(x).numpy())
report("py_func", tfe.py_func(lambda t: t * 3, [tf.constant([1.0, 2.0])], tf.float32).numpy())
report("iterator", [t.numpy() for t in tfe.Iterator(tf.data.Dataset.range(4).map(lambda i: i * 2))])
opt = tf.train.GradientDescentOptimizer(0.01)
for _ in range(3):
    opt.minimize(lambda: loss_fn(x), var_list=[w, b])
report("trained", [w.numpy(), b.numpy()])
ckpt = tfe.Checkpoint(w=w, b=b)
path = ckpt.save(os.path.join(ORACLE_SHARED, "tf1clip" if "tf1clip" in __import__("sys").modules else "tf115"))
w.assign(tf.zeros_like(w))
ckpt.restore(path)
report("restored", w.numpy())
# tfe.metrics, eagerly
M = tfe.metrics
mean, weighted, acc, cat, binary, sparse = (M.Mean(), M.Mean("weighted", dtype=tf.float32), M.Accuracy(),
                                            M.CategoricalAccuracy(), M.BinaryAccuracy(0.5), M.SparseAccuracy())
for batch in range(2):
    mean([1.0, 2.0, 3.0 + batch])
    weighted(tf.constant([1.0, 5.0]), weights=[1.0, 3.0])
    acc([1, 2, 3], [1, 2 + batch, 4])
    cat([[0, 1], [1, 0]], [[0.2, 0.8], [0.3, 0.1 + batch]])
    binary([1, 0, 1], [0.7, 0.6, 0.2 + batch])
    sparse([1, 0], [[0.1, 0.9], [0.6 - batch, 0.5]])
report("metric_results", [m.result().numpy() for m in (mean, weighted, acc, cat, binary, sparse)])
report("metric_bases", [isinstance(m, M.Metric) and isinstance(m, M.Mean) for m in (acc, cat, binary, sparse)])
report("metric_names", [[m.name] + [v.name for v in m.variables] for m in (mean, weighted, acc, binary)])
other = M.Mean()
other([10.0])
mean.aggregate([other])
report("aggregated", mean.result().numpy())
mean.init_variables()
report("reset", [v.numpy() for v in mean.variables])
report_errors("metric_errors", (("aggregate_type", lambda: mean.aggregate([acc])),
                                ("add_variable_after_build", lambda: mean.add_variable("late", ())),
                                ("shapes", lambda: acc([1, 2], [1, 2, 3]))))
# tfe.Saver, restore_variables_on_create, get_optimizer_variables
prefix = os.path.join(ORACLE_SHARED, "saver_tf1clip" if "tf1clip" in __import__("sys").modules else "saver_tf115")
saver = tfe.Saver([w, b])
saved = saver.save(prefix, global_step=3)
report("saver_keys", sorted(n for n, _ in tf.train.list_variables(saved)))
w.assign(tf.ones_like(w))
saver.restore(saved)
report("saver_restored", w.numpy())
with tfe.restore_variables_on_create(saved):
    w2 = tfe.Variable(tf.zeros([2, 1]), name="w")
report("restored_on_create", w2.numpy())
with tfe.restore_variables_on_create(saved, map_func=lambda name: "b" if name == "bias" else name):
    b2 = tfe.Variable(5.0, name="bias")
report("restored_on_create_mapped", b2.numpy())
def create_missing():
    with tfe.restore_variables_on_create(saved):
        tfe.Variable(1.0, name="not_saved")
adam = tf.train.AdamOptimizer(0.1)
adam.minimize(lambda: loss_fn(x), var_list=[w, b])
report("optimizer_variables", sorted(v.name for v in tfe.get_optimizer_variables(adam)))
report_errors("saver_errors", (("missing", create_missing), ("map_func", lambda: tfe.restore_variables_on_create(
    saved, map_func=3).__enter__())))
report("devices", [d.split("/")[-1] for d in tfe.list_devices()][:1])
# tfe.metrics in a graph: variables in LOCAL_VARIABLES and METRIC_VARIABLES, the update as one op
with tf.Graph().as_default():
    graph_mean = M.Mean("graph_mean")
    update = graph_mean(tf.constant([2.0, 4.0]), weights=tf.constant([1.0, 3.0]))
    result = graph_mean.result()
    report("graph_collections", [sorted(v.op.name for v in tf.get_collection(k))
                                 for k in (tf.GraphKeys.LOCAL_VARIABLES, tf.GraphKeys.METRIC_VARIABLES,
                                           tf.GraphKeys.GLOBAL_VARIABLES)])
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run(update)
        sess.run(update)
        report("graph_mean", sess.run(result))
        sess.run(graph_mean.init_variables())
        report("graph_mean_reset", sess.run(graph_mean.variables))
with tf.Graph().as_default():
    report_errors("graph_errors", (("saver_in_graph", lambda: tfe.Saver([tf.Variable(1.0)])),))
# execution callbacks: every eager op, with TF 1.15's arguments; the inf / nan checks; seterr / errstate
calls = []
tfe.add_execution_callback(lambda op_type, inputs, attrs, outputs, op_name: calls.append(
    [op_type, len(inputs), len(outputs)]))
tf.multiply(tf.constant(1.0), tf.constant(2.0))  # (tf.add runs Add in TF 1.15, AddV2 in TF 2.21)
tf.reduce_sum(tf.constant([1.0, 2.0]))
tfe.clear_execution_callbacks()
tf.constant(3.0) * 2.0
report("callback_calls", [c for c in calls if c[0] in ("Mul", "Sum")])
def raised(fn):
    try:
        fn()
        return "no error"
    except Exception as e:
        return [type(e).__name__, getattr(e, "op_type", None), getattr(e, "num_outputs", None)]
tfe.add_execution_callback(tfe.inf_callback)
inf_only = [raised(lambda: tf.math.log(tf.constant([0.0, 1.0]))), raised(lambda: tf.sqrt(tf.constant(-1.0)))]
tfe.clear_execution_callbacks()
tfe.add_execution_callback(tfe.nan_callback)
nan_only = [raised(lambda: tf.math.log(tf.constant([0.0, 1.0]))), raised(lambda: tf.sqrt(tf.constant(-1.0)))]
tfe.clear_execution_callbacks()
import functools
tfe.add_execution_callback(functools.partial(tfe.inf_nan_callback, action=tfe.ExecutionCallback.IGNORE))
ignored = raised(lambda: tf.sqrt(tf.constant(-1.0)))
tfe.clear_execution_callbacks()
old = tfe.seterr(inf_or_nan="raise")
raising = raised(lambda: tf.constant(1.0) / tf.constant(0.0))
restored = tfe.seterr(**old)
with tfe.errstate(inf_or_nan="raise"):
    in_errstate = raised(lambda: tf.math.log(tf.constant(0.0)))
after_errstate = raised(lambda: tf.math.log(tf.constant(0.0)))
report("inf_nan", [inf_only, nan_only, ignored, {k: v.value for k, v in old.items()},
                   {k: v.value for k, v in restored.items()}, raising, in_errstate, after_errstate,
                   [e.value for e in tfe.ExecutionCallback]])
# last: tfe.run enables eager execution and runs main; app.run then exits the program (the results are written)
tfe.run(main=lambda argv: report("run", [tf.executing_eagerly(), argv[1:]]), argv=["prog", "--", "x"])
'''

@requires_tf115
def test_tf1_eager_script_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["eager"][:3] == [True, True, True]
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
