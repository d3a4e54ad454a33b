"""contrib.specs' library (TF 1.15's specs/python/specs_lib.py) against TF 1.15: get_positional, Function's currying,
the composition operators, Import / External, the classes, debug, check_keywords and their errors.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.specs.Callable",
    "tf.contrib.specs.Composable",
    "tf.contrib.specs.Composition",
    "tf.contrib.specs.Cr",
    "tf.contrib.specs.External",
    "tf.contrib.specs.Fun",
    "tf.contrib.specs.Function",
    "tf.contrib.specs.Id",
    "tf.contrib.specs.Idx",
    "tf.contrib.specs.Import",
    "tf.contrib.specs.Li",
    "tf.contrib.specs.Operator",
    "tf.contrib.specs.Shared",
    "tf.contrib.specs.check_keywords",
    "tf.contrib.specs.create_net",
    "tf.contrib.specs.debug",
    "tf.contrib.specs.debug_",
    "tf.contrib.specs.get_positional",
    "tf.contrib.specs.tf_structure",
    "tf.contrib.specs.params_ops",
    "tf.contrib.specs.specs",
    "tf.contrib.specs.specs_lib",
    "tf.contrib.specs.specs_ops",
    "tf.contrib.specs.summaries",
    "tf.contrib.specs.specs.create_net",
    "tf.contrib.specs.specs_lib.Function",
    "tf.contrib.specs.specs_ops.Shared",
    "tf.contrib.specs.params_ops.Li",
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
sp.debug()
report("debug", [sp.specs_lib.debug_, sp.debug_, len(captured(sp.Id.funcall, vec))])
sp.debug(False)
report_errors("errors", [
    ("keyword_import", lambda: sp.check_keywords("import os")),
    ("keyword_quoted", lambda: sp.check_keywords("x = 'import while'")),
    ("not_callable", lambda: sp.Function(3)),
    ("import_no_f", lambda: sp.Import("g = 1")),
    ("external_missing", lambda: sp.External("operator", "no_such_function")),
    ("negative_power", lambda: sp.Idx() ** -1),
])
'''


@requires_tf115
def test_specs_specs_lib_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
