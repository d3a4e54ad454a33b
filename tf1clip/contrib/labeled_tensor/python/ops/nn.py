"""LabeledTensor's neural-network ops: tf.nn's activations, softmaxes, l2_loss and cross entropies.

TF 1.15's `tensorflow/contrib/labeled_tensor/python/ops/nn.py`, by tf1clip: each is an elementwise op of `core`
(`lt_<name>` name scopes). The cross entropies take TF 1.15's (logits, labels) order: tf1clip.contrib.nn's
deprecated_flipped_* functions, as TF 1.15's took contrib.nn's. As in TF 1.15, `l2_loss` of a tensor with axes
raises (its scalar result cannot carry the input's axes).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.labeled_tensor.python.ops import core
from tf1clip.contrib import nn as _flipped

relu = core.define_unary_op("relu", tf.nn.relu)
relu6 = core.define_unary_op("relu6", tf.nn.relu6)
crelu = core.define_unary_op("crelu", tf.nn.crelu)
elu = core.define_unary_op("elu", tf.nn.elu)
softplus = core.define_unary_op("softplus", tf.nn.softplus)
softmax = core.define_unary_op("softmax", tf.nn.softmax)
log_softmax = core.define_unary_op("log_softmax", tf.nn.log_softmax)
l2_loss = core.define_unary_op("l2_loss", tf.nn.l2_loss)

sigmoid_cross_entropy_with_logits = core.define_binary_op(
    "sigmoid_cross_entropy_with_logits", _flipped.deprecated_flipped_sigmoid_cross_entropy_with_logits)
softmax_cross_entropy_with_logits = core.define_binary_op(
    "softmax_cross_entropy_with_logits", _flipped.deprecated_flipped_softmax_cross_entropy_with_logits)
sparse_softmax_cross_entropy_with_logits = core.define_binary_op(
    "sparse_softmax_cross_entropy_with_logits", _flipped.deprecated_flipped_sparse_softmax_cross_entropy_with_logits)

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.labeled_tensor.nn")
