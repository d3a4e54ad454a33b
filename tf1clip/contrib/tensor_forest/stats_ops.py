"""`tf.contrib.tensor_forest.stats_ops`: TF 1.15's fertile stats variable (FertileStatsVariable, its saveable) and ops.

Place in the data flow (DESIGN.md): contrib.tensor_forest.kernels <- **contrib.tensor_forest.stats_ops** <-
contrib.tensor_forest.tensor_forest <- random_forest.

TF 1.15's python/ops/stats_ops.py on the NumPy kernels: the handle op named as the variable's scope (`stats-0`), the
stats checkpointed as one serialized `FertileStats` under `stats-0:0` (the leaves' slots and depths; their counts
only with `checkpoint_stats`, as TF 1.15's). process_input_v4, grow_tree_v4 and finalize_tree are the kernels
module's (finalize_tree raises: TF 1.15 disabled it).
"""

import functools

import tensorflow as tf

from tf1clip.contrib.tensor_forest import kernels
from tf1clip.contrib.tensor_forest.kernels import finalize_tree  # noqa: F401
from tf1clip.contrib.tensor_forest.kernels import grow_tree_v4  # noqa: F401
from tf1clip.contrib.tensor_forest.kernels import process_input_v4  # noqa: F401

V1 = tf.compat.v1
# TF 1.15's module imported its generated ops module under this name; scripts reached into it
gen_stats_ops = kernels

for _op in ("FertileStatsVariable", "FertileStatsSerialize", "FertileStatsDeserialize", "GrowTreeV4",
            "ProcessInputV4", "FinalizeTree"):
  tf.no_gradient(_op)


class FertileStatsVariableSavable(kernels.ResourceSaveable):
  """SaveableObject implementation for FertileStatsVariable."""

  def __init__(self, params, stats_handle, create_op, name):
    """Creates a FertileStatsVariableSavable object.

    Args:
      params: A TensorForestParams object.
      stats_handle: handle to the tree variable.
      create_op: the op to initialize the variable.
      name: the name to save the tree variable under.
    """
    self.params = params
    super(FertileStatsVariableSavable, self).__init__(
        stats_handle, lambda: kernels.fertile_stats_serialize(stats_handle, params=params.serialized_params_proto),
        lambda config: kernels.fertile_stats_deserialize(stats_handle, config,
                                                         params=params.serialized_params_proto),
        create_op, name)
    self._stats_handle = stats_handle


class FertileStatsVariable(object):
  """A Fertile stats variable."""

  def __init__(self, params, stats_config, name, container=None):
    self._params = params
    self._stats_config = stats_config
    self._name = name
    self._container = container
    self._init_op = None
    self._resource_handle = self._create_resource()

  @property
  def resource_handle(self):
    return self._resource_handle

  def _create_resource(self):
    return kernels.new_handle("stats", self._name)

  def _initialize(self):
    return kernels.create_fertile_stats_variable(self.resource_handle, self._stats_config,
                                                 params=self._params.serialized_params_proto)

  @property
  def initializer(self):
    if self._init_op is None:
      self._init_op = self._initialize()
    return self._init_op

  def is_initialized(self):
    return kernels.fertile_stats_is_initialized_op(self.resource_handle)

  def _gather_saveables_for_checkpoint(self):
    """For object-based checkpointing."""
    return {
        "fertile_stats_variable":
            functools.partial(
                FertileStatsVariableSavable,
                params=self._params,
                stats_handle=self.resource_handle,
                create_op=self.initializer)
    }


def fertile_stats_variable(params, stats_config, name, container=None):
  r"""Creates a stats object and returns a handle to it.

  Args:
    params: A TensorForestParams object.
    stats_config: A `Tensor` of type `string`. Serialized proto of the stats.
    name: A name for the variable.
    container: An optional `string`. Defaults to `""`.

  Returns:
    A `Tensor` of type mutable `string`. The handle to the stats.
  """
  with V1.name_scope(name, "FertileStatsVariable") as name:
    fertile_stats_var = FertileStatsVariable(params, stats_config, name, container)
    resource_handle = fertile_stats_var.resource_handle
    create_op = fertile_stats_var.initializer
    is_initialized_op = fertile_stats_var.is_initialized()
    # Adds the variable to the savable list.
    saveable = (
        fertile_stats_var._gather_saveables_for_checkpoint()[  # pylint: disable=protected-access
            "fertile_stats_variable"](name=resource_handle.name))
    V1.add_to_collection(V1.GraphKeys.SAVEABLE_OBJECTS, saveable)
    kernels.register_resource(resource_handle, create_op, is_initialized_op)
    return resource_handle
