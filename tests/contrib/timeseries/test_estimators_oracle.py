"""tf.contrib.timeseries' Estimators (estimators.py) against TF 1.15: what each constructor builds, seen through
training from the same weights (every checkpoint name and value), evaluation and prediction.

ARRegressor: the Gaussian anomaly mixture, exogenous columns with more time buckets; its errors, including TF
1.15's AssertionError for a mixture without anomaly_distribution (documented as defaulting to Gaussian, passed on
as None). StateSpaceRegressor (module-level in TF 1.15, reached through the module on each side): an
AdderStateSpaceModel under the default ChainingStateManager, and the error for a model that is no state space
model. StructuralEnsembleRegressor with an autoregressive part, two periodicities, an exogenous column with an
update condition, float32 and a given optimizer. TimeSeriesRegressor with OneShotPredictionHead exported through
build_one_shot_parsing_serving_input_receiver_fn and served tf.Examples.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries.ARRegressor", "tf.contrib.timeseries.StructuralEnsembleRegressor",
                 "tf.contrib.timeseries.TimeSeriesRegressor")

SNIPPET = r'''
import importlib
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
ts = tf.contrib.timeseries
TF115 = tf.__version__.startswith("1.")
root = "tensorflow.contrib.timeseries.python.timeseries" if TF115 else "tf1clip.contrib.timeseries"
estimators = importlib.import_module(root + ".estimators")
level_trend = importlib.import_module(root + ".state_space_models.level_trend")
TIMES, VALUES = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES


def signature(function):
    """Parameter names and defaults (a class or dtype default by its name)."""
    import inspect
    out = []
    for p in inspect.signature(function).parameters.values():
        default = p.default
        if default is inspect.Parameter.empty:
            default = "<required>"
        elif not isinstance(default, (bool, int, float, str, tuple, type(None))):
            default = getattr(default, "__name__", None) or getattr(default, "name", None) or type(default).__name__
        out.append([p.name, default])
    return out



report("signatures", {name: signature(getattr(estimators, name).__init__) for name in (
    "TimeSeriesRegressor", "ARRegressor", "StateSpaceRegressor", "StructuralEnsembleRegressor")})
report("served", [ts.ARRegressor is estimators.ARRegressor, ts.TimeSeriesRegressor is estimators.TimeSeriesRegressor,
                  ts.StructuralEnsembleRegressor is estimators.StructuralEnsembleRegressor,
                  issubclass(estimators.StructuralEnsembleRegressor, estimators.StateSpaceRegressor),
                  issubclass(estimators.StateSpaceRegressor, estimators.TimeSeriesRegressor),
                  issubclass(estimators.ARRegressor, estimators.TimeSeriesRegressor)])
times = np.arange(28, dtype=np.int64)
values = (np.cos(times / 3.0) + 0.03 * times).astype(np.float32)
load = (times % 3).astype(np.float32)
config = tf.estimator.RunConfig(tf_random_seed=1)
whole = ts.WholeDatasetInputFn(ts.NumpyReader({TIMES: times, VALUES: values, "load": load[:, None]}))


class SeededStart(tf.train.SessionRunHook):
    """Both TensorFlows start from the same weights and prior means (their random initializers differ)."""
    def after_create_session(self, session, coord):
        if session.run(tf.train.get_global_step()) == 0:
            init_from_numpy(session, seed=4, var_list=tf.trainable_variables() + [
                v for v in tf.global_variables() if v.op.name.endswith("prior_state_mean")])


def fixed_windows(window_size, starts=(0, 5, 11, 19)):
    def input_fn():
        index = np.array([range(s, s + window_size) for s in starts])
        return {TIMES: tf.constant(times[index]), VALUES: tf.constant(values[index][..., None]),
                "load": tf.constant(load[index][..., None])}, None
    return input_fn


def checkpoint(estimator):
    path = tf.train.latest_checkpoint(estimator.model_dir)
    return {name: tf.train.load_variable(path, name) for name, _ in tf.train.list_variables(path)}


def train(key, estimator, window_size, steps=2, evaluate=True):
    estimator.train(input_fn=fixed_windows(window_size), steps=steps, hooks=[SeededStart()])
    report(key + "/checkpoint", checkpoint(estimator))
    if evaluate:
        evaluation = estimator.evaluate(input_fn=whole, steps=1)
        report(key + "/evaluation", evaluation)
        return evaluation


# --- ARRegressor ----------------------------------------------------------------------------------------------
gaussian = ts.ARRegressor(periodicities=7, input_window_size=3, output_window_size=1, num_features=1,
                          anomaly_prior_probability=0.2, anomaly_distribution="gaussian",
                          model_dir=os.path.abspath("gaussian"), config=config)
train("gaussian", gaussian, 4, evaluate=False)
exogenous = ts.ARRegressor(periodicities=[4, 7], input_window_size=3, output_window_size=2, num_features=1,
                           num_time_buckets=5, hidden_layer_sizes=[3],
                           exogenous_feature_columns=[tf.feature_column.numeric_column("load")],
                           model_dir=os.path.abspath("exogenous"), config=config)
evaluation = train("exogenous", exogenous, 5)
report("exogenous/predictions", list(exogenous.predict(input_fn=ts.predict_continuation_input_fn(
    evaluation, steps=2, exogenous_features={"load": np.array([[[1.0], [2.0]]], np.float32)}))))
with case("ar/mixture_without_distribution"):
    ts.ARRegressor(periodicities=7, input_window_size=3, output_window_size=1, num_features=1,
                   anomaly_prior_probability=0.2)
with case("ar/unknown_distribution"):
    ts.ARRegressor(periodicities=7, input_window_size=3, output_window_size=1, num_features=1,
                   anomaly_prior_probability=0.2, anomaly_distribution="laplace")
with case("ar/distribution_without_prior"):
    ts.ARRegressor(periodicities=7, input_window_size=3, output_window_size=1, num_features=1,
                   anomaly_distribution="gaussian")
with case("ar/mixture_squared_loss"):
    ts.ARRegressor(periodicities=7, input_window_size=3, output_window_size=1, num_features=1,
                   anomaly_prior_probability=0.2, anomaly_distribution="gaussian", loss=ts.ARModel.SQUARED_LOSS)

# --- StateSpaceRegressor --------------------------------------------------------------------------------------
adder = estimators.StateSpaceRegressor(level_trend.AdderStateSpaceModel(), model_dir=os.path.abspath("adder"),
                                       config=config)
evaluation = train("adder", adder, 6)
report("adder/predictions", list(adder.predict(input_fn=ts.predict_continuation_input_fn(evaluation, steps=2))))
with case("state_space/not_a_state_space_model"):
    estimators.StateSpaceRegressor(ts.ARModel(periodicities=7, input_window_size=3, output_window_size=1,
                                              num_features=1))

# --- StructuralEnsembleRegressor ------------------------------------------------------------------------------
ensemble = ts.StructuralEnsembleRegressor(
    periodicities=[4, 7], num_features=1, cycle_num_latent_values=3, moving_average_order=1, autoregressive_order=1,
    exogenous_feature_columns=[tf.feature_column.numeric_column("load")],
    exogenous_update_condition=lambda times, features: tf.equal(times % 2, 0), dtype=tf.float32,
    optimizer=tf.train.GradientDescentOptimizer(0.01), model_dir=os.path.abspath("ensemble"), config=config)
evaluation = train("ensemble", ensemble, 5)

# --- TimeSeriesRegressor with OneShotPredictionHead, served tf.Examples ---------------------------------------
one_shot = ts.TimeSeriesRegressor(
    ts.ARModel(periodicities=7, input_window_size=3, output_window_size=2, num_features=1,
               exogenous_feature_columns=[tf.feature_column.numeric_column("load")]),
    head_type=ts.OneShotPredictionHead, model_dir=os.path.abspath("one_shot"), config=config)
train("one_shot", one_shot, 5, evaluate=False)
export_dir = one_shot.export_saved_model(os.path.abspath("export"),
                                         one_shot.build_one_shot_parsing_serving_input_receiver_fn(
                                             filtering_length=5, prediction_length=2))
examples = []
for start in (3, 12):
    examples.append(tf.train.Example(features=tf.train.Features(feature={
        TIMES: tf.train.Feature(int64_list=tf.train.Int64List(value=times[start:start + 7].tolist())),
        VALUES: tf.train.Feature(float_list=tf.train.FloatList(value=values[start:start + 5].tolist())),
        "load": tf.train.Feature(float_list=tf.train.FloatList(value=load[start:start + 7].tolist()))}))
        .SerializeToString())
with tf.Graph().as_default():
    with tf.Session() as session:
        signatures = tf.saved_model.loader.load(session, [tf.saved_model.tag_constants.SERVING], export_dir)
        signature = signatures.signature_def["serving_default"]
        report("one_shot/signature", [sorted(signatures.signature_def), sorted(signature.inputs),
                                      sorted(signature.outputs)])
        (input_name,) = [v.name for v in signature.inputs.values()]
        report("one_shot/predictions", session.run({k: v.name for k, v in signature.outputs.items()},
                                                   {input_name: examples}))
'''


@requires_tf115
def test_estimators_build_tf115s_models_and_defaults():
  tf115, ours = run_both(SNIPPET)
  assert tf115["ar/mixture_without_distribution:error"] == "AssertionError"
  assert tf115["state_space/not_a_state_space_model:error"] == "ValueError"
  assert any("Adagrad" in name for name in tf115["exogenous/checkpoint"])
  assert "mean" in tf115["one_shot/predictions"]
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
