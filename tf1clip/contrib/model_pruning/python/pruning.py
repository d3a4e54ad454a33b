"""`tf.contrib.model_pruning`'s pruning: masks on weights and the Pruning class that updates them, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/model_pruning/python/pruning.py`.

    pruning_hparams = get_pruning_hparams().parse("target_sparsity=0.9,pruning_frequency=2")
    p = Pruning(pruning_hparams, global_step=global_step)
    mask_update_op = p.conditional_mask_update_op()   # run it after each training step

`apply_mask(x, scope)` masks any weight tensor (creating `<scope>/mask` and `<scope>/threshold`); the masked
layers and cells of this package do the same for their kernels. The collections `masks`, `thresholds`,
`masked_weights` and `kernel` hold what `Pruning` prunes. At each mask update every weight's threshold becomes
the magnitude of its k-th largest entry (k = round(size * (1 - sparsity)), optionally smoothed by
`threshold_decay`), and its mask keeps the entries at or above it; block pruning (block_height / block_width > 1)
does this on the AVG or MAX pooled blocks. The sparsity follows TF 1.15's polynomial schedule from
`initial_sparsity` to `target_sparsity` between the sparsity function's begin and end steps, and
`last_mask_update_step` (an int32 variable under the spec's name) spaces the updates `pruning_frequency` apart.
"""

import re

import tensorflow as tf
from tensorflow.python.ops import variables as tf_variables  # PartitionedVariable has no public name

import tf1clip.contrib.model_pruning.python.layers.core_layers as core
import tf1clip.contrib.model_pruning.python.pruning_utils as pruning_utils
import tf1clip.contrib.training as training

_MASK_COLLECTION = core.MASK_COLLECTION
_THRESHOLD_COLLECTION = core.THRESHOLD_COLLECTION
_MASKED_WEIGHT_COLLECTION = core.MASKED_WEIGHT_COLLECTION
_WEIGHT_COLLECTION = core.WEIGHT_COLLECTION
_MASKED_WEIGHT_NAME = core.MASKED_WEIGHT_NAME

def apply_mask(x, scope=""):
  """Creates `<scope>/mask` and `<scope>/threshold` for weight tensor `x`; returns mask * x.

  The mask, threshold, masked weight and `x` are added to the pruning collections once per mask.

  Args:
    x: the weight tensor (or variable).
    scope: the variable scope for the mask and threshold (default: the current one).

  Returns:
    The masked weight tensor (named `weights/masked_weight`).
  """
  mask = pruning_utils.weight_mask_variable(x, scope)
  threshold = pruning_utils.weight_threshold_variable(x, scope)
  # Add masked_weights in the weights namescope so as to make it easier
  # for the quantization library to add quant ops.
  masked_weights = tf.multiply(mask, x, _MASKED_WEIGHT_NAME)

  # Make sure the mask for a given variable are not added multiple times to the
  # collection. This is particularly important when applying mask to RNN's
  # weight variables
  if mask not in tf.compat.v1.get_collection_ref(_MASK_COLLECTION):
    tf.compat.v1.add_to_collection(_THRESHOLD_COLLECTION, threshold)
    tf.compat.v1.add_to_collection(_MASK_COLLECTION, mask)
    tf.compat.v1.add_to_collection(_MASKED_WEIGHT_COLLECTION, masked_weights)
    tf.compat.v1.add_to_collection(_WEIGHT_COLLECTION, x)
  return masked_weights

def get_masked_weights():
  """The `masked_weights` collection: every mask * weight tensor."""
  return tf.compat.v1.get_collection(_MASKED_WEIGHT_COLLECTION)

def get_masks():
  """The `masks` collection: every mask variable."""
  return tf.compat.v1.get_collection(_MASK_COLLECTION)

def get_thresholds():
  """The `thresholds` collection: every threshold variable."""
  return tf.compat.v1.get_collection(_THRESHOLD_COLLECTION)

def get_weights():
  """The `kernel` collection: every weight that has a mask."""
  return tf.compat.v1.get_collection(_WEIGHT_COLLECTION)

def get_weight_sparsity():
  """A list of each mask's fraction of zeros (a scalar tensor per mask)."""
  masks = get_masks()
  return [tf.math.zero_fraction(mask) for mask in masks]

def get_pruning_hparams():
  """The pruning hyperparameters with TF 1.15's defaults, as a contrib.training HParams.

    name='model_pruning': the name scope of the pruning ops and variables;
    begin_pruning_step=0, end_pruning_step=-1 (-1: prune until training stops);
    weight_sparsity_map=['']: "regex:sparsity" entries giving some weights their own target sparsity;
    block_dims_map=['']: "regex:HxW" entries giving some weights their own block dims;
    threshold_decay=0.0: the exponential decay of the thresholds;
    pruning_frequency=10: global steps between mask updates;
    nbins=256: bins for the histogram (kept for compatibility; the threshold comes from a sort);
    block_height=1, block_width=1 (-1: the weight's whole dimension), block_pooling_function='AVG' (or 'MAX');
    initial_sparsity=0.0, target_sparsity=0.5;
    sparsity_function_begin_step=0, sparsity_function_end_step=100, sparsity_function_exponent=3.0:
      sparsity(step) = target + (initial - target) * (1 - p) ** exponent with
      p = clip((step - begin) / (end - begin), 0, 1);
    use_tpu=False: factorized pooling and a resource last_mask_update_step.

  Returns:
    A tf.contrib.training.HParams.
  """
  return training.HParams(
      name="model_pruning",
      begin_pruning_step=0,
      end_pruning_step=-1,
      weight_sparsity_map=[""],
      block_dims_map=[""],
      threshold_decay=0.0,
      pruning_frequency=10,
      nbins=256,
      block_height=1,
      block_width=1,
      block_pooling_function="AVG",
      initial_sparsity=0.0,
      target_sparsity=0.5,
      sparsity_function_begin_step=0,
      sparsity_function_end_step=100,
      sparsity_function_exponent=3.0,
      use_tpu=False)

class Pruning(object):
  """Builds the ops that update every mask of the pruning collections to the scheduled sparsity."""

  def __init__(self, spec=None, global_step=None, sparsity=None):
    """Set up the specification for model pruning.

    If a spec is provided, the sparsity is set up based on the sparsity_function
    in the spec. The effect of sparsity_function is overridden if the sparsity
    variable is passed to the constructor. This enables setting up arbitrary
    sparsity profiles externally and passing it to this pruning functions.

    Args:
      spec: the pruning HParams (default: get_pruning_hparams()).
      global_step: the step tensor the sparsity function follows (default: the graph's global step).
      sparsity: optional scalar tensor overriding the sparsity function.
    """
    # Pruning specification
    self._spec = spec if spec else get_pruning_hparams()

    # Sanity check for pruning hparams
    self._validate_spec()

    # A tensorflow variable that tracks the sparsity function.
    # If not provided as input, the graph must already contain the global_step
    # variable before calling this constructor.
    self._global_step = self._setup_global_step(global_step)

    # Stores the tensorflow sparsity variable.
    # Built using self._setup_sparsity() or provided externally
    self._sparsity = (sparsity if sparsity is not None else self._setup_sparsity())

    # List of tensorflow assignments ops for new masks and thresholds
    self._assign_ops = []

    # Tensorflow variable keeping track of the last global step when the masks
    # were updated
    self._last_update_step = self._setup_last_update_step()

    # Block dimensions
    self._block_dims = [self._spec.block_height, self._spec.block_width]

    # Block pooling function
    self._block_pooling_function = self._spec.block_pooling_function

    # Mapping of layer/weight names and block dims
    self._block_dims_map = self._get_block_dims_map()

    # Mapping of weight names and target sparsity
    self._weight_sparsity_map = self._get_weight_sparsity_map()

  def _validate_spec(self):
    spec = self._spec
    if spec.begin_pruning_step < 0:
      raise ValueError("Illegal value for begin_pruning_step")

    if spec.begin_pruning_step >= spec.end_pruning_step:
      if spec.end_pruning_step != -1:
        raise ValueError(
            "Pruning must begin before it can end. begin_step=%d, end_step=%d."
            "Set end_pruning_step to -1 if pruning is required till training"
            "stops" % (spec.begin_pruning_step, spec.end_pruning_step))

    if spec.sparsity_function_begin_step < 0:
      raise ValueError("Illegal value for sparsity_function_begin_step")

    if spec.sparsity_function_begin_step >= spec.sparsity_function_end_step:
      raise ValueError("Sparsity function requires begin_step < end_step")

    if not 0.0 <= spec.threshold_decay < 1.0:
      raise ValueError("threshold_decay must be in range [0,1)")

    if not 0.0 <= spec.initial_sparsity < 1.0:
      raise ValueError("initial_sparsity must be in range [0,1)")

    if not 0.0 <= spec.target_sparsity < 1.0:
      raise ValueError("target_sparsity must be in range [0,1)")

  def _setup_global_step(self, global_step):
    graph_global_step = global_step
    if graph_global_step is None:
      graph_global_step = tf.compat.v1.train.get_global_step()

    return tf.cast(graph_global_step, tf.int32)

  def _setup_sparsity(self):
    begin_step = self._spec.sparsity_function_begin_step
    end_step = self._spec.sparsity_function_end_step
    initial_sparsity = self._spec.initial_sparsity
    target_sparsity = self._spec.target_sparsity
    exponent = self._spec.sparsity_function_exponent

    with tf.compat.v1.name_scope(self._spec.name):
      p = tf.minimum(
          1.0,
          tf.maximum(0.0, tf.compat.v1.div(tf.cast(self._global_step - begin_step, tf.float32),
                                           end_step - begin_step)))
      sparsity = tf.add(
          tf.multiply(initial_sparsity - target_sparsity, tf.pow(1 - p, exponent)), target_sparsity,
          name="sparsity")

    return sparsity

  def _setup_last_update_step(self):
    with tf.compat.v1.variable_scope(self._spec.name, use_resource=self._spec.use_tpu) as scope:
      try:
        last_update_step = tf.compat.v1.get_variable(
            "last_mask_update_step", [], initializer=tf.compat.v1.zeros_initializer(), trainable=False,
            dtype=tf.int32)
      except ValueError:
        scope.reuse_variables()
        last_update_step = tf.compat.v1.get_variable("last_mask_update_step", dtype=tf.int32)
    return last_update_step

  def _get_block_dims_map(self):
    """Returns the map of layer name: block dims."""
    block_dims_map = {}
    val_list = self._spec.block_dims_map
    filtered_val_list = [l for l in val_list if l]
    for val in filtered_val_list:
      weight_name, block_dims_str = val.split(":")
      block_dims_str = block_dims_str.split("x")
      if len(block_dims_str) != 2:
        raise ValueError("Expected 2 values for block dim for %s, got %s" % (weight_name, block_dims_str))
      block_dims = [int(block_dims_str[0]), int(block_dims_str[1])]
      block_dims_map[re.compile(weight_name)] = block_dims

    return block_dims_map

  def _get_block_dims(self, weight_name):
    """Returns the block dims for the given layer/weight name."""
    block_dims_list = [block_dims for regexp, block_dims in self._block_dims_map.items()
                       if regexp.search(weight_name)]
    if not block_dims_list:
      return self._block_dims

    if len(block_dims_list) > 1:
      raise ValueError("Multiple matches in block_dims_map for weight %s" % weight_name)

    return block_dims_list[0]

  def _get_weight_sparsity_map(self):
    """Returns the map of weight_name:sparsity parsed from the hparams."""
    weight_sparsity_map = {}
    val_list = self._spec.weight_sparsity_map
    filtered_val_list = [l for l in val_list if l]
    for val in filtered_val_list:
      weight_name, sparsity = val.split(":")
      if float(sparsity) >= 1.0:
        raise ValueError("Weight sparsity can not exceed 1.0")
      weight_sparsity_map[re.compile(weight_name)] = float(sparsity)

    return weight_sparsity_map

  def _get_sparsity(self, weight_name):
    """Returns target sparsity for the given layer/weight name."""
    target_sparsity = [sparsity for regexp, sparsity in self._weight_sparsity_map.items()
                       if regexp.search(weight_name)]
    if not target_sparsity:
      return self._sparsity

    if len(target_sparsity) > 1:
      raise ValueError("Multiple matches in weight_sparsity_map for weight %s" % weight_name)
    # As in TF 1.15, this scaling is right when initial_sparsity = 0.
    return tf.multiply(self._sparsity, tf.compat.v1.div(target_sparsity[0], self._spec.target_sparsity))

  def _update_mask(self, weights, threshold):
    """The new (smoothed threshold, mask) of `weights` for the current sparsity.

    The threshold is the magnitude of the k-th largest entry, k = round(size * (1 - sparsity)), averaged with
    the old threshold by threshold_decay; the mask is 1 where |weights| >= that threshold.

    Args:
      weights: the weight tensor.
      threshold: its current threshold.

    Returns:
      (new_threshold, new_mask).

    Raises:
      ValueError: if sparsity is not defined.
    """
    if self._sparsity is None:
      raise ValueError("Sparsity variable undefined")

    sparsity = self._get_sparsity(weights.op.name)
    with tf.compat.v1.name_scope(weights.op.name + "_pruning_ops"):
      abs_weights = tf.abs(weights)
      k = tf.cast(tf.round(tf.cast(tf.size(abs_weights), tf.float32) * (1 - sparsity)), tf.int32)
      # Sort the entire array
      values, _ = tf.nn.top_k(tf.reshape(abs_weights, [-1]), k=tf.size(abs_weights))
      # Grab the (k-1) th value
      current_threshold = tf.gather(values, k - 1)
      smoothed_threshold = tf.add_n([
          tf.multiply(current_threshold, 1 - self._spec.threshold_decay),
          tf.multiply(threshold, self._spec.threshold_decay)
      ])

      new_mask = tf.cast(tf.greater_equal(abs_weights, smoothed_threshold), tf.float32)

    return smoothed_threshold, new_mask

  def _maybe_update_block_mask(self, weights, threshold):
    """Block-granular (new_threshold, new_mask) when the weight is 2D once squeezed and blocks are > 1x1.

    Otherwise elementwise, as `_update_mask`.

    Args:
      weights: the weight tensor.
      threshold: its current threshold.

    Returns:
      (new_threshold, new_mask).

    Raises:
      ValueError: if block pooling function is not AVG or MAX.
    """
    block_dims = self._get_block_dims(weights.op.name)
    squeezed_weights = tf.squeeze(weights)
    if squeezed_weights.get_shape().ndims != 2 or block_dims == [1, 1]:
      return self._update_mask(weights, threshold)

    for i in range(2):
      if block_dims[i] == -1:
        block_dims[i] = squeezed_weights.get_shape()[i]

    if self._block_pooling_function not in ["AVG", "MAX"]:
      raise ValueError("Unknown pooling function for block sparsity: %s" % self._block_pooling_function)

    with tf.compat.v1.name_scope(weights.op.name + "_pruning_ops"):
      abs_weights = tf.abs(squeezed_weights)

      pool_window = block_dims
      pool_fn = pruning_utils.factorized_pool
      squeeze_axis = None
      if not self._spec.use_tpu:
        pool_fn = tf.compat.v1.nn.pool
        abs_weights = tf.reshape(abs_weights, [1, abs_weights.get_shape()[0], abs_weights.get_shape()[1], 1])
        squeeze_axis = [0, 3]

      pooled_weights = pool_fn(abs_weights, window_shape=pool_window, pooling_type=self._block_pooling_function,
                               strides=pool_window, padding="SAME", name=weights.op.name + "_pooled")

      if pooled_weights.get_shape().ndims != 2:
        pooled_weights = tf.squeeze(pooled_weights, axis=squeeze_axis)

      smoothed_threshold, new_mask = self._update_mask(pooled_weights, threshold)

      updated_mask = pruning_utils.expand_tensor(new_mask, block_dims)
      sliced_mask = tf.slice(updated_mask, [0, 0],
                             [squeezed_weights.get_shape()[0], squeezed_weights.get_shape()[1]])

    return smoothed_threshold, tf.reshape(sliced_mask, tf.shape(weights))

  def _get_mask_assign_ops(self):
    # Make sure the assignment ops have not already been added to the list
    if self._assign_ops:
      raise ValueError("Assign op list not empty. _get_mask_assign_ops() called twice?")

    masks = get_masks()
    weights = get_weights()
    thresholds = get_thresholds()

    if len(masks) != len(thresholds):
      raise ValueError("Number of masks %s and number of thresholds %s mismatch" % (len(masks), len(thresholds)))

    for index, mask in enumerate(masks):
      threshold = thresholds[index]
      weight = weights[index]
      is_partitioned = isinstance(weight, tf_variables.PartitionedVariable)
      if is_partitioned:
        weight = weight.as_tensor()

      new_threshold, new_mask = self._maybe_update_block_mask(weight, threshold)
      self._assign_ops.append(pruning_utils.variable_assign(threshold, new_threshold))

      self._assign_ops.append(
          pruning_utils.partitioned_variable_assign(mask, new_mask)
          if is_partitioned else pruning_utils.variable_assign(mask, new_mask))

  def mask_update_op(self):
    """An op that recomputes every threshold and mask and sets last_mask_update_step to the global step."""
    with tf.compat.v1.name_scope(self._spec.name):
      if not self._assign_ops:
        self._get_mask_assign_ops()
      with tf.control_dependencies([
          tf.compat.v1.assign(self._last_update_step, self._global_step, name="last_mask_update_step_assign")
      ]):
        with tf.control_dependencies(self._assign_ops):
          tf.compat.v1.logging.info("Updating masks.")
          return tf.no_op("mask_update")

  def conditional_mask_update_op(self):
    """`mask_update_op` when the global step is in the pruning range and pruning_frequency steps have passed."""

    def maybe_update_masks():
      with tf.compat.v1.name_scope(self._spec.name):
        is_step_within_pruning_range = tf.logical_and(
            tf.greater_equal(self._global_step, self._spec.begin_pruning_step),
            # If end_pruning_step is negative, keep pruning forever!
            tf.logical_or(
                tf.less_equal(self._global_step, self._spec.end_pruning_step),
                tf.less(self._spec.end_pruning_step, 0)))
        is_pruning_step = tf.less_equal(
            tf.add(self._last_update_step, self._spec.pruning_frequency), self._global_step)
        return tf.logical_and(is_step_within_pruning_range, is_pruning_step)

    def mask_update_op():
      return self.mask_update_op()

    def no_update_op():
      return tf.no_op()

    return tf.compat.v1.cond(maybe_update_masks(), mask_update_op, no_update_op)

  def add_pruning_summaries(self):
    """Adds summaries of weight sparsities and thresholds."""
    with tf.compat.v1.name_scope(self._spec.name + "_summaries"):
      tf.compat.v1.summary.scalar("sparsity", self._sparsity)
      tf.compat.v1.summary.scalar("last_mask_update_step", self._last_update_step)
      masks = get_masks()
      thresholds = get_thresholds()
      for mask, threshold in zip(masks, thresholds):
        tf.compat.v1.summary.scalar(mask.op.name + "/sparsity", tf.math.zero_fraction(mask))
        tf.compat.v1.summary.scalar(threshold.op.name + "/threshold", threshold)

  def print_hparams(self):
    tf.compat.v1.logging.info(self._spec.to_json())
