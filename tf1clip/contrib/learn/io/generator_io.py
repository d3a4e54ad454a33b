"""`tf.contrib.learn.io.generator_io`: generator_input_fn (dicts of arrays from a generator, queued), TF 1.15's code.

Place in the data flow (DESIGN.md): tensorflow_estimator's feeding functions (through shims.tensorflow_estimator) <-
**contrib.learn.io.generator_io** <- contrib.learn.io <- contrib.learn <- compat <- cli.

The queue and its feeding runner are tensorflow-estimator 2.15's `_enqueue_data` (the library TF 1.15 itself
called; it has no public name), so the queue, its QueueRunner and the `enqueue_input` name scope are TF 1.15's.
"""

import collections.abc
import types

from tf1clip.contrib import catalog as _catalog


def _enqueue_data(*args, **kwargs):
  # catalog.resolve applies tensorflow-estimator's shim before importing it
  enqueue_data = _catalog.resolve("tensorflow_estimator.python.estimator.inputs.queues.feeding_functions:"
                                  "_enqueue_data")
  return enqueue_data(*args, **kwargs)


def generator_input_fn(x, target_key=None, batch_size=128, num_epochs=1, shuffle=True, queue_capacity=1000,
                       num_threads=1, pad_value=None):
  """An input_fn of the dicts of arrays the generator function `x` yields (one sample each), batched.

  Args:
    x: Generator function returning a generator that yields dicts of numpy arrays (one epoch).
    target_key: String or Container of strings: the key(s) of the yielded dicts to use as target.
    batch_size: Integer, size of batches to return.
    num_epochs: Integer, number of epochs to iterate over data. If `None` will run forever.
    shuffle: Boolean, if True shuffles the queue.
    queue_capacity: Integer, size of queue to accumulate.
    num_threads: Integer, number of threads used for reading and enqueueing.
    pad_value: default value for dynamic padding of data samples, if provided.

  Returns:
    A function returning a feature dict of Tensors and, with `target_key`, a label Tensor (or dict of them).

  Raises:
    TypeError: `x` is not a function, `x()` not a generator, `next(x())` not a dict, or `target_key` not a str
      or Container of str.
    KeyError: a `target_key` is not a key of the yielded dicts.
  """
  if not isinstance(x, types.FunctionType):
    raise TypeError("x must be generator function; got {}".format(type(x).__name__))
  generator = x()
  if not isinstance(generator, types.GeneratorType):
    raise TypeError("x() must be generator; got {}".format(type(generator).__name__))
  data = next(generator)
  if not isinstance(data, dict):
    raise TypeError("x() must yield dict; got {}".format(type(data).__name__))
  input_keys = sorted(next(x()).keys())
  if target_key is not None:
    if isinstance(target_key, str):
      target_key = [target_key]
    elif isinstance(target_key, collections.abc.Container):
      for item in target_key:
        if not isinstance(item, str):
          raise TypeError("target_key must be str or Container of str; got {}".format(type(item).__name__))
        if item not in input_keys:
          raise KeyError("target_key not in yielded dict. Expected {} keys; got {}".format(input_keys, item))
    else:
      raise TypeError("target_key must be str or Container of str; got {}".format(type(target_key).__name__))

  def _generator_input_fn():
    """generator input function."""
    queue = _enqueue_data(x, queue_capacity, shuffle=shuffle, num_threads=num_threads, enqueue_size=batch_size,
                          num_epochs=num_epochs, pad_value=pad_value)
    features = (queue.dequeue_many(batch_size) if num_epochs is None else queue.dequeue_up_to(batch_size))
    if not isinstance(features, list):
      features = [features]
    features = dict(zip(input_keys, features))
    if target_key is not None:
      if len(target_key) > 1:
        target = {key: features.pop(key) for key in target_key}
      else:
        target = features.pop(target_key[0])
      return features, target
    return features

  return _generator_input_fn


__getattr__ = _catalog.module_getattr(__name__)
