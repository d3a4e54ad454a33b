"""tf.contrib.slim's remaining modules and contrib.layers' first feature-column input layer, against TF 1.15.

SNIPPET: the old feature columns (integerized / vocabulary-file / weighted sparse columns, one-hot, embedding and
shared embedding columns) through `input_from_feature_columns` (variable names, column order, `cols_to_outs`,
values after seeded weights), `embedding_lookup_unique`, `bucketize`, `rev_block` / `RevBlock` (outputs, the
reconstruction, gradients), `pool`, `slim.utils`, `model_analyzer`, `slim.summaries` (the summary protos),
`tfexample_decoder` on a serialized tf.train.Example (every handler), the `DataDecoder` / `DataProvider` /
`FusedRNNCell` bases, `cluster_loss` (scikit-learn is on neither side: the ImportError), `make_all`,
`arg_scope_func_key`, the constants, slim's variable helpers and `optimize_loss` under slim's and contrib.layers'
names (TF 1.15's one object: tf-slim's; three training steps and its errors).
DATA_AND_TRAINING: TFRecord files written in the snippet's folder, read back through `Dataset` /
`DatasetDataProvider`, `parallel_reader` (`get_data_files`, `parallel_read`, `single_pass_read`, `ParallelReader`),
`prefetch_queue` and `queues.QueueRunners`; `slim.learning`'s gradient helpers, `train_step` and a 3-step `train`
with a logdir; `slim.evaluation` (`evaluate_once`, `evaluation_loop`, `checkpoints_iterator`,
`wait_for_new_checkpoint`) on its checkpoint.
"""

from harness import assert_same, requires_tf115, run_both

_FC = ("embedding_column", "one_hot_column", "shared_embedding_columns", "sparse_column_with_integerized_feature",
       "sparse_column_with_vocabulary_file", "weighted_sparse_column")
_SLIM = (
    "InputLayer", "OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES", "RevBlock", "SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY",
    "adaptive_clipping_fn", "add_model_variable", "arg_scope_func_key", "bucketization_op.bucketize", "bucketize",
    "data_decoder.DataDecoder", "data_provider.DataProvider", "dataset.Dataset",
    "dataset_data_provider.DatasetDataProvider", "embedding_lookup_unique", "embedding_ops.embedding_lookup_unique",
    "evaluation.checkpoints_iterator", "evaluation.evaluate_once", "evaluation.evaluation_loop",
    "evaluation.wait_for_new_checkpoint", "feature_column_ops.input_from_feature_columns", "get_global_step",
    "get_local_variables", "get_variables_by_suffix", "input_from_feature_columns", "layers.pool",
    "learning.add_gradients_summaries", "learning.clip_gradient_norms", "learning.multiply_gradients",
    "learning.train", "learning.train_step", "losses.metric_learning.cluster_loss", "make_all",
    "model_analyzer.analyze_ops", "model_analyzer.analyze_vars", "model_analyzer.tensor_description",
    "optimize_loss", "optimizers.adaptive_clipping_fn", "optimizers.optimize_loss", "parallel_reader.ParallelReader",
    "parallel_reader.get_data_files", "parallel_reader.parallel_read", "parallel_reader.single_pass_read", "pool",
    "prefetch_queue.prefetch_queue", "queues.NestedQueueRunnerError", "queues.QueueRunners", "rev_block",
    "rev_block_lib.RevBlock", "rev_block_lib.rev_block") + tuple(
        "summaries." + n for n in ("add_histogram_summaries", "add_histogram_summary", "add_image_summaries",
                                   "add_image_summary", "add_scalar_summaries", "add_scalar_summary",
                                   "add_zero_fraction_summaries", "add_zero_fraction_summary")) + tuple(
        "tfexample_decoder." + n for n in ("BackupHandler", "BoundingBox", "Image", "ItemHandler",
                                           "ItemHandlerCallback", "LookupTensor", "SparseTensor",
                                           "TFExampleDecoder", "Tensor")) + tuple(
        "utils." + n for n in ("channel_dimension", "collect_named_outputs", "constant_value",
                               "get_variable_collections", "last_dimension", "n_positive_integers", "smart_cond",
                               "static_cond", "two_element_tuple")) + _FC + tuple(
        m + n for m in ("fc.", "feature_column.") for n in _FC)
ORACLE_TESTED = tuple("tf.contrib.slim." + n for n in _SLIM) + tuple(
    "tf.contrib.layers." + n for n in _FC + tuple("feature_column." + n for n in _FC)) + tuple(
    "tf.contrib.layers." + n for n in ("input_from_feature_columns", "embedding_lookup_unique", "rev_block",
                                       "RevBlock")) + tuple(
    "tf.contrib.grid_rnn.layers." + n for n in _FC + tuple("feature_column." + n for n in _FC) + (
        "input_from_feature_columns", "embedding_lookup_unique", "rev_block", "RevBlock")) + (
    "tf.contrib.grid_rnn.rnn.FusedRNNCell", "tf.contrib.losses.metric_learning.cluster_loss")

SNIPPET = r'''
import io
import os
import sys
import types
import numpy as np
import tensorflow as tf
L = tf.contrib.layers
slim = tf.contrib.slim
G = tf.contrib.grid_rnn.layers
fetch = {}
names = lambda vs: sorted(v.op.name for v in vs)

# ---- the first feature-column API, through input_from_feature_columns
vocab = os.path.join(os.getcwd(), "colors.txt")
with open(vocab, "w") as f:
    f.write("red\ngreen\nblue\n")
wid = L.sparse_column_with_integerized_feature("wid", 5, combiner="mean")
wid2 = slim.feature_column.sparse_column_with_integerized_feature("wid2", 5)
color = slim.sparse_column_with_vocabulary_file("color", vocab, num_oov_buckets=1, vocab_size=3)
weighted = G.weighted_sparse_column(wid, "wgt")
onehot = slim.fc.one_hot_column(color)
onehot_w = L.one_hot_column(wid2)
emb = L.embedding_column(weighted, 3, combiner="sqrtn")
emb2 = slim.feature_column.embedding_column(color, 2, combiner="sum", max_norm=0.5)
shared = G.feature_column.shared_embedding_columns([wid, wid2], 2, shared_embedding_name="shr")
shared2 = L.shared_embedding_columns([wid2, L.sparse_column_with_integerized_feature("wid3", 5)], 2, combiner="sum")
cols = [onehot, onehot_w, emb, emb2] + list(shared) + list(shared2)
report("columns", [[c.name, getattr(c, "dimension", None), getattr(c, "combiner", None)] for c in cols])
report("sparse_columns", [c.name for c in (wid, wid2, color, weighted)])
def features():
    return {"wid": tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0]], tf.constant([1, 3, 4, 0], tf.int64), [3, 2]),
            "wgt": tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 0]], tf.constant([0.5, 2., 1., 3.]), [3, 2]),
            "wid2": tf.SparseTensor([[0, 0], [1, 0], [1, 1]], tf.constant([2, 0, 3], tf.int64), [3, 2]),
            "wid3": tf.SparseTensor([[0, 0], [2, 0]], tf.constant([4, 1], tf.int64), [3, 1]),
            "color": tf.SparseTensor([[0, 0], [1, 0], [1, 1], [2, 0]], tf.constant(["blue", "red", "pink", "green"]),
                                     [3, 2])}
cols_to_outs = {}
with tf.variable_scope("outer"):
    net = slim.input_from_feature_columns(features(), cols, cols_to_outs=cols_to_outs)
net2 = G.input_from_feature_columns(features(), [onehot, emb2], scope="again")
# real-valued and bucketized columns, a one-hot weighted column, partitioned embeddings, weight collections
price = L.real_valued_column("price", dimension=2)
age_b = L.bucketized_column(L.real_valued_column("age"), [18., 30., 50.])
dense_feats = dict(features(), price=tf.constant([[1., 2.], [3., 4.], [5., 6.]]), age=tf.constant([[20.], [60.], [5.]]))
with tf.variable_scope("parted", partitioner=tf.fixed_size_partitioner(2)):
    net3 = L.input_from_feature_columns(dense_feats, [price, age_b, L.one_hot_column(weighted),
                                                      L.embedding_column(wid2, 4, combiner="sum")],
                                        weight_collections=["my_weights"])
report("parted", [net3.shape.as_list(), names(tf.get_collection("my_weights"))])
report("cols_to_outs", sorted([c.name, o.shape.as_list()] for c, o in cols_to_outs.items()))
fetch["ifc"] = [net, net2, net3]
report("ifc_shapes", [net.shape.as_list(), net2.shape.as_list()])
report_errors("embedding_dim_0", [("dim_0", lambda: L.embedding_column(wid, 0))])
report_errors("ifc_errors", [("sparse", lambda: L.input_from_feature_columns(features(), [wid])),
                             ("vocab_size_mismatch", lambda: L.sparse_column_with_vocabulary_file("c", vocab)),
                             ("int_bad_dtype",
                              lambda: L.sparse_column_with_integerized_feature("x", 3, dtype=tf.string)),
                             ("shared_not_list", lambda: L.shared_embedding_columns(wid, 2)),
                             ("weighted_bad_dtype", lambda: L.weighted_sparse_column(wid, "w", dtype=tf.string))])

# ---- embedding_lookup_unique, bucketize
params = tf.constant(np.arange(10, dtype=np.float32).reshape(5, 2))
ids = tf.constant([[0, 3, 3], [4, 0, 1]])
parts = [tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2)),
         tf.constant(np.arange(6, 10, dtype=np.float32).reshape(2, 2))]
fetch["unique"] = [L.embedding_lookup_unique(params, ids), slim.embedding_ops.embedding_lookup_unique(parts, ids),
                   G.embedding_lookup_unique(parts, tf.constant([4, 1, 4]), partition_strategy="div")]
fetch["bucketize"] = [slim.bucketize(tf.constant([[-1., 0.5, 3.], [1., 2., 0.]]), [0., 1., 2.]),
                      slim.bucketization_op.bucketize(tf.constant([5, -5, 10]), [0, 10])]
report("bucketize_dtype", fetch["bucketize"][0].dtype.name)
report_errors("bucketize_errors", [("not_list", lambda: slim.bucketize(tf.constant([1.]), 3.))])

# ---- rev_block / RevBlock
def f(x):
    return L.fully_connected(x, 2, activation_fn=tf.tanh, scope="fc")
def g(x):
    return L.fully_connected(x, 2, activation_fn=tf.nn.relu, scope="fc")
x1 = tf.constant(np.linspace(-1, 1, 6, dtype=np.float32).reshape(3, 2))
x2 = tf.constant(np.linspace(1, -0.5, 6, dtype=np.float32).reshape(3, 2))
with tf.variable_scope("rb"):
    y1, y2 = L.rev_block(x1, x2, f, g, num_layers=2)
block = slim.RevBlock(f, g, num_layers=1, name="blk")
z1, z2 = block.forward(x1, x2)
b1, b2 = block.backward(z1, z2)
block2 = slim.rev_block_lib.RevBlock(f, g, num_layers=1, use_efficient_backprop=False, name="plain")
p1, p2 = block2.forward(x1, x2)
with tf.variable_scope("rb_eval"):
    e1, e2 = G.rev_block(x1, x2, f, g, is_training=False)
rb_loss = tf.reduce_sum(y1 * y2) + tf.reduce_sum(z1 * 2 + z2) + tf.reduce_sum(p1 - p2)
rb_vars = [v for v in tf.trainable_variables() if v.op.name.split("/")[0] in ("rb", "blk", "plain")]
fetch["rev"] = [y1, y2, z1, z2, b1, b2, p1, p2, e1, e2]
fetch["rev_grads"] = tf.gradients(rb_loss, [x1, x2] + rb_vars)
report("rev_vars", names(rb_vars))
report("revblock_weights", [names(block.trainable_weights), block.num_layers])

# ---- pool
img = tf.constant(np.arange(2 * 5 * 5 * 2, dtype=np.float32).reshape(2, 5, 5, 2) % 7)
fetch["pool"] = [slim.pool(img, [2, 2], "AVG", stride=2), slim.layers.pool(img, [3, 3], "MAX", padding="SAME"),
                 slim.pool(img, [2, 2], "MAX", dilation_rate=2, scope="dil")]
report("pool_names", [t.op.name for t in fetch["pool"]])

# ---- utils
U = slim.utils
ph_bool = tf.placeholder(tf.bool, [])
out_t = tf.identity(x1, name="named_out")
U.collect_named_outputs("my_outputs", "first_alias", out_t)
report("utils", [U.channel_dimension(tf.TensorShape([2, 3, 4, 5]), "NCHW"),
                 U.channel_dimension(tf.TensorShape([2, 3, 4, 5]), "NHWC"),
                 U.last_dimension(tf.TensorShape([2, 7])),
                 U.n_positive_integers(2, 3), U.n_positive_integers(3, [1, 2, 3]),
                 U.two_element_tuple(3), U.two_element_tuple([2, 4]),
                 U.get_variable_collections({"weights": ["w_coll"]}, "weights"),
                 U.get_variable_collections({"weights": ["w_coll"]}, "biases"),
                 U.get_variable_collections(["all"], "weights"),
                 U.constant_value(tf.constant(3)), U.constant_value(ph_bool), U.constant_value(True),
                 [t.op.name for t in tf.get_collection("my_outputs")], list(out_t.aliases)])
sc = U.smart_cond(ph_bool, lambda: tf.constant(1), lambda: tf.constant(2))
fetch["static_cond"] = [U.static_cond(True, lambda: tf.constant(10), lambda: tf.constant(20)),
                        U.smart_cond(False, lambda: tf.constant(3), lambda: tf.constant(4))]
report_errors("utils_errors", [("last_dim_unknown", lambda: U.last_dimension(tf.TensorShape([2, None]))),
                               ("last_dim_rank", lambda: U.last_dimension(tf.TensorShape([3]), min_rank=2)),
                               ("n_pos_neg", lambda: U.n_positive_integers(2, -1)),
                               ("n_pos_len", lambda: U.n_positive_integers(2, [1, 2, 3])),
                               ("two_bad", lambda: U.two_element_tuple([1, 2, 3])),
                               ("static_tensor", lambda: U.static_cond(ph_bool, lambda: 1, lambda: 2)),
                               ("channel_bad", lambda: U.channel_dimension(tf.TensorShape([2, None, 3]), "NCHW")),
                               ("constant_bad", lambda: U.constant_value(tf.constant([1.0, 2.0])))])

# ---- model_analyzer
with tf.Graph().as_default() as small:
    a = tf.constant(np.ones([3, 4], np.float32), name="a")
    v = tf.Variable(tf.zeros([4, 2]), name="v")
    vd = tf.get_variable("vd", [5], dtype=tf.float64)
    tf.matmul(a, v, name="mm")
    buf = io.StringIO()
    old = sys.stdout
    sys.stdout = buf
    try:
        sizes = [slim.model_analyzer.analyze_vars([v, vd], print_info=True),
                 slim.model_analyzer.analyze_ops(tf.Graph(), print_info=False)]
    finally:
        sys.stdout = old
    report("analyzer", sizes + [slim.model_analyzer.tensor_description(a),
                                slim.model_analyzer.tensor_description(tf.placeholder(tf.int32, [None, 2]))])
    report("analyzer_printed", buf.getvalue().replace("_ref", ""))

# ---- summaries
SM = slim.summaries
img4 = tf.constant(np.linspace(0, 1, 48, dtype=np.float32).reshape(1, 4, 4, 3), name="img4")
vals = tf.constant([0., 1., 0., 2., 0.], name="vals")
summ_ops = [SM.add_scalar_summary(tf.reduce_mean(vals), name="mean_val", prefix="pre"),
            SM.add_histogram_summary(vals, prefix="hist"),
            SM.add_image_summary(img4, name="picture"),
            SM.add_zero_fraction_summary(vals, prefix="zf")]
summ_ops += SM.add_scalar_summaries([tf.reduce_sum(vals, name="total"), tf.reduce_max(vals, name="biggest")],
                                    prefix="s")
summ_ops += SM.add_histogram_summaries([vals], prefix="h2")
summ_ops += SM.add_image_summaries([img4], prefix="i2")
summ_ops += SM.add_zero_fraction_summaries([vals, x1], prefix="z2")
report("summary_ops", [op.op.name for op in summ_ops])
report("summary_collection", len(tf.get_collection(tf.GraphKeys.SUMMARIES)))

# ---- tfexample_decoder
D = slim.tfexample_decoder
with tf.Session() as s0:
    png = s0.run(tf.image.encode_png(tf.constant(np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3) * 10)))
def feat_f(v):
    return tf.train.Feature(float_list=tf.train.FloatList(value=v))
def feat_i(v):
    return tf.train.Feature(int64_list=tf.train.Int64List(value=v))
def feat_b(v):
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=v))
ex = tf.train.Example(features=tf.train.Features(feature={
    "image/encoded": feat_b([png]), "image/format": feat_b([b"png"]),
    "labels": feat_i([3, 1, 4]), "sparse/values": feat_f([0.5, 1.5]), "sparse/idx": feat_i([0, 3]),
    "bbox/ymin": feat_f([0.1, 0.2]), "bbox/xmin": feat_f([0.0, 0.3]), "bbox/ymax": feat_f([0.5, 0.9]),
    "bbox/xmax": feat_f([0.6, 1.0]), "word": feat_b([b"dog"]), "shape2": feat_i([2, 2]),
    "flat": feat_f([1., 2., 3., 4.])})).SerializeToString()
keys_to_features = {
    "image/encoded": tf.FixedLenFeature((), tf.string, default_value=""),
    "image/format": tf.FixedLenFeature((), tf.string, default_value="png"),
    "labels": tf.VarLenFeature(tf.int64),
    "missing": tf.VarLenFeature(tf.int64),
    "sparse/values": tf.VarLenFeature(tf.float32), "sparse/idx": tf.VarLenFeature(tf.int64),
    "bbox/ymin": tf.VarLenFeature(tf.float32), "bbox/xmin": tf.VarLenFeature(tf.float32),
    "bbox/ymax": tf.VarLenFeature(tf.float32), "bbox/xmax": tf.VarLenFeature(tf.float32),
    "word": tf.FixedLenFeature((), tf.string, default_value=""),
    "shape2": tf.FixedLenFeature([2], tf.int64), "flat": tf.FixedLenFeature([4], tf.float32)}
class WordLength(D.ItemHandler):  # a handler of one's own, on the base class
    def __init__(self):
        super(WordLength, self).__init__(["word"])
    def tensors_to_item(self, keys_to_tensors):
        return tf.strings.length(keys_to_tensors["word"])
table = tf.contrib.lookup.index_table_from_tensor(tf.constant(["cat", "dog", "bird"]))
items = {
    "image": D.Image(shape=[2, 3, 3], channels=3),
    "image_raw_shape": D.Image(channels=3, dtype=tf.uint8),
    "labels": D.Tensor("labels"),
    "labels_default": D.Tensor("missing", default_value=-1),
    "backup": D.BackupHandler(D.Tensor("missing"), D.Tensor("labels")),
    "sparse": D.SparseTensor(indices_key="sparse/idx", values_key="sparse/values", shape=[5], densify=True,
                             default_value=-1.),
    "sparse_raw": D.SparseTensor(indices_key="sparse/idx", values_key="sparse/values"),
    "bbox": D.BoundingBox(["ymin", "xmin", "ymax", "xmax"], "bbox/"),
    "word_id": D.LookupTensor("word", table),
    "word_length": WordLength(),
    "reshaped": D.Tensor("flat", shape_keys="shape2"),
    "fixed_shape": D.Tensor("flat", shape=[2, 2]),
    "callback": D.ItemHandlerCallback(["labels", "flat"],
                                      lambda k: tf.cast(tf.sparse_tensor_to_dense(k["labels"]), tf.float32)[0] +
                                      k["flat"]),
}
decoder = D.TFExampleDecoder(keys_to_features, items)
report("decoder_items", sorted(decoder.list_items()))
order = sorted(items)
decoded = decoder.decode(tf.constant(ex), order)
report("decoded_static_shapes", [[k, None if isinstance(t, tf.SparseTensor) else t.shape.as_list()]
                                 for k, t in zip(order, decoded)])
fetch["decoded"] = dict(zip(order, decoded))
report("item_handler_keys", [sorted(D.Tensor("flat", shape_keys="shape2").keys), sorted(items["bbox"].keys),
                             sorted(items["backup"].keys), isinstance(items["labels"], D.ItemHandler)])
report_errors("decoder_errors", [("shape_and_keys", lambda: D.Tensor("a", shape=[2], shape_keys="b")),
                                 ("backup_bad", lambda: D.BackupHandler(D.Tensor("a"), "b")),
                                 ("bbox_keys", lambda: D.BoundingBox(["a", "b"], "p/"))])

# ---- data_decoder / data_provider base classes, FusedRNNCell
class MyDecoder(slim.data_decoder.DataDecoder):
    def decode(self, data, items):
        return [data * 2 for _ in items]
    def list_items(self):
        return ["doubled"]
provider = slim.data_provider.DataProvider({"a": tf.constant([1., 2.]), "b": tf.constant(3)}, num_samples=7)
report("provider", [sorted(provider.list_items()), provider.num_samples(), MyDecoder().list_items()])
fetch["provider"] = [provider.get(["b", "a"]), MyDecoder().decode(tf.constant(4.), ["x"])]
class Reverse(tf.contrib.grid_rnn.rnn.FusedRNNCell):
    def __call__(self, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
        return tf.cumsum(inputs, axis=0), tf.reduce_sum(inputs, axis=0)
seq = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 2, 2))
fetch["fused"] = list(tf.contrib.rnn.TimeReversedFusedRNN(Reverse())(seq, dtype=tf.float32))
report_errors("abstract", [("fused", lambda: tf.contrib.grid_rnn.rnn.FusedRNNCell()),
                           ("decoder", lambda: slim.data_decoder.DataDecoder()),
                           ("provider_missing_item", lambda: provider.get(["zz"]))])

# ---- metric_learning.cluster_loss (both without scikit-learn, which it needs)
report_errors("cluster_loss", [("nmi", lambda: tf.contrib.losses.metric_learning.cluster_loss(
    tf.constant([0, 0, 1]), tf.constant(np.eye(3, dtype=np.float32)), 1.0)),
    ("slim", lambda: slim.losses.metric_learning.cluster_loss(tf.constant([0, 1]), tf.ones([2, 2]), 0.5))])

# ---- leaked helpers, constants, variables helpers
mod = types.ModuleType("oracle_slim_doc", "Docs.\n\n@@alpha\n@@beta_fn\n@@not_a_member\n")
mod.alpha, mod.beta_fn, mod.gamma = 1, len, 3
sys.modules["oracle_slim_doc"] = mod
report("make_all", sorted(slim.make_all("oracle_slim_doc")))  # (a list made from a set: any order)
def plain_fn(x):
    return x
scoped = slim.add_arg_scope(plain_fn)
report("arg_scope_func_key", [slim.arg_scope_func_key(scoped).split(" at ")[0],
                              slim.arg_scope_func_key(plain_fn) == slim.arg_scope_func_key(scoped),
                              slim.arg_scope_func_key(slim.conv2d) == slim.arg_scope_func_key(L.conv2d)])
report("constants", [slim.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY, list(slim.OPTIMIZER_SUMMARIES),
                     sorted(slim.OPTIMIZER_CLS_NAMES)])
age = tf.feature_column.numeric_column("age", shape=[2])
cat = tf.feature_column.embedding_column(
    tf.feature_column.categorical_column_with_identity("cat", 4), 3)
il = slim.InputLayer([age, cat], name="il")
fetch["input_layer"] = il({"age": tf.constant([[1., 2.], [3., 4.]]), "cat": tf.constant([[1], [3]])})
with tf.variable_scope("mv"):
    loose = tf.get_variable("loose", [2], initializer=tf.ones_initializer())
    lv = tf.get_variable("lv", [1], collections=[tf.GraphKeys.LOCAL_VARIABLES])
slim.add_model_variable(loose)
slim.add_model_variable(loose)
report("var_helpers", [names(tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)),
                       names(slim.get_local_variables("mv")), names(slim.get_local_variables(suffix="lv")),
                       names(slim.get_variables_by_suffix("loose")),
                       names(slim.get_variables_by_suffix("weights", "rb")),
                       slim.get_global_step()])
step = tf.train.get_or_create_global_step()
report("global_step", [slim.get_global_step() is step, tf.contrib.framework.get_global_step() is step])

# ---- optimize_loss under slim's names (and contrib.layers', TF 1.15's same object)
gs = tf.train.get_or_create_global_step()
def ol_model(scope):
    with tf.variable_scope(scope):
        w = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer(0.3))
        return tf.reduce_mean(tf.square(tf.matmul(x1, w) - 1.0)), w
ol_loss1, _ = ol_model("ol1")
ol_train1 = slim.optimize_loss(ol_loss1, gs, 0.1, "Adam", clip_gradients=0.5,
                               learning_rate_decay_fn=lambda lr, step: tf.train.exponential_decay(lr, step, 2, 0.5),
                               summaries=["loss", "gradient_norm", "learning_rate", "gradients"], name="SL")
ol_loss2, ol_w2 = ol_model("ol2")
ol_train2 = slim.optimizers.optimize_loss(
    ol_loss2, gs, 0.2, "SGD", gradient_multipliers={ol_w2: 2.0}, increment_global_step=False,
    clip_gradients=slim.optimizers.adaptive_clipping_fn(decay=0.9, static_max_norm=1.0, report_summary=True),
    name="SO")
ol_loss3, _ = ol_model("ol3")
ol_train3 = slim.optimize_loss(ol_loss3, gs, 0.1, slim.OPTIMIZER_CLS_NAMES["Momentum"], increment_global_step=False,
                               clip_gradients=slim.adaptive_clipping_fn(std_factor=1.5, decay=0.5), name="SM")
def ol_cases(fn, prefix):
    loss, w = ol_model(prefix + "_errs")
    report_errors(prefix, [("int_clip", lambda: fn(loss, gs, 0.1, "SGD", clip_gradients=1, name=prefix + "a")),
                           ("unknown_multiplier", lambda: fn(loss, gs, 0.1, "SGD", name=prefix + "b",
                                                             gradient_multipliers={"no_such_var": 2.0})),
                           ("bad_optimizer", lambda: fn(loss, gs, 0.1, "Nope", name=prefix + "c")),
                           ("negative_lr", lambda: fn(loss, gs, -0.1, "SGD", name=prefix + "d")),
                           ("bad_summary", lambda: fn(loss, gs, 0.1, "SGD", summaries=["nope"], name=prefix + "e"))])
ol_cases(slim.optimize_loss, "slim_ol_errors")
ol_cases(L.optimize_loss, "layers_ol_errors")
report("ol_summaries", sorted(op.op.name for op in tf.get_collection(tf.GraphKeys.SUMMARIES)
                              if op.op.name.startswith(("SL", "SO", "SM", "OptimizeLoss", "global_norm", "gradient"))))

report_variables()
with tf.Session() as sess:
    sess.run([tf.tables_initializer(), tf.local_variables_initializer(), tf.global_variables_initializer()])
    init_from_numpy(sess, seed=7, scale=0.5, var_list=[  # (optimize_loss's own state and weights as initialized)
        v for v in tf.global_variables() if not v.op.name.startswith(("SL/", "SO/", "SM/", "ol", "global_step"))])
    report("values", sess.run(fetch))
    report("smart_cond", [sess.run(sc, {ph_bool: True}), sess.run(sc, {ph_bool: False})])
    summaries = [tf.Summary.FromString(s) for s in sess.run(summ_ops)]
    report("summaries", [[[v.tag, v.simple_value, v.histo.num, v.histo.sum, list(v.histo.bucket)[:6],
                           v.image.height, v.image.width] for v in s.value] for s in summaries])
    report("ol_steps", [sess.run([ol_train1, ol_train2, ol_train3]) for _ in range(3)])
    report("ol_after", sess.run({"gs": gs, "w": [v for v in tf.trainable_variables() if v.op.name.startswith("ol")]}))
'''

DATA_AND_TRAINING = r'''
import os
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim
here = os.getcwd()

# ---- small TFRecord files, read back through slim's data pipeline
def example(i):
    return tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[i, i * 0.5])),
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3]))})).SerializeToString()
files = []
for f in range(2):
    path = os.path.join(here, "data-%d.tfrecord" % f)
    with tf.python_io.TFRecordWriter(path) as writer:
        for i in range(3):
            writer.write(example(f * 3 + i))
    files.append(path)
pattern = os.path.join(here, "data-*.tfrecord")
P = slim.parallel_reader
report("data_files", [sorted(os.path.basename(p) for p in P.get_data_files(pattern)),
                     [os.path.basename(p) for p in P.get_data_files(files)]])
report_errors("data_files_errors", [("none", lambda: P.get_data_files(os.path.join(here, "nothing-*")))])
decoder = slim.tfexample_decoder.TFExampleDecoder(
    {"x": tf.FixedLenFeature([2], tf.float32), "label": tf.FixedLenFeature([], tf.int64)},
    {"x": slim.tfexample_decoder.Tensor("x"), "label": slim.tfexample_decoder.Tensor("label")})
dataset = slim.dataset.Dataset(data_sources=files, reader=tf.TFRecordReader, decoder=decoder, num_samples=6,
                               items_to_descriptions={"x": "two floats", "label": "a class"}, num_classes=3)
report("dataset", [dataset.num_samples, dataset.num_classes, sorted(dataset.items_to_descriptions)])
provider = slim.dataset_data_provider.DatasetDataProvider(dataset, num_readers=1, shuffle=False, num_epochs=1)
report("provider_items", sorted(provider.list_items()) + [provider.num_samples()])
x, label, key = provider.get(["x", "label", "record_key"])
key_p, value_p = P.parallel_read(files, tf.TFRecordReader, num_epochs=1, num_readers=2, shuffle=False)
key_s, value_s = P.single_pass_read(files, tf.TFRecordReader)
common = tf.FIFOQueue(10, [tf.string, tf.string])
filenames = tf.train.string_input_producer(files, num_epochs=1, shuffle=False, name="pr_files")
reader = P.ParallelReader(tf.TFRecordReader, common, num_readers=2)
key_r, value_r = reader.read(filenames)
produced, units = reader.num_records_produced(), reader.num_work_units_completed()
provider2 = slim.dataset_data_provider.DatasetDataProvider(dataset, shuffle=False, num_epochs=1, scope="second")
batch = tf.train.batch(provider2.get(["x", "label"]), 2)
prefetched = slim.prefetch_queue.prefetch_queue(batch, capacity=2, num_threads=1)
px, plabel = prefetched.dequeue()
def drain(sess, fetch, most=12):
    got = []
    for _ in range(most):
        try:
            got.append(sess.run(fetch))
        except tf.errors.OutOfRangeError:
            break
    return got
with tf.Session() as sess:
    sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
    with slim.queues.QueueRunners(sess):
        with case("nested"):
            with slim.queues.QueueRunners(sess):
                pass
        report("prefetched", [sess.run([px, plabel]) for _ in range(2)])
        provided = drain(sess, [x, label, key], 4)
        report("provided", [[a.tolist(), int(b), os.path.basename(k.decode()).split(":")[0]] for a, b, k in provided])
        report("parallel", sorted(tf.train.Example.FromString(v).features.feature["x"].float_list.value[0]
                                  for _, v in drain(sess, [key_p, value_p])))
        report("single_pass", [tf.train.Example.FromString(v).features.feature["label"].int64_list.value[0]
                               for _, v in drain(sess, [key_s, value_s])])
        read = drain(sess, [key_r, value_r])
        report("parallel_reader", [len(read), sorted(tf.train.Example.FromString(v).features.feature["x"]
                                                     .float_list.value[1] for _, v in read)])
        report("reader_counts", sess.run([produced, units]))
report("queue_error_class", issubclass(slim.queues.NestedQueueRunnerError, Exception))

# ---- slim.learning: gradient helpers, train_step, train with a logdir
logdir = os.path.join(here, "train")
def build():
    rng = np.random.RandomState(3)
    xs = tf.constant(rng.standard_normal([8, 3]).astype(np.float32))
    ys = tf.constant(rng.standard_normal([8, 1]).astype(np.float32))
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.2))
    b = tf.get_variable("b", [1], initializer=tf.constant_initializer(-0.1))
    loss = tf.losses.mean_squared_error(ys, tf.matmul(xs, w) + b)
    return w, b, loss
with tf.Graph().as_default():
    w, b, loss = build()
    opt = tf.train.GradientDescentOptimizer(0.1)
    grads = opt.compute_gradients(loss)
    multiplied = slim.learning.multiply_gradients(grads, {w: 3.0, "b": 0.5})
    clipped = slim.learning.clip_gradient_norms(multiplied, 0.05)
    summaries = slim.learning.add_gradients_summaries(clipped)
    report("gradient_summaries", sorted(s.op.name for s in summaries))
    report_errors("learning_errors", [("multiply_not_list", lambda: slim.learning.multiply_gradients({}, {w: 1.})),
                                      ("multiply_empty", lambda: slim.learning.multiply_gradients(grads, {})),
                                      ("multiply_bad_key", lambda: slim.learning.multiply_gradients(grads, {3: 1.}))])
    step = tf.train.get_or_create_global_step()
    train_op = slim.learning.create_train_op(loss, opt, global_step=step, gradient_multipliers={w: 3.0},
                                             clip_gradient_norm=0.05, summarize_gradients=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        report("gradients", sess.run({"grads": [g for g, _ in grads], "multiplied": [g for g, _ in multiplied],
                                      "clipped": [g for g, _ in clipped]}))
        report("train_step", [slim.learning.train_step(sess, train_op, step, {}) for _ in range(2)])
        stop_at = {"should_stop": tf.greater_equal(step, 3), "should_log": tf.equal(step, 3),
                   "logdir": logdir}
        report("train_step_stop", [slim.learning.train_step(sess, train_op, step, stop_at) for _ in range(2)])
with tf.Graph().as_default():
    w, b, loss = build()
    step = tf.train.get_or_create_global_step()
    train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1), global_step=step,
                                             clip_gradient_norm=0.05)
    # no timed checkpoints and summaries (the Supervisor's threads save at a step of their choosing, and may
    # finish after train returns): the final checkpoint only
    final = slim.learning.train(train_op, logdir, number_of_steps=3, save_summaries_secs=0,
                                save_interval_secs=0, log_every_n_steps=100)
report("train_final_loss", final)
ckpt = tf.train.latest_checkpoint(logdir)
report("train_checkpoint", [os.path.basename(ckpt), sorted(n for n, _ in tf.train.list_variables(ckpt)),
                            tf.train.load_variable(ckpt, "w"), tf.train.load_variable(ckpt, "global_step")])

# ---- slim.evaluation on that checkpoint
E = slim.evaluation
with tf.Graph().as_default():
    w, b, loss = build()
    step = tf.train.get_or_create_global_step()
    mean_loss, update = tf.metrics.mean(loss)
    once = E.evaluate_once("", ckpt, os.path.join(here, "eval_once"), num_evals=2, eval_op=update,
                           final_op=[mean_loss, w, step])
    looped = E.evaluation_loop("", logdir, os.path.join(here, "eval_loop"), num_evals=1, eval_op=update,
                               final_op=mean_loss, eval_interval_secs=0, max_number_of_evaluations=1)
report("evaluate_once", once)
report("evaluation_loop", looped)
report("checkpoints_iterator", [os.path.basename(p) for p in E.checkpoints_iterator(logdir, timeout=0.1)])
report("wait_for_new_checkpoint", [E.wait_for_new_checkpoint(logdir, ckpt, seconds_to_sleep=0.05, timeout=0.1),
                                   os.path.basename(E.wait_for_new_checkpoint(logdir, None, timeout=0.1))])
'''


@requires_tf115
def test_slim_rest_and_old_feature_columns_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["cols_to_outs"][0] == ["color_embedding", [3, 2]]
  assert ["outer/input_from_feature_columns/wid_shared_embedding/shr", [5, 2]] in tf115["variables"]
  assert tf115["slim_ol_errors"] == tf115["layers_ol_errors"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6, differences={
      "embedding_dim_0": "embedding_column(..., dimension=0): tf.feature_column's embedding column (tf1clip's "
                         "successor of TF 1.15's) refuses a dimension < 1 with ValueError; TF 1.15 built a "
                         "zero-width embedding"})
  assert ours["embedding_dim_0"] == {"dim_0": "ValueError"}


@requires_tf115
def test_slim_data_pipeline_learning_and_evaluation_match_tf115():
  tf115, ours = run_both(DATA_AND_TRAINING)
  assert tf115["train_checkpoint"][0] == "model.ckpt-3"
  assert len(tf115["provided"]) == 4 and tf115["parallel"] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6)
