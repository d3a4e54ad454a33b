"""tf.contrib.eager's remaining names against TF 1.15, in a graph-mode script whose tests run in a graph and then
eagerly (the test decorators run_test_in_graph_and_eager_modes / run_all_tests_in_graph_and_eager_modes, on
tf.test.TestCase): the execution-mode and device-policy constants, execution_mode / set_execution_mode / async_wait /
async_clear_error, custom_gradient (tf.gradients and GradientTape), function, make_template (variables reused),
EagerVariableStore (its variables, copy, reuse) and connect_to_remote_host's errors (connecting needs a server).

Batched with the other snippets: the eager half runs inside the decorators' eager_mode(), no process-wide switch.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.eager." + n for n in (
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
def test_contrib_eager_rest_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["tests_run"] == [6, []], tf115["tests_run"]
  assert [m for _, m in tf115["all_modes"]] == [False, True, False, True], tf115["all_modes"]
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6, differences=DIFFERENCES)
