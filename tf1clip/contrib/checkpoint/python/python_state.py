"""`NumpyState`: NumPy arrays as attributes of a trackable object, saved in object-based checkpoints.

TF 1.15's `tensorflow/contrib/checkpoint/python/python_state.py`, written by tf1clip on TensorFlow 2.21's
`tf.train.experimental.PythonState`: each array attribute is a dependency that saves the array as a serialized
.npy string (`<attribute>/.ATTRIBUTES/py_state`, TF 1.15's key). Restoring skips the graph (no restore ops to run,
in graph mode too) and re-creates the attributes a fresh NumpyState does not have yet. A NumpyState holds arrays
only: another value assigned to an attribute is a NotImplementedError, as in TF 1.15.

It needs TensorFlow's Trackable internals (`_lookup_dependency`, `_track_trackable`, the unconditional dependency
lists): no public API defines a trackable whose dependencies appear on restore.
"""

import io

import numpy
import tensorflow as tf
from tensorflow.python.trackable import base as _trackable  # pylint: disable=g-direct-tensorflow-import

# The attributes TensorFlow 2.21's Trackable sets on itself (TF 1.15's had `_self_`-prefixed names only).
_TRACKABLE_OWN = ("_setattr_tracking", "_update_uid")


class _NumpyWrapper(tf.train.experimental.PythonState):
  """One array of a NumpyState, saved as the bytes of `numpy.save` (no pickles)."""

  def __init__(self, array):
    self.array = array

  def serialize(self):
    buffer = io.BytesIO()
    numpy.save(buffer, self.array, allow_pickle=False)
    return buffer.getvalue()

  def deserialize(self, string_value):
    self.array = numpy.load(io.BytesIO(string_value), allow_pickle=False)


class NumpyState(_trackable.Trackable):
  """A trackable object whose NumPy array attributes go into object-based checkpoints.

      arrays = tf.contrib.checkpoint.NumpyState()
      checkpoint = tf.train.Checkpoint(numpy_arrays=arrays)
      arrays.x = numpy.zeros([3, 4])
      path = checkpoint.save("/tmp/ckpt")
      arrays.x[1, 1] = 4.
      checkpoint.restore(path)    # arrays.x is zeros again; a fresh NumpyState would get `x` from the restore
  """

  def _lookup_dependency(self, name, cached_dependencies=None):
    # A restore asks for each saved dependency by name: an attribute not here yet gets an empty array to restore
    # into, which is how a fresh NumpyState re-creates the saved attributes.
    found = super(NumpyState, self)._lookup_dependency(name, cached_dependencies)
    if found is not None:
      return found
    placeholder = _NumpyWrapper(numpy.array([]))
    self._unconditional_checkpoint_dependencies.append(_trackable.TrackableReference(name=name, ref=placeholder))
    self._unconditional_dependency_names[name] = placeholder
    super(NumpyState, self).__setattr__(name, placeholder)
    return placeholder

  def __getattribute__(self, name):
    value = super(NumpyState, self).__getattribute__(name)
    return value.array if isinstance(value, _NumpyWrapper) else value

  def __setattr__(self, name, value):
    if isinstance(value, (numpy.ndarray, numpy.generic)):
      try:
        wrapper = super(NumpyState, self).__getattribute__(name)
      except AttributeError:
        wrapper = None
      if isinstance(wrapper, _NumpyWrapper):
        wrapper.array = value  # the same dependency: a checkpoint keeps tracking it
        return
      value = _NumpyWrapper(value)
      self._track_trackable(value, name=name, overwrite=True)
    elif (name not in _TRACKABLE_OWN and not name.startswith("_self_") and
          getattr(self, "_self_setattr_tracking", True)):
      # A restore creates attributes by name (above); it could not tell an array from another trackable
      raise NotImplementedError(
          "Assigned %s to the %s property of %s, which is not a NumPy array. Currently mixing NumPy arrays and "
          "other trackable objects is not supported. File a feature request if this limitation bothers you." %
          (value, name, self))
    super(NumpyState, self).__setattr__(name, value)
