"""`tf.contrib.training`'s ps placement strategies for `tf.train.replica_device_setter(ps_strategy=...)`.

TF 1.15's code: `RandomStrategy(num_ps_tasks, seed)` puts each variable on the ps task the MD5 of
"<op name>_<seed>" picks (stable across runs and processes); `GreedyLoadBalancingStrategy(num_tasks,
load_fn)` puts each on the least-loaded task so far; `byte_size_load_fn` is a variable's size in bytes.
"""

import hashlib

import numpy as np
import tensorflow as tf


class RandomStrategy(object):
  """A ps task per op, chosen by hashing the op's name with `seed` (the same on every worker)."""

  def __init__(self, num_ps_tasks, seed=0):
    self._num_tasks = num_ps_tasks
    self._seed = seed

  def __call__(self, op):
    key = ("%s_%d" % (op.name, self._seed)).encode("utf-8")
    return int(int(hashlib.md5(key).hexdigest(), 16) % self._num_tasks)


class GreedyLoadBalancingStrategy(object):
  """The ps task with the least load so far, the load of each op being `load_fn(op)`."""

  def __init__(self, num_tasks, load_fn):
    self._num_tasks = num_tasks
    self._load_fn = load_fn
    self._ps_loads = np.zeros(num_tasks)

  def __call__(self, op):
    task = np.argmin(self._ps_loads)
    self._ps_loads[task] += self._load_fn(op)
    return task


def byte_size_load_fn(op):
  """The size in bytes of the variable `op` creates (its single output)."""
  if len(op.outputs) != 1:
    raise ValueError("Op %s must have a single output" % op)
  output = op.outputs[0]
  shape = output.shape
  if not shape.is_fully_defined():
    shape = tf.TensorShape(op.get_attr("shape"))
  shape.assert_is_fully_defined()
  return shape.num_elements() * output.dtype.size
