"""The custom getter TF 1.15's ps/worker optimizers share: a trainable variable becomes a worker-local copy, a
global center on the ps, and one more worker-side variable of the optimizer's own.

For a trainable variable `name` the getter creates `name` on `worker_device` in LOCAL_VARIABLES (trainable),
`global_center_variable/name` in GLOBAL_VARIABLES (placed by the surrounding device function, the ps), and
`<COMPANION>/name` on `worker_device` in LOCAL_VARIABLES: ElasticAverage's local center, AGN's gradient sum. It
maps each local variable (each partition of a partitioned one) to its global center and its companion. As TF
1.15's: `reuse=True` returns the local copy alone; AUTO_REUSE (not == True) creates the others too.
"""

import tensorflow as tf

GLOBAL_VARIABLE_NAME = "global_center_variable"

_GLOBAL = tf.compat.v1.GraphKeys.GLOBAL_VARIABLES
_LOCAL = tf.compat.v1.GraphKeys.LOCAL_VARIABLES


class WorkerCopyGetter(object):
  """Custom getter: local trainable copies on `worker_device`, global centers (ps), and `COMPANION` variables."""

  COMPANION = None  # the name prefix of the optimizer's own worker-side variable

  def __init__(self, worker_device):
    self._worker_device = worker_device
    self._global_map = {}
    self._companion_map = {}

  def __call__(self, getter, name, trainable, collections, *args, **kwargs):
    if not trainable:
      return self._untrainable(getter, name, trainable, collections, *args, **kwargs)
    with tf.compat.v1.device(self._worker_device):
      local_var = getter(name, trainable=True, collections=[_LOCAL], *args, **kwargs)
    if kwargs["reuse"] == True:  # pylint: disable=g-explicit-bool-comparison,singleton-comparison
      return local_var
    global_center_variable = getter(name="%s/%s" % (GLOBAL_VARIABLE_NAME, name), trainable=False,
                                    collections=[_GLOBAL], *args, **kwargs)
    with tf.compat.v1.device(self._worker_device):
      companion = getter(name="%s/%s" % (self.COMPANION, name), trainable=False, collections=[_LOCAL],
                         *args, **kwargs)
    if kwargs["partitioner"] is None:
      self._companion_map[local_var] = companion
      self._global_map[local_var] = global_center_variable
    else:
      for part, companion_part, global_part in zip(list(local_var), list(companion), list(global_center_variable)):
        self._companion_map[part] = companion_part
        self._global_map[part] = global_part
    return local_var

  def _untrainable(self, getter, name, trainable, collections, *args, **kwargs):
    return getter(name, trainable=trainable, collections=collections, *args, **kwargs)
