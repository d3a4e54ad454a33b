"""What fold_batch_norms and quantize share, TF 1.15's `tensorflow/contrib/quantize/python/common.py` rewritten.

- `SKIPPED_PREFIXES`: name prefixes of gradient, optimizer-slot and summary ops, never rewritten.
- `BatchNormGroups(graph)`: the name prefixes of slim's unfused batch norms (`<prefix>BatchNorm/batchnorm...`).
- `GetEndpointActivationOp(graph, prefix)`: the `<prefix>Relu6`, `<prefix>Relu` or `<prefix>Identity` op.
- `CreateOrGetQuantizationStep()`: the int64 variable `fake_quantization_step`, read through an AssignAdd so it
  counts the graph's runs; the `quant_delay` and `freeze_bn_delay` conds compare it (`fake_quantization_step/
  Identity:0`, one per graph).
- `RerouteTensor(t0, t1, can_modify)`: the consumers of t1 (those in `can_modify`) read t0 instead. TF 1.15 changed
  the ops' inputs in place; here tf.contrib.graph_editor's `reroute_ts` does it.
"""

import re

import tensorflow as tf

from tf1clip.contrib.graph_editor import reroute

V1 = tf.compat.v1

SKIPPED_PREFIXES = ('gradients/', 'RMSProp/', 'Adagrad/', 'Const_', 'HistogramSummary', 'ScalarSummary')

_STEP = 'fake_quantization_step'
_UNFUSED_BATCH_NORM = re.compile(r'^(.*)BatchNorm/batchnorm')

# pylint: disable=invalid-name  (TF 1.15's function names)


def BatchNormGroups(graph):
  """The distinct prefixes, in graph order, of the ops named `<prefix>BatchNorm/batchnorm...` (not skipped)."""
  prefixes = {}
  for op in graph.get_operations():
    found = _UNFUSED_BATCH_NORM.search(op.name)
    if found and not found.group(1).startswith(SKIPPED_PREFIXES):
      prefixes.setdefault(found.group(1))
  return list(prefixes)


def GetEndpointActivationOp(graph, prefix):
  """The op `prefix` + 'Relu6', else + 'Relu', else + 'Identity'; None when there is none."""
  for activation in ('Relu6', 'Relu', 'Identity'):
    try:
      return graph.get_operation_by_name(prefix + activation)
    except KeyError:
      continue
  return None


def CreateOrGetQuantizationStep():
  """The default graph's step count: `fake_quantization_step` plus one, once per run (created on first use).

  The Identity gives a resource and a reference variable the same tensor name.
  """
  graph = V1.get_default_graph()
  try:
    return graph.get_tensor_by_name(_STEP + '/Identity:0')
  except KeyError:
    pass
  with graph.name_scope(None):
    step = V1.get_variable(_STEP, shape=[], dtype=tf.int64, initializer=V1.zeros_initializer(), trainable=False,
                           collections=[V1.GraphKeys.GLOBAL_VARIABLES],
                           aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
    with graph.name_scope(step.op.name + '/'):
      return tf.identity(V1.assign_add(step, 1))


def DropStringPrefix(s, prefix):
  """`s` without `prefix` when it starts with it."""
  return s[len(prefix):] if s.startswith(prefix) else s


def RerouteTensor(t0, t1, can_modify=None):
  """Makes the consumers of tensor `t1` (only those in `can_modify`, if given) read tensor `t0`.

  Returns:
    The number of inputs changed.
  """
  return reroute.reroute_ts([t0], [t1], can_modify=None if can_modify is None else list(can_modify))
