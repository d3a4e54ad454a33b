"""`tf.contrib.batching.batch_function`: batch concurrent calls of a function (TF 1.15's return value).

TensorFlow's `nondifferentiable_batch_function` (TF 1.15's contrib name pointed to the same op) runs the
computation; TF 1.15's decorated function returned the op's outputs as a flat list of tensors (one element for
a single output), TF 2.21's packs them into the function's own structure. This decorator returns TF 1.15's list.
"""

import functools

import tensorflow as tf
from tf1clip.contrib import catalog as _catalog


def batch_function(num_batch_threads, max_batch_size, batch_timeout_micros,
                   allowed_batch_sizes=None, max_enqueued_batches=10, autograph=True):
  """A decorator batching the calls of a function of Tensors; the call returns a list of Tensors."""
  batcher = tf.nondifferentiable_batch_function(
      num_batch_threads, max_batch_size, batch_timeout_micros,
      allowed_batch_sizes=allowed_batch_sizes, max_enqueued_batches=max_enqueued_batches,
      autograph=autograph)

  def decorator(fn):
    batched = batcher(fn)

    @functools.wraps(fn)
    def decorated(*args):
      return tf.nest.flatten(batched(*args))
    return decorated
  return decorator


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = "TensorFlow Serving's batching"

__getattr__ = _catalog.module_getattr(__name__)
