"""TF 1.15's BoostedTrees kernels in NumPy: the tree ensemble resource and the ops its estimators run.

Place in the data flow (DESIGN.md): NumPy, tf.numpy_function, tf.compat.v1 <- **tf1clip.python.ops.boosted_trees_ops** <-
tf1clip.python.estimator.canned.boosted_trees <- compat.v1 (`tf.estimator`), contrib.estimator <- cli.

TensorFlow 2.21 still defines the `BoostedTrees*` ops (tf.raw_ops) but has no kernels for them since 2.16, so a
graph that uses them fails when it runs ("No OpKernel was registered"). This module is TF 1.15's kernel code in
NumPy, run by `tf.numpy_function` ops: each example's and each bucket's float32 operations in the kernels' order
(vectorized across examples and buckets, so the same gains, splits, leaf values and tie-breaks), the same
`TreeEnsemble` proto (TF 1.15's boosted_trees.proto, built here from its serialized descriptor), the same checkpoint
keys (`<handle>_stamp`, `<handle>_serialized`). What it ports is
what the layer-by-layer estimators use: the ensemble resource (create, serialize, deserialize, states), training and
inference prediction, per-example debug outputs, the stats summary, the best split per feature, growing a layer
(pre- and post-pruning), bias centering, and the weighted quantile sketch that bucketizes float columns (summaries,
streams, boundaries, bucketize; its resource checkpointed as `<handle>_bucket_boundaries_<i>`).

The resources: each `TreeEnsemble` / `QuantileAccumulator` gets a key of its own when its graph is built; the object
behind the key lives in this process, created by the initializer (or by a checkpoint restore) of a session of that
graph, as TF's resource manager held it per session. Two sessions of one graph share it (TF kept one per session).
"""

import base64
import collections
import itertools
import threading
import weakref

import numpy as np
import tensorflow as tf
from google.protobuf import descriptor_pool
from google.protobuf import message_factory
# The Saver writes SAVEABLE_OBJECTS through this class; TensorFlow 2.21 has no public one.
from tensorflow.python.training.saving import saveable_object

V1 = tf.compat.v1

NO_PRUNING, PRE_PRUNING, POST_PRUNING = range(3)
_PRUNING_MODES = {"none": NO_PRUNING, "pre": PRE_PRUNING, "post": POST_PRUNING}
_LAYER_BY_LAYER_TREE_WEIGHT = np.float32(1.0)
_MIN_DELTA_FOR_CENTER_BIAS = np.float32(0.01)
_GAIN_TOLERANCE = np.float32(1e-15)
_EPS = np.float32(1e-15)

# tensorflow/core/kernels/boosted_trees/boosted_trees.proto of TF 1.15 (package tensorflow.boosted_trees), its
# FileDescriptorProto serialized, base64.
_PROTO_DESCRIPTOR = (
    "Cjl0ZW5zb3JmbG93L2NvcmUva2VybmVscy9ib29zdGVkX3RyZWVzL2Jvb3N0ZWRfdHJlZXMucHJvdG8SGHRlbnNvcmZsb3cuYm9vc3RlZF90"
    "cmVlcyLGAgoETm9kZRIuCgRsZWFmGAEgASgLMh4udGVuc29yZmxvdy5ib29zdGVkX3RyZWVzLkxlYWZIABJFChBidWNrZXRpemVkX3NwbGl0"
    "GAIgASgLMikudGVuc29yZmxvdy5ib29zdGVkX3RyZWVzLkJ1Y2tldGl6ZWRTcGxpdEgAEkcKEWNhdGVnb3JpY2FsX3NwbGl0GAMgASgLMiou"
    "dGVuc29yZmxvdy5ib29zdGVkX3RyZWVzLkNhdGVnb3JpY2FsU3BsaXRIABI7CgtkZW5zZV9zcGxpdBgEIAEoCzIkLnRlbnNvcmZsb3cuYm9v"
    "c3RlZF90cmVlcy5EZW5zZVNwbGl0SAASOQoIbWV0YWRhdGEYiQYgASgLMiYudGVuc29yZmxvdy5ib29zdGVkX3RyZWVzLk5vZGVNZXRhZGF0"
    "YUIGCgRub2RlIlMKDE5vZGVNZXRhZGF0YRIMCgRnYWluGAEgASgCEjUKDW9yaWdpbmFsX2xlYWYYAiABKAsyHi50ZW5zb3JmbG93LmJvb3N0"
    "ZWRfdHJlZXMuTGVhZiKTAQoETGVhZhIyCgZ2ZWN0b3IYASABKAsyIC50ZW5zb3JmbG93LmJvb3N0ZWRfdHJlZXMuVmVjdG9ySAASPwoNc3Bh"
    "cnNlX3ZlY3RvchgCIAEoCzImLnRlbnNvcmZsb3cuYm9vc3RlZF90cmVlcy5TcGFyc2VWZWN0b3JIABIOCgZzY2FsYXIYAyABKAJCBgoEbGVh"
    "ZiIXCgZWZWN0b3ISDQoFdmFsdWUYASADKAIiLAoMU3BhcnNlVmVjdG9yEg0KBWluZGV4GAEgAygFEg0KBXZhbHVlGAIgAygCIrgBCg9CdWNr"
    "ZXRpemVkU3BsaXQSEgoKZmVhdHVyZV9pZBgBIAEoBRIRCgl0aHJlc2hvbGQYAiABKAUSFAoMZGltZW5zaW9uX2lkGAUgASgFEkUKEWRlZmF1"
    "bHRfZGlyZWN0aW9uGAYgASgOMioudGVuc29yZmxvdy5ib29zdGVkX3RyZWVzLkRlZmF1bHREaXJlY3Rpb24SDwoHbGVmdF9pZBgDIAEoBRIQ"
    "CghyaWdodF9pZBgEIAEoBSJuChBDYXRlZ29yaWNhbFNwbGl0EhIKCmZlYXR1cmVfaWQYASABKAUSDQoFdmFsdWUYAiABKAUSFAoMZGltZW5z"
    "aW9uX2lkGAUgASgFEg8KB2xlZnRfaWQYAyABKAUSEAoIcmlnaHRfaWQYBCABKAUiVgoKRGVuc2VTcGxpdBISCgpmZWF0dXJlX2lkGAEgASgF"
    "EhEKCXRocmVzaG9sZBgCIAEoAhIPCgdsZWZ0X2lkGAMgASgFEhAKCHJpZ2h0X2lkGAQgASgFIjUKBFRyZWUSLQoFbm9kZXMYASADKAsyHi50"
    "ZW5zb3JmbG93LmJvb3N0ZWRfdHJlZXMuTm9kZSLcAQoMVHJlZU1ldGFkYXRhEhgKEG51bV9sYXllcnNfZ3Jvd24YAiABKAUSFAoMaXNfZmlu"
    "YWxpemVkGAMgASgIEloKFnBvc3RfcHJ1bmVkX25vZGVzX21ldGEYBCADKAsyOi50ZW5zb3JmbG93LmJvb3N0ZWRfdHJlZXMuVHJlZU1ldGFk"
    "YXRhLlBvc3RQcnVuZU5vZGVVcGRhdGUaQAoTUG9zdFBydW5lTm9kZVVwZGF0ZRITCgtuZXdfbm9kZV9pZBgBIAEoBRIUCgxsb2dpdF9jaGFu"
    "Z2UYAiADKAIiiAEKD0dyb3dpbmdNZXRhZGF0YRIbChNudW1fdHJlZXNfYXR0ZW1wdGVkGAEgASgDEhwKFG51bV9sYXllcnNfYXR0ZW1wdGVk"
    "GAIgASgDEh0KFWxhc3RfbGF5ZXJfbm9kZV9zdGFydBgDIAEoBRIbChNsYXN0X2xheWVyX25vZGVfZW5kGAQgASgFItcBCgxUcmVlRW5zZW1i"
    "bGUSLQoFdHJlZXMYASADKAsyHi50ZW5zb3JmbG93LmJvb3N0ZWRfdHJlZXMuVHJlZRIUCgx0cmVlX3dlaWdodHMYAiADKAISPQoNdHJlZV9t"
    "ZXRhZGF0YRgDIAMoCzImLnRlbnNvcmZsb3cuYm9vc3RlZF90cmVlcy5UcmVlTWV0YWRhdGESQwoQZ3Jvd2luZ19tZXRhZGF0YRgEIAEoCzIp"
    "LnRlbnNvcmZsb3cuYm9vc3RlZF90cmVlcy5Hcm93aW5nTWV0YWRhdGEiNwoLRGVidWdPdXRwdXQSEwoLZmVhdHVyZV9pZHMYASADKAUSEwoL"
    "bG9naXRzX3BhdGgYAiADKAIqbQoUU3BsaXRUeXBlV2l0aERlZmF1bHQSGwoXSU5FUVVBTElUWV9ERUZBVUxUX0xFRlQQABIcChhJTkVRVUFM"
    "SVRZX0RFRkFVTFRfUklHSFQQARIaChZFUVVBTElUWV9ERUZBVUxUX1JJR0hUEAMqNwoQRGVmYXVsdERpcmVjdGlvbhIQCgxERUZBVUxUX0xF"
    "RlQQABIRCg1ERUZBVUxUX1JJR0hUEAFCMwoYb3JnLnRlbnNvcmZsb3cuZnJhbWV3b3JrQhJCb29zdGVkVHJlZXNQcm90b3NQAfgBAWIGcHJv"
    "dG8z")
_PROTOS = {}


def proto(name):
  """The message class `tensorflow.boosted_trees.<name>` (TreeEnsemble, DebugOutput, ...), built on first use."""
  if not _PROTOS:
    pool = descriptor_pool.DescriptorPool()  # a pool of our own: nothing else in the process defines these
    pool.AddSerializedFile(base64.b64decode("".join(_PROTO_DESCRIPTOR)))
    _PROTOS["pool"] = pool
  if name not in _PROTOS:
    _PROTOS[name] = message_factory.GetMessageClass(
        _PROTOS["pool"].FindMessageTypeByName("tensorflow.boosted_trees." + name))
  return _PROTOS[name]


def pruning_mode(mode):
  """TF 1.15's PruningMode.from_str: 'none' / 'pre' / 'post' -> 0 / 1 / 2."""
  if mode in _PRUNING_MODES:
    return _PRUNING_MODES[mode]
  raise ValueError("pruning_mode mode must be one of: {}".format(", ".join(sorted(_PRUNING_MODES))))


# ---- the ensemble resource -----------------------------------------------------------------------------------------

class _Ensemble(object):
  """What TF's BoostedTreesEnsembleResource held: a TreeEnsemble proto and a stamp."""

  def __init__(self, stamp, serialized):
    self.lock = threading.Lock()
    self.stamp = int(stamp)
    self.proto = proto("TreeEnsemble")()
    self.proto.ParseFromString(serialized)

  # the resource's accessors, as resources.cc has them
  def num_trees(self):
    return len(self.proto.trees)

  def is_leaf(self, tree_id, node_id):
    return self.proto.trees[tree_id].nodes[node_id].WhichOneof("node") == "leaf"

  def node_value(self, tree_id, node_id):
    node = self.proto.trees[tree_id].nodes[node_id]
    if node.WhichOneof("node") == "leaf":
      return np.float32(node.leaf.scalar)
    return np.float32(node.metadata.original_leaf.scalar)

  def tree_weight(self, tree_id):
    return np.float32(self.proto.tree_weights[tree_id])

  def next_node(self, tree_id, node_id, features, index):
    split = self.proto.trees[tree_id].nodes[node_id].bucketized_split
    return split.left_id if features[split.feature_id][index] <= split.threshold else split.right_id

  def is_tree_finalized(self, tree_id):
    return self.proto.tree_metadata[tree_id].is_finalized

  def add_new_tree(self, weight, logit=0.0):
    tree = self.proto.trees.add()
    tree.nodes.add().leaf.scalar = logit
    self.proto.tree_weights.append(weight)
    self.proto.tree_metadata.add()
    return len(self.proto.trees) - 1

  def post_prune_correction(self, tree_id, node_id):
    """(the node a pruned node's examples are now at, the change of their cached logit)."""
    metadata = self.proto.tree_metadata[tree_id]
    if metadata.is_finalized and len(metadata.post_pruned_nodes_meta):
      meta = metadata.post_pruned_nodes_meta[node_id]
      return meta.new_node_id, np.float32(meta.logit_change[0])
    return node_id, np.float32(0.0)


_ENSEMBLES = {}
_KEYS = itertools.count()


def _ensemble(key):
  key = key.decode() if isinstance(key, bytes) else key
  if key not in _ENSEMBLES:
    raise tf.errors.FailedPreconditionError(None, None, "BoostedTrees ensemble %s is not initialized" % key)
  return _ENSEMBLES[key]


def _new_key(name, registry):
  """A key for a resource of the default graph; its object is dropped from `registry` when the graph goes."""
  key = "%s#%d" % (name, next(_KEYS))
  weakref.finalize(V1.get_default_graph(), registry.pop, key, None)
  return key


def _run(name, func, inputs, outputs):
  return tf.numpy_function(func, inputs, outputs, stateful=True, name=name)


class _EnsembleSaveable(saveable_object.SaveableObject):
  """Saves the ensemble as `<name>_stamp` and `<name>_serialized`; restoring creates it from them."""

  def __init__(self, ensemble, name):
    stamp, serialized = ensemble.serialize()
    specs = [saveable_object.SaveSpec(stamp, "", name + "_stamp"),
             saveable_object.SaveSpec(serialized, "", name + "_serialized")]
    super(_EnsembleSaveable, self).__init__(ensemble.resource_handle, specs, name)
    self._ensemble = ensemble

  def restore(self, restored_tensors, restored_shapes):
    del restored_shapes
    return self._ensemble.deserialize(restored_tensors[0], restored_tensors[1]).op


_Resource = collections.namedtuple("_Resource", ["handle", "create", "is_initialized"])


class TreeEnsemble(object):
  """TF 1.15's boosted_trees_ops.TreeEnsemble: a tree ensemble resource, checkpointed unless `is_local`."""

  def __init__(self, name, stamp_token=0, is_local=False, serialized_proto=""):
    with V1.name_scope(name, "TreeEnsemble") as name:
      self._name = name
      self._key = _new_key(name, _ENSEMBLES)
      # the handle is the key: what identifies the ensemble in this process (named as TF 1.15's handle op)
      self.resource_handle = tf.constant(self._key, name=name)
      self._init_op = self._create(stamp_token, serialized_proto)
      is_initialized_op = _run("IsBoostedTreesEnsembleInitialized",
                               lambda key: np.bool_((key.decode()) in _ENSEMBLES), [self.resource_handle], tf.bool)
      is_initialized_op.set_shape([])
    if not is_local:
      V1.add_to_collection(V1.GraphKeys.SAVEABLE_OBJECTS, _EnsembleSaveable(self, self.resource_handle.name))
    # what resources.register_resource adds: the Scaffold's init op creates it, its ready op checks it
    V1.add_to_collection(V1.GraphKeys.RESOURCES if not is_local else V1.GraphKeys.LOCAL_RESOURCES,
                         _Resource(self.resource_handle, self._init_op, is_initialized_op))

  def _create(self, stamp_token, serialized_proto):
    def create(key, stamp, serialized):
      _ENSEMBLES[key.decode()] = _Ensemble(stamp, serialized)
      return np.bool_(True)
    return _run("BoostedTreesCreateEnsemble", create,
                [self.resource_handle, tf.constant(stamp_token, tf.int64), tf.constant(serialized_proto)],
                tf.bool).op

  @property
  def initializer(self):
    return self._init_op

  def get_states(self):
    """stamp_token, num_trees, num_finalized_trees, num_attempted_layers, last layer's node range."""

    def states(key):
      ensemble = _ensemble(key)
      with ensemble.lock:
        num_trees = ensemble.num_trees()
        finalized = num_trees if num_trees <= 0 or ensemble.is_tree_finalized(num_trees - 1) else num_trees - 1
        growing = ensemble.proto.growing_metadata
        return (np.int64(ensemble.stamp), np.int32(num_trees), np.int32(finalized),
                np.int32(growing.num_layers_attempted),
                np.array([growing.last_layer_node_start, max(1, growing.last_layer_node_end)], np.int32))

    outputs = _run("BoostedTreesGetEnsembleStates", states, [self.resource_handle],
                   [tf.int64, tf.int32, tf.int32, tf.int32, tf.int32])
    for output, shape in zip(outputs, ([], [], [], [], [2])):
      output.set_shape(shape)
    names = ("stamp_token", "num_trees", "num_finalized_trees", "num_attempted_layers", "last_layer_nodes_range")
    return tuple(tf.identity(output, name=name) for output, name in zip(outputs, names))

  def serialize(self):
    """(stamp_token, the serialized TreeEnsemble proto)."""

    def serialize(key):
      ensemble = _ensemble(key)
      with ensemble.lock:
        return np.int64(ensemble.stamp), np.bytes_(ensemble.proto.SerializeToString())

    stamp, serialized = _run("BoostedTreesSerializeEnsemble", serialize, [self.resource_handle],
                             [tf.int64, tf.string])
    stamp.set_shape([])
    serialized.set_shape([])
    return stamp, serialized

  def deserialize(self, stamp_token, serialized_proto):
    """Replaces the ensemble (creating it if needed) by the serialized proto, with this stamp."""

    def deserialize(key, stamp, serialized):
      _ENSEMBLES[key.decode()] = _Ensemble(stamp, serialized)
      return np.bool_(True)

    return _run("BoostedTreesDeserializeEnsemble", deserialize, [self.resource_handle, stamp_token, serialized_proto],
                tf.bool)


# ---- prediction ----------------------------------------------------------------------------------------------------

def _features(bucketized_features):
  return [np.asarray(f).reshape(-1) for f in bucketized_features]


class _TreeArrays(object):
  """One tree as arrays (per node: is it a leaf, its split's feature / threshold / children, its value)."""

  def __init__(self, ensemble, tree_id):
    nodes = ensemble.proto.trees[tree_id].nodes
    self.is_leaf = np.array([n.WhichOneof("node") == "leaf" for n in nodes])
    self.feature = np.array([n.bucketized_split.feature_id for n in nodes], np.int64)
    self.threshold = np.array([n.bucketized_split.threshold for n in nodes], np.int64)
    self.left = np.array([n.bucketized_split.left_id for n in nodes], np.int64)
    self.right = np.array([n.bucketized_split.right_id for n in nodes], np.int64)
    self.value = np.array([ensemble.node_value(tree_id, i) for i in range(len(nodes))], np.float32)
    self.weight = ensemble.tree_weight(tree_id)

  def leaves(self, node_ids, features, rows):
    """The leaf each of `rows` (examples, at `node_ids` of this tree) ends in: next_node until a leaf."""
    node_ids = node_ids.copy()
    while True:
      inner = ~self.is_leaf[node_ids]
      if not inner.any():
        return node_ids
      at, where = node_ids[inner], rows[inner]
      values = features[self.feature[at], where]
      node_ids[inner] = np.where(values <= self.threshold[at], self.left[at], self.right[at])


def _stack(features, batch_size):
  return np.stack(features) if features else np.zeros([0, batch_size], np.int32)


def training_predict(tree_ensemble_handle, cached_tree_ids, cached_node_ids, bucketized_features, logits_dimension):
  """(partial_logits [batch, 1], tree_ids, node_ids): the logits the trees added since each example's cached node."""
  del logits_dimension  # 1: TF 1.15's kernel supported only one

  def predict(key, tree_ids_in, node_ids_in, *features):
    ensemble = _ensemble(key)
    features = _features(features)
    batch_size = len(features[0])
    features = _stack(features, batch_size)
    with ensemble.lock:
      latest_tree = ensemble.num_trees() - 1
      partial_logits = np.zeros([batch_size], np.float32)
      if latest_tree < 0:
        return partial_logits.reshape(-1, 1), np.asarray(tree_ids_in, np.int32), np.zeros([batch_size], np.int32)
      tree_ids = np.asarray(tree_ids_in, np.int64).copy()
      node_ids = np.asarray(node_ids_in, np.int64).copy()
      partial_tree = np.zeros([batch_size], np.float32)
      cached = node_ids >= 0
      for tree_id in np.unique(tree_ids[cached]):  # from a cached node: the pruned node it moved to, the change
        rows = np.nonzero(cached & (tree_ids == tree_id))[0]
        metadata = ensemble.proto.tree_metadata[int(tree_id)]
        if metadata.is_finalized and len(metadata.post_pruned_nodes_meta):
          meta = metadata.post_pruned_nodes_meta
          partial_tree[rows] = [meta[int(n)].logit_change[0] for n in node_ids[rows]]
          node_ids[rows] = [meta[int(n)].new_node_id for n in node_ids[rows]]
        values = _TreeArrays(ensemble, int(tree_id)).value
        partial_tree[rows] = partial_tree[rows] - values[node_ids[rows]]
      node_ids[~cached] = 0
      for tree_id in range(int(tree_ids.min()), latest_tree + 1):
        rows = np.nonzero(tree_ids == tree_id)[0]
        if not len(rows):
          continue
        tree = _TreeArrays(ensemble, tree_id)
        leaves = tree.leaves(node_ids[rows], features, rows)
        partial_tree[rows] = partial_tree[rows] + tree.value[leaves]
        partial_logits[rows] = partial_logits[rows] + tree.weight * partial_tree[rows]
        partial_tree[rows] = 0
        node_ids[rows] = leaves
        if tree_id != latest_tree:  # on to the next tree, from its root
          tree_ids[rows] = tree_id + 1
          node_ids[rows] = 0
      return (partial_logits.reshape(-1, 1), np.full([batch_size], latest_tree, np.int32),
              node_ids.astype(np.int32))

  partial_logits, tree_ids, node_ids = _run(
      "BoostedTreesTrainingPredict", predict,
      [tree_ensemble_handle, cached_tree_ids, cached_node_ids] + list(bucketized_features),
      [tf.float32, tf.int32, tf.int32])
  batch = bucketized_features[0].shape[:1]
  tree_ids.set_shape(batch)
  node_ids.set_shape(batch)
  return tf.ensure_shape(partial_logits, batch.concatenate([1])), tree_ids, node_ids


def predict(tree_ensemble_handle, bucketized_features, logits_dimension):
  """logits [batch, 1]: every tree's leaf for each example, weighted and summed."""
  del logits_dimension

  def run(key, *features):
    ensemble = _ensemble(key)
    features = _features(features)
    batch_size = len(features[0])
    features = _stack(features, batch_size)
    logits = np.zeros([batch_size], np.float32)
    rows = np.arange(batch_size)
    with ensemble.lock:
      for tree_id in range(ensemble.num_trees()):
        tree = _TreeArrays(ensemble, tree_id)
        leaves = tree.leaves(np.zeros([batch_size], np.int64), features, rows)
        logits = logits + tree.weight * tree.value[leaves]
    return logits.reshape(-1, 1)

  logits = _run("BoostedTreesPredict", run, [tree_ensemble_handle] + list(bucketized_features), tf.float32)
  # a shape the graph's own shape inference sees too (Grappler's cost model warns on unknown ranks)
  return tf.ensure_shape(logits, bucketized_features[0].shape[:1].concatenate([1]))


def example_debug_outputs(tree_ensemble_handle, bucketized_features, logits_dimension):
  """Per example, a serialized DebugOutput: the feature ids split on along its path and the logits after each."""
  del logits_dimension

  def run(key, *features):
    ensemble = _ensemble(key)
    features = _features(features)
    batch_size = len(features[0])
    out = []
    with ensemble.lock:
      last_tree = ensemble.num_trees() - 1
      for i in range(batch_size):
        debug = proto("DebugOutput")()
        tree_logit = ensemble.tree_weight(0) * ensemble.node_value(0, 0)
        debug.logits_path.append(tree_logit)
        node_id = tree_id = 0
        past_trees_logit = np.float32(0.0)
        while tree_id <= last_tree:
          if ensemble.is_leaf(tree_id, node_id):
            if tree_id == 0 or node_id > 0:
              past_trees_logit = past_trees_logit + tree_logit
            tree_id += 1
            node_id = 0
          else:
            debug.feature_ids.append(ensemble.proto.trees[tree_id].nodes[node_id].bucketized_split.feature_id)
            node_id = ensemble.next_node(tree_id, node_id, features, i)
            tree_logit = ensemble.tree_weight(tree_id) * ensemble.node_value(tree_id, node_id)
            debug.logits_path.append(tree_logit + past_trees_logit)
        out.append(debug.SerializeToString())
    return np.array(out, dtype=object)

  outputs = _run("BoostedTreesExampleDebugOutputs", run, [tree_ensemble_handle] + list(bucketized_features),
                 tf.string)
  outputs.set_shape(bucketized_features[0].shape[:1])
  return outputs


# ---- quantiles (float columns' buckets) ----------------------------------------------------------------------------
# TF 1.15's weighted quantile stream (quantiles/weighted_quantiles_{buffer,summary,stream}.h): values and ranks in
# float32, error bounds in float64, as the C++ templates instantiated them (<float, float>).

_F32 = np.float32
_DEFAULT_MAX_ELEMENTS = 1 << 40


def _compress(entries, size_hint, min_eps=0.0):
  """WeightedQuantilesSummary::Compress: entries [value, weight, min_rank, max_rank] down to ~size_hint."""
  size_hint = max(int(size_hint), 2)
  if len(entries) <= size_hint:
    return entries
  eps_delta = float(entries[-1][3]) * max(1.0 / size_hint, float(min_eps))
  out = [entries[0]]
  add_accumulator, add_step = 0, len(entries)
  read, last = 0, 0
  while read + 1 != len(entries):
    nxt = read + 1
    while (nxt != len(entries) and add_accumulator < add_step and
           float(_F32(entries[nxt][3] - entries[nxt][1]) - _F32(entries[read][2] + entries[read][1])) <= eps_delta):
      add_accumulator += size_hint
      nxt += 1
    read = read + 1 if read == nxt - 1 else nxt - 1
    out.append(entries[read])
    last = read
    add_accumulator -= add_step
  if last + 1 != len(entries):
    out.append(entries[-1])
  return out


def _merge(base, other):
  """WeightedQuantilesSummary::Merge: two sorted summaries into one, ranks kept within their bounds."""
  if not other:
    return list(base)
  if not base:
    return list(other)
  out = []
  i = j = 0
  next_min1 = next_min2 = _F32(0)
  while i < len(base) and j < len(other):
    v1, w1, mn1, mx1 = base[i]
    v2, w2, mn2, mx2 = other[j]
    if v1 < v2:
      out.append((v1, w1, _F32(mn1 + next_min2), _F32(mx1 + _F32(mx2 - w2))))
      next_min1 = _F32(mn1 + w1)
      i += 1
    elif v2 < v1:
      out.append((v2, w2, _F32(mn2 + next_min1), _F32(mx2 + _F32(mx1 - w1))))
      next_min2 = _F32(mn2 + w2)
      j += 1
    else:
      out.append((v1, _F32(w1 + w2), _F32(mn1 + mn2), _F32(mx1 + mx2)))
      next_min1 = _F32(mn1 + w1)
      next_min2 = _F32(mn2 + w2)
      i += 1
      j += 1
  for v, w, mn, mx in base[i:]:
    out.append((v, w, _F32(mn + next_min2), _F32(mx + other[-1][3])))
  for v, w, mn, mx in other[j:]:
    out.append((v, w, _F32(mn + next_min1), _F32(mx + base[-1][3])))
  return out


def _approximation_error(entries):
  if not entries:
    return 0.0
  max_gap = _F32(0)
  for k in range(1, len(entries)):
    v, w, mn, mx = entries[k]
    prev = entries[k - 1]
    max_gap = max(max_gap, max(_F32(_F32(mx - mn) - w), _F32(_F32(mx - w) - _F32(prev[2] + prev[1]))))
  return float(max_gap) / float(entries[-1][3])


def _quantile_specs(eps, max_elements):
  """WeightedQuantilesStream::GetQuantileSpecs: (levels, block size) for the error bound and element count."""
  if eps <= np.finfo(np.float64).eps:
    return 1, max(max_elements, 2)
  max_level, block_size = 1, 2
  while (1 << max_level) * block_size < max_elements:
    block_size = int(np.ceil(max_level / eps)) + 1
    max_level += 1
  return max_level, max(block_size, 2)


class _QuantileStream(object):
  """WeightedQuantilesStream<float, float>: a buffer, summary levels, a final summary."""

  def __init__(self, eps, max_elements):
    self.eps = float(eps)
    _, self.block_size = _quantile_specs(self.eps, max_elements)
    self.buffer_size = min(self.block_size << 1, max_elements)
    self.buffer = []
    self.levels = []
    self.local = []
    self.finalized = False

  def push_entry(self, value, weight):
    if weight > 0:  # zero and negative weights are ignored
      self.buffer.append((_F32(value), _F32(weight)))
    if len(self.buffer) >= self.buffer_size:
      self._push_buffer()

  def _push_buffer(self):
    entries = sorted(self.buffer, key=lambda e: e[0])  # std::sort: equal values are merged next anyway
    self.buffer = []
    merged = []
    for value, weight in entries:
      if merged and merged[-1][0] == value:
        merged[-1][1] = _F32(merged[-1][1] + weight)
      else:
        merged.append([value, weight])
    summary, cumulative = [], _F32(0)
    for value, weight in merged:
      summary.append((value, weight, cumulative, _F32(cumulative + weight)))
      cumulative = _F32(cumulative + weight)
    self.local = _compress(summary, self.block_size, self.eps)
    self._propagate()

  def push_summary(self, entries):
    self.local = _compress(list(entries), self.block_size, self.eps)
    self._propagate()

  def _propagate(self):
    if not self.local:
      return
    level = 0
    while True:
      if len(self.levels) <= level:
        self.levels.append([])
      current = self.levels[level]
      self.local = _merge(self.local, current)
      if not current or len(self.local) <= self.block_size + 1:
        self.levels[level] = self.local
        self.local = []
        return
      self.local = _compress(self.local, self.block_size, self.eps)
      self.levels[level] = []
      level += 1

  def finalize(self):
    self._push_buffer()
    final = []
    for summary in self.levels:
      final = _merge(final, summary)
    self.levels = []
    self.local = final
    self.finalized = True
    return final

  def boundaries(self, num_boundaries):
    """GenerateBoundaries, then std::unique, as the Flush kernel did."""
    if not self.local:
      return []
    compression_eps = _F32(_approximation_error(self.local) + 1.0 / num_boundaries)
    values = [e[0] for e in _compress(list(self.local), num_boundaries, float(compression_eps))]
    return [v for k, v in enumerate(values) if k == 0 or v != values[k - 1]]


class _QuantileResource(object):
  """BoostedTreesQuantileStreamResource: one stream and one list of boundaries per float feature."""

  def __init__(self, epsilon, num_streams, max_elements=_DEFAULT_MAX_ELEMENTS):
    self.lock = threading.Lock()
    self.epsilon, self.max_elements = float(_F32(epsilon)), max_elements
    self.streams = [_QuantileStream(self.epsilon, max_elements) for _ in range(num_streams)]
    self.boundaries = [[] for _ in range(num_streams)]

  def reset_streams(self):
    self.streams = [_QuantileStream(self.epsilon, self.max_elements) for _ in self.streams]


_QUANTILES = {}


def _quantiles(key):
  key = key.decode() if isinstance(key, bytes) else key
  if key not in _QUANTILES:
    raise tf.errors.FailedPreconditionError(None, None, "BoostedTrees quantile stream %s is not initialized" % key)
  return _QUANTILES[key]


class _QuantileSaveable(saveable_object.SaveableObject):
  """Saves each stream's boundaries as `<name>_bucket_boundaries_<i>`; restoring sets them."""

  def __init__(self, accumulator, name):
    boundaries = accumulator.get_bucket_boundaries()
    specs = [saveable_object.SaveSpec(b, "", name + "_bucket_boundaries_" + str(i)) for i, b in enumerate(boundaries)]
    super(_QuantileSaveable, self).__init__(accumulator.resource_handle, specs, name)
    self._accumulator = accumulator

  def restore(self, restored_tensors, restored_shapes):
    del restored_shapes
    with tf.control_dependencies([self._accumulator.initializer]):
      return self._accumulator.deserialize(restored_tensors)


class QuantileAccumulator(object):
  """TF 1.15's boosted_trees_ops.QuantileAccumulator: float features' weighted quantile streams and boundaries."""

  def __init__(self, epsilon, num_streams, num_quantiles, name=None, max_elements=None):
    del max_elements  # TF 1.15's Python passed none: the kernel's default
    self._eps, self._num_streams, self._num_quantiles = epsilon, num_streams, num_quantiles
    with V1.name_scope(name, "QuantileAccumulator") as name:
      self._name = name
      self._key = _new_key(name, _QUANTILES)
      self.resource_handle = tf.constant(self._key, name=name)

      def create(key):
        _QUANTILES[key.decode()] = _QuantileResource(epsilon, num_streams)
        return np.bool_(True)

      self._init_op = _run("BoostedTreesCreateQuantileStreamResource", create, [self.resource_handle], tf.bool).op
      is_initialized = _run("IsBoostedTreesQuantileStreamResourceInitialized",
                            lambda key: np.bool_(key.decode() in _QUANTILES), [self.resource_handle], tf.bool)
      is_initialized.set_shape([])
    V1.add_to_collection(V1.GraphKeys.RESOURCES, _Resource(self.resource_handle, self._init_op, is_initialized))
    V1.add_to_collection(V1.GraphKeys.SAVEABLE_OBJECTS, _QuantileSaveable(self, self.resource_handle.name))

  @property
  def initializer(self):
    return self._init_op

  def add_summaries(self, float_columns, example_weights):
    """Makes each feature's summary of this batch (MakeQuantileSummaries) and adds it to its stream."""
    eps = self._eps

    def make(weights, *features):
      weights = np.asarray(weights, np.float32).reshape(-1)
      summaries = []
      for feature in features:
        values = np.asarray(feature, np.float32).reshape(-1)
        stream = _QuantileStream(float(_F32(eps)), len(values) + 1)
        for j, value in enumerate(values):
          stream.push_entry(value, weights[j] if len(weights) > 1 else weights[0])
        summaries.append(np.array(stream.finalize(), np.float32).reshape(-1, 4))
      return summaries

    summaries = _run("BoostedTreesMakeQuantileSummaries", make, [example_weights] + list(float_columns),
                     [tf.float32] * len(float_columns))

    def add(key, *summaries):
      resource = _quantiles(key)
      with resource.lock:
        for stream, summary in zip(resource.streams, summaries):
          if not stream.finalized:
            stream.push_summary([tuple(_F32(x) for x in row) for row in np.asarray(summary)])
      return np.bool_(True)

    return _run("BoostedTreesQuantileStreamResourceAddSummaries", add, [self.resource_handle] + list(summaries),
                tf.bool).op

  def flush(self):
    """Finalizes the streams into each feature's bucket boundaries (num_quantiles of them at most)."""
    num_quantiles = self._num_quantiles

    def flush(key):
      resource = _quantiles(key)
      with resource.lock:
        for index, stream in enumerate(resource.streams):
          stream.finalize()
          resource.boundaries[index] = stream.boundaries(num_quantiles)
        resource.reset_streams()
      return np.bool_(True)

    return _run("BoostedTreesQuantileStreamResourceFlush", flush, [self.resource_handle], tf.bool).op

  def get_bucket_boundaries(self):
    def get(key):
      resource = _quantiles(key)
      with resource.lock:
        return [np.array(b, np.float32) for b in resource.boundaries]

    boundaries = _run("BoostedTreesQuantileStreamResourceGetBucketBoundaries", get, [self.resource_handle],
                      [tf.float32] * self._num_streams)
    for b in boundaries:
      b.set_shape([None])
    return boundaries

  def deserialize(self, bucket_boundaries):
    def set_boundaries(key, *boundaries):
      resource = _QUANTILES.setdefault(key.decode(), _QuantileResource(self._eps, self._num_streams))
      with resource.lock:
        resource.boundaries = [list(np.asarray(b, np.float32)) for b in boundaries]
      return np.bool_(True)

    return _run("BoostedTreesQuantileStreamResourceDeserialize", set_boundaries,
                [self.resource_handle] + list(bucket_boundaries), tf.bool).op


def bucketize(float_values, bucket_boundaries):
  """BoostedTreesBucketize: each value's bucket, std::lower_bound in its feature's boundaries (the last at most)."""

  def run(*args):
    n = len(args) // 2
    out = []
    for values, boundaries in zip(args[:n], args[n:]):
      values = np.asarray(values, np.float32).reshape(-1)
      boundaries = np.asarray(boundaries, np.float32)
      if len(boundaries) == 0:
        out.append(np.zeros(len(values), np.int32))
      else:
        out.append(np.minimum(np.searchsorted(boundaries, values, side="left"), len(boundaries) - 1).astype(np.int32))
    return out

  buckets = _run("BoostedTreesBucketize", run, list(float_values) + list(bucket_boundaries),
                 [tf.int32] * len(float_values))
  for b, v in zip(buckets, float_values):
    b.set_shape(v.shape)
  return buckets


# ---- statistics and splits -----------------------------------------------------------------------------------------

def make_stats_summary(node_ids, gradients, hessians, bucketized_features_list, max_splits, num_buckets):
  """[num_features, max_splits, num_buckets, 2]: the gradients and hessians summed per node and bucket.

  A float column's quantile boundaries can number more than `num_buckets` (1 / quantile_sketch_epsilon): TF 1.15's
  kernel then added the examples of the bucket past the end into the next node's (or feature's) first bucket of the
  flat tensor, unchecked. That is kept, for the same trees. Past the end of the whole tensor TF 1.15 wrote outside
  it (memory corruption, sometimes a crash: "corrupted size vs. prev_size"), so its statistics lacked those
  examples: here they are left out too, with a warning.
  """
  shape = (len(bucketized_features_list), max_splits, num_buckets, 2)

  def run(node_ids, gradients, hessians, *features):
    stats = np.zeros(int(np.prod(shape)), np.float32)
    node_ids = np.asarray(node_ids)
    gradients = np.asarray(gradients, np.float32).reshape(len(node_ids), -1)[:, 0]
    hessians = np.asarray(hessians, np.float32).reshape(len(node_ids), -1)[:, 0]
    keep = node_ids >= 0  # examples in nodes that are not in the layer being grown
    for f, feature in enumerate(features):
      buckets = np.asarray(feature).reshape(-1)[keep].astype(np.int64)
      flat = ((f * max_splits + node_ids[keep].astype(np.int64)) * num_buckets + buckets) * 2
      inside = flat + 1 < stats.size
      if not inside.all():
        V1.logging.warning(
            "BoostedTrees: %d examples fall in a bucket past the statistics' %d buckets; TF 1.15 wrote them outside "
            "its tensor (memory corruption) and they are left out here as from its statistics. A larger "
            "quantile_sketch_epsilon (fewer boundaries) avoids it.", int((~inside).sum()), num_buckets)
      # np.add.at adds in example order, as the kernel's loop did (the same float32 sums)
      np.add.at(stats, flat[inside], gradients[keep][inside])
      np.add.at(stats, flat[inside] + 1, hessians[keep][inside])
    return stats.reshape(shape)

  stats = _run("BoostedTreesMakeStatsSummary", run, [node_ids, gradients, hessians] + list(bucketized_features_list),
               tf.float32)
  stats.set_shape(shape)
  return stats


def _weight_and_gain(g, h, l1, l2):
  """tree_helper.h's CalculateWeightsAndGains for one logit, in float32."""
  g_with_l1 = g
  if l1 > 0:
    if g > l1:
      g_with_l1 = np.float32(g - l1)
    elif g < -l1:
      g_with_l1 = np.float32(g + l1)
    else:
      return np.float32(0.0), np.float32(0.0)
  if np.float32(h + l2) <= _EPS:
    return np.float32(0.0), np.float32(0.0)
  weight = np.float32(-g_with_l1 / np.float32(h + l2))
  return weight, np.float32(-g_with_l1 * weight)


def _weights_and_gains(g, h, l1, l2):
  """_weight_and_gain over arrays of float32 sums (the same float32 operations, elementwise)."""
  g_with_l1 = g.copy()
  zero = np.zeros(g.shape, bool)
  if l1 > 0:
    g_with_l1 = np.where(g > l1, g - l1, np.where(g < -l1, g + l1, g)).astype(np.float32)
    zero = (g <= l1) & (g >= -l1)
  denominator = (h + l2).astype(np.float32)
  zero |= denominator <= _EPS
  with np.errstate(divide="ignore", invalid="ignore"):
    weight = np.where(zero, np.float32(0), -g_with_l1 / np.where(zero, np.float32(1), denominator))
  weight = weight.astype(np.float32)
  gain = np.where(zero, np.float32(0), -g_with_l1 * weight).astype(np.float32)
  return weight, gain


def _first_best(gains):
  """The bucket the kernel's scan kept: it moved on only to a gain larger by at least 1e-15 (float32)."""
  best, best_bucket = np.finfo(np.float32).min, 0
  for bucket, gain in enumerate(gains):
    if np.float32(gain - best) >= _GAIN_TOLERANCE:
      best, best_bucket = gain, bucket
  return best_bucket


def calculate_best_gains_per_feature(node_id_range, stats_summary_list, l1, l2, tree_complexity, min_node_weight,
                                     max_splits):
  """Per feature: (node ids, gains, thresholds, left contribs, right contribs) of each node's best split."""
  del max_splits
  num_features = len(stats_summary_list)

  def run(node_id_range, l1, l2, tree_complexity, min_node_weight, *stats_list):
    l1, l2 = np.float32(l1), np.float32(l2)
    tree_complexity, min_node_weight = np.float32(tree_complexity), np.float32(min_node_weight)
    outputs = [[] for _ in range(5)]
    for stats in stats_list:
      stats = np.asarray(stats, np.float32)
      node_ids, gains, thresholds, lefts, rights = [], [], [], [], []
      for node_id in range(int(node_id_range[0]), int(node_id_range[1])):
        cum_grad = np.cumsum(stats[node_id, :, 0], dtype=np.float32)
        cum_hess = np.cumsum(stats[node_id, :, 1], dtype=np.float32)
        total_grad, total_hess = cum_grad[-1], cum_hess[-1]
        if total_hess < min_node_weight:
          continue
        _, parent_gain = _weight_and_gain(total_grad, total_hess, l1, l2)
        lefts_all, left_gains = _weights_and_gains(cum_grad, cum_hess, l1, l2)
        rights_all, right_gains = _weights_and_gains(total_grad - cum_grad, total_hess - cum_hess, l1, l2)
        split_gains = left_gains + right_gains
        best_bucket = _first_best(split_gains)
        node_ids.append(node_id)
        gains.append(np.float32(np.float32(split_gains[best_bucket] - parent_gain) - tree_complexity))
        thresholds.append(best_bucket)
        lefts.append(lefts_all[best_bucket])
        rights.append(rights_all[best_bucket])
      outputs[0].append(np.array(node_ids, np.int32))
      outputs[1].append(np.array(gains, np.float32))
      outputs[2].append(np.array(thresholds, np.int32))
      outputs[3].append(np.array(lefts, np.float32).reshape(-1, 1))
      outputs[4].append(np.array(rights, np.float32).reshape(-1, 1))
    return tuple(itertools.chain.from_iterable(outputs))

  dtypes = [tf.int32] * num_features + [tf.float32] * num_features + [tf.int32] * num_features + [tf.float32] * (
      2 * num_features)
  flat = _run("BoostedTreesCalculateBestGainsPerFeature", run,
              [node_id_range, tf.cast(l1, tf.float32), tf.cast(l2, tf.float32), tf.cast(tree_complexity, tf.float32),
               tf.cast(min_node_weight, tf.float32)] + list(stats_summary_list), dtypes)
  results = [flat[i * num_features:(i + 1) * num_features] for i in range(5)]
  for i, shape in enumerate(([None], [None], [None], [None, 1], [None, 1])):
    for tensor in results[i]:
      tensor.set_shape(shape)
  return tuple(list(r) for r in results)


# ---- growing -------------------------------------------------------------------------------------------------------

def _update_growing_metadata(ensemble):
  growing = ensemble.proto.growing_metadata
  growing.num_layers_attempted += 1
  n_trees = ensemble.num_trees()
  if n_trees <= 0 or ((n_trees == 1 or ensemble.is_tree_finalized(n_trees - 2)) and
                      len(ensemble.proto.trees[n_trees - 1].nodes) == 1):
    growing.num_trees_attempted += 1


def _add_split(ensemble, tree_id, node_id, candidate):
  """AddBucketizedSplitNode: the leaf becomes a split with two leaves (its value plus each side's contribution)."""
  tree = ensemble.proto.trees[tree_id]
  node = tree.nodes[node_id]
  left_id = len(tree.nodes)
  left, right = tree.nodes.add(), tree.nodes.add()
  node = tree.nodes[node_id]
  has_leaf_value = node.WhichOneof("node") == "leaf" and node.leaf.scalar != 0
  if node_id != 0 or has_leaf_value:  # keep the leaf's value, unless it is the first leaf of a tree
    node.metadata.original_leaf.CopyFrom(node.leaf)
    node.metadata.original_leaf.SetInParent()
  node.metadata.gain = candidate["gain"]
  previous = np.float32(node.metadata.original_leaf.scalar)
  left.leaf.scalar = np.float32(previous + candidate["left"])
  right.leaf.scalar = np.float32(previous + candidate["right"])
  split = node.bucketized_split  # replaces the leaf (one of the node's oneof)
  split.SetInParent()
  split.feature_id = candidate["feature_id"]
  split.threshold = candidate["threshold"]
  split.left_id = left_id
  split.right_id = left_id + 1


def _post_prune_tree(ensemble, tree_id):
  """PostPruneTree: removes, bottom-up, splits with negative gain whose children are leaves."""
  tree = ensemble.proto.trees[tree_id]
  num_nodes = len(tree.nodes)
  if num_nodes == 0:
    return
  to_delete = []
  changes = [[i, []] for i in range(num_nodes)]

  def prune(node_id):
    node = tree.nodes[node_id]
    if node.WhichOneof("node") == "leaf":
      return
    prune(node.bucketized_split.left_id)
    prune(node.bucketized_split.right_id)
    left_id, right_id = node.bucketized_split.left_id, node.bucketized_split.right_id
    if node.metadata.gain < 0 and ensemble.is_leaf(tree_id, left_id) and ensemble.is_leaf(tree_id, right_id):
      to_delete.extend([left_id, right_id])
      had_original = node.metadata.HasField("original_leaf")
      node.leaf.CopyFrom(node.metadata.original_leaf)
      node.leaf.SetInParent()  # a leaf even when the original one was empty
      changes[left_id][0] = changes[right_id][0] = node_id
      parent = ensemble.node_value(tree_id, node_id) if had_original else np.float32(0.0)
      changes[left_id][1].append(np.float32(parent - ensemble.node_value(tree_id, left_id)))
      changes[right_id][1].append(np.float32(parent - ensemble.node_value(tree_id, right_id)))
      node.ClearField("metadata")

  prune(0)
  if not to_delete:
    return
  to_delete = sorted(to_delete)
  deleted = set(to_delete)
  old_to_new = {}
  new_index = 0
  metas = ensemble.proto.tree_metadata[tree_id].post_pruned_nodes_meta
  for i in range(num_nodes):
    meta = metas.add()
    if i in deleted:
      change = np.float32(0.0)
      node_id, parent = i, changes[i][0]
      while parent != node_id:
        change = np.float32(change + changes[node_id][1][0])
        node_id, parent = parent, changes[parent][0]
      meta.new_node_id = old_to_new[parent]  # a parent comes before its children
      meta.logit_change.append(change)
    else:
      old_to_new[i] = new_index
      new_index += 1
      meta.new_node_id = old_to_new[i]
      meta.logit_change.append(0.0)
  kept = []
  for i, node in enumerate(tree.nodes):
    if i in deleted:
      continue
    copy = proto("Node")()
    copy.CopyFrom(node)
    if copy.WhichOneof("node") == "bucketized_split":
      copy.bucketized_split.left_id = old_to_new[copy.bucketized_split.left_id]
      copy.bucketized_split.right_id = old_to_new[copy.bucketized_split.right_id]
    kept.append(copy)
  del tree.nodes[:]
  tree.nodes.extend(kept)


def update_ensemble(tree_ensemble_handle, feature_ids, node_ids, gains, thresholds, left_node_contribs,
                    right_node_contribs, max_depth, learning_rate, pruning_mode):
  """Adds each node's best split (over the features) to the tree being grown: one layer."""
  num_features = len(node_ids)

  def run(key, feature_ids, max_depth, learning_rate, *lists):
    ensemble = _ensemble(key)
    learning_rate = np.float32(learning_rate)
    node_lists, gain_lists, threshold_lists, left_lists, right_lists = [
        lists[i * num_features:(i + 1) * num_features] for i in range(5)]
    with ensemble.lock:
      ensemble.stamp += 1
      best = {}
      for f in range(num_features):
        for c, node_id in enumerate(np.asarray(node_lists[f]).tolist()):
          gain = np.float32(gain_lists[f][c])
          candidate = {"feature_id": int(feature_ids[f]), "gain": gain, "threshold": int(threshold_lists[f][c]),
                       "left": np.float32(learning_rate * left_lists[f][c][0]),
                       "right": np.float32(learning_rate * right_lists[f][c][0])}
          current = best.get(node_id)
          if current is not None and abs(np.float32(gain - current["gain"])) < _GAIN_TOLERANCE:
            if candidate["feature_id"] < current["feature_id"]:  # ties: the lower feature id
              best[node_id] = candidate
          elif current is None or np.float32(gain - current["gain"]) >= _GAIN_TOLERANCE:
            best[node_id] = candidate
      num_trees = ensemble.num_trees()
      current_tree = num_trees - 1
      _update_growing_metadata(ensemble)
      if num_trees <= 0:
        current_tree = ensemble.add_new_tree(_LAYER_BY_LAYER_TREE_WEIGHT)
      if not best:
        return np.bool_(False)  # "Not growing tree ensemble as no good splits were found."
      metadata = ensemble.proto.tree_metadata[current_tree]
      new_num_layers = metadata.num_layers_grown + 1
      split_happened = False
      node_id_start = len(ensemble.proto.trees[current_tree].nodes)
      for node_id in sorted(best):
        if pruning_mode == PRE_PRUNING and best[node_id]["gain"] < 0:
          continue
        _add_split(ensemble, current_tree, node_id, best[node_id])
        split_happened = True
      node_id_end = len(ensemble.proto.trees[current_tree].nodes)
      if split_happened:
        ensemble.proto.tree_metadata[current_tree].num_layers_grown = new_num_layers
        if new_num_layers >= max_depth:
          node_id_start, node_id_end = 0, 1
          ensemble.proto.tree_metadata[current_tree].is_finalized = True
          if pruning_mode == POST_PRUNING:
            _post_prune_tree(ensemble, current_tree)
          if ensemble.num_trees() > 0:
            ensemble.add_new_tree(_LAYER_BY_LAYER_TREE_WEIGHT)
        growing = ensemble.proto.growing_metadata
        growing.last_layer_node_start = node_id_start
        growing.last_layer_node_end = node_id_end
      return np.bool_(True)

  flat = list(node_ids) + list(gains) + list(thresholds) + list(left_node_contribs) + list(right_node_contribs)
  return _run("BoostedTreesUpdateEnsemble", run,
              [tree_ensemble_handle, tf.convert_to_tensor(feature_ids, tf.int32),
               tf.convert_to_tensor(max_depth, tf.int32), tf.convert_to_tensor(learning_rate, tf.float32)] + flat,
              tf.bool).op


def center_bias(tree_ensemble_handle, mean_gradients, mean_hessians, l1, l2):
  """Moves the bias (the first tree's root) by one Newton step; returns whether to continue centering."""

  def run(key, mean_gradients, mean_hessians, l1, l2):
    ensemble = _ensemble(key)
    with ensemble.lock:
      ensemble.stamp += 1
      logits, _ = _weight_and_gain(np.float32(np.asarray(mean_gradients).reshape(-1)[0]),
                                   np.float32(np.asarray(mean_hessians).reshape(-1)[0]), np.float32(l1),
                                   np.float32(l2))
      continue_centering = True
      if ensemble.num_trees() == 0:
        ensemble.add_new_tree(_LAYER_BY_LAYER_TREE_WEIGHT, logits)
      else:
        current_bias = ensemble.node_value(0, 0)
        continue_centering = bool(np.abs(np.float32(logits / current_bias)) > _MIN_DELTA_FOR_CENTER_BIAS)
        ensemble.proto.trees[0].nodes[0].leaf.scalar = np.float32(current_bias + logits)
      return np.bool_(continue_centering)

  result = _run("BoostedTreesCenterBias", run,
                [tree_ensemble_handle, mean_gradients, mean_hessians, tf.cast(l1, tf.float32),
                 tf.cast(l2, tf.float32)], tf.bool)
  result.set_shape([])
  return result
