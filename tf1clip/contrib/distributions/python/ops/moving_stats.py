"""`tf.contrib.distributions`' exponentially weighted moving statistics, TF 1.15's functions.

tfp.stats continued these under the same names with other parameters (the value first, zero-debiasing), so
TF 1.15's are written here: `assign_moving_mean_variance(mean_var, variance_var, value, decay)` updates
mean += (1 - decay) * delta and variance -= (1 - decay) * (variance - decay * delta^2), delta = value - mean;
`assign_log_moving_mean_exp` keeps log(moving mean of exp(value)) stably; `moving_mean_variance` creates the
`moving_mean` / `moving_variance` variables (zeros, not trainable) in its variable scope.
"""

import tensorflow as tf

V1 = tf.compat.v1


def assign_moving_mean_variance(mean_var, variance_var, value, decay, name=None):
  """Updates the moving mean and variance variables with `value`; returns the two updated values.

  Raises:
    TypeError: the variables are not floating point, or not of the same dtype.
  """
  with V1.name_scope(name, "assign_moving_mean_variance", [variance_var, mean_var, value, decay]):
    with V1.colocate_with(variance_var), V1.colocate_with(mean_var):
      base_dtype = mean_var.dtype.base_dtype
      if not base_dtype.is_floating:
        raise TypeError("mean_var.base_dtype({}) does not have float type `dtype`.".format(base_dtype.name))
      if base_dtype != variance_var.dtype.base_dtype:
        raise TypeError("mean_var.base_dtype({}) != variance_var.base_dtype({})".format(
            base_dtype.name, variance_var.dtype.base_dtype.name))
      value = tf.convert_to_tensor(value, dtype=base_dtype, name="value")
      decay = tf.convert_to_tensor(decay, dtype=base_dtype, name="decay")
      delta = value - mean_var
      with tf.control_dependencies([delta]):
        mean_var = V1.assign_add(mean_var, (1.0 - decay) * delta)
        variance_var = V1.assign_sub(variance_var,
                                     (1.0 - decay) * (variance_var - decay * tf.square(delta)))
      return mean_var, variance_var


def assign_log_moving_mean_exp(log_mean_exp_var, log_value, decay, name=None):
  """log_mean_exp_var <- log(decay * exp(log_mean_exp_var) + (1 - decay) * exp(log_value)), stably.

  Raises:
    TypeError: the variable is not floating point.
  """
  with V1.name_scope(name, "assign_log_moving_mean_exp", [log_mean_exp_var, log_value, decay]):
    with V1.colocate_with(log_mean_exp_var):
      base_dtype = log_mean_exp_var.dtype.base_dtype
      if not base_dtype.is_floating:
        raise TypeError("log_mean_exp_var.base_dtype({}) does not have float type `dtype`.".format(
            base_dtype.name))
      log_value = tf.convert_to_tensor(log_value, dtype=base_dtype, name="log_value")
      decay = tf.convert_to_tensor(decay, dtype=base_dtype, name="decay")
      delta = (log_value - log_mean_exp_var)[tf.newaxis, ...]
      x = tf.concat([tf.math.log(decay) * tf.ones_like(delta), delta + tf.math.log1p(-decay)], axis=0)
      return log_mean_exp_var.assign_add(tf.reduce_logsumexp(x, axis=0))


def moving_mean_variance(value, decay, collections=None, name=None):
  """Creates `moving_mean` and `moving_variance` (zeros) and returns their update by `value`.

  Raises:
    TypeError: `value` is not floating point.
  """
  if collections is None:
    collections = [V1.GraphKeys.GLOBAL_VARIABLES]
  with V1.variable_scope(name, "moving_mean_variance", [value, decay]):
    value = tf.convert_to_tensor(value, name="value")
    base_dtype = value.dtype.base_dtype
    if not base_dtype.is_floating:
      raise TypeError("value.base_dtype({}) does not have float type `dtype`.".format(base_dtype.name))
    decay = tf.convert_to_tensor(decay, dtype=base_dtype, name="decay")
    variance_var = V1.get_variable("moving_variance", shape=value.shape, dtype=value.dtype,
                                   initializer=V1.zeros_initializer(), trainable=False, collections=collections)
    mean_var = V1.get_variable("moving_mean", shape=value.shape, dtype=value.dtype,
                               initializer=V1.zeros_initializer(), trainable=False, collections=collections)
    return assign_moving_mean_variance(mean_var, variance_var, value, decay)
