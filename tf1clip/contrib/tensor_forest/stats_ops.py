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

# The stats only change by running these ops; nothing differentiates through them.
for _op_type in ("FertileStatsVariable FertileStatsSerialize FertileStatsDeserialize GrowTreeV4 ProcessInputV4 "
                 "FinalizeTree").split():
  tf.no_gradient(_op_type)


class FertileStatsVariableSavable(kernels.ResourceSaveable):
  """How a Saver holds one tree's fertile stats: the serialized `FertileStats` string under `name`.

  Restoring deserializes that string into the resource once `create_op` (the stats' initializer) has run.

  Args:
    params: the forest's hyperparameters (their `serialized_params_proto` is what the kernels read).
    stats_handle: the stats resource's handle.
    create_op: the op creating the resource.
    name: the checkpoint key.
  """

  def __init__(self, params, stats_handle, create_op, name):
    self.params = params
    self._stats_handle = stats_handle
    proto = params.serialized_params_proto
    write = functools.partial(kernels.fertile_stats_serialize, stats_handle, params=proto)
    read = functools.partial(kernels.fertile_stats_deserialize, stats_handle, params=proto)
    super(FertileStatsVariableSavable, self).__init__(stats_handle, write, read, create_op, name)


class FertileStatsVariable(object):
  """One tree's fertile stats (its growing leaves' candidate splits and counts) as a resource.

  Args:
    params: the forest's hyperparameters.
    stats_config: a string tensor, the serialized stats to start from ("" for none).
    name: the resource's name; its handle op is named so.
    container: TF 1.15's resource container (the kernels keep every resource in this process; unused).
  """

  def __init__(self, params, stats_config, name, container=None):
    self._params, self._stats_config = params, stats_config
    self._name, self._container = name, container
    self._init_op = None
    self._resource_handle = kernels.new_handle("stats", name)

  @property
  def resource_handle(self):
    """The string tensor naming the resource, what the stats ops take."""
    return self._resource_handle

  @property
  def initializer(self):
    """The op creating the stats from `stats_config` (one op, built on first use)."""
    if self._init_op is None:
      proto = self._params.serialized_params_proto
      self._init_op = kernels.create_fertile_stats_variable(self._resource_handle, self._stats_config, params=proto)
    return self._init_op

  def is_initialized(self):
    """A new boolean op: whether the resource exists."""
    return kernels.fertile_stats_is_initialized_op(self._resource_handle)

  def _gather_saveables_for_checkpoint(self):
    """Object-based checkpointing's hook: the saveable's factory, waiting for a `name`."""
    factory = functools.partial(FertileStatsVariableSavable, params=self._params,
                                stats_handle=self._resource_handle, create_op=self.initializer)
    return {"fertile_stats_variable": factory}


def fertile_stats_variable(params, stats_config, name, container=None):
  """Creates one tree's fertile stats in the name scope `name` and returns their handle.

  The stats join the graph's SAVEABLE_OBJECTS (checkpointed under the handle's tensor name) and RESOURCES (created
  by a Scaffold's init op, checked by its ready op).

  Args:
    params: the forest's hyperparameters.
    stats_config: a string tensor, the serialized stats to start from.
    name: the name scope (TF 1.15's default "FertileStatsVariable"); the handle op takes its name.
    container: TF 1.15's resource container (unused).

  Returns:
    The handle, a string tensor.
  """
  with V1.name_scope(name, "FertileStatsVariable") as scope:
    stats = FertileStatsVariable(params, stats_config, scope, container)
    handle, create, ready = stats.resource_handle, stats.initializer, stats.is_initialized()
    factory = stats._gather_saveables_for_checkpoint()["fertile_stats_variable"]  # pylint: disable=protected-access
    V1.add_to_collection(V1.GraphKeys.SAVEABLE_OBJECTS, factory(name=handle.name))
    kernels.register_resource(handle, create, ready)
  return handle
