"""Names and placeholders: scopes, placeholder names, corresponding ops across graphs (TF 1.15's util, part 3).

Place in the data flow (DESIGN.md): contrib.graph_editor's edit and transform modules name the ops they
create with these functions (placeholders standing for a detached input are named "geph__<tensor>_<i>",
as TF 1.15 named them, so code that looks them up by name still finds them).
"""

import re

import tensorflow as tf

from tf1clip.contrib.graph_editor import _op_lists

_PLACEHOLDER_PREFIX = "geph"


def scope_finalize(scope):
  """`scope` with a trailing "/" unless empty ("a/b" -> "a/b/")."""
  if scope and scope[-1] != "/":
    scope += "/"
  return scope


def scope_dirname(scope):
  """The parent scope with its trailing "/" ("a/b/c" -> "a/b/", "a/b/" -> "a/b/")."""
  slash = scope.rfind("/")
  return "" if slash == -1 else scope[:slash + 1]


def scope_basename(scope):
  """The last part of a scope ("a/b/c" -> "c", "a/b/" -> "")."""
  slash = scope.rfind("/")
  return scope if slash == -1 else scope[slash + 1:]


def placeholder_name(t=None, scope=None, prefix=_PLACEHOLDER_PREFIX):
  """The name TF 1.15 gave a placeholder standing for the tensor `t`.

  Args:
    t: the tf.Tensor it stands for, or None (then the name is "<scope><prefix>").
    scope: the scope to put it in; default: the scope of `t`'s op ("" when `t` is None).
    prefix: the name's prefix.

  Returns:
    "<scope><prefix>__<op base name>_<output index>" for a tensor, else "<scope><prefix>".

  Raises:
    TypeError: `t` is neither None nor a tf.Tensor.
  """
  if scope is not None:
    scope = scope_finalize(scope)
  if t is not None:
    if not isinstance(t, tf.Tensor):
      raise TypeError("Expected a tf.Tensor, got: %s" % type(t).__name__)
    op_dirname = scope_dirname(t.op.name)
    op_basename = scope_basename(t.op.name)
    if scope is None:
      scope = op_dirname
    if op_basename.startswith("%s__" % prefix):
      ph_name = op_basename
    else:
      ph_name = "%s__%s_%d" % (prefix, op_basename, t.value_index)
    return scope + ph_name
  return (scope or "") + prefix


def make_placeholder_from_tensor(t, scope=None, prefix=_PLACEHOLDER_PREFIX):
  """A placeholder of `t`'s dtype and shape, in the default graph, named by `placeholder_name`.

  Args:
    t: a tf.Tensor.
    scope: see `placeholder_name`.
    prefix: see `placeholder_name`.

  Returns:
    The placeholder tf.Tensor.
  """
  return tf.compat.v1.placeholder(dtype=t.dtype, shape=t.shape,
                                  name=placeholder_name(t, scope=scope, prefix=prefix))


def make_placeholder_from_dtype_and_shape(dtype, shape=None, scope=None, prefix=_PLACEHOLDER_PREFIX):
  """A placeholder of `dtype` and `shape` in the default graph, named "<scope><prefix>".

  Args:
    dtype: its tf.DType.
    shape: its shape (None: unknown).
    scope: the scope to create it in.
    prefix: its base name.

  Returns:
    The placeholder tf.Tensor.
  """
  return tf.compat.v1.placeholder(dtype=dtype, shape=shape,
                                  name=placeholder_name(scope=scope, prefix=prefix))


_INTERNAL_VARIABLE_RE = re.compile(r"^__\w+__$")


def get_predefined_collection_names():
  """The names of the collections tf.compat.v1.GraphKeys predefines (kept as is when copying)."""
  keys = tf.compat.v1.GraphKeys
  return [getattr(keys, key) for key in dir(keys)
          if not _INTERNAL_VARIABLE_RE.match(key) and isinstance(getattr(keys, key), str)]


def find_corresponding_elem(target, dst_graph, dst_scope="", src_scope=""):
  """The op or tensor of `dst_graph` that corresponds to `target` (same name, scopes swapped).

  Args:
    target: a tf.Operation or tf.Tensor.
    dst_graph: the tf.Graph to look in.
    dst_scope: the scope `target`'s counterpart is under.
    src_scope: the scope `target` is under (removed from its name).

  Returns:
    The tf.Operation or tf.Tensor.

  Raises:
    ValueError: `target`'s name is not under `src_scope`.
    TypeError: `target` is neither an op nor a tensor.
    KeyError: no such element in `dst_graph`.
  """
  src_name = target.name
  if src_scope:
    src_scope = scope_finalize(src_scope)
    if not src_name.startswith(src_scope):
      raise ValueError("%s does not start with %s" % (src_name, src_scope))
    src_name = src_name[len(src_scope):]
  dst_name = src_name
  if dst_scope:
    dst_name = scope_finalize(dst_scope) + dst_name
  if isinstance(target, tf.Tensor):
    return dst_graph.get_tensor_by_name(dst_name)
  if isinstance(target, tf.Operation):
    return dst_graph.get_operation_by_name(dst_name)
  raise TypeError("Expected tf.Tensor or tf.Operation, got: %s" % type(target).__name__)


def find_corresponding(targets, dst_graph, dst_scope="", src_scope=""):
  """`find_corresponding_elem` for each leaf of a nested structure `targets`, keeping its structure."""
  return _op_lists.transform_tree(
      targets, lambda top: find_corresponding_elem(top, dst_graph, dst_scope, src_scope))
