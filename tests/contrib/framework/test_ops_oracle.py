"""contrib.framework's own small ops against TF 1.15: reduce_sum_n, remove_squeezable_dimensions (static and
dynamic ranks), with_shape / with_same_shape (static checks, the runtime Assert, its error), assert_scalar_int,
get_placeholders, fuse_op (the rewritten GraphDef and its errors), get_graph_from_inputs, py_func with nested arguments and outputs, zero_initializer, and the
bias / slot remapping initializers on a TF 1.15-written checkpoint and vocabularies."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.framework." + n for n in (
    "reduce_sum_n", "remove_squeezable_dimensions", "with_shape", "with_same_shape", "assert_scalar_int",
    "get_placeholders", "fuse_op", "get_graph_from_inputs", "py_func", "zero_initializer",
    "load_linear_multiclass_bias_initializer", "load_variable_slot_initializer"))

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
fw = tf.contrib.framework
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([5.0, 6.0, 7.0])
total = fw.reduce_sum_n([a, b])
single = fw.reduce_sum_n([b])
p3, l2 = fw.remove_squeezable_dimensions(tf.zeros([4, 3, 1]), tf.zeros([4, 3]))
p2, l3 = fw.remove_squeezable_dimensions(tf.zeros([4, 3]), tf.zeros([4, 3, 1]))
dyn_p = tf.placeholder(tf.float32, None)
dyn_l = tf.placeholder(tf.float32, [None, None])
dp, dl = fw.remove_squeezable_dimensions(dyn_p, dyn_l)
report("static_squeeze", [p3.shape.as_list(), l2.shape.as_list(), p2.shape.as_list(), l3.shape.as_list()])
ok = fw.with_shape([2, 2], a)
scalar = fw.with_shape([], tf.constant([3.0]))
loose = tf.placeholder(tf.float32, [None, 3])
checked = fw.with_shape([2, 3], loose)
partial = fw.with_shape(tf.TensorShape([None, 3]), loose)
same = fw.with_same_shape(a, tf.placeholder(tf.float32, [None, 2]))
report("shapes", [ok.shape.as_list(), scalar.shape.as_list(), checked.shape.as_list(),
                  partial.shape.as_list(), same.shape.as_list(), ok is a])
report_errors("errors", (
    ("with_shape_static", lambda: fw.with_shape([3, 2], a)),
    ("with_shape_sparse", lambda: fw.with_shape([1], tf.SparseTensor([[0]], [1.0], [1]))),
    ("with_shape_rank", lambda: fw.with_shape(np.zeros([2, 2], np.int32), a)),
    ("with_shape_dtype", lambda: fw.with_shape(tf.constant([2, 2], tf.int64), a)),
    ("assert_scalar_int_float", lambda: fw.assert_scalar_int(tf.constant(1.0))),
    ("assert_scalar_int_vector", lambda: fw.assert_scalar_int(tf.constant([1, 2]))),
    ("reduce_sum_n_empty", lambda: fw.reduce_sum_n([])),
    ("placeholders_not_graph", lambda: fw.get_placeholders("graph")),
    ("py_func_args", lambda: fw.py_func(lambda x: x, args=3, output_types=tf.float32)),
    ("py_func_kwargs", lambda: fw.py_func(lambda x: x, args=(1.0,), kwargs=[1], output_types=tf.float32))))
report("assert_scalar_int_ok", isinstance(fw.assert_scalar_int(tf.constant(3)), tf.Tensor))
report("placeholders", sorted(t.name for t in fw.get_placeholders(tf.get_default_graph())))
# fuse_op on a GraphDef of its own
with tf.Graph().as_default() as g:
    fx = tf.placeholder(tf.float32, [2], name="fx")
    fy = tf.placeholder(tf.float32, [2], name="fy")
    fs = tf.subtract(fx, fy, name="fs")  # (tf.add is AddV2 on TF 2.21)
    fm = tf.multiply(fs, 2.0, name="fm")
    fo = tf.identity(fm, name="fo")
    fo2 = tf.identity(fs, name="fo2")
    ft = tf.square(fo, name="ft")
    stray = tf.placeholder(tf.float32, [2], name="stray")
    leak = tf.subtract(fs, stray, name="leak")
    lo = tf.identity(leak, name="lo")
gd = g.as_graph_def()
fused = fw.fuse_op(gd, ["fx", "fy"], ["fo", "fo2"], [tf.float32.as_datatype_enum] * 2, False, "fused", "MyFused")
report("fuse_op", [[n.name, n.op, list(n.input), sorted(n.attr["_output_types"].list.type),
                    n.attr["_output_quantized"].b] for n in fused.node])
report_errors("fuse_op_errors", (
    ("not_graph_def", lambda: fw.fuse_op("gd", ["fx"], ["fo"], [1], False, "f", "F")),
    ("input_string", lambda: fw.fuse_op(gd, "fx", ["fo"], [1], False, "f", "F")),
    ("output_string", lambda: fw.fuse_op(gd, ["fx"], "fo", [1], False, "f", "F")),
    ("missing_node", lambda: fw.fuse_op(gd, ["fx", "nope"], ["fo"], [1], False, "f", "F")),
    ("outside_input", lambda: fw.fuse_op(gd, ["fx", "fy"], ["lo"], [1], False, "f", "F"))))
report("graph_from_inputs", fw.get_graph_from_inputs([a, b]) is tf.get_default_graph())

def step(x, scale, offset=0.0):
    return {"sum": np.float32(np.sum(x) * scale + offset), "pair": (x * 2, np.int64(x.size))}
out = fw.py_func(step, args=(a, tf.constant(0.5)), kwargs={"offset": tf.constant(1.0)},
                 output_types={"sum": tf.float32, "pair": (tf.float32, tf.int64)},
                 output_shapes={"sum": [], "pair": ([2, 2], [])})
report("py_func_shapes", [out["sum"].shape.as_list(), out["pair"][0].shape.as_list()])
v = tf.Variable([1.0, 2.0, 3.0], name="v")
zero = fw.zero_initializer(v)

# remapping initializers on a checkpoint written here (the same on both sides)
shared = os.path.abspath("ckpt")
os.makedirs(shared)
with open(os.path.join(shared, "old_classes.txt"), "w") as f:
    f.write("cat\ndog\nbird\n")
with open(os.path.join(shared, "new_classes.txt"), "w") as f:
    f.write("bird\nfish\ncat\n")
with tf.Graph().as_default():
    old_bias = tf.Variable([[0.1], [0.2], [0.3]], name="logits/bias")
    old_slot = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="emb/Adagrad")
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        path = tf.train.Saver().save(s, os.path.join(shared, "model"))
bias_init = fw.load_linear_multiclass_bias_initializer(
    path, "logits/bias", 3, os.path.join(shared, "old_classes.txt"), os.path.join(shared, "new_classes.txt"),
    num_class_oov_buckets=1)  # initializer: TF 1.15 fails on a constant_initializer here (np.prod of a shape)
new_bias = tf.get_variable("new_bias", [4, 1], initializer=bias_init)
slot_init = fw.load_variable_slot_initializer(
    path, "emb/Adagrad", None, 3, 2, old_row_vocab_file=os.path.join(shared, "old_classes.txt"),
    new_row_vocab_file=os.path.join(shared, "new_classes.txt"))
new_slot = tf.get_variable("new_slot", [3, 2], initializer=slot_init)

with tf.Session() as sess:
    # zero_initializer initializes `v` (TF 1.15's kernel refuses a variable already initialized: a stated
    # difference, tf1clip's assign does not refuse)
    sess.run(tf.variables_initializer([x for x in tf.global_variables() if x is not v]))
    report("values", sess.run({"total": total, "single": single, "ok": ok, "scalar": scalar,
                               "checked": checked, "partial": partial}, {loose: np.ones([2, 3])}))
    report("dynamic_squeeze", [list(x.shape) for x in sess.run([dp, dl], {dyn_p: np.zeros([4, 3, 1]),
                                                                          dyn_l: np.zeros([4, 3])})])
    try:
        sess.run(checked, {loose: np.ones([4, 3])})
        report("assert_error", "no error")
    except tf.errors.InvalidArgumentError as e:
        report("assert_error", "InvalidArgumentError" + (" (message)" if "Wrong shape for" in str(e) else ""))
    report("py_func", sess.run(out))
    sess.run(zero)
    report("zeroed", sess.run(v))
    report("remapped", sess.run({"bias": new_bias, "slot": new_slot}))
'''


@requires_tf115
def test_framework_ops_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["assert_error"] == "InvalidArgumentError (message)"
  assert tf115["errors"]["with_shape_static"] == "ValueError"
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)
