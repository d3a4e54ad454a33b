"""tf.contrib.checkpoint (TensorFlow's tracking classes under TF 1.15's names) against TF 1.15: an object graph of
Checkpointable, List, Mapping and NoDependency saved by tf.train.Checkpoint through CheckpointManager in graph
mode has the same checkpoint keys and values; list_objects and object_metadata agree."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.checkpoint." + n for n in (
    "CheckpointManager", "Checkpointable", "CheckpointableBase", "CheckpointableObjectGraph", "List", "Mapping",
    "NoDependency", "PythonStateWrapper", "capture_dependencies", "list_objects", "object_metadata"))

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
