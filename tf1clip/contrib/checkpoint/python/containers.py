"""contrib.checkpoint's own helpers (TF 1.15's contrib/checkpoint/python code): NumpyState, UniqueNameTracker, ...

Place in the data flow (DESIGN.md): TensorFlow's tracking (tf.train.Checkpoint) <- **contrib.checkpoint** <- compat
<- cli.

- `NumpyState`: a trackable whose NumPy array attributes are saved in the checkpoint (as serialized .npy
  strings, one `tf.train.experimental.PythonState` per attribute) and re-created on restore.
- `UniqueNameTracker`: a trackable container whose `track(obj, base_name)` names dependencies `x`, `x_1`, ...
- `split_dependency(component_names, component_dtypes, fill_save_buffer_fn, consume_restore_buffer_fn,
  device)`: trackables that look like variables to a checkpoint but are saved and restored together.
- `dot_graph_from_checkpoint(save_path)`: a checkpoint's object graph as a DOT string.
These need TensorFlow's Trackable internals (`_track_trackable`, `_lookup_dependency`, the SaveableObject
protocol): TensorFlow 2.21 has no public way to define such objects. The checkpoint keys are TF 1.15's.
"""

import functools
import io

import numpy
import tensorflow as tf
from tensorflow.python.checkpoint import checkpoint as checkpoint_lib
from tensorflow.python.trackable import base as trackable_base
from tensorflow.python.trackable import data_structures
from tensorflow.python.training.saving import saveable_object


class NumpyState(trackable_base.Trackable):
  """A trackable object whose NumPy array attributes are saved/restored (TF 1.15's contrib class).

  Arrays assigned to attributes are saved as the attribute's dependency; restoring re-creates missing
  attributes, eagerly (no restore ops to run, in graph mode too). Non-array attributes are refused.
  """

  def _lookup_dependency(self, name, cached_dependencies=None):
    """An existing dependency, or a new placeholder array for an attribute about to be restored."""
    value = super(NumpyState, self)._lookup_dependency(name, cached_dependencies)
    if value is None:
      value = _NumpyWrapper(numpy.array([]))
      new_reference = trackable_base.TrackableReference(name=name, ref=value)
      self._unconditional_checkpoint_dependencies.append(new_reference)
      self._unconditional_dependency_names[name] = value
      super(NumpyState, self).__setattr__(name, value)
    return value

  def __getattribute__(self, name):
    """Un-wraps `_NumpyWrapper` objects when accessing attributes."""
    value = super(NumpyState, self).__getattribute__(name)
    if isinstance(value, _NumpyWrapper):
      return value.array
    return value

  def __setattr__(self, name, value):
    """Wraps NumPy arrays assigned to attributes automatically."""
    if isinstance(value, (numpy.ndarray, numpy.generic)):
      try:
        existing = super(NumpyState, self).__getattribute__(name)
        existing.array = value
        return
      except AttributeError:
        value = _NumpyWrapper(value)
        self._track_trackable(value, name=name, overwrite=True)
    elif (name not in ("_setattr_tracking", "_update_uid")  # TensorFlow 2.21's properties for _self_*
          and not name.startswith("_self_") and getattr(self, "_self_setattr_tracking", True)):
      raise NotImplementedError(
          ("Assigned %s to the %s property of %s, which is not a NumPy array. "
           "Currently mixing NumPy arrays and other trackable objects is "
           "not supported. File a feature request if this limitation bothers "
           "you.") % (value, name, self))
    super(NumpyState, self).__setattr__(name, value)


class _NumpyWrapper(tf.train.experimental.PythonState):
  """Wraps a NumPy array for storage in an object-based checkpoint."""

  def __init__(self, array):
    self.array = array

  def serialize(self):
    string_file = io.BytesIO()
    numpy.save(string_file, self.array, allow_pickle=False)
    return string_file.getvalue()

  def deserialize(self, string_value):
    self.array = numpy.load(io.BytesIO(string_value), allow_pickle=False)


class UniqueNameTracker(data_structures.TrackableDataStructure):
  """Adds dependencies on trackable objects with name hints, made locally unique (`x`, `x_1`, ...)."""

  def __init__(self):
    super(UniqueNameTracker, self).__init__()
    self._maybe_initialize_trackable()
    self._name_counts = {}

  @property
  def _values(self):
    return [dep.ref for dep in self._checkpoint_dependencies]

  def track(self, trackable, base_name):
    """Adds a dependency on `trackable` named after `base_name`; returns `trackable`.

    Raises:
      ValueError: If `trackable` is not a trackable object.
    """
    if not isinstance(trackable, trackable_base.Trackable):
      raise ValueError(("Expected a trackable value, got %s which does not inherit "
                        "from tf.track.Trackable.") % (trackable,))

    def _format_name(prefix, number):
      return "%s_%d" % (prefix, number) if number > 0 else prefix

    count = self._name_counts.get(base_name, 0)
    candidate = _format_name(base_name, count)
    while self._lookup_dependency(candidate) is not None:
      count += 1
      candidate = _format_name(base_name, count)
    self._name_counts[base_name] = count + 1
    self._track_value(trackable, name=candidate)
    return trackable


class _CallbackSaveable(saveable_object.SaveableObject):
  """Wraps save and restore callbacks as a `SaveableObject`."""

  def __init__(self, name, dtype, device, save_callback, restore_callback):
    self._restore_callback = restore_callback
    spec = saveable_object.SaveSpec(tensor=save_callback, slice_spec="", name=name, dtype=dtype, device=device)
    super(_CallbackSaveable, self).__init__(save_callback, [spec], name)

  def restore(self, restored_tensors, restored_shapes):
    tensor, = restored_tensors
    return self._restore_callback(tensor)


class _SplitDependency(trackable_base.Trackable):
  """Looks like a regular variable while synchronizing save/restores."""

  def __init__(self, save_buffer, restore_buffer, name, dtype, device, num_components, fill_save_buffer_fn,
               consume_restore_buffer_fn):
    self._save_buffer = save_buffer
    self._restore_buffer = restore_buffer
    self._name = name
    self._dtype = dtype
    self._device = device
    self._num_components = num_components
    self._fill_save_buffer_fn = fill_save_buffer_fn
    self._consume_restore_buffer_fn = consume_restore_buffer_fn

  def _save(self):
    """Pulls from the shared buffer, populating it if necessary."""
    if self._name not in self._save_buffer:
      if self._save_buffer:
        raise AssertionError(("Split dependency %s (%s) unsynchronized. Split dependencies must "
                              "be saved together.") % (self._name, self))
      self._fill_save_buffer_fn(self._save_buffer)
    return self._save_buffer.pop(self._name)

  def _restore(self, tensor):
    """Pushes into the shared buffer, flushing it if necessary."""
    if self._name in self._restore_buffer:
      raise AssertionError(("Split dependency %s (%s) unsynchronized. Split dependencies must "
                            "be restored together.") % (self._name, self))
    self._restore_buffer[self._name] = tensor
    if len(self._restore_buffer) == self._num_components:
      op = self._consume_restore_buffer_fn(self._restore_buffer)
      self._restore_buffer.clear()
      return op
    return tf.no_op()

  def _gather_saveables_for_checkpoint(self):
    """Looks to Trackable like a regular variable."""
    return {trackable_base.VARIABLE_VALUE_KEY: functools.partial(
        _CallbackSaveable, dtype=self._dtype, device=self._device, save_callback=self._save,
        restore_callback=self._restore)}


def split_dependency(component_names, component_dtypes, fill_save_buffer_fn, consume_restore_buffer_fn, device):
  """{name: trackable} for `component_names`, saved and restored together (TF 1.15's contrib function).

  Args:
    component_names: names of the split dependencies; `fill_save_buffer_fn` adds these keys to the dict it
      is passed, `consume_restore_buffer_fn` receives a dict with them.
    component_dtypes: the dtypes of the saved tensors, in `component_names`' order.
    fill_save_buffer_fn: fills an empty dict with {name: tensor to save}.
    consume_restore_buffer_fn: takes {name: restored tensor} and returns a restore op (or None eagerly).
    device: the device of the save and restore ops.

  Returns:
    A dict from name to Trackable; make all of them dependencies or none.
  """
  save_buffer = {}
  restore_buffer = {}
  return {name: _SplitDependency(save_buffer=save_buffer, restore_buffer=restore_buffer, name=name, dtype=dtype,
                                 device=device, num_components=len(component_names),
                                 fill_save_buffer_fn=fill_save_buffer_fn,
                                 consume_restore_buffer_fn=consume_restore_buffer_fn)
          for name, dtype in zip(component_names, component_dtypes)}


def dot_graph_from_checkpoint(save_path):
  """The object graph of the object-based checkpoint at `save_path`, in DOT format (a string)."""
  reader = tf.train.load_checkpoint(save_path)
  object_graph = checkpoint_lib.object_metadata(save_path)
  shape_map = reader.get_variable_to_shape_map()
  dtype_map = reader.get_variable_to_dtype_map()
  graph = "digraph {\n"

  def _escape(name):
    return name.replace('"', '\\"')

  slot_ids = set()
  for node in object_graph.nodes:
    for slot_reference in node.slot_variables:
      slot_ids.add(slot_reference.slot_variable_node_id)
  for node_id, node in enumerate(object_graph.nodes):
    if len(node.attributes) == 1 and node.attributes[0].name == trackable_base.VARIABLE_VALUE_KEY:
      if node_id in slot_ids:
        color, tooltip_prefix = "orange", "Slot variable"
      else:
        color, tooltip_prefix = "blue", "Variable"
      attribute = node.attributes[0]
      graph += ('N_%d [shape=point label="" color=%s width=.25'
                ' tooltip="%s %s shape=%s %s"]\n') % (
                    node_id, color, tooltip_prefix, _escape(attribute.full_name),
                    shape_map[attribute.checkpoint_key], dtype_map[attribute.checkpoint_key].name)
    elif node.slot_variables:
      graph += ('N_%d [shape=point label="" width=.25 color=red,'
                'tooltip="Optimizer"]\n') % node_id
    else:
      graph += 'N_%d [shape=point label="" width=.25]\n' % node_id
    for reference in node.children:
      graph += 'N_%d -> N_%d [label="%s"]\n' % (node_id, reference.node_id, _escape(reference.local_name))
    for slot_reference in node.slot_variables:
      graph += 'N_%d -> N_%d [label="%s" style=dotted]\n' % (
          node_id, slot_reference.slot_variable_node_id, _escape(slot_reference.slot_name))
      graph += 'N_%d -> N_%d [style=dotted]\n' % (
          slot_reference.original_variable_node_id, slot_reference.slot_variable_node_id)
  graph += "}\n"
  return graph
