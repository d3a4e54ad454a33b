"""`tf.contrib.framework`: the global step and the variable-collection helpers, as in TF 1.15.

Model variables are the variables a model's forward pass reads (weights, biases, batch-norm
statistics); `model_variable` puts them in `tf.compat.v1.GraphKeys.MODEL_VARIABLES` as well as in
the global collection, and `get_variables_to_restore(include, exclude)` picks by scope, as
fine-tuning scripts did to restore all but the last layer.

The rest of TF 1.15's contrib.framework is served from where it lives now (imported below):
`arg_scope`, `add_arg_scope`, `assign_from_checkpoint(_fn)`, `local_variable`, `get_global_step`,
`add_model_variable`, `get_local_variables`, `get_variables_by_suffix`, ... are tf-slim's (the same objects as
tf.contrib.slim's, as in TF 1.15)
(TF 1.15 moved them there), `list_variables`, `load_variable`, `init_from_checkpoint` are
`tf.train`'s, and `nest` is TensorFlow's `tensorflow.python.util.nest` module.
"""

import functools

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow import argsort, sort, TensorSpec
from tensorflow.compat.v1 import assert_scalar, convert_to_tensor_or_sparse_tensor, is_tensor
from tensorflow.python.framework.ops import (
    _get_graph_from_inputs as get_graph_from_inputs, get_name_scope, prepend_name_scope, strip_name_scope)
from tensorflow.python.framework.smart_cond import smart_case, smart_cond, smart_constant_value
from tensorflow.python.framework.tensor_spec import BoundedTensorSpec
from tensorflow.python.ops.check_ops import assert_same_float_dtype
from tensorflow.python.ops.data_flow_ops import RecordInput
from tensorflow.python.ops.init_ops import (
    ConvolutionDeltaOrthogonal as convolutional_delta_orthogonal, ConvolutionOrthogonal1D as
    convolutional_orthogonal_1d, ConvolutionOrthogonal2D as convolutional_orthogonal_2d, ConvolutionOrthogonal3D as
    convolutional_orthogonal_3d)
from tensorflow.python.training.checkpoint_ops import (
    _load_and_remap_matrix_initializer as load_and_remap_matrix_initializer, _load_embedding_initializer as
    load_embedding_initializer)
from tensorflow.python.util.deprecation import deprecated, deprecated_arg_values, deprecated_args
from tf1clip.contrib.framework.python.framework.tensor_util import (
    assert_scalar_int, fuse_op, get_placeholders, load_linear_multiclass_bias_initializer,
    load_variable_slot_initializer, py_func, reduce_sum_n, remove_squeezable_dimensions, with_same_shape, with_shape,
    zero_initializer)
from tf1clip.python.util import nest
from tf_slim import (
    add_arg_scope, add_model_variable, arg_scope, arg_scope_func_key, arg_scoped_arguments, assert_global_step,
    assert_or_get_global_step, assign_from_checkpoint, assign_from_checkpoint_fn, assign_from_values,
    assign_from_values_fn, create_global_step, current_arg_scope, filter_variables, get_global_step,
    get_local_variables, get_unique_variable, get_variable_full_name, get_variables_by_suffix, global_variable,
    has_arg_scope, local_variable, VariableDeviceChooser)

_GraphKeys = tf.compat.v1.GraphKeys

get_or_create_global_step = tf.compat.v1.train.get_or_create_global_step


# TF 1.15's contrib.framework checkpoint helpers: tf.train's functions under TF 1.15's parameter names
# (tf.train renamed checkpoint_dir / filepattern to ckpt_dir_or_file; a keyword call by the old name fails).
def list_variables(checkpoint_dir):
  """[(name, shape)] of every variable in a checkpoint (a file prefix or a directory's latest)."""
  return tf.train.list_variables(checkpoint_dir)


def load_variable(checkpoint_dir, name):
  """The value of variable `name` in a checkpoint, as a numpy array."""
  return tf.train.load_variable(checkpoint_dir, name)


def load_checkpoint(filepattern):
  """A CheckpointReader for a checkpoint (a file prefix or a directory's latest)."""
  return tf.train.load_checkpoint(filepattern)


def init_from_checkpoint(checkpoint_dir, assignment_map):
  """Initializes the mapped variables from a checkpoint (tf.compat.v1.train.init_from_checkpoint)."""
  return tf.compat.v1.train.init_from_checkpoint(checkpoint_dir, assignment_map)


def variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=True,
             collections=None, caching_device=None, device=None, partitioner=None,
             custom_getter=None, use_resource=None,
             synchronization=tf.VariableSynchronization.AUTO,
             aggregation=tf.VariableAggregation.NONE):
  """Gets an existing variable with these parameters or creates a new one (`tf.get_variable`).

  Args:
    name: the variable's name inside the current variable scope.
    shape, dtype, initializer, regularizer, trainable, caching_device, partitioner,
      use_resource, synchronization, aggregation: as for `tf.compat.v1.get_variable`.
    collections: collections to add the variable to; default [GLOBAL_VARIABLES].
    device: optional device (string or function) to create the variable on.
    custom_getter: a getter with `tf.compat.v1.get_variable`'s signature to call instead.

  Returns:
    The created or existing variable.
  """
  collections = list(set(collections if collections is not None
                         else [_GraphKeys.GLOBAL_VARIABLES]))
  getter = tf.compat.v1.get_variable
  if custom_getter is not None:
    getter = functools.partial(custom_getter,
                               reuse=tf.compat.v1.get_variable_scope().reuse)
  with tf.compat.v1.device(device or ""):  # v1: device functions are allowed
    return getter(name, shape=shape, dtype=dtype, initializer=initializer,
                  regularizer=regularizer, trainable=trainable, collections=collections,
                  caching_device=caching_device, partitioner=partitioner,
                  use_resource=use_resource, synchronization=synchronization,
                  aggregation=aggregation)


def model_variable(name, shape=None, dtype=tf.float32, initializer=None, regularizer=None,
                   trainable=True, collections=None, caching_device=None, device=None,
                   partitioner=None, custom_getter=None, use_resource=None,
                   synchronization=tf.VariableSynchronization.AUTO,
                   aggregation=tf.VariableAggregation.NONE):
  """Like `variable`, and also adds the variable to GLOBAL_VARIABLES and MODEL_VARIABLES.

  Args:
    name, shape, dtype, initializer, regularizer, trainable, caching_device, device,
      partitioner, custom_getter, use_resource, synchronization, aggregation: as `variable`.
    collections: extra collections; GLOBAL_VARIABLES and MODEL_VARIABLES are always added.

  Returns:
    The created or existing variable.
  """
  collections = list(collections or []) + [_GraphKeys.GLOBAL_VARIABLES,
                                           _GraphKeys.MODEL_VARIABLES]
  return variable(name, shape=shape, dtype=dtype, initializer=initializer,
                  regularizer=regularizer, trainable=trainable, collections=collections,
                  caching_device=caching_device, device=device, partitioner=partitioner,
                  custom_getter=custom_getter, use_resource=use_resource,
                  synchronization=synchronization, aggregation=aggregation)


def get_variables(scope=None, suffix=None, collection=_GraphKeys.GLOBAL_VARIABLES):
  """The variables of `collection` whose names match `scope` (a prefix regex) and `suffix`.

  Args:
    scope: a variable scope or a string; names must start with it (regex `re.match`).
    suffix: names must end with it (before the ":0").
    collection: the graph collection to search; default GLOBAL_VARIABLES.

  Returns:
    A list of variables, in collection order.
  """
  if isinstance(scope, tf.compat.v1.VariableScope):
    scope = scope.name
  if suffix is not None:
    if ":" not in suffix:
      suffix += ":"
    scope = (scope or "") + ".*" + suffix
  return tf.compat.v1.get_collection(collection, scope)


def get_model_variables(scope=None, suffix=None):
  """`get_variables` over MODEL_VARIABLES."""
  return get_variables(scope, suffix, _GraphKeys.MODEL_VARIABLES)


def get_trainable_variables(scope=None, suffix=None):
  """`get_variables` over TRAINABLE_VARIABLES."""
  return get_variables(scope, suffix, _GraphKeys.TRAINABLE_VARIABLES)


def get_variables_by_name(given_name, scope=None):
  """The global variables whose last name component is `given_name`."""
  suffix = "/" + given_name + ":|^" + given_name + ":"
  return get_variables(scope=scope, suffix=suffix)


def get_variables_to_restore(include=None, exclude=None):
  """The global variables to hand to `tf.compat.v1.train.Saver` when restoring part of a model.

  Args:
    include: list/tuple of scope strings to take variables from; None takes all.
    exclude: list/tuple of scope strings whose variables are left out.

  Returns:
    A list of variables: those under `include` that are not under `exclude`.

  Raises:
    TypeError: if `include` or `exclude` is given but is not a list or tuple.
  """
  if include is None:
    candidates = get_variables()
  else:
    if not isinstance(include, (list, tuple)):
      raise TypeError("include must be a list or tuple of scope names; got a %s: %r"
                      % (type(include).__name__, include))
    candidates = [v for scope in include for v in get_variables(scope)]
  excluded = set()
  if exclude is not None:
    if not isinstance(exclude, (list, tuple)):
      raise TypeError("exclude must be a list or tuple of scope names; got a %s: %r"
                      % (type(exclude).__name__, exclude))
    for scope in exclude:
      excluded.update(get_variables(scope))
  return [v for v in candidates if v not in excluded]


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.compat.v1.train / tf.compat.v1 variable functions'

__getattr__ = _catalog.module_getattr(__name__)
