"""Old estimator checkpoints restore: canned estimators, trained three steps on TF 1.15 into a model_dir, train on
under tf1clip from that model_dir (the estimator finds the checkpoint itself) and end where TF 1.15's own
continuation of a copy of that model_dir ends: every variable (weights, Adagrad / Ftrl slots of TF 1.15's one-part
partitioned variables, optimize_loss's learning_rate variables, the global step) and the predictions.

tf.estimator's DNNLinearCombinedRegressor, and contrib.learn's canned estimators (TF 1.15's contrib.learn model
functions and heads, its variable names: `dnn/hiddenlayer_0/weights`, `dnn/input_from_feature_columns/
<column>_embedding/weights`, `linear/<column>/weight(s)`, `linear/bias_weight`, `dnn/<head>/dnn/learning_rate`):
a DNNClassifier, a DNNRegressor with an embedding column, a LinearRegressor and a three-class LinearClassifier with a
sparse_column_with_keys, and both wide-and-deep estimators (TF 1.15's default global step increment: one per
optimizer)."""

import os
import tempfile

from harness import assert_same, requires_tf115, run_tf115, run_tf1clip

ORACLE_TESTED = ("tf.estimator.DNNLinearCombinedRegressor", "tf.contrib.learn.DNNClassifier",
                 "tf.contrib.learn.DNNRegressor", "tf.contrib.learn.LinearRegressor",
                 "tf.contrib.learn.LinearClassifier", "tf.contrib.learn.DNNLinearCombinedClassifier",
                 "tf.contrib.learn.DNNLinearCombinedRegressor")

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
y_three = (y_class + (x[:, 0] > 0.5)).astype(np.int64)
LABELS = {"dnn": y_class, "dnn_regressor": y_value, "linear": y_value, "linear_classifier": y_three,
          "wide_deep_classifier": y_class, "wide_deep_regressor": y_value, "core": y_value}

def train(name, directory):
    est = MAKE[name](directory)
    fn = lambda: (features(), tf.constant(LABELS[name]))
    if name == "core":
        est.train(fn, steps=3)
        once = lambda: tf.data.Dataset.from_tensors({"x": x})  # one batch (constants would never run out)
        predictions = [p["predictions"] for p in est.predict(once, yield_single_examples=False)]
    else:
        est.fit(input_fn=fn, steps=3)
        classifier = hasattr(est, "predict_proba")
        predictions = (est.predict_proba if classifier else est.predict_scores)(input_fn=features, as_iterable=False)
    report(name, {"variables": {n: est.get_variable_value(n) for n in est.get_variable_names()},
                  "predictions": np.asarray(predictions)})
'''

TRAIN_AND_CONTINUE = MODELS + r'''
for name in MAKE:
    first = os.path.join(ORACLE_SHARED, name)
    est = MAKE[name](first)
    fn = lambda: (features(), tf.constant(LABELS[name]))
    (est.train if name == "core" else est.fit)(input_fn=fn, steps=3)
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
  for name in ("core", "dnn", "dnn_regressor", "linear", "linear_classifier"):
    assert theirs[name]["variables"]["global_step"] == 6, (name, theirs[name]["variables"]["global_step"])
  for name in ("wide_deep_classifier", "wide_deep_regressor"):  # TF 1.15: a step per optimizer
    assert theirs[name]["variables"]["global_step"] == 8, (name, theirs[name]["variables"]["global_step"])
  assert_same(theirs, ours, rtol=2e-5, atol=1e-6)
