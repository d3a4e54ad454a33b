"""TF 1.15's state_space_models/kalman_filter.py (KalmanFilter) against TF 1.15, in float64 on fixed batches:
predict_state_mean / predict_state_var for k-step transitions, observed_from_state, and do_filter's log
likelihoods and posteriors with one observation noise matrix and a batch of them, in Joseph form and simplified;
the errors for noise of unknown rank (raised building the graph, as TF 1.15 did) and for a predicted covariance
with a negative variance."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
if tf.__version__.startswith("1."):  # the module is internal in TF 1.15's tf.contrib.timeseries
    from tensorflow.contrib.timeseries.python.timeseries.state_space_models import kalman_filter
else:
    from tf1clip.contrib.timeseries.state_space_models import kalman_filter
tf1 = tf.compat.v1
rng = np.random.RandomState(0)


def covariances(batch, size, scale):
    a = rng.randn(batch, size, size)
    return scale * (np.matmul(a, a.transpose(0, 2, 1)) + size * np.eye(size))


batch, states, features = 3, 4, 2
mean, cov = rng.randn(batch, states), covariances(batch, states, 1.0)
transitions, step_noise = 0.5 * rng.randn(batch, states, states), covariances(batch, states, 0.1)
model = rng.randn(batch, features, states)
noise, batched_noise = covariances(1, features, 0.3)[0], covariances(batch, features, 0.3)
observed = rng.randn(batch, features)
filters = {"joseph": kalman_filter.KalmanFilter(dtype=tf.float64),
           "simplified": kalman_filter.KalmanFilter(dtype=tf.float64,
                                                    simplified_posterior_covariance_computation=True)}
unknown_rank_noise = tf1.placeholder(tf.float64, shape=None)
fetch = {}
kf = filters["joseph"]
fetch["predict_state_mean"] = kf.predict_state_mean(tf.constant(mean), tf.constant(transitions))
fetch["predict_state_var"] = kf.predict_state_var(tf.constant(cov), tf.constant(transitions), tf.constant(step_noise))
fetch["observed_from_state"] = kf.observed_from_state(tf.constant(mean), tf.constant(cov), tf.constant(model), noise)


def filtered(kf, r):
    r = tf.convert_to_tensor(r, tf.float64)
    predicted_mean, predicted_cov = kf.observed_from_state(tf.constant(mean), tf.constant(cov), tf.constant(model), r)
    return kf.do_filter(
        estimated_state=tf.constant(mean), estimated_state_covariance=tf.constant(cov),
        predicted_observation=predicted_mean, predicted_observation_covariance=predicted_cov,
        observation=tf.constant(observed), observation_model=tf.constant(model), observation_noise=r)


for name, kf_name, r in (("matrix_noise", "joseph", noise), ("batched_noise", "joseph", batched_noise),
                         ("simplified", "simplified", noise), ("simplified_batched", "simplified", batched_noise)):
    fetch["do_filter/" + name] = filtered(filters[kf_name], r)
# Noise of unknown rank: TF 1.15 builds both branches of a cond, and the one-matrix branch asserts a static rank.
with case("error/unknown_rank_noise"):
    filtered(filters["joseph"], unknown_rank_noise)
bad = kf.do_filter(tf.constant(mean), tf.constant(cov), tf.constant(observed), tf.constant(-batched_noise),
                   tf.constant(observed), tf.constant(model), tf.constant(noise))
with tf1.Session() as sess:
    for key, value in sorted(sess.run(fetch, {unknown_rank_noise: noise}).items()):
        report(key, list(value) if isinstance(value, tuple) else value)
    with case("error/negative_predicted_variance"):
        sess.run(bad)
'''


@requires_tf115
def test_kalman_filter_steps_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/negative_predicted_variance:error"] == "InvalidArgumentError"
  assert tf115["error/unknown_rank_noise:error"] == "AssertionError"
  assert_same(tf115, ours, rtol=1e-10, atol=1e-10)
