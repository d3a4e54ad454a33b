"""`tf.contrib.learn.models`: the skflow linear and logistic regression model functions, TF 1.15's code.

Place in the data flow (DESIGN.md): contrib.learn.ops.losses_ops <- **contrib.learn.models** <- contrib.learn.

Each creates `weights` and `bias` in the variable scope "linear_regression" / "logistic_regression" (normal
initialization with init_mean / init_stddev when given, else the scope's default), writes histogram summaries of
x, y and the variables, and returns (predictions, loss). logistic_regression reads a graph tensor named
"class_weight:0" when no class_weight is given, as TF 1.15 did.
"""

import tensorflow as tf

from tf1clip.contrib import catalog
from tf1clip.contrib.learn.ops import losses_ops

V1 = tf.compat.v1


def _variables(x, output_size, init_mean, init_stddev):
  dtype = x.dtype.base_dtype
  initializer = (None if init_mean is None
                 else V1.random_normal_initializer(init_mean, init_stddev, dtype=dtype))
  weights = V1.get_variable("weights", [x.shape[1], output_size], initializer=initializer, dtype=dtype)
  bias = V1.get_variable("bias", [output_size], initializer=initializer, dtype=dtype)
  return weights, bias


def _summaries(scope_name, **tensors):
  for key, value in tensors.items():
    V1.summary.histogram("%s.%s" % (scope_name, key), value)


def linear_regression(x, y, init_mean=None, init_stddev=1.0):
  """A linear regression of y [batch] or [batch, k] on x: (predictions, mean squared error)."""
  with V1.variable_scope("linear_regression"):
    scope_name = V1.get_variable_scope().name
    _summaries(scope_name, x=x, y=y)
    output_size = 1 if len(y.shape) == 1 else y.shape[1]
    weights, bias = _variables(x, output_size, init_mean, init_stddev)
    _summaries(scope_name, weights=weights, bias=bias)
    return losses_ops.mean_squared_error_regressor(x, y, weights, bias)


def linear_regression_zero_init(x, y):
  """linear_regression with zero-initialized weights and bias."""
  return linear_regression(x, y, init_mean=0.0, init_stddev=0.0)


def logistic_regression(x, y, class_weight=None, init_mean=None, init_stddev=1.0):
  """A softmax regression of one-hot y on x: (probabilities, softmax cross-entropy)."""
  with V1.variable_scope("logistic_regression"):
    scope_name = V1.get_variable_scope().name
    _summaries(scope_name, x=x, y=y)
    weights, bias = _variables(x, y.shape[-1], init_mean, init_stddev)
    _summaries(scope_name, weights=weights, bias=bias)
    if not class_weight:
      try:
        class_weight = V1.get_default_graph().get_tensor_by_name("class_weight:0")
      except KeyError:
        pass
    return losses_ops.softmax_classifier(x, y, weights, bias, class_weight=class_weight)


def logistic_regression_zero_init(x, y):
  """logistic_regression with zero-initialized weights and bias."""
  return logistic_regression(x, y, init_mean=0.0, init_stddev=0.0)


__getattr__ = catalog.missing_attribute_hook("tf.contrib.learn.models")
