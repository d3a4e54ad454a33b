"""Batch-norm folding, TF 1.15's `tensorflow/contrib/quantize/python/fold_batch_norms.py` rewritten.

`FoldBatchNorms(graph, is_training, freeze_batch_norm_delay=None)` replaces each batch norm that follows a Conv2D,
MatMul or DepthwiseConv2dNative by a copy of that layer, `<layer>_Fold`, whose weights are scaled by
gamma / sqrt(variance + epsilon) (`mul_fold`) and whose output gets the folded bias (`add_fold`); the batch norm's
consumers are rerouted to `add_fold`. The quantize rewrite then sees the weights the inference graph will use.

Two kinds of batch norm, found two ways, as TF 1.15 found them:
- fused ones (FusedBatchNorm / FusedBatchNormV3) by op pattern; the new ops go in `<scope>/BatchNorm_Fold/`.
- unfused ones (slim's `batch_norm(fused=False)`) by name: `<context>BatchNorm/batchnorm_1/...`, with the moving
  statistics picked by the best-matching name (`_best_named_tensor`).
In training the batch statistics are kept through `batch_norm_correction` (scale, reciprocal, offset), which after
`freeze_batch_norm_delay` steps switches to the moving statistics and freezes their updates (the decay becomes 0).

Special here:
- the ops are built with the op types TF 1.15 built: its `math_ops.add` made `Add` (TensorFlow 2's makes AddV2).
- TensorFlow's FusedBatchNorm gradient ignores the batch mean / variance outputs the folded weights read, so each
  training batch norm gets the gradient `FoldFusedBatchNormGrad`. TF 1.15 set the op's `_gradient_op_type`
  attribute after the op existed, and so does this module, through `tf.Operation._set_attr` (TensorFlow 2.21 has no
  public way to change an existing op's attribute).
- under TensorFlow 2.21 a TF1 script's training FusedBatchNormV3 reads the moving mean / variance as its mean /
  variance inputs (TF 1.15's read empty constants); training folds read its batch-statistics outputs either way.
- the batch variance is un-Bessel-corrected (`Undo_Bessel_Correction`) for every match TF 1.15's matcher found,
  duplicates included, so the graph has the same (partly dangling) ops TF 1.15's had.
"""

import tensorflow as tf

from tf1clip.contrib.quantize.python import common
from tf1clip.contrib.quantize.python import graph_matcher as gm
from tf1clip.contrib.quantize.python import input_to_ops

V1 = tf.compat.v1

_LAYER_TYPES = 'Conv2D|DepthwiseConv2dNative|MatMul'
_UNFUSED = 'BatchNorm/batchnorm_1/'


def FoldBatchNorms(graph, is_training, freeze_batch_norm_delay=None):  # pylint: disable=invalid-name
  """Folds the batch norms of `graph` into the Conv2D / MatMul / DepthwiseConv2dNative layers before them.

  Args:
    graph: the tf.Graph, rewritten in place.
    is_training: whether `graph` trains (unfused batch norms get the batch-statistics corrections then; a fused
      one follows its own `is_training` attribute).
    freeze_batch_norm_delay: steps after which training uses, and stops updating, the moving mean and variance
      (None: never).

  Raises:
    ValueError: a batch norm could not be folded.
  """
  for site in _fused_sites(graph):
    _fold_fused(graph, site, freeze_batch_norm_delay)
  _fold_unfused(graph, is_training, freeze_batch_norm_delay)


class _Site(object):
  """What folding one batch norm needs: the layer, the statistics, the tensors to reroute."""

  def __init__(self, **fields):
    for name in ('layer_op', 'bn_op', 'output', 'input', 'weights', 'gamma', 'beta', 'mean', 'variance',
                 'moving_mean', 'moving_variance', 'decay_mean', 'decay_variance', 'epsilon', 'batch_to_space'):
      setattr(self, name, fields.pop(name, None))
    assert not fields, fields


def _add(x, y, name):
  """An `Add` op: what TF 1.15's math_ops.add built where TensorFlow 2's builds AddV2."""
  x = tf.convert_to_tensor(x)
  return tf.raw_ops.Add(x=x, y=tf.convert_to_tensor(y, dtype_hint=x.dtype), name=name)


def _switch_or_pick(use_moving, when_frozen, otherwise, name):
  """TF 1.15's smart_cond here: a False `use_moving` picks `otherwise` now, a step comparison builds a cond."""
  if use_moving is False:
    return otherwise()
  return V1.cond(use_moving, true_fn=when_frozen, false_fn=otherwise, name=name)


# --- fused batch norms ----------------------------------------------------------------------------------------


def _fused_matcher():
  """A matcher of a fused batch norm after a layer, with the names `_fused_site` reads back."""
  layer = gm.OpTypePattern(_LAYER_TYPES, name='layer', inputs=['*', '*'])
  batch_to_space = gm.OpTypePattern('BatchToSpaceND', name='batch_to_space', inputs=[layer, '*', '*'])
  layer_out = gm.OneofPattern([
      gm.OpTypePattern('Identity', inputs=[gm.OneofPattern([batch_to_space, layer])]), layer, batch_to_space])
  # a MatMul reaches its batch norm through a Reshape to 4-D, and leaves it through one back to 2-D
  bn_in = gm.OneofPattern([gm.OpTypePattern('Reshape', inputs=[layer_out, '*']), layer_out])
  bn = gm.OpTypePattern('FusedBatchNorm|FusedBatchNormV3', name='bn', inputs=[bn_in, '*', '*', '*', '*'])
  # TF 1.15 also tried an Identity with two inputs (the batch norm and its output Reshape) first; no Identity op
  # has two inputs, so it never matched and is left out.
  return gm.GraphMatcher(gm.OneofPattern([gm.OpTypePattern('Reshape', name='bn_reshape', inputs=[bn, '*']), bn]))


def _fused_sites(graph):
  """The fused batch norms to fold, one per layer, in TF 1.15's order."""
  sites, layers = [], set()
  for result in _fused_matcher().match_graph(graph):
    site = _fused_site(graph, result)
    if site is not None and site.layer_op not in layers:
      layers.add(site.layer_op)
      sites.append(site)
  return sites


def _fused_site(graph, result):
  """The `_Site` of one match, or None for a MatMul matched without its output Reshape or an unused batch norm."""
  layer_op, bn_op = result.get_op('layer'), result.get_op('bn')
  output = bn_op.outputs[0]
  if layer_op.type == 'MatMul':
    reshape = result.get_op('bn_reshape')
    if reshape is None:
      return None  # the same batch norm matches again with its Reshape
    output = reshape.outputs[0]
  if not output.consumers():
    return None
  site = _Site(layer_op=layer_op, bn_op=bn_op, output=output, input=layer_op.inputs[0], weights=layer_op.inputs[1],
               gamma=bn_op.inputs[1], beta=bn_op.inputs[2], mean=bn_op.inputs[3], variance=bn_op.inputs[4],
               epsilon=bn_op.get_attr('epsilon'), batch_to_space=result.get_op('batch_to_space'))
  if bn_op.get_attr('is_training'):
    # Training: the statistics are the batch's, outputs 1 and 2 (the inputs are the moving ones or empty).
    bn_op._set_attr('_gradient_op_type', V1.AttrValue(s=b'FoldFusedBatchNormGrad'))  # pylint: disable=protected-access
    site.mean = bn_op.outputs[1]
    site.variance = _biased_variance(graph, bn_op, result.get_tensor('layer'))
    for index, (moving, decay) in _moving_average_updates(graph, bn_op).items():
      if index == 1:
        site.moving_mean, site.decay_mean = moving, decay
      else:
        site.moving_variance, site.decay_variance = moving, decay
  return site


def _biased_variance(graph, bn_op, layer_output):
  """The batch variance without the N / (N - 1) Bessel factor the fused op's output 2 carries."""
  scope = bn_op.name.rpartition('/')[0]
  with graph.as_default(), graph.name_scope(scope + '/' if scope else ''):
    count = tf.cast(tf.size(layer_output) / tf.size(bn_op.outputs[1]), tf.float32)
    return tf.multiply(bn_op.outputs[2], (count - 1) / count, name='Undo_Bessel_Correction')


def _moving_average_updates(graph, bn_op):
  """{1 or 2: (moving statistic, decay)} of the `(moving - batch statistic) * decay` updates of `bn_op`'s outputs.

  The last update found wins, as in TF 1.15.
  """
  wanted = {bn_op.outputs[1].name: 1, bn_op.outputs[2].name: 2}
  found = {}
  for op in graph.get_operations():
    if op.type != 'Mul' or len(op.inputs) != 2:
      continue
    sub = op.inputs[0].op
    if sub.type == 'Sub' and len(sub.inputs) == 2 and sub.inputs[1].name in wanted:
      found[wanted[sub.inputs[1].name]] = (sub.inputs[0], op.inputs[1])
  return found


def _fold_fused(graph, site, freeze_batch_norm_delay):
  """Builds `<layer>_Fold` with the folded weights and bias, and reroutes the batch norm's consumers to it."""
  scope = site.layer_op.name.rpartition('/')[0]
  scope = scope + '/' if scope else ''
  scale, recip, offset = None, None, None
  with graph.as_default(), graph.name_scope(scope):
    with graph.name_scope(scope + 'BatchNorm_Fold' + ('/' if scope else '')):
      multiplier = site.gamma * tf.math.rsqrt(site.variance + site.epsilon)
      bias = tf.subtract(site.beta, site.mean * multiplier, name='bias')
      if site.bn_op.get_attr('is_training'):
        scale, recip, offset = _corrections('', site, freeze_batch_norm_delay)
      if site.layer_op.type == 'DepthwiseConv2dNative':
        # depthwise weights are [h, w, in, multiplier]: the per-channel factors take that shape
        channels = site.weights.get_shape().as_list()[2:4]
        multiplier = tf.reshape(multiplier, channels, name='scale_reshape')
        if scale is not None:
          scale = tf.reshape(scale, channels, name='correction_reshape')
    weights = site.weights
    if scale is not None:
      weights = tf.multiply(scale, weights, name='correction_mult')
    folded = _fused_layer_copy(site.layer_op, site.input, tf.multiply(weights, multiplier, name='mul_fold'),
                               site.batch_to_space)
    if recip is not None:
      folded = _add(tf.multiply(recip, folded, name='post_conv_mul'), offset, 'correction_add')
    folded = _add(folded, bias, name='add_fold')
    if common.RerouteTensor(folded, site.output) == 0:
      raise ValueError('Folding batch norms failed, %s had no outputs.' % site.output.name)


def _fused_layer_copy(layer_op, inputs, weights, batch_to_space):
  """`layer_op` again, reading `inputs` and `weights`, named `<its name>_Fold` in the current scope."""
  name = layer_op.name.rpartition('/')[2] + '_Fold'
  attr = layer_op.get_attr
  if layer_op.type == 'Conv2D':
    return V1.nn.conv2d(inputs, weights, strides=attr('strides'), padding=attr('padding'),
                        use_cudnn_on_gpu=attr('use_cudnn_on_gpu'), data_format=attr('data_format').decode(),
                        name=name)
  if layer_op.type == 'MatMul':
    return V1.matmul(inputs, weights, transpose_a=attr('transpose_a'), transpose_b=attr('transpose_b'), name=name)
  # DepthwiseConv2dNative: an atrous one keeps reading its SpaceToBatchND and gets its own BatchToSpaceND (the
  # dilations are not copied).
  out = V1.nn.depthwise_conv2d(inputs, weights, strides=attr('strides'), padding=attr('padding'), name=name)
  if batch_to_space:
    batch_to_space = layer_op.outputs[0].consumers()[0]
    out = V1.batch_to_space_nd(out, batch_to_space.inputs[1], batch_to_space.inputs[2],
                               name=batch_to_space.name.rpartition('/')[2] + '_Fold')
  return out


@tf.RegisterGradient('FoldFusedBatchNormGrad')
def _fold_fused_batch_norm_grad(op, unused_grad_y, grad_mean, grad_var, *unused):
  """The gradient of a training fused batch norm through its batch mean and variance outputs (to x only)."""
  del unused_grad_y, unused
  x = op.inputs[0]
  count = tf.cast(tf.size(x) / tf.size(grad_mean), tf.float32)
  through_mean = grad_mean / count
  through_variance = 2 * grad_var * (x - op.outputs[1]) / (count - 1)
  return through_mean + through_variance, None, None, None, None


# --- the batch-statistics corrections (both kinds) --------------------------------------------------------------


def _corrections(context, site, freeze_batch_norm_delay):
  """(scale, reciprocal, offset) that keep a folded training layer on the batch statistics until frozen.

  Before the freeze: scale = sigma_batch / sigma_moving, reciprocal = 1 / scale, offset = 0, so the weights are
  quantized as the inference graph scales them while the output stays the batch-normalized one. From step
  `freeze_batch_norm_delay` on: reciprocal = 1, offset = gamma * (mu_batch / sigma_batch - mu_moving /
  sigma_moving), and the moving averages stop moving (their decay input becomes 0).
  """
  with V1.get_default_graph().name_scope(context + 'batch_norm_correction'):
    recip_sigma_moving = tf.math.rsqrt(site.moving_variance + site.epsilon)
    recip_sigma = tf.math.rsqrt(site.variance + site.epsilon)
    scale = tf.identity(tf.math.divide(recip_sigma_moving, recip_sigma, name='scale_compute'),
                        name='correction_scale')
    recip = tf.math.reciprocal(scale, name='reciprocal_compute')
    offset = tf.multiply(site.gamma, site.mean * recip_sigma - site.moving_mean * recip_sigma_moving,
                         name='offset_compute')
    use_moving = False
    if freeze_batch_norm_delay is not None:
      use_moving = tf.math.greater_equal(common.CreateOrGetQuantizationStep(), freeze_batch_norm_delay,
                                         name='use_moving_average')
    for decay, name in ((site.decay_mean, 'freeze_moving_mean'), (site.decay_variance, 'freeze_moving_var')):
      readers = list(decay.consumers())  # before the cond, which reads it too
      frozen = _switch_or_pick(use_moving, lambda: 0.0, lambda decay=decay: decay, name)
      common.RerouteTensor(frozen, decay, can_modify=readers)
    recip = _switch_or_pick(use_moving, lambda: tf.ones(scale.shape), lambda: recip, 'correction_recip')
    offset = _switch_or_pick(use_moving, lambda: offset, lambda: tf.zeros(offset.shape), 'correction_offset')
  return scale, recip, offset


# --- unfused batch norms (slim's, by name) ------------------------------------------------------------------------


def _fold_unfused(graph, is_training, freeze_batch_norm_delay):
  """Folds each slim unfused batch norm: `mul_fold`, `<layer>_Fold`, `add_fold` under its context."""
  readers = input_to_ops.InputToOps(graph)
  for context in common.BatchNormGroups(graph):
    rsqrt = graph.get_operation_by_name(context + _UNFUSED + 'Rsqrt')
    # with gamma, Rsqrt feeds one Mul (by gamma; its product scales the layer); without, two (layer and mean)
    has_scaling = sum(op.type == 'Mul' for op in readers.ConsumerOperations(rsqrt)) == 1
    if not graph.get_operation_by_name(context + _UNFUSED + 'add_1').outputs[0].consumers():
      continue  # a dangling batch norm
    original, folded = _fold_unfused_one(graph, context, has_scaling, freeze_batch_norm_delay, is_training)
    reader = common.GetEndpointActivationOp(graph, context)
    if reader is None:
      # no activation: a bypass Add one scope up reads the batch norm
      outer = context.rstrip('/').rpartition('/')[0]
      reader = graph.get_operation_by_name((outer + '/' if outer else '') + 'AddV2')
    if common.RerouteTensor(folded.outputs[0], original.outputs[0], can_modify=[reader]) != 1:
      raise ValueError('Unexpected inputs to op: %s' % reader.name)


def _fold_unfused_one(graph, context, has_scaling, freeze_batch_norm_delay, is_training):
  """Builds the folded copy of one unfused batch norm's layer; returns (its `add_1`, the new `add_fold`)."""
  bn_ops = context + _UNFUSED
  scale_mul = graph.get_operation_by_name(bn_ops + ('mul_1' if has_scaling else 'mul'))
  layer_op, batch_to_space = scale_mul.inputs[0].op, None
  if layer_op.type == 'BatchToSpaceND':  # atrous
    layer_op, batch_to_space = layer_op.inputs[0].op, layer_op
  weights = layer_op.inputs[1]
  site = _unfused_site(graph, context, has_scaling)
  scale, recip, offset = None, None, None
  if is_training:
    scale, recip, offset = _corrections(context, site, freeze_batch_norm_delay)

  if layer_op.type not in ('Conv2D', 'MatMul', 'DepthwiseConv2dNative'):
    raise ValueError('Cannot handle operation of type: %s' % layer_op.type)
  replaced = [(0, None)]
  if layer_op.type == 'DepthwiseConv2dNative':
    channels = weights.get_shape().as_list()[2:4]
    factor = graph.get_operation_by_name(bn_ops + ('mul' if has_scaling else 'Rsqrt')).outputs[0]
    replaced.append((1, tf.reshape(factor, channels, context + 'scale_reshape')))
    if scale is not None:
      scale = tf.reshape(scale, channels, context + 'correction_reshape')
  if scale is not None:
    with V1.device(scale_mul.device):
      weights = tf.multiply(scale, weights, context + 'correction_mult')
  replaced[0] = (0, weights)
  mul_fold = _copy_op(scale_mul, context + 'mul_fold', replaced)
  _check_same_shape('mul_fold', mul_fold.inputs[0], mul_fold.outputs[0])

  layer_fold = _copy_op(layer_op, layer_op.name + '_Fold', [(1, mul_fold.outputs[0])])
  add_shift = graph.get_operation_by_name(bn_ops + 'add_1')
  out = layer_fold.outputs[0]
  if batch_to_space:
    out = V1.batch_to_space_nd(out, batch_to_space.inputs[1], batch_to_space.inputs[2],
                               name=batch_to_space.name + '_Fold')
  if offset is not None:
    with V1.device(layer_fold.device):
      out = _add(tf.multiply(recip, out, context + 'post_conv_mul'), offset, context + 'correction_add')
  add_fold = _copy_op(add_shift, context + 'add_fold', [(0, out)])
  _check_same_shape('add_fold', add_fold.inputs[0], add_fold.outputs[0])
  return add_shift, add_fold


def _unfused_site(graph, context, has_scaling):
  """The statistics of an unfused batch norm, each the op whose name ends right and best matches `context`."""
  resource = V1.get_variable_scope().use_resource
  read = '/Read/ReadVariableOp' if resource else '/read'

  def find(suffix):
    return _best_named_tensor(graph, 'BatchNorm/' + suffix, context)

  site = _Site(mean=find('moments/Squeeze'), variance=find('moments/Squeeze_1'),
               moving_mean=find('moving_mean' + read), moving_variance=find('moving_variance' + read),
               epsilon=find('batchnorm_1/add/y'), decay_mean=find('AssignMovingAvg/decay'),
               decay_variance=find('AssignMovingAvg_1/decay'))
  # (TF 1.15 built, and did not raise, a ValueError when neither mean was found; nor does this.)
  if has_scaling:
    site.gamma = find('gamma' + (read if resource else ''))
  else:
    site.gamma = tf.ones(site.moving_mean.shape)
  return site


def _best_named_tensor(graph, suffix, scope):
  """The output 0 of the op whose name ends with `suffix` and shares most '/'-parts with `scope` (first wins).

  With an empty `scope` any such op counts; else at least one part must be shared. MobilenetV1's contexts repeat
  their head (MobilenetV1/MobilenetV1/Conv2d_3_depthwise/) where the variables do not, hence the part count.
  """
  parts = set(scope.split('/'))
  best, best_score = None, -1
  for op in graph.get_operations():
    if op.name.endswith(suffix):
      score = len(parts & set(op.name.split('/')))
      if (score > 0 or not scope) and score > best_score:
        best, best_score = op, score
  return None if best is None else best.outputs[0]


def _copy_op(op, name, replaced):
  """`op` built again as `name`, with input i replaced by tensor t for each (i, t) of `replaced`."""
  inputs = list(op.inputs)
  for index, tensor in replaced:
    inputs[index] = tensor
  attr = op.get_attr
  if op.type == 'Mul':
    return tf.multiply(inputs[0], inputs[1], name=name).op
  if op.type in ('Add', 'AddV2'):
    return _add(inputs[0], inputs[1], name=name).op
  if op.type == 'Conv2D':
    _check_layer_shapes(op.name, inputs[0], inputs[1], (4, 3), (4, 2))
    return V1.nn.conv2d(inputs[0], inputs[1], strides=attr('strides'), padding=attr('padding'),
                        use_cudnn_on_gpu=attr('use_cudnn_on_gpu'), data_format=attr('data_format').decode(),
                        name=name).op
  if op.type == 'DepthwiseConv2dNative':
    _check_layer_shapes(op.name, inputs[0], inputs[1], (4, 3), (4, 2))
    return V1.nn.depthwise_conv2d(inputs[0], inputs[1], strides=attr('strides'), padding=attr('padding'),
                                  name=name).op
  if op.type == 'MatMul':
    _check_layer_shapes(op.name, inputs[0], inputs[1], (2, 1), (2, 0))
    return V1.matmul(inputs[0], inputs[1], transpose_a=attr('transpose_a'), transpose_b=attr('transpose_b'),
                     name=name).op
  raise TypeError('Unsupported operation type: %s' % op.type)


def _check_layer_shapes(op_name, first, second, first_rank_dim, second_rank_dim):
  """ValueError unless both inputs have their rank and the two named dimensions agree (where known)."""
  a, b = first.get_shape(), second.get_shape()
  (rank_a, dim_a), (rank_b, dim_b) = first_rank_dim, second_rank_dim
  ok = a.ndims == rank_a and b.ndims == rank_b
  if ok:
    size_a, size_b = tf.compat.dimension_value(a[dim_a]), tf.compat.dimension_value(b[dim_b])
    ok = size_a is None or size_b is None or size_a == size_b  # TF 1.15's unknown Dimension compared as "maybe"
  if not ok:
    raise ValueError('Incompatible shapes for op %s inputs: %s and %s' % (op_name, a, b))


def _check_same_shape(op_name, before, after):
  if not before.get_shape().is_compatible_with(after.get_shape()):
    raise ValueError('%s should not change tensor shape: input %s, output %s'
                     % (op_name, before.get_shape(), after.get_shape()))
