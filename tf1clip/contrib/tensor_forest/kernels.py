"""TF 1.15's tensor_forest (v4) kernels in NumPy: the tree and fertile-stats resources and the ops that grow them.

Place in the data flow (DESIGN.md): NumPy, tf.numpy_function, contrib.tensor_forest.proto, contrib.tensor_forest.philox
<- **contrib.tensor_forest.kernels** <- contrib.tensor_forest.{model_ops, stats_ops, tensor_forest_ops} <-
contrib.tensor_forest.tensor_forest <- random_forest <- contrib <- compat <- cli.

TF 1.15's tensor_forest ran on custom C++ kernels (`_model_ops.so`, `_stats_ops.so`, `_tensor_forest_ops.so`) that
TensorFlow 2.21 neither has nor defines. This module is their v4 code step by step, run by `tf.numpy_function` ops
named as TF 1.15's: a `DecisionTreeResource` (the `decision_trees.Model` proto's nodes: binary inequality tests and
leaf vectors), a `FertileStatsResource` (one `GrowStats` slot per leaf: the candidate splits and their class counts or
output sums), and the ops: TraverseTreeV4, UpdateModelV4, ProcessInputV4, GrowTreeV4, TreePredictionsV4, TreeSize,
FeatureUsageCounts, the create / serialize / deserialize / is-initialized ops, ReinterpretStringToFloat and
ScatterAddNdim.

What matches TF 1.15 (tests/contrib/tensor_forest/test_tensor_forest_oracle.py): the feature of every candidate split is
drawn by TensorFlow's Philox (`SimplePhilox(PhiloxRandom(seed)).Uniform(num_features)`, a new generator at each
ProcessInputV4 run, as TF 1.15's per-run TensorDataSet), its threshold is the value of the example that created it;
the first `num_splits_to_consider` examples reaching a leaf create its candidates and the later ones are counted;
gini and variance scores in float32 in the kernels' order; the order in which a batch's finished leaves are split
(and so the ids of their children) is the iteration order of TF 1.15's `std::unordered_set<int32>` (libstdc++'s
prime-bucket hash table, emulated by `_HashOrder`); leaf vectors, predictions, tree paths, sizes and feature usage.
The examples of a batch are visited in order: TF 1.15 sharded a batch its cost model found big enough (more than about
200 examples) over its intra-op threads, so its own trees then changed from run to run; with one thread, or smaller
batches, they are these.

Integer and string (hashed) columns are categorical: their candidate splits match the creating example's value
(a MatchingValuesTest in the split's custom test), as TF 1.15's. Sparse features are read as TF 1.15's kernels read
them, its slips included: a candidate's feature is drawn among the dense ones and the example's sparse values, but a
sparse feature's value is looked up under its id offset by the dense features' count, so it is 0 whenever there are
dense features too (TF 1.15's GetExampleValue), and an example without any feature drew from before its sparse
indices (undefined behaviour; here a feature no example has, which TF 1.15's trees show is never chosen). Not ported
(a stated error when asked for): the early-finish strategies (`hoeffding` / `bootstrap`: TF 1.15 aborted the process
with LOG(FATAL) for the parameters ForestHParams builds), `model_name` 'sparse_then_dense' (TF 1.15 had no grow stats
for it), FinalizeTree (disabled in TF 1.15 itself: LOG(FATAL)). 'all_sparse' keeps class counts in maps, summed in the
order of TF 1.15's hash maps (`_HashOrder`). Process state: a resource lives in this
process keyed by its handle, created by its initializer or a checkpoint restore (as the boosted-trees port), shared
by the sessions of one graph.
"""

import bisect
import heapq
import collections
import itertools
import math
import threading

import numpy as np
import tensorflow as tf
# The Saver writes SAVEABLE_OBJECTS through this class; TensorFlow 2.21 has no public one.
from tensorflow.python.training.saving import saveable_object  # pylint: disable=g-direct-tensorflow-import

from tf1clip.contrib.tensor_forest.philox import SimplePhilox
from tf1clip.contrib.tensor_forest.proto import fertile_stats_pb2
from tf1clip.contrib.tensor_forest.proto import generic_tree_model_pb2
from tf1clip.contrib.tensor_forest.proto import tensor_forest_params_pb2 as params_pb2

V1 = tf.compat.v1
F32 = np.float32

DATA_FLOAT = 0
DATA_CATEGORICAL = 1
_LESS_OR_EQUAL, _LESS_THAN, _GREATER_OR_EQUAL, _GREATER_THAN = (
    generic_tree_model_pb2.InequalityTest.LESS_OR_EQUAL, generic_tree_model_pb2.InequalityTest.LESS_THAN,
    generic_tree_model_pb2.InequalityTest.GREATER_OR_EQUAL, generic_tree_model_pb2.InequalityTest.GREATER_THAN)


def parse_params(serialized):
  params = params_pb2.TensorForestParams()
  params.ParseFromString(serialized if isinstance(serialized, bytes) else serialized.encode("latin-1"))
  return params


def resolve_param(param, depth):
  """ResolveParam: a DepthDependentParam's value at `depth` (float32)."""
  kind = param.WhichOneof("ParamType")
  if kind == "constant_value" or kind is None:
    return F32(param.constant_value)
  if kind == "linear":
    val = F32(depth) * F32(param.linear.slope) + F32(param.linear.y_intercept)
    return min(max(val, F32(param.linear.min_val)), F32(param.linear.max_val))
  if kind == "exponential":
    e = param.exponential
    return F32(F32(e.bias) + F32(e.multiplier) * F32(math.pow(e.base, e.depth_multiplier * depth)))
  if depth >= param.threshold.threshold:
    return F32(param.threshold.on_value)
  return F32(param.threshold.off_value)


def check_supported(params):
  """Raises NotImplementedError for the parameters whose kernels are not ported (see the module docstring)."""
  if params.stats_type not in (params_pb2.STATS_DENSE_GINI, params_pb2.STATS_SPARSE_GINI,
                               params_pb2.STATS_LEAST_SQUARES_REGRESSION):
    raise NotImplementedError(
        "tf1clip's tensor_forest ports the dense and sparse classification stats ('all_dense', 'all_sparse') and "
        "the regression stats; stats type %d is not ported (model_name 'sparse_then_dense': TF 1.15 had no grow "
        "stats for it and crashed)" % params.stats_type)
  if params.stats_type == params_pb2.STATS_SPARSE_GINI and params.use_running_stats_method:
    raise NotImplementedError("use_running_stats_method with model_name 'all_sparse' is not ported (TF 1.15 "
                              "aborted the process: std::out_of_range on a class a leaf had not seen)")
  if params.finish_type.type != params_pb2.SPLIT_FINISH_BASIC and not params.is_regression:
    raise NotImplementedError(
        "split_finish_name 'hoeffding' / 'bootstrap' is not ported (TF 1.15 aborted the process with "
        "LOG(FATAL) 'dominate_fraction and min_split_samples required for early-finish strategy' for the "
        "parameters ForestHParams builds); use split_finish_name='basic'")


# ---- the input spec (data_ops.TensorForestDataSpec.SerializeToString, parsed as data_spec.h does) --------------

class DataSpec(object):
  """dense_features_size and each dense feature's original type."""

  def __init__(self, serialized):
    serialized = serialized.decode() if isinstance(serialized, bytes) else serialized
    tokens = [t for t in serialized.replace("]", "[").split("[")]
    self.dense_features_size = int(tokens[0].split(" ")[1])
    self.dense_types = []
    self.sparse_types = []
    for i, part in ((1, "dense"), (3, "sparse")):
      cols = [c for c in tokens[i].replace("}", "{").split("{") if c] if len(tokens) > i else []
      for col in cols:
        words = col.split(" ")
        if part == "dense":
          self.dense_types.extend([int(words[3])] * int(words[5]))
        else:
          self.sparse_types.append(int(words[3]))


_NO_FEATURE = 2 ** 31 - 1


class _Dataset(object):
  """TensorDataSet: a batch's dense matrix and / or sparse values, read as TF 1.15's kernels read them."""

  def __init__(self, spec, dense, indices, values, shape):
    self.spec = spec
    dense = np.asarray(dense, F32)
    self.dense = dense if dense.ndim == 2 else None
    indices = np.asarray(indices, np.int64)
    self.sparse = indices.ndim == 2
    if self.sparse:
      self.indices = indices
      self.rows = indices[:, 0]
      self.sparse_values = {(int(i), int(j)): F32(v) for (i, j), v in zip(indices, np.asarray(values, F32))}
    if self.dense is not None:
      self.num_items = self.dense.shape[0]
    else:
      self.num_items = int(np.asarray(shape).reshape(-1)[0]) if self.sparse else 0

  def values(self, rows, features):
    """GetExampleValue of each (row, feature): the dense column, or the sparse value (0 where there is none)."""
    if not self.sparse and self.dense is not None:  # the common case, at once
      try:
        return self.dense[rows, features]
      except IndexError:
        pass  # a feature past the input's columns: the error below names it
    rows, features = np.broadcast_arrays(np.asarray(rows, np.int64), np.asarray(features, np.int64))
    shape = rows.shape
    rows, features = rows.reshape(-1), features.reshape(-1)
    out = np.zeros(rows.shape, F32)
    dense = features < self.spec.dense_features_size
    if dense.any():
      if self.dense is None or features[dense].max() >= self.dense.shape[1]:
        raise tf.errors.InvalidArgumentError(None, None, "a split tests dense feature %d; the input has %d" % (
            features[dense].max(), 0 if self.dense is None else self.dense.shape[1]))
      out[dense] = self.dense[rows[dense], features[dense]]
    if not dense.all() and self.sparse:
      # FindSparseValue(example, feature_id): TF 1.15 looked the feature id up as the sparse column itself
      for index in np.nonzero(~dense)[0]:
        out[index] = self.sparse_values.get((int(rows[index]), int(features[index])), F32(0))
    return out.reshape(shape)

  def random_sample(self, example, rng, rand_feature=None):
    """RandomSample: (feature id, its column type) of a candidate split created from `example`."""
    num_total = self.spec.dense_features_size
    start = -1
    if self.sparse:
      found = np.nonzero(self.rows == example)[0]
      if found.size:
        start = int(found[0])
        num_total += found.size
    if rand_feature is None:
      rand_feature = rng.uniform(num_total)
    if rand_feature < len(self.spec.dense_types):  # dense
      return int(rand_feature), self.spec.dense_types[rand_feature]
    sparse_type = self.spec.sparse_types[0] if self.spec.sparse_types else DATA_CATEGORICAL
    if start < 0:
      # an example without sparse values (and no dense features): TF 1.15 read the column before its sparse
      # indices (undefined behaviour); a feature no example has stands for it (its value 0 sends every example to
      # one side, so such a candidate is never the best split)
      return _NO_FEATURE, sparse_type
    sparse_index = start + rand_feature - self.spec.dense_features_size
    return int(self.indices[sparse_index, 1]) + self.spec.dense_features_size, sparse_type


# ---- std::unordered_set<int32> iteration order (libstdc++) -------------------------------------------------------

_FAST_BUCKETS = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 103, 109,
           113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257, 277, 293, 313, 337, 359, 383, 409,
           439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887, 953, 1031, 1109, 1193, 1289, 1381, 1493, 1613,
           1741, 1879, 2029, 2179, 2357, 2549, 2753, 2971, 3209, 3469, 3739, 4027, 4349, 4703, 5087, 5503, 5953,
           6427, 6949, 7517, 8123, 8783, 9497, 10273, 11113, 12011, 12983, 14033, 15173, 16411, 17749, 19183,
           20753, 22447, 24281, 26267, 28411, 30727, 33223, 35933, 38873, 42043, 45481, 49201, 53201, 57557, 62233,
           67307, 72817, 78779, 85229, 92203, 99733)


class _HashOrder(object):
  """The iteration order of TF 1.15's `std::unordered_set<int32>` / `unordered_map<int32, ...>` after inserts.

  TF 1.15's ProcessInputV4 collects the leaves ready to split in such a set and GrowTreeV4 splits them in its
  order, numbering the new children in that order; its collated path draws candidate features per leaf in the
  order of such a map. The emulation is libstdc++'s hash table: identity hash, a node inserted at the front of its
  bucket or (an empty bucket) of the list, relinking on rehash, prime bucket counts (max load 1.0, growth 2). Its
  growth schedule (one bucket and room for two at first, a rehash when the size reaches the room) is the one that
  reproduces the orders TF 1.15's kernel returned: 165 sets of 1 to 40 leaves inserted in known orders, all equal.
  """

  def __init__(self):
    self._next = {None: None}  # None is the list's before-begin node
    self._buckets = {}
    self._bucket_count = 1
    self._next_resize = 2

  def _next_bucket_count(self, n):
    if n < len(_FAST_BUCKETS):
      self._next_resize = _FAST_BUCKETS[n]
      return _FAST_BUCKETS[n]
    index = bisect.bisect_left(_PRIMES, n, lo=6)
    prime = _PRIMES[index] if index < len(_PRIMES) else n | 1
    self._next_resize = prime
    return prime

  def _rehash(self, count):
    p = self._next[None]
    self._next[None] = None
    buckets = {}
    begin_bucket = None
    while p is not None:
      after = self._next[p]
      b = p % count
      if b not in buckets:
        self._next[p] = self._next[None]
        self._next[None] = p
        buckets[b] = None
        if self._next[p] is not None:
          buckets[begin_bucket] = p
        begin_bucket = b
      else:
        self._next[p] = self._next[buckets[b]]
        self._next[buckets[b]] = p
      p = after
    self._buckets = buckets
    self._bucket_count = count

  def add(self, key):
    key = int(key)
    if key in self._next:
      return
    size = len(self._next) - 1
    if size + 1 >= self._next_resize:
      min_buckets = float(size + 1)
      if min_buckets >= self._bucket_count:
        self._rehash(self._next_bucket_count(max(int(math.floor(min_buckets)) + 1, self._bucket_count * 2)))
      else:
        self._next_resize = self._bucket_count
    b = key % self._bucket_count
    if b in self._buckets:
      before = self._buckets[b]
      self._next[key] = self._next[before]
      self._next[before] = key
    else:
      self._next[key] = self._next[None]
      self._next[None] = key
      if self._next[key] is not None:
        self._buckets[self._next[key] % self._bucket_count] = key
      self._buckets[b] = None

  def __iter__(self):
    p = self._next[None]
    while p is not None:
      yield p
      p = self._next[p]

  def __len__(self):
    return len(self._next) - 1


# ---- the tree resource ---------------------------------------------------------------------------------------------

_Split = collections.namedtuple("_Split", ["feature", "threshold", "test_type"])
# A categorical feature's split (a MatchingValuesTest of one value, packed in custom_left_child_test): its value is
# the _Split's threshold and it goes left when equal.
_MATCHING = -1
_MATCHING_URL = "type.googleapis.com/tensorflow.decision_trees.MatchingValuesTest"


def _matching_test():
  from tf1clip.contrib.tensor_forest.proto import descriptors  # pylint: disable=g-import-not-at-top
  return descriptors.message("tensorflow.decision_trees.MatchingValuesTest")()


def _read_split(binary, where):
  """The _Split of a BinaryNode (an inequality on one feature, or a MatchingValuesTest of one value)."""
  if binary.WhichOneof("left_child_test") == "custom_left_child_test":
    test = _matching_test()
    if binary.custom_left_child_test.type_url.endswith("MatchingValuesTest") and len(
        _unpack(binary.custom_left_child_test, test).value) == 1 and not test.inverse:
      return _Split(int(test.feature_id.id.value), F32(test.value[0].float_value), _MATCHING)
  elif binary.inequality_left_child_test.WhichOneof("FeatureSum") == "feature_id":
    test = binary.inequality_left_child_test
    return _Split(int(test.feature_id.id.value), F32(test.threshold.float_value), test.type)
  raise NotImplementedError("tf1clip's tensor_forest reads %s tests on one feature (inequalities, or one matching "
                            "value); this one is %s" % (where, binary))


def _unpack(any_message, message):
  message.ParseFromString(any_message.value)
  return message


def _split_proto(split, binary):
  """Writes a _Split into a BinaryNode as TF 1.15's kernels did."""
  if split.test_type == _MATCHING:
    test = _matching_test()
    test.feature_id.id.value = str(split.feature)
    test.value.add().float_value = split.threshold
    binary.custom_left_child_test.Pack(test)
    return
  test = binary.inequality_left_child_test
  test.feature_id.id.value = str(split.feature)
  test.threshold.float_value = split.threshold
  test.type = split.test_type


def _decide(values, threshold, test_type):
  """True where an example goes left (DecideInequalityTest)."""
  if test_type == _LESS_OR_EQUAL:
    return values <= threshold
  if test_type == _LESS_THAN:
    return values < threshold
  if test_type == _GREATER_OR_EQUAL:
    return values >= threshold
  if test_type == _GREATER_THAN:
    return values > threshold
  if test_type == _MATCHING:
    return values == threshold
  return np.zeros(np.shape(values), bool)


class _Tree(object):
  """DecisionTreeResource: the nodes of a decision_trees.Model, with arrays for traversing a batch."""

  def __init__(self, params, serialized):
    self.lock = threading.RLock()
    self.params = params
    self.sparse = params.leaf_type == params_pb2.MODEL_SPARSE_CLASSIFICATION
    model = generic_tree_model_pb2.Model()
    if serialized:
      model.ParseFromString(serialized)
    self.splits = []     # _Split, or None for a leaf
    self.leaves = []     # float32 vector (leaf), or None
    self.value_set = []  # which leaf values a proto Value holds (InitModel adds empty ones)
    self.children = []   # (left, right) or None
    self.extra = []      # parts of a node this port keeps but never reads (a proto, or None)
    for node in model.decision_tree.nodes:
      self._add_node_proto(node)
    if not self.splits:  # InitModel: an empty sparse leaf, or num_outputs unset values
      if self.sparse:
        self._add_leaf(_SparseLeaf(), None)
      else:
        self._add_leaf(np.zeros(params.num_outputs, F32), np.zeros(params.num_outputs, bool))
    self._arrays = None

  def _add_leaf(self, values, value_set):
    self.splits.append(None)
    self.leaves.append(values)
    self.value_set.append(value_set)
    self.children.append(None)
    self.extra.append(None)

  def _add_node_proto(self, node):
    kind = node.WhichOneof("node_type")
    if kind == "leaf" and (self.sparse or node.leaf.WhichOneof("leaf") == "sparse_vector"):
      self._add_leaf(_SparseLeaf((int(k), F32(v.float_value)) for k, v in node.leaf.sparse_vector.sparse_value.items()),
                     None)
      return
    if kind == "leaf":
      values = [v.float_value for v in node.leaf.vector.value]
      value_set = [v.WhichOneof("value") is not None for v in node.leaf.vector.value]
      self._add_leaf(np.array(values, F32), np.array(value_set, bool))
      return
    if kind != "binary_node":
      raise NotImplementedError("tf1clip's tensor_forest reads trees of binary nodes; this tree has a %s" % kind)
    binary = node.binary_node
    self.splits.append(_read_split(binary, "trees of"))
    self.leaves.append(None)
    self.value_set.append(None)
    self.children.append((binary.left_child_id.value, binary.right_child_id.value))
    self.extra.append(None)

  def size(self):
    return len(self.splits)

  def node_proto(self, i, node):
    """Fills a decision_trees.TreeNode as TF 1.15's tree held node i."""
    if i:
      node.node_id.value = i
    if self.splits[i] is None and isinstance(self.leaves[i], _SparseLeaf):
      node.leaf.SetInParent()
      for label, value in self.leaves[i].items():
        node.leaf.sparse_vector.sparse_value[label].float_value = value
      return node
    if self.splits[i] is None:
      vector = node.leaf.vector
      for value, is_set in zip(self.leaves[i], self.value_set[i]):
        entry = vector.value.add()
        if is_set:
          entry.float_value = value
      if not len(self.leaves[i]):
        node.leaf.vector.SetInParent()
      return node
    split = self.splits[i]
    binary = node.binary_node
    binary.left_child_id.value, binary.right_child_id.value = self.children[i]
    _split_proto(split, binary)
    return node

  def serialize(self):
    model = generic_tree_model_pb2.Model()
    nodes = model.decision_tree.nodes
    for i in range(self.size()):
      self.node_proto(i, nodes.add())
    return model.SerializeToString()

  def _tables(self):
    if self._arrays is None:
      n = self.size()
      is_leaf = np.array([s is None for s in self.splits], bool)
      feature = np.array([s.feature if s else 0 for s in self.splits], np.int64)
      threshold = np.array([s.threshold if s else 0 for s in self.splits], F32)
      test_type = np.array([s.test_type if s else 0 for s in self.splits], np.int64)
      left = np.array([c[0] if c else 0 for c in self.children], np.int64)
      right = np.array([c[1] if c else 0 for c in self.children], np.int64)
      self._arrays = (n, is_leaf, feature, threshold, test_type, left, right)
    return self._arrays

  def traverse(self, data, paths=None):
    """The leaf of every example (and, if `paths` is a list of lists, the nodes it visited)."""
    _, is_leaf, feature, threshold, test_type, left, right = self._tables()
    num = data.num_items
    ids = np.zeros(num, np.int64)
    active = np.arange(num)
    if paths is not None:
      for i in range(num):
        paths[i].append(0)
    while active.size:
      nodes = ids[active]
      inner = ~is_leaf[nodes]
      active, nodes = active[inner], nodes[inner]
      if not active.size:
        break
      values = data.values(active, feature[nodes])
      go_left = np.zeros(active.size, bool)
      for kind in np.unique(test_type[nodes]):
        where = test_type[nodes] == kind
        go_left[where] = _decide(values[where], threshold[nodes][where], kind)
      ids[active] = np.where(go_left, left[nodes], right[nodes])
      if paths is not None:
        for i, node in zip(active, ids[active]):
          paths[i].append(int(node))
    return ids.astype(np.int32)

  def split_node(self, node_id, best):
    """SplitNode: node_id becomes best's split, with two new leaves exported from its left / right stats."""
    new_id = self.size()
    for stats in (best.left_stats, best.right_stats):
      values = _export_leaf(self.params, stats)
      self._add_leaf(values, None if isinstance(values, _SparseLeaf) else np.ones(len(values), bool))
    self.splits[node_id] = best.split
    self.leaves[node_id] = None
    self.value_set[node_id] = None
    self.children[node_id] = (new_id, new_id + 1)
    self._arrays = None
    return [new_id, new_id + 1]

  def feature_usage_counts(self, num_features):
    counts = np.zeros(num_features, np.int32)
    for split in self.splits:
      if split is not None and split.feature < num_features:  # (a sparse id past num_features: TF 1.15 wrote
        counts[split.feature] += 1                              # outside its counts)
    return counts


def _export_leaf(params, stats):
  """LeafModelOperator::ExportModel: class counts, or the regression means (sums / weight)."""
  if params.is_regression:
    return np.array([F32(s) / F32(stats.weight_sum) for s in stats.sums], F32)
  if isinstance(stats.counts, dict):
    return _SparseLeaf(stats.counts)
  return np.array(stats.counts, F32)


class _SparseLeaf(dict):
  """A sparse leaf's class counts (decision_trees.SparseVector): class -> float32, absent classes count 0."""


# ---- the fertile stats resource ------------------------------------------------------------------------------------

_Best = collections.namedtuple("_Best", ["split", "left_stats", "right_stats"])
_LeafStat = collections.namedtuple("_LeafStat", ["weight_sum", "counts", "sums"])


class _Slot(object):
  """GrowStats of one leaf: its candidate splits and what the examples after them added up to."""

  def __init__(self, params, depth):
    self.params = params
    self.depth = depth
    self.split_after_samples = int(resolve_param(params.split_after_samples, depth))
    self.num_splits_to_consider = int(resolve_param(params.num_splits_to_consider, depth))
    self.num_outputs = params.num_outputs
    self.regression = params.is_regression
    prune = params.pruning_type.type
    if not self.regression and prune != params_pb2.SPLIT_PRUNE_NONE:
      self.prune_check_every = int(resolve_param(params.pruning_type.prune_every_samples, depth))
      self.prune_fraction = {params_pb2.SPLIT_PRUNE_HALF: 0.5, params_pb2.SPLIT_PRUNE_QUARTER: 0.25,
                             params_pb2.SPLIT_PRUNE_10_PERCENT: 0.10}.get(prune, 0.0)
      if prune == params_pb2.SPLIT_PRUNE_HOEFFDING:
        dominate = resolve_param(params.dominate_fraction, depth)
        self.half_ln_dominate_frac = F32(0.5 * math.log(1.0 / (1.0 - float(dominate))))
    else:
      self.prune_check_every = self.split_after_samples * 2
    self.prune_sample_epoch = 1
    self.initialize()

  def initialize(self):
    self.weight_sum = F32(0)
    self.splits = []
    # what each candidate's evaluator decides with: its threshold when it was added (the kernel's evaluators copy
    # it; initialize_average_splits later moves only the split's own threshold, the one a tree gets)
    self.evaluated = []
    self.half_initialized = {}
    outputs = self.num_outputs
    self.total = np.zeros(outputs, F32)  # class counts / output sums
    self.total_squares = np.zeros(outputs, F32)
    # per split: left class counts / left output sums, their squares, left example counts (room for every split)
    capacity = max(self.num_splits_to_consider, 1)
    self._left = np.zeros((capacity, outputs), F32)
    self._left_squares = np.zeros((capacity, outputs), F32)
    self._left_counts = np.zeros(capacity, F32)
    self.outputs_seen = 0
    self._tables = None
    # 'all_sparse' (SparseClassificationGrowStats): class -> count maps, summed in the maps' hash order
    self.sparse = self.params.stats_type == params_pb2.STATS_SPARSE_GINI
    self.total_map = {}
    self.total_order = _HashOrder()
    self.left_maps = []

  @property
  def left(self):
    return self._left[:len(self.splits)]

  @property
  def left_squares(self):
    return self._left_squares[:len(self.splits)]

  @property
  def left_counts(self):
    return self._left_counts[:len(self.splits)]

  def is_initialized(self):
    return self.weight_sum > 0 or (len(self.splits) == self.num_splits_to_consider and not self.half_initialized)

  def is_finished(self):
    if self.regression:
      return self.weight_sum >= self.split_after_samples
    if self.sparse:
      return self.weight_sum >= self.split_after_samples and len(self.total_map) > 1
    return self.weight_sum >= self.split_after_samples and self.outputs_seen > 1

  def add_split(self, split, data, labels, example):
    if len(self.splits) < self.num_splits_to_consider:
      if len(self.splits) == len(self._left_counts):
        self._left = np.concatenate([self._left, np.zeros_like(self._left)])
        self._left_squares = np.concatenate([self._left_squares, np.zeros_like(self._left_squares)])
        self._left_counts = np.concatenate([self._left_counts, np.zeros_like(self._left_counts)])
      self.splits.append(split)
      self.evaluated.append(split)
      self.left_maps.append({})
      self._tables = None
      if self.params.initialize_average_splits and not self.regression and split.test_type != _MATCHING:
        self.half_initialized[len(self.splits) - 1] = int(labels.class_index(example))
    if self.params.initialize_average_splits and not self.regression:
      self._average_thresholds(data, labels, example)

  def _average_thresholds(self, data, labels, example):
    """ClassificationStats::AdditionalInitializationExample."""
    target = int(labels.class_index(example))
    for index, first_class in list(self.half_initialized.items()):
      if first_class != target:
        split = self.splits[index]
        value = F32(data.values(example, split.feature)[()])
        self.splits[index] = split._replace(threshold=F32((split.threshold + value) / F32(2)))
        self._tables = None
        del self.half_initialized[index]

  def _split_tables(self):
    if self._tables is None:
      self._tables = (np.array([s.feature for s in self.evaluated], np.int64),
                      np.array([s.threshold for s in self.evaluated], F32),
                      np.array([s.test_type for s in self.evaluated], np.int64))
    return self._tables

  def _go_left(self, data, example):
    feature, threshold, test_type = self._split_tables()
    values = data.values(example, feature)
    if np.all(test_type == test_type[0]):
      return _decide(values, threshold, test_type[0])
    return np.array([_decide(v, t, k) for v, t, k in zip(values, threshold, test_type)], bool)

  def add_example(self, data, labels, example):
    go_left = self._go_left(data, example) if self.splits else np.zeros(0, bool)
    if self.regression:
      outputs = labels.continuous(example, self.num_outputs)
      self.left[go_left] += outputs
      self.left_squares[go_left] += outputs * outputs
      self.left_counts[go_left] += F32(1)
      self.total += outputs
      self.total_squares += outputs * outputs
      self.weight_sum = F32(self.weight_sum + F32(1))
      return
    label = int(labels.class_index(example))
    weight = labels.weight(example)
    if not 0 <= label < self.num_outputs:
      raise tf.errors.InvalidArgumentError(None, None, (
          "Got label %d, out of range for %d classes. Is params.num_classes set correctly? (TF 1.15 aborted "
          "the process here)") % (label, self.num_outputs))
    if self.sparse:
      for i in np.nonzero(go_left)[0]:
        self.left_maps[i][label] = F32(self.left_maps[i].get(label, F32(0)) + weight)
      self.total_map[label] = F32(self.total_map.get(label, F32(0)) + weight)
      self.total_order.add(label)
      self.weight_sum = F32(self.weight_sum + weight)
      self._check_prune()
      return
    self.left[go_left, label] += weight
    if self.total[label] == 0 and weight > 0:
      self.outputs_seen += 1
    self.total[label] += weight
    self.weight_sum = F32(self.weight_sum + weight)
    self._check_prune()

  def add_examples(self, data, labels, examples):
    """add_example for each of `examples` in turn, at once: the position after which the slot was first finished.

    The counts are float32 sums in the examples' order (np.add.at adds one at a time), as the kernel's; a slot that
    prunes its candidates goes example by example.

    Returns:
      The index into `examples` of the example after which is_finished() first held, or None.
    """
    examples = np.asarray(examples, np.int64)
    if not examples.size:
      return None
    if self.sparse or (not self.regression and self.params.pruning_type.type != params_pb2.SPLIT_PRUNE_NONE):
      first = None
      for position, example in enumerate(examples):
        self.add_example(data, labels, int(example))
        if first is None and self.is_finished():
          first = position
      return first
    if self.splits:
      feature, threshold, test_type = self._split_tables()
      values = data.values(examples[:, None], feature[None, :])
      if test_type.min() == test_type.max():
        go_left = _decide(values, threshold[None, :], test_type[0])
      else:
        go_left = np.zeros(values.shape, bool)
        for kind in np.unique(test_type):
          where = test_type == kind
          go_left[:, where] = _decide(values[:, where], threshold[where], kind)
      rows, cols = np.nonzero(go_left)  # example-major: each split's sums in the examples' order
    else:
      rows = cols = np.zeros(0, np.int64)
    if self.regression:
      outputs = labels.flat.reshape(-1, labels.num_targets)[examples, :self.num_outputs]
      np.add.at(self.left, cols, outputs[rows])
      np.add.at(self.left_squares, cols, outputs[rows] * outputs[rows])
      np.add.at(self.left_counts, cols, F32(1))
      # totals: one example after another, as the kernel (accumulate runs along the examples)
      self.total = np.add.accumulate(np.concatenate([self.total[None], outputs]), axis=0, dtype=F32)[-1]
      self.total_squares = np.add.accumulate(np.concatenate([self.total_squares[None], outputs * outputs]),
                                             axis=0, dtype=F32)[-1]
      weights = np.ones(len(examples), F32)
      sums = np.add.accumulate(np.concatenate([[self.weight_sum], weights]).astype(F32), dtype=F32)[1:]
      self.weight_sum = F32(sums[-1])
      done = np.nonzero(sums >= self.split_after_samples)[0]
      return int(done[0]) if done.size else None
    classes = labels.flat[examples * labels.num_targets].astype(np.int64)
    bad = (classes < 0) | (classes >= self.num_outputs)
    if bad.any():
      raise tf.errors.InvalidArgumentError(None, None, (
          "Got label %d, out of range for %d classes. Is params.num_classes set correctly? (TF 1.15 aborted "
          "the process here)") % (classes[bad][0], self.num_outputs))
    weights = np.ones(len(examples), F32)
    if labels.weights.size:
      weighted = examples < labels.weights.size
      weights[weighted] = labels.weights[examples[weighted]]
    np.add.at(self.left, (cols, classes[rows]), weights[rows])
    total = self.total
    if (total[classes] != 0).all():  # no class seen for the first time: one add after another, and the same count
      np.add.at(total, classes, weights)
      seen = np.full(len(examples), self.outputs_seen, np.int64)
    else:
      seen = np.empty(len(examples), np.int64)
      count = self.outputs_seen
      for i, (c, w) in enumerate(zip(classes.tolist(), weights)):  # ClassificationAddTotalExample, in turn
        if total[c] == 0 and w > 0:
          count += 1
        total[c] = F32(total[c] + w)
        seen[i] = count
      self.outputs_seen = count
    sums = np.add.accumulate(np.concatenate([[self.weight_sum], weights]).astype(F32), dtype=F32)[1:]
    self.weight_sum = F32(sums[-1])
    done = np.nonzero((sums >= self.split_after_samples) & (seen > 1))[0]
    return int(done[0]) if done.size else None

  # -- classification scores
  def _class_counts(self, index):
    """(left, right) count of each class, in the order the kernel visits them."""
    if self.sparse:  # SparseClassificationGrowStats: the classes seen, in total_counts_'s order
      for label in self.total_order:
        left = self.left_maps[index].get(label)
        total = self.total_map[label]
        yield (F32(0), total) if left is None else (left, F32(total - left))
      return
    for j in range(self.num_outputs):
      left = self.left[index, j]
      yield left, F32(self.total[j] - left)

  def _gini(self, index):
    """(score, left_sum, right_sum): GiniScore in float32, the kernel's order."""
    left_sum = right_sum = left_square = right_square = F32(0)
    for left, right in self._class_counts(index):
      left_sum = F32(left_sum + left)
      left_square = F32(left_square + left * left)
      right_sum = F32(right_sum + right)
      right_square = F32(right_square + right * right)
    return F32(_weighted_smoothed_gini(left_sum, left_square, self.num_outputs) +
               _weighted_smoothed_gini(right_sum, right_square, self.num_outputs)), left_sum, right_sum

  def _check_prune(self):
    prune = self.params.pruning_type.type
    if (prune == params_pb2.SPLIT_PRUNE_NONE or self.is_finished() or
        self.weight_sum < self.prune_sample_epoch * self.prune_check_every):
      return
    self.prune_sample_epoch += 1
    if prune == params_pb2.SPLIT_PRUNE_HOEFFDING:
      scores = [self._gini(i)[0] for i in range(len(self.splits))]
      best = min(scores, default=F32(np.finfo(F32).max))
      num_classes = F32(self.num_outputs)
      gini_diff_range = F32(self.weight_sum * (1.0 - 1.0 / num_classes))
      epsilon = F32(gini_diff_range * math.sqrt(self.half_ln_dominate_frac / self.weight_sum))
      for i in range(len(self.splits) - 1, -1, -1):
        if F32(scores[i] - best) > epsilon:
          self._remove_split(i)
      return
    to_remove = int(len(self.splits) * self.prune_fraction)
    if to_remove <= 0:
      return
    # the kernel's min-heap of (score, index) pairs keeping the to_remove worst splits
    worst = []
    for i in range(len(self.splits)):
      entry = (self._gini(i)[0], i)
      if len(worst) < to_remove:
        heapq.heappush(worst, entry)
      elif worst[0][0] < entry[0]:
        heapq.heapreplace(worst, entry)
    for i in sorted((i for _, i in worst), reverse=True):
      self._remove_split(i)

  def _remove_split(self, index):
    last = len(self.splits) - 1
    for buf in (self._left, self._left_squares, self._left_counts):
      buf[index:last] = buf[index + 1:last + 1]
      buf[last] = 0
    del self.splits[index]
    del self.evaluated[index]
    del self.left_maps[index]
    self._tables = None

  def best_split(self):
    """BestSplit: the lowest-scoring candidate with examples on both sides, and its two sides' stats, or None."""
    best_index = -1
    min_score = F32(np.finfo(F32).max)
    if self.regression:
      for i in range(len(self.splits)):
        if self.left_counts[i] > 0 and F32(self.weight_sum - self.left_counts[i]) > 0:
          score = self._variance(i)
          if score < min_score:
            min_score, best_index = score, i
      if best_index < 0:
        return None
      left_count = self.left_counts[best_index]
      return _Best(self.splits[best_index],
                   _LeafStat(left_count, None, self.left[best_index].copy()),
                   _LeafStat(F32(self.weight_sum - left_count), None,
                             (self.total - self.left[best_index]).astype(F32)))
    best_left = best_right = None
    for i in range(len(self.splits)):
      score, left_sum, right_sum = self._gini(i)
      if left_sum > 0 and right_sum > 0 and score < min_score:
        min_score, best_index, best_left, best_right = score, i, left_sum, right_sum
    if best_index < 0:
      return None
    if self.sparse:  # SparseClassificationGrowStats::InitLeafClassStats
      left_counts, right_counts = {}, {}
      for label in self.total_order:
        left = self.left_maps[best_index].get(label)
        if left is None:
          right_counts[label] = self.total_map[label]
        else:
          left_counts[label] = left
          if F32(self.total_map[label] - left) > 0:
            right_counts[label] = F32(self.total_map[label] - left)
      return _Best(self.splits[best_index], _LeafStat(best_left, left_counts, None),
                   _LeafStat(best_right, right_counts, None))
    return _Best(self.splits[best_index],
                 _LeafStat(best_left, self.left[best_index].copy(), None),
                 _LeafStat(best_right, (self.total - self.left[best_index]).astype(F32), None))

  def _variance(self, index):
    total = F32(0)
    count = self.left_counts[index]
    right_count = F32(self.weight_sum - count)
    for i in range(self.num_outputs):
      le_x = F32(self.left[index, i] / count)
      le_x2 = F32(self.left_squares[index, i] / count)
      total = F32(total + F32(le_x2 - le_x * le_x))
      re_x = F32(F32(self.total[i] - self.left[index, i]) / right_count)
      re_x2 = F32(F32(self.total_squares[i] - self.left_squares[index, i]) / right_count)
      total = F32(total + F32(re_x2 - re_x * re_x))
    return total

  # -- checkpoints (checkpoint_stats)
  def pack(self, slot):
    leaf = slot.post_init_leaf_stats
    leaf.weight_sum = self.weight_sum
    if self.regression:
      for s, q in zip(self.total, self.total_squares):
        leaf.regression.mean_output.value.add().float_value = s
        leaf.regression.mean_output_squares.value.add().float_value = q
    elif self.sparse:
      for label in self.total_order:
        leaf.classification.sparse_counts.sparse_value[label].float_value = self.total_map[label]
    else:
      for c in self.total:
        leaf.classification.dense_counts.value.add().float_value = c
    for i, split in enumerate(self.splits):
      candidate = slot.candidates.add()
      _split_proto(split, candidate.split)
      if self.regression:
        for s, q in zip(self.left[i], self.left_squares[i]):
          candidate.left_stats.regression.mean_output.value.add().float_value = s
          candidate.left_stats.regression.mean_output_squares.value.add().float_value = q
        candidate.left_stats.weight_sum = self.left_counts[i]
      elif self.sparse:
        for label, count in self.left_maps[i].items():
          candidate.left_stats.classification.sparse_counts.sparse_value[label].float_value = count
      else:
        for c in self.left[i]:
          candidate.left_stats.classification.dense_counts.value.add().float_value = c

  def extract(self, slot):
    self.initialize()
    if not slot.HasField("post_init_leaf_stats"):
      return
    leaf = slot.post_init_leaf_stats
    self.weight_sum = F32(leaf.weight_sum)
    if self.regression:
      self.total = np.array([v.float_value for v in leaf.regression.mean_output.value], F32)
      self.total_squares = np.array([v.float_value for v in leaf.regression.mean_output_squares.value], F32)
    elif self.sparse:  # (the order TF 1.15's map gave back is its hash map's; sorted here)
      for label, value in sorted(leaf.classification.sparse_counts.sparse_value.items()):
        self.total_map[int(label)] = F32(value.float_value)
        self.total_order.add(int(label))
    else:
      self.total = np.array([v.float_value for v in leaf.classification.dense_counts.value], F32)
      self.outputs_seen = int(np.count_nonzero(self.total))
    for candidate in slot.candidates:
      self.add_split(_read_split(candidate.split, "candidate splits'"), None, None, -1)
      i = len(self.splits) - 1
      if self.regression:
        self.left[i] = [v.float_value for v in candidate.left_stats.regression.mean_output.value]
        self.left_squares[i] = [v.float_value for v in candidate.left_stats.regression.mean_output_squares.value]
        self.left_counts[i] = candidate.left_stats.weight_sum
      elif self.sparse:
        self.left_maps[i] = {int(k): F32(v.float_value)
                             for k, v in sorted(candidate.left_stats.classification.sparse_counts.sparse_value.items())}
      else:
        self.left[i] = [v.float_value for v in candidate.left_stats.classification.dense_counts.value]


def _weighted_smoothed_gini(total, square, num_classes):
  smoothed_sum = F32(F32(num_classes) + total)
  gini = F32(1.0 - F32(F32(square + F32(2) * total + F32(num_classes)) / F32(smoothed_sum * smoothed_sum)))
  return F32(total * gini)



class _Stats(object):
  """FertileStatsResource with its SplitCollectionOperator: leaf id -> _Slot."""

  def __init__(self, params, serialized):
    self.lock = threading.RLock()
    self.params = params
    self.slots = {}
    stats = fertile_stats_pb2.FertileStats()
    if serialized:
      stats.ParseFromString(serialized)
    for slot in stats.node_to_slot:
      self.slots[slot.node_id] = _Slot(params, slot.depth)
      self.slots[slot.node_id].extract(slot)
    if not self.slots:
      self.slots[0] = _Slot(params, 0)

  def serialize(self):
    stats = fertile_stats_pb2.FertileStats()
    for node_id in sorted(self.slots):
      slot = stats.node_to_slot.add()
      slot.node_id = node_id
      if self.params.checkpoint_stats:
        self.slots[node_id].pack(slot)
      slot.depth = self.slots[node_id].depth
    return stats.SerializeToString()


# ---- labels and weights (TensorInputTarget) -------------------------------------------------------------------------

class _Labels(object):

  def __init__(self, labels, weights, num_targets):
    self.flat = np.asarray(labels, F32).reshape(-1)
    self.weights = np.asarray(weights, F32).reshape(-1)
    self.num_targets = num_targets

  def class_index(self, example):
    return int(self.flat[example * self.num_targets])  # static_cast<int32>: toward zero

  def weight(self, example):
    return self.weights[example] if example < self.weights.size else F32(1.0)

  def continuous(self, example, num_outputs):
    return self.flat[example * self.num_targets:example * self.num_targets + num_outputs]


def _num_targets(params, labels):
  label_dim = labels.shape[1] if labels.ndim > 1 else 0
  return max(1, label_dim) if params.is_regression else 1


# ---- the resources, as TF's resource manager held them --------------------------------------------------------------

_RESOURCES = {}
_KEYS = itertools.count()
_Resource = collections.namedtuple("_Resource", ["handle", "create", "is_initialized"])


def _lookup(key, kind):
  key = key.decode() if isinstance(key, bytes) else key
  resource = _RESOURCES.get(key)
  if not isinstance(resource, kind):
    raise tf.errors.FailedPreconditionError(None, None, "Resource %s of type %s is not initialized" % (
        key, "DecisionTreeResource" if kind is _Tree else "FertileStatsResource"))
  return resource


def _run(name, func, inputs, outputs):
  return tf.numpy_function(func, inputs, outputs, stateful=True, name=name)


def _string(value):
  return value if isinstance(value, bytes) else bytes(value)


def new_handle(kind, name):
  """A resource handle for `kind` ('tree' / 'stats'): a string naming the resource in this process."""
  key = "%s:%s#%d" % (kind, name, next(_KEYS))
  return tf.constant(key, name=name)


def create_tree_variable(tree_handle, tree_config, params, name=None):
  params_proto = parse_params(params)

  def create(key, config):
    key = key.decode()
    if not isinstance(_RESOURCES.get(key), _Tree):  # CreateResource: an existing one stays
      _RESOURCES[key] = _Tree(params_proto, _string(config))
    return np.bool_(True)

  return _run(name or "CreateTreeVariable", create, [tree_handle, tree_config], tf.bool).op


def tree_is_initialized_op(tree_handle, name=None):
  out = _run(name or "TreeIsInitializedOp",
             lambda key: np.bool_(isinstance(_RESOURCES.get(key.decode()), _Tree)), [tree_handle], tf.bool)
  out.set_shape([])
  return out


def tree_serialize(tree_handle, name=None):
  def serialize(key):
    tree = _lookup(key, _Tree)
    with tree.lock:
      return np.bytes_(tree.serialize())

  out = _run(name or "TreeSerialize", serialize, [tree_handle], tf.string)
  out.set_shape([])
  return out


def tree_deserialize(tree_handle, tree_config, params, name=None):
  params_proto = parse_params(params)

  def deserialize(key, config):
    _RESOURCES[key.decode()] = _Tree(params_proto, _string(config))
    return np.bool_(True)

  return _run(name or "TreeDeserialize", deserialize, [tree_handle, tree_config], tf.bool).op


def tree_size(tree_handle, name=None):
  def size(key):
    tree = _lookup(key, _Tree)
    with tree.lock:
      return np.int32(tree.size())

  out = _run(name or "TreeSize", size, [tree_handle], tf.int32)
  out.set_shape([])
  return out


def _inputs(input_data, sparse_input_indices, sparse_input_values, sparse_input_shape):
  """The four input tensors of a kernel ([] where a part is absent, as TF 1.15's graph builders passed it)."""
  def tensor(value, dtype):
    if isinstance(value, (list, tuple)) and not len(value):
      return tf.zeros([0], dtype)
    return tf.cast(value, dtype)
  return [tensor(input_data, tf.float32), tensor(sparse_input_indices, tf.int64),
          tensor(sparse_input_values, tf.float32), tensor(sparse_input_shape, tf.int64)]


def _batch_shape(inputs):
  return inputs[0].shape[:1] if inputs[0].shape.rank == 2 else tf.TensorShape([None])


def _weights(input_weights):
  if isinstance(input_weights, (list, tuple)) and not input_weights:
    return tf.zeros([0], tf.float32)  # no weights: every example weighs 1
  return tf.cast(input_weights, tf.float32)


def _check_spec(input_spec, name):
  del name
  return DataSpec(input_spec)


def traverse_tree_v4(tree_handle, input_data, sparse_input_indices, sparse_input_values, sparse_input_shape,
                     input_spec, params, name=None):
  """The leaf id of every example."""
  del params
  inputs = _inputs(input_data, sparse_input_indices, sparse_input_values, sparse_input_shape)
  spec = _check_spec(input_spec, "TraverseTreeV4")

  def traverse(key, *arrays):
    tree = _lookup(key, _Tree)
    with tree.lock:
      return tree.traverse(_Dataset(spec, *arrays))

  out = _run(name or "TraverseTreeV4", traverse, [tree_handle] + inputs, tf.int32)
  out.set_shape(_batch_shape(inputs))
  return out


def tree_predictions_v4(tree_handle, input_data, sparse_input_indices, sparse_input_values, sparse_input_shape,
                        input_spec, params, name=None):
  """(predictions [batch, num_outputs], tree paths): class frequencies of each example's leaf, or its values."""
  params_proto = parse_params(params)
  inputs = _inputs(input_data, sparse_input_indices, sparse_input_values, sparse_input_shape)
  spec = _check_spec(input_spec, "TreePredictionsV4")
  num_outputs = params_proto.num_outputs

  def predict(key, *arrays):
    tree = _lookup(key, _Tree)
    data = _Dataset(spec, *arrays)
    with tree.lock:
      paths = [[] for _ in range(data.num_items)] if params_proto.inference_tree_paths else None
      leaves = tree.traverse(data, paths)
      table = np.zeros((tree.size(), num_outputs), F32)  # each leaf's output values
      for node, vector in enumerate(tree.leaves):
        if isinstance(vector, _SparseLeaf):
          for label, value in vector.items():
            if 0 <= label < num_outputs:
              table[node, label] = value
        elif vector is not None:
          table[node, :min(num_outputs, len(vector))] = vector[:num_outputs]
      out = table[leaves]
      if not params_proto.is_regression and num_outputs:
        total = np.add.accumulate(out, axis=1, dtype=F32)[:, -1]  # the kernel's sum, one output after another
        scale = (total > 0) & (total != 1)
        out[scale] = out[scale] / total[scale, None]
      serialized_paths = []
      for path in paths or []:
        proto = fertile_stats_pb2.TreePath()
        for node in path:
          tree.node_proto(node, proto.nodes_visited.add())
        serialized_paths.append(proto.SerializeToString())
      return out, np.array(serialized_paths, dtype=object).astype(np.bytes_) if paths else np.zeros(0, np.bytes_)

  probabilities, paths = _run(name or "TreePredictionsV4", predict, [tree_handle] + inputs, [tf.float32, tf.string])
  probabilities.set_shape(_batch_shape(inputs).concatenate([num_outputs]))
  paths.set_shape([None])
  return probabilities, paths


def update_model_v4(tree_handle, leaf_ids, input_labels, input_weights, params, name=None):
  """Adds each example's weight to its leaf's class count (regression leaves keep their seeded means)."""
  params_proto = parse_params(params)
  weights = _weights(input_weights)

  def update(key, leaves, labels, example_weights):
    tree = _lookup(key, _Tree)
    labels = np.asarray(labels, F32)
    if params_proto.is_regression:
      return np.bool_(True)
    target = _Labels(labels, example_weights, _num_targets(params_proto, labels))
    with tree.lock:
      for i, leaf in enumerate(np.asarray(leaves).reshape(-1)[:labels.shape[0]]):
        label = target.class_index(i)
        if not 0 <= label < params_proto.num_outputs:
          raise tf.errors.InvalidArgumentError(None, None, (
              "Got label %d, out of range for %d classes. Is params.num_classes set correctly? (TF 1.15 aborted "
              "the process here)") % (label, params_proto.num_outputs))
        vector = tree.leaves[leaf]
        if isinstance(vector, _SparseLeaf):
          vector[label] = F32(vector.get(label, F32(0)) + target.weight(i))
          continue
        vector[label] = F32(vector[label] + target.weight(i))
        tree.value_set[leaf][label] = True
    return np.bool_(True)

  return _run(name or "UpdateModelV4", update, [tree_handle, leaf_ids, input_labels, weights], tf.bool).op


def feature_usage_counts(tree_handle, params, name=None):
  params_proto = parse_params(params)

  def counts(key):
    tree = _lookup(key, _Tree)
    with tree.lock:
      return tree.feature_usage_counts(params_proto.num_features)

  out = _run(name or "FeatureUsageCounts", counts, [tree_handle], tf.int32)
  out.set_shape([params_proto.num_features])
  return out


def create_fertile_stats_variable(stats_handle, stats_config, params, name=None):
  params_proto = parse_params(params)
  check_supported(params_proto)

  def create(key, config):
    key = key.decode()
    if not isinstance(_RESOURCES.get(key), _Stats):
      _RESOURCES[key] = _Stats(params_proto, _string(config))
    return np.bool_(True)

  return _run(name or "CreateFertileStatsVariable", create, [stats_handle, stats_config], tf.bool).op


def fertile_stats_is_initialized_op(stats_handle, name=None):
  out = _run(name or "FertileStatsIsInitializedOp",
             lambda key: np.bool_(isinstance(_RESOURCES.get(key.decode()), _Stats)), [stats_handle], tf.bool)
  out.set_shape([])
  return out


def fertile_stats_serialize(stats_handle, params, name=None):
  del params

  def serialize(key):
    stats = _lookup(key, _Stats)
    with stats.lock:
      return np.bytes_(stats.serialize())

  out = _run(name or "FertileStatsSerialize", serialize, [stats_handle], tf.string)
  out.set_shape([])
  return out


def fertile_stats_deserialize(stats_handle, stats_config, params, name=None):
  params_proto = parse_params(params)

  def deserialize(key, config):
    _RESOURCES[key.decode()] = _Stats(params_proto, _string(config))
    return np.bool_(True)

  return _run(name or "FertileStatsDeserialize", deserialize, [stats_handle, stats_config], tf.bool).op


def process_input_v4(tree_handle, stats_handle, input_data, sparse_input_indices, sparse_input_values,
                     sparse_input_shape, input_labels, input_weights, leaf_ids, random_seed, input_spec, params,
                     name=None):
  """Counts each example into its leaf's candidate splits (creating them first); returns the leaves ready to split."""
  params_proto = parse_params(params)
  check_supported(params_proto)
  inputs = _inputs(input_data, sparse_input_indices, sparse_input_values, sparse_input_shape)
  spec = _check_spec(input_spec, "ProcessInputV4")
  weights = _weights(input_weights)
  seed = int(random_seed)

  def process(tree_key, stats_key, dense, indices, sparse_values, shape, labels, example_weights, leaves):
    _lookup(tree_key, _Tree)
    stats = _lookup(stats_key, _Stats)
    values = _Dataset(spec, dense, indices, sparse_values, shape)
    labels = np.asarray(labels, F32)
    leaves = np.asarray(leaves).reshape(-1)
    target = _Labels(labels, example_weights, _num_targets(params_proto, labels))
    # TF 1.15 seeded a PhiloxRandom at every run (0: from the clock)
    rng = SimplePhilox(seed if seed else np.random.randint(1, 2 ** 63))
    num_features = spec.dense_features_size
    ready = _HashOrder()
    with stats.lock:
      if params_proto.collate_examples:
        by_leaf = _HashOrder()
        examples = collections.defaultdict(list)
        for i, leaf in enumerate(leaves):
          by_leaf.add(leaf)
          examples[int(leaf)].append(i)
        features = {leaf: [rng.uniform(num_features) for _ in range(int(params_proto.num_splits_to_consider
                                                                        .constant_value))]
                    for leaf in by_leaf}
        for leaf in by_leaf:
          slot = _slot(stats, leaf)
          if slot.is_initialized():
            slot.add_examples(values, target, examples[leaf])
          else:
            _initialize(slot, values, target, examples[leaf], rng, spec, features[leaf])
          if slot.is_finished():
            ready.add(leaf)
      else:
        # example by example while a leaf creates its candidates (the draws are in the examples' order); the
        # examples of an initialized leaf are counted together, and the leaf joins the ready set at the example
        # after which it was first finished, as the kernel's loop would have added it
        deferred = collections.defaultdict(list)
        finished_at = {}
        for i, leaf in enumerate(leaves):
          leaf = int(leaf)
          slot = _slot(stats, leaf)
          if leaf in deferred or slot.is_initialized():
            deferred[leaf].append(i)
            continue
          _initialize(slot, values, target, [i], rng, spec, None)
          if slot.is_finished() and leaf not in finished_at:
            finished_at[leaf] = i
        for leaf, indices in deferred.items():
          position = stats.slots[leaf].add_examples(values, target, indices)
          if position is not None and leaf not in finished_at:
            finished_at[leaf] = indices[position]
        for leaf in sorted(finished_at, key=finished_at.get):
          ready.add(leaf)
    return np.array(list(ready), np.int32)

  out = _run(name or "ProcessInputV4", process,
             [tree_handle, stats_handle] + inputs + [input_labels, weights, leaf_ids], tf.int32)
  out.set_shape([None])
  return out


def _slot(stats, leaf):
  slot = stats.slots.get(int(leaf))
  if slot is None:
    raise tf.errors.InternalError(None, None, "leaf %d has no fertile slot (TF 1.15 aborted the process "
                                  "here: std::out_of_range)" % leaf)
  return slot


def _initialize(slot, values, target, examples, rng, spec, features):
  """A leaf not initialized yet: each example creates a candidate (FertileStatsResource's loop) until it is."""
  del spec
  for i, example in enumerate(examples):
    # collated, the leaf's features were drawn in advance, num_splits_to_consider of them; with
    # initialize_average_splits a leaf can take more examples than that, and TF 1.15 then read past the end of
    # its list (undefined behaviour): tf1clip draws another feature
    given = features[i] if features is not None and i < len(features) else None
    feature, column_type = values.random_sample(example, rng, given)
    # an inequality on a float feature, a match of the example's value on a categorical one
    kind = _MATCHING if column_type == DATA_CATEGORICAL else slot.params.inequality_test_type
    split = _Split(feature, F32(values.values(example, feature)[()]), kind)
    slot.add_split(split, values, target, example)
    if slot.is_initialized():
      break


def grow_tree_v4(tree_handle, stats_handle, finished_nodes, params, name=None):
  """Splits each finished leaf on its best candidate while the tree has fewer than max_nodes nodes."""
  params_proto = parse_params(params)

  def grow(tree_key, stats_key, finished):
    tree = _lookup(tree_key, _Tree)
    stats = _lookup(stats_key, _Stats)
    with stats.lock, tree.lock:
      for node in np.asarray(finished).reshape(-1):
        if tree.size() >= params_proto.max_nodes:
          break
        node = int(node)
        slot = stats.slots[node]
        best = slot.best_split()
        if best is not None:
          for child in tree.split_node(node, best):
            stats.slots[child] = _Slot(params_proto, slot.depth + 1)
          del stats.slots[node]
        else:
          stats.slots[node] = _Slot(params_proto, slot.depth)
    return np.bool_(True)

  return _run(name or "GrowTreeV4", grow, [tree_handle, stats_handle, finished_nodes], tf.bool).op


def finalize_tree(tree_handle, stats_handle, params, name=None):
  """TF 1.15's FinalizeTree: disabled there (LOG(FATAL) 'FinalizeTreeOp is disabled for now.')."""
  del tree_handle, stats_handle, params, name
  raise NotImplementedError("finalize_tree: TF 1.15 disabled FinalizeTreeOp (it aborted the process with "
                            "LOG(FATAL) 'FinalizeTreeOp is disabled for now.')")


# ---- tensor_forest_ops ----------------------------------------------------------------------------------------------

_HASH_MUL = 0xC6A4A7935BD1E995
_U64 = 0xFFFFFFFFFFFFFFFF


def _shift_mix(v):
  return v ^ (v >> 47)


def std_hash(data):
  """libstdc++'s std::hash<std::string> (_Hash_bytes: MurmurHash2 64-bit, seed 0xc70f6907)."""
  length = len(data)
  aligned = length & ~7
  value = (0xC70F6907 ^ (length * _HASH_MUL)) & _U64
  for p in range(0, aligned, 8):
    word = int.from_bytes(data[p:p + 8], "little")
    value ^= (_shift_mix((word * _HASH_MUL) & _U64) * _HASH_MUL) & _U64
    value = (value * _HASH_MUL) & _U64
  if length & 7:
    value ^= int.from_bytes(data[aligned:], "little")
    value = (value * _HASH_MUL) & _U64
  value = (_shift_mix(value) * _HASH_MUL) & _U64
  return _shift_mix(value)


def _uint64_to_float32(value):
  """static_cast<float>(size_t): round to nearest even at 24 significant bits."""
  bits = value.bit_length()
  if bits > 24:
    shift = bits - 24
    rest = value & ((1 << shift) - 1)
    value >>= shift
    half = 1 << (shift - 1)
    if rest > half or (rest == half and value & 1):
      value += 1
    return F32(float(value) * 2.0 ** shift)
  return F32(value)


def reinterpret_string_to_float(input_data, name=None):
  """Each string's libstdc++ std::hash, as a float32 (TF 1.15's ReinterpretStringToFloat)."""

  def convert(strings):
    strings = np.asarray(strings)
    return np.array([_uint64_to_float32(std_hash(bytes(s))) for s in strings.reshape(-1)],
                    F32).reshape(strings.shape)

  data = tf.convert_to_tensor(input_data, tf.string)
  out = _run(name or "ReinterpretStringToFloat", convert, [data], tf.float32)
  out.set_shape(data.shape)
  return out


def scatter_add_ndim(input, indices, deltas, name=None):  # pylint: disable=redefined-builtin
  """TF 1.15's ScatterAddNdim: input[indices[i]] += deltas[i] on a ref variable (tensor_scatter_nd_add)."""
  with tf.name_scope(name or "ScatterAddNdim"):
    indices = tf.cast(indices, tf.int64)
    rank = tf.size(tf.shape(indices))
    # rows of indices shorter than the input's rank address a slice (the kernel's num_data_per_index)
    return V1.scatter_nd_add(input, tf.cond(rank > 1, lambda: indices, lambda: indices[:, None]), deltas)


# ---- saveables -----------------------------------------------------------------------------------------------------

class ResourceSaveable(saveable_object.SaveableObject):
  """One string tensor under `name` (TF 1.15's SaveSpec of the serialized tree / stats); restore deserializes it."""

  def __init__(self, handle, serialize, deserialize, create_op, name):
    specs = [saveable_object.SaveSpec(serialize(), "", name)]
    super(ResourceSaveable, self).__init__(handle, specs, name)
    self._deserialize = deserialize
    self._create_op = create_op

  def restore(self, restored_tensors, restored_shapes):
    del restored_shapes
    with tf.control_dependencies([self._create_op] if self._create_op is not None else []):
      return self._deserialize(restored_tensors[0])


def register_resource(handle, create_op, is_initialized_op):
  """resources.register_resource: the Scaffold's init op creates it, its ready op checks it."""
  V1.add_to_collection(V1.GraphKeys.RESOURCES, _Resource(handle, create_op, is_initialized_op))


def destroy_resource_op(handle, name=None):
  """Deletes the resource behind `handle` (resource_variable_ops.destroy_resource_op, ignoring a missing one)."""

  def destroy(key):
    _RESOURCES.pop(key.decode(), None)
    return np.bool_(True)

  return _run(name or "DestroyResourceOp", destroy, [handle], tf.bool).op
