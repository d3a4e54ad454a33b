"""`tf.contrib.tensor_forest.tensor_forest`: the forest's hyperparameters and the graphs that grow and query it.

`ForestHParams` holds what a user sets and `fill()` derives the rest (TF 1.15's defaults and its errors: a pruning or
early-finish schedule without its sample count fails with TypeError, as TF 1.15's `isinstance` slip did, but with a
message naming the argument). `build_params_proto` turns them into the `TensorForestParams` message every kernel reads.
`ForestVariables` makes, per tree, a `device_dummy_<i>` variable (placed by the device assigner; the tree's ops follow
it) and `TreeVariables` its `stats-<i>` and `tree-<i>` resources. `RandomForestGraphs` builds the whole forest's
training op (optionally bagging examples and features per tree, trees split among trainers), its inference (mean,
variance and tree paths over the trees), size, losses and feature importances, one `RandomTreeGraphs` per tree doing
the kernels' traverse / update / process / grow steps.
"""

import math
import numbers
import random

import tensorflow as tf
from google.protobuf import text_format
import tf_slim

from tf1clip.contrib.tensor_forest import data_ops
from tf1clip.contrib.tensor_forest import model_ops
from tf1clip.contrib.tensor_forest import stats_ops
from tf1clip.contrib.tensor_forest.proto import generic_tree_model_pb2 as _tree_pb2
from tf1clip.contrib.tensor_forest.proto import tensor_forest_params_pb2 as _pb2

V1 = tf.compat.v1

# model_name -> (leaf model, its stats); a regression forest always uses REGRESSION_MODEL_TYPE's
CLASSIFICATION_LEAF_MODEL_TYPES = dict(
    all_dense=(_pb2.MODEL_DENSE_CLASSIFICATION, _pb2.STATS_DENSE_GINI),
    all_sparse=(_pb2.MODEL_SPARSE_CLASSIFICATION, _pb2.STATS_SPARSE_GINI),
    sparse_then_dense=(_pb2.MODEL_SPARSE_OR_DENSE_CLASSIFICATION, _pb2.STATS_SPARSE_THEN_DENSE_GINI))
REGRESSION_MODEL_TYPE = (_pb2.MODEL_REGRESSION, _pb2.STATS_LEAST_SQUARES_REGRESSION, _pb2.COLLECTION_BASIC)
# the user's names for the split-finish rule, the pruning rule and the inequality a split tests
FINISH_TYPES = dict(basic=_pb2.SPLIT_FINISH_BASIC, hoeffding=_pb2.SPLIT_FINISH_DOMINATE_HOEFFDING,
                    bootstrap=_pb2.SPLIT_FINISH_DOMINATE_BOOTSTRAP)
PRUNING_TYPES = {"none": _pb2.SPLIT_PRUNE_NONE, "half": _pb2.SPLIT_PRUNE_HALF, "quarter": _pb2.SPLIT_PRUNE_QUARTER,
                 "10_percent": _pb2.SPLIT_PRUNE_10_PERCENT, "hoeffding": _pb2.SPLIT_PRUNE_HOEFFDING}
SPLIT_TYPES = dict(less_or_equal=_tree_pb2.InequalityTest.LESS_OR_EQUAL, less=_tree_pb2.InequalityTest.LESS_THAN)


def _choose(table, argument, value):
  """table[value], or a KeyError (TF 1.15's type) that names the argument and the accepted values."""
  if value not in table:
    raise KeyError("%s=%r: expected one of %s" % (argument, value, ", ".join(sorted(table))))
  return table[value]


def parse_number_or_string_to_proto(proto, param):
  """Sets a DepthDependentParam: a number or a digit string as its constant, other text as the message in text form."""
  if isinstance(param, numbers.Number):
    proto.constant_value = param
  elif param.isdigit():
    proto.constant_value = int(param)
  else:
    text_format.Merge(param, proto)


# TensorForestParams field <- ForestHParams attribute, for the fields copied as they are
_COPIED_FIELDS = (
    ("num_trees", "num_trees"), ("max_nodes", "max_nodes"), ("is_regression", "regression"),
    ("num_outputs", "num_classes"), ("num_features", "num_features"), ("leaf_type", "leaf_model_type"),
    ("stats_type", "stats_model_type"), ("inequality_test_type", "split_type"),
    ("collate_examples", "collate_examples"), ("checkpoint_stats", "checkpoint_stats"),
    ("use_running_stats_method", "use_running_stats_method"),
    ("initialize_average_splits", "initialize_average_splits"), ("inference_tree_paths", "inference_tree_paths"))


def build_params_proto(params):
  """The TensorForestParams message of filled `params`; a `param_file` (text format) is merged over it last."""
  message = _pb2.TensorForestParams(collection_type=_pb2.COLLECTION_BASIC, drop_final_class=False)
  for field, attribute in _COPIED_FIELDS:
    setattr(message, field, getattr(params, attribute))
  message.pruning_type.type = params.pruning_type
  message.finish_type.type = params.finish_type
  message.dominate_fraction.constant_value = params.dominate_fraction
  for target, value in ((message.pruning_type.prune_every_samples, params.prune_every_samples),
                        (message.finish_type.check_every_steps, params.early_finish_check_every_samples),
                        (message.split_after_samples, params.split_after_samples),
                        (message.num_splits_to_consider, params.num_splits_to_consider)):
    parse_number_or_string_to_proto(target, value)
  if params.param_file:
    with open(params.param_file) as text:
      text_format.Merge(text.read(), message)
  return message


class ForestHParams(object):
  """A forest's hyperparameters: the arguments (any extra keyword becomes an attribute too) and, after `fill()`, the
  values derived from them. `num_classes` and `num_features` must be given (as keywords); for a regression forest
  pass `regression=True` and the output dimension as `num_classes`. `values()` is the attribute dict itself.

  Example: `ForestHParams(num_classes=2, num_features=40, num_trees=10).fill()`.
  """

  def __init__(self, num_trees=100, max_nodes=10000, bagging_fraction=1.0, num_splits_to_consider=0,
               feature_bagging_fraction=1.0, max_fertile_nodes=0, split_after_samples=250, valid_leaf_threshold=1,
               dominate_method='bootstrap', dominate_fraction=0.99, model_name='all_dense',
               split_finish_name='basic', split_pruning_name='none', prune_every_samples=0,
               early_finish_check_every_samples=0, collate_examples=False, checkpoint_stats=False,
               use_running_stats_method=False, initialize_average_splits=False, inference_tree_paths=False,
               param_file=None, split_name='less_or_equal', **kwargs):
    # max_fertile_nodes, valid_leaf_threshold and dominate_method are kept but read by nothing (as in TF 1.15)
    arguments = dict(locals())
    del arguments["self"]
    arguments.update(arguments.pop("kwargs"))
    self.__dict__.update(arguments)

  def values(self):
    return self.__dict__

  def fill(self):
    """Derives the remaining hyperparameters from the given ones and returns self."""
    num_classes, num_features = self.num_classes, self.num_features  # AttributeError when not given
    self.bagged_num_features = int(self.feature_bagging_fraction * num_features)
    self.bagged_features = None
    if self.feature_bagging_fraction < 1.0:  # each tree sees its own random subset of the columns
      self.bagged_features = [random.sample(range(num_features), self.bagged_num_features)
                              for _ in range(self.num_trees)]
    self.regression = getattr(self, "regression", False)
    self.num_outputs = num_classes if self.regression else 1
    self.num_output_columns = num_classes + 1  # one more column: the leaf's example count
    # sqrt(num_features) candidate splits per leaf, at least 10, at most 1000, unless given
    self.num_splits_to_consider = self.num_splits_to_consider or min(max(10, math.floor(math.sqrt(num_features))),
                                                                     1000)
    self.base_random_seed = getattr(self, "base_random_seed", 0)  # 0: seeded from the clock; else tree i: seed + i
    self._fill_model_types()
    self._fill_schedules()
    self.split_type = _choose(SPLIT_TYPES, "split_name", self.split_name)
    return self

  def _fill_model_types(self):
    if self.regression:
      self.leaf_model_type, self.stats_model_type = REGRESSION_MODEL_TYPE[:2]
      self.finish_type = _pb2.SPLIT_FINISH_BASIC
    else:
      self.leaf_model_type, self.stats_model_type = _choose(
          CLASSIFICATION_LEAF_MODEL_TYPES, "model_name", self.model_name)
      self.finish_type = _choose(FINISH_TYPES, "split_finish_name", self.split_finish_name)
    self.pruning_type = _choose(PRUNING_TYPES, "split_pruning_name", self.split_pruning_name)

  def _fill_schedules(self):
    """How often leaves are pruned and checked for an early finish: never with the rules that do neither, else as
    given. TF 1.15 meant to default them from split_after_samples but its check raised TypeError first."""
    if self.pruning_type == _pb2.SPLIT_PRUNE_NONE:
      self.prune_every_samples = 0
    elif not self.prune_every_samples:
      raise TypeError("ForestHParams.fill(): split_pruning_name=%r needs prune_every_samples (a positive number); "
                      "TF 1.15 failed here too" % self.split_pruning_name)
    if self.finish_type == _pb2.SPLIT_FINISH_BASIC:
      self.early_finish_check_every_samples = 0
    elif not self.early_finish_check_every_samples:
      raise TypeError("ForestHParams.fill(): split_finish_name=%r needs early_finish_check_every_samples (a positive "
                      "number); TF 1.15 failed here too" % self.split_finish_name)


def get_epoch_variable():
  """The epoch counter of `limit_epochs` (a local variable) as a [1] tensor, else [0]."""
  counters = [v for v in V1.local_variables() if "limit_epochs/epoch" in v.op.name]
  return tf.reshape(counters[0], [1]) if counters else [0]


class TreeVariables(object):
  """One tree's resources, `stats-<tree_num>` (only when `training`) and `tree-<tree_num>`, named so a checkpoint
  written by one graph restores into another. Also sets `params.params_proto` (unless it is one already) and
  `params.serialized_params_proto`."""

  def __init__(self, params, tree_num, training, tree_config='', tree_stat=''):
    if not isinstance(getattr(params, "params_proto", None), _pb2.TensorForestParams):
      params.params_proto = build_params_proto(params)
    params.serialized_params_proto = params.params_proto.SerializeToString()
    self.stats = (stats_ops.fertile_stats_variable(params, tree_stat, self.get_tree_name("stats", tree_num))
                  if training else None)
    self.tree = model_ops.tree_variable(params, tree_config, self.stats, self.get_tree_name("tree", tree_num))

  def get_tree_name(self, name, num):
    return "%s-%s" % (name, num)


class ForestVariables(object):
  """Every tree's variables (`forest_variables[i]`, a `tree_variables_class`), each created on the device of its
  `device_dummy_<i>`, a scalar variable placed by `device_assigner`; `tree_configs` / `tree_stats` give the trees'
  initial serialized states."""

  def __init__(self, params, device_assigner, training=True, tree_variables_class=TreeVariables,
               tree_configs=None, tree_stats=None):
    with V1.device(device_assigner):
      self.device_dummies = [V1.get_variable(name="device_dummy_%d" % i, shape=0) for i in range(params.num_trees)]
    self.variables = []
    for i, dummy in enumerate(self.device_dummies):
      initial = {}
      if tree_configs is not None:
        initial["tree_config"] = tree_configs[i]
      if tree_stats is not None:
        initial["tree_stat"] = tree_stats[i]
      with V1.device(dummy.device):
        self.variables.append(tree_variables_class(params, i, training, **initial))

  def __getitem__(self, index):
    return self.variables[index]

  def __setitem__(self, index, tree_variables):
    self.variables[index] = tree_variables


class RandomForestGraphs(object):
  """The graphs of a whole forest: `training_graph`, `inference_graph`, `average_size`, the losses and
  `feature_importances`, each made of one `tree_graphs` (default RandomTreeGraphs) per tree on that tree's device."""

  def __init__(self, params, tree_configs=None, tree_stats=None, device_assigner=None, variables=None,
               tree_variables_class=TreeVariables, tree_graphs=None, training=True):
    self.params = params
    self.device_assigner = device_assigner or tf_slim.VariableDeviceChooser()
    V1.logging.info("Constructing forest with params = ")
    V1.logging.info(params.__dict__)
    self.variables = variables or ForestVariables(
        params, device_assigner=self.device_assigner, training=training, tree_variables_class=tree_variables_class,
        tree_configs=tree_configs, tree_stats=tree_stats)
    per_tree = tree_graphs or RandomTreeGraphs
    self.trees = [per_tree(self.variables[i], params, i) for i in range(params.num_trees)]

  def _on_tree_device(self, index):
    return V1.device(self.variables.device_dummies[index].device)

  def _bag_features(self, tree_num, input_data):
    """The columns of `input_data` that tree `tree_num` was given (params.bagged_features)."""
    columns = tf.split(input_data, self.params.num_features, axis=1)
    return tf.concat([columns[c] for c in self.params.bagged_features[tree_num]], 1)

  def _tree_features(self, tree_num, dense, sparse):
    if not self.params.bagged_features:
      return dense
    if sparse is not None:
      raise NotImplementedError("Feature bagging not supported with sparse features.")
    return self._bag_features(tree_num, dense)

  def get_all_resource_handles(self):
    per_tree = [self.variables[i] for i in range(len(self.trees))]
    return [v.tree for v in per_tree] + [v.stats for v in per_tree]

  def training_graph(self, input_data, input_labels, num_trainers=1, trainer_id=0, **tree_kwargs):
    """The op that trains this trainer's share of the trees on one batch (`trainer_id` of `num_trainers` takes a
    contiguous block of trees); `tree_kwargs` go to each tree's training_graph (input_weights). With
    bagging_fraction < 1 every tree trains on its own random subset of the examples. Sparse features cannot be
    bagged (NotImplementedError)."""
    dense, sparse, data_spec = data_ops.ParseDataTensorOrDict(input_data)
    if input_labels is None:
      raise ValueError("training_graph: input_labels is None; the forest trains on labels")
    labels = data_ops.ParseLabelTensorOrDict(input_labels)
    share = self.params.num_trees / num_trainers
    grown = []
    for i in range(int(trainer_id * share), int((trainer_id + 1) * share)):
      seed = self.params.base_random_seed and self.params.base_random_seed + i
      with self._on_tree_device(i):
        tree_data, tree_labels = dense, labels
        if self.params.bagging_fraction < 1.0:
          tree_data, tree_labels = self._bag_examples(dense, sparse, labels, seed)
        tree_data = self._tree_features(i, tree_data, sparse)
        grown.append(self.trees[i].training_graph(tree_data, tree_labels, seed, data_spec=data_spec,
                                                  sparse_features=sparse, **tree_kwargs))
    return tf.group(*grown, name="train")

  def _bag_examples(self, dense, sparse, labels, seed):
    """The examples (and their labels) kept with probability bagging_fraction, drawn without replacement."""
    if sparse is not None:
      raise NotImplementedError("Bagging not supported with sparse features.")
    draws = V1.random_uniform(tf.strided_slice(tf.shape(dense), [0], [1]), seed=seed)
    kept = tf.squeeze(tf.where(tf.less(draws, tf.ones_like(draws) * self.params.bagging_fraction)), axis=[1])
    return tf.gather(dense, kept), tf.gather(labels, kept)

  def inference_graph(self, input_data, **inference_args):
    """(mean over the trees of their predictions [batch, outputs], the trees' paths [batch, trees], the variance
    over the trees [batch, outputs]); `input_data` must have the columns the forest was trained on."""
    dense, sparse, data_spec = data_ops.ParseDataTensorOrDict(input_data)
    predictions, paths = [], []
    for i, tree in enumerate(self.trees):
      with self._on_tree_device(i):
        tree_predictions, tree_paths = tree.inference_graph(self._tree_features(i, dense, sparse), data_spec,
                                                            sparse_features=sparse, **inference_args)
      predictions.append(tree_predictions)
      paths.append(tree_paths)
    count = self.params.num_trees
    with self._on_tree_device(0):
      stacked = tf.stack(predictions, axis=1)  # [batch, trees, outputs]
      mean = V1.div(tf.reduce_sum(stacked, 1), count, name="probabilities")
      paths = tf.stack(paths, axis=1)
      mean_of_squares = V1.div(tf.reduce_sum(stacked * stacked, 1), count)
      return mean, paths, tf.maximum(0., mean_of_squares - mean * mean)

  def average_size(self):
    """The mean number of nodes of the trees (float32)."""
    sizes = []
    for i, tree in enumerate(self.trees):
      with self._on_tree_device(i):
        sizes.append(tree.size())
    return tf.reduce_mean(tf.cast(tf.stack(sizes), tf.float32))

  def training_loss(self, features, labels, name='training_loss'):
    """Minus the average tree size: a forest that stops growing has stopped learning. The arguments are unused."""
    del features, labels
    return tf.negative(self.average_size(), name=name)

  def validation_loss(self, features, labels):
    del features, labels
    return tf.negative(self.average_size())

  def average_impurity(self):
    """The mean of the trees' `average_impurity()` (which RandomTreeGraphs lacks, so AttributeError as in TF 1.15)."""
    impurities = []
    for i, tree in enumerate(self.trees):
      with self._on_tree_device(i):
        impurities.append(tree.average_impurity())
    return tf.reduce_mean(tf.stack(impurities))

  def feature_importances(self):
    """Each feature's share of the splits over all trees."""
    usage = tf.reduce_sum(tf.stack([tree.feature_usage_counts() for tree in self.trees], 0), 0)
    return usage / tf.reduce_sum(usage)


def _sparse_parts(sparse_features):
  """(indices, values, dense_shape) of a SparseTensor; the kernels take three empty lists for none."""
  if sparse_features is None:
    return [], [], []
  return sparse_features.indices, sparse_features.values, sparse_features.dense_shape


class RandomTreeGraphs(object):
  """The graphs of tree `tree_num` on its `variables` (a TreeVariables): training, inference, size, usage counts."""

  def __init__(self, variables, params, tree_num):
    self.variables = variables
    self.params = params
    self.tree_num = tree_num

  def _kernel_args(self, data_spec):
    return dict(input_spec=data_spec.SerializeToString(), params=self.params.serialized_params_proto)

  def training_graph(self, input_data, input_labels, random_seed, data_spec, sparse_features=None,
                     input_weights=None):
    """One training step of the tree: route the batch to its leaves, update the leaves' models, add the batch to
    the split statistics (candidate splits drawn with `random_seed`, 0: from the clock) and split the leaves that
    are ready. `input_weights` None weighs every example 1."""
    tf.cast(get_epoch_variable(), tf.int32)  # built and never read by TF 1.15 either; keeps the graph's op names
    data = [] if input_data is None else input_data
    weights = [] if input_weights is None else input_weights
    sparse = _sparse_parts(sparse_features)
    tree, stats = self.variables.tree, self.variables.stats
    leaves = model_ops.traverse_tree_v4(tree, data, *sparse, **self._kernel_args(data_spec))
    updated = model_ops.update_model_v4(tree, leaves, input_labels, weights,
                                        params=self.params.serialized_params_proto)
    ready = stats_ops.process_input_v4(tree, stats, data, *sparse, input_labels, weights, leaves,
                                       random_seed=random_seed, **self._kernel_args(data_spec))
    with tf.control_dependencies([updated]):
      return stats_ops.grow_tree_v4(tree, stats, ready, params=self.params.serialized_params_proto)

  def inference_graph(self, input_data, data_spec, sparse_features=None):
    """(the tree's predictions, its paths) for a batch."""
    data = [] if input_data is None else input_data
    return model_ops.tree_predictions_v4(self.variables.tree, data, *_sparse_parts(sparse_features),
                                         **self._kernel_args(data_spec))

  def size(self):
    """The tree's number of nodes."""
    return model_ops.tree_size(self.variables.tree)

  def feature_usage_counts(self):
    return model_ops.feature_usage_counts(self.variables.tree, params=self.params.serialized_params_proto)
