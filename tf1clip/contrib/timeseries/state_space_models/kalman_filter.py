"""The Kalman filter's steps on batches of Gaussian state beliefs, for the linear state space models.

Place in the data flow (DESIGN.md): contrib.timeseries.math_utils <-
**contrib.timeseries.state_space_models.kalman_filter** <- StateSpaceModel (state_space_model).

For a model state[t] = A state[t-1] + B noise (noise ~ N(0, Q)), value[t] = C state[t] + N(0, R), with a belief
N(m, P) about the state: predicting k steps gives N(A^k m, A^k P (A^k)^T + S_k), S_k the noise k steps add (the
caller passes A^k and S_k); the observation is predicted as N(C m, C P C^T + R); filtering an observation x gives
m + K (x - C m) with the gain K = P C^T (C P C^T + R)^-1, and the covariance in Joseph form,
(I - K C) P (I - K C)^T + K R K^T, which stays symmetric positive definite when K is inexact (the "simplified"
(I - K C) P is faster and less stable). What is special: K^T is computed with an adjoint matrix_solve, which is
the same on paper but keeps multivariate filtering stable; the log likelihood of x comes from a Cholesky factor of
the symmetrized predicted covariance, checked finite and non-negative first (with TF 1.15's advice in the error).
"""

import tensorflow as tf

from tf1clip.contrib.timeseries import math_utils

tf1 = tf.compat.v1

_UNSTABLE_FILTERING_ADVICE = (
    "This may occur due to numerically unstable filtering when there is a large difference in posterior variances, "
    "or when inferences are near-deterministic. Considering tuning the 'filtering_maximum_posterior_variance_ratio' "
    "or 'filtering_minimum_posterior_variance' parameters in your StateSpaceModelConfiguration, or tuning the "
    "transition matrix.")


def _vector_times(matrices, vectors, **matmul_options):
  """matrices [..., n, m] times vectors [..., m] (or [..., n] with adjoint_a): [..., n]."""
  return tf1.squeeze(tf1.matmul(matrices, vectors[..., None], **matmul_options), axis=[-1])


class KalmanFilter(object):
  """Predict, observe and filter steps of a linear Gaussian state space model (see the module docstring).

  The noises Q and R are usually what is learned; A and C are the modelling decision.
  """

  def __init__(self, dtype=tf.float32, simplified_posterior_covariance_computation=False):
    """`dtype`: of the floating point Tensors; `simplified_posterior_covariance_computation`: use (I - K C) P
    instead of the Joseph form (faster, less stable; often fine in float64 or for small fixed models)."""
    self._simplified_posterior_covariance_computation = simplified_posterior_covariance_computation
    self.dtype = dtype

  def do_filter(self, estimated_state, estimated_state_covariance, predicted_observation,
                predicted_observation_covariance, observation, observation_model, observation_noise):
    """Scores a predicted observation and conditions the state on the actual one.

    Args:
      estimated_state: the prior state means [batch, state].
      estimated_state_covariance: their covariances [batch, state, state].
      predicted_observation: the predicted means [batch, features] (from observed_from_state).
      predicted_observation_covariance: their covariances [batch, features, features].
      observation: the values observed [batch, features].
      observation_model: C [batch, features, state].
      observation_noise: R, [batch, features, features] or [features, features] (broadcast).
    Returns:
      (posterior means, posterior covariances, log likelihood [batch] of `observation` under the prediction).
    """
    covariance = 0.5 * (predicted_observation_covariance
                        + tf1.matrix_transpose(predicted_observation_covariance))
    covariance = tf1.verify_tensor_all_finite(
        covariance, "Predicted observation covariance was not finite. {}".format(_UNSTABLE_FILTERING_ADVICE))
    smallest_variance = tf1.reduce_min(tf1.matrix_diag_part(covariance))
    non_negative = tf1.Assert(smallest_variance >= 0., [
        "The predicted observation covariance has a negative diagonal entry. {}".format(
            _UNSTABLE_FILTERING_ADVICE), smallest_variance])
    with tf1.control_dependencies([non_negative]):
      cholesky = tf1.cholesky(covariance)
    log_likelihood = math_utils.mvn_tril_log_prob(loc=predicted_observation, scale_tril=cholesky, x=observation)
    posterior_mean, posterior_covariance = self.posterior_from_prior_state(
        prior_state=estimated_state, prior_state_var=estimated_state_covariance, observation=observation,
        observation_model=observation_model,
        predicted_observations=(predicted_observation, predicted_observation_covariance),
        observation_noise=observation_noise)
    return posterior_mean, posterior_covariance, log_likelihood

  def predict_state_mean(self, prior_state, transition_matrices):
    """A^k m: `prior_state` [batch, state] moved by `transition_matrices` [batch, state, state] (A to the power of
    each element's number of steps; math_utils.matrix_to_powers is the general case)."""
    return _vector_times(transition_matrices, prior_state)

  def predict_state_var(self, prior_state_var, transition_matrices, transition_noise_sums):
    r"""A^k P (A^k)^T + S_k for `prior_state_var` P [batch, state, state], `transition_matrices` A^k and
    `transition_noise_sums` S_k = \sum_{i<k} A^i B Q B^T (A^i)^T (both [batch, state, state]; power_sums_tensor
    and a gather are the general case of S_k)."""
    moved = tf1.matmul(tf1.matmul(transition_matrices, prior_state_var), transition_matrices, adjoint_b=True)
    return moved + transition_noise_sums

  def posterior_from_prior_state(self, prior_state, prior_state_var, observation, observation_model,
                                 predicted_observations, observation_noise):
    """The state belief after seeing `observation`.

    Args:
      prior_state: m [batch, state]; prior_state_var: P [batch, state, state].
      observation: x [batch, features]; observation_model: C [batch, features, state].
      predicted_observations: (C m, C P C^T + R), usually from observed_from_state.
      observation_noise: R, [batch, features, features] or [features, features] (broadcast).
    Returns:
      (posterior means [batch, state], posterior covariances [batch, state, state]).
    """
    predicted_mean, predicted_covariance = predicted_observations
    # K^T = (C P C^T + R)^-T C P^T; the adjoint solve is what keeps multivariate filtering stable.
    gain_t = tf1.matrix_solve(matrix=predicted_covariance,
                              rhs=tf1.matmul(observation_model, prior_state_var, adjoint_b=True), adjoint=True)
    posterior_mean = prior_state + _vector_times(gain_t, observation - predicted_mean, adjoint_a=True)
    gain_times_model = tf1.matmul(gain_t, observation_model, adjoint_a=True)
    complement = tf1.eye(tf1.shape(gain_times_model)[1], dtype=gain_times_model.dtype)[None] - gain_times_model
    if self._simplified_posterior_covariance_computation:
      return posterior_mean, tf1.matmul(complement, prior_state_var)
    return posterior_mean, self._joseph_form(complement, prior_state_var, gain_t,
                                             tf1.convert_to_tensor(observation_noise))

  @staticmethod
  def _joseph_form(complement, prior_state_var, gain_t, noise):
    """(I - K C) P (I - K C)^T + K R K^T, for R batched or one matrix (decided at run time if its rank is unknown:
    a cond's two branches would both check static shapes)."""
    kept = tf1.matmul(complement, tf1.matmul(complement, prior_state_var), adjoint_b=True)

    def with_batched_noise():
      return kept + tf1.matmul(tf1.matmul(gain_t, noise, adjoint_a=True), gain_t)

    def with_one_noise_matrix():
      return kept + tf1.matmul(math_utils.batch_times_matrix(gain_t, noise, adj_x=True), gain_t)

    rank = noise.get_shape().ndims
    if rank is None:
      return tf1.cond(tf1.equal(tf1.rank(noise), 2), with_one_noise_matrix, with_batched_noise)
    return with_one_noise_matrix() if rank == 2 else with_batched_noise()

  def observed_from_state(self, state_mean, state_var, observation_model, observation_noise):
    """The predicted observation (C m [batch, features], C P C^T + R [batch, features, features]) for state means
    m [batch, state], covariances P and `observation_model` C [batch, features, state]; `observation_noise` R is
    [batch, features, features] or anything that broadcasts to it (0 for none)."""
    mean = tf1.squeeze(tf1.matmul(tf1.expand_dims(state_mean, 1), observation_model, adjoint_b=True), axis=[1])
    covariance = tf1.matmul(tf1.matmul(observation_model, state_var), observation_model, adjoint_b=True)
    covariance += observation_noise
    return mean, covariance
