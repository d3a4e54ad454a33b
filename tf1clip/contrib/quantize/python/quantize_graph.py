"""The four public rewrites, TF 1.15's `tensorflow/contrib/quantize/python/quantize_graph.py` rewritten.

Each rewrites a graph in place for quantization-aware training or evaluation: first the batch norms are folded
into the layers before them (fold_batch_norms), then FakeQuant ops with `min` / `max` variables are put after
weights and activations (quantize). The variables join GLOBAL_VARIABLES, so a Saver made afterwards saves them.
Tensors and ops a caller held before the rewrite may no longer be read by the graph's later ops.

The training rewrites model quantization in the backward pass too, so they must run before the gradients are
built: a graph that already has an optimizer's update ops is refused (ValueError). `quant_delay` lets a model
train in float for that many steps first: 0 suits fine-tuning a trained float model; training from scratch needs
about the steps the float model takes to converge.
"""

import numbers

import tensorflow as tf

from tf1clip.contrib.quantize.python import fold_batch_norms
from tf1clip.contrib.quantize.python import quantize

V1 = tf.compat.v1


def create_training_graph(input_graph=None, quant_delay=0):
  """Rewrites a training graph for quantization-aware training (8 bits, asymmetric ranges).

  Args:
    input_graph: the tf.Graph to rewrite (default: the default graph).
    quant_delay: steps during which weights and activations stay in float.

  Raises:
    ValueError: the graph already has training (optimizer update) ops.
  """
  # TF 1.15 kept the batch norms unfrozen here (its freeze delay was tuned for one model only); the experimental
  # variant takes freeze_bn_delay.
  _rewrite(input_graph, is_training=True, quant_delay=quant_delay)


def create_eval_graph(input_graph=None):
  """Rewrites an evaluation graph with the FakeQuant ops a graph from `create_training_graph` trained.

  Args:
    input_graph: the tf.Graph to rewrite (default: the default graph).

  Raises:
    ValueError: the graph has training (optimizer update) ops.
  """
  _rewrite(input_graph, is_training=False)


def experimental_create_training_graph(input_graph=None, weight_bits=8, activation_bits=8, symmetric=False,
                                       quant_delay=0, freeze_bn_delay=None, scope=None):
  """`create_training_graph` with bit widths, symmetric ranges, a batch-norm freeze and a scope.

  Args:
    input_graph: the tf.Graph to rewrite (default: the default graph).
    weight_bits: bits of the weights' quantization.
    activation_bits: bits of the activations' quantization.
    symmetric: symmetric ranges instead of a trained minimum and maximum each.
    quant_delay: steps during which weights and activations stay in float.
    freeze_bn_delay: steps after which training uses, and stops updating, the moving mean and variance; it should
      be larger than `quant_delay`, at about the step where training has almost converged (None: never).
    scope: if given, only the ops in this name scope are rewritten.

  Raises:
    ValueError: the graph already has training (optimizer update) ops.
  """
  _rewrite(input_graph, is_training=True, freeze_bn_delay=freeze_bn_delay, weight_bits=weight_bits,
           activation_bits=activation_bits, symmetric=symmetric, quant_delay=quant_delay, scope=scope)


def experimental_create_eval_graph(input_graph=None, weight_bits=8, activation_bits=8, symmetric=False,
                                   quant_delay=None, scope=None):
  """`create_eval_graph` with the options of `experimental_create_training_graph` (use the same ones).

  Args:
    input_graph: the tf.Graph to rewrite (default: the default graph).
    weight_bits: bits of the weights' quantization.
    activation_bits: bits of the activations' quantization.
    symmetric: symmetric ranges instead of a trained minimum and maximum each.
    quant_delay: steps during which the FakeQuants pass their input through.
    scope: if given, only the ops in this name scope are rewritten.

  Raises:
    ValueError: the graph has training (optimizer update) ops.
  """
  _rewrite(input_graph, is_training=False, weight_bits=weight_bits, activation_bits=activation_bits,
           symmetric=symmetric, quant_delay=quant_delay, scope=scope)


def _rewrite(graph, is_training, freeze_bn_delay=None, **quantize_options):
  """Folds the batch norms of `graph` (default: the default graph), then inserts the FakeQuant ops."""
  graph = V1.get_default_graph() if graph is None else graph
  if not isinstance(graph, tf.Graph):
    # TF 1.15 failed here with an AttributeError too, naming `get_operations`
    raise AttributeError('`input_graph` must be a tf.Graph or None (the default graph); got %r' % (graph,))
  _refuse_update_ops(graph)  # before the delays: TF 1.15 refused such a graph whatever they were
  for name, steps in (('quant_delay', quantize_options.get('quant_delay')), ('freeze_bn_delay', freeze_bn_delay)):
    if steps is not None and (isinstance(steps, bool) or not isinstance(steps, numbers.Integral)):
      # TF 1.15 raised a TypeError too, where the first layer compared or converted it
      raise TypeError('`%s` must be a whole number of steps or None; got %r' % (name, steps))
  with graph.as_default():
    fold_batch_norms.FoldBatchNorms(graph, is_training=is_training, freeze_batch_norm_delay=freeze_bn_delay)
    quantize.Quantize(graph, is_training, **quantize_options)


def _update_op_types():
  """The op types of TF 1.15's training kernels (tensorflow/core/ops/training_ops.cc), as TF 1.15 listed them."""
  everywhere = ['Adagrad', 'AdagradDA', 'CenteredRMSProp', 'Ftrl', 'FtrlV2', 'Momentum', 'ProximalAdagrad',
                'ProximalGradientDescent', 'RMSProp']
  dense_only = ['Adam', 'AddSign', 'GradientDescent', 'PowerSign']
  families = {
      'Apply': everywhere + dense_only,  # (no ApplyAdadelta in TF 1.15's list)
      'ResourceApply': everywhere + dense_only + ['Adadelta'],
      'SparseApply': everywhere + ['Adadelta'],
      'ResourceSparseApply': everywhere + ['Adadelta'],
  }
  return frozenset(family + kind for family, kinds in families.items() for kind in kinds)


_UPDATE_OP_TYPES = _update_op_types()


def _refuse_update_ops(graph):
  """ValueError if `graph` has an optimizer's update ops: the rewrite must come before the gradients."""
  found = set(op.type for op in graph.get_operations()) & _UPDATE_OP_TYPES
  if found:
    raise ValueError('Training op found in graph, exiting %s' % found)
