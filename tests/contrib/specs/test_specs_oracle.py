"""contrib.specs' networks (TF 1.15's specs/python/specs.py and specs_ops.py) against TF 1.15: networks built from
spec strings by create_net / create_net_fun / eval_spec with the layer commands, composition, repetition, Shared and
Var (variable names, values), LocalImport (`with specs.ops:`), the names TF 1.15's star imports leaked (layers,
exec_) and the errors of bad specs.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.specs.Ap",
    "tf.contrib.specs.Bn",
    "tf.contrib.specs.Cl",
    "tf.contrib.specs.Cm",
    "tf.contrib.specs.Conc",
    "tf.contrib.specs.Cr",
    "tf.contrib.specs.Cs",
    "tf.contrib.specs.Ct",
    "tf.contrib.specs.Cx",
    "tf.contrib.specs.Do",
    "tf.contrib.specs.Dwm",
    "tf.contrib.specs.Dws",
    "tf.contrib.specs.Expand",
    "tf.contrib.specs.Fl",
    "tf.contrib.specs.Flat",
    "tf.contrib.specs.Fm",
    "tf.contrib.specs.Fr",
    "tf.contrib.specs.Fs",
    "tf.contrib.specs.Ft",
    "tf.contrib.specs.Fx",
    "tf.contrib.specs.Id",
    "tf.contrib.specs.Idx",
    "tf.contrib.specs.LocalImport",
    "tf.contrib.specs.Lrn",
    "tf.contrib.specs.Mp",
    "tf.contrib.specs.Print",
    "tf.contrib.specs.Relu",
    "tf.contrib.specs.Reshape",
    "tf.contrib.specs.Shared",
    "tf.contrib.specs.Sig",
    "tf.contrib.specs.Smax",
    "tf.contrib.specs.Squeeze",
    "tf.contrib.specs.Tanh",
    "tf.contrib.specs.Transpose",
    "tf.contrib.specs.Unit",
    "tf.contrib.specs.Var",
    "tf.contrib.specs.create_net",
    "tf.contrib.specs.create_net_fun",
    "tf.contrib.specs.eval_spec",
    "tf.contrib.specs.exec_",
    "tf.contrib.specs.layers",
    "tf.contrib.specs.specs",
    "tf.contrib.specs.layers.conv2d",
    "tf.contrib.specs.specs.ops",
    "tf.contrib.specs.specs.create_net",
    "tf.contrib.specs.specs_ops.Shared",
)

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
report("leaked_layers", [sp.layers.conv2d is tf.contrib.layers.conv2d, sp.layers.fully_connected is sp.Fx.f,
                         isinstance(sp.specs.ops, sp.LocalImport)])
namespace = {}
sp.exec_("z = 40 + 2", namespace)
report("exec_", namespace["z"])
report_errors("errors", [
    ("keyword_def", lambda: sp.eval_spec("def g(x): return x")),
    ("no_net", lambda: sp.create_net("x = Cr(3, 3)", images)),
    ("undefined", lambda: sp.eval_spec("net = Nope(3)")),
    ("shared_name", lambda: sp.Shared(sp.Idx(), name="s")),
    ("shared_scope", lambda: sp.Shared(sp.Idx(), scope="s")),
])
with tf.Session() as sess:
    init_from_numpy(sess, seed=3)
    report("outputs", sess.run(nets))
'''


@requires_tf115
def test_specs_specs_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
