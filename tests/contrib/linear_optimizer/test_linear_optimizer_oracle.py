"""tf.contrib.linear_optimizer (SDCA) and tf.contrib.learn.SVM against TF 1.15: SdcaModel's weights after five
one-example SDCA steps (logistic loss with L1 and an l2 below 1, hinge loss with example weights, squared loss on a
partitioned sparse weight), its predictions, regularized / unregularized losses and duality gap, the slot variable
names, SparseFeatureColumn, SDCAOptimizer's options; contrib.learn's LinearClassifier with
`optimizer=SDCAOptimizer` and SVM (dense, sparse, hashed and bucketized columns): weights, evaluate, predictions;
the errors for bad arguments.

SDCA visits the examples of a batch in a random order, so every step here trains on one example (TF 1.15 is then
deterministic, and tf1clip gives its numbers)."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.linear_optimizer.SdcaModel", "tf.contrib.linear_optimizer.SparseFeatureColumn",
    "tf.contrib.linear_optimizer.SDCAOptimizer", "tf.contrib.learn.SVM")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
LO = tf.contrib.linear_optimizer
learn = tf.contrib.learn
L = tf.contrib.layers
root = os.path.abspath("models")

# -- SdcaModel: three models trained together, one example per step -----------------------------------------------
DATA = [  # (sparse example indices, feature indices, values), dense row, label, weight, id
    (([0], [0], [1.0]), [1.0, 2.0], 1.0, 1.0, "a"),
    (([0, 0], [1, 3], [1.0, 0.5]), [0.5, -1.0], 0.0, 2.0, "b"),
    (([0], [2], [2.0]), [2.0, 0.0], 1.0, 0.5, "c"),
]
graph = tf.Graph()
with graph.as_default():
    ei = tf.placeholder(tf.int64, [None]); fi = tf.placeholder(tf.int64, [None])
    fv = tf.placeholder(tf.float32, [None])
    dense = tf.placeholder(tf.float32, [1, 2]); label = tf.placeholder(tf.float32, [1])
    weight = tf.placeholder(tf.float32, [1]); ids = tf.placeholder(tf.string, [1])
    sfc = LO.SparseFeatureColumn(ei, fi, fv)
    def examples(weights):
        return dict(sparse_features=[sfc], dense_features=[dense], example_labels=label, example_weights=weights,
                    example_ids=ids)
    # all three examples at once, for the losses and predictions of the trained models
    all_sfc = LO.SparseFeatureColumn([0, 1, 1, 2], [0, 1, 3, 2], [1.0, 1.0, 0.5, 2.0])
    all_examples = dict(sparse_features=[all_sfc], dense_features=[tf.constant([d[1] for d in DATA])],
                        example_labels=tf.constant([d[2] for d in DATA]),
                        example_weights=tf.constant([d[3] for d in DATA]),
                        example_ids=tf.constant([d[4] for d in DATA]))
    models, weights = {}, {}
    specs = [("logistic", "logistic_loss", 0.1, 0.5, False, False),
             ("hinge", "hinge_loss", 0.0, 2.0, True, False),
             ("squared", "squared_loss", 0.05, 1.0, False, True)]
    for key, loss_type, l1, l2, weighted, partitioned in specs:
        with tf.variable_scope(key):
            if partitioned:
                ws = [tf.Variable(tf.zeros([2]), name="ws_part_0"), tf.Variable(tf.zeros([2]), name="ws_part_1")]
            else:
                ws = tf.Variable(tf.zeros([4]), name="ws")
            wd = tf.Variable(tf.zeros([2]), name="wd")
        model = LO.SdcaModel(examples(weight if weighted else tf.ones([1])),
                             dict(sparse_features_weights=[ws], dense_features_weights=[wd]),
                             dict(symmetric_l1_regularization=l1, symmetric_l2_regularization=l2,
                                  loss_type=loss_type))
        models[key] = model
        weights[key] = [ws, wd]
    train = tf.group(*[m.update_weights(m.minimize()) for m in models.values()])
    results = {key: {"weights": weights[key],
                     "predictions": m.predictions(all_examples),
                     "regularized_loss": m.regularized_loss(all_examples),
                     "unregularized_loss": m.unregularized_loss(all_examples),
                     "duality_gap": m.approximate_duality_gap()} for key, m in models.items()}
    report("sdca_slot_names", sorted(v.op.name for v in tf.global_variables()))
    report("sdca_summaries", sorted(s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)))
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        for step in range(5):
            (e, f, v), d, y, w, i = DATA[step % 3]
            sess.run(train, {ei: e, fi: f, fv: v, dense: [d], label: [y], weight: [w], ids: [i]})
        report("sdca", sess.run(results))
        report("sparse_feature_column", sess.run([all_sfc.example_indices, all_sfc.feature_indices,
                                                  all_sfc.feature_values]))
    report("sparse_feature_column_none", LO.SparseFeatureColumn([0], [1], None).feature_values is None)
    def model_with(examples=None, options=None, variables=None):
        ws, wd = weights["logistic"]
        base_options = dict(symmetric_l1_regularization=0.0, symmetric_l2_regularization=1.0,
                            loss_type="logistic_loss")
        return lambda: LO.SdcaModel(examples if examples is not None else all_examples,
                                    variables or dict(sparse_features_weights=[ws], dense_features_weights=[wd]),
                                    dict(base_options, **(options or {})))
    report_errors("sdca_errors", [
        ("bad_loss", model_with(options={"loss_type": "log_loss"})),
        ("negative_l1", model_with(options={"symmetric_l1_regularization": -1.0})),
        ("negative_l2", model_with(options={"symmetric_l2_regularization": -0.5})),
        ("zero_l2", model_with(options={"symmetric_l2_regularization": 0.0})),
        ("no_examples", model_with(examples={})),
        ("dense_not_list", model_with(examples=dict(all_examples, dense_features=all_examples["dense_features"][0]))),
        ("missing_ids", model_with(examples={k: v for k, v in all_examples.items() if k != "example_ids"})),
        ("weights_not_list", model_with(variables=dict(sparse_features_weights=weights["logistic"][0],
                                                       dense_features_weights=[weights["logistic"][1]]))),
    ])

# -- SDCAOptimizer -----------------------------------------------------------------------------------------------
opt = LO.SDCAOptimizer("example_id", num_loss_partitions=2, num_table_shards=3, symmetric_l1_regularization=0.5,
                       symmetric_l2_regularization=4.0, adaptive=False)
report("optimizer", [opt.get_name(), opt.example_id_column, opt.num_loss_partitions, opt.num_table_shards,
                     opt.symmetric_l1_regularization, opt.symmetric_l2_regularization, opt.adaptive,
                     opt.partitioner])

# -- contrib.learn's LinearClassifier with SDCA and SVM: one example per step ------------------------------------
X = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [-1.0, 1.0]], np.float32)
C = np.array([["a"], ["b"], ["c"], ["a"]])
H = np.array([["p"], ["q"], ["r"], ["q"]])
Z = np.array([[0.3], [-0.7], [1.5], [0.1]], np.float32)
W = np.array([[1.0], [2.0], [0.5], [1.0]], np.float32)
Y = np.array([[1], [0], [1], [0]], np.int64)
IDS = np.array(["1", "2", "3", "4"])
FEATURES = {"x": X, "c": C, "h": H, "z": Z, "w": W, "example_id": IDS}
def train_input():
    ds = tf.data.Dataset.from_tensor_slices((FEATURES, Y)).repeat().batch(1, drop_remainder=True)
    return tf.data.make_one_shot_iterator(ds).get_next()
def eval_input():
    return {k: tf.constant(v) for k, v in FEATURES.items()}, tf.constant(Y)
columns = [L.real_valued_column("x", dimension=2), L.sparse_column_with_keys("c", ["a", "b", "c"]),
           L.sparse_column_with_hash_bucket("h", 5), L.bucketized_column(L.real_valued_column("z"), [0.0, 1.0])]
def linear_weights(estimator):
    out = {}
    for name in estimator.get_variable_names():
        if name.startswith("linear/") and "unshr" not in name:
            parts = name.split("/")
            out["bias" if parts[-1].startswith("bias_weight") else parts[-2]] = estimator.get_variable_value(
                name).ravel()
    return out
def variable_names(estimator):
    return sorted(n for n in estimator.get_variable_names() if "Hash" not in n and n != "global_step")

clf = learn.LinearClassifier(columns, model_dir=root + "/clf", optimizer=LO.SDCAOptimizer(
    "example_id", symmetric_l1_regularization=0.1, symmetric_l2_regularization=0.5))
clf.fit(input_fn=train_input, steps=5)
report("clf_weights", linear_weights(clf))
report("clf_variable_names", variable_names(clf))
clf_eval = clf.evaluate(input_fn=eval_input, steps=1)
report("clf_eval", {k: clf_eval[k] for k in ("loss", "accuracy", "auc", "labels/actual_label_mean",
                                              "labels/prediction_mean", "global_step")})
report("clf_proba", np.array(list(clf.predict_proba(input_fn=eval_input))))

svm = learn.SVM("example_id", columns, weight_column_name="w", model_dir=root + "/svm", l1_regularization=0.2)
svm.fit(input_fn=train_input, steps=5)
report("svm_weights", linear_weights(svm))
report("svm_variable_names", variable_names(svm))
report("svm_eval", svm.evaluate(input_fn=eval_input, steps=1))
predictions = list(svm.predict(input_fn=eval_input))
report("svm_predict", {k: np.array([p[k] for p in predictions]) for k in predictions[0]})
report("svm_classes", [int(c) for c in svm.predict_classes(input_fn=eval_input, as_iterable=False)])

def sdca(**kwargs):
    return LO.SDCAOptimizer("example_id", **kwargs)
report_errors("estimator_errors", [
    ("svm_kernels", lambda: learn.SVM("example_id", columns, kernels=["rbf"])),
    ("svm_proba", lambda: list(svm.predict_proba(input_fn=eval_input))),
    ("clf_three_classes", lambda: learn.LinearClassifier(columns, n_classes=3, optimizer=sdca())),
    ("clf_centered_bias", lambda: learn.LinearClassifier(columns, optimizer=sdca(), enable_centered_bias=True)),
    ("reg_label_dimension", lambda: learn.LinearRegressor(columns, label_dimension=2, optimizer=sdca())),
    ("reg_centered_bias", lambda: learn.LinearRegressor(columns, optimizer=sdca(), enable_centered_bias=True)),
    ("linear_estimator", lambda: learn.LinearEstimator(columns, learn.regression_head(), optimizer=sdca())),
])
'''

DIFFERENCES = {}


@requires_tf115
def test_contrib_linear_optimizer_against_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-4, atol=1e-5, differences=DIFFERENCES)
