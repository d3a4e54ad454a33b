"""FakeQuant insertion, TF 1.15's `tensorflow/contrib/quantize/python/quantize.py` rewritten.

`Quantize(graph, is_training, ...)` finds the layers of a (batch-norm folded) graph: a Conv2D / MatMul /
DepthwiseConv2dNative reading a variable or a folded weight, then an optional BatchToSpaceND, bias add or folded
bias, bypass Add, activation (Relu, Relu6, Identity) and post-activation bypass Add. In the layer's name scope it
puts a FakeQuantWithMinMaxVars (python/quant_ops.py) between each quantized tensor and its readers:

  weights_quant                  the weights; last-value range, narrow range, `weight_bits`
  act_quant                      the activation; moving-average range starting at [0, 6], `activation_bits`
  conv_quant / add_quant         the two sides of a bypass Add (add_quant left out when an activation follows)
  post_activation_bypass_quant   an Add after the activation (left out when a Relu follows)
  <op>/activation_<Type>_quant   then every other Add / AddV2 / Mul that combines already quantized tensors

Each layer is matched once; the largest pattern is tried first. With `quant_delay` each FakeQuant is behind a
`delayed_quant` cond on the step counter. `scope` limits the rewrite to producers (and, for weights and bypasses,
consumers) inside it.

Special here: TensorFlow 2's dropout is `Mul` then `SelectV2(mask, ., 0)` where TF 1.15's was `mul` then `mul_1`;
the SelectV2 counts as TF 1.15's second Mul, and both FakeQuants get TF 1.15's names, so checkpoints keep their keys.
"""

import collections

import tensorflow as tf

from tf1clip.contrib.quantize.python import common
from tf1clip.contrib.quantize.python import graph_matcher as gm
from tf1clip.contrib.quantize.python import input_to_ops
from tf1clip.contrib.quantize.python import quant_ops

V1 = tf.compat.v1

_LAYERS = 'Conv2D|MatMul|DepthwiseConv2dNative'
_ACTIVATIONS = frozenset(['Relu', 'Relu6', 'Identity'])
_RELUS = frozenset(['Relu', 'Relu6'])
_COMBINERS = frozenset(['Add', 'AddV2', 'Mul'])  # what activation_<Type>_quant follows, and walks back through
_PASS_THROUGH = frozenset(['Reshape', 'Identity', 'BatchToSpaceND', 'SpaceToBatchND', 'MaxPool', 'Max'])
_FAKE_QUANTS = frozenset(['FakeQuantWithMinMaxVars', 'FakeQuantWithMinMaxArgs', 'FakeQuantWithMinMaxVarsPerChannel'])

_Layer = collections.namedtuple('_Layer', 'layer_op weight_tensor activation_op bypass_op post_activation_bypass_op '
                                          'bias_add_op')


def Quantize(graph, is_training, weight_bits=8, activation_bits=8, symmetric=False, ema_decay=0.999,  # pylint: disable=invalid-name
             quant_delay=None, vars_collection=V1.GraphKeys.GLOBAL_VARIABLES, scope=None):
  """Inserts the FakeQuant ops of quantization-aware training (or evaluation) into `graph`, in place.

  Args:
    graph: the tf.Graph to rewrite.
    is_training: whether `graph` trains (the ranges follow the batches) or evaluates (the ranges are read).
    weight_bits: bits of the weights' quantization.
    activation_bits: bits of the activations' quantization.
    symmetric: symmetric ranges for weights, layer activations and bypasses, instead of a trained min and max.
    ema_decay: decay of the activations' moving-average ranges.
    quant_delay: steps during which the FakeQuants pass their input through (None or 0: none).
    vars_collection: the collection the min / max variables join (besides GLOBAL_VARIABLES).
    scope: if given, only ops in this name scope are rewritten.

  Raises:
    ValueError: a FakeQuant could not be connected to the readers of its tensor.
  """
  if scope and not scope.endswith('/'):
    scope += '/'
  insert = _Inserter(is_training, ema_decay, quant_delay, vars_collection)
  readers = input_to_ops.InputToOps(graph).ConsumerOperations
  quantized = set()
  activation_args = dict(bits=activation_bits, symmetric=symmetric)
  for layer in _layers_to_quantize(graph):
    context = _scope_of(layer.layer_op.name)
    outer = _scope_of(context) if layer.bypass_op else context  # a bypass Add lives one scope up
    if layer.weight_tensor is not None:
      weights = layer.weight_tensor.op
      insert(context, 'weights_quant', weights, readers(weights), moving_avg=False, narrow_range=True,
             bits=weight_bits, symmetric=symmetric, consumer_scope=scope)
    if layer.activation_op is not None:
      insert(outer, 'act_quant', layer.activation_op, readers(layer.activation_op), init_min=0.0,
             producer_scope=scope, **activation_args)
      quantized.add(layer.activation_op)
    if layer.bypass_op is not None:
      insert(context, 'conv_quant', layer.bias_add_op, readers(layer.bias_add_op), producer_scope=scope,
             consumer_scope=scope, **activation_args)
      quantized.add(layer.bias_add_op)
      # an activation after the bypass is fused into the Add at inference: nothing to quantize between them
      if not _followed_by_activation(readers(layer.bypass_op), _ACTIVATIONS, layer.bypass_op):
        insert(outer, 'add_quant', layer.bypass_op, readers(layer.bypass_op), producer_scope=scope,
               consumer_scope=scope, **activation_args)
        quantized.add(layer.bypass_op)
    post = layer.post_activation_bypass_op
    if post is not None and not _followed_by_activation(readers(post), _RELUS, post):
      insert(_scope_of(post.name), 'post_activation_bypass_quant', post, readers(post), producer_scope=scope,
             **activation_args)
      quantized.add(post)
  _quantize_combiners(graph, insert, quantized, activation_bits, scope)


def _scope_of(name):
  return name.rpartition('/')[0]


def _followed_by_activation(readers, types, op):
  """Whether one of `readers` (of `op`) has one of `types`; logged, as TF 1.15 did, when so."""
  if any(reader.type in types for reader in readers):
    V1.logging.info('Skipping %s, because its followed by an activation.', op.name)
    return True
  return False


def _quantize_combiners(graph, insert, quantized, activation_bits, scope):
  """`activation_<Type>_quant` after each Add / AddV2 / Mul that combines quantized tensors (not symmetric)."""
  readers = input_to_ops.InputToOps(graph).ConsumerOperations
  for op in graph.get_operations():
    if _combines_quantized(op, quantized):
      kind = _tf115_type(op)
      V1.logging.info('Inserting fake quant op activation_%s_quant after %s', kind, op.name)
      insert(_tf115_name(op), 'activation_%s_quant' % kind, op, readers(op), bits=activation_bits,
             producer_scope=scope)


def _combines_quantized(op, quantized):
  """Whether `op` is an Add / AddV2 / Mul, not already quantized nor feeding a lone Relu, one of whose inputs is
  (through pass-through ops, and through other such combiners) a FakeQuant's output."""
  if op in quantized or _tf115_type(op) not in _COMBINERS:
    return False
  if len(op.outputs) == 1:
    readers = op.outputs[0].consumers()
    if len(readers) == 1 and readers[0].type in _RELUS:
      V1.logging.info('Skipping quant after %s', op.name)
      return False
  for tensor in op.inputs:
    source = tensor.op
    while _tf115_type(source) in _PASS_THROUGH:
      source = source.inputs[0].op
    if _tf115_type(source) == 'FakeQuantWithMinMaxVars' or source.name.find('delayed_quant/Merge') > 0:
      return True
    if _tf115_type(source) in _COMBINERS and any(_combines_quantized(t.op, quantized) for t in source.inputs):
      return True
  return False


# --- TensorFlow 2's dropout seen as TF 1.15's ---------------------------------------------------------------------


def _is_dropout_mask(op):
  """Whether `op` is the SelectV2(random >= rate, x * scale, 0) that ends TensorFlow 2's dropout."""
  if op.type != 'SelectV2':
    return False
  condition, _, zero = op.inputs
  return condition.op.type == 'GreaterEqual' and zero.op.type == 'Const' and tf.get_static_value(zero) == 0


def _tf115_type(op):
  """'Mul' for TensorFlow 2's dropout mask (TF 1.15's `mul_1 = mul * mask`), else `op.type`."""
  return 'Mul' if _is_dropout_mask(op) else op.type


def _tf115_name(op):
  """TF 1.15's dropout names: `<scope>/mul_1` for the mask, `<scope>/mul` for the scaling Mul it reads, else
  `op.name`. The FakeQuants and their variables are named after it."""
  scope, _, base = op.name.rpartition('/')
  head = scope + '/' if scope else ''
  if _is_dropout_mask(op):
    return head + 'mul_1'
  if op.type == 'Mul' and base == 'Mul':
    for reader in op.outputs[0].consumers():
      if _is_dropout_mask(reader) and reader.inputs[1] is op.outputs[0] and _scope_of(reader.name) == scope:
        return head + 'mul'
  return op.name


# --- finding the layers -------------------------------------------------------------------------------------------


def _layer_patterns():
  """The patterns of a layer, each named for what `_layers_to_quantize` reads from a match.

          weights | folded weights (Mul)
                 |
         Conv2D | MatMul | DepthwiseConv2dNative        <- also: a conv reading a conv (separable)
                 |
          [BatchToSpaceND]
                 |
     [bias add | folded bias (correction Mul, Add, Add) [Identity]]
                 |
             [bypass Add]
                 |
             activation
                 |
       [post-activation bypass Add]
  """
  variable = gm.OpTypePattern('Variable|VariableV2')
  partition = gm.OpTypePattern('Identity', inputs=[variable])
  weights = gm.OneofPattern([
      gm.OpTypePattern('Identity', name='weights', inputs=[gm.OneofPattern([
          partition, gm.OpTypePattern('ConcatV2', inputs=[partition, '*', '*']), variable])]),
      gm.OpTypePattern('ReadVariableOp', name='resource_weights'),
      gm.OpTypePattern('Mul', name='folded_weights')])
  layer = gm.OpTypePattern(_LAYERS, name='layer', inputs=['*', weights], ordered_inputs=False)
  layer_out = gm.OneofPattern([gm.OpTypePattern('BatchToSpaceND', inputs=[layer, '*', '*']), layer])

  def unordered(types, inputs, name=None):
    return gm.OpTypePattern(types, name=name, inputs=inputs, ordered_inputs=False)

  correction = unordered('Add|AddV2', [unordered('Mul', ['*', layer_out]), '*'])
  folded_bias = unordered('Add|AddV2', [correction, '*'], name='folded_bias')
  forced_update = gm.OpTypePattern('Identity', inputs=[folded_bias])  # a batch norm with forced updates
  bias = unordered('Add|AddV2|BiasAdd', [layer_out, '*'], name='bias')
  bypass = unordered('Add|AddV2', [gm.OneofPattern([bias, folded_bias, forced_update]), '*'], name='bypass')
  activation = gm.OpTypePattern('|'.join(sorted(_ACTIVATIONS)), name='activation', inputs=[
      gm.OneofPattern([bias, folded_bias, forced_update, bypass, layer])])
  return {
      'post_bypass': unordered('Add|AddV2', ['*', activation], name='post_bypass'),
      'activation': activation,
      'bias': gm.OneofPattern([bias, folded_bias]),
      'separable': unordered(_LAYERS, [gm.OneofPattern([layer_out]), '*']),
  }


def _weights_of(result, folded=True):
  for name in ('weights', 'resource_weights', 'folded_weights') if folded else ('weights', 'resource_weights'):
    tensor = result.get_tensor(name)
    if tensor is not None:
      return tensor
  return None


def _layers_to_quantize(graph):
  """The `_Layer`s of `graph`, largest pattern first, each Conv2D / MatMul / DepthwiseConv2dNative once.

  Matches overlap, so the passes go from the largest pattern down: layers with a post-activation bypass, layers
  ending at an activation, last layers whose (folded) bias add is the output, and the first conv of a separable
  pair (its output, with no activation, is what gets quantized).
  """
  patterns = _layer_patterns()
  layers, seen = [], set()

  def matches(name):
    return gm.GraphMatcher(patterns[name]).match_graph(graph)

  def keep(layer):
    if layer.layer_op not in seen:
      seen.add(layer.layer_op)
      layers.append(layer)

  def bias_op(result):
    return result.get_op('bias') or result.get_op('folded_bias')

  for result in matches('post_bypass'):
    keep(_Layer(result.get_op('layer'), _weights_of(result), result.get_op('activation'), result.get_op('bypass'),
                result.get_op('post_bypass'), bias_op(result)))
  for result in matches('activation'):
    layer = _Layer(result.get_op('layer'), _weights_of(result), result.get_op('activation'),
                   result.get_op('bypass'), None, bias_op(result))
    if layer.layer_op not in seen and not _estimates_statistics(layer.activation_op):
      keep(layer)
  for result in matches('bias'):
    keep(_Layer(result.get_op('layer'), _weights_of(result), bias_op(result), None, None, None))
  for result in matches('separable'):
    keep(_Layer(result.get_op('layer'), _weights_of(result, folded=False), result.get_op('layer'), None, None,
                None))
  return layers


def _estimates_statistics(activation_op):
  """Whether `activation_op` is the Identity between a conv / FC and the fused batch norm it feeds: after folding
  that path only computes the batch statistics, and is not quantized."""
  if activation_op.type != 'Identity' or len(activation_op.outputs) != 1:
    return False
  readers = activation_op.outputs[0].consumers()
  if len(readers) == 1 and readers[0].type in ('FusedBatchNorm', 'FusedBatchNormV3'):
    V1.logging.info('Skipping quantizing %s, because it is the output of a conv/fc followed by a identity, feeding '
                    'a fused batch norm.', activation_op.name)
    return True
  return False


# --- inserting one FakeQuant --------------------------------------------------------------------------------------


class _Inserter(object):
  """Puts a FakeQuant between a producer op's output 0 and its readers, with the rewrite's shared settings."""

  def __init__(self, is_training, ema_decay, quant_delay, vars_collection):
    self._is_training = is_training
    self._ema_decay = ema_decay
    self._quant_delay = quant_delay
    self._vars_collection = vars_collection

  def __call__(self, context, name, producer, consumers, moving_avg=True, init_min=-6.0, init_max=6.0, bits=8,
               symmetric=False, narrow_range=False, producer_scope=None, consumer_scope=None):
    """Inserts `<context>/<name>` (its `min` / `max` variables under that prefix) after `producer`.

    Nothing is inserted when `producer` is outside `producer_scope`, when any consumer is outside
    `consumer_scope`, or when the tensor is already read by a FakeQuant (overlapping matches).

    Raises:
      ValueError: a consumer does not read `producer`'s output 0.
    """
    if producer_scope and not producer.name.startswith(producer_scope):
      V1.logging.info('_InsertQuantOp ignores context="%s" name="%s" because producer "%s" is not in scope "%s"',
                      context, name, producer.name, producer_scope)
      return
    if consumer_scope:
      outside = [c for c in consumers if not c.name.startswith(consumer_scope)]
      if outside:
        V1.logging.info('_InsertQuantOp context="%s" name="%s" ignores consumer "%s" because it is not in scope '
                        '"%s"', context, name, outside[0].name, consumer_scope)
        return
      consumers = list(consumers)
    prefix = context + '/' + name if context else name
    # Under an enclosing name scope (TPUReplicate/loop) the variables would repeat it.
    current = V1.get_default_graph().get_name_scope()
    if current:
      prefix = common.DropStringPrefix(prefix, current + '/')

    tensor = producer.outputs[0]
    if _read_by_fake_quant(tensor):
      return
    options = dict(init_min=init_min, init_max=init_max, is_training=self._is_training, num_bits=bits,
                   symmetric=symmetric, narrow_range=narrow_range, vars_collection=self._vars_collection,
                   name_prefix=prefix)
    if moving_avg:
      quant = quant_ops.MovingAvgQuantize(tensor, ema_decay=self._ema_decay, **options)
    else:
      quant = quant_ops.LastValueQuantize(tensor, **options)
    if self._quant_delay and self._quant_delay > 0:
      active = tf.math.greater_equal(common.CreateOrGetQuantizationStep(), self._quant_delay,
                                     name=prefix + '/activate_quant')
      quant = V1.cond(active, lambda: quant, lambda: tensor, name=prefix + '/delayed_quant')
    # an op can read the tensor more than once: at least one rerouted input per consumer
    if consumers and common.RerouteTensor(quant, tensor, can_modify=consumers) < len(consumers):
      raise ValueError('No inputs quantized for ops: [%s]' % ', '.join(c.name for c in consumers))


def _read_by_fake_quant(tensor):
  """Whether a FakeQuant reads `tensor`, directly or through Reshape / Identity ops."""
  pending = list(tensor.consumers())
  while pending:
    op = pending.pop()
    if op.type in _FAKE_QUANTS:
      return True
    if op.type in ('Reshape', 'Identity'):
      for output in op.outputs:
        pending.extend(output.consumers())
  return False
