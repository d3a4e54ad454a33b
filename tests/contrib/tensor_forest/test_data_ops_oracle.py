"""TF 1.15's tensor_forest data_ops against TF 1.15: `ParseDataTensorOrDict` on a dense tensor (float32 / float64,
a numpy array, a placeholder of unknown batch), a SparseTensor alone (integer or float values), and dicts of dense
columns (float, integer and string ones: the matrix in sorted key order, strings hashed, the spec's text), of 1-D
columns, of non-string keys, of sparse columns beside dense ones (sparse floats dropped, the rest one SparseTensor);
`ParseLabelTensorOrDict` on tensors, sparse labels and dicts; `CastToFloat`, `GetColumnName`; and the errors for
unsupported dtypes, a column of unknown width and columns of different rank."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = tuple("tf.contrib.tensor_forest.data_ops." + n for n in (
    "ParseDataTensorOrDict", "ParseLabelTensorOrDict", "CastToFloat", "GetColumnName", "TensorForestDataSpec",
    "DataColumn", "DataColumnCollection"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
from tensorflow.contrib.tensor_forest.python.ops import data_ops
tf.logging.set_verbosity(tf.logging.ERROR)

def sparse(indices, values, shape, dtype):
    return tf.SparseTensor(np.array(indices, np.int64), tf.constant(values, dtype), np.array(shape, np.int64))

class Key(object):  # a feature-column-like dict key
    def __init__(self, column_name):
        self.column_name = column_name
    def __lt__(self, other):
        return self.column_name < other.column_name

def parsed(key, data, feed=None):
    dense, sparse_out, spec = data_ops.ParseDataTensorOrDict(data)
    fetch = {}
    if dense is not None:
        fetch["dense"] = dense
    if sparse_out is not None:
        fetch["sparse"] = [sparse_out.indices, sparse_out.values, sparse_out.dense_shape]
    with tf.Session() as sess:
        values = sess.run(fetch, feed)
    report(key, [spec.SerializeToString(), dense is None, sparse_out is None,
                 str(dense.dtype) if dense is not None else None,
                 str(sparse_out.dtype) if sparse_out is not None else None, values])

rng = np.random.RandomState(5)
x = rng.rand(3, 4).astype(np.float32)
with tf.Graph().as_default():
    with case("tensor/float32"):
        parsed("tensor/float32", tf.constant(x))
    with case("tensor/float64"):
        parsed("tensor/float64", tf.constant(x.astype(np.float64)))
    with case("tensor/numpy"):
        parsed("tensor/numpy", x)
    with case("tensor/placeholder"):
        p = tf.placeholder(tf.float32, [None, 4])
        parsed("tensor/placeholder", p, {p: x[:2]})
    with case("sparse/int64"):
        parsed("sparse/int64", sparse([[0, 1], [2, 0]], [4, 7], [3, 5], tf.int64))
    with case("sparse/float32"):
        parsed("sparse/float32", sparse([[1, 1]], [0.5], [2, 3], tf.float32))
    with case("dict/mixed"):
        parsed("dict/mixed", {"b_int": tf.constant([[1, 2], [3, 4], [5, 6]], tf.int64),
                              "a_float": tf.constant(x[:, :1]),
                              "c_str": tf.constant([["red"], ["green"], ["tensor forest"]]),
                              "e_int32": tf.constant([[9], [8], [7]], tf.int32)})
    with case("dict/one_vector"):  # a lone 1-D column: concat of one tensor keeps it 1-D
        parsed("dict/one_vector", {"v": tf.constant([1.0, 2.0, 3.0])})
    with case("dict/int_keys"):
        parsed("dict/int_keys", {7: tf.constant(x[:, :2]), 3: tf.constant(x[:, 2:])})
    with case("dict/column_keys"):
        parsed("dict/column_keys", {Key("zeta"): tf.constant(x[:, :1]), Key("alpha"): tf.constant(x[:, 1:])})
    with case("dict/sparse"):
        parsed("dict/sparse", {
            "dense": tf.constant(x[:, :2]),
            "ids": sparse([[0, 0], [1, 0], [1, 1]], [3, 1, 4], [3, 2], tf.int64),
            "words": sparse([[0, 0], [2, 1]], ["a", "bb"], [3, 2], tf.string),
            "weights": sparse([[0, 0]], [0.25], [3, 1], tf.float32)})
    with case("dict/only_sparse"):
        parsed("dict/only_sparse", {"ids": sparse([[2, 0]], [5], [3, 1], tf.int32),
                                    "dropped": sparse([[0, 0]], [1.5], [3, 1], tf.float32)})
    with case("dict/only_sparse_floats"):
        parsed("dict/only_sparse_floats", {"dropped": sparse([[0, 0]], [1.5], [3, 1], tf.float32)})
    with case("dict/placeholders"):
        f = tf.placeholder(tf.float32, [None, 2])
        s = tf.placeholder(tf.string, [None, 1])
        parsed("dict/placeholders", {"f": f, "s": s}, {f: x[:2, :2], s: [["x"], ["y"]]})

    labels = {
        "int32": data_ops.ParseLabelTensorOrDict(tf.constant([[1], [0], [2]], tf.int32)),
        "vector": data_ops.ParseLabelTensorOrDict(tf.constant([1, 0, 2], tf.int64)),
        "float64": data_ops.ParseLabelTensorOrDict(tf.constant([[0.5], [1.5]], tf.float64)),
        "sparse": data_ops.ParseLabelTensorOrDict(sparse([[0, 0], [2, 0]], [3, 1], [3, 1], tf.int64)),
        "dict": data_ops.ParseLabelTensorOrDict({"b": tf.constant([[1], [2]]), "a": tf.constant([[3], [4]])}),
        "dict_float": data_ops.ParseLabelTensorOrDict({"z": tf.constant([[0.5, 1.0]]), "y": tf.constant([[2.0]])}),
    }
    casts = {n: data_ops.CastToFloat(t) for n, t in (
        ("int32", tf.constant([1, -2], tf.int32)), ("int64", tf.constant([[3]], tf.int64)),
        ("float32", tf.constant([0.5])), ("float64", tf.constant([0.25], tf.float64)),
        ("string", tf.constant(["", "forest", "12345678"])))}
    with tf.Session() as sess:
        report("labels", sess.run(labels))
        report("labels/dtypes", {k: str(v.dtype) for k, v in labels.items()})
        report("cast", sess.run(casts))
        report("cast/dtypes", {k: str(v.dtype) for k, v in casts.items()})
    report("column_names", [data_ops.GetColumnName("k", 3), data_ops.GetColumnName(7, 3),
                            data_ops.GetColumnName(Key("c"), 3), data_ops.GetColumnName(None, 0)])
    report("kinds", [data_ops.DATA_FLOAT, data_ops.DATA_CATEGORICAL,
                     sorted((d.name, k) for d, k in data_ops.DTYPE_TO_FTYPE.items())])
    report("fresh", [data_ops.TensorForestDataSpec().SerializeToString(), data_ops.DataColumn().SerializeToString(),
                     data_ops.DataColumnCollection().SerializeToString(), data_ops.DataColumnCollection().size()])

    report_errors("errors", [
        ("bool tensor", lambda: data_ops.ParseDataTensorOrDict(tf.constant([[True]]))),
        ("bool column", lambda: data_ops.ParseDataTensorOrDict({"b": tf.constant([[True]])})),
        ("float16 sparse", lambda: data_ops.ParseDataTensorOrDict(sparse([[0, 0]], [1.0], [1, 1], tf.float16))),
        ("unknown width", lambda: data_ops.ParseDataTensorOrDict({"u": tf.placeholder(tf.float32, [None, None])})),
        ("float64 beside float32", lambda: data_ops.ParseDataTensorOrDict({"a": tf.constant([[1.0]]),
                                                                           "b": tf.constant([[1.0]], tf.float64)})),
        ("ranks differ", lambda: data_ops.ParseDataTensorOrDict({"a": tf.constant([1.0, 2.0]),
                                                                 "b": tf.constant([[1.0], [2.0]])})),
        ("unknown width tensor", lambda: data_ops.ParseDataTensorOrDict(
            tf.placeholder(tf.float32, [None, None]))[2].SerializeToString()),
        ("sparse dict labels", lambda: data_ops.ParseLabelTensorOrDict(
            {"s": sparse([[0, 0]], [1], [2, 1], tf.int64)})),
        ("labels of strings", lambda: data_ops.ParseLabelTensorOrDict(tf.constant(["a"]))),
    ])
'''


@requires_tf115
def test_data_ops_parse_features_and_labels_as_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["dict/mixed"][0].startswith("dense_features_size: 5 dense: [{name: a_float original_type: 0 size: 1}")
  assert tf115["errors"]["bool column"] == "KeyError"
  assert_same(tf115, ours, rtol=1e-6, atol=1e-7)
