"""Old estimator checkpoints restore: tf.estimator's canned estimators, trained three steps on TF 1.15 into a
model_dir, train on under tf1clip from that model_dir (the estimator finds the checkpoint itself) and end where TF
1.15's own continuation of a copy of that model_dir ends: every variable (weights, Adagrad / Ftrl slots, the global
step) and the predictions.

Not here yet: contrib.learn's canned estimators (DNNClassifier, LinearRegressor, ...). tf1clip builds them on
tf.estimator's canned models, whose variable names are not TF 1.15's contrib.learn ones (docs/contrib.md), so a TF
1.15 contrib.learn checkpoint does not restore into them."""

import os
import tempfile

from harness import assert_same, requires_tf115, run_tf115, run_tf1clip

ORACLE_TESTED = ("tf.estimator.DNNLinearCombinedRegressor",)

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
}
LEARN = {
    "dnn": lambda d: learn.DNNClassifier(hidden_units=[4], feature_columns=[layers.real_valued_column("x", 3)],
                                         n_classes=2, model_dir=d),
    "linear": lambda d: learn.LinearRegressor(feature_columns=[layers.real_valued_column("x", 3), color],
                                              model_dir=d),
}
LABELS = {"dnn": y_class, "linear": y_value, "core": y_value}

def train(name, directory):
    est = MAKE[name](directory)
    fn = lambda: (features(), tf.constant(LABELS[name]))
    if name == "core":
        est.train(fn, steps=3)
        once = lambda: tf.data.Dataset.from_tensors({"x": x})  # one batch (constants would never run out)
        predictions = [p["predictions"] for p in est.predict(once, yield_single_examples=False)]
    else:
        est.fit(input_fn=fn, steps=3)
        predictions = est.predict(input_fn=features, as_iterable=False)
        predictions = predictions.get("probabilities", predictions) if isinstance(predictions, dict) else predictions
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
  for name in ("core",):
    assert theirs[name]["variables"]["global_step"] == 6, (name, theirs[name]["variables"]["global_step"])
  assert_same(theirs, ours, rtol=2e-5, atol=1e-6)
