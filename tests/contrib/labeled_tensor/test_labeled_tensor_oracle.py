"""tf.contrib.labeled_tensor against TF 1.15: every name of the package in one graph.

Compared: the Axis / Axes / LabeledTensor objects (reprs, equality, labels), each result's op name, dtype and axes
(names, sizes, tick labels) and its value, for the 25 unary and 22 binary elementwise ops (broadcast by `align`),
the operators, align and the axis-order scope, transpose / expand_dims / slice / select / concat / pack / unpack /
reshape / rename_axis / squeeze / matmul / tile / pad / constant / the *_like ops / cast / boolean_mask / where,
the eight reductions (dropping and keeping axes), define_{unary,binary,reduce}_op, map_fn / foldl, random_crop (a
block of the input), placeholder, parse_example / parse_single_example, ReshapeCoder, labeled_tensor.nn, batch and
shuffle_batch (queue runners); and the exception classes of ~60 bad calls (tc.Error, ValueError, KeyError,
AxisOrderError, NotImplementedError).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.labeled_tensor." + name for name in """
    Axes Axis AxisOrderError FixedLenFeature LabeledTensor ReshapeCoder abs acos add align as_axis asin atan
    axis_order_scope batch boolean_mask cast ceil check_axis_order concat constant convert_to_labeled_tensor cos
    define_binary_op define_reduce_op define_unary_op digamma div equal erf erfc exp expand_dims floor foldl
    greater greater_equal identity igamma igammac impose_axis_order less less_equal lgamma log logical_and
    logical_not logical_or logical_xor map_fn matmul maximum minimum mod mul neg nn not_equal ones_like pack pad
    parse_example parse_single_example placeholder polygamma pow random_crop reciprocal reduce_all reduce_any
    reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod reduce_sum rename_axis reshape round rsqrt
    select shuffle_batch sigmoid sign sin slice sqrt square squared_difference squeeze sub tan tanh tile
    transpose unpack verify_tensor_all_finite where zeros_like zeta""".split())

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
keep("select_scalar", lt.select(x, {"row": "r1"}))
keep("select_slice", lt.select(x, {"row": slice("r1", None)}))
keep("select_list", lt.select(x, {"row": ["r2", "r0"]}))
report_errors("select_errors", [
    ("missing_label", lambda: lt.select(x, {"row": "r9"})),
    ("no_labels", lambda: lt.select(x, {"col": 1})),
    ("no_axis", lambda: lt.select(x, {"nope": 1})),
    ("step", lambda: lt.select(x, {"row": slice("r0", "r2", 2)})),
    ("list_and_scalar", lambda: lt.select(lt.LabeledTensor(tf.ones([2, 2]), [("p", [1, 2]), ("q", [3, 4])]),
                                          {"p": [1], "q": 3})),
])
keep("concat", lt.concat([x, lt.LabeledTensor(tf.ones([2, 2, 4]), ["batch", ("row", ["r3", "r4"]), "col"])], "row"))
keep("concat_unlabeled", lt.concat([x, x], "col"))
keep("pack", lt.pack([y, y * 2.0], ("pair", ["one", "two"]), axis_position=1))
unpacked = lt.unpack(x, "row")
report("unpack_len", len(unpacked))
keep("unpack_1", unpacked[1])
keep("unpack_default", lt.unpack(x)[0])
keep("reshape", lt.reshape(x, ["row", "col"], [("rc", 12)]))
keep("reshape_unknown", lt.reshape(x, ["batch", "row"], ["br"]))
keep("rename_axis", lt.rename_axis(x, "row", "line"))
keep("squeeze", lt.squeeze(lt.expand_dims(y, ["one", "row", "col"])))
keep("squeeze_named", lt.squeeze(lt.expand_dims(y, ["one", "row", "col"]), ["one"]))
m = lt.LabeledTensor(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ["i", "k"])
n = lt.LabeledTensor(tf.constant([[1.0, 0.5], [2.0, 1.0], [0.0, 3.0]]), ["k", "j"])
v = lt.LabeledTensor(tf.constant([1.0, -1.0, 2.0]), ["k"])
keep("matmul", lt.matmul(m, n))
keep("matmul_transposed", lt.matmul(n, m))
keep("matvec", lt.matmul(m, v))
keep("dot", lt.matmul(v, v))
with lt.axis_order_scope(["j", "i"]):
    keep("matmul_scope", lt.matmul(m, n))
keep("tile", lt.tile(x, {"batch": 2, "col": 2}))
keep("pad", lt.pad(y, {"row": (["before"], ["after1", "after2"]), "col": (1, 0)}))
keep("pad_reflect", lt.pad(y, {"col": (1, 1)}, mode="REFLECT"))
keep("constant", lt.constant(np.ones([2, 3], np.float32), axes=["a", ("b", ["p", "q", "r"])]))
keep("constant_filled", lt.constant(7, dtype=tf.int32, axes=[("a", 2), ("b", 3)]))
keep("zeros_like", lt.zeros_like(x))
keep("ones_like", lt.ones_like(x, dtype=tf.int32))
keep("cast", lt.cast(x * 10.0, tf.int64))
keep("verify", lt.verify_tensor_all_finite(x, "not finite"))
mask = lt.LabeledTensor(tf.constant([True, False]), [axes["batch"]])
keep("boolean_mask", lt.boolean_mask(x, mask))
keep("where", lt.where(x > 0.5, x, lt.zeros_like(x)))
for name in ("reduce_sum reduce_mean reduce_max reduce_min reduce_prod reduce_logsumexp").split():
    keep(name, getattr(lt, name)(x, "row"))
keep("reduce_all", lt.reduce_all(x > 0.01, ["batch", "col"]))
keep("reduce_any", lt.reduce_any(x > 0.9))
keep("reduce_keep", lt.reduce_sum(x, [("row", "total"), "col"]))
keep("reduce_keep_none", lt.reduce_max(x, ("batch", None)))
report_errors("ops_errors", [
    ("concat_axis", lambda: lt.concat([x, x], "nope")),
    ("concat_mismatch", lambda: lt.concat([x, lt.transpose(x)], "row")),
    ("concat_empty", lambda: lt.concat([], "row")),
    ("pack_mismatch", lambda: lt.pack([x, y], "p")),
    ("unpack_axis", lambda: lt.unpack(x, "nope")),
    ("reshape_axes", lambda: lt.reshape(x, ["nope"], ["a"])),
    ("reshape_two_unknown", lambda: lt.reshape(x, ["row", "col"], ["a", "b"])),
    ("rename_missing", lambda: lt.rename_axis(x, "nope", "new")),
    ("squeeze_big", lambda: lt.squeeze(x, ["row"])),
    ("squeeze_missing", lambda: lt.squeeze(x, ["nope"])),
    ("matmul_rank3", lambda: lt.matmul(x, y)),
    ("matmul_no_shared", lambda: lt.matmul(m, lt.LabeledTensor(tf.ones([2]), ["q"]))),
    ("matmul_two_shared", lambda: lt.matmul(m, lt.transpose(m))),
    ("matmul_scalar", lambda: lt.matmul(lt.constant(1.0), m)),
    ("tile_labeled", lambda: lt.tile(x, {"row": 2})),
    ("tile_missing", lambda: lt.tile(x, {"nope": 2})),
    ("pad_missing", lambda: lt.pad(x, {"nope": (1, 1)})),
    ("boolean_mask_2d", lambda: lt.boolean_mask(x, x > 0.5)),
    ("boolean_mask_axis", lambda: lt.boolean_mask(x, lt.LabeledTensor(tf.constant([True]), ["batch"]))),
    ("where_axes", lambda: lt.where(x > 0.5, x, lt.transpose(x))),
    ("reduce_missing", lambda: lt.reduce_sum(x, "nope")),
    ("random_crop_missing", lambda: lt.random_crop(x, {"nope": 1})),
    ("cast_type", lambda: lt.cast(x, "float32")),
])
# user-defined ops
cube = lt.define_unary_op("cube", lambda t, name=None: tf.pow(t, 3.0, name=name))
hyp = lt.define_binary_op("hyp", lambda a, b, name=None: tf.sqrt(a * a + b * b, name=name))
spread = lt.define_reduce_op("spread", lambda t, axes, keepdims: tf.reduce_max(t, axes, keepdims=keepdims) -
                             tf.reduce_min(t, axes, keepdims=keepdims))
keep("define_unary", cube(x))
keep("define_binary", hyp(x, y))
keep("define_reduce", spread(x, "col"))
report("defined_names", [cube.__name__, hyp.__name__, spread.__name__])
# functional ops
keep("map_fn", lt.map_fn(lambda t: lt.reduce_sum(t, "col"), x))
keep("map_fn_string", lt.map_fn(lambda t: lt.identity(t), lt.constant(["a", "b"], axes=["s"])))
keep("foldl", lt.foldl(lambda acc, t: acc + lt.reduce_sum(t, "row"), x,
                       lt.LabeledTensor(tf.zeros([4]), [axes["col"]])))
tf.set_random_seed(7)
cropped = keep("random_crop", lt.random_crop(x, {"row": 2, "col": 3}, seed=3))
# input
ph = lt.placeholder(tf.float32, ["batch", ("chan", ["r", "g", "b"])], name="ph")
keep("placeholder_sum", lt.reduce_sum(ph, "chan"))
report("placeholder", [ph.name, ph.shape.as_list(), repr(ph.axes)])


def example(i):
    return tf.train.Example(features=tf.train.Features(feature={
        "v": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i + 0.5, i + 1.0])),
        "k": tf.train.Feature(int64_list=tf.train.Int64List(value=[i * 10]))})).SerializeToString()


features = {"v": lt.FixedLenFeature([("dim", ["a", "b", "c"])], tf.float32),
            "k": lt.FixedLenFeature([("one", 1)], tf.int64, default_value=[0])}
report("fixed_len", [repr(features["v"].axes), features["v"].dtype.name, features["k"].default_value])
serialized = lt.constant([example(1), example(2)], axes=["batch"])
parsed = lt.parse_example(serialized, features)
keep("parse_v", parsed["v"])
keep("parse_k", parsed["k"])
single = lt.parse_single_example(lt.constant(example(3)), features)
keep("single_v", single["v"])
report("parse_op_names", [D[k].pop(0) for k in ("parse_v", "parse_k", "single_v")])
report_errors("io_errors", [
    ("unknown_size", lambda: lt.parse_example(serialized, {"v": lt.FixedLenFeature(["dim"], tf.float32)})),
    ("features_type", lambda: lt.parse_example(serialized, {"v": tf.FixedLenFeature([3], tf.float32)})),
    ("placeholder_dtype", lambda: lt.placeholder("float32", ["a"])),
])
# sugar
coder = lt.ReshapeCoder(["row", "col"], ["depth"])
encoded = keep("encoded", coder.encode(x))
keep("decoded", coder.decode(lt.square(encoded)))
report_errors("coder_errors", [
    ("decode_first", lambda: lt.ReshapeCoder(["row"], ["r"]).decode(x)),
    ("encode_other_axes", lambda: coder.encode(lt.LabeledTensor(tf.ones([1, 2, 4]), ["batch", "row", "col"]))),
])
# nn
keep("nn_relu", lt.nn.relu(x - 0.5))
keep("nn_softmax", lt.nn.softmax(y))
keep("nn_log_softmax", lt.nn.log_softmax(y))
keep("nn_sigmoid_xent", lt.nn.sigmoid_cross_entropy_with_logits(x, lt.round(x)))
report("nn_l2_loss", err(lambda: lt.nn.l2_loss(x)))  # TF 1.15 labels a scalar with x's axes
# batching (queue-based, as in TF 1.15)
batched = lt.batch([lt.LabeledTensor(tf.constant(values), axes)], batch_size=4, enqueue_many=True)
keep("batch", batched[0])
shuffled = lt.shuffle_batch([y], batch_size=3, capacity=8, min_after_dequeue=2, seed=1, allow_smaller_final_batch=True)
D["shuffle_batch"] = [shuffled[0].name, [[a.name, a.size] for a in shuffled[0].axes.values()]]
report_errors("batch_errors", [
    ("enqueue_many_no_batch", lambda: lt.batch([y], 2, enqueue_many=True)),
])
report("described", D)
with tf.Session() as sess:
    coord = tf.train.Coordinator()
    threads = tf.train.start_queue_runners(sess, coord=coord)
    out = sess.run(T, feed_dict={ph.tensor: np.arange(6, dtype=np.float32).reshape(2, 3)})
    coord.request_stop()
    sess.run(lt.verify_tensor_all_finite(lt.constant(1.0), "fine").tensor)
    report("verify_nan", err(lambda: sess.run(lt.verify_tensor_all_finite(lt.constant(float("nan")), "bad").tensor)))
    coord.join(threads)
crop = out.pop("random_crop")
report("random_crop_is_block", any(np.array_equal(crop, values[:, r:r + 2, c:c + 3])
                                   for r in range(2) for c in range(2)))
for key in sorted(out):
    report("value_" + key, out[key])
'''

# TensorFlow 2.21 parses with its ParseExampleV2 op (parse_single_example through parse_example), TF 1.15 with
# ParseExample / ParseSingleExample: the parsed tensors' op names differ; their values and axes are compared.
DIFFERENCES = {"parse_op_names": "TensorFlow 2.21's parsing ops are ParseExampleV2 (TF 1.15: ParseExample, "
                                 "ParseSingleExample), so the parsed tensors' op names differ"}


@requires_tf115
def test_labeled_tensor_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6, differences=DIFFERENCES)
