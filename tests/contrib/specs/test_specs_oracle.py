"""contrib.specs against TF 1.15: networks built from spec strings (variable names, values, op structure), the DSL's
composition operators and currying, the params DSL's random draws, the summaries' strings, LocalImport, the names
TF 1.15's star imports leaked (math, exec_, layers) and the errors of bad specs."""

from harness import assert_same, requires_tf115, run_both

_TOP = """
    Ap Bn Callable Cl Cm Composable Composition Conc Cr Cs Ct Cx Do Dwm Dws Expand External Fl Flat Fm Fr Fs Ft Fun
    Function Fx Id Idx Import KEYWORDS Lf Li LocalImport Lrn Mp Nt Operator Print QUOTED Relu Reshape SHORT_NAMES
    SHORT_NAMES_SRC Shared Sig Smax Squeeze Tanh Transpose Uf Ui Unit Var check_keywords create_net create_net_fun
    debug debug_ eval_params eval_spec exec_ get_positional tf_left_split tf_num_params tf_parameter_iter
    tf_parameter_summary tf_print tf_spec_print tf_spec_structure tf_spec_summary tf_structure
    e gcd inf isclose log nan pi sin tau factorial layers params_ops specs specs_lib specs_ops summaries"""
ORACLE_TESTED = tuple("tf.contrib.specs." + n for n in _TOP.split()) + (
    "tf.contrib.specs.layers.conv2d", "tf.contrib.specs.specs.ops", "tf.contrib.specs.specs.create_net",
    "tf.contrib.specs.specs_lib.Function", "tf.contrib.specs.specs_ops.Shared", "tf.contrib.specs.params_ops.Li",
    "tf.contrib.specs.summaries.tf_structure")

SNIPPET = r'''
import contextlib
import io
import random
import numpy as np
import tensorflow as tf
sp = tf.contrib.specs


def captured(fn, *args, **kw):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args, **kw)
    return out.getvalue().splitlines()


images = tf.constant(np.random.RandomState(0).standard_normal([2, 8, 8, 3]), tf.float32)
vec = tf.constant(np.random.RandomState(1).standard_normal([2, 6]), tf.float32)
nets = {}
# the layer commands, composition, repetition and the shape changes
nets["conv"] = sp.create_net(
    "net = Cr(4, [3, 3]) | Cs(3, [1, 1]) | Ct(3, 3) | Cm(2, 1) | Cl(2, [2, 2]) | Cx(3, 1) | Mp([2, 2]) "
    "| Ap([2, 2], stride=1) | Lrn | Dws(2) | Dwm(3) | Unit(3) | Flat | Fs(5) | Ft(4) | Fr(4) | Fm(3) | Fl(3) "
    "| Fx(2)", images)
nets["bn"] = sp.create_net("net = Cl(3, [3, 3]) | Bn | Do(0.5, is_training=False) | Relu | Sig | Tanh", images)
nets["shapes"] = sp.create_net(
    "net = Expand(1) | Transpose([0, 2, 1]) | Squeeze([2]) | Reshape([3, 4]) | Smax | Id | Idx()", vec)
nets["ops"] = sp.create_net("f = Fl(6); net = (f + Idx()) * Fs(6) | Fl(4) ** 2 | Fl(2) ** 0", vec)
nets["conc"] = sp.create_net("net = Conc(1, Fl(3), Fr(2), Idx())", vec)
shared = sp.Shared(sp.Fl(6))
nets["shared"] = sp.create_net("net = s | s | Var('spec_v', [6]) + Idx()", vec, {"s": shared})
nets["env"] = sp.create_net("net = Fl(n) | Print([extra], 'printed: ', first_n=1)", vec, {"n": 4, "extra": vec})
fun = sp.create_net_fun("net = Fx(2, activation_fn=None, _0=5)")
nets["fun"] = fun(vec)
bindings = sp.eval_spec("left = Fl(2); right = left | Sig; net = Idx()", {"given": 3})
nets["bindings"] = bindings["right"].funcall(vec)
report("bindings_keys", sorted(bindings))
report("shared_scope", [shared.name, shared.scope.name])
# with specs.ops: the DSL's names bound in this module's globals for the block only
with sp.specs.ops:
    inside = Cr(2, [1, 1]) | Mp([2, 2])
    nets["local_import"] = inside.funcall(tf.constant(np.ones([1, 4, 4, 3]), tf.float32))
    report("local_import_inside", ["Cr" in globals(), "Fs" in globals(), callable(tf.placeholder)])
report("local_import_after", ["Cr" in globals(), "layers" in globals(), "inside" in globals()])
with sp.LocalImport({"zz_bound": 5}):
    report("local_import_dict", zz_bound)
report("local_import_dict_after", "zz_bound" in globals())
report("variables_listed", sorted(v.op.name for v in tf.global_variables()))
report_variables()
# summaries
report("structure", sp.tf_structure(nets["conc"]))
report("structure_shapes", sp.tf_structure(nets["shared"], include_shapes=True))
report("num_params", [sp.tf_num_params(nets[k]) for k in sorted(nets) if k != "bn"])
report("num_params_bn", sp.tf_num_params(nets["bn"]))
report("parameter_iter", list(sp.tf_parameter_iter(nets["conv"])))
report("left_split", [[t.name for t in (lambda l, r: [l] + list(r))(*sp.tf_left_split(nets["conc"].op))],
                      sp.tf_left_split(images.op) == (None, [])])
lines = []
sp.tf_parameter_summary(nets["conv"], printer=lines.append)
sp.tf_parameter_summary(nets["conv"], printer=lines.append, combine=False)
report("parameter_summary", lines)
lines = []
sp.tf_print(nets["shared"], printer=lines.append)
report("print", lines)
with tf.Graph().as_default():
    report("spec_structure", sp.tf_spec_structure("net = Cr(4, [3, 3]) | Mp([2, 2]) | Flat | Fs(5)",
                                                 input_shape=[1, 8, 8, 3]))
    report("spec_summary", captured(sp.tf_spec_summary, "net = Cr(4, [3, 3]) | Flat | Fs(5)", input_shape=[1, 8, 8, 3]))
    report("spec_print", captured(sp.tf_spec_print, "net = Fs(5)", input_shape=[2, 3]))
    report("spec_structure_inputs", sp.tf_spec_structure("net = Fl(2) | Sig", inputs=tf.zeros([1, 3])))
report("short_names", [sp.SHORT_NAMES, sp.SHORT_NAMES_SRC, sp.QUOTED.pattern, sp.KEYWORDS.pattern])
# the library: currying, positions, operators, classes
report("get_positional", [sp.get_positional([1, 2], {"a": 3}), sp.get_positional([1], {"_2": 5, "b": 1}),
                          sp.get_positional([1, 2], {"_0": 9}), sp.get_positional([1, 2], {"_0": 9}, True)])
curried = sp.Fun(lambda x, *args, **kw: [x, list(args), sorted(kw.items())], 1, k=2)(3, j=4)(5)
report("curried", [curried.funcall(0), curried.args, sorted(curried.kw.items())])
add_one = sp.Import("def f(x, k=1):\n    return x + k")
neg = sp.External("operator", "neg")
compound = (add_one | neg) + sp.Callable(lambda x: x * 10)
report("composed", [compound.funcall(2), (neg * add_one).funcall(3), (add_one ** 3).funcall(0),
                    (add_one ** 0).funcall(7), add_one(k=5).funcall(1)])
report("classes", [isinstance(compound, sp.Operator), isinstance(add_one | neg, sp.Composition),
                   isinstance(add_one, sp.Function), isinstance(sp.Idx(), sp.Composable),
                   isinstance(sp.Cr, sp.specs_lib.Function), sp.Fun is sp.Function,
                   sp.specs.create_net is sp.create_net, sp.specs_ops.Shared is sp.Shared,
                   sp.params_ops.Li is sp.Li, sp.summaries.tf_structure is sp.tf_structure,
                   sp.specs_lib.Function is sp.Function])
report("leaked_layers", [sp.layers.conv2d is tf.contrib.layers.conv2d, sp.layers.fully_connected is sp.Fx.f,
                         isinstance(sp.specs.ops, sp.LocalImport)])
sp.debug()
report("debug", [sp.specs_lib.debug_, sp.debug_, len(captured(sp.Id.funcall, vec))])
sp.debug(False)
# the params DSL: random draws (Python's random), math, bindings
random.seed(7)
report("params", sp.eval_params("n = Li(5, 500); d = Ui(1, 5); f = Uf(); g = Lf(1, 10); h = Nt(0, 1, 0.5); "
                                "m = sqrt(16) + floor(2.5) + log(8, 2); k = q * 2", {"q": 21}))
report("params_direct", [sp.Uf(), sp.Ui(1, 9), sp.Lf(2, 3), sp.Li(1, 4), sp.Nt(1.0, 2.0)])
report("math", [sp.sin(0.5), sp.pi, sp.e, sp.tau, sp.inf, str(sp.nan), sp.gcd(12, 18), sp.isclose(1.0, 1.0 + 1e-12),
                sp.log(8, 2), sp.factorial(5)])
namespace = {}
sp.exec_("z = 40 + 2", namespace)
report("exec_", namespace["z"])
# bad specs and arguments
report_errors("errors", [
    ("keyword_import", lambda: sp.check_keywords("import os")),
    ("keyword_quoted", lambda: sp.check_keywords("x = 'import while'")),
    ("keyword_def", lambda: sp.eval_spec("def g(x): return x")),
    ("keyword_params", lambda: sp.eval_params("while 1: pass")),
    ("no_net", lambda: sp.create_net("x = Cr(3, 3)", images)),
    ("undefined", lambda: sp.eval_spec("net = Nope(3)")),
    ("shared_name", lambda: sp.Shared(sp.Idx(), name="s")),
    ("shared_scope", lambda: sp.Shared(sp.Idx(), scope="s")),
    ("not_callable", lambda: sp.Function(3)),
    ("import_no_f", lambda: sp.Import("g = 1")),
    ("external_missing", lambda: sp.External("operator", "no_such_function")),
    ("negative_power", lambda: sp.Idx() ** -1),
    ("bad_params", lambda: sp.eval_params("n = Ui(5, 1)")),
])
with tf.Session() as sess:
    init_from_numpy(sess, seed=3)
    report("outputs", sess.run(nets))
'''


@requires_tf115
def test_contrib_specs_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5, differences={
      # tf_num_params counts the variables the output is computed from. TensorFlow 2.21's fused batch norm (the
      # layer under tf-slim's batch_norm) reads the moving mean and variance in training mode too (TF 1.15 fed
      # empty constants there), so they count: 87 + 2 * 3 channels. The outputs and variables are TF 1.15's.
      "num_params_bn": "TensorFlow 2.21's training-mode FusedBatchNormV3 takes the moving statistics as inputs",
  })
