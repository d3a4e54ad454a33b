"""`tf.contrib.checkpoint`: TF 1.15's object-based checkpoint helpers.

Two kinds of objects. TensorFlow's tracking classes and checkpoint utilities under their TF 1.x names (the same
objects TF 1.15 re-exported, so checkpoints keep their keys): `Checkpointable` is AutoTrackable,
`CheckpointableBase` Trackable, `CheckpointableObjectGraph` the TrackableObjectGraph proto, `List` / `Mapping` /
`NoDependency` the tracked data structures, `PythonStateWrapper` PythonState, `CheckpointManager`
tf.train.CheckpointManager, and `capture_dependencies`, `list_objects`, `object_metadata`. And contrib's own
helpers, tf1clip's code module for module TF 1.15's `tensorflow/contrib/checkpoint/python/`: `NumpyState`
(python_state), `UniqueNameTracker` (containers), `split_dependency` (split_dependency) and
`dot_graph_from_checkpoint` (visualize).
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.core.protobuf.trackable_object_graph_pb2 import TrackableObjectGraph as CheckpointableObjectGraph
from tensorflow.python.checkpoint.checkpoint import capture_dependencies, list_objects, object_metadata
from tensorflow.python.trackable.autotrackable import AutoTrackable as Checkpointable
from tensorflow.python.trackable.base import Trackable as CheckpointableBase
from tensorflow.python.trackable.data_structures import List, Mapping, NoDependency
from tensorflow.python.trackable.python_state import PythonState as PythonStateWrapper
from tensorflow.train import CheckpointManager
from tf1clip.contrib.checkpoint.python.containers import UniqueNameTracker  # noqa: F401
from tf1clip.contrib.checkpoint.python.python_state import NumpyState  # noqa: F401
from tf1clip.contrib.checkpoint.python.split_dependency import split_dependency  # noqa: F401
from tf1clip.contrib.checkpoint.python.visualize import dot_graph_from_checkpoint  # noqa: F401

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.train.Checkpoint'

__getattr__ = _catalog.module_getattr(__name__)
