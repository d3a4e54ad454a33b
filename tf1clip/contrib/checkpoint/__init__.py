"""`tf.contrib.checkpoint`: TF 1.15's object-based checkpoint helpers, where TensorFlow 2.21 keeps them.

Place in the data flow (DESIGN.md): **contrib.checkpoint** <- compat <- cli. TF 1.15 re-exported TensorFlow's
tracking classes under their 1.x names: `Checkpointable` is `AutoTrackable`, `CheckpointableBase` is
`Trackable`, `CheckpointableObjectGraph` the TrackableObjectGraph proto, `List`, `Mapping`, `NoDependency` the
tracked data structures, `PythonStateWrapper` is `PythonState`, `CheckpointManager` is `tf.train.CheckpointManager`,
and `capture_dependencies`, `list_objects`, `object_metadata` the checkpoint utilities (`catalog.SERVED`; the
same objects, so checkpoints keep their keys). Contrib's own `NumpyState`, `UniqueNameTracker`,
`dot_graph_from_checkpoint` and `split_dependency` are TF 1.15's code in tf1clip.contrib.checkpoint.python.containers.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.checkpoint", lazy=_catalog.served("tf.contrib.checkpoint"))
