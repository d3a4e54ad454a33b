"""`tensorflow.contrib.estimator.python.estimator.extenders`: TF 1.15's `clip_gradients_by_norm`, its numbers.

TF 1.15's `tf.contrib.estimator.clip_gradients_by_norm(optimizer, clip_norm)` wrapped the optimizer so that
`apply_gradients` first ran `tf.clip_by_global_norm` over the gradients. That function measured an
`IndexedSlices` gradient row by row as listed: an embedding row looked up twice in a batch counts twice in the
norm, not once with the two rows summed. tf1clip's public `tf1clip.clip_gradients_by_norm` measures the gradient
as it is applied (repeated rows summed) by default; this module serves TF 1.15's name with TF 1.15's result, so
a script that uses it (or whose `tf.contrib.estimator` name `tf1clip upgrade` rewrites) trains as it did.

`add_metrics` and `forward_features` lived in the same TF 1.15 module; they are served from the package
(`tf1clip.contrib.estimator`), and bound here under this module path too.

Place in the data flow (DESIGN.md): optimizer <- **contrib.estimator.python.estimator.extenders** <-
contrib.estimator <- compat.
"""

from tf1clip import clipping
from tf1clip import optimizer as optimizer_lib


def clip_gradients_by_norm(optimizer, clip_norm):
  """An optimizer that scales all gradients together to global norm <= `clip_norm`, then applies them.

  TF 1.15's `tf.contrib.estimator.clip_gradients_by_norm`: the same signature and numbers, sparse gradients'
  repeated rows each counted as listed (`repeated_rows="as_listed"`). The wrapper is named
  `"ClipByNorm" + optimizer.get_name()`, as TF 1.15's; the inner optimizer owns every slot, so checkpoint keys
  are the inner optimizer's.

  Example::

    optimizer = tf.contrib.estimator.clip_gradients_by_norm(
        tf.train.ProximalAdagradOptimizer(learning_rate=0.1), clip_norm=5.0)

  Args:
    optimizer: a `tf.compat.v1.train.Optimizer`.
    clip_norm: a positive number or scalar `Tensor`.

  Returns:
    A `tf1clip.WrappedOptimizer` (a `tf.compat.v1.train.Optimizer`).

  Raises:
    TypeError: `optimizer` is not an Optimizer.
    ValueError: `clip_norm` is a number <= 0.
  """
  return optimizer_lib.clip_gradients_by_norm(optimizer, clip_norm, repeated_rows=clipping.AS_LISTED)


def __getattr__(name):
  # add_metrics / forward_features: the package's objects (it imports this module, so bind them on first use).
  if name in ("add_metrics", "forward_features"):
    import tf1clip.contrib.estimator as package  # pylint: disable=import-outside-toplevel
    return getattr(package, name)
  raise AttributeError("module %r has no attribute %r" % (__name__, name))
