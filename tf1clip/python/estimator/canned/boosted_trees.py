"""TF 1.15's gradient boosted trees: `tf.estimator.BoostedTreesClassifier` / `BoostedTreesRegressor` /
`BoostedTreesEstimator` and `tf.contrib.estimator.boosted_trees_{classifier,regressor}_train_in_memory`, ported.

Place in the data flow (DESIGN.md): tf1clip.python.ops.boosted_trees_ops (TF 1.15's kernels in NumPy: TensorFlow 2.21 has
none), tf.compat.v1 (feature columns' `input_layer`, `cond`, `ConditionalAccumulator`, resource variables),
tensorflow-estimator 2.15's Estimator and v1 heads (through shims.tensorflow_estimator) <-
**tf1clip.python.estimator.canned.boosted_trees** <- contrib.estimator (the train_in_memory functions), compat.v1's `tf.estimator`
(compat.surface.TF1CLIP_NAMES) <- compat.runner <- cli.

tensorflow-estimator 2.15 dropped canned/boosted_trees.py; this is TF 1.15's code on the library's v1 heads. The
model is TF 1.15's: float columns are bucketized by a weighted quantile sketch (`quantile_sketch_epsilon`, at most
1/epsilon buckets) of the first `n_batches_per_layer` batches, bucketized columns keep their buckets, indicator columns
become one binary feature per category; each layer of a tree is grown from gradient / hessian statistics accumulated
over `n_batches_per_layer` batches (one ConditionalAccumulator per bucket size) or, with `train_in_memory`, from the
whole dataset, its features cached in variables; `center_bias` first fits the bias, `pruning_mode` 'pre' / 'post'
need `tree_complexity` > 0, and training stops after `n_trees` trees. Names are TF 1.15's: the ensemble resource
`boosted_trees` (checkpoint keys `boosted_trees:0_stamp` / `boosted_trees:0_serialized`), the quantile resource
`boosted_trees/QuantileAccumulator` (`...:0_bucket_boundaries_<i>`), the variables `boosted_trees/are_boundaries_ready`,
`boosted_trees/center_bias_needed` and, with `train_in_memory`, `boosted_trees/cached_feature_<i>`,
`are_features_cached`, `tree_ids_cache`, `node_ids_cache`, `logits_cache`. As in TF 1.15, constructing one of these
estimators turns on resource variables for the whole process (`tf.enable_resource_variables()`).

Differences from TF 1.15: `export_saved_model` (and the other exports) raise NotImplementedError, as the kernels are
tf.numpy_function ops no SavedModel can take to another process; the conditionals are tf.compat.v1.cond, the v1
conditional the same TF 1.15 code used before its forward-compatibility window switched it to cond_v2 (the same
branches and values); with `train_in_memory` and `center_bias`, the logits cache reads `center_bias_needed` before
the step's update every time (TF 1.15 raced the two, so its result at times depended on the scheduling: see
`_grow_tree_fn`). tests/oracle/test_estimator_boosted_trees_oracle.py holds the rest to TF 1.15: trees, leaves,
gains, quantile boundaries, predictions, metrics, checkpoint keys, feature importances, directional feature
contributions, errors.
"""

import collections
import functools

import numpy as np
import six
import tensorflow as tf

import tf1clip.python.ops.boosted_trees_ops as kernels

# pylint: disable=g-import-not-at-top,wrong-import-position,protected-access
from tensorflow_estimator.python.estimator import estimator
from tensorflow_estimator.python.estimator.canned import head as head_lib
from tensorflow_estimator.python.estimator.mode_keys import ModeKeys

V1 = tf.compat.v1
RAW = tf.raw_ops

_TreeHParams = collections.namedtuple("TreeHParams", [
    "n_trees", "max_depth", "learning_rate", "l1", "l2", "tree_complexity", "min_node_weight", "center_bias",
    "pruning_mode", "quantile_sketch_epsilon"])

_HOLD_FOR_MULTI_CLASS_SUPPORT = object()
_HOLD_FOR_MULTI_DIM_SUPPORT = object()
_DUMMY_NUM_BUCKETS = -1
_DUMMY_NODE_ID = -1
_QUANTILE_ACCUMULATOR_RESOURCE_NAME = "QuantileAccumulator"
# For directional feature contributions.
_DEBUG_PROTO_KEY = "_serialized_debug_outputs_proto"
_BIAS_ID = 0

# ---- feature columns -------------------------------------------------------------------------------------------
# TF 1.15 told columns apart with isinstance against the v1 and v2 column classes of tensorflow.python; the classes
# keep those names in TensorFlow 2.21, and a column is of a kind when its class or a base class has the name. The
# order is TF 1.15's: an indicator or bucketized column is also dense, a bucketized one also categorical.
_KINDS = (("indicator", ("IndicatorColumn", "_IndicatorColumn")),
          ("bucketized", ("BucketizedColumn", "_BucketizedColumn")),
          ("dense", ("DenseColumn", "_DenseColumn")),
          ("categorical", ("CategoricalColumn", "_CategoricalColumn")))


def _kind(column):
  bases = {c.__name__ for c in type(column).__mro__}
  for kind, names in _KINDS:
    if bases.intersection(names):
      return kind
  return None


def _unexpected(column):
  if _kind(column) == "categorical":
    return ValueError("CategoricalColumn must be wrapped by IndicatorColumn, got: {}".format(column))
  return ValueError("Got unexpected feature column type".format(column))  # sic: TF 1.15's message


def _get_variable_shape(column):
  """The variable shape of the provided column (v2 columns: `variable_shape`, v1: `_variable_shape`)."""
  if getattr(column, "_is_v2_column", False):
    return column.variable_shape
  return column._variable_shape


def _num_float_features(column):
  shape = _get_variable_shape(column)
  return shape[0] if shape.as_list() else 1


def _num_buckets(categorical_column):
  if hasattr(categorical_column, "num_buckets"):
    return categorical_column.num_buckets
  return categorical_column._num_buckets


def _is_float_column(feature_column):
  """Returns True if provided column is a float that should be bucketized."""
  kind = _kind(feature_column)
  if kind in ("categorical", "bucketized", "indicator"):
    return False
  if kind == "dense":
    return feature_column.dtype.is_floating  # NOTE: GBDT requires that all DenseColumns expose a dtype attribute
  raise ValueError("Encountered unexpected column {}".format(feature_column))


def _get_float_feature_columns(sorted_feature_columns):
  return [c for c in sorted_feature_columns if _is_float_column(c)]


def _dense_input(features, column):
  """The column's dense tensor [batch, n] (what TF 1.15's transform gave a dense / indicator column)."""
  return V1.feature_column.input_layer(features, [column])


def _transform_column(features, column, bucket_boundaries_dict=None):
  """The list of rank-1 features one column contributes, as TF 1.15's _get_transformed_features made them."""
  kind = _kind(column)
  if kind == "bucketized":
    source = column.source_column
    if _num_float_features(source) != 1:
      raise ValueError("For now, only supports features equivalent to rank 1 but column `{}` got: {}".format(
          source.name, features[source.name].shape))
    values = _dense_input(features, source)
    return [tf.squeeze(RAW.Bucketize(input=values, boundaries=[float(b) for b in column.boundaries]), axis=1)]
  if kind == "indicator":
    return tf.unstack(tf.cast(_dense_input(features, column), tf.int32), axis=1)
  if kind == "dense":
    if _get_variable_shape(column).rank > 1:
      raise ValueError("For now, we only support Dense column with rank of 1, but column `{}` got: {}".format(
          column.name, _get_variable_shape(column)))
    unstacked = tf.unstack(_dense_input(features, column), axis=1)
    if not bucket_boundaries_dict:
      return unstacked
    boundaries = bucket_boundaries_dict[column.name]
    assert _num_float_features(column) == len(boundaries)
    return kernels.bucketize(unstacked, boundaries)
  raise _unexpected(column)


def _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict=None, already_transformed=None):
  """The transformed features of `sorted_feature_columns`, a list sorted by column name.

  `already_transformed` ({column name: [features]}) holds columns transformed before (outside a conditional).
  """
  already_transformed = already_transformed or {}
  result = []
  for column in sorted_feature_columns:
    if column.name in already_transformed:
      result.extend(already_transformed[column.name])
    else:
      result.extend(_transform_column(features, column, bucket_boundaries_dict))
  return result


def _variable(initial_value, trainable=False, name=None):
  """Stores a tensor as a local Variable for faster read."""
  return V1.Variable(initial_value=initial_value, trainable=trainable, validate_shape=False, name=name,
                     use_resource=True)


def _group_features_by_num_buckets(sorted_feature_columns, num_quantiles):
  """(bucket sizes, [feature ids per bucket size]), as TF 1.15 grouped them."""
  bucket_size_to_feature_ids_dict = collections.OrderedDict()
  bucket_size_to_feature_ids_dict[_DUMMY_NUM_BUCKETS] = []
  max_buckets_for_bucketized = 2
  max_buckets_for_indicator = 2
  feature_idx = 0
  for column in sorted_feature_columns:
    kind = _kind(column)
    if kind == "indicator":
      bucket_size_to_feature_ids_dict.setdefault(max_buckets_for_indicator, [])
      for _ in range(_num_buckets(column.categorical_column)):
        bucket_size_to_feature_ids_dict[max_buckets_for_indicator].append(feature_idx)
        feature_idx += 1
    elif kind == "bucketized":
      max_buckets_for_bucketized = max(max_buckets_for_bucketized, len(column.boundaries) + 1)
      bucket_size_to_feature_ids_dict[_DUMMY_NUM_BUCKETS].append(feature_idx)
      feature_idx += 1
    elif kind == "dense":
      bucket_size_to_feature_ids_dict.setdefault(num_quantiles, [])
      for _ in range(_num_float_features(column)):
        bucket_size_to_feature_ids_dict[num_quantiles].append(feature_idx)
        feature_idx += 1
    else:
      raise _unexpected(column)
  bucketized_feature_ids = bucket_size_to_feature_ids_dict[_DUMMY_NUM_BUCKETS]
  if max_buckets_for_bucketized in bucket_size_to_feature_ids_dict:
    bucket_size_to_feature_ids_dict[max_buckets_for_bucketized].extend(bucketized_feature_ids)
  elif bucketized_feature_ids:
    bucket_size_to_feature_ids_dict[max_buckets_for_bucketized] = bucketized_feature_ids
  del bucket_size_to_feature_ids_dict[_DUMMY_NUM_BUCKETS]
  return list(bucket_size_to_feature_ids_dict.keys()), list(bucket_size_to_feature_ids_dict.values())


def _calculate_num_features(sorted_feature_columns):
  num_features = 0
  for column in sorted_feature_columns:
    kind = _kind(column)
    if kind == "indicator":
      num_features += _num_buckets(column.categorical_column)
    elif kind == "bucketized":
      num_features += 1
    elif kind == "dense":
      num_features += _num_float_features(column)
    else:
      raise _unexpected(column)
  return num_features


def _generate_feature_col_name_mapping(sorted_feature_columns):
  """The feature column name of each feature id (an indicator column names each of its categories' ids)."""
  names = []
  for column in sorted_feature_columns:
    kind = _kind(column)
    if kind == "indicator":
      names.extend([column.categorical_column.name] * _num_buckets(column.categorical_column))
    elif kind == "bucketized":
      names.append(column.name)
    elif kind == "dense":
      names.extend([column.name] * _num_float_features(column))
    else:
      raise _unexpected(column)
  return names


def _cond(pred, true_branch, false_branch, name=None):
  # TF 1.15 forced cond_v2 here; this is the v1 conditional its code used before (module docstring)
  return V1.cond(tf.logical_and(pred, tf.constant(True)), true_branch, false_branch, name=name)


def _accumulator(dtype, shape, shared_name):
  return V1.ConditionalAccumulator(dtype=dtype, shape=shape, shared_name=shared_name)


def _cache_transformed_features(features, sorted_feature_columns, cat_columns, batch_size, bucket_boundaries_dict,
                                are_boundaries_ready):
  """Transform features and cache, then returns (cached_features, cache_op)."""
  num_features = _calculate_num_features(sorted_feature_columns)
  cached_features = [_variable(tf.zeros([batch_size], dtype=tf.int32), name="cached_feature_{}".format(i))
                     for i in range(num_features)]
  are_features_cached = _variable(False, name="are_features_cached")
  # lookup tables of categorical columns must be initialized outside a conditional: transform them here
  cat_transformed = {c.name: _transform_column(features, c) for c in cat_columns}

  def get_features_without_cache():
    transformed = _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict, cat_transformed)
    return transformed, tf.no_op()

  def get_features_with_cache():

    def _cache_features_and_return():
      transformed = _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict, cat_transformed)
      cached = [cached_features[i].assign(transformed[i]) for i in range(num_features)]
      with tf.control_dependencies(cached):
        cache_flip_op = are_features_cached.assign(True)
      return cached, cache_flip_op

    return _cond(are_features_cached, lambda: (cached_features, tf.no_op()), _cache_features_and_return)

  return _cond(are_boundaries_ready, get_features_without_cache, get_features_with_cache)


class _CacheTrainingStatesUsingVariables(object):
  """Caching tree ids, node ids and logits per example in variables (in-memory training only)."""

  def __init__(self, batch_size, logits_dimension):
    self._logits_dimension = logits_dimension
    self._tree_ids = _variable(tf.zeros([batch_size], dtype=tf.int32), name="tree_ids_cache")
    self._node_ids = _variable(_DUMMY_NODE_ID * tf.ones([batch_size], dtype=tf.int32), name="node_ids_cache")
    self._logits = _variable(tf.zeros([batch_size, logits_dimension], dtype=tf.float32), name="logits_cache")

  def lookup(self):
    return (self._tree_ids, self._node_ids, self._logits)

  def insert(self, tree_ids, node_ids, logits):
    return tf.group([self._tree_ids.assign(tree_ids), self._node_ids.assign(node_ids),
                     self._logits.assign(logits)], name="cache_insert")


class _StopAtAttemptsHook(V1.train.SessionRunHook):
  """Hook that requests stop at the number of attempts."""

  def __init__(self, num_finalized_trees_tensor, num_attempted_layers_tensor, max_trees, max_depth):
    self._num_finalized_trees_tensor = num_finalized_trees_tensor
    self._num_attempted_layers_tensor = num_attempted_layers_tensor
    self._max_trees = max_trees
    self._max_depth = max_depth

  def before_run(self, run_context):
    return V1.train.SessionRunArgs([self._num_finalized_trees_tensor, self._num_attempted_layers_tensor])

  def after_run(self, run_context, run_values):
    # the values fetched with the step are from before it grew; near the limit read them again
    num_finalized_trees, num_attempted_layers = run_values.results
    if (num_finalized_trees >= self._max_trees - 1 or
        num_attempted_layers > 2 * self._max_trees * self._max_depth - 1):
      num_finalized_trees, num_attempted_layers = run_context.session.run(
          [self._num_finalized_trees_tensor, self._num_attempted_layers_tensor])
    if (num_finalized_trees >= self._max_trees or
        num_attempted_layers > 2 * self._max_trees * self._max_depth):
      run_context.request_stop()


def _get_max_splits(tree_hparams):
  """The max possible number of splits in a tree: 2^(D-1)-1."""
  return (1 << tree_hparams.max_depth) - 1


class _EnsembleGrower(object):
  """Grows the ensemble and centers the bias: in memory, or from accumulated batches (the subclasses)."""

  def __init__(self, tree_ensemble, quantile_accumulator, tree_hparams, feature_ids_list):
    self._tree_ensemble = tree_ensemble
    self._quantile_accumulator = quantile_accumulator
    self._tree_hparams = tree_hparams
    self._feature_ids_list = feature_ids_list
    self._pruning_mode_parsed = kernels.pruning_mode(tree_hparams.pruning_mode)
    if tree_hparams.tree_complexity > 0:
      if self._pruning_mode_parsed == kernels.NO_PRUNING:
        raise ValueError("Tree complexity have no effect unless pruning mode is chosen.")
    elif self._pruning_mode_parsed != kernels.NO_PRUNING:
      raise ValueError("For pruning, tree_complexity must be positive.")

  def chief_init_op(self):
    return tf.no_op()

  def _center_bias_fn(self, center_bias_var, mean_gradients, mean_hessians):
    """Updates the ensemble with the logits prior."""
    continue_centering = kernels.center_bias(
        tree_ensemble_handle=self._tree_ensemble.resource_handle, mean_gradients=mean_gradients,
        mean_hessians=mean_hessians, l1=self._tree_hparams.l1, l2=self._tree_hparams.l2)
    return center_bias_var.assign(continue_centering)

  def _grow_tree_from_stats_summaries(self, stats_summaries_list, last_layer_nodes_range):
    """Updates the ensemble with the best gains from the stats summaries."""
    node_ids_per_feature, gains_list, thresholds_list = [], [], []
    left_node_contribs_list, right_node_contribs_list, all_feature_ids = [], [], []
    assert len(stats_summaries_list) == len(self._feature_ids_list)
    max_splits = _get_max_splits(self._tree_hparams)
    for i, feature_ids in enumerate(self._feature_ids_list):
      node_ids, gains, thresholds, left_contribs, right_contribs = kernels.calculate_best_gains_per_feature(
          node_id_range=last_layer_nodes_range, stats_summary_list=stats_summaries_list[i],
          l1=self._tree_hparams.l1, l2=self._tree_hparams.l2, tree_complexity=self._tree_hparams.tree_complexity,
          min_node_weight=self._tree_hparams.min_node_weight, max_splits=max_splits)
      all_feature_ids += feature_ids
      node_ids_per_feature += node_ids
      gains_list += gains
      thresholds_list += thresholds
      left_node_contribs_list += left_contribs
      right_node_contribs_list += right_contribs
    return kernels.update_ensemble(
        tree_ensemble_handle=self._tree_ensemble.resource_handle, feature_ids=all_feature_ids,
        node_ids=node_ids_per_feature, gains=gains_list, thresholds=thresholds_list,
        left_node_contribs=left_node_contribs_list, right_node_contribs=right_node_contribs_list,
        max_depth=self._tree_hparams.max_depth, learning_rate=self._tree_hparams.learning_rate,
        pruning_mode=self._pruning_mode_parsed)


class _InMemoryEnsembleGrower(_EnsembleGrower):
  """The whole dataset is one batch: quantiles, bias and each layer come from it at once."""

  def accumulate_quantiles(self, float_features, weights, are_boundaries_ready):
    summary_op = self._quantile_accumulator.add_summaries(float_features, weights)
    with tf.control_dependencies([summary_op]):
      flush = self._quantile_accumulator.flush()
      with tf.control_dependencies([flush]):
        return are_boundaries_ready.assign(True).op

  def center_bias(self, center_bias_var, gradients, hessians):
    mean_gradients = tf.expand_dims(tf.reduce_mean(gradients, 0), 0)
    mean_hessians = tf.expand_dims(tf.reduce_mean(hessians, 0), 0)
    return self._center_bias_fn(center_bias_var, mean_gradients, mean_hessians)

  def grow_tree(self, stats_summaries_list, last_layer_nodes_range):
    return self._grow_tree_from_stats_summaries(stats_summaries_list, last_layer_nodes_range)


class _AccumulatorEnsembleGrower(_EnsembleGrower):
  """Statistics accumulate over `n_batches_per_layer` batches (ConditionalAccumulators stamped per layer)."""

  def __init__(self, tree_ensemble, quantile_accumulator, tree_hparams, stamp_token, n_batches_per_layer,
               bucket_size_list, is_chief, center_bias, feature_ids_list):
    super(_AccumulatorEnsembleGrower, self).__init__(tree_ensemble, quantile_accumulator, tree_hparams,
                                                     feature_ids_list)
    self._stamp_token = stamp_token
    self._n_batches_per_layer = n_batches_per_layer
    self._bucket_size_list = bucket_size_list
    self._is_chief = is_chief
    self._growing_accumulators = []
    self._chief_init_ops = []
    max_splits = _get_max_splits(self._tree_hparams)
    for i, feature_ids in enumerate(self._feature_ids_list):
      accumulator = _accumulator(
          dtype=tf.float32, shape=[len(feature_ids), max_splits, self._bucket_size_list[i], 2],
          shared_name="numeric_stats_summary_accumulator_" + str(i))
      self._chief_init_ops.append(accumulator.set_global_step(self._stamp_token))
      self._growing_accumulators.append(accumulator)
    self._center_bias = center_bias
    if center_bias:
      self._bias_accumulator = _accumulator(dtype=tf.float32, shape=[2, 1], shared_name="bias_accumulator")
      self._chief_init_ops.append(self._bias_accumulator.set_global_step(self._stamp_token))

  def accumulate_quantiles(self, float_features, weights, are_boundaries_ready):
    summary_op = self._quantile_accumulator.add_summaries(float_features, weights)
    cond_accum = _accumulator(dtype=tf.float32, shape={}, shared_name="quantile_summary_accum")
    cond_accum_step = cond_accum.set_global_step(self._stamp_token)
    apply_grad = cond_accum.apply_grad(tf.constant(0.), self._stamp_token)
    update_quantile_op = tf.group(summary_op, cond_accum_step, apply_grad)
    if not self._is_chief:
      return update_quantile_op
    with tf.control_dependencies([update_quantile_op]):

      def flush_fn():
        grad = cond_accum.take_grad(1)
        flush_op = self._quantile_accumulator.flush()
        boundaries_ready_op = are_boundaries_ready.assign(True).op
        return tf.group(flush_op, grad, boundaries_ready_op)

      return _cond(tf.greater_equal(cond_accum.num_accumulated(), self._n_batches_per_layer), flush_fn,
                   tf.no_op, name="wait_until_quaniles_accumulated")

  def center_bias(self, center_bias_var, gradients, hessians):
    if not self._center_bias:
      raise RuntimeError("center_bias called but bias centering is disabled.")
    grads_and_hess = tf.reduce_mean(tf.stack([gradients, hessians], axis=0), axis=1)
    apply_grad = self._bias_accumulator.apply_grad(grads_and_hess, self._stamp_token)
    with tf.control_dependencies([apply_grad]):
      if not self._is_chief:
        return tf.no_op()

      def _set_accumulators_stamp():
        return tf.group([acc.set_global_step(self._stamp_token + 1) for acc in self._growing_accumulators])

      def center_bias_from_accumulator():
        accumulated = tf.unstack(self._bias_accumulator.take_grad(1), axis=0)
        center_bias_op = self._center_bias_fn(center_bias_var, tf.expand_dims(accumulated[0], 0),
                                              tf.expand_dims(accumulated[1], 0))
        with tf.control_dependencies([center_bias_op]):
          return _cond(center_bias_var, tf.no_op, _set_accumulators_stamp)

      return _cond(tf.greater_equal(self._bias_accumulator.num_accumulated(), self._n_batches_per_layer),
                   center_bias_from_accumulator, tf.no_op, name="wait_until_n_batches_for_bias_accumulated")

  def grow_tree(self, stats_summaries_list, last_layer_nodes_range):
    dependencies = []
    for i in range(len(self._feature_ids_list)):
      dependencies.append(self._growing_accumulators[i].apply_grad(
          tf.stack(stats_summaries_list[i], axis=0), self._stamp_token))
    with tf.control_dependencies(dependencies):
      if not self._is_chief:
        return tf.no_op()
      min_accumulated = tf.reduce_min(tf.stack([acc.num_accumulated() for acc in self._growing_accumulators]))

      def grow_tree_from_accumulated_summaries_fn():
        summaries = [tf.unstack(acc.take_grad(1), axis=0) for acc in self._growing_accumulators]
        return self._grow_tree_from_stats_summaries(summaries, last_layer_nodes_range)

      return _cond(tf.greater_equal(min_accumulated, self._n_batches_per_layer),
                   grow_tree_from_accumulated_summaries_fn, tf.no_op, name="wait_until_n_batches_accumulated")

  def chief_init_op(self):
    return tf.group(self._chief_init_ops)


def _get_float_boundaries_dict(float_columns, bucket_boundaries):
  """{column name: its features' bucket boundaries}."""
  bucket_boundaries_dict = {}
  feature_idx = 0
  for column in float_columns:
    num_column_dimensions = _num_float_features(column)
    bucket_boundaries_dict[column.name] = bucket_boundaries[feature_idx:feature_idx + num_column_dimensions]
    feature_idx += num_column_dimensions
  return bucket_boundaries_dict


def _bt_model_fn(features, labels, mode, head, feature_columns, tree_hparams, n_batches_per_layer, config,
                 closed_form_grad_and_hess_fn=None, weight_column=None, train_in_memory=False,
                 name="boosted_trees"):
  """TF 1.15's Gradient Boosted Trees model_fn (without its unexposed example-id cache)."""
  sorted_feature_columns = sorted(feature_columns, key=lambda tc: tc.name)
  float_columns = _get_float_feature_columns(sorted_feature_columns)

  with V1.name_scope(name) as name:
    global_step = V1.train.get_or_create_global_step()
    tree_ensemble = kernels.TreeEnsemble(name=name)
    eps = tree_hparams.quantile_sketch_epsilon
    num_quantiles = int(1. / eps)
    bucket_boundaries_dict = {}
    quantile_accumulator = None
    if float_columns:  # bucketized by a quantile sketch of the first n_batches_per_layer batches
      quantile_accumulator = kernels.QuantileAccumulator(
          epsilon=eps, num_streams=_calculate_num_features(float_columns), num_quantiles=num_quantiles,
          name=_QUANTILE_ACCUMULATOR_RESOURCE_NAME)
      bucket_boundaries_dict = _get_float_boundaries_dict(float_columns,
                                                          quantile_accumulator.get_bucket_boundaries())

    bucket_size_list, feature_ids_list = _group_features_by_num_buckets(sorted_feature_columns, num_quantiles)

    if mode != ModeKeys.TRAIN:
      input_feature_list = _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict)
      logits = kernels.predict(tree_ensemble_handle=tree_ensemble.resource_handle,
                                       bucketized_features=input_feature_list,
                                       logits_dimension=head.logits_dimension)
      return head.create_estimator_spec(features=features, mode=mode, labels=labels, train_op_fn=tf.no_op,
                                        logits=logits)

    # ============== Training graph ==============
    center_bias = tree_hparams.center_bias
    is_single_machine = (config.num_worker_replicas <= 1)
    if train_in_memory:
      assert n_batches_per_layer == 1, (
          "When train_in_memory is enabled, input_fn should return the entire "
          "dataset as a single batch, and n_batches_per_layer should be set as 1.")
      if not config.is_chief or config.num_worker_replicas > 1 or config.num_ps_replicas > 0:
        raise ValueError("train_in_memory is supported only for non-distributed training.")
    worker_device = tf.no_op().device
    training_state_cache = None
    are_boundaries_ready = _variable(initial_value=not float_columns, name="are_boundaries_ready", trainable=False)
    if train_in_memory:
      batch_size = tf.shape(labels)[0]
      cat_columns = [fc for fc in sorted_feature_columns if _kind(fc) == "indicator"]
      input_feature_list, input_cache_op = _cache_transformed_features(
          features, sorted_feature_columns, cat_columns, batch_size, bucket_boundaries_dict, are_boundaries_ready)
      training_state_cache = _CacheTrainingStatesUsingVariables(batch_size, head.logits_dimension)
    else:
      input_feature_list = _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict)

    if training_state_cache:
      cached_tree_ids, cached_node_ids, cached_logits = training_state_cache.lookup()
    else:
      batch_size = tf.shape(labels)[0]
      cached_tree_ids, cached_node_ids, cached_logits = (
          tf.zeros([batch_size], dtype=tf.int32),
          _DUMMY_NODE_ID * tf.ones([batch_size], dtype=tf.int32),
          tf.zeros([batch_size, head.logits_dimension], dtype=tf.float32))

    if is_single_machine:
      local_tree_ensemble = tree_ensemble
      ensemble_reload = tf.no_op()
    else:
      with tf.device(worker_device):
        local_tree_ensemble = kernels.TreeEnsemble(name=name + "_local", is_local=True)
      ensemble_reload = local_tree_ensemble.deserialize(*tree_ensemble.serialize())
    with tf.control_dependencies([ensemble_reload]):
      (stamp_token, num_trees, num_finalized_trees, num_attempted_layers,
       last_layer_nodes_range) = local_tree_ensemble.get_states()
      partial_logits, tree_ids, node_ids = kernels.training_predict(
          tree_ensemble_handle=local_tree_ensemble.resource_handle, cached_tree_ids=cached_tree_ids,
          cached_node_ids=cached_node_ids, bucketized_features=input_feature_list,
          logits_dimension=head.logits_dimension)
    logits = cached_logits + partial_logits

    if train_in_memory:
      grower = _InMemoryEnsembleGrower(tree_ensemble, quantile_accumulator, tree_hparams, feature_ids_list)
    else:
      grower = _AccumulatorEnsembleGrower(tree_ensemble, quantile_accumulator, tree_hparams, stamp_token,
                                          n_batches_per_layer, bucket_size_list, config.is_chief, center_bias,
                                          feature_ids_list)

    V1.summary.scalar("ensemble/num_trees", num_trees)
    V1.summary.scalar("ensemble/num_finalized_trees", num_finalized_trees)
    V1.summary.scalar("ensemble/num_attempted_layers", num_attempted_layers)

    center_bias_var = _variable(initial_value=center_bias, name="center_bias_needed", trainable=False)
    if weight_column is None:
      weights = tf.constant(1., shape=[1])
    else:
      if isinstance(weight_column, six.string_types):
        weight_column = V1.feature_column.numeric_column(key=weight_column, shape=(1,))
      weights = _get_transformed_features(features, [weight_column])[0]

    def _train_op_fn(loss):
      """Run one training iteration."""

      def _update_quantile_fn():
        with V1.name_scope("UpdateQuantile"):
          float_features = _get_transformed_features(features, float_columns)
          return grower.accumulate_quantiles(float_features, weights, are_boundaries_ready)

      def _grow_tree_fn():
        grow_op = [input_cache_op] if train_in_memory else []
        cache_first = []
        if training_state_cache:
          # cache logits only once bias centering is complete
          def insert_fn():
            return training_state_cache.insert(tree_ids, node_ids, logits)

          # Before the update: TF 1.15 ran the two conds in either order, and in the step that ended the centering
          # its cache at times took logits that missed that step's bias update (the run's result depended on the
          # scheduling). Here the cache reads center_bias_needed first, TF 1.15's usual order, every time.
          cache_first.append(_cond(center_bias_var, tf.no_op, insert_fn))
          grow_op.extend(cache_first)

        if closed_form_grad_and_hess_fn:
          gradients, hessians = closed_form_grad_and_hess_fn(logits, labels)
        else:
          gradients = V1.gradients(loss, logits, name="Gradients")[0]
          hessians = V1.gradients(gradients, logits, name="Hessians")[0]

        max_splits = _get_max_splits(tree_hparams)
        stats_summaries_list = []
        for i, feature_ids in enumerate(feature_ids_list):
          num_buckets = bucket_size_list[i]
          stats_summaries_list.append([
              tf.squeeze(kernels.make_stats_summary(
                  node_ids=node_ids, gradients=gradients, hessians=hessians,
                  bucketized_features_list=[input_feature_list[f]], max_splits=max_splits,
                  num_buckets=num_buckets), axis=0)
              for f in feature_ids])
        with tf.control_dependencies(cache_first):
          if center_bias:
            update_model = _cond(
                center_bias_var, functools.partial(grower.center_bias, center_bias_var, gradients, hessians),
                functools.partial(grower.grow_tree, stats_summaries_list, last_layer_nodes_range))
          else:
            update_model = grower.grow_tree(stats_summaries_list, last_layer_nodes_range)
        grow_op.append(update_model)
        with tf.control_dependencies([update_model]):
          grow_op.append(V1.assign_add(global_step, 1).op)
        return tf.group(grow_op, name="grow_op")

      if not float_columns:
        return _grow_tree_fn()
      return _cond(are_boundaries_ready, _grow_tree_fn, _update_quantile_fn)

  estimator_spec = head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                              train_op_fn=_train_op_fn, logits=logits)
  return estimator_spec._replace(
      training_hooks=estimator_spec.training_hooks + (
          _StopAtAttemptsHook(num_finalized_trees, num_attempted_layers, tree_hparams.n_trees,
                              tree_hparams.max_depth),),
      training_chief_hooks=[GrowerInitializationHook(grower.chief_init_op())] +
      list(estimator_spec.training_chief_hooks))


class GrowerInitializationHook(V1.train.SessionRunHook):
  """A SessionRunHook handles initialization of `_EnsembleGrower`."""

  def __init__(self, init_op):
    self._init_op = init_op

  def after_create_session(self, session, coord):
    session.run(self._init_op)


def _create_classification_head(n_classes, weight_column=None, label_vocabulary=None):
  if n_classes == 2:
    return head_lib._binary_logistic_head_with_sigmoid_cross_entropy_loss(
        weight_column=weight_column, label_vocabulary=label_vocabulary,
        loss_reduction=V1.losses.Reduction.SUM_OVER_BATCH_SIZE)
  raise ValueError("For now only binary classification is supported."
                   "n_classes given as {}".format(n_classes))


def _create_classification_head_and_closed_form(n_classes, weight_column, label_vocabulary):
  """The classifier's head and, for two classes without weights or vocabulary, closed-form gradients/hessians."""
  head = _create_classification_head(n_classes, weight_column, label_vocabulary)
  if n_classes == 2 and head.logits_dimension == 1 and weight_column is None and label_vocabulary is None:

    def _grad_and_hess_for_logloss(logits, labels):
      """A closed form gradient and hessian for logistic loss."""
      predictions = tf.math.reciprocal(tf.exp(-logits) + 1.0)
      normalizer = tf.math.reciprocal(tf.cast(tf.size(predictions), tf.float32))
      labels = tf.cast(labels, tf.float32)
      labels = head_lib._check_dense_labels_match_logits_and_reshape(labels, logits, head.logits_dimension)
      gradients = (predictions - labels) * normalizer
      hessians = predictions * (1.0 - predictions) * normalizer
      return gradients, hessians

    return head, _grad_and_hess_for_logloss
  return head, None


def _create_regression_head(label_dimension, weight_column=None):
  if label_dimension != 1:
    raise ValueError("For now only 1 dimension regression is supported."
                     "label_dimension given as {}".format(label_dimension))
  return head_lib._regression_head(label_dimension=label_dimension, weight_column=weight_column,
                                   loss_reduction=V1.losses.Reduction.SUM_OVER_BATCH_SIZE)


def _compute_feature_importances_per_tree(tree, num_features):
  importances = np.zeros(num_features)
  for node in tree.nodes:
    node_type = node.WhichOneof("node")
    if node_type == "bucketized_split":
      importances[node.bucketized_split.feature_id] += node.metadata.gain
    elif node_type == "leaf":
      assert node.metadata.gain == 0
    else:
      raise ValueError("Unexpected split type %s" % node_type)
  return importances


def _compute_feature_importances(tree_ensemble, num_features, normalize):
  """Gain-based feature importances, indexed by feature id (weighted by the trees' weights)."""
  tree_importances = np.array([_compute_feature_importances_per_tree(tree, num_features)
                               for tree in tree_ensemble.trees])
  tree_weights = np.array(tree_ensemble.tree_weights).reshape(-1, 1)
  feature_importances = np.sum(tree_importances * tree_weights, axis=0)
  if normalize:
    assert np.all(feature_importances >= 0), "feature_importances must be non-negative."
    normalizer = np.sum(feature_importances)
    assert normalizer > 0, "Trees are all empty or contain only a root node."
    feature_importances /= normalizer
  return feature_importances


def _sum_by_feature_col_name_and_sort(names, vals):
  """Group by feature column names, sum values, and sort by absolute value."""
  sum_by_dict = {}
  for name, val in zip(names, vals):
    sum_by_dict[name] = sum_by_dict.setdefault(name, 0) + val
  return collections.OrderedDict(sorted(sum_by_dict.items(), key=lambda tup: abs(tup[1]), reverse=True))


def _parse_explanations_from_prediction(serialized_debug_proto, feature_col_names, classification=False):
  """(bias, directional feature contributions) of one example, from its serialized DebugOutput."""
  debug = kernels.proto("DebugOutput")()
  debug.ParseFromString(serialized_debug_proto)
  if classification:
    predictions = 1 / (1 + np.exp(-np.array(debug.logits_path)))
  else:
    predictions = np.array(debug.logits_path)
  delta_pred = predictions[_BIAS_ID + 1:] - predictions[:-1]
  contribs = np.bincount(debug.feature_ids, weights=delta_pred, minlength=len(feature_col_names))
  return predictions[_BIAS_ID], _sum_by_feature_col_name_and_sort(feature_col_names, contribs)


def _bt_explanations_fn(features, head, sorted_feature_columns, quantile_sketch_epsilon, name="boosted_trees"):
  """The predict model_fn with each example's DebugOutput added (for directional feature contributions)."""
  with V1.name_scope(name) as name:
    tree_ensemble = kernels.TreeEnsemble(name=name)
    float_columns = _get_float_feature_columns(sorted_feature_columns)
    if not float_columns:
      input_feature_list = _get_transformed_features(features, sorted_feature_columns)
    else:
      quantile_accumulator = kernels.QuantileAccumulator(
          epsilon=quantile_sketch_epsilon, num_streams=_calculate_num_features(float_columns),
          num_quantiles=int(1. / quantile_sketch_epsilon), name=_QUANTILE_ACCUMULATOR_RESOURCE_NAME)
      bucket_boundaries_dict = _get_float_boundaries_dict(float_columns, quantile_accumulator.get_bucket_boundaries())
      input_feature_list = _get_transformed_features(features, sorted_feature_columns, bucket_boundaries_dict)
    logits = kernels.predict(tree_ensemble_handle=tree_ensemble.resource_handle,
                                     bucketized_features=input_feature_list, logits_dimension=head.logits_dimension)
    estimator_spec = head.create_estimator_spec(features=features, mode=ModeKeys.PREDICT, labels=None,
                                                train_op_fn=tf.no_op, logits=logits)
    estimator_spec.predictions[_DEBUG_PROTO_KEY] = kernels.example_debug_outputs(
        tree_ensemble_handle=tree_ensemble.resource_handle, bucketized_features=input_feature_list,
        logits_dimension=head.logits_dimension)
    return estimator_spec


class _BoostedTreesBase(estimator.Estimator):
  """Base class for boosted trees estimators: feature importances and directional feature contributions."""

  def __init__(self, model_fn, model_dir, config, feature_columns, head, center_bias, is_classification,
               quantile_sketch_epsilon):
    # We need it so the global step is also a resource var.
    V1.enable_resource_variables()
    super(_BoostedTreesBase, self).__init__(model_fn=model_fn, model_dir=model_dir, config=config)
    self._sorted_feature_columns = sorted(feature_columns, key=lambda tc: tc.name)
    self._head = head
    self._n_features = _calculate_num_features(self._sorted_feature_columns)
    self._feature_col_names = _generate_feature_col_name_mapping(self._sorted_feature_columns)
    self._center_bias = center_bias
    self._is_classification = is_classification
    self._quantile_sketch_epsilon = quantile_sketch_epsilon

  def _export_all_saved_models(self, *args, **kwargs):
    """export_saved_model / export_savedmodel / experimental_export_all_saved_models: refused, see the message."""
    raise NotImplementedError(
        "tf1clip does not export boosted-trees estimators: TensorFlow 2.21 has no kernels for the BoostedTrees ops, "
        "and tf1clip's port of TF 1.15's kernels runs as tf.numpy_function ops, which a SavedModel cannot take to "
        "another process (loading it fails with 'Could not find callback'). Predict in this process "
        "(estimator.predict), or train a model that exports with a maintained library (YDF: "
        "ydf.GradientBoostedTreesLearner, model.to_tensorflow_saved_model)")

  def experimental_feature_importances(self, normalize=False):
    """Gain-based feature importances: an OrderedDict {feature column name: importance}, most important first.

    Raises:
      ValueError: the ensemble in the model_dir's checkpoint is empty (not trained yet).
      AssertionError: `normalize` with negative importances, or with trees that have no splits.
    """
    reader = tf.train.load_checkpoint(self._model_dir)
    serialized = reader.get_tensor("boosted_trees:0_serialized")
    if not serialized:
      raise ValueError("Found empty serialized string for TreeEnsemble."
                       "You should only call this method after training.")
    ensemble_proto = kernels.proto("TreeEnsemble")()
    ensemble_proto.ParseFromString(serialized)
    importances = _compute_feature_importances(ensemble_proto, self._n_features, normalize)
    return _sum_by_feature_col_name_and_sort(self._feature_col_names, importances)

  def experimental_predict_with_explanations(self, input_fn, predict_keys=None, hooks=None,
                                             checkpoint_path=None):
    """Yields predictions with 'bias' and 'dfc' (directional feature contributions, an OrderedDict by |value|).

    Raises:
      ValueError: the estimator was built without `center_bias`, or (regression) its head has an inverse link.
    """
    if not self._center_bias:
      raise ValueError("center_bias must be enabled during estimator "
                       "instantiation when using "
                       "experimental_predict_with_explanations.")
    if not self._is_classification:
      if self._head._inverse_link_fn not in (None, tf.identity):
        raise ValueError("For now only identity inverse_link_fn in regression_head is "
                         "supported for experimental_predict_with_explanations.")

    def new_model_fn(features, labels, mode):
      del labels, mode
      return _bt_explanations_fn(features, self._head, self._sorted_feature_columns,
                                 self._quantile_sketch_epsilon)

    est = estimator.Estimator(model_fn=new_model_fn, model_dir=self.model_dir, config=self.config,
                              warm_start_from=self._warm_start_settings)
    if predict_keys is not None:
      predict_keys = set(predict_keys)
      predict_keys.add(_DEBUG_PROTO_KEY)
    for pred in est.predict(input_fn, predict_keys=predict_keys, hooks=hooks, checkpoint_path=checkpoint_path,
                            yield_single_examples=True):
      bias, dfcs = _parse_explanations_from_prediction(pred[_DEBUG_PROTO_KEY], self._feature_col_names,
                                                       self._is_classification)
      pred["bias"] = bias
      pred["dfc"] = dfcs
      del pred[_DEBUG_PROTO_KEY]
      yield pred


class BoostedTreesClassifier(_BoostedTreesBase):
  """A Classifier for Tensorflow Boosted Trees models (binary; TF 1.15 had no multi-class support)."""

  def __init__(self, feature_columns, n_batches_per_layer, model_dir=None, n_classes=_HOLD_FOR_MULTI_CLASS_SUPPORT,
               weight_column=None, label_vocabulary=None, n_trees=100, max_depth=6, learning_rate=0.1,
               l1_regularization=0., l2_regularization=0., tree_complexity=0., min_node_weight=0., config=None,
               center_bias=False, pruning_mode="none", quantile_sketch_epsilon=0.01, train_in_memory=False):
    """Raises ValueError: n_classes other than 2, bad pruning settings (when training), bad columns."""
    if n_classes == _HOLD_FOR_MULTI_CLASS_SUPPORT:
      n_classes = 2
    elif n_classes > 2 and pruning_mode is not None:
      raise ValueError("For now pruning is not supported with multi class.")
    head, closed_form = _create_classification_head_and_closed_form(n_classes, weight_column,
                                                                    label_vocabulary=label_vocabulary)
    tree_hparams = _TreeHParams(n_trees, max_depth, learning_rate, l1_regularization, l2_regularization,
                                tree_complexity, min_node_weight, center_bias, pruning_mode, quantile_sketch_epsilon)

    def _model_fn(features, labels, mode, config):
      return _bt_model_fn(features, labels, mode, head, feature_columns, tree_hparams, n_batches_per_layer,
                          config, closed_form_grad_and_hess_fn=closed_form, weight_column=weight_column,
                          train_in_memory=train_in_memory)

    super(BoostedTreesClassifier, self).__init__(
        model_fn=_model_fn, model_dir=model_dir, config=config, feature_columns=feature_columns, head=head,
        center_bias=center_bias, is_classification=True, quantile_sketch_epsilon=quantile_sketch_epsilon)


class BoostedTreesRegressor(_BoostedTreesBase):
  """A Regressor for Tensorflow Boosted Trees models (one label dimension, as in TF 1.15)."""

  def __init__(self, feature_columns, n_batches_per_layer, model_dir=None,
               label_dimension=_HOLD_FOR_MULTI_DIM_SUPPORT, weight_column=None, n_trees=100, max_depth=6,
               learning_rate=0.1, l1_regularization=0., l2_regularization=0., tree_complexity=0.,
               min_node_weight=0., config=None, center_bias=False, pruning_mode="none",
               quantile_sketch_epsilon=0.01, train_in_memory=False):
    """Raises ValueError: label_dimension other than 1, bad pruning settings (when training), bad columns."""
    if label_dimension == _HOLD_FOR_MULTI_DIM_SUPPORT:
      label_dimension = 1
    elif label_dimension > 1 and pruning_mode is not None:
      raise ValueError("For now pruning is not supported with multi-dimension"
                       "regression.")
    head = _create_regression_head(label_dimension, weight_column)
    tree_hparams = _TreeHParams(n_trees, max_depth, learning_rate, l1_regularization, l2_regularization,
                                tree_complexity, min_node_weight, center_bias, pruning_mode, quantile_sketch_epsilon)

    def _model_fn(features, labels, mode, config):
      return _bt_model_fn(features, labels, mode, head, feature_columns, tree_hparams, n_batches_per_layer,
                          config, weight_column=weight_column, train_in_memory=train_in_memory)

    super(BoostedTreesRegressor, self).__init__(
        model_fn=_model_fn, model_dir=model_dir, config=config, feature_columns=feature_columns, head=head,
        center_bias=center_bias, is_classification=False, quantile_sketch_epsilon=quantile_sketch_epsilon)


class BoostedTreesEstimator(_BoostedTreesBase):
  """An Estimator for Tensorflow Boosted Trees models with a head of your own (a v1 `_Head`)."""

  def __init__(self, feature_columns, n_batches_per_layer, head, model_dir=None, weight_column=None, n_trees=100,
               max_depth=6, learning_rate=0.1, l1_regularization=0., l2_regularization=0., tree_complexity=0.,
               min_node_weight=0., config=None, center_bias=False, pruning_mode="none",
               quantile_sketch_epsilon=0.01):
    """`weight_column` is accepted and, as in TF 1.15, not used: the head's own weight column weighs the loss."""
    del weight_column
    tree_hparams = _TreeHParams(n_trees, max_depth, learning_rate, l1_regularization, l2_regularization,
                                tree_complexity, min_node_weight, center_bias, pruning_mode, quantile_sketch_epsilon)

    def _model_fn(features, labels, mode, config):
      return _bt_model_fn(features, labels, mode, head, feature_columns, tree_hparams, n_batches_per_layer,
                          config=config)

    is_classification = isinstance(head, (head_lib._BinaryLogisticHeadWithSigmoidCrossEntropyLoss,
                                          head_lib._MultiClassHeadWithSoftmaxCrossEntropyLoss))
    super(BoostedTreesEstimator, self).__init__(
        model_fn=_model_fn, model_dir=model_dir, config=config, feature_columns=feature_columns, head=head,
        center_bias=center_bias, is_classification=is_classification,
        quantile_sketch_epsilon=quantile_sketch_epsilon)


# ---- tf.contrib.estimator ---------------------------------------------------------------------------------------

def _validate_input_fn_and_repeat_dataset(train_input_fn):
  """The input_fn, its Dataset repeated (the whole dataset is one batch, seen once a step)."""

  def _input_fn():
    result_input_fn = train_input_fn()
    if isinstance(result_input_fn, tf.data.Dataset):
      return result_input_fn.repeat()
    return result_input_fn

  return _input_fn


def boosted_trees_classifier_train_in_memory(
    train_input_fn, feature_columns, model_dir=None, n_classes=_HOLD_FOR_MULTI_CLASS_SUPPORT, weight_column=None,
    label_vocabulary=None, n_trees=100, max_depth=6, learning_rate=0.1, l1_regularization=0.,
    l2_regularization=0., tree_complexity=0., min_node_weight=0., config=None, train_hooks=None,
    center_bias=False, pruning_mode="none", quantile_sketch_epsilon=0.01):
  """Trains a boosted tree classifier on a dataset held in memory (`train_input_fn` gives it as one batch).

  Returns:
    The trained estimator (a `_BoostedTreesBase`, as in TF 1.15).

  Raises:
    ValueError: n_classes other than 2, bad pruning settings, bad columns, distributed `config`.
  """
  if n_classes == _HOLD_FOR_MULTI_CLASS_SUPPORT:
    n_classes = 2
  head, closed_form = _create_classification_head_and_closed_form(n_classes, weight_column,
                                                                  label_vocabulary=label_vocabulary)
  tree_hparams = _TreeHParams(n_trees, max_depth, learning_rate, l1_regularization, l2_regularization,
                              tree_complexity, min_node_weight, center_bias, pruning_mode, quantile_sketch_epsilon)

  def _model_fn(features, labels, mode, config):
    return _bt_model_fn(features, labels, mode, head, feature_columns, tree_hparams, n_batches_per_layer=1,
                        config=config, closed_form_grad_and_hess_fn=closed_form, train_in_memory=True)

  in_memory_classifier = _BoostedTreesBase(
      model_fn=_model_fn, model_dir=model_dir, config=config, feature_columns=feature_columns, head=head,
      center_bias=center_bias, is_classification=True, quantile_sketch_epsilon=quantile_sketch_epsilon)
  in_memory_classifier.train(input_fn=_validate_input_fn_and_repeat_dataset(train_input_fn), hooks=train_hooks)
  return in_memory_classifier


def boosted_trees_regressor_train_in_memory(
    train_input_fn, feature_columns, model_dir=None, label_dimension=_HOLD_FOR_MULTI_DIM_SUPPORT,
    weight_column=None, n_trees=100, max_depth=6, learning_rate=0.1, l1_regularization=0., l2_regularization=0.,
    tree_complexity=0., min_node_weight=0., config=None, train_hooks=None, center_bias=False,
    pruning_mode="none", quantile_sketch_epsilon=0.01):
  """Trains a boosted tree regressor on a dataset held in memory (`train_input_fn` gives it as one batch).

  Returns:
    The trained estimator (a `_BoostedTreesBase`, as in TF 1.15).

  Raises:
    ValueError: label_dimension other than 1, bad pruning settings, bad columns, distributed `config`.
  """
  if label_dimension == _HOLD_FOR_MULTI_DIM_SUPPORT:
    label_dimension = 1
  head = _create_regression_head(label_dimension, weight_column)
  tree_hparams = _TreeHParams(n_trees, max_depth, learning_rate, l1_regularization, l2_regularization,
                              tree_complexity, min_node_weight, center_bias, pruning_mode, quantile_sketch_epsilon)

  def _model_fn(features, labels, mode, config):
    return _bt_model_fn(features, labels, mode, head, feature_columns, tree_hparams, n_batches_per_layer=1,
                        config=config, train_in_memory=True)

  in_memory_regressor = _BoostedTreesBase(
      model_fn=_model_fn, model_dir=model_dir, config=config, feature_columns=feature_columns, head=head,
      center_bias=center_bias, is_classification=False, quantile_sketch_epsilon=quantile_sketch_epsilon)
  in_memory_regressor.train(input_fn=_validate_input_fn_and_repeat_dataset(train_input_fn), hooks=train_hooks)
  return in_memory_regressor
