"""contrib.specs' summaries (TF 1.15's specs/python/summaries.py) against TF 1.15: tf_structure, tf_num_params,
tf_parameter_iter, tf_left_split, tf_parameter_summary, tf_print and the tf_spec_* functions on networks built from
specs, and the SHORT_NAMES tables.
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
    "tf.contrib.specs.KEYWORDS",
    "tf.contrib.specs.Lrn",
    "tf.contrib.specs.Mp",
    "tf.contrib.specs.Print",
    "tf.contrib.specs.QUOTED",
    "tf.contrib.specs.Relu",
    "tf.contrib.specs.Reshape",
    "tf.contrib.specs.SHORT_NAMES",
    "tf.contrib.specs.SHORT_NAMES_SRC",
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
    "tf.contrib.specs.tf_left_split",
    "tf.contrib.specs.tf_num_params",
    "tf.contrib.specs.tf_parameter_iter",
    "tf.contrib.specs.tf_parameter_summary",
    "tf.contrib.specs.tf_print",
    "tf.contrib.specs.tf_spec_print",
    "tf.contrib.specs.tf_spec_structure",
    "tf.contrib.specs.tf_spec_summary",
    "tf.contrib.specs.tf_structure",
    "tf.contrib.specs.specs",
    "tf.contrib.specs.summaries",
    "tf.contrib.specs.specs.ops",
    "tf.contrib.specs.specs.create_net",
    "tf.contrib.specs.specs_ops.Shared",
    "tf.contrib.specs.summaries.tf_structure",
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
'''


@requires_tf115
def test_specs_summaries_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5, differences={
      # tf_num_params counts the variables the output is computed from. TensorFlow 2.21's fused batch norm (the
      # layer under tf-slim's batch_norm) reads the moving mean and variance in training mode too (TF 1.15 fed
      # empty constants there), so they count: 87 + 2 * 3 channels. The outputs and variables are TF 1.15's.
      "num_params_bn": "TensorFlow 2.21's training-mode FusedBatchNormV3 takes the moving statistics as inputs",
  })
