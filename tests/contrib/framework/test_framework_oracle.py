"""The contrib.framework names TF 1.15 re-exported from TensorFlow's own modules, served from where they live in
TF 2.21, against TF 1.15: values (seeded orthogonal initializers, smart_case, name-scope helpers, checkpoint
remapping initializers), the errors of the assertions, and TensorSpec.

The variable, global-step, arg_scope and checkpoint helpers (FRAMEWORK): variable names, collections, checkpoint
helpers.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.framework." + n for n in (
    "TensorSpec", "BoundedTensorSpec", "RecordInput", "assert_same_float_dtype", "assert_scalar",
    "convolutional_delta_orthogonal", "convolutional_orthogonal_1d", "convolutional_orthogonal_2d",
    "convolutional_orthogonal_3d", "deprecated", "deprecated_args", "deprecated_arg_values",
    "load_and_remap_matrix_initializer", "load_embedding_initializer", "prepend_name_scope", "strip_name_scope",
    "smart_case", "smart_constant_value")) + ("tf.contrib.compiler.jit", "tf.contrib.compiler.xla")

FRAMEWORK = ("add_arg_scope", "add_model_variable", "arg_scoped_arguments", "argsort", "assert_global_step",
             "assert_or_get_global_step", "assign_from_checkpoint", "assign_from_checkpoint_fn", "assign_from_values",
             "assign_from_values_fn", "convert_to_tensor_or_sparse_tensor", "create_global_step",
             "current_arg_scope", "filter_variables", "get_global_step", "get_local_variables",
             "get_model_variables", "get_name_scope", "get_or_create_global_step", "get_trainable_variables",
             "get_unique_variable", "get_variable_full_name", "get_variables", "get_variables_by_name",
             "get_variables_by_suffix", "get_variables_to_restore", "global_variable", "has_arg_scope",
             "init_from_checkpoint", "is_tensor", "list_variables", "load_checkpoint", "load_variable",
             "local_variable", "model_variable", "smart_cond", "sort", "variable", "VariableDeviceChooser")
ORACLE_TESTED = ORACLE_TESTED + tuple("tf.contrib.framework." + n for n in FRAMEWORK)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
fw = tf.contrib.framework
out = {}
for name, shape in (("convolutional_delta_orthogonal", [3, 3, 4, 4]), ("convolutional_orthogonal_1d", [3, 4, 4]),
                    ("convolutional_orthogonal_2d", [2, 2, 4, 4]), ("convolutional_orthogonal_3d", [2, 2, 2, 4, 4])):
    out[name] = getattr(fw, name)(gain=1.5, seed=11)(shape)
flag = tf.placeholder(tf.bool, [])
out["smart_case_static"] = fw.smart_case([(tf.constant(True), lambda: tf.constant(1)),
                                          (tf.constant(False), lambda: tf.constant(2))], default=lambda: tf.constant(3))
out["smart_case_dynamic"] = fw.smart_case([(flag, lambda: tf.constant(10))], default=lambda: tf.constant(20))
report("smart_constant_value", [fw.smart_constant_value(True), fw.smart_constant_value(tf.constant(False))])
report("names", [fw.prepend_name_scope("a/b", "outer"), fw.strip_name_scope("outer/a/b", "outer"),
                 fw.prepend_name_scope("^a/b", "outer")])
spec = fw.TensorSpec([None, 3], tf.float32, "x")
bounded = fw.BoundedTensorSpec([2], tf.int32, 0, 5)
report("specs", [spec.shape.as_list(), spec.dtype.name, spec.name, spec.is_compatible_with(tf.zeros([4, 3])),
                 bounded.minimum.tolist(), bounded.maximum.tolist()])
report("float_dtype", fw.assert_same_float_dtype([tf.zeros([2]), tf.ones([3])]).name)
report_errors("errors", (("mixed_float", lambda: fw.assert_same_float_dtype([tf.zeros([2]), tf.zeros([2], tf.float64)])),
                  ("not_scalar", lambda: fw.assert_scalar(tf.zeros([2]))),
                  ("scalar_ok", lambda: fw.assert_scalar(tf.constant(1.0)))))

@fw.deprecated(None, "use g")
def old_f(x):
    return x + 1
@fw.deprecated_args(None, "drop y", "y")
def old_g(x, y=None):
    return x
@fw.deprecated_arg_values(None, "mode 2 is gone", mode=2)
def old_h(x, mode=1):
    return x * mode
report("deprecated", [old_f(1), old_g(2, y=3), old_h(3, mode=2), "(deprecated)" in old_f.__doc__,
                      "deprecated arguments" in old_g.__doc__, "deprecated argument values" in old_h.__doc__])

# checkpoint remapping: a [4, 2] matrix saved, reloaded with rows permuted/new through the vocab files
d = ORACLE_SHARED
with open(d + "/old_vocab.txt", "w") as f:
    f.write("a\nb\nc\nd\n")
with open(d + "/new_vocab.txt", "w") as f:
    f.write("c\na\nz\n")
with tf.Graph().as_default():
    m = tf.Variable(np.arange(8, dtype=np.float32).reshape(4, 2), name="emb")
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        path = tf.train.Saver([m]).save(s, d + "/remap")
init = fw.load_embedding_initializer(path, "emb", new_vocab_size=3, embedding_dim=2,
                                     old_vocab_file=d + "/old_vocab.txt", new_vocab_file=d + "/new_vocab.txt",
                                     initializer=tf.zeros_initializer())
out["remapped"] = tf.get_variable("remapped", [3, 2], initializer=init)
init2 = fw.load_and_remap_matrix_initializer(path, "emb", new_row_vocab_size=3, new_col_vocab_size=2,
                                             old_row_vocab_file=d + "/old_vocab.txt",
                                             new_row_vocab_file=d + "/new_vocab.txt",
                                             initializer=tf.zeros_initializer())
out["remapped_matrix"] = tf.get_variable("remapped_matrix", [3, 2], initializer=init2)
report("record_input_type", type(fw.RecordInput).__name__)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    report("out", sess.run(out, {flag: False}))
'''


@requires_tf115
def test_served_framework_names_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["errors"] == {"mixed_float": "ValueError", "not_scalar": "ValueError", "scalar_ok": "no error"}
  assert tf115["out"]["remapped"].tolist() == [[4.0, 5.0], [0.0, 1.0], [0.0, 0.0]]  # c, a, new z
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)


JIT_SNIPPET = r'''
import tensorflow as tf
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.contrib.compiler.jit.experimental_jit_scope():
    y = tf.matmul(x, x) + 1.0
with tf.contrib.compiler.jit.experimental_jit_scope(compile_ops=False):
    z = tf.nn.relu(y - 20.0)
report("attrs", [y.op.get_attr("_XlaCompile"), z.op.get_attr("_XlaCompile")])
compiled = tf.contrib.compiler.xla.compile(lambda a: tf.reduce_sum(a * 2.0), [x])
with tf.Session() as sess:
    report("values", sess.run([y, z, compiled]))
'''


@requires_tf115
def test_compiler_jit_scope_and_xla_compile_match_tf115():
  tf115, ours = run_both(JIT_SNIPPET)
  assert tf115["attrs"] == [True, False]
  assert_same(tf115, ours)


VARIABLES_SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
F = tf.contrib.framework
rng = np.random.RandomState(0)
vec = tf.constant(rng.uniform(-1, 1, [2, 6]).astype(np.float32))
out = {}
# framework
step = F.create_global_step()
report("global_step", [F.get_global_step() is step, F.get_or_create_global_step() is step,
                       F.assert_or_get_global_step() is step])
F.assert_global_step(step)
with tf.variable_scope("fw"):
    mv = F.model_variable("mv", shape=[2], initializer=tf.ones_initializer())
    lv = F.local_variable([1.0, 2.0], name="lv")
    gv = F.global_variable([3.0], name="gv")
    v = F.variable("v", shape=[2], initializer=tf.zeros_initializer())
    extra = tf.Variable(1.0, name="extra")
    F.add_model_variable(extra)
names = lambda vs: sorted(x.op.name for x in vs)
report("framework_variables", [names(F.get_model_variables("fw")), names(F.get_local_variables("fw")),
                               names(F.get_trainable_variables("fw")), names(F.get_variables("fw")),
                               names(F.get_variables_by_name("v", "fw")), names(F.get_variables_by_suffix("mv")),
                               names(F.get_variables_to_restore(include=["fw"], exclude=["fw/mv"])),
                               names(F.filter_variables(F.get_variables("fw"), include_patterns=["v$"])),
                               F.get_unique_variable("fw/v").op.name, F.get_variable_full_name(v)])
@F.add_arg_scope
def scaled(x, factor=1.0):
    return x * factor
with F.arg_scope([scaled], factor=3.0) as sc:
    report("arg_scope", [F.has_arg_scope(scaled), F.arg_scoped_arguments(scaled), len(F.current_arg_scope()),
                         sorted(sc)[0][1] if isinstance(sorted(sc)[0], tuple) else None])
    out["scaled"] = scaled(tf.constant(2.0))
with tf.name_scope("outer"):
    report("name_scope", F.get_name_scope())
with tf.Graph().as_default():  # placed on ps tasks this process has not got: built, never run
    chooser = F.VariableDeviceChooser(num_tasks=2, job_name="ps", device_type="CPU")
    with tf.device(chooser):
        placed = [tf.Variable(1.0, name="p%d" % i).device for i in range(3)]
    report("device_chooser", placed)
out["sort"] = [F.sort(tf.constant([3, 1, 2]), direction="DESCENDING"), F.argsort(tf.constant([3.0, 1.0, 2.0]))]
out["smart_cond"] = F.smart_cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2))
report("tensor_checks", [F.is_tensor(vec), F.is_tensor(3), isinstance(F.convert_to_tensor_or_sparse_tensor([1]), tf.Tensor)])
report_variables()
path = os.path.join(os.getcwd(), "fw.ckpt")
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    init_from_numpy(sess, seed=9, scale=0.4)
    for key, value in sorted(out.items()):
        report(key, sess.run(value))
    saved = tf.train.Saver().save(sess, path)
    report("checkpoint_utils", [sorted(n for n, _ in F.list_variables(saved))[:6], F.load_variable(saved, "fw/v"),
                                F.load_checkpoint(saved).get_tensor("fw/mv")])
    sess.run(v.assign([7.0, 8.0]))
    op, feed = F.assign_from_checkpoint(saved, [v])
    sess.run(op, feed)
    restored_v = sess.run(v)
    sess.run(v.assign([7.0, 8.0]))
    F.assign_from_checkpoint_fn(saved, {"fw/v": v})(sess)
    op, feed = F.assign_from_values({"fw/gv": np.array([5.0], np.float32)})
    sess.run(op, feed)
    F.assign_from_values_fn({"fw/mv": np.array([4.0, 4.0], np.float32)})(sess)
    report("assigned", [restored_v] + sess.run([v, gv, mv]))
with tf.Graph().as_default():
    with tf.variable_scope("fw"):
        fresh = tf.get_variable("v", [2], initializer=tf.zeros_initializer())
    F.init_from_checkpoint(path, {"fw/": "fw/"})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        report("init_from_checkpoint", sess.run(fresh))
'''


@requires_tf115
def test_contrib_framework_variable_and_arg_scope_helpers_match_tf115():
  tf115, ours = run_both(VARIABLES_SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5)
