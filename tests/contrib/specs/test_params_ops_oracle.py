"""contrib.specs' params_ops (TF 1.15's specs/python/params_ops.py) against TF 1.15: its leaked Python math functions
and specs.layers.pool, and the params DSL (eval_params, the random draws Uf / Ui / Lf / Li / Nt, math in params).

TF 1.15's specs module star-imported Python's `math` (its params DSL evaluates "sqrt(16) + floor(2.5)"), so
`tf.contrib.specs.acos` ... `trunc` were public names: compared here by value on ordinary and edge inputs
(infinities, NaN, signed zero, exact float sums, integer results) and by the errors of bad domains.
`specs.layers.pool` (tf-slim's pool, one object with slim.pool / slim.layers.pool on both sides): max and
average pooling, VALID and SAME padding, strides, dilation, 1-D; op names, shapes, values and the errors.
"""

from harness import assert_same, requires_tf115, run_both

_MATH = """
    acos acosh asin asinh atan atan2 atanh ceil copysign cos cosh degrees erf erfc exp expm1 fabs floor fmod
    frexp fsum gamma hypot isfinite isinf isnan ldexp lgamma log10 log1p log2 modf pow radians remainder sinh
    sqrt tan tanh trunc"""
ORACLE_TESTED = tuple("tf.contrib.specs." + n for n in _MATH.split()) + ("tf.contrib.specs.layers.pool",) + (
    "tf.contrib.specs.Lf",
    "tf.contrib.specs.Li",
    "tf.contrib.specs.Nt",
    "tf.contrib.specs.Uf",
    "tf.contrib.specs.Ui",
    "tf.contrib.specs.eval_params",
    "tf.contrib.specs.e",
    "tf.contrib.specs.gcd",
    "tf.contrib.specs.inf",
    "tf.contrib.specs.isclose",
    "tf.contrib.specs.log",
    "tf.contrib.specs.nan",
    "tf.contrib.specs.pi",
    "tf.contrib.specs.sin",
    "tf.contrib.specs.tau",
    "tf.contrib.specs.factorial",
    "tf.contrib.specs.specs",
    "tf.contrib.specs.params_ops.Li",
)

SNIPPET = r'''
import tensorflow as tf
import numpy as np
sp = tf.contrib.specs
vals = [-0.75, 0.0, 0.5, 2.0]
one = {}
for name in ("acos", "asin", "atanh"):
    one[name] = [getattr(sp, name)(v) for v in (-0.5, 0.0, 0.25)]
for name in ("acosh",):
    one[name] = [sp.acosh(v) for v in (1.0, 2.5)]
for name in ("asinh", "atan", "ceil", "cos", "cosh", "degrees", "erf", "erfc", "exp", "expm1", "fabs", "floor",
             "radians", "sinh", "tan", "tanh", "trunc", "frexp", "modf", "isfinite", "isinf", "isnan"):
    one[name] = [getattr(sp, name)(v) for v in vals]
for name in ("gamma", "lgamma", "log10", "log1p", "log2", "sqrt"):
    one[name] = [getattr(sp, name)(v) for v in (0.5, 2.0, 7.25)]
report("unary", one)
report("special", [sp.isinf(float("inf")), sp.isnan(float("nan")), sp.isfinite(float("-inf")),
                   sp.ceil(2.5), type(sp.ceil(2.5)).__name__, type(sp.trunc(-2.5)).__name__,
                   sp.floor(-0.5), sp.frexp(0.0), sp.modf(-3.25)])
report("binary", [sp.atan2(1.0, -2.0), sp.copysign(3.0, -0.0), sp.fmod(-7.5, 2.0), sp.hypot(3.0, 4.0),
                  sp.ldexp(0.75, 3), sp.pow(2.0, 0.5), sp.pow(-8.0, 3), sp.remainder(7.5, 2.0),
                  sp.remainder(-7.0, 4.0)])
report("fsum", [sp.fsum([0.1] * 10), sp.fsum([1e100, 1.0, -1e100]), sp.fsum(range(5))])
report_errors("math_errors", [("acos_domain", lambda: sp.acos(2.0)), ("sqrt_neg", lambda: sp.sqrt(-1.0)),
                              ("log2_zero", lambda: sp.log2(0.0)), ("exp_big", lambda: sp.exp(1000.0)),
                              ("gamma_pole", lambda: sp.gamma(0.0)), ("ldexp_float", lambda: sp.ldexp(1.0, 2.5)),
                              ("fsum_str", lambda: sp.fsum(["a"])), ("remainder_zero", lambda: sp.remainder(1.0, 0.0))])
# specs.layers.pool (tf-slim's pool, the same object as slim.pool)
x = tf.constant(np.arange(2 * 6 * 6 * 2, dtype=np.float32).reshape(2, 6, 6, 2) % 7)
pools = {
    "max_valid": sp.layers.pool(x, [2, 2], "MAX"),
    "avg_same_stride": sp.layers.pool(x, [3, 3], "AVG", padding="SAME", stride=[2, 2]),
    "max_dilated": sp.layers.pool(x, [2, 2], "MAX", dilation_rate=[2, 2]),
    "avg_1d": sp.layers.pool(tf.reshape(x, [2, 36, 2]), [4], "AVG", stride=[3], scope="pool1d"),
}
report("pool_names", sorted(t.op.name for t in pools.values()))
report("pool_shapes", {k: v.shape.as_list() for k, v in pools.items()})
report_errors("pool_errors", [("bad_type", lambda: sp.layers.pool(x, [2, 2], "MIN")),
                              ("rank", lambda: sp.layers.pool(x, [2], "MAX")),
                              ("both", lambda: sp.layers.pool(x, [2, 2], "MAX", dilation_rate=[2, 2], stride=[2, 2]))])
with tf.Session() as sess:
    report("pools", sess.run(pools))
'''


@requires_tf115
def test_specs_math_and_pool_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["math_errors"]["exp_big"] == "OverflowError" and tf115["fsum"][1] == 1.0
  assert_same(tf115, ours, rtol=1e-12, atol=1e-12)


PARAMS_DSL = r'''
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
# the params DSL: random draws (Python's random), math, bindings
random.seed(7)
report("params", sp.eval_params("n = Li(5, 500); d = Ui(1, 5); f = Uf(); g = Lf(1, 10); h = Nt(0, 1, 0.5); "
                                "m = sqrt(16) + floor(2.5) + log(8, 2); k = q * 2", {"q": 21}))
report("params_direct", [sp.Uf(), sp.Ui(1, 9), sp.Lf(2, 3), sp.Li(1, 4), sp.Nt(1.0, 2.0)])
report("math", [sp.sin(0.5), sp.pi, sp.e, sp.tau, sp.inf, str(sp.nan), sp.gcd(12, 18), sp.isclose(1.0, 1.0 + 1e-12),
                sp.log(8, 2), sp.factorial(5)])
report_errors("errors", [
    ("keyword_params", lambda: sp.eval_params("while 1: pass")),
    ("bad_params", lambda: sp.eval_params("n = Ui(5, 1)")),
])
'''


@requires_tf115
def test_params_dsl_matches_tf115():
  tf115, ours = run_both(PARAMS_DSL)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
