"""tf.contrib.tfprof (TF 1.15's tfprof/model_analyzer.py and tfprof_logger.py, and ProfileContext) against TF 1.15.

tfprof: print_model_analysis (scope view parameter counts, the default options, the op view's MatMul float ops),
write_op_log's file, advise's checkers, ProfileContext's traced / profiled / dumped steps and its errors.
Stated difference: tfprof's float-op count of an addition changed with TensorFlow (TF 2.21's `+` is AddV2,
counted per output element), so only MatMul's float ops are compared.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.tfprof.ProfileContext", "tf.contrib.tfprof.model_analyzer.print_model_analysis",
    "tf.contrib.tfprof.model_analyzer.advise", "tf.contrib.tfprof.tfprof_logger.write_op_log")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
km, tfprof = tf.contrib.kernel_methods, tf.contrib.tfprof
root = os.path.abspath("out")
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
def test_tfprof_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=300)
  assert tf115["profile_context"]["files"] == ["profile_2"], tf115
  assert_same(tf115, ours, rtol=2e-5, atol=2e-6)
