"""What runs after each Kalman filtering step: anomaly detection that keeps outliers out of a model's state.

Place in the data flow (DESIGN.md): contrib.timeseries.math_utils <-
**contrib.timeseries.state_space_models.filtering_postprocessor** <- StateSpaceModel._filtering_step;
StructuralEnsembleRegressor(anomaly_prior_probability=...) (contrib.timeseries.estimators).

`StateInterpolatingAnomalyDetector` weighs, per observation, the model's Gaussian prediction against a heavy-tailed
anomaly distribution (by default `cauchy_alternative_to_gaussian`) with a prior anomaly probability p. With

    log_odds = [log p(x | anomaly) + log p] - [log p(x | model) + log(1 - p)]
    r = sigmoid(-responsibility_scaling * log_odds)           (how much the model is "responsible" for x)

the new state is r * filtered + (1 - r) * predicted (an anomaly barely moves the state, which a Gaussian model would
otherwise struggle to recover from), the loss is minus r * [log p(x | model) + log(1 - p)] + (1 - r) * [log p(x |
anomaly) + log p], and log_odds is reported as "anomaly_score". The interpolation is a differentiable heuristic,
exact only when r is 0 or 1; integer parts of the state (times) must agree and pass through.
"""

import abc

import tensorflow as tf

from tf1clip.contrib.timeseries import math_utils

tf1 = tf.compat.v1


class FilteringStepPostprocessor(abc.ABC):
  """What a filtering postprocessor implements: `process_filtering_step` and `output_names`."""

  @abc.abstractmethod
  def process_filtering_step(self, current_times, current_values, predicted_state, filtered_state, outputs):
    """Adjusts one filtering step.

    Args:
      current_times: [batch size] integer times.
      current_values: [batch size, num features] the values filtered on.
      predicted_state: the model's state (a nest of Tensors) before seeing `current_values`.
      filtered_state: the same nest, after seeing them.
      outputs: the step's outputs (a dict; SequentialTimeSeriesModel's).
    Returns:
      (new state, with the nest of `filtered_state`; `outputs`, with what this postprocessor adds or changes).
    """

  @property
  @abc.abstractmethod
  def output_names(self):
    """The names of the outputs this postprocessor adds."""
    return []


def cauchy_alternative_to_gaussian(current_times, current_values, outputs):
  """The log density at `current_values` [batch, features] of independent Cauchy distributions centred on
  outputs["mean"] [batch, features], their scales matched in entropy to the Gaussian of outputs["covariance"]
  [batch, features, features]; summed over the features: [batch]. `current_times` is unused."""
  del current_times
  scale = math_utils.entropy_matched_cauchy_scale(outputs["covariance"])
  per_feature = math_utils.cauchy_log_prob(loc=outputs["mean"], scale=scale, x=current_values)
  return tf1.reduce_sum(per_feature, axis=1)


def _broadcastable_to(weights, tensor):
  """`weights` [batch] reshaped to [batch, 1, ...] with the rank of `tensor`."""
  trailing_ones = tf1.ones([tf1.rank(tensor) - 1], dtype=tf.int32)
  return tf1.reshape(tensor=weights, shape=tf1.concat([tf1.shape(weights), trailing_ones], 0))


def _interpolate_state_linear(first_state, second_state, first_responsibility):
  """w * first + (1 - w) * second for each floating point Tensor of the two state nests (w = first_responsibility,
  [batch]); integer Tensors (times) are checked equal and taken from `first_state`."""
  mixed = []
  for first, second in zip(tf.nest.flatten(first_state), tf.nest.flatten(second_state)):
    assert first.dtype == second.dtype
    if not first.dtype.is_floating:
      with tf1.control_dependencies([tf1.assert_equal(first, second)]):
        mixed.append(tf1.identity(first))
      continue
    weight = _broadcastable_to(first_responsibility, first)
    blend = weight * first + (1. - weight) * second
    blend.set_shape(first.get_shape())
    mixed.append(blend)
  return tf.nest.pack_sequence_as(first_state, mixed)


class StateInterpolatingAnomalyDetector(FilteringStepPostprocessor):
  """Falls back on the predicted state where an observation looks like an anomaly (see the module docstring)."""

  output_names = ["anomaly_score"]

  def __init__(self, anomaly_log_likelihood=cauchy_alternative_to_gaussian, anomaly_prior_probability=0.01,
               responsibility_scaling=1.0):
    """Configures the detector.

    Args:
      anomaly_log_likelihood: `(current_times, current_values, outputs) -> [batch size]` log likelihoods under the
        anomaly distribution (arguments as for process_filtering_step).
      anomaly_prior_probability: the prior probability, in (0, 1), that an observation is an anomaly.
      responsibility_scaling: > 0; how sharply the state switches between filtered and predicted (smaller is
        smoother).
    """
    self._anomaly_log_likelihood = anomaly_log_likelihood
    self._responsibility_scaling = responsibility_scaling
    self._anomaly_prior_probability = anomaly_prior_probability

  def process_filtering_step(self, current_times, current_values, predicted_state, filtered_state, outputs):
    """Interpolates between `filtered_state` and `predicted_state` by the model's responsibility.

    `outputs` must hold "log_likelihood" [batch size], the observations' log likelihood under the model. Returns
    (interpolated state, `outputs` with "loss" replaced by the responsibility-weighted negative log likelihood and
    "anomaly_score", the log odds of an anomaly).
    """
    anomaly = self._anomaly_log_likelihood(current_times=current_times, current_values=current_values,
                                           outputs=outputs)
    prior = tf1.convert_to_tensor(self._anomaly_prior_probability, dtype=current_values.dtype)
    joint_anomaly = anomaly + tf1.log(prior)  # log p(x, anomaly)
    joint_normal = outputs["log_likelihood"] + tf1.log(1. - prior)  # log p(x, no anomaly)
    log_odds = joint_anomaly - joint_normal  # centred on 0, unlike p(anomaly | x)
    responsibility = tf1.sigmoid(-self._responsibility_scaling * log_odds)
    state = _interpolate_state_linear(first_state=filtered_state, second_state=predicted_state,
                                      first_responsibility=responsibility)
    mixed_log_likelihood = responsibility * joint_normal + (1. - responsibility) * joint_anomaly
    outputs["loss"] = -mixed_log_likelihood
    outputs["anomaly_score"] = log_odds
    return state, outputs
