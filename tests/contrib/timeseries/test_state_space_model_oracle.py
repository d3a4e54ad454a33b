"""TF 1.15's state_space_models/state_space_model.py against TF 1.15, on the models themselves (no Estimator): an
independent ensemble (level/trend + a cycle) filtering a window with gaps in train and eval mode, with exogenous
features that both set and shift the state under an update condition, and predicting on from its end state (loss,
end state, per-step outputs and the gradients of every variable); a correlated-features ensemble over two features
with a trainable start state; StateSpaceModelConfiguration's defaults; generate() from random_model_parameters();
the ensembles' errors."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries.TrainEvalFeatures",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
if tf.__version__.startswith("1."):  # the modules are internal in TF 1.15's tf.contrib.timeseries
    from tensorflow.contrib.timeseries.python.timeseries.state_space_models import (
        level_trend, periodic, state_space_model as ssm, varma)
    from tensorflow.contrib.timeseries.python.timeseries.feature_keys import PredictionFeatures
else:
    from tf1clip.contrib.timeseries.state_space_models import level_trend, periodic, state_space_model as ssm, varma
    from tensorflow_estimator.python.estimator.canned.timeseries.feature_keys import PredictionFeatures
tf1 = tf.compat.v1
ts = tf.contrib.timeseries
TIMES, VALUES = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES
TRAIN, EVAL = tf.estimator.ModeKeys.TRAIN, tf.estimator.ModeKeys.EVAL

defaults = ssm.StateSpaceModelConfiguration()
report("configuration_fields", list(defaults._fields))
report("configuration_defaults", {k: v for k, v in defaults._asdict().items()
                                  if k not in ("dtype", "covariance_prior_fn")})
report("configuration_dtype", defaults.dtype.name)

times = np.array([[0, 1, 3, 4, 7], [2, 3, 4, 6, 8]], dtype=np.int64)
values = np.array([[0.5, 0.9, 1.7, 1.2, 2.5], [-0.3, 0.1, 0.4, -0.2, 0.8]])[..., None]
load = np.array([[1., 0., 2., 1., 0.5], [0., 1., 1., 3., 2.]])


def start_state(model, batch):
    mean, covariance, time = model.get_start_state()
    return (tf.tile(mean[None], [batch, 1]), tf.tile(covariance[None], [batch, 1, 1]),
            tf.tile(tf.reshape(time, [1]), [batch]))


def window_results(name, model, features, mode):
    outputs = model.get_batch_loss(features=features, mode=mode, state=start_state(model, 2))
    fetched = {"loss": outputs.loss, "end_state": list(outputs.end_state), "predictions": outputs.predictions}
    if mode == TRAIN:
        variables = sorted(tf1.trainable_variables(), key=lambda v: v.op.name)
        fetched["gradients"] = {v.op.name: g for v, g in zip(variables, tf.gradients(outputs.loss, variables))
                                if g is not None}
    return fetched, outputs.end_state


fetch = {}
with tf.Graph().as_default():
    config = ssm.StateSpaceModelConfiguration(
        dtype=tf.float64, exogenous_feature_columns=[tf1.feature_column.numeric_column("load")],
        exogenous_noise_decreases=True, exogenous_noise_increases=True,
        exogenous_update_condition=lambda times, features: tf.equal(times % 2, 0))
    members_config = config._replace(use_observation_noise=False)
    with tf1.variable_scope("adder"):
        adder = level_trend.AdderStateSpaceModel(configuration=members_config)
    with tf1.variable_scope("cycle"):
        cycle = periodic.CycleStateSpaceModel(periodicity=3, configuration=members_config)
    ensemble = ssm.StateSpaceIndependentEnsemble(ensemble_members=[adder, cycle], configuration=config)
    ensemble.initialize_graph()
    features = {TIMES: tf.constant(times), VALUES: tf.constant(values), "load": tf.constant(load)}
    fetch["independent/train"], _ = window_results("independent", ensemble, features, TRAIN)
    with tf1.variable_scope(tf1.get_variable_scope(), reuse=True):  # the exogenous layers' variables
        fetch["independent/eval"], end_state = window_results("independent", ensemble, features, EVAL)
        fetch["independent/predict"] = ensemble.predict(features={
            PredictionFeatures.TIMES: tf.constant([[9, 10, 12], [9, 11, 12]], tf.int64),
            PredictionFeatures.STATE_TUPLE: end_state, "load": tf.constant([[1., 2., 0.], [0., 0., 1.]])})
    fetch["independent/prior"] = [ensemble.prior_state_mean, ensemble.prior_state_var]
    report_variables("independent/variables")
    with tf1.Session() as sess:
        init_from_numpy(sess, seed=3)
        for key, value in sorted(sess.run(fetch).items()):
            report(key, value)

fetch = {}
with tf.Graph().as_default():
    config = ssm.StateSpaceModelConfiguration(num_features=2, dtype=tf.float64, trainable_start_state=True,
                                              bayesian_prior_weighting=False)
    members = []
    for feature in range(2):
        with tf1.variable_scope("feature%d" % feature):
            members.append(level_trend.AdderStateSpaceModel(
                configuration=config._replace(num_features=1, use_observation_noise=False)))
    correlated = ssm.StateSpaceCorrelatedFeaturesEnsemble(ensemble_members=members, configuration=config)
    correlated.initialize_graph()
    two_features = np.concatenate([values, values[..., ::-1] * 2.0 + 1.0], axis=2)
    features = {TIMES: tf.constant(times), VALUES: tf.constant(two_features)}
    fetch["correlated/train"], _ = window_results("correlated", correlated, features, TRAIN)
    fetch["correlated/eval"], _ = window_results("correlated", correlated, features, EVAL)
    fetch["correlated/observation_model"] = correlated.get_broadcasted_observation_model(tf.constant([0, 1]))
    fetch["correlated/prior"] = [correlated.prior_state_mean, correlated.prior_state_var]
    report_variables("correlated/variables")
    with tf1.Session() as sess:
        init_from_numpy(sess, seed=7)
        for key, value in sorted(sess.run(fetch).items()):
            report(key, value)
    with case("error/members_not_features"):
        ssm.StateSpaceCorrelatedFeaturesEnsemble(ensemble_members=members[:1], configuration=config)
    with case("error/multivariate_member"):
        ssm.StateSpaceCorrelatedFeaturesEnsemble(ensemble_members=[correlated, members[0]], configuration=config)

with tf.Graph().as_default():
    with tf1.variable_scope("arma"):
        arma = varma.VARMA(autoregressive_order=2, moving_average_order=1,
                           configuration=ssm.StateSpaceModelConfiguration(dtype=tf.float64))
    arma.initialize_graph()
    with tf1.Session() as sess:
        init_from_numpy(sess, seed=9)
        with sess.as_default():
            parameters = arma.random_model_parameters(seed=4)
            report("generate/parameters", sorted([t.name, np.asarray(v).tolist()] for t, v in parameters.items()))
            report("generate/series", arma.generate(number_of_series=2, series_length=6,
                                                    model_parameters=parameters, seed=5))
            report("generate/trained_values", arma.generate(number_of_series=1, series_length=4, seed=6,
                                                            add_observation_noise=False))
'''


@requires_tf115
def test_state_space_models_filter_predict_and_generate_as_on_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/members_not_features:error"] == "ValueError"
  assert tf115["error/multivariate_member:error"] == "ValueError"
  exogenous = [name for name, _ in tf115["independent/variables"] if "exogenous_noise" in name]
  assert len(exogenous) == 8, exogenous  # weights and biases of the two updates' two layers
  assert len(tf115["independent/train"]["gradients"]) > len(exogenous)
  assert_same(tf115, ours, rtol=1e-7, atol=1e-8)
