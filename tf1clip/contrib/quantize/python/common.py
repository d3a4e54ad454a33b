"""`tf.contrib.quantize`'s common: batch-norm groups, the quantization step counter, rerouting (TF 1.15's code).

Place in the data flow (DESIGN.md): tf.Graph, contrib.graph_editor <- **contrib.quantize.common** <-
fold_batch_norms / quantize <- quantize_graph <- compat <- cli.

`CreateOrGetQuantizationStep()` is the int64 variable `fake_quantization_step`, incremented each time the graph
runs (the `quant_delay` / `freeze_bn_delay` conds read `fake_quantization_step/Identity:0`). `RerouteTensor(t0,
t1, can_modify)` makes the consumers of t1 (those in `can_modify`) read t0: TF 1.15 changed the ops' inputs in
place; here tf.contrib.graph_editor's `reroute_ts` does it (the one place tf1clip edits an existing op's inputs).
"""

import collections
import re

import tensorflow as tf

import tf1clip.contrib.graph_editor.reroute as reroute

V1 = tf.compat.v1

# pylint: disable=invalid-name  (TF 1.15's CamelCase function names)

# Skip all operations that are backprop related or export summaries.
SKIPPED_PREFIXES = ('gradients/', 'RMSProp/', 'Adagrad/', 'Const_', 'HistogramSummary', 'ScalarSummary')

# Valid activation ops for quantization end points.
_ACTIVATION_OP_SUFFIXES = ['Relu6', 'Relu', 'Identity']

# Regular expression for recognizing nodes that are part of batch norm group.
_BATCHNORM_RE = re.compile(r'^(.*)BatchNorm/batchnorm')


def BatchNormGroups(graph):
  """The prefixes (strings, without duplicates, in graph order) of the unfused batch norm layers of `graph`."""
  bns = []
  for op in graph.get_operations():
    match = _BATCHNORM_RE.search(op.name)
    if match:
      bn = match.group(1)
      if not bn.startswith(SKIPPED_PREFIXES):
        bns.append(bn)
  # Filter out duplicates.
  return list(collections.OrderedDict.fromkeys(bns))


def GetEndpointActivationOp(graph, prefix):
  """The op named `prefix` + 'Relu6' / 'Relu' / 'Identity' (the first that exists), or None."""
  for suffix in _ACTIVATION_OP_SUFFIXES:
    activation = _GetOperationByNameDontThrow(graph, prefix + suffix)
    if activation:
      return activation
  return None


def _GetOperationByNameDontThrow(graph, name):
  """The operation named `name`, or None."""
  try:
    return graph.get_operation_by_name(name)
  except KeyError:
    return None


def CreateOrGetQuantizationStep():
  """A Tensor of the number of steps the quantized graph has run (the variable, incremented on each run)."""
  quantization_step_name = 'fake_quantization_step'
  quantization_step_tensor_name = quantization_step_name + '/Identity:0'
  g = V1.get_default_graph()
  try:
    return g.get_tensor_by_name(quantization_step_tensor_name)
  except KeyError:
    # Create in proper graph and base name_scope.
    with g.name_scope(None):
      quantization_step_tensor = V1.get_variable(
          quantization_step_name,
          shape=[],
          dtype=tf.int64,
          initializer=V1.zeros_initializer(),
          trainable=False,
          collections=[V1.GraphKeys.GLOBAL_VARIABLES],
          aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
      with g.name_scope(quantization_step_tensor.op.name + '/'):
        # We return the incremented variable tensor. Since this is used in conds for quant_delay and
        # freeze_bn_delay, it will run once per graph execution. We return an identity to force resource
        # variables and normal variables to return a tensor of the same name.
        return tf.identity(V1.assign_add(quantization_step_tensor, 1))


def DropStringPrefix(s, prefix):
  """If the string starts with this prefix, drops it."""
  if s.startswith(prefix):
    return s[len(prefix):]
  else:
    return s


def RerouteTensor(t0, t1, can_modify=None):
  """Makes the consumers of tensor t1 (only those in `can_modify`, if given) read tensor t0.

  Args:
    t0: a tf.Tensor.
    t1: a tf.Tensor.
    can_modify: iterable of operations which can be modified; others are left untouched.

  Returns:
    The number of individual inputs changed.
  """
  if can_modify is not None:
    can_modify = list(can_modify)
  return reroute.reroute_ts([t0], [t1], can_modify=can_modify)
