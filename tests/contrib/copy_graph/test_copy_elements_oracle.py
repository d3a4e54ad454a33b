"""tf.contrib.copy_graph (TF 1.15's copy_graph/python/util/copy_elements.py) against TF 1.15.

copy_graph: two variables (a Variable and a non-trainable get_variable in a custom collection) and a resource
variable copied into a new graph under a scope (names, collections, values), then an op chain with a control
input and a collection copied and run there (the copy returns existing copies; a device scope applies), an
unscoped copy into a third graph, and TF 1.15's errors (a resource read fed a copied ref variable, a tensor as a
variable, a variable as an op, a missing copy).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.copy_graph.copy_op_to_graph", "tf.contrib.copy_graph.copy_variable_to_graph",
    "tf.contrib.copy_graph.get_copied_op")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim
cg = tf.contrib.copy_graph

# ---- copy_graph ----
g1 = tf.Graph()
with g1.as_default():
    v = tf.Variable([1.0, 2.0], name="v")
    w = tf.get_variable("w", initializer=tf.constant([3.0, 4.0]), trainable=False,
                        collections=[tf.GraphKeys.GLOBAL_VARIABLES, "mine"])
    r = tf.get_variable("r", initializer=tf.constant([0.5, 0.25]), use_resource=True)
    x = tf.placeholder(tf.float32, [2], name="x")
    with tf.control_dependencies([tf.no_op(name="dep")]):
        y = tf.add(x * v, w, name="y")
    z = tf.reduce_sum(tf.concat([y, y + 1.0], 0), name="z")
    tf.add_to_collection("outs", z)
    zr = tf.multiply(r, 2.0, name="zr")
g2 = tf.Graph()
copies = [cg.copy_variable_to_graph(var, g2, "s") for var in (v, w, r)]
report("copied_variables", [[c.name, type(c).__name__, c in g2.get_collection(tf.GraphKeys.TRAINABLE_VARIABLES)]
                            for c in copies])
report("copied_collections", sorted(g2.get_all_collection_keys()))
new_z = cg.copy_op_to_graph(z, g2, copies, "s")
report("copy_again_is_same", cg.copy_op_to_graph(z, g2, copies, "s") is new_z)
report("copied_ops", [[op.name, [t.name for t in op.inputs], [c.name for c in op.control_inputs]]
                      for op in g2.get_operations()])
report("copied_outs", [t.name for t in g2.get_collection("s/outs")])
report("get_copied", [cg.get_copied_op(y.op, g2, "s").name, cg.get_copied_op(z, g2, "s").name])
with g2.as_default(), g2.device("/device:CPU:0"):
    placed = cg.copy_op_to_graph(z.op, g2, copies, "t")
report("copied_device", placed.device)
with g2.as_default(), tf.Session() as sess:
    sess.run([c.initializer for c in copies])
    report("copied_values", sess.run([new_z] + [c.value() for c in copies],
                                     {cg.get_copied_op(x, g2, "s"): [10.0, 20.0]}))
g3 = tf.Graph()
plain = cg.copy_op_to_graph(y, g3, [], "")
report("unscoped", [plain.name, sorted(op.name for op in g3.get_operations())])
report_errors("copy_errors", (
    ("resource_read_of_ref_copy", lambda: cg.copy_op_to_graph(zr, g2, copies, "s")),
    ("tensor_as_variable", lambda: cg.copy_variable_to_graph(z, g2)),
    ("variable_as_op", lambda: cg.copy_op_to_graph(v, tf.Graph(), [])),
    ("missing_copy", lambda: cg.get_copied_op(z, g2, "nope")),
))
'''


@requires_tf115
def test_copy_graph_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours)
