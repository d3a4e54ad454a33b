"""Old estimator checkpoints restore: canned estimators, trained three steps on TF 1.15 into a model_dir, train on
under tf1clip from that model_dir (the estimator finds the checkpoint itself) and end where TF 1.15's own
continuation of a copy of that model_dir ends: every variable (weights, Adagrad / Ftrl slots of TF 1.15's one-part
partitioned variables, optimize_loss's learning_rate variables, the global step) and, for a few, the predictions.

tf.estimator's DNNLinearCombinedRegressor, and contrib.learn's canned estimators (TF 1.15's contrib.learn model
functions and heads, its variable names: `dnn/hiddenlayer_0/weights`, `dnn/input_from_feature_columns/
<column>_embedding/weights`, `linear/<column>/weight(s)`, `linear/bias_weight`, `dnn/<head>/dnn/learning_rate`):
a DNNClassifier, a DNNRegressor with an embedding column, a LinearRegressor and a three-class LinearClassifier with a
sparse_column_with_keys, and both wide-and-deep estimators (TF 1.15's default global step increment: one per
optimizer); factorization's KMeansClustering, GMM and WALSMatrixFactorization (its sweep state), a LinearClassifier
trained by linear_optimizer's SDCAOptimizer (its unshrunk weights and example-state table), kernel_methods'
KernelLinearClassifier (its random Fourier features' mapped column), contrib.estimator's RNNClassifier on a sequence
column, and tf.estimator's BoostedTreesClassifier (a checkpoint in the middle of its second tree)."""

import os
import tempfile

from harness import assert_same, requires_tf115, run_tf115, run_tf1clip

ORACLE_TESTED = ("tf.estimator.DNNLinearCombinedRegressor", "tf.contrib.learn.DNNClassifier",
                 "tf.contrib.learn.DNNRegressor", "tf.contrib.learn.LinearRegressor",
                 "tf.contrib.learn.LinearClassifier", "tf.contrib.learn.DNNLinearCombinedClassifier",
                 "tf.contrib.learn.DNNLinearCombinedRegressor", "tf.contrib.factorization.KMeansClustering",
                 "tf.contrib.factorization.GMM", "tf.contrib.kernel_methods.KernelLinearClassifier",
                 "tf.estimator.BoostedTreesClassifier", "tf.contrib.factorization.WALSMatrixFactorization",
                 "tf.contrib.linear_optimizer.SDCAOptimizer", "tf.contrib.estimator.RNNClassifier")

MODELS = r'''
import os
import shutil
import numpy as np
import tensorflow as tf
learn, layers = tf.contrib.learn, tf.contrib.layers
tf.logging.set_verbosity(tf.logging.ERROR)
rng = np.random.RandomState(0)
x = rng.rand(12, 3).astype(np.float32)
y_class = (x.sum(axis=1) > 1.5).astype(np.int64)
y_value = (x @ np.array([1.0, -2.0, 0.5], np.float32))[:, None]
colors = np.array(["red", "green", "blue"])[rng.randint(0, 3, size=12)]

def features():
    return {"x": tf.constant(x), "color": tf.SparseTensor(indices=[[i, 0] for i in range(12)],
                                                          values=tf.constant(colors), dense_shape=[12, 1])}

color = layers.sparse_column_with_keys("color", keys=["red", "green", "blue"])
MAKE = {
    "core": lambda d: tf.estimator.DNNLinearCombinedRegressor(
        linear_feature_columns=[tf.feature_column.numeric_column("x", shape=[3])],
        dnn_feature_columns=[tf.feature_column.numeric_column("x", shape=[3])], dnn_hidden_units=[3],
        model_dir=d),
    "dnn": lambda d: learn.DNNClassifier(hidden_units=[4], feature_columns=[layers.real_valued_column("x", 3)],
                                         n_classes=2, model_dir=d),
    "dnn_regressor": lambda d: learn.DNNRegressor(
        hidden_units=[3], feature_columns=[layers.real_valued_column("x", 3), layers.embedding_column(color, 2)],
        model_dir=d),
    "linear": lambda d: learn.LinearRegressor(feature_columns=[layers.real_valued_column("x", 3), color],
                                              model_dir=d),
    "linear_classifier": lambda d: learn.LinearClassifier(
        feature_columns=[layers.real_valued_column("x", 3), color], n_classes=3, model_dir=d),
    "wide_deep_classifier": lambda d: learn.DNNLinearCombinedClassifier(
        linear_feature_columns=[color], dnn_feature_columns=[layers.real_valued_column("x", 3)],
        dnn_hidden_units=[3], model_dir=d),
    "wide_deep_regressor": lambda d: learn.DNNLinearCombinedRegressor(
        linear_feature_columns=[color, layers.real_valued_column("x", 3)],
        dnn_feature_columns=[layers.real_valued_column("x", 3)], dnn_hidden_units=[3], model_dir=d),
}
# estimators of other contrib modules, with their own inputs and predictions
fz, km = tf.contrib.factorization, tf.contrib.kernel_methods
columns_xyz = [tf.feature_column.bucketized_column(tf.feature_column.numeric_column("x%d" % i), [0.25, 0.5, 0.75])
               for i in range(3)]
MAKE.update({
    "kmeans": lambda d: fz.KMeansClustering(3, model_dir=d, initial_clusters=x[:3], use_mini_batch=False),
    "gmm": lambda d: fz.GMM(3, model_dir=d, initial_clusters=x[:3]),
    "kernel": lambda d: km.KernelLinearClassifier(
        kernel_mappers={layers.real_valued_column("x", 3): [km.RandomFourierFeatureMapper(3, 6, seed=3, name="rff")]},
        model_dir=d),
    "boosted": lambda d: tf.estimator.BoostedTreesClassifier(columns_xyz, n_batches_per_layer=1, model_dir=d,
                                                             n_trees=3, max_depth=2),
})
# WALS: a 5 x 4 matrix, fixed initial factors; SDCA: one example a step (it visits a batch's examples in a random
# order); RNNClassifier: sequences of lengths 3, 2, 1, 3
W = fz.WALSMatrixFactorization
cells = np.array([[0, 0], [0, 2], [1, 1], [1, 3], [2, 0], [2, 1], [3, 2], [4, 3], [4, 0]], np.int64)
entries = np.array([1.0, 2.0, 3.0, 0.5, 1.5, 2.5, 4.0, 1.0, 0.2], np.float32)
lengths = [3, 2, 1, 3]
steps_at = [[i, j] for i, n in enumerate(lengths) for j in range(n)]
sequences = lambda: {"s": tf.SparseTensor(steps_at, np.linspace(-1.0, 1.0, 9).astype(np.float32), [4, 3])}
MAKE.update({
    "wals": lambda d: W(5, 4, 2, unobserved_weight=0.3, regularization_coeff=0.1,
                        row_init=np.linspace(-1, 1, 10).reshape(5, 2).astype(np.float32),
                        col_init=np.linspace(1, -1, 8).reshape(4, 2).astype(np.float32), model_dir=d),
    "sdca": lambda d: learn.LinearClassifier([layers.real_valued_column("x", 3), color], model_dir=d,
                                             optimizer=tf.contrib.linear_optimizer.SDCAOptimizer(
                                                 "example_id", symmetric_l2_regularization=0.5)),
    "rnn": lambda d: tf.contrib.estimator.RNNClassifier(
        [tf.contrib.feature_column.sequence_numeric_column("s")], num_units=[3], cell_type="gru", model_dir=d),
})
points = lambda: tf.data.Dataset.from_tensors(x).repeat()
by_column = lambda: {"x%d" % i: x[:, i:i + 1] for i in range(3)}
def one_example_a_step():
    rows = dict({k: v for k, v in zip(("x", "color"), (x, colors[:, None]))}, example_id=np.arange(12).astype(str))
    data = tf.data.Dataset.from_tensor_slices((rows, y_class)).repeat().batch(1, drop_remainder=True)
    return data.make_one_shot_iterator().get_next()

INPUT = {"wals": lambda: ({W.INPUT_ROWS: tf.SparseTensor(cells, entries, [5, 4]),
                           W.INPUT_COLS: tf.sparse_reorder(tf.SparseTensor(cells[:, ::-1].copy(), entries, [4, 5]))},
                          None),
         "sdca": one_example_a_step,
         "rnn": lambda: (sequences(), tf.constant([[1], [0], [0], [1]])),
         "kmeans": points, "gmm": lambda: (points().make_one_shot_iterator().get_next(), None),
         "boosted": lambda: tf.data.Dataset.from_tensors((by_column(), y_class)).repeat()}
CORE = ("core", "kmeans", "boosted", "rnn")
# WALS and SDCA first: TF 1.15's cannot build once an earlier estimator of the process left resource variables on
ORDER = ["wals", "sdca"] + [name for name in MAKE if name not in ("wals", "sdca")]  # tf.estimator's train / predict; the others contrib.learn's fit
once = lambda: tf.data.Dataset.from_tensors({"x": x})  # one batch (constants would never run out)
# predictions of a few (each costs a graph a side); the variables judge every restored model
PREDICT = {
    "core": lambda est: [p["predictions"] for p in est.predict(once, yield_single_examples=False)],
    "dnn": lambda est: est.predict_proba(input_fn=features, as_iterable=False),
    "linear": lambda est: est.predict_scores(input_fn=features, as_iterable=False),
    "wals": lambda est: np.concatenate(est.get_row_factors() + est.get_col_factors()),  # the 5 + 4 factor rows
    "boosted": lambda est: [p["probabilities"] for p in est.predict(
        lambda: tf.data.Dataset.from_tensors(by_column()), yield_single_examples=False)],
}
y_three = (y_class + (x[:, 0] > 0.5)).astype(np.int64)
LABELS = {"dnn": y_class, "dnn_regressor": y_value, "linear": y_value, "linear_classifier": y_three,
          "wide_deep_classifier": y_class, "wide_deep_regressor": y_value, "core": y_value, "kernel": y_class}


def fit(name, est):
    fn = INPUT.get(name, lambda: (features(), tf.constant(LABELS[name])))
    (est.train if name in CORE else est.fit)(input_fn=fn, steps=3)

def train(name, directory):
    est = MAKE[name](directory)
    fit(name, est)
    predictions = PREDICT[name](est) if name in PREDICT else None
    values = {n: est.get_variable_value(n) for n in est.get_variable_names()}
    # a boosted-trees ensemble is a serialized proto whose float32 leaves and gains agree to the last bit or two
    # (the kernels are NumPy ports): its size here (the same trees, splits and fields), the values in the predictions
    values = {n: ("serialized bytes", len(v)) if n.endswith("_serialized") else v for n, v in values.items()}
    report(name, {"variables": values,
                  "predictions": np.asarray(predictions)})
'''

TRAIN_AND_CONTINUE = MODELS + r'''
for name in ORDER:
    first = os.path.join(ORACLE_SHARED, name)
    fit(name, MAKE[name](first))
    shutil.copytree(first, name + "_copy")
    train(name, os.path.abspath(name + "_copy"))
'''

CONTINUE = MODELS + r'''
for name in ORDER:
    train(name, os.path.join(ORACLE_SHARED, name))
'''


@requires_tf115
def test_estimators_train_on_from_a_tf115_model_dir_as_tf115_does():
  with tempfile.TemporaryDirectory() as shared:
    theirs = run_tf115(TRAIN_AND_CONTINUE, shared=shared)
    ours = run_tf1clip(CONTINUE, shared=shared)
  for name in ("core", "dnn", "dnn_regressor", "linear", "linear_classifier", "kmeans", "gmm", "kernel", "boosted",
               "wals", "sdca", "rnn"):
    assert theirs[name]["variables"]["global_step"] == 6, (name, theirs[name]["variables"]["global_step"])
  for name in ("wide_deep_classifier", "wide_deep_regressor"):  # TF 1.15: a step per optimizer
    assert theirs[name]["variables"]["global_step"] == 8, (name, theirs[name]["variables"]["global_step"])
  assert_same(theirs, ours, rtol=2e-5, atol=1e-6)
