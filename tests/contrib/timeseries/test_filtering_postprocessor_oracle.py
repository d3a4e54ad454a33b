"""TF 1.15's state_space_models/filtering_postprocessor.py against TF 1.15, in float64 on fixed batches:
cauchy_alternative_to_gaussian's log densities, and StateInterpolatingAnomalyDetector's interpolated state
(nested, with an integer time part), loss and anomaly scores for two prior probabilities and responsibility
scalings, with their gradients; the error for time parts that disagree."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
if tf.__version__.startswith("1."):  # the module is internal in TF 1.15's tf.contrib.timeseries
    from tensorflow.contrib.timeseries.python.timeseries.state_space_models import filtering_postprocessor as fp
else:
    from tf1clip.contrib.timeseries.state_space_models import filtering_postprocessor as fp
tf1 = tf.compat.v1
rng = np.random.RandomState(1)
batch, features, states = 4, 2, 3
a = rng.randn(batch, features, features)
covariance = tf.constant(np.matmul(a, a.transpose(0, 2, 1)) + np.eye(features))
mean = tf.Variable(rng.randn(batch, features), name="mean")
values = tf.constant(rng.randn(batch, features) * [[1.], [4.], [0.5], [12.]])
times = tf.constant([3, 4, 5, 6], tf.int64)
outputs = {"mean": mean, "covariance": covariance, "log_likelihood": tf.constant(-rng.rand(batch) * 6.0)}
predicted = (tf.constant(rng.randn(batch, states)), {"cov": tf.constant(rng.randn(batch, states, states))}, times)
filtered_mean = tf.Variable(rng.randn(batch, states), name="filtered")
filtered = (tf.identity(filtered_mean),
            {"cov": tf.constant(rng.randn(batch, states, states))}, times)
fetch = {"cauchy": fp.cauchy_alternative_to_gaussian(times, values, outputs)}
report("output_names", fp.StateInterpolatingAnomalyDetector.output_names)
for name, detector in (("default", fp.StateInterpolatingAnomalyDetector()),
                       ("prior_0.2_scaling_0.5", fp.StateInterpolatingAnomalyDetector(
                           anomaly_prior_probability=0.2, responsibility_scaling=0.5))):
    state, new_outputs = detector.process_filtering_step(
        current_times=times, current_values=values, predicted_state=predicted, filtered_state=filtered,
        outputs=dict(outputs))
    fetch[name] = {"state": tf.nest.flatten(state), "loss": new_outputs["loss"],
                   "anomaly_score": new_outputs["anomaly_score"],
                   "gradients": tf.gradients(tf.reduce_sum(new_outputs["loss"]) + tf.reduce_sum(state[0]),
                                             [mean, filtered_mean])}
other_times = (predicted[0], predicted[1], times + 1)
bad_state, _ = fp.StateInterpolatingAnomalyDetector().process_filtering_step(
    times, values, other_times, filtered, dict(outputs))
with tf1.Session() as sess:
    sess.run(tf1.global_variables_initializer())
    for key, value in sorted(sess.run(fetch).items()):
        report(key, value)
    with case("error/times_disagree"):
        sess.run(bad_state[2])
'''


@requires_tf115
def test_anomaly_detector_interpolation_and_cauchy_scores_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/times_disagree:error"] == "InvalidArgumentError"
  assert_same(tf115, ours, rtol=1e-10, atol=1e-10)
