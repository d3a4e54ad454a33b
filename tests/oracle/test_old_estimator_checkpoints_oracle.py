"""Old estimator checkpoints restore: canned estimators, trained three steps on TF 1.15 into a model_dir, train on
under tf1clip from that model_dir (the estimator finds the checkpoint itself) and end where TF 1.15's own
continuation of a copy of that model_dir ends: every variable (weights, Adagrad / Ftrl slots of TF 1.15's one-part
partitioned variables, optimize_loss's learning_rate variables, the global step) and the predictions.

tf.estimator's DNNLinearCombinedRegressor, and contrib.learn's canned estimators (TF 1.15's contrib.learn model
functions and heads, its variable names: `dnn/hiddenlayer_0/weights`, `dnn/input_from_feature_columns/
<column>_embedding/weights`, `linear/<column>/weight(s)`, `linear/bias_weight`, `dnn/<head>/dnn/learning_rate`):
a DNNClassifier, a DNNRegressor with an embedding column, a LinearRegressor and a three-class LinearClassifier with a
sparse_column_with_keys, and both wide-and-deep estimators (TF 1.15's default global step increment: one per
optimizer); factorization's KMeansClustering and GMM, kernel_methods' KernelLinearClassifier (its random Fourier
features' mapped column) and tf.estimator's BoostedTreesClassifier (a checkpoint in the middle of its second tree)."""

import os
import tempfile

from harness import assert_same, requires_tf115, run_tf115, run_tf1clip

ORACLE_TESTED = ("tf.estimator.DNNLinearCombinedRegressor", "tf.contrib.learn.DNNClassifier",
                 "tf.contrib.learn.DNNRegressor", "tf.contrib.learn.LinearRegressor",
                 "tf.contrib.learn.LinearClassifier", "tf.contrib.learn.DNNLinearCombinedClassifier",
                 "tf.contrib.learn.DNNLinearCombinedRegressor", "tf.contrib.factorization.KMeansClustering",
                 "tf.contrib.factorization.GMM", "tf.contrib.kernel_methods.KernelLinearClassifier",
                 "tf.estimator.BoostedTreesClassifier")

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
points = lambda: tf.data.Dataset.from_tensors(x).repeat()
by_column = lambda: {"x%d" % i: x[:, i:i + 1] for i in range(3)}
INPUT = {"kmeans": points, "gmm": lambda: (points().make_one_shot_iterator().get_next(), None),
         "boosted": lambda: tf.data.Dataset.from_tensors((by_column(), y_class)).repeat()}
CORE = ("core", "kmeans", "boosted")  # tf.estimator's train / predict; the others contrib.learn's fit
once = lambda: tf.data.Dataset.from_tensors({"x": x})  # one batch (constants would never run out)
PREDICT = {
    "core": lambda est: [p["predictions"] for p in est.predict(once, yield_single_examples=False)],
    "kmeans": lambda est: list(est.predict_cluster_index(lambda: tf.data.Dataset.from_tensors(x))),
    "gmm": lambda est: list(est.predict_assignments(input_fn=INPUT["gmm"]))[:12],
    "kernel": lambda est: list(est.predict_proba(input_fn=lambda: {"x": tf.constant(x)})),
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
    if name in PREDICT:
        predictions = PREDICT[name](est)
    else:
        classifier = hasattr(est, "predict_proba")
        predictions = (est.predict_proba if classifier else est.predict_scores)(input_fn=features, as_iterable=False)
    values = {n: est.get_variable_value(n) for n in est.get_variable_names()}
    # a boosted-trees ensemble is a serialized proto whose float32 leaves and gains agree to the last bit or two
    # (the kernels are NumPy ports): its size here (the same trees, splits and fields), the values in the predictions
    values = {n: ("serialized bytes", len(v)) if n.endswith("_serialized") else v for n, v in values.items()}
    report(name, {"variables": values,
                  "predictions": np.asarray(predictions)})
'''

TRAIN_AND_CONTINUE = MODELS + r'''
for name in MAKE:
    first = os.path.join(ORACLE_SHARED, name)
    fit(name, MAKE[name](first))
    shutil.copytree(first, name + "_copy")
    train(name, os.path.abspath(name + "_copy"))
'''

CONTINUE = MODELS + r'''
for name in MAKE:
    train(name, os.path.join(ORACLE_SHARED, name))
'''


@requires_tf115
def test_estimators_train_on_from_a_tf115_model_dir_as_tf115_does():
  with tempfile.TemporaryDirectory() as shared:
    theirs = run_tf115(TRAIN_AND_CONTINUE, shared=shared)
    ours = run_tf1clip(CONTINUE, shared=shared)
  for name in ("core", "dnn", "dnn_regressor", "linear", "linear_classifier", "kmeans", "gmm", "kernel", "boosted"):
    assert theirs[name]["variables"]["global_step"] == 6, (name, theirs[name]["variables"]["global_step"])
  for name in ("wide_deep_classifier", "wide_deep_regressor"):  # TF 1.15: a step per optimizer
    assert theirs[name]["variables"]["global_step"] == 8, (name, theirs[name]["variables"]["global_step"])
  assert_same(theirs, ours, rtol=2e-5, atol=1e-6)
