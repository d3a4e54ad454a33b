"""`UniqueNameTracker`: a trackable container that names its dependencies after hints, made unique.

TF 1.15's `tensorflow/contrib/checkpoint/python/containers.py`, written by tf1clip on TensorFlow 2.21's
TrackableDataStructure (the tracked containers' base, an internal class: no public base tracks values under
chosen names). `track(obj, "x")` three times names them `x`, `x_1`, `x_2`: the checkpoint keys TF 1.15 wrote.
"""

import itertools

from tensorflow.python.trackable import base as _trackable  # pylint: disable=g-direct-tensorflow-import
from tensorflow.python.trackable import data_structures as _data_structures  # pylint: disable=g-direct-tensorflow-import


class UniqueNameTracker(_data_structures.TrackableDataStructure):
  """Adds dependencies on trackable objects under their name hints, uniquified.

      class SlotManager(tf.contrib.checkpoint.Checkpointable):
        def __init__(self):
          self.slotdeps = tf.contrib.checkpoint.UniqueNameTracker()
          self.slotdeps.track(tf.Variable(3.), "x")   # "x"
          self.slotdeps.track(tf.Variable(5.), "x")   # "x_1"
  """

  def __init__(self):
    super(UniqueNameTracker, self).__init__()
    self._maybe_initialize_trackable()
    self._name_counts = {}  # hint -> the next number to try

  @property
  def _values(self):
    return [dependency.ref for dependency in self._checkpoint_dependencies]

  def track(self, trackable, base_name):
    """Adds a dependency on `trackable` named `base_name`, or `base_name_<n>` for the first free n; returns it.

    Raises:
      ValueError: `trackable` is not a trackable object (tf.Variable, tf.train.Checkpoint, ...).
    """
    if not isinstance(trackable, _trackable.Trackable):
      raise ValueError("Expected a trackable value, got %s which does not inherit from tf.track.Trackable." %
                       (trackable,))
    for number in itertools.count(self._name_counts.get(base_name, 0)):
      name = "%s_%d" % (base_name, number) if number else base_name
      if self._lookup_dependency(name) is None:
        break
    self._name_counts[base_name] = number + 1  # pylint: disable=undefined-loop-variable
    self._track_value(trackable, name=name)  # pylint: disable=undefined-loop-variable
    return trackable
