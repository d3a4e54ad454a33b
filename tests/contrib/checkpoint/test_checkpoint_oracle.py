"""tf.contrib.checkpoint against TF 1.15.

TensorFlow's tracking classes under TF 1.15's names (contrib/checkpoint/__init__.py): an object graph of
Checkpointable, List, Mapping and NoDependency saved by tf.train.Checkpoint through CheckpointManager in graph
mode has the same checkpoint keys and values; list_objects and object_metadata agree.

contrib's own helpers (checkpoint/python/: python_state's NumpyState, containers' UniqueNameTracker,
split_dependency, visualize's dot_graph_from_checkpoint), saved in one checkpoint: keys, values, restore, the
recreated arrays, the DOT text and the errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.checkpoint." + n for n in (
    "CheckpointManager", "Checkpointable", "CheckpointableBase", "CheckpointableObjectGraph", "List", "Mapping",
    "NoDependency", "PythonStateWrapper", "capture_dependencies", "list_objects", "object_metadata",
    "NumpyState", "UniqueNameTracker", "split_dependency", "dot_graph_from_checkpoint"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
ck = tf.contrib.checkpoint
root = ck.Checkpointable()
root.layers = ck.List([tf.Variable([1.0, 2.0], name="a"), tf.Variable(3.0, name="b")])
root.table = ck.Mapping({"w": tf.Variable([[4.0]], name="w")})
root.cache = ck.NoDependency([tf.Variable(9.0, name="not_saved")])
report("types", [isinstance(root, ck.CheckpointableBase), issubclass(ck.PythonStateWrapper, ck.CheckpointableBase),
                 ck.CheckpointableObjectGraph.__name__])
holder = []
def inner():
    with ck.capture_dependencies(template=holder[0]):
        return tf.get_variable("captured", initializer=[1.5])
holder.append(tf.make_template("tmpl", inner))
holder[0]()
root.template = holder[0]
ckpt = tf.train.Checkpoint(model=root, step=tf.Variable(7, dtype=tf.int64, name="step"))
side = "tf115" if tf.__version__.startswith("1.") else "tf1clip"
directory = os.path.join(ORACLE_SHARED, side)
manager = ck.CheckpointManager(ckpt, directory, max_to_keep=2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    sess.run(root.layers[0].assign([5.0, 6.0]))
    path = manager.save()
reader = tf.train.load_checkpoint(path)
keys = sorted(k for k in reader.get_variable_to_shape_map() if k != "_CHECKPOINTABLE_OBJECT_GRAPH")
report("keys", keys)
report("values", {k: reader.get_tensor(k) for k in keys if "save_counter" not in k})
report("listed", sorted(type(o).__name__ for o in ck.list_objects(root)))
report("metadata_nodes", len(ck.object_metadata(path).nodes))
report("manager", [os.path.basename(p) for p in manager.checkpoints])
'''


@requires_tf115
def test_checkpoint_helpers_write_tf115s_keys():
  tf115, ours = run_both(SNIPPET)
  assert "model/layers/0/.ATTRIBUTES/VARIABLE_VALUE" in tf115["keys"]
  assert_same(tf115, ours)


HELPERS = r'''
import os
import numpy as np
import tensorflow as tf
side = "tf115" if tf.__version__.startswith("1.") else "tf1clip"
base = os.path.join(ORACLE_SHARED, side)
# -- checkpoint -----------------------------------------------------------------------------------------------
ck = tf.contrib.checkpoint
with tf.Graph().as_default():
    arrays = ck.NumpyState()
    arrays.x = np.zeros([2, 3])
    arrays.y = np.float32(4.0)
    tracker = ck.UniqueNameTracker()
    tracker.track(tf.Variable(3., name="t1"), "x")
    tracker.track(tf.Variable(4., name="t2"), "y")
    tracker.track(tf.Variable(5., name="t3"), "x")
    def not_array():
        arrays.z = "string"
    report_errors("checkpoint_errors", [("track_float", lambda: tracker.track(1.0, "z")),
                                        ("numpy_state_string", not_array)])
    a = tf.Variable([1., 2.], name="a")
    b = tf.Variable([3.], name="b")
    def fill(buf):
        buf["first"] = tf.identity(a)
        buf["second"] = b * 2.
    def consume(buf):
        return tf.group(a.assign(buf["first"] + 10.), b.assign(buf["second"]))
    deps = ck.split_dependency(["first", "second"], [tf.float32, tf.float32], fill, consume, device="/cpu:0")
    root = tf.train.Checkpoint(arrays=arrays, tracker=tracker, first=deps["first"], second=deps["second"])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = root.save(os.path.join(base, "ckpt", "ckpt"), session=sess)
        arrays.x[1, 1] = 7.
        sess.run([a.assign([0., 0.]), b.assign([0.])])
        root.restore(path).run_restore_ops(sess)
        report("restored", {"x": arrays.x, "y": arrays.y, "ab": sess.run([a, b])})
reader = tf.train.load_checkpoint(path)
keys = sorted(reader.get_variable_to_shape_map())
report("checkpoint_keys", keys)
report("checkpoint_values", {k: reader.get_tensor(k) for k in keys
                             if "OBJECT_GRAPH" not in k and "py_state" not in k and "save_counter" not in k})
with tf.Graph().as_default():
    fresh = tf.train.Checkpoint(arrays=ck.NumpyState())
    fresh.restore(path)
    report("recreated", [fresh.arrays.x, fresh.arrays.y])
report("dot_graph", ck.dot_graph_from_checkpoint(path))
'''


@requires_tf115
def test_contrib_checkpoint_helpers_match_tf115():
  tf115, ours = run_both(HELPERS)
  assert "arrays/x/.ATTRIBUTES/py_state" in tf115["checkpoint_keys"]
  assert_same(tf115, ours)
