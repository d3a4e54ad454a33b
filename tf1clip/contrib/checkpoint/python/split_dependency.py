"""`split_dependency`: several checkpoint dependencies saved and restored together, by one fill and one consume.

TF 1.15's `tensorflow/contrib/checkpoint/python/split_dependency.py`, written by tf1clip. Each component looks like
a variable to a checkpoint (its value under `<name>/.ATTRIBUTES/VARIABLE_VALUE`); saving the first one calls
`fill_save_buffer_fn` once for all, and the restore op comes from `consume_restore_buffer_fn` once every component's
value has arrived. So one fused op's outputs can be saved as separate objects' values, and restored together.

It uses TensorFlow's SaveableObject protocol (an internal class: no public API saves a computed value as a
variable's).
"""

import functools

import tensorflow as tf
from tensorflow.python.trackable import base as _trackable  # pylint: disable=g-direct-tensorflow-import
from tensorflow.python.training.saving import saveable_object as _saveable  # pylint: disable=g-direct-tensorflow-import


class _CallbackSaveable(_saveable.SaveableObject):
  """A SaveableObject whose saved tensor comes from `save_callback` and whose restore is `restore_callback`."""

  def __init__(self, name, dtype, device, save_callback, restore_callback):
    self._restore_callback = restore_callback
    spec = _saveable.SaveSpec(tensor=save_callback, slice_spec="", name=name, dtype=dtype, device=device)
    super(_CallbackSaveable, self).__init__(save_callback, [spec], name)

  def restore(self, restored_tensors, restored_shapes):
    del restored_shapes
    (tensor,) = restored_tensors
    return self._restore_callback(tensor)


class _SplitDependency(_trackable.Trackable):
  """One component: saves its entry of the shared save buffer, restores into the shared restore buffer."""

  def __init__(self, group, name, dtype):
    self._group = group
    self._name = name
    self._dtype = dtype

  def _unsynchronized(self, what):
    return AssertionError("Split dependency %s (%s) unsynchronized. Split dependencies must be %s together." %
                          (self._name, self, what))

  def _save(self):
    saving = self._group.save_buffer
    if self._name not in saving:
      if saving:
        raise self._unsynchronized("saved")
      self._group.fill_save_buffer_fn(saving)
    return saving.pop(self._name)

  def _restore(self, tensor):
    restoring = self._group.restore_buffer
    if self._name in restoring:
      raise self._unsynchronized("restored")
    restoring[self._name] = tensor
    if len(restoring) < self._group.size:
      return tf.no_op()
    restore_op = self._group.consume_restore_buffer_fn(restoring)
    restoring.clear()
    return restore_op

  def _gather_saveables_for_checkpoint(self):
    return {_trackable.VARIABLE_VALUE_KEY: functools.partial(
        _CallbackSaveable, dtype=self._dtype, device=self._group.device, save_callback=self._save,
        restore_callback=self._restore)}


class _Group(object):
  """What the components of one split_dependency share."""

  def __init__(self, size, fill_save_buffer_fn, consume_restore_buffer_fn, device):
    self.size = size
    self.fill_save_buffer_fn = fill_save_buffer_fn
    self.consume_restore_buffer_fn = consume_restore_buffer_fn
    self.device = device
    self.save_buffer = {}
    self.restore_buffer = {}


def split_dependency(component_names, component_dtypes, fill_save_buffer_fn, consume_restore_buffer_fn, device):
  """Trackables (one per name) that are saved and restored as one.

  Args:
    component_names: the components' names; `fill_save_buffer_fn` must add these keys to the dict it gets, and
      `consume_restore_buffer_fn` gets a dict of them.
    component_dtypes: the dtypes of their saved values, in `component_names`' order.
    fill_save_buffer_fn: fills an empty dict with name -> tensor to save.
    consume_restore_buffer_fn: takes name -> restored tensor and returns the restore op (eagerly: restores, and
      may return None).
    device: where the save and restore ops run.

  Returns:
    name -> Trackable. Make either all of them dependencies or none: saving or restoring some of them alone is an
    AssertionError.
  """
  group = _Group(len(component_names), fill_save_buffer_fn, consume_restore_buffer_fn, device)
  return {name: _SplitDependency(group, name, dtype) for name, dtype in zip(component_names, component_dtypes)}
