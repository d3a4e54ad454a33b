"""`tf.train.Saver` for stage-3 programs: a `tf.train.Checkpoint` keyed by TF1 names, TF1 checkpoints converted.

``TF1Checkpoint(variables, optimizer)`` tracks each variable under its TF1 name (``dense/kernel``) in a
``tf.train.Checkpoint`` (an object-based TF2 checkpoint: key ``variables/dense.Skernel/.ATTRIBUTES/
VARIABLE_VALUE``) next to the optimizer's own state. ``save(path, global_step)`` writes ``path-<step>`` as
``Saver.save`` did and records it in the folder's ``checkpoint`` file, so ``tf.train.latest_checkpoint`` keeps
finding it. ``restore(path)`` reads either kind: a checkpoint it wrote, or a TF1 name-based one (written by
the TF1 program's Saver), whose variables are assigned by name -- the TF1 optimizer's slots (``.../Adam``,
``beta1_power``) have no Keras counterpart by name and start again, which `restore` says.

Both ways: ``tf1_values(path)`` reads a checkpoint of either kind as {TF1 name: value}, and
``write_tf1_checkpoint(values, path)`` writes such a dict as a TF1 name-based checkpoint (no Session).

Data flow: v2.tf1_graph <- **v2.tf1_checkpoint** <- programs written by tools.upgrade_stage3.
"""

import os
import sys

import tensorflow as tf

_OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"
_PREFIX, _SUFFIX = "variables/", "/.ATTRIBUTES/VARIABLE_VALUE"


def _tf1_name(variable):
  return variable.name.split(":")[0]


def _unescape(key):
  # tf.train.Checkpoint escapes "/" as ".S" and "." as ".." in object names.
  out, i = [], 0
  while i < len(key):
    if key[i] == "." and i + 1 < len(key):
      out.append("/" if key[i + 1] == "S" else key[i + 1])
      i += 2
    else:
      out.append(key[i])
      i += 1
  return "".join(out)


def is_tf1_checkpoint(path):
  """True for a name-based (TF1 Saver) checkpoint, False for an object-based one."""
  return _OBJECT_GRAPH not in tf.train.load_checkpoint(path).get_variable_to_shape_map()


def tf1_values(path):
  """{TF1 variable name: value} of a TF1 checkpoint or of one TF1Checkpoint wrote."""
  reader = tf.train.load_checkpoint(path)
  names = reader.get_variable_to_shape_map()
  if _OBJECT_GRAPH not in names:
    return {name: reader.get_tensor(name) for name in names}
  return {_unescape(key[len(_PREFIX):-len(_SUFFIX)]): reader.get_tensor(key) for key in names
          if key.startswith(_PREFIX) and key.endswith(_SUFFIX)}


def write_tf1_checkpoint(values, path):
  """Writes {TF1 name: value} as a name-based checkpoint at prefix `path` (what a TF1 Saver restores)."""
  if not values:
    raise ValueError("values: nothing to write to %s" % path)
  names = sorted(values)
  tf.raw_ops.SaveV2(prefix=path, tensor_names=names, shape_and_slices=[""] * len(names),
                    tensors=[tf.convert_to_tensor(values[n]) for n in names])
  return path


class TF1Checkpoint:
  """Saves and restores variables under their TF1 names (see the module docstring).

  Args:
    variables: the eager variables (v2.tf1_graph.TF1Graph.variables).
    optimizer: the Keras optimizer (or tf1clip.v2 wrapper) whose state is saved too, or None.
    resolve: maps a variable of the TF1 graph (a `global_step=` the program passes) to its eager one.
  """

  def __init__(self, variables, optimizer=None, resolve=None):
    self._resolve = resolve
    self._variables = {_tf1_name(v): v for v in variables}
    tracked = {"variables": dict(self._variables)}
    if optimizer is not None:
      tracked["optimizer"] = optimizer
    self._checkpoint = tf.train.Checkpoint(**tracked)

  def save(self, save_path, global_step=None):
    """Writes `save_path` (or `save_path-<global_step>`); returns the prefix, as Saver.save did."""
    if global_step is not None:
      if isinstance(global_step, tf.Variable) and self._resolve is not None:
        global_step = self._resolve(global_step)
      step = global_step.numpy() if hasattr(global_step, "numpy") else global_step
      save_path = "%s-%d" % (save_path, int(step))
    folder = os.path.dirname(os.path.abspath(save_path))
    os.makedirs(folder, exist_ok=True)
    prefix = self._checkpoint.write(save_path)
    tf.compat.v1.train.update_checkpoint_state(folder, prefix)
    return prefix

  def restore(self, save_path):
    """Reads a checkpoint this class wrote, or converts a TF1 Saver's one by variable name."""
    if not is_tf1_checkpoint(save_path):
      self._checkpoint.read(save_path).assert_existing_objects_matched()
      return
    values = tf1_values(save_path)
    missing = sorted(set(self._variables) - set(values))
    if missing:
      raise ValueError("restore: %s has no %s" % (save_path, ", ".join(missing)))
    for name, variable in self._variables.items():
      variable.assign(values[name])
    left = sorted(set(values) - set(self._variables))
    if left:
      print("tf1clip: restored %d variables of the TF1 checkpoint %s by name; its optimizer state (%s) "
            "has no TF2 counterpart and starts again" % (len(self._variables), save_path,
                                                         ", ".join(left[:4]) + (" ..." if len(left) > 4 else "")),
            file=sys.stderr)
