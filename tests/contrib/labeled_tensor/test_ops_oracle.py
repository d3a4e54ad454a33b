"""tf.contrib.labeled_tensor's other ops (TF 1.15's labeled_tensor/python/ops/ops.py) against TF 1.15: select / concat /
pack / unpack / reshape / rename_axis / squeeze / matmul / tile / pad / constant / the *_like ops / cast /
verify_tensor_all_finite / boolean_mask / where, the eight reductions (dropping and keeping axes), define_reduce_op,
map_fn / foldl, random_crop (a block of the input), batch and shuffle_batch (queue runners): op names, dtypes, axes,
values and the errors of bad calls.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.labeled_tensor." + name for name in """
    batch boolean_mask cast concat constant define_reduce_op foldl map_fn matmul ones_like pack pad random_crop
    reduce_all reduce_any reduce_logsumexp reduce_max reduce_mean reduce_min reduce_prod reduce_sum rename_axis reshape
    select shuffle_batch squeeze tile unpack verify_tensor_all_finite where zeros_like""".split())

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


ax = lt.Axis("row", ["r0", "r1", "r2"])
axes = lt.Axes([("batch", 2), ax, lt.as_axis(("col", 4))])
values = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 0.04 + 0.02)
x = lt.LabeledTensor(tf.constant(values), axes)
y = lt.LabeledTensor(tf.constant(values[0] + 1.0), [ax, "col"])
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
spread = lt.define_reduce_op("spread", lambda t, axes, keepdims: tf.reduce_max(t, axes, keepdims=keepdims) -
                             tf.reduce_min(t, axes, keepdims=keepdims))
keep("define_reduce", spread(x, "col"))
report("defined_names", [spread.__name__])
# functional ops
keep("map_fn", lt.map_fn(lambda t: lt.reduce_sum(t, "col"), x))
keep("map_fn_string", lt.map_fn(lambda t: lt.identity(t), lt.constant(["a", "b"], axes=["s"])))
keep("foldl", lt.foldl(lambda acc, t: acc + lt.reduce_sum(t, "row"), x,
                       lt.LabeledTensor(tf.zeros([4]), [axes["col"]])))
tf.set_random_seed(7)
cropped = keep("random_crop", lt.random_crop(x, {"row": 2, "col": 3}, seed=3))
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
    out = sess.run(T)
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


@requires_tf115
def test_labeled_tensor_ops_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
