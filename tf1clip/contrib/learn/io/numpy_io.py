"""`tf.contrib.learn.io.numpy_io`: numpy_input_fn, tf.estimator's (tensorflow-estimator 2.15) with `shuffle=True`.

Place in the data flow (DESIGN.md): tensorflow_estimator (through shims.tensorflow_estimator) <-
**contrib.learn.io.numpy_io** <- contrib.learn.io <- contrib.learn <- compat <- cli.

TF 1.15's contrib version only differed from `tf.compat.v1.estimator.inputs.numpy_input_fn` by its default
`shuffle=True` (the core one insists on an explicit bool); the queues, their names and the batches are the
library's, the same code TF 1.15 ran.
"""

from tf1clip.contrib import catalog as _catalog


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=True, queue_capacity=1000, num_threads=1):
  """An input_fn feeding the dict of arrays `x` (and `y`) through a queue; this one shuffles by default."""
  from tf1clip.shims import tensorflow_estimator as estimator_shim  # pylint: disable=import-outside-toplevel
  return estimator_shim.v1_api().inputs.numpy_input_fn(
      x=x, y=y, batch_size=batch_size, shuffle=shuffle, num_epochs=num_epochs, queue_capacity=queue_capacity,
      num_threads=num_threads)


__getattr__ = _catalog.module_getattr(__name__)
