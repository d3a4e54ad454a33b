"""tf.contrib.eager (TF 1.15's contrib/eager/python/tfe.py, the `tfe` namespace) against TF 1.15.

A TF 1.x eager script (`tf.enable_eager_execution()` first, `tfe = tf.contrib.eager`) under `tf1clip run`,
against TF 1.15 itself: variables, the gradient functions, GradientTape, defun, py_func, Iterator, Checkpoint,
tfe.metrics (eagerly and in a graph), tfe.Saver, restore_variables_on_create, get_optimizer_variables,
list_devices and tfe.run.

tf.contrib.eager's remaining names against TF 1.15, in a graph-mode script whose tests run in a graph and then
eagerly (the test decorators run_test_in_graph_and_eager_modes / run_all_tests_in_graph_and_eager_modes, on
tf.test.TestCase): the execution-mode and device-policy constants, execution_mode / set_execution_mode / async_wait /
async_clear_error, custom_gradient (tf.gradients and GradientTape), function, make_template (variables reused),
EagerVariableStore (its variables, copy, reuse) and connect_to_remote_host's errors (connecting needs a server).

Batched with the other snippets: the eager half runs inside the decorators' eager_mode(), no process-wide switch.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.eager." + n for n in (
    "Variable", "GradientTape", "gradients_function", "value_and_gradients_function", "implicit_gradients",
    "implicit_value_and_gradients", "defun", "py_func", "Iterator", "Checkpoint", "executing_eagerly",
    "enable_eager_execution", "num_gpus", "in_eager_mode", "metrics", "metrics.Metric", "metrics.Mean",
    "metrics.Accuracy", "metrics.CategoricalAccuracy", "metrics.BinaryAccuracy", "metrics.SparseAccuracy",
    "Saver", "restore_variables_on_create", "get_optimizer_variables", "list_devices", "run", "ExecutionCallback",
    "add_execution_callback", "clear_execution_callbacks", "errstate", "seterr", "inf_callback", "nan_callback",
    "inf_nan_callback")) + (
        "tf.enable_eager_execution",) + tuple("tf.contrib.eager." + n for n in (
    "ASYNC", "SYNC", "DEVICE_PLACEMENT_EXPLICIT", "DEVICE_PLACEMENT_SILENT", "DEVICE_PLACEMENT_WARN",
    "EagerVariableStore", "async_clear_error", "async_wait", "connect_to_remote_host", "custom_gradient",
    "execution_mode", "function", "make_template", "run_all_tests_in_graph_and_eager_modes",
    "run_test_in_graph_and_eager_modes", "set_execution_mode"))

DIFFERENCES = {
    "constant_types": "DEVICE_PLACEMENT_EXPLICIT / WARN / SILENT are TensorFlow 2.21's pybind enum "
                      "(TFE_ContextDevicePlacementPolicy), not ints: they equal, hash and int() as TF 1.15's 0 / 1 / 2 "
                      "(`constants`), but TF 2.21's context refuses a plain int as a device policy",
}

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

GRAPH_AND_EAGER = r'''
import io
import unittest
import numpy as np
import tensorflow as tf
tfe = tf.contrib.eager
policies = [tfe.DEVICE_PLACEMENT_EXPLICIT, tfe.DEVICE_PLACEMENT_WARN, tfe.DEVICE_PLACEMENT_SILENT]
report("constants", [tfe.SYNC, tfe.ASYNC] + [int(c) for c in policies] + [c == i for i, c in enumerate(policies)] +
       [{0: "explicit", 1: "warn", 2: "silent"}[c] for c in policies])
report("constant_types", [type(c).__name__ for c in [tfe.SYNC, tfe.ASYNC] + policies])
report_errors("connect_to_remote_host", (("none", lambda: tfe.connect_to_remote_host()),
                                         ("empty", lambda: tfe.connect_to_remote_host([])),
                                         ("empty_string", lambda: tfe.connect_to_remote_host("", job_name="w"))))

@tfe.custom_gradient
def clipped_double(x):
    def grad(dy):
        return tf.clip_by_value(dy, -0.5, 0.5)
    return x * 2.0, grad

@tfe.function
def poly(a, b):
    return a * a + 3.0 * b

def dense(v):
    w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer([[1.0, 2.0], [0.5, -1.0], [0.0, 3.0]]))
    b = tf.get_variable("b", [2], initializer=tf.zeros_initializer())
    return tf.matmul(v, w) + b

x = tf.constant([1.0, -2.0, 3.0])
weights = tf.constant([1.0, -3.0, 0.2])
graph_out = {"custom_gradient": [clipped_double(x), tf.gradients(tf.reduce_sum(clipped_double(x) * weights), x)[0]],
             "function": [poly(tf.constant([1.0, 2.0]), tf.constant(0.5)), poly(tf.constant(3.0), tf.constant(1.0))]}
tmpl = tfe.make_template("dense_tmpl", dense)
graph_out["make_template"] = [tmpl(tf.ones([1, 3])), tmpl(tf.ones([2, 3]) * 2.0)]
report_variables()
with tfe.execution_mode(tfe.SYNC):
    graph_out["sync_mode"] = tf.constant(2.0) * 3.0
report("graph_async", [tfe.async_wait(), tfe.async_clear_error(), tfe.set_execution_mode(tfe.SYNC)])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for key, value in sorted(sess.run(graph_out).items()):
        report("graph_" + key, value)

# the eager half: each test runs in a graph, then eagerly (the test decorators)
results = {}

class StoreTest(tf.test.TestCase):
    @tfe.run_test_in_graph_and_eager_modes
    def test_store(self):
        mode = "eager" if tf.executing_eagerly() else "graph"
        store = tfe.EagerVariableStore()
        with store.as_default():
            v = tf.get_variable("v", [2], initializer=tf.constant_initializer([1.0, 2.0]))
            with tf.variable_scope("scope"):
                u = tf.get_variable("u", [], initializer=tf.constant_initializer(4.0), trainable=False)
            again = tf.get_variable("v", [2], initializer=tf.zeros_initializer()) if mode == "eager" else v
        self.evaluate([v.initializer, u.initializer])
        copied = store.copy()
        self.evaluate([c.initializer for c in copied.variables()])
        self.evaluate(v.assign([5.0, 6.0]))
        results["store_" + mode] = {
            "variables": [c.name for c in store.variables()],
            "trainable": [c.name for c in store.trainable_variables()],
            "non_trainable": [c.name for c in store.non_trainable_variables()],
            "values": self.evaluate([v, u]), "copied": self.evaluate(copied.variables()),
            "reused": again is v}

    @tfe.run_test_in_graph_and_eager_modes()
    def test_ops(self):
        mode = "eager" if tf.executing_eagerly() else "graph"
        with tfe.execution_mode(tfe.ASYNC):
            product = tf.matmul(tf.ones([2, 2]), tf.constant([[1.0, 2.0], [3.0, 4.0]]))
            tfe.async_wait()
        tfe.async_clear_error()
        if mode == "eager":
            x_eager, weights_eager = tf.constant([1.0, -2.0, 3.0]), tf.constant([1.0, -3.0, 0.2])
            with tf.GradientTape() as tape:
                tape.watch(x_eager)
                loss = tf.reduce_sum(clipped_double(x_eager) * weights_eager)
            grad = tape.gradient(loss, x_eager)
        else:
            xg = tf.constant([1.0, -2.0, 3.0])
            grad = tf.gradients(tf.reduce_sum(clipped_double(xg) * [1.0, -3.0, 0.2]), xg)[0]
        results["ops_" + mode] = self.evaluate([product, grad, poly(tf.constant([1.0, 2.0]), tf.constant(0.5))])


@tfe.run_all_tests_in_graph_and_eager_modes
class AllModesTest(tf.test.TestCase):
    def test_first(self):
        results.setdefault("all_modes", []).append(["first", tf.executing_eagerly()])
        self.assertAllClose(self.evaluate(tf.constant([1.0, 2.0]) * 2.0), [2.0, 4.0])

    def test_second(self):
        results.setdefault("all_modes", []).append(["second", tf.executing_eagerly()])

suite = unittest.TestSuite([unittest.defaultTestLoader.loadTestsFromTestCase(c) for c in (StoreTest, AllModesTest)])
outcome = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
report("tests_run", [outcome.testsRun, [str(e[1]).strip().splitlines()[-1].split(":")[0]
                                        for e in outcome.errors + outcome.failures]])
report("still_graph_mode", tf.executing_eagerly())
for key, value in sorted(results.items()):
    report(key, value)
'''


@requires_tf115
def test_tf1_eager_script_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["eager"][:3] == [True, True, True]
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)


@requires_tf115
def test_tfe_in_graph_and_eager_modes_matches_tf115():
  tf115, ours = run_both(GRAPH_AND_EAGER)
  assert tf115["tests_run"] == [6, []], tf115["tests_run"]
  assert [m for _, m in tf115["all_modes"]] == [False, True, False, True], tf115["all_modes"]
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6, differences=DIFFERENCES)
