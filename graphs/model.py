"""The value every reference-graph builder in `graphs/` returns, and how its batches are seeded.

A builder (`graphs.lstm_classifier.build`, `graphs.cbow.build`, ...) adds placeholders,
variables and a loss to the caller's default graph and returns a `Model`. Tests, examples
and benchmarks then feed `model.make_batch(seed, batch_size)` to whatever gradient
pipeline they exercise (tf1clip.clipping <- transforms <- optimizer <- accumulation).
Batches are plain numpy: the same seed gives the same arrays in any graph, any process,
and (through `make_arrays`) in eager code that has no placeholders at all.
"""

import dataclasses
import numbers
from typing import Callable

import numpy as np


@dataclasses.dataclass(frozen=True, eq=False)
class Model:
  """What a reference-graph builder returns.

  Attributes:
    placeholders: dict name -> tf.compat.v1.placeholder the loss depends on.
    loss: scalar float32 Tensor.
    variables: list of the tf.Variables the builder created, in creation order.
    make_arrays: callable (seed, batch_size) -> dict name -> np.ndarray, keyed like
      `placeholders`; graph-independent, so eager code can use the same data.
  """
  placeholders: dict
  loss: object
  variables: list
  make_arrays: Callable

  def make_batch(self, seed, batch_size):
    """Returns a feed dict {placeholder: np.ndarray} of one synthetic batch.

    Args:
      seed: int, or a np.random.Generator to draw from.
      batch_size: positive int.

    Returns:
      dict placeholder -> np.ndarray, ready for `sess.run(..., feed_dict=...)`.
    """
    return self.feed(self.make_arrays(seed, batch_size))

  def feed(self, arrays):
    """Maps a dict name -> np.ndarray (from `make_arrays`) to a feed dict."""
    return {self.placeholders[name]: value for name, value in arrays.items()}


def batch_rng(seed):
  """Returns the numpy Generator a batch is drawn from.

  Args:
    seed: a non-negative int, or a np.random.Generator (returned as is, so a caller
      can draw many batches from one stream).

  Returns:
    np.random.Generator.

  Raises:
    TypeError: `seed` is neither.
  """
  if isinstance(seed, np.random.Generator):
    return seed
  if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0:
    return np.random.default_rng(int(seed))
  raise TypeError("`seed` must be a non-negative int or a np.random.Generator; got %r" % (seed,))


def task_rng(seed):
  """Returns the Generator of a builder's fixed synthetic task (teacher weights, chains).

  Seeded from the build seed through a different entropy path than `batch_rng`, so
  `build(seed=3)` and `make_batch(3, ...)` draw independent streams.
  """
  return np.random.default_rng([int(seed), 0x7A5C])


def check_batch_size(batch_size):
  """Raises ValueError unless `batch_size` is a positive int; returns it as int."""
  if (not isinstance(batch_size, numbers.Integral) or isinstance(batch_size, bool)
      or batch_size <= 0):
    raise ValueError("`batch_size` must be a positive int; got %r" % (batch_size,))
  return int(batch_size)


def check_sizes(**sizes):
  """Raises ValueError naming the first keyword argument that is not a positive int."""
  for name, value in sizes.items():
    if (not isinstance(value, numbers.Integral) or isinstance(value, bool) or value <= 0):
      raise ValueError("`%s` must be a positive int; got %r" % (name, value))


def op_seed(seed, index):
  """The op-level seed of a builder's `index`-th initializer.

  With the graph-level seed left unset, TF1 pairs an op seed with a fixed default graph
  seed, so these seeds alone make two builds (in two graphs) start from equal values.
  """
  return int(seed) * 1009 + index + 1
