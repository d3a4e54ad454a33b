"""tf.contrib.labeled_tensor's core (TF 1.15's labeled_tensor/python/ops/core.py) against TF 1.15: the Axis / Axes /
LabeledTensor objects (reprs, equality, labels), each result's op name, dtype, axes and value for the 25 unary and
22 binary elementwise ops (broadcast by `align`), the operators, align and the axis-order scope, identity /
transpose / expand_dims / slice / indexing, define_unary_op / define_binary_op, and the errors of bad calls
(tc.Error, ValueError, KeyError, AxisOrderError).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.labeled_tensor." + name for name in """
    Axes Axis AxisOrderError LabeledTensor abs acos add align as_axis asin atan axis_order_scope ceil
    check_axis_order convert_to_labeled_tensor cos define_binary_op define_unary_op digamma div equal erf erfc exp
    expand_dims floor greater greater_equal identity igamma igammac impose_axis_order less less_equal lgamma log
    logical_and logical_not logical_or logical_xor maximum minimum mod mul neg not_equal polygamma pow reciprocal round
    rsqrt sigmoid sign sin slice sqrt square squared_difference sub tan tanh transpose zeta""".split())

SNIPPET = r'''
import numpy as np
import tensorflow as tf
lt = tf.contrib.labeled_tensor
T = {}  # key -> tensor, fetched with one sess.run
D = {}  # key -> [name, dtype, axes] of each LabeledTensor built


def keep(key, t):
    T[key] = t.tensor
    D[key] = [t.name, t.dtype.name, [[a.name, a.size, None if a.labels is None else list(a.labels)]
                                     for a in t.axes.values()]]
    return t


def err(fn):
    try:
        fn()
        return "no error"
    except Exception as e:  # pylint: disable=broad-except
        return type(e).__name__


# Axis / Axes / LabeledTensor
ax = lt.Axis("row", ["r0", "r1", "r2"])
axes = lt.Axes([("batch", 2), ax, lt.as_axis(("col", 4))])
report("axis", [repr(ax), repr(lt.Axis("n", 3)), repr(lt.Axis("u", None)), ax.index("r1"), len(ax), ax.size,
                list(ax.labels), ax == lt.Axis("row", ("r0", "r1", "r2")), ax != lt.Axis("row", 3),
                lt.Axis("e", 0).labels == ()])
report("axes", [repr(axes), list(axes.keys()), len(axes), "col" in axes, repr(axes.remove("row")),
                axes == lt.Axes([("batch", 2), ax, ("col", 4)])])
values = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 0.04 + 0.02)
x = lt.LabeledTensor(tf.constant(values), axes)
y = lt.LabeledTensor(tf.constant(values[0] + 1.0), [ax, "col"])
report("lt", [repr(x), x.name, x.dtype.name, x.shape.as_list(), x.get_shape().as_list(), x == x, x != y,
              lt.convert_to_labeled_tensor(3.0).axes == lt.Axes([])])
report_errors("core_errors", [
    ("duplicate_labels", lambda: lt.Axis("a", ["p", "p"])),
    ("axis_name_type", lambda: lt.Axis(1, 2)),
    ("axis_value_type", lambda: lt.Axis("a", 2.5)),
    ("duplicate_axes", lambda: lt.Axes([("a", 1), ("a", 2)])),
    ("axes_not_list", lambda: lt.Axes((("a", 1),))),
    ("rank", lambda: lt.LabeledTensor(tf.zeros([2, 3]), ["a"])),
    ("size", lambda: lt.LabeledTensor(tf.zeros([2, 3]), ["a", ("b", 4)])),
    ("not_tensor", lambda: lt.LabeledTensor(np.zeros([2]), ["a"])),
    ("convert_rank", lambda: lt.convert_to_labeled_tensor(tf.zeros([2]))),
    ("unknown_len", lambda: len(lt.Axis("u", None))),
    ("no_labels_index", lambda: lt.Axis("n", 3).index(0)),
    ("remove_missing", lambda: axes.remove("nope")),
    ("add_list", lambda: lt.add(x, [1.0, 2.0])),
    ("getitem_rank", lambda: x[0]),
])
# elementwise unary ops (values in (0, 1))
for name in ("abs neg sign reciprocal square round sqrt rsqrt exp log ceil floor cos sin tan acos asin atan lgamma "
             "digamma erf erfc tanh sigmoid").split():
    keep("unary_" + name, getattr(lt, name)(x))
keep("logical_not", lt.logical_not(x > 0.5))
# binary ops broadcasting x (batch, row, col) with y (row, col)
for name in ("add sub mul div mod pow maximum minimum squared_difference igamma igammac equal greater greater_equal "
             "not_equal less less_equal").split():
    keep("binary_" + name, getattr(lt, name)(x, y))
keep("zeta", lt.zeta(y + 1.0, x))
orders = lt.constant([0.0, 1.0, 2.0, 1.0], axes=[("col", 4)])
keep("polygamma", lt.polygamma(orders, y))
gt, lt5 = x > 0.3, x < 0.7
for name in ("logical_and", "logical_or", "logical_xor"):
    keep(name, getattr(lt, name)(gt, lt5))
keep("operators", ((-x + 1.0) * 2.0 - y / 3.0) % 0.7 + abs(x) ** 2.0 + 2.0 ** x + 1.0 / y + 3.0 - x + 2.0 * x)
keep("bool_operators", lt.cast((~(x >= 0.5) & (x <= 0.8)) | (x > 0.9) ^ (y < 1.1), tf.float32))
report("int_scalar", err(lambda: lt.add(x, 1)))
# align / axis order
z = lt.LabeledTensor(tf.ones([5, 4]), ["z", "col"])
a0, a1, broadcast = lt.align(x, z)
keep("align_0", a0)
keep("align_1", a1)
report("align_axes", repr(broadcast))
with lt.axis_order_scope(["z", "batch", "row", "col"]) as order:
    report("scope_order", order)
    keep("scoped_add", x + z)
    keep("imposed", lt.impose_axis_order(lt.transpose(x), name="imposed"))
    report("check_in_scope", err(lambda: lt.check_axis_order(x)))
    report("check_reversed", err(lambda: lt.check_axis_order(lt.transpose(x))))
try:
    lt.expand_dims(x, ["col", "batch", "row"])
except lt.AxisOrderError as e:
    report("axis_order_error", [type(e).__name__, issubclass(lt.AxisOrderError, ValueError)])
keep("imposed_explicit", lt.impose_axis_order(x, ["col", "row", "batch"]))
report_errors("order_errors", [
    ("check_without_scope", lambda: lt.check_axis_order(x)),
    ("impose_without_scope", lambda: lt.impose_axis_order(x)),
    ("check_missing", lambda: lt.check_axis_order(x, ["batch", "row"])),
    ("align_inconsistent", lambda: lt.align(x, lt.transpose(y))),
    ("align_mismatched", lambda: lt.align(x, lt.LabeledTensor(tf.ones([3]), [("row", ["a", "b", "c"])]))),
    ("transpose_bad", lambda: lt.transpose(x, ["batch", "row"])),
    ("expand_order", lambda: lt.expand_dims(x, ["row", "batch", "col"])),
    ("reshape_not_slice", lambda: lt.reshape(x, ["batch", "col"], ["bc"])),
])
# structure ops
keep("identity", lt.identity(x))
keep("transpose", lt.transpose(x))
keep("transpose_order", lt.transpose(x, ["row", "batch", "col"], name="tr"))
keep("expand_dims", lt.expand_dims(y, ["new", "row", ("lab", "only"), "col"]))
keep("slice", lt.slice(x, {"row": slice(1, 3), "batch": 0}))
keep("getitem", x[1, :, 2])
# user-defined ops
cube = lt.define_unary_op("cube", lambda t, name=None: tf.pow(t, 3.0, name=name))
hyp = lt.define_binary_op("hyp", lambda a, b, name=None: tf.sqrt(a * a + b * b, name=name))
keep("define_unary", cube(x))
keep("define_binary", hyp(x, y))
report("defined_names", [cube.__name__, hyp.__name__])
report("described", D)
with tf.Session() as sess:
    out = sess.run(T)
for key in sorted(out):
    report("value_" + key, out[key])
'''


@requires_tf115
def test_labeled_tensor_core_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
