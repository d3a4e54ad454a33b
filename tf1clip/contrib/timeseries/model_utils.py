"""`tf.contrib.timeseries`' model_utils: helpers the time series models share.

Place in the data flow (DESIGN.md): tensorflow-estimator 2.15's timeseries model_utils (through
shims.tensorflow_estimator) <- **contrib.timeseries.model_utils** <- ar_model, state_space_models, saved_model_utils.

What it holds: `fully_connected` and `canonicalize_times_or_steps_from_output` are tensorflow-estimator 2.15's (kept
unchanged); `parameter_switch`, which the library dropped, is used by the state space models' data generation.
"""

import tensorflow as tf

# pylint: disable=g-import-not-at-top,wrong-import-position
# pylint: disable=unused-import
from tensorflow_estimator.python.estimator.canned.timeseries.model_utils import canonicalize_times_or_steps_from_output
from tensorflow_estimator.python.estimator.canned.timeseries.model_utils import fully_connected

V1 = tf.compat.v1


def parameter_switch(parameter_overrides):
  """A function `value(parameter)`: the override of `parameter` in `parameter_overrides` ({Tensor: value}) if it
  has one, else the parameter evaluated in the default session (its current Variable values)."""

  def value(parameter):
    return V1.convert_to_tensor(parameter_overrides.get(parameter, parameter)).eval()

  return value
