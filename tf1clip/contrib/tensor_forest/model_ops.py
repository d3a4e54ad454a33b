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

for _op in ("TreeVariable", "TreeSerialize", "TreeDeserialize", "TreeSize", "TreePredictionsV4",
            "FeatureUsageCounts"):
  tf.no_gradient(_op)


class TreeVariableSavable(kernels.ResourceSaveable):
  """SaveableObject implementation for TreeVariable."""

  def __init__(self, params, tree_handle, stats_handle, create_op, name):
    """Creates a TreeVariableSavable object.

    Args:
      params: A TensorForestParams object.
      tree_handle: handle to the tree variable.
      stats_handle: handle to the stats variable.
      create_op: the op to initialize the variable.
      name: the name to save the tree variable under.
    """
    del stats_handle
    self.params = params
    super(TreeVariableSavable, self).__init__(
        tree_handle, lambda: kernels.tree_serialize(tree_handle),
        lambda config: kernels.tree_deserialize(tree_handle, config, params=params.serialized_params_proto),
        create_op, name)
    self._tree_handle = tree_handle


class TreeVariable(object):
  """A tree model."""

  def __init__(self, params, tree_config, stats_handle, name, container=None):
    self._params = params
    self._tree_config = tree_config
    self._stats_handle = stats_handle
    self._name = name
    self._container = container
    self._init_op = None
    self._resource_handle = self._create_resource()

  @property
  def resource_handle(self):
    return self._resource_handle

  def _create_resource(self):
    return kernels.new_handle("tree", self._name)

  def _initialize(self):
    return kernels.create_tree_variable(self.resource_handle, self._tree_config,
                                        params=self._params.serialized_params_proto)

  @property
  def initializer(self):
    if self._init_op is None:
      self._init_op = self._initialize()
    return self._init_op

  def is_initialized(self):
    return kernels.tree_is_initialized_op(self.resource_handle)

  def _gather_saveables_for_checkpoint(self):
    """For object-based checkpointing."""
    return {
        "tree_variable":
            functools.partial(
                TreeVariableSavable,
                params=self._params,
                tree_handle=self.resource_handle,
                stats_handle=self._stats_handle,
                create_op=self._init_op)
    }


def tree_variable(params, tree_config, stats_handle, name, container=None):
  r"""Creates a tree model and returns a handle to it.

  Args:
    params: A TensorForestParams object.
    tree_config: A `Tensor` of type `string`. Serialized proto of the tree.
    stats_handle: Resource handle to the stats object.
    name: A name for the variable.
    container: An optional `string`. Defaults to `""`.

  Returns:
    A `Tensor` of type mutable `string`. The handle to the tree.
  """
  with V1.name_scope(name, "TreeVariable") as name:
    tree_var = TreeVariable(params, tree_config, stats_handle, name, container)
    resource_handle = tree_var.resource_handle
    create_op = tree_var.initializer
    is_initialized_op = tree_var.is_initialized()
    # Adds the variable to the savable list.
    saveable = tree_var._gather_saveables_for_checkpoint()["tree_variable"](  # pylint: disable=protected-access
        name=resource_handle.name)
    V1.add_to_collection(V1.GraphKeys.SAVEABLE_OBJECTS, saveable)
    kernels.register_resource(resource_handle, create_op, is_initialized_op)
    return resource_handle
