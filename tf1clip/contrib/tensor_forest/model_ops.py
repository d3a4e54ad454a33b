"""`tf.contrib.tensor_forest.model_ops`: TF 1.15's tree variable (TreeVariable, its saveable, tree_variable) and ops.

Place in the data flow (DESIGN.md): contrib.tensor_forest.kernels <- **contrib.tensor_forest.model_ops** <-
contrib.tensor_forest.tensor_forest <- random_forest.

TF 1.15's python/ops/model_ops.py on the NumPy kernels: the handle op is named as TF 1.15's (the variable's name
scope, so `tree-0`), the tree is checkpointed as one serialized `decision_trees.Model` under the handle's tensor name
(`tree-0:0`), restoring it waits for the create op, and `tree_variable` registers the resource so a Scaffold creates
and checks it. The ops TF 1.15 re-exported here (traverse_tree_v4, tree_predictions_v4, update_model_v4, tree_size,
feature_usage_counts) are the kernels module's.
"""

import functools

import tensorflow as tf

from tf1clip.contrib.tensor_forest import kernels
from tf1clip.contrib.tensor_forest.kernels import feature_usage_counts  # noqa: F401
from tf1clip.contrib.tensor_forest.kernels import traverse_tree_v4  # noqa: F401
from tf1clip.contrib.tensor_forest.kernels import tree_predictions_v4  # noqa: F401
from tf1clip.contrib.tensor_forest.kernels import tree_size  # noqa: F401
from tf1clip.contrib.tensor_forest.kernels import update_model_v4  # noqa: F401

V1 = tf.compat.v1
# TF 1.15's module imported its generated ops module under this name; scripts reached into it
gen_model_ops = kernels

# A tree is grown by running ops, never by gradients.
for _op_type in "TreeVariable TreeSerialize TreeDeserialize TreeSize TreePredictionsV4 FeatureUsageCounts".split():
  tf.no_gradient(_op_type)


class TreeVariableSavable(kernels.ResourceSaveable):
  """How a Saver holds one tree: its serialized `decision_trees.Model` under `name`.

  Restoring replaces the tree with the checkpoint's once `create_op` (the tree's initializer) has run.

  Args:
    params: the forest's hyperparameters (their `serialized_params_proto` is what the kernels read).
    tree_handle: the tree resource's handle.
    stats_handle: its fertile stats' handle (TF 1.15 took it and left it unused).
    create_op: the op creating the resource.
    name: the checkpoint key.
  """

  def __init__(self, params, tree_handle, stats_handle, create_op, name):
    del stats_handle
    self.params = params
    self._tree_handle = tree_handle
    write = functools.partial(kernels.tree_serialize, tree_handle)
    read = functools.partial(kernels.tree_deserialize, tree_handle, params=params.serialized_params_proto)
    super(TreeVariableSavable, self).__init__(tree_handle, write, read, create_op, name)


class TreeVariable(object):
  """One decision tree as a resource.

  Args:
    params: the forest's hyperparameters.
    tree_config: a string tensor, the serialized tree to start from ("" for a single leaf).
    stats_handle: the handle of the tree's fertile stats.
    name: the resource's name; its handle op is named so.
    container: TF 1.15's resource container (the kernels keep every resource in this process; unused).
  """

  def __init__(self, params, tree_config, stats_handle, name, container=None):
    self._params, self._tree_config, self._stats_handle = params, tree_config, stats_handle
    self._name, self._container = name, container
    self._init_op = None
    self._resource_handle = kernels.new_handle("tree", name)

  @property
  def resource_handle(self):
    """The string tensor naming the resource, what the model ops take."""
    return self._resource_handle

  @property
  def initializer(self):
    """The op creating the tree from `tree_config` (one op, built on first use)."""
    if self._init_op is None:
      proto = self._params.serialized_params_proto
      self._init_op = kernels.create_tree_variable(self._resource_handle, self._tree_config, params=proto)
    return self._init_op

  def is_initialized(self):
    """A new boolean op: whether the resource exists."""
    return kernels.tree_is_initialized_op(self._resource_handle)

  def _gather_saveables_for_checkpoint(self):
    """Object-based checkpointing's hook: the saveable's factory, waiting for a `name`.

    As TF 1.15's, it passes the create op only once `initializer` has been asked for (None before).
    """
    factory = functools.partial(TreeVariableSavable, params=self._params, tree_handle=self._resource_handle,
                                stats_handle=self._stats_handle, create_op=self._init_op)
    return {"tree_variable": factory}


def tree_variable(params, tree_config, stats_handle, name, container=None):
  """Creates one tree in the name scope `name` and returns its handle.

  The tree joins the graph's SAVEABLE_OBJECTS (checkpointed under the handle's tensor name) and RESOURCES (created
  by a Scaffold's init op, checked by its ready op).

  Args:
    params: the forest's hyperparameters.
    tree_config: a string tensor, the serialized tree to start from.
    stats_handle: the handle of the tree's fertile stats.
    name: the name scope (TF 1.15's default "TreeVariable"); the handle op takes its name.
    container: TF 1.15's resource container (unused).

  Returns:
    The handle, a string tensor.
  """
  with V1.name_scope(name, "TreeVariable") as scope:
    tree = TreeVariable(params, tree_config, stats_handle, scope, container)
    handle, create, ready = tree.resource_handle, tree.initializer, tree.is_initialized()
    factory = tree._gather_saveables_for_checkpoint()["tree_variable"]  # pylint: disable=protected-access
    V1.add_to_collection(V1.GraphKeys.SAVEABLE_OBJECTS, factory(name=handle.name))
    kernels.register_resource(handle, create, ready)
  return handle
