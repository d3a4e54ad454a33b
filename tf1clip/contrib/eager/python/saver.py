"""`tfe.Saver`, `tfe.restore_variables_on_create`, `tfe.get_optimizer_variables`: TF 1.x eager checkpoints by name.

Mirrors TF 1.15's `tensorflow/contrib/eager/python/saver.py`.

`Saver(var_list)` saves and restores eager variables under their names with tf.compat.v1.train.Saver (the same
name-based checkpoints tf.train.Saver writes in a graph, so TF 1.15's eager checkpoints restore). Inside
`restore_variables_on_create(path)`, every variable created is initialized from the checkpoint entry of its name
(or `map_func(name)`), and a name missing from the checkpoint is a NotFoundError, as in TF 1.15: TF 1.15's
mechanism (a temporary replacement of ResourceVariable's initializer) on TensorFlow 2.21's class. The batch
counters tf-keras' Model makes in its constructor (untracked, unsaved variables TF 1.15's Keras did not have) are
left alone: building a tf.keras model in the context restores its weights as in TF 1.15.
"""

import contextlib

import tensorflow as tf

V1 = tf.compat.v1

def _resource_variable_class():
  from tensorflow.python.ops import resource_variable_ops  # pylint: disable=import-outside-toplevel
  return resource_variable_ops.ResourceVariable

_KERAS_COUNTERS = {"depth": 0}

@contextlib.contextmanager
def _keras_counters_unrestored():
  """While in effect, the variables tf-keras' Model.__init__ makes for its batch counters are not restored."""
  try:
    import tf_keras  # pylint: disable=import-outside-toplevel
    model_class = tf_keras.Model
    old = model_class._init_batch_counters  # pylint: disable=protected-access
  except (ImportError, AttributeError):
    yield
    return

  def init_batch_counters(self, *args, **kwargs):
    _KERAS_COUNTERS["depth"] += 1
    try:
      return old(self, *args, **kwargs)
    finally:
      _KERAS_COUNTERS["depth"] -= 1

  model_class._init_batch_counters = init_batch_counters  # pylint: disable=protected-access
  try:
    yield
  finally:
    model_class._init_batch_counters = old  # pylint: disable=protected-access

@contextlib.contextmanager
def restore_variables_on_create(save_path, map_func=None):
  """Variables created in this context start from the checkpoint at `save_path` (eager only).

  Args:
    save_path: a checkpoint prefix (or None: the context does nothing).
    map_func: optional `variable name -> checkpoint name`.

  Raises:
    ValueError: not executing eagerly, or `map_func` not callable.
    NotFoundError: (on creation) a variable's name is not in the checkpoint.
  """
  if not tf.executing_eagerly():
    raise ValueError("Currently, restore_variables_on_create can only be used with eager execution enabled.")
  if not save_path:
    yield
    return
  if map_func is not None and not callable(map_func):
    raise ValueError("map_func must be callable.")
  mapping = map_func or (lambda name: name)
  reader = tf.train.load_checkpoint(save_path)
  cache = {name: reader.get_tensor(name) for name, _ in tf.train.list_variables(save_path)}
  cls = _resource_variable_class()
  old_init = cls._init_from_args  # pylint: disable=protected-access

  def init_from_checkpoint(self, *args, **kwargs):
    old_init(self, *args, **kwargs)
    if _KERAS_COUNTERS["depth"]:
      return
    name = mapping(self._handle_name[:-2] if self._handle_name.endswith(":0")  # pylint: disable=protected-access
                   else self._handle_name)  # pylint: disable=protected-access
    if name not in cache:
      raise tf.errors.NotFoundError(None, None, "%s not found in checkpoint" % name)
    value = cache[name]
    if value is not None:  # each entry restores the first variable of its name only
      self.assign(value)
      cache[name] = None

  cls._init_from_args = init_from_checkpoint  # pylint: disable=protected-access
  try:
    with _keras_counters_unrestored():
      yield
  finally:
    cls._init_from_args = old_init  # pylint: disable=protected-access

class Saver:
  """Saves and restores eager variables by name (`tf.train.Saver` for eager code)."""

  def __init__(self, var_list):
    if not tf.executing_eagerly():
      raise RuntimeError("tfe.Saver can only be used when eager execution is enabled. Use tf.train.Saver when "
                         "building graphs.")
    self._saver = V1.train.Saver(var_list=var_list)

  def save(self, file_prefix, global_step=None):
    """Writes the variables to `file_prefix` (-`global_step`); returns the checkpoint path."""
    return self._saver.save(None, file_prefix, write_meta_graph=False, global_step=global_step)

  def restore(self, file_prefix):
    """Assigns the variables their values in the checkpoint `file_prefix`."""
    self._saver.restore(None, file_prefix)

def get_optimizer_variables(optimizer):
  """The optimizer's own variables (slots, beta powers): `optimizer.variables()`."""
  return optimizer.variables()
