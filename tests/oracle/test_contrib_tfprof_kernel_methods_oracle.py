"""tf.contrib.tfprof and tf.contrib.kernel_methods against TF 1.15.

kernel_methods: RandomFourierFeatureMapper's outputs for a fixed seed (numpy's draws, and numpy's global generator
left reseeded as TF 1.15 left it), its properties and shape errors; sparse_multiclass_hinge_loss's values, gradients,
reductions and errors; KernelLinearClassifier trained a few steps on a tiny dataset with mappers on a real-valued
column (binary with the default Ftrl; three classes with a weight column, an unmapped copy of the column and two
mappers), then its weights (looked up by role: tf.estimator's variable names differ, as for contrib.learn's
LinearClassifier), evaluate, predict, predict_classes and predict_proba.
tfprof: print_model_analysis (scope view parameter counts, the default options, the op view's MatMul float ops),
write_op_log's file, advise's checkers, ProfileContext's traced / profiled / dumped steps and its errors.
Stated difference: tfprof's float-op count of an addition changed with TensorFlow (TF 2.21's `+` is AddV2,
counted per output element), so only MatMul's float ops are compared."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.kernel_methods.RandomFourierFeatureMapper", "tf.contrib.kernel_methods.sparse_multiclass_hinge_loss",
    "tf.contrib.kernel_methods.KernelLinearClassifier", "tf.contrib.tfprof.ProfileContext",
    "tf.contrib.tfprof.model_analyzer.print_model_analysis", "tf.contrib.tfprof.model_analyzer.advise",
    "tf.contrib.tfprof.tfprof_logger.write_op_log")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
km, tfprof = tf.contrib.kernel_methods, tf.contrib.tfprof
root = os.path.abspath("out")

# -- RandomFourierFeatureMapper ---------------------------------------------------------------------------
m = km.RandomFourierFeatureMapper(3, 5, stddev=2.0, seed=7, name="rffm")
mapped = m.map(tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3) / 10))
report("numpy_after_map", np.random.rand(3))  # TF 1.15 reseeded numpy's global generator
report("mapper_props", [m.name, m.input_dim, m.output_dim, km.RandomFourierFeatureMapper(2, 3).name.isdigit()])
report_errors("mapper_errors", [
    ("rank3", lambda: m.map(tf.zeros([2, 3, 1]))), ("dim", lambda: m.map(tf.zeros([2, 4]))),
    ("unknown_dim", lambda: m.map(tf.placeholder(tf.float32, [None, None]))),
    ("unknown_rank", lambda: m.map(tf.placeholder(tf.float32))),
    ("float64", lambda: m.map(tf.zeros([2, 3], tf.float64)))])

# -- sparse_multiclass_hinge_loss --------------------------------------------------------------------------
logits = tf.constant([[1.0, 2.0, 0.5], [0.2, -1.0, 3.0], [2.0, 2.0, 2.0], [0.0, 1.5, 1.4]])
labels = tf.constant([1, 0, 2, 2])
loss = km.sparse_multiclass_hinge_loss(labels, logits)
loss_w = km.sparse_multiclass_hinge_loss(tf.reshape(labels, [-1, 1]), logits,
                                         weights=tf.constant([1.0, 0.0, 2.0, 0.5]))
loss_none = km.sparse_multiclass_hinge_loss(tf.cast(labels, tf.int64), logits, weights=[[1.0], [2.0], [1.0], [3.0]],
                                            reduction=tf.losses.Reduction.NONE, scope="hinge")
grad = tf.gradients(loss_w, logits)[0]
report("hinge_graph", [loss.name, len(tf.get_collection(tf.GraphKeys.LOSSES))])
report_errors("hinge_errors", [
    ("logits_rank1", lambda: km.sparse_multiclass_hinge_loss(labels, tf.constant([1.0, 2.0]))),
    ("labels_float", lambda: km.sparse_multiclass_hinge_loss(tf.constant([1.0, 0, 2, 2]), logits)),
    ("labels_rank3", lambda: km.sparse_multiclass_hinge_loss(tf.zeros([4, 1, 1], tf.int32), logits)),
    ("weights_rank3", lambda: km.sparse_multiclass_hinge_loss(labels, logits, weights=tf.ones([4, 1, 1]))),
    ("weights_size", lambda: km.sparse_multiclass_hinge_loss(labels, logits, weights=tf.ones([3])))])
out_of_range = km.sparse_multiclass_hinge_loss(tf.constant([0, 3, 1, 1]), logits)
with tf.Session() as sess:
    report("values", sess.run({"mapped": mapped, "loss": loss, "loss_w": loss_w, "none": loss_none, "grad": grad}))
    report_errors("hinge_run_errors", [("label_3_of_3", lambda: sess.run(out_of_range))])

# -- KernelLinearClassifier --------------------------------------------------------------------------------
rng = np.random.RandomState(0)
xs = rng.randn(20, 2).astype(np.float32)
col = tf.contrib.layers.real_valued_column("x", dimension=2)

def weights(estimator):
    names = [n for n in estimator.get_variable_names() if n.startswith("linear/") and "Ftrl" not in n]
    bias = [n for n in names if "bias" in n]
    return {"weights": [estimator.get_variable_value(n) for n in sorted(set(names) - set(bias))],
            "bias": [estimator.get_variable_value(n) for n in bias]}

def binary_input():
    return {"x": tf.constant(xs)}, tf.constant((np.sum(xs ** 2, 1) > 1.0).astype(np.int64))
features_only = lambda: binary_input()[0]
binary = km.KernelLinearClassifier(
    kernel_mappers={col: [km.RandomFourierFeatureMapper(2, 8, seed=3, name="a")]}, model_dir=root + "/binary")
binary.fit(input_fn=binary_input, steps=5)
report("binary_weights", weights(binary))
ev = binary.evaluate(input_fn=binary_input, steps=1)
report("binary_eval", {k: ev[k] for k in (
    "loss", "accuracy", "auc", "global_step", "labels/actual_label_mean", "labels/prediction_mean",
    "accuracy/threshold_0.500000_mean", "precision/positive_threshold_0.500000_mean",
    "recall/positive_threshold_0.500000_mean")})
preds = list(binary.predict(input_fn=features_only))
report("binary_predict", {k: np.array([p[k] for p in preds]) for k in preds[0]})
report("binary_classes", np.array(list(binary.predict_classes(input_fn=features_only))))
report("binary_proba", np.array(list(binary.predict_proba(input_fn=features_only))))

def three_input():
    return ({"x": tf.constant(xs), "w": tf.constant(np.linspace(0.5, 1.5, 20, dtype=np.float32))},
            tf.constant(((xs[:, 0] > 0).astype(np.int64) + (xs[:, 1] > 0.5)).reshape(20, 1)))
three = km.KernelLinearClassifier(
    feature_columns=[col], n_classes=3, weight_column_name="w", optimizer=tf.train.GradientDescentOptimizer(0.5),
    kernel_mappers={col: [km.RandomFourierFeatureMapper(2, 4, stddev=0.5, seed=1),
                          km.RandomFourierFeatureMapper(2, 3, seed=2)]},
    model_dir=root + "/three")
three.fit(input_fn=three_input, steps=4)
report("three_weights", weights(three))
ev = three.evaluate(input_fn=three_input, steps=1)
report("three_eval", {k: ev[k] for k in ("loss", "accuracy", "global_step")})
report("three_predict", three.predict(input_fn=lambda: three_input()[0], as_iterable=False))
report_errors("classifier_errors", [
    ("nothing", lambda: km.KernelLinearClassifier()),
    ("bad_mapper", lambda: km.KernelLinearClassifier(kernel_mappers={col: [object()]})),
    ("one_class", lambda: km.KernelLinearClassifier(feature_columns=[col], n_classes=1))])

# -- tfprof ------------------------------------------------------------------------------------------------
ma = tfprof.model_analyzer
nodes = lambda node: [node] + [n for child in node.children for n in nodes(child)]
with tf.Graph().as_default() as g:
    a = tf.get_variable("a", [3, 4], initializer=tf.ones_initializer())
    with tf.variable_scope("s"):
        b = tf.get_variable("b", [4], initializer=tf.zeros_initializer())
    tf.get_variable("c", [2], trainable=False)
    y = tf.matmul(tf.ones([2, 3]), a) + b
    scope_view = ma.print_model_analysis(g, tfprof_options=ma.TRAINABLE_VARS_PARAMS_STAT_OPTIONS)
    op_view = ma.print_model_analysis(g, tfprof_cmd="op", tfprof_options=ma.FLOAT_OPS_OPTIONS)
    report("print_model_analysis", {
        "scope": [type(scope_view).__name__, scope_view.total_parameters,
                  [[ch.name, ch.total_parameters] for ch in scope_view.children]],
        "default_options": ma.print_model_analysis(g).total_parameters,
        "op": [type(op_view).__name__, [n.float_ops for n in nodes(op_view) if n.name == "MatMul"]]})
    os.makedirs(root + "/oplog")
    report("write_op_log", [tfprof.tfprof_logger.write_op_log(g, root + "/oplog"), os.listdir(root + "/oplog")])
    advice = ma.advise(g)
    report("advise", [type(advice).__name__, sorted(advice.checkers.keys())])
    with tfprof.ProfileContext(root + "/prof", trace_steps=[1], dump_steps=[2]) as pctx:
        pctx.add_auto_profiling("scope", ma.TRAINABLE_VARS_PARAMS_STAT_OPTIONS, [2])
        pctx.add_auto_profiling("op", ma.FLOAT_OPS_OPTIONS, [1])
        report_errors("nested_context", [("enter", lambda: tfprof.ProfileContext(root + "/p2").__enter__())])
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            report("profiled_run", [sess.run(y) for _ in range(3)])
    report("profile_context", {
        "files": sorted(os.listdir(root + "/prof")), "scope_steps": sorted(pctx.get_profiles("scope")),
        "scope_params": pctx.get_profiles("scope")[2].total_parameters, "op_steps": sorted(pctx.get_profiles("op")),
        "restored": getattr(tf.Session, "_profiler_run_internal", None) is None,
        "disabled": tfprof.ProfileContext("", enabled=False).profiler is None})
    report_errors("profile_context_errors", [
        ("no_dir", lambda: tfprof.ProfileContext("")),
        ("too_many_steps", lambda: tfprof.ProfileContext(root, trace_steps=list(range(101)))),
        ("unknown_cmd", lambda: pctx.get_profiles("graph"))])
'''


@requires_tf115
def test_tfprof_and_kernel_methods_match_tf115():
  tf115, ours = run_both(SNIPPET, timeout=300)
  assert tf115["binary_eval"]["global_step"] == 5 and tf115["profile_context"]["files"] == ["profile_2"], tf115
  assert tf115["mapper_errors"]["dim"] == "InvalidShapeError", tf115["mapper_errors"]
  assert_same(tf115, ours, rtol=2e-5, atol=2e-6)
