"""Training only some variables: choosing ``var_list``, and gradient-blocking helpers.

Three different tools answer "train only part of my model", and they are not interchangeable:

- ``var_list`` (``select_variables``): the optimizer computes and applies updates only for the
  listed variables; the others get no gradient, no slots (Adam's ``m``/``v``) and no update.
- ``tf.stop_gradient`` and the helpers here (``block_gradient``, ``scale_gradient``,
  ``reverse_gradient``): change how the gradient flows through one *path* of the graph; a
  variable reachable by another path still learns. The forward values are unchanged.
- ``tf.gradients(loss, x)`` evaluated on its own updates nothing: only an optimizer's apply op
  (or an explicit ``assign``) changes variables.

Place in the data flow (DESIGN.md): beside the transforms; ``tf1clip.transforms.freeze``
accepts a ``select_variables`` result to drop gradients inside a wrapped optimizer.
"""

import re
from typing import Any, List, Optional, Sequence, Union

import tensorflow as tf

from tf1clip import validation


def _name(var):
  return re.sub(r":\d+$", "", var.name)


def _as_list(x):
  if x is None:
    return []
  return list(x) if isinstance(x, (list, tuple, set)) else [x]


def _in_scope(name, scope):
  scope = scope.rstrip("/")
  return name == scope or name.startswith(scope + "/")


def _existing_scopes(names):
  scopes = set()
  for n in names:
    parts = n.split("/")[:-1]
    scopes.update("/".join(parts[:i + 1]) for i in range(len(parts)))
  return sorted(scopes)


def select_variables(scope: Union[None, str, Sequence[str]] = None, regex: Optional[str] = None,
                     collection: Any = tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES,
                     exclude: Any = None) -> List[Any]:
  """Chooses variables by scope, regular expression, collection and exclusions, for ``var_list``.

  Example::

    # Fine-tune the classifier head only; the encoder keeps its weights and gets no slots.
    train_op = opt.minimize(loss, var_list=tf1clip.select_variables(exclude="encoder"))

  Args:
    scope: a scope name or list of them; a variable is kept when its name is the scope or lies
      under it (``"enc"`` matches ``"enc/w"``, not ``"enc_1/w"`` as ``tf.get_collection``'s
      ``re.match`` would). None keeps all.
    regex: a regular expression searched (``re.search``) in the variable name without its
      ``:0`` suffix; None keeps all.
    collection: the graph collection to choose from (default TRAINABLE_VARIABLES), or a list of
      variables (e.g. a Keras model's ``trainable_variables`` when running eagerly).
    exclude: a scope name, a variable, or a list of them, removed from the selection.

  Returns:
    The selected variables, in collection order.

  Raises:
    ValueError: if nothing is selected (the message lists the scopes that exist), or `regex` is
      not a valid regular expression.
    TypeError: if a `scope` entry is not a string, or an `exclude` entry is neither a string nor
      a variable.
  """
  if isinstance(collection, str):
    candidates = tf.compat.v1.get_collection(collection)
    source = "collection %r" % collection
  else:
    candidates = list(collection)
    source = "the given variables"
  scopes = _as_list(scope)
  for s in scopes:
    if not isinstance(s, str):
      raise TypeError("`scope` must be a scope name or a list of them; got a %s: %r."
                      % (type(s).__name__, s))
  excluded_scopes, excluded_refs = [], set()
  for x in _as_list(exclude):
    if isinstance(x, str):
      excluded_scopes.append(x)
    elif hasattr(x, "ref"):
      excluded_refs.add(x.ref())
    else:
      raise TypeError("exclude entries must be scope names or variables; got a %s: %r"
                      % (type(x).__name__, x))
  pattern = validation.regex(regex, "regex") if regex is not None else None
  selected = []
  for v in candidates:
    n = _name(v)
    if scopes and not any(_in_scope(n, s) for s in scopes):
      continue
    if pattern is not None and not pattern.search(n):
      continue
    if v.ref() in excluded_refs or any(_in_scope(n, s) for s in excluded_scopes):
      continue
    selected.append(v)
  if not selected:
    names = [_name(v) for v in candidates]
    if not names:
      raise ValueError("select_variables: %s holds no variables (build the model first)." % source)
    raise ValueError(
        "select_variables(scope=%r, regex=%r, exclude=%r) matched none of the %d variables of %s. "
        "Scopes that exist: %s. Variables: %s."
        % (scope, regex, exclude, len(names), source, _existing_scopes(names), names))
  return selected


def block_gradient(x, mask, name=None):
  """Identity forward; the gradient is zero wherever `mask` is True.

  A masked ``tf.stop_gradient``: e.g. keep the pretrained rows of an embedding fixed while new
  rows learn, ``block_gradient(tf.gather(emb, ids), is_pretrained_row)``.

  Args:
    x: a Tensor.
    mask: a boolean Tensor (or array) broadcastable to `x`; True blocks the gradient.
    name: optional name.

  Returns:
    A Tensor equal to `x`.
  """
  with tf.name_scope(name or "block_gradient"):
    x = tf.convert_to_tensor(x)
    mask = tf.convert_to_tensor(mask, dtype=tf.bool)
    return tf.where(mask, tf.stop_gradient(x), x)


def scale_gradient(x, factor, name=None):
  """Identity forward; the gradient flowing back through `x` is multiplied by `factor`.

  Args:
    x: a floating Tensor.
    factor: a number or scalar Tensor (0 acts as ``tf.stop_gradient``, negative reverses).
    name: optional name.

  Returns:
    A Tensor equal to `x` (bit for bit).
  """
  with tf.name_scope(name or "scale_gradient"):
    x = tf.convert_to_tensor(x)

    @tf.custom_gradient
    def scaled_identity(t):
      def grad(dy):
        return dy * tf.cast(factor, dy.dtype)
      return tf.identity(t), grad

    return scaled_identity(x)


def reverse_gradient(x, factor=1.0, name=None):
  """Gradient reversal layer: identity forward, gradient multiplied by ``-factor`` backward.

  Args:
    x: a floating Tensor.
    factor: the reversal strength (lambda in the paper); a number or scalar Tensor.
    name: optional name.

  Returns:
    A Tensor equal to `x`.

  References:
    Ganin, Lempitsky, "Unsupervised Domain Adaptation by Backpropagation", ICML 2015
    (arXiv:1409.7495).
  """
  return scale_gradient(x, -tf.convert_to_tensor(factor) if tf.is_tensor(factor) else -factor,
                        name=name or "reverse_gradient")
