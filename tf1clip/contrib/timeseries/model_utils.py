"""`tf.contrib.timeseries`' model_utils: helpers the time series models share.

Place in the data flow (DESIGN.md): tensorflow-estimator 2.15's timeseries model_utils (through
shims.tensorflow_estimator) <- **contrib.timeseries.model_utils** <- ar_model, state_space_models, saved_model_utils.

`fully_connected` and `canonicalize_times_or_steps_from_output` are tensorflow-estimator 2.15's (kept unchanged);
`parameter_switch`, which the library dropped, is TF 1.15's (the state space models' data generation uses it).
"""

import tensorflow as tf


# pylint: disable=g-import-not-at-top,wrong-import-position
# pylint: disable=unused-import
from tensorflow_estimator.python.estimator.canned.timeseries.model_utils import canonicalize_times_or_steps_from_output
from tensorflow_estimator.python.estimator.canned.timeseries.model_utils import fully_connected

V1 = tf.compat.v1


def parameter_switch(parameter_overrides):
  """Create a function which chooses between overridden and model parameters.

  Args:
    parameter_overrides: A dictionary with explicit overrides of model
        parameters, mapping from Tensors to their overridden values.
  Returns:
    A function which takes a Tensor and returns the override if it is specified,
        or otherwise the evaluated value (given current Variable values).
  """
  def get_passed_or_trained_value(parameter):
    return V1.convert_to_tensor(
        parameter_overrides.get(parameter, parameter)).eval()
  return get_passed_or_trained_value
