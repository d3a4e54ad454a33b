"""`tf.contrib.learn.ops.losses_ops`: a linear layer with a squared-error or softmax loss (predictions, loss).

Place in the data flow (DESIGN.md): tf.compat.v1.losses <- **contrib.learn.ops.losses_ops** <- contrib.learn.models.
"""

import tensorflow as tf

V1 = tf.compat.v1


def mean_squared_error_regressor(tensor_in, labels, weights, biases, name=None):
  """(x W + b, its mean squared error against labels); a [batch, 1] prediction is squeezed for [batch] labels."""
  with V1.name_scope(name, "mean_squared_error_regressor", [tensor_in, labels]):
    predictions = V1.nn.xw_plus_b(tensor_in, weights, biases)
    if len(labels.shape) == 1 and len(predictions.shape) == 2:
      predictions = tf.squeeze(predictions, axis=[1])
    return predictions, V1.losses.mean_squared_error(labels, predictions)


def softmax_classifier(tensor_in, labels, weights, biases, class_weight=None, name=None):
  """(softmax(x W + b), its softmax cross-entropy against one-hot labels); logits scaled by class_weight."""
  with V1.name_scope(name, "softmax_classifier", [tensor_in, labels]):
    logits = V1.nn.xw_plus_b(tensor_in, weights, biases)
    if class_weight is not None:
      logits = tf.multiply(logits, class_weight)
    return tf.nn.softmax(logits), V1.losses.softmax_cross_entropy(labels, logits)
