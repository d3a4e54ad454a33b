"""`tf.contrib.linear_optimizer.SDCAOptimizer`: TF 1.15's SDCA wrapper that contrib.learn's linear estimators take.

TF 1.15's class: the options (example_id_column, num_loss_partitions, num_table_shards, the symmetric L1 / L2
regularization, adaptive, partitioner), `get_name()` and `get_train_step(columns_to_variables,
weight_column_name, loss_type, features, targets, global_step)`, which turns a linear model's columns into SDCA's
dense features and de-duplicated `SparseFeatureColumn`s and returns `(SdcaModel, train_op)`.

The columns are the ones tf1clip's `tf.contrib.layers.*_column` build, i.e. `tf.feature_column` columns (see
contrib.layers.feature_column): a dense (numeric) column is a dense SDCA feature, a categorical one (sparse,
bucketized, crossed, weighted) a sparse one, as TF 1.15 treated its `_RealValuedColumn` / `_BucketizedColumn` /
`_SparseColumn` / `_CrossedColumn` / `_WeightedSparseColumn`. `columns_to_variables` is what
`tf.compat.v1.feature_column.linear_model(..., cols_to_vars=...)` fills in: column -> [variable(s)] and "bias"
-> [bias variable] (TF 1.15 added the bias as a virtual column of ones; so does this). `features[column]` may
hold the transformed tensor, as in TF 1.15; otherwise the column is transformed from the raw features.
"""

import tensorflow as tf

_BIAS_KEY = "bias"  # linear_model's cols_to_vars key of the bias
_BIAS_COLUMN_NAME = "tf_virtual_bias_column"  # TF 1.15's name for it (its place in the column order)


class SDCAOptimizer(object):
  """Wrapper class for SDCA optimizer (TF 1.15's), meant for use as an optimizer within a tf.learn Estimator.

  ```python
  sdca_optimizer = tf.contrib.linear_optimizer.SDCAOptimizer(
      example_id_column='example_id', num_loss_partitions=1, num_table_shards=1,
      symmetric_l2_regularization=2.0)
  classifier = tf.contrib.learn.LinearClassifier(feature_columns=[...], optimizer=sdca_optimizer)
  ```
  The input_fn must return features holding `example_id_column` (a string Tensor of shape [batch_size]).
  """

  def __init__(self, example_id_column, num_loss_partitions=1, num_table_shards=None,
               symmetric_l1_regularization=0.0, symmetric_l2_regularization=1.0, adaptive=True,
               partitioner=None):
    self._example_id_column = example_id_column
    self._num_loss_partitions = num_loss_partitions
    self._num_table_shards = num_table_shards
    self._symmetric_l1_regularization = symmetric_l1_regularization
    self._symmetric_l2_regularization = symmetric_l2_regularization
    self._adaptive = adaptive
    self._partitioner = partitioner

  def get_name(self):
    return "SDCAOptimizer"

  @property
  def example_id_column(self):
    return self._example_id_column

  @property
  def num_loss_partitions(self):
    return self._num_loss_partitions

  @property
  def num_table_shards(self):
    return self._num_table_shards

  @property
  def symmetric_l1_regularization(self):
    return self._symmetric_l1_regularization

  @property
  def symmetric_l2_regularization(self):
    return self._symmetric_l2_regularization

  @property
  def adaptive(self):
    return self._adaptive

  @property
  def partitioner(self):
    return self._partitioner

  def get_train_step(self, columns_to_variables, weight_column_name, loss_type, features, targets,
                     global_step):
    """Returns the training operation of an SdcaModel optimizer: `(sdca_model, train_op)`."""
    import tf1clip.contrib.linear_optimizer.python.ops.sdca_ops as sdca_ops  # pylint: disable=import-outside-toplevel
    examples, variables = self._training_examples_and_variables(
        columns_to_variables, weight_column_name, features, targets)
    sdca_model = sdca_ops.SdcaModel(
        examples=examples, variables=variables,
        options=dict(symmetric_l1_regularization=self._symmetric_l1_regularization,
                     symmetric_l2_regularization=self._symmetric_l2_regularization,
                     adaptive=self._adaptive, num_loss_partitions=self._num_loss_partitions,
                     num_table_shards=self._num_table_shards, loss_type=loss_type))
    train_op = sdca_model.minimize(global_step=global_step)
    return sdca_model, train_op

  def _training_examples_and_variables(self, columns_to_variables, weight_column_name, features, targets):
    """TF 1.15's dictionaries of training examples and variables for SdcaModel."""
    fc_internal = tf.compat.v2.__internal__.feature_column
    batch_size = tf.compat.dimension_value(targets.get_shape()[0])
    if batch_size is None:
      batch_size = tf.shape(targets)[0]
    cache = fc_internal.FeatureTransformationCache(
        {k: v for k, v in features.items() if isinstance(k, str)})
    dense_features, dense_feature_weights = [], []
    sparse_feature_with_values, sparse_feature_with_values_weights = [], []

    def sort_key(column):
      return _BIAS_COLUMN_NAME if column == _BIAS_KEY else column.name

    for column in sorted(columns_to_variables.keys(), key=sort_key):
      variables = columns_to_variables[column]
      variables = variables if isinstance(variables, (list, tuple)) else [variables]
      # If a partitioner was used during variable creation, there is more than one Variable.
      weights = list(variables) if len(variables) > 1 else variables[0]
      if column == _BIAS_KEY:
        dense_features.append(tf.ones([batch_size, 1]))
        dense_feature_weights.append(variables[0])
      elif _is_categorical(column):  # first: a bucketized column is dense and categorical
        if column in features:
          id_tensor, weight_tensor = features[column], None
        else:
          id_weight_pair = column.get_sparse_tensors(cache, None)
          id_tensor, weight_tensor = id_weight_pair.id_tensor, id_weight_pair.weight_tensor
        sparse_feature_with_values.append(_sparse_feature_column(id_tensor, weight_tensor))
        sparse_feature_with_values_weights.append(weights)
      elif isinstance(column, fc_internal.DenseColumn):
        tensor = features[column] if column in features else column.get_dense_tensor(cache, None)
        # A dense feature: rank at most 2, reshaped to [batch_size, column dimension].
        check_rank_op = tf.debugging.Assert(tf.less_equal(tf.rank(tensor), 2),
                                            ["transformed_tensor should have rank at most 2."])
        with tf.control_dependencies([check_rank_op]):
          tensor = tf.reshape(tensor, [tf.shape(tensor)[0], -1])
        dense_features.append(tensor)
        dense_feature_weights.append(variables[0])
      else:
        raise ValueError("SDCAOptimizer does not support column type %s." % type(column).__name__)
    example_weights = (tf.reshape(features[weight_column_name], shape=[-1]) if weight_column_name
                       else tf.ones([batch_size]))
    examples = dict(sparse_features=sparse_feature_with_values, dense_features=dense_features,
                    example_labels=tf.cast(tf.reshape(targets, shape=[-1]), tf.float32),
                    example_weights=example_weights, example_ids=features[self._example_id_column])
    variables = dict(sparse_features_weights=sparse_feature_with_values_weights,
                     dense_features_weights=dense_feature_weights)
    return examples, variables


def _is_categorical(column):
  """Whether `column` is a categorical (sparse) tf.feature_column column (TensorFlow exports no class for it)."""
  return hasattr(column, "get_sparse_tensors") and hasattr(column, "num_buckets")


def _sparse_feature_column(id_tensor, weight_tensor):
  """TF 1.15's SparseFeatureColumn of a sparse column: invalid (< 0) ids pruned, repeated ids summed."""
  import tf1clip.contrib.linear_optimizer as linear_optimizer  # pylint: disable=import-outside-toplevel
  if weight_tensor is not None:
    weight_tensor = tf.reshape(weight_tensor.values, [-1])
  else:
    weight_tensor = tf.ones([tf.shape(id_tensor.indices)[0]], tf.float32)
  example_ids = tf.reshape(id_tensor.indices[:, 0], [-1])
  flat_ids = tf.cast(tf.reshape(id_tensor.values, [-1]), tf.int64)
  # Prune invalid IDs (< 0), e.g. the out-of-vocabulary lookups (default value -1).
  is_id_valid = tf.greater_equal(flat_ids, 0)
  flat_ids = tf.boolean_mask(flat_ids, is_id_valid)
  example_ids = tf.boolean_mask(example_ids, is_id_valid)
  weight_tensor = tf.boolean_mask(weight_tensor, is_id_valid)
  projection_length = tf.reduce_max(flat_ids) + 1
  # Project ids based on example ids so that ids occurring several times in one example are deduplicated.
  projected_ids = projection_length * example_ids + flat_ids
  ids, idx = tf.unique(projected_ids)
  # Keep only one example id per duplicated id, then project back to the feature id space.
  example_ids_filtered = tf.math.unsorted_segment_min(example_ids, idx, tf.shape(ids)[0])
  reproject_ids = ids - projection_length * example_ids_filtered
  weights = tf.reshape(tf.math.unsorted_segment_sum(weight_tensor, idx, tf.shape(ids)[0]), [-1])
  return linear_optimizer.SparseFeatureColumn(example_ids_filtered, reproject_ids, weights)
