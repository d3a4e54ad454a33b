"""TF 1.15's state_space_models/varma.py (VARMA) against TF 1.15: the transition, noise transform and observation
model of VARMA(2, 1), VARMA(1, 2) and VARMA(3, 0) on two features with the same coefficient values, their
transition powers and accumulated noise, the variables made; and a StateSpaceRegressor around a bivariate
VARMA(2, 1) trained from the same weights and prior means on fixed windows: every checkpoint value and name after
two steps, the evaluation over the whole series and predict_continuation_input_fn's predictions."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries.WholeDatasetInputFn", "tf.contrib.timeseries.predict_continuation_input_fn")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
if tf.__version__.startswith("1."):  # the modules are internal in TF 1.15's tf.contrib.timeseries
    from tensorflow.contrib.timeseries.python.timeseries import estimators
    from tensorflow.contrib.timeseries.python.timeseries.state_space_models import state_space_model, varma
else:
    from tf1clip.contrib.timeseries import estimators
    from tf1clip.contrib.timeseries.state_space_models import state_space_model, varma
tf.logging.set_verbosity(tf.logging.ERROR)
tf1 = tf.compat.v1
ts = tf.contrib.timeseries
TIMES, VALUES = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES

with tf.Graph().as_default():
    steps = tf.constant([0, 1, 2, 4], dtype=tf.int64)
    fetch = {}
    for ar, ma in ((2, 1), (1, 2), (3, 0)):
        name = "varma_%d_%d" % (ar, ma)
        with tf1.variable_scope(name):
            model = varma.VARMA(autoregressive_order=ar, moving_average_order=ma,
                                configuration=state_space_model.StateSpaceModelConfiguration(
                                    num_features=2, dtype=tf.float64))
        model.initialize_graph()
        report(name + "/state_dimension", model.state_dimension)
        fetch[name + "/state_transition"] = model.get_state_transition()
        fetch[name + "/noise_transform"] = model.get_noise_transform()
        fetch[name + "/observation_model"] = model.get_broadcasted_observation_model(steps)
        fetch[name + "/transition_to_powers"] = model.transition_to_powers(steps)
        fetch[name + "/power_noise"] = model.transition_power_noise_accumulator(steps)
    report_variables()
    with tf1.Session() as sess:
        init_from_numpy(sess, seed=4)
        for key, value in sorted(sess.run(fetch).items()):
            report(key, value)

times = np.arange(20, dtype=np.int64)
series = np.stack([np.sin(times / 2.0), np.cos(times / 3.0) + 0.05 * times], axis=1).astype(np.float32)


class SeededStart(tf.train.SessionRunHook):
    """Both TensorFlows start from the same weights and prior means (their random initializers differ)."""
    def after_create_session(self, session, coord):
        if session.run(tf.train.get_global_step()) == 0:
            init_from_numpy(session, seed=1, var_list=tf.trainable_variables() + [
                v for v in tf.global_variables() if v.op.name.endswith("prior_state_mean")])


def fixed_windows(window_size, starts=(0, 6, 13)):
    def input_fn():
        index = np.array([range(s, s + window_size) for s in starts])
        return {TIMES: tf.constant(times[index]), VALUES: tf.constant(series[index])}, None
    return input_fn


regressor = estimators.StateSpaceRegressor(
    model=varma.VARMA(autoregressive_order=2, moving_average_order=1,
                      configuration=state_space_model.StateSpaceModelConfiguration(num_features=2)),
    model_dir=os.path.abspath("varma"), config=tf.estimator.RunConfig(tf_random_seed=1))
regressor.train(input_fn=fixed_windows(5), steps=2, hooks=[SeededStart()])
path = tf.train.latest_checkpoint(regressor.model_dir)
report("checkpoint", {name: tf.train.load_variable(path, name) for name, _ in tf.train.list_variables(path)})
evaluation = regressor.evaluate(input_fn=ts.WholeDatasetInputFn(ts.NumpyReader({TIMES: times, VALUES: series})),
                                steps=1)
report("evaluation", evaluation)
report("predictions", list(regressor.predict(input_fn=ts.predict_continuation_input_fn(evaluation, steps=3))))
'''


@requires_tf115
def test_varma_matrices_and_a_varma_state_space_regressor_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["varma_2_1/state_dimension"] == 4
  assert "loss" in tf115["evaluation"]
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
