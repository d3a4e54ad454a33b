"""`tf.contrib.labeled_tensor.nn`: neural-network ops on LabeledTensors (activations, softmax, cross entropies).

Place in the data flow (DESIGN.md): tf.nn <- **contrib.labeled_tensor** (`nn`) <- compat <- cli.

TF 1.15's contrib/labeled_tensor/python/ops/nn.py: tf.nn's activations as unary ops (`lt_relu`, ...) and the
cross entropies as binary ops with TF 1.15's flipped (logits, labels) argument order (tf1clip.contrib.nn's
deprecated_flipped_* functions, as TF 1.15's contrib.nn ones).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.contrib.labeled_tensor.python.ops.core as core
import tf1clip.contrib.nn as contrib_nn

relu = core.define_unary_op('relu', tf.nn.relu)
relu6 = core.define_unary_op('relu6', tf.nn.relu6)
crelu = core.define_unary_op('crelu', tf.nn.crelu)
elu = core.define_unary_op('elu', tf.nn.elu)
softplus = core.define_unary_op('softplus', tf.nn.softplus)

l2_loss = core.define_unary_op('l2_loss', tf.nn.l2_loss)
sigmoid_cross_entropy_with_logits = core.define_binary_op(
    'sigmoid_cross_entropy_with_logits', contrib_nn.deprecated_flipped_sigmoid_cross_entropy_with_logits)
softmax = core.define_unary_op('softmax', tf.nn.softmax)
log_softmax = core.define_unary_op('log_softmax', tf.nn.log_softmax)
softmax_cross_entropy_with_logits = core.define_binary_op(
    'softmax_cross_entropy_with_logits', contrib_nn.deprecated_flipped_softmax_cross_entropy_with_logits)
sparse_softmax_cross_entropy_with_logits = core.define_binary_op(
    'sparse_softmax_cross_entropy_with_logits',
    contrib_nn.deprecated_flipped_sparse_softmax_cross_entropy_with_logits)

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.labeled_tensor.nn",
                                              lazy=_catalog.served("tf.contrib.labeled_tensor.nn"))
