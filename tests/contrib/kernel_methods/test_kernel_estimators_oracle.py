"""tf.contrib.kernel_methods.KernelLinearClassifier (TF 1.15's kernel_methods/python/kernel_estimators.py) against
TF 1.15: trained a few steps on a tiny dataset with mappers on a real-valued column (binary with the default Ftrl;
three classes with a weight column, an unmapped copy of the column and two mappers), then its weights (looked up by
role: tf.estimator's variable names differ, as for contrib.learn's LinearClassifier), evaluate, predict,
predict_classes and predict_proba.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.kernel_methods.KernelLinearClassifier", "tf.contrib.kernel_methods.RandomFourierFeatureMapper")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
km, tfprof = tf.contrib.kernel_methods, tf.contrib.tfprof
root = os.path.abspath("out")
# -- KernelLinearClassifier --------------------------------------------------------------------------------
rng = np.random.RandomState(0)
xs = rng.randn(20, 2).astype(np.float32)
col = tf.contrib.layers.real_valued_column("x", dimension=2)

def weights(estimator):
    names = [n for n in estimator.get_variable_names() if n.startswith("linear/") and "Ftrl" not in n]
    bias = [n for n in names if "bias" in n]
    return {"weights": [estimator.get_variable_value(n) for n in sorted(set(names) - set(bias))],
            "bias": [estimator.get_variable_value(n) for n in bias]}

def binary_input():
    return {"x": tf.constant(xs)}, tf.constant((np.sum(xs ** 2, 1) > 1.0).astype(np.int64))
features_only = lambda: binary_input()[0]
binary = km.KernelLinearClassifier(
    kernel_mappers={col: [km.RandomFourierFeatureMapper(2, 8, seed=3, name="a")]}, model_dir=root + "/binary")
binary.fit(input_fn=binary_input, steps=5)
report("binary_weights", weights(binary))
ev = binary.evaluate(input_fn=binary_input, steps=1)
report("binary_eval", {k: ev[k] for k in (
    "loss", "accuracy", "auc", "global_step", "labels/actual_label_mean", "labels/prediction_mean",
    "accuracy/threshold_0.500000_mean", "precision/positive_threshold_0.500000_mean",
    "recall/positive_threshold_0.500000_mean")})
preds = list(binary.predict(input_fn=features_only))
report("binary_predict", {k: np.array([p[k] for p in preds]) for k in preds[0]})
report("binary_classes", np.array(list(binary.predict_classes(input_fn=features_only))))
report("binary_proba", np.array(list(binary.predict_proba(input_fn=features_only))))

def three_input():
    return ({"x": tf.constant(xs), "w": tf.constant(np.linspace(0.5, 1.5, 20, dtype=np.float32))},
            tf.constant(((xs[:, 0] > 0).astype(np.int64) + (xs[:, 1] > 0.5)).reshape(20, 1)))
three = km.KernelLinearClassifier(
    feature_columns=[col], n_classes=3, weight_column_name="w", optimizer=tf.train.GradientDescentOptimizer(0.5),
    kernel_mappers={col: [km.RandomFourierFeatureMapper(2, 4, stddev=0.5, seed=1),
                          km.RandomFourierFeatureMapper(2, 3, seed=2)]},
    model_dir=root + "/three")
three.fit(input_fn=three_input, steps=4)
report("three_weights", weights(three))
ev = three.evaluate(input_fn=three_input, steps=1)
report("three_eval", {k: ev[k] for k in ("loss", "accuracy", "global_step")})
report("three_predict", three.predict(input_fn=lambda: three_input()[0], as_iterable=False))
report_errors("classifier_errors", [
    ("nothing", lambda: km.KernelLinearClassifier()),
    ("bad_mapper", lambda: km.KernelLinearClassifier(kernel_mappers={col: [object()]})),
    ("one_class", lambda: km.KernelLinearClassifier(feature_columns=[col], n_classes=1))])

'''


@requires_tf115
def test_kernel_linear_classifier_matches_tf115():
  tf115, ours = run_both(SNIPPET, timeout=300)
  assert tf115["binary_eval"]["global_step"] == 5, tf115
  assert_same(tf115, ours, rtol=2e-5, atol=2e-6)
