"""tf.contrib.timeseries.StructuralEnsembleRegressor against TF 1.15: TF 1.15's state space models (the Kalman
filter; level and trend, a cycle, a moving average; ChainingStateManager's state carried between windows in hash
tables; StateInterpolatingAnomalyDetector) on a short series, trained from the same weights and prior means
on fixed windows: every checkpoint value and name after two steps, the evaluation over the whole series (with its
anomaly scores and filtered state), predict_continuation_input_fn's predictions, and the error for values of
another width. (Its SavedModel export and saved_model_utils are the same code as ARRegressor's, compared in
test_contrib_timeseries_oracle.py; a state space model's graph takes seconds to build on TF 1.15, so this keeps to
three Estimator calls.)"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries.StructuralEnsembleRegressor",)

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
ts = tf.contrib.timeseries
TIMES, VALUES = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES
times = np.arange(24, dtype=np.int64)
series = (np.sin(times / 3.0) + 0.1 * times / 24.0).astype(np.float32)[:, None]


class SeededStart(tf.train.SessionRunHook):
    """Both TensorFlows start from the same weights and prior means (their random initializers differ)."""
    def after_create_session(self, session, coord):
        if session.run(tf.train.get_global_step()) == 0:
            init_from_numpy(session, seed=1, var_list=tf.trainable_variables() + [
                v for v in tf.global_variables() if v.op.name.endswith("prior_state_mean")])


def fixed_windows(window_size, series, starts=(0, 7, 16)):
    def input_fn():
        index = np.array([range(s, s + window_size) for s in starts])
        return {TIMES: tf.constant(times[index]),
                VALUES: tf.constant(series[index].reshape(len(starts), window_size, -1))}, None
    return input_fn


# level and trend, a cycle, a moving average, anomaly detection; ChainingStateManager (the default) carries state
# from window to window. (Each feature gets components of its own: a second one doubles the graph, and its time.)
ensemble = ts.StructuralEnsembleRegressor(periodicities=6, num_features=1, cycle_num_latent_values=3,
                                          moving_average_order=1, anomaly_prior_probability=0.1,
                                          model_dir=os.path.abspath("ensemble"),
                                          config=tf.estimator.RunConfig(tf_random_seed=1))
ensemble.train(input_fn=fixed_windows(4, series), steps=2, hooks=[SeededStart()])
path = tf.train.latest_checkpoint(ensemble.model_dir)
report("checkpoint", {name: tf.train.load_variable(path, name) for name, _ in tf.train.list_variables(path)})
evaluation = ensemble.evaluate(input_fn=ts.WholeDatasetInputFn(ts.NumpyReader({TIMES: times, VALUES: series})),
                               steps=1)
report("evaluation", evaluation)
report("predictions", list(ensemble.predict(input_fn=ts.predict_continuation_input_fn(evaluation, steps=3))))
with case("error/values_of_another_width"):
    ensemble.evaluate(input_fn=fixed_windows(5, np.concatenate([series, series], axis=1)), steps=1)
'''


@requires_tf115
def test_structural_ensemble_regressor_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/values_of_another_width:error"] == "ValueError"
  assert "anomaly_score" in tf115["evaluation"]
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
