"""tf.contrib.predictor against TF 1.15: from_saved_model and from_estimator on an estimator trained from constant
weights (the same outputs, feed and fetch keys), a named signature, and the errors of bad arguments (an unknown
signature key is an error here, an empty predictor in TF 1.15: stated below).

from_contrib_estimator (CONTRIB_ESTIMATOR_SNIPPET): a contrib.learn Estimator's feeds, fetches and predictions.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.predictor.from_saved_model", "tf.contrib.predictor.from_estimator")

ORACLE_TESTED = ORACLE_TESTED + ("tf.contrib.predictor.from_contrib_estimator",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
x = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
y = x.sum(1, keepdims=True)

def model_fn(features, labels, mode):
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.2))
    pred = tf.matmul(features["x"], w)
    outputs = {"serving_default": tf.estimator.export.PredictOutput({"y": pred}),
               "doubled": tf.estimator.export.PredictOutput({"y2": 2 * pred})}
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": pred}, export_outputs=outputs)
    loss = tf.losses.mean_squared_error(labels, pred)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, predictions={"y": pred})

est = tf.estimator.Estimator(model_fn, model_dir=os.path.abspath("model"))
est.train(lambda: tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(4).repeat(), steps=3)

def receiver():
    placeholder = tf.placeholder(tf.float32, [None, 3], name="x_in")
    return tf.estimator.export.ServingInputReceiver({"x": placeholder}, {"x": placeholder})

export_dir = est.export_saved_model(os.path.abspath("export"), receiver)
saved = tf.contrib.predictor.from_saved_model(export_dir)
report("saved_keys", [sorted(saved.feed_tensors), sorted(saved.fetch_tensors)])
report("saved_out", saved({"x": x}))
named = tf.contrib.predictor.from_saved_model(export_dir, signature_def_key="doubled")
report("named_out", named({"x": x[:2]}))
from_est = tf.contrib.predictor.from_estimator(est, receiver)
report("est_keys", [sorted(from_est.feed_tensors), sorted(from_est.fetch_tensors)])
report("est_out", from_est({"x": x}))
report_errors("errors", (
    ("unknown_input", lambda: saved({"z": x})),
    ("names_half", lambda: tf.contrib.predictor.from_saved_model(export_dir, input_names={"x": "x_in:0"})),
    ("two_choices", lambda: tf.contrib.predictor.from_saved_model(export_dir, signature_def_key="a",
                                                                  input_names={}, output_names={})),
    ("bad_signature", lambda: tf.contrib.predictor.from_saved_model(export_dir, signature_def_key="nope")),
    ("bad_output_key", lambda: tf.contrib.predictor.from_estimator(est, receiver, output_key="nope"))))
'''


@requires_tf115
def test_predictor_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["saved_keys"] == [["x"], ["y"]]
  # A signature key the SavedModel lacks: TF 1.15 indexed the protobuf map, which silently made an empty
  # signature (a predictor with nothing to feed or fetch); tf1clip names the key and the signatures there
  # (a stated difference).
  assert tf115["errors"].pop("bad_signature") == "no error"
  assert ours["errors"].pop("bad_signature") == "ValueError"
  assert_same(tf115, ours, rtol=1e-6, atol=1e-6)


CONTRIB_ESTIMATOR_SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
side = "tf115" if tf.__version__.startswith("1.") else "tf1clip"
base = os.path.join(ORACLE_SHARED, side)
# -- predictor.from_contrib_estimator -------------------------------------------------------------------------
learn = tf.contrib.learn
def model_fn(features, labels, mode):
    wv = tf.get_variable("w", [2, 1], initializer=tf.constant_initializer([[0.5], [-1.0]]))
    pred = tf.matmul(features["x"], wv)
    loss = None if labels is None else tf.losses.mean_squared_error(labels, pred)
    train_op = None
    if mode == learn.ModeKeys.TRAIN:
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
    return learn.ModelFnOps(mode=mode, predictions={"y": pred, "double": 2 * pred}, loss=loss, train_op=train_op)
est = learn.Estimator(model_fn=model_fn, model_dir=os.path.join(base, "estimator"))
xs = np.array([[1., 2.], [3., 4.]], np.float32)
est.fit(input_fn=lambda: ({"x": tf.constant(xs)}, tf.constant([[1.], [2.]])), steps=2)
def prediction_input_fn():
    xin = tf.placeholder(tf.float32, [None, 2], name="xin")
    return learn.InputFnOps({"x": xin}, None, {"inp": xin})
predictor = tf.contrib.predictor.from_contrib_estimator(est, prediction_input_fn)
report("predictor", [sorted(predictor.feed_tensors), sorted(predictor.fetch_tensors), predictor({"inp": xs})])
report_errors("predictor_errors", [("output_key", lambda: tf.contrib.predictor.from_contrib_estimator(
    est, prediction_input_fn, output_alternative_key="nope"))])
'''


@requires_tf115
def test_from_contrib_estimator_matches_tf115():
  tf115, ours = run_both(CONTRIB_ESTIMATOR_SNIPPET)
  assert_same(tf115, ours)
