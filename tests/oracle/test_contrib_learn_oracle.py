"""tf.contrib.learn's estimator API against TF 1.15: a model_fn Estimator trained through fit(x, y) / SKCompat
(TF 1.15's DataFeeder batch order, across an epoch boundary), its evaluate / predict / MetricSpec results, the
canned linear models (same numbers: same zero initial weights, default Ftrl rate, mean loss, global-norm
gradient clipping) on the first feature-column API, DNNClassifier's API, Experiment / learn_runner, RunConfig,
and the errors. Stated differences: crossed_column's crosses land in other hash buckets than TF 1.15's
(its contrib-only SparseFeatureCross kernel), so crosses are left out of the numbers here. The canned estimators
are TF 1.15's model functions: their variable names and evaluate keys are compared too."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.learn.Estimator", "tf.contrib.learn.SKCompat", "tf.contrib.learn.ModelFnOps",
    "tf.contrib.learn.MetricSpec", "tf.contrib.learn.NotFittedError", "tf.contrib.learn.RunConfig",
    "tf.contrib.learn.infer_real_valued_columns_from_input", "tf.contrib.learn.LinearClassifier",
    "tf.contrib.learn.LinearRegressor", "tf.contrib.learn.DNNClassifier",
    "tf.contrib.learn.DNNRegressor", "tf.contrib.learn.Experiment",
    "tf.contrib.learn.DNNLinearCombinedClassifier", "tf.contrib.learn.DNNLinearCombinedRegressor",
"tf.contrib.layers.real_valued_column",
    "tf.contrib.layers.sparse_column_with_keys", "tf.contrib.layers.sparse_column_with_hash_bucket",
    "tf.contrib.layers.bucketized_column", "tf.contrib.layers.crossed_column",
    "tf.contrib.layers.infer_real_valued_columns", "tf.contrib.layers.create_feature_spec_for_parsing")

SNIPPET = r'''
import os, shutil
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
learn, layers = tf.contrib.learn, tf.contrib.layers
root = os.path.abspath("models")
rng = np.random.RandomState(0)
x = rng.randn(30, 4).astype(np.float32)
y3 = ((x[:, 0] > 0).astype(np.int64) + (x[:, 1] > 0))
yr = (x.dot([1.0, -2.0, 0.5, 0.0]) + 0.3).astype(np.float32)

def model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [4, 1], initializer=tf.constant_initializer(0.1))
    b = tf.get_variable("b", [], initializer=tf.zeros_initializer())
    pred = tf.squeeze(tf.matmul(features, w), 1) + b
    loss = tf.losses.mean_squared_error(labels, pred)
    train_op = tf.train.GradientDescentOptimizer(params["lr"]).minimize(
        loss, global_step=tf.train.get_global_step())
    return learn.ModelFnOps(mode=mode, predictions={"p": pred, "twice": 2 * pred}, loss=loss,
                            train_op=train_op,
                            eval_metric_ops={"rmse": tf.metrics.root_mean_squared_error(labels, pred)})

def tuple_model_fn(features, labels):
    w = tf.get_variable("w", [4, 1], initializer=tf.constant_initializer(-0.2))
    pred = tf.matmul(features, w)
    loss = tf.reduce_mean(tf.square(pred - tf.reshape(labels, [-1, 1])))
    return pred, loss, tf.train.AdagradOptimizer(0.3).minimize(loss, global_step=tf.train.get_global_step())

# -- a model_fn Estimator, through SKCompat and through fit(x, y) --------------------------------------------
sk = learn.SKCompat(learn.Estimator(model_fn=model_fn, model_dir=root + "/mf", params={"lr": 0.1}))
sk.fit(x, yr, batch_size=7, steps=5)          # 5 batches of 7 from 30 rows: crosses an epoch
report("mf_w", sk._estimator.get_variable_value("w"))
report("mf_score", sk.score(x, yr, batch_size=11))
report("mf_predict", sk.predict(x[:5], batch_size=2))
report("mf_predict_outputs", sk.predict(x[:3], outputs=["twice"]))
est = learn.Estimator(model_fn=model_fn, model_dir=root + "/mf2", params={"lr": 0.05})
est.fit(x=x, y=yr, steps=3)                   # batch_size None: all rows each step
est.fit(x=x, y=yr, max_steps=3)               # already there: no step
report("mf2_step", est.get_variable_value("global_step"))
report("mf2_w", est.get_variable_value("w"))
mae = learn.MetricSpec(metric_fn=tf.metrics.mean_absolute_error, prediction_key="p")
report("mf2_eval", est.evaluate(x=x, y=yr, metrics={"mae": mae}))
report("mf2_pred_iter", [p["p"] for p in est.predict(x=x[:4])])
report("mf2_pred_arrays", est.predict(x=x[:4], as_iterable=False)["p"])
tup = learn.Estimator(model_fn=tuple_model_fn, model_dir=root + "/tuple")
tup.fit(x=x, y=yr, batch_size=8, steps=6)
report("tuple_w", tup.get_variable_value("w"))
report("tuple_pred", np.array(list(tup.predict(x=x[:3]))))

# -- canned linear models on the first feature-column API: the same numbers ---------------------------------
def weights(estimator):
    names = [n for n in estimator.get_variable_names() if n.startswith("linear/") and "Ftrl" not in n]
    bias = [n for n in names if "bias" in n]
    return {"weights": [estimator.get_variable_value(n) for n in sorted(set(names) - set(bias))],
            "bias": [estimator.get_variable_value(n) for n in bias]}

columns = learn.infer_real_valued_columns_from_input(x)
lin = learn.LinearClassifier(feature_columns=columns, n_classes=3, model_dir=root + "/lin")
lin.fit(x=x, y=y3, steps=4, batch_size=12)
report("lin_weights", weights(lin))
ev = lin.evaluate(x=x, y=y3)
report("lin_eval", {k: ev[k] for k in ("loss", "accuracy", "global_step")})
report("lin_classes", np.array(list(lin.predict(x=x[:6]))))
report("lin_proba", lin.predict_proba(x=x[:3], as_iterable=False))
binary = learn.LinearClassifier(feature_columns=[layers.real_valued_column("", dimension=4)],
                                gradient_clip_norm=0.05, model_dir=root + "/binary")
binary.fit(x=x, y=(y3 > 0).astype(np.int64), steps=3)
report("binary_weights", weights(binary))
ev = binary.evaluate(x=x, y=(y3 > 0).astype(np.int64))
report("binary_eval", {k: ev[k] for k in ("loss", "accuracy", "auc", "labels/actual_label_mean",
                                          "labels/prediction_mean", "accuracy/threshold_0.500000_mean",
                                          "precision/positive_threshold_0.500000_mean",
                                          "recall/positive_threshold_0.500000_mean")})
reg = learn.LinearRegressor(feature_columns=[layers.real_valued_column("", dimension=4)],
                            optimizer=tf.train.GradientDescentOptimizer(0.05), model_dir=root + "/reg")
reg.fit(x=x, y=yr, steps=5, batch_size=10)
report("reg_weights", weights(reg))
report("reg_scores", reg.predict_scores(x=x[:4], as_iterable=False))
report("reg_eval_loss", reg.evaluate(x=x, y=yr)["loss"])

age = layers.real_valued_column("age")
color = layers.sparse_column_with_keys("color", keys=["red", "green", "blue"])
word = layers.sparse_column_with_hash_bucket("word", hash_bucket_size=7)
age_buckets = layers.bucketized_column(age, boundaries=[18, 30, 50])
cross = layers.crossed_column([color, age_buckets], hash_bucket_size=11)  # built, not in the numbers
report("cross_buckets", cross.hash_bucket_size)
report("parse_spec", sorted(layers.create_feature_spec_for_parsing([age, color, word]).keys()))
with tf.Graph().as_default():
    inferred = layers.infer_real_valued_columns({"a": tf.zeros([2, 3]), "b": tf.zeros([2, 2, 2], tf.float64)})
report("inferred", sorted((c.name, c.dtype.name) for c in inferred))

def wide_input():
    features = {
        "age": tf.constant([[17.0], [25.0], [40.0], [70.0], [33.0]]),
        "color": tf.SparseTensor(indices=[[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]],
                                 values=["red", "blue", "green", "purple", "red"], dense_shape=[5, 1]),
        "word": tf.SparseTensor(indices=[[0, 0], [1, 0], [1, 1], [3, 0], [4, 0]],
                                values=["a", "b", "c", "a", "d"], dense_shape=[5, 2])}
    return features, tf.constant([[1.0], [0.0], [2.0], [1.5], [0.5]])
wide = learn.LinearRegressor(feature_columns=[age, color, word, age_buckets],
                             model_dir=root + "/wide")
wide.fit(input_fn=wide_input, steps=4)
report("wide_scores", wide.predict(input_fn=lambda: wide_input()[0], as_iterable=False))
report("wide_loss", wide.evaluate(input_fn=wide_input, steps=1)["loss"])

# -- DNNClassifier: the API (its hidden layers start from random values on both sides) ----------------------
dnn = learn.DNNClassifier(hidden_units=[8, 4], feature_columns=columns, n_classes=3,
                          model_dir=root + "/dnn", config=learn.RunConfig(tf_random_seed=1))
dnn.fit(x=x, y=y3, steps=3)
report("dnn_step", dnn.get_variable_value("global_step"))
classes = list(dnn.predict(x=x[:5]))
report("dnn_classes_in_range", all(0 <= int(c) < 3 for c in classes) and len(classes) == 5)
proba = dnn.predict_proba(x=x[:5], as_iterable=False)
report("dnn_proba", {"shape": list(proba.shape), "row_sums": proba.sum(axis=1)})
both = list(dnn.predict(x=x[:2], outputs=["classes", "probabilities"]))
report("dnn_outputs", sorted(both[0].keys()))
report("dnn_eval_keys", sorted(k for k in dnn.evaluate(x=x, y=y3).keys()))
dr = learn.DNNRegressor(hidden_units=[3], feature_columns=columns, model_dir=root + "/dr")
dr.fit(x=x, y=yr, steps=2)
report("dr_scores_shape", list(dr.predict(x=x[:4], as_iterable=False).shape))
wd = learn.DNNLinearCombinedClassifier(linear_feature_columns=columns, dnn_feature_columns=columns,
                                       dnn_hidden_units=[4], n_classes=3, model_dir=root + "/wd")
wd.fit(x=x, y=y3, steps=2)
report("wd_classes", [0 <= int(c) < 3 for c in wd.predict(x=x[:3])])
wdr = learn.DNNLinearCombinedRegressor(linear_feature_columns=columns, model_dir=root + "/wdr")
wdr.fit(x=x, y=yr, steps=3, batch_size=12)   # a linear part only: TF 1.15's numbers (its Ftrl rate, 0.2 here)
report("wdr_scores", wdr.predict(x=x[:4], as_iterable=False))
report("variable_names", {name: e.get_variable_names() for name, e in (
    ("lin", lin), ("binary", binary), ("reg", reg), ("wide", wide), ("dnn", dnn), ("dr", dr), ("wd", wd),
    ("wdr", wdr))})

# -- Experiment and learn_runner ------------------------------------------------------------------------------
def experiment_fn(output_dir):
    estimator = learn.Estimator(model_fn=model_fn, model_dir=output_dir, params={"lr": 0.1})
    train = lambda: (tf.constant(x), tf.constant(yr))
    return learn.Experiment(estimator, train_input_fn=train, eval_input_fn=train, train_steps=4,
                            eval_steps=1, min_eval_frequency=None)
eval_result, exports = learn.learn_runner.run(experiment_fn, output_dir=root + "/exp")
report("experiment", {"loss": eval_result["loss"], "rmse": eval_result["rmse"],
                      "global_step": eval_result["global_step"], "exports": exports})
exp = experiment_fn(root + "/exp2")
exp.train()
report("experiment_evaluate", exp.evaluate(delay_secs=0)["loss"])

# -- RunConfig --------------------------------------------------------------------------------------------
rc = learn.RunConfig(num_cores=2, tf_random_seed=7, save_checkpoints_steps=10, keep_checkpoint_max=3)
report("run_config", {"secs": rc.save_checkpoints_secs, "steps": rc.save_checkpoints_steps,
                      "seed": rc.tf_random_seed, "keep": rc.keep_checkpoint_max,
                      "threads": rc.tf_config.inter_op_parallelism_threads,
                      "default_secs": learn.RunConfig().save_checkpoints_secs,
                      "is_chief": rc.is_chief, "master": rc.master, "num_ps": rc.num_ps_replicas})

# -- errors ------------------------------------------------------------------------------------------------
def no_params_fn(features, labels):
    return features, tf.constant(0.0), tf.no_op()
report_errors("errors", [
    ("missing_train_op", lambda: learn.ModelFnOps(mode="train", loss=tf.constant(1.0))),
    ("missing_loss", lambda: learn.ModelFnOps(mode="eval", predictions=tf.constant(1.0))),
    ("bad_mode", lambda: learn.ModelFnOps(mode="fit", loss=tf.constant(1.0))),
    ("params_not_taken", lambda: learn.Estimator(model_fn=no_params_fn, params={"a": 1})),
    ("x_and_input_fn", lambda: est.fit(x=x, y=yr, input_fn=lambda: None)),
    ("steps_and_max_steps", lambda: est.fit(x=x, y=yr, steps=1, max_steps=2)),
    ("nothing", lambda: est.fit()),
    ("tensor_x", lambda: est.fit(x=tf.constant(x), y=yr)),
    ("not_fitted", lambda: list(learn.Estimator(model_fn=model_fn, model_dir=root + "/empty",
                                                params={"lr": 1.0}).predict(x=x))),
    ("batch_size_0", lambda: sk.fit(x, yr, batch_size=0, steps=1)),
    ("metrics_not_dict", lambda: est.evaluate(x=x, y=yr, metrics=[mae])),
    ("outputs_missing", lambda: list(est.predict(x=x[:2], outputs=["nope"]))),
    ("runner_both", lambda: learn.learn_runner.run(experiment_fn, output_dir="a",
                                                   run_config=learn.RunConfig(model_dir="b"))),
    ("runner_neither", lambda: learn.learn_runner.run(experiment_fn)),
    ("experiment_not_estimator", lambda: learn.Experiment(object(), None, None)),
    ("bad_schedule", lambda: learn.learn_runner.run(experiment_fn, output_dir=root + "/s", schedule="nope")),
    ("real_valued_0", lambda: layers.real_valued_column("a", dimension=0)),
    ("wide_and_deep_no_columns", lambda: learn.DNNLinearCombinedRegressor()),
    ("real_valued_string", lambda: layers.real_valued_column("a", dtype=tf.string)),
    ("metric_spec_no_labels", lambda: learn.MetricSpec(lambda predictions: predictions, label_key="y")),
])
'''


@requires_tf115
def test_contrib_learn_estimators_match_tf115():
  tf115, ours = run_both(SNIPPET, timeout=600)
  assert tf115["mf2_step"] == 3 and tf115["dnn_step"] == 3
  assert tf115["errors"]["not_fitted"] == "NotFittedError", tf115["errors"]
  assert_same(tf115, ours, rtol=2e-5, atol=2e-6)
