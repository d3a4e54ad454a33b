"""`tf.contrib.learn.io.data_feeder`: TF 1.15's data feeders, arrays (or iterators) to feed dicts for placeholders.

- `DataFeeder` samples mini-batches of `x` / `y` (arrays or dicts of arrays) into the placeholders it builds
  (`input_builder`: "input" / "output", or "input_<key>" / "output_<key>" for dicts). Its order is TF 1.15's:
  `np.random.RandomState(42)` permutations, a new one each epoch (in order without `shuffle`); labels are one-hot
  rows when `n_classes` > 1. Feed dicts are keyed by placeholder *names*, as TF 1.15's were.
- `StreamingDataFeeder` fills batches from iterators of samples, the shapes and dtypes read from the first ones.
- `DaskDataFeeder` samples a dask DataFrame (it needs dask).
- `setup_train_data_feeder` / `setup_predict_data_feeder` / `setup_processor_data_feeder` pick the feeder or
  split the data, pandas and dask inputs converted first when those libraries are installed.
TF 1.15's quirks a caller can see are kept: a partial last batch resizes `output_shape[0]` in place, and the
predict batches of an iterator are `np.matrix` values with a last (possibly empty) one.
"""

import itertools
import math

import numpy as np
import tensorflow as tf

import tf1clip.contrib.learn.io.dask_io as dask_io
import tf1clip.contrib.learn.io.pandas_io as pandas_io
from tf1clip.contrib import catalog as _catalog


# --- shapes, dtypes and element access shared by the feeders ------------------------------------------------------
def _each(value, fn):
  """`fn` applied to `value`, or to each of its values when it is a dict (keeping the keys)."""
  if isinstance(value, dict):
    return {key: fn(item) for key, item in value.items()}
  return fn(value)


def _classes_for(n_classes, key):
  """The `n_classes` entry of one label key (None: no one-hot conversion for it)."""
  if n_classes is None or key not in n_classes:
    return None
  return n_classes[key]


def _checked_batch_size(batch_size):
  if batch_size is not None and batch_size <= 0:
    raise ValueError("Invalid batch_size %d." % batch_size)
  return batch_size


def _in_out_shapes(x_shape, y_shape, n_classes, batch_size=None):
  """(input shape, output shape, batch size) of a feeder, each shape a list or a dict of lists.

  A feature of one value per sample gets a trailing dimension 1; a label's leading dimension 1 is dropped and,
  with `n_classes` > 1, a dimension of `n_classes` is added (the one-hot rows).
  """
  labels_by_key = isinstance(y_shape, dict)
  if labels_by_key and n_classes is not None:
    assert isinstance(n_classes, dict)
  if _checked_batch_size(batch_size) is None:
    first = next(iter(x_shape.values())) if isinstance(x_shape, dict) else x_shape
    batch_size = first[0]

  def feature_shape(shape):
    return [batch_size] + (list(shape[1:]) or [1])

  def label_shape(shape, classes):
    per_sample = list(shape[1:])
    if per_sample[:1] == [1]:
      per_sample = per_sample[1:]
    if classes is not None and classes > 1:
      per_sample.append(classes)
    return [batch_size] + per_sample

  input_shape = _each(x_shape, feature_shape)
  if y_shape is None:
    return input_shape, None, batch_size
  if labels_by_key:
    output_shape = {key: label_shape(shape, _classes_for(n_classes, key)) for key, shape in y_shape.items()}
  else:
    output_shape = label_shape(y_shape, n_classes)
  return input_shape, output_shape, batch_size


def _check_dtype(dtype):
  """`dtype`, with TF 1.15's warning when it is float64."""
  if tf.as_dtype(dtype) == tf.float64:
    tf.compat.v1.logging.warn("float64 is not supported by many models, consider casting to float32.")
  return dtype


def _access(data, where):
  """`data[where]` by position (a pandas object's `iloc`)."""
  if pandas_io.HAS_PANDAS and isinstance(data, (pandas_io.pd.Series, pandas_io.pd.DataFrame)):
    return data.iloc[where]
  return data[where]


def _is_iterable(x):
  """An iterator (what the streaming feeder and the predict batches read), not an array."""
  return hasattr(x, "next") or hasattr(x, "__next__")


def check_array(array, dtype):
  """`array` as an ndarray of `dtype` when it is an ndarray or a list (copied only when the dtype differs).

  Anything else (an h5py dataset, ...) is returned as it is, so it is never loaded whole into memory.
  """
  if isinstance(array, (np.ndarray, list)):
    return np.asarray(array, dtype=dtype)
  return array


# --- choosing the feeder, splitting data for predict --------------------------------------------------------------
def _as_arrays(x, y):
  """`x` and `y` with dask and pandas objects replaced by their values (when those libraries are installed)."""
  if dask_io.HAS_DASK:
    x = dask_io.extract_dask_data(x)
    y = y if y is None else dask_io.extract_dask_labels(y)
  if pandas_io.HAS_PANDAS:
    x = pandas_io.extract_pandas_data(x)
    y = y if y is None else pandas_io.extract_pandas_labels(y)
  return x, y


def _is_dask_frame(value):
  return dask_io.HAS_DASK and isinstance(value, (dask_io.dd.Series, dask_io.dd.DataFrame))


def setup_train_data_feeder(x, y, n_classes, batch_size=None, shuffle=True, epochs=None):
  """The feeder that samples `x` and `y` for training.

  Args:
    x: features: a numpy, pandas or dask matrix, a dict of them, or an iterator of samples.
    y: labels of the same kinds (None: no labels).
    n_classes: classes for one-hot labels (a dict when `y` is one), None to feed labels as they are.
    batch_size: samples per batch, >= 1.
    shuffle: whether to shuffle the samples.
    epochs: how many passes before the feeder raises StopIteration (None: no limit).

  Returns:
    A `StreamingDataFeeder` for iterators, a `DaskDataFeeder` for dask frames, else a `DataFeeder`.

  Raises:
    ValueError: `x` is an iterator and `y` is not.
  """
  x, y = _as_arrays(x, y)
  if _is_iterable(x):
    if y is not None and not _is_iterable(y):
      raise ValueError("Both x and y should be iterators for streaming learning to work.")
    return StreamingDataFeeder(x, y, n_classes, batch_size)
  dask_frames = _is_dask_frame(x) and (y is None or _is_dask_frame(y))
  feeder_class = DaskDataFeeder if dask_frames else DataFeeder
  return feeder_class(x, y, n_classes, batch_size, shuffle=shuffle, epochs=epochs)


def _batch_data(samples, batch_size=None):
  """Groups an iterator of samples (arrays or dicts of arrays) into `np.matrix` batches of `batch_size`.

  As TF 1.15's, the rest is yielded at the end, even when it is empty, and one batch of everything without
  `batch_size`.
  """
  _checked_batch_size(batch_size)
  first = next(samples)
  samples = itertools.chain([first], samples)
  if not isinstance(first, dict):
    rows = []
    for sample in samples:
      rows.append(sample)
      if batch_size is not None and len(rows) >= batch_size:
        yield np.matrix(rows)
        rows = []
    yield np.matrix(rows)
    return
  columns = {key: [] for key in first}
  last = first
  for last in samples:
    full = False
    for key, value in last.items():
      columns[key].append(value)
      if batch_size is not None and len(columns[key]) >= batch_size:
        columns[key] = np.matrix(columns[key])
        full = True
    if full:
      yield columns
      columns = {key: [] for key in first}
  for key in last:
    columns[key] = np.matrix(columns[key])
  yield columns


def setup_predict_data_feeder(x, batch_size=None):
  """The parts of `x` to predict on.

  Args:
    x: a numpy, pandas or dask array, or an iterator of samples.
    batch_size: samples per part; None makes one part of all of `x`.

  Returns:
    A list of slices of `x` (a vector becomes a column first), or for an iterator a generator of batches.

  Raises:
    ValueError: `batch_size` <= 0.
  """
  x, _ = _as_arrays(x, None)
  if _is_iterable(x):
    return _batch_data(x, batch_size)
  if len(x.shape) == 1:
    x = np.reshape(x, (-1, 1))
  if _checked_batch_size(batch_size) is None:
    return [x]
  parts = int(math.ceil(float(len(x)) / batch_size))
  return [x[start * batch_size:(start + 1) * batch_size] for start in range(parts)]


def setup_processor_data_feeder(x):
  """What a preprocessor iterates over: `x`, or a pandas object's values when pandas is installed."""
  if pandas_io.HAS_PANDAS:
    return pandas_io.extract_pandas_matrix(x)
  return x


def _placeholders(shape, dtype, name):
  """The placeholder(s) of a feeder's input or output: batch dimension None, one per key for dicts."""
  if shape is None:
    return None
  if isinstance(shape, dict):
    return {key: tf.compat.v1.placeholder(tf.as_dtype(dtype[key]), [None] + shape[key][1:], name=name + "_" + key)
            for key in shape}
  return tf.compat.v1.placeholder(tf.as_dtype(dtype), [None] + shape[1:], name=name)


def _one_hot_rows(data, shape, dtype, n_classes, rows):
  """The labels of samples `rows`: as they are, or one-hot along the last axis when `n_classes` > 1.

  `shape` (the feeder's output shape) gets its batch dimension set to `len(rows)`, in place, as TF 1.15 did.
  """
  shape[0] = rows.shape[0]
  labels = np.zeros(shape, dtype=dtype)
  one_hot = n_classes is not None and n_classes > 1
  for position, row in enumerate(rows):
    value = _access(data, row)
    if not one_hot:
      labels[position] = value
    elif len(shape) == 2:
      labels[position, int(value)] = 1.0
    else:
      for step, label in enumerate(value):
        labels[position, step, label] = 1.0
  return labels


def _sample_rows(data, rows):
  """The features of samples `rows`; a vector's as a column."""
  if len(data.shape) == 1:
    return np.array(_access(data, rows)).reshape((rows.shape[0], 1))
  return _access(data, rows)


class DataFeeder(object):
  """Samples mini-batches of in-memory arrays (or dicts of arrays) into placeholders, for a TF 1 trainer.

  Args:
    x: features, an array of shape [n_samples, ...] or a dict of such arrays.
    y: labels (class ids or regression values; a matrix is a sequence of labels), a dict of them, or None.
    n_classes: > 1 feeds class ids as one-hot rows; 0 and 1 mean regression; None feeds labels as they are.
      A dict of them when `y` is one.
    batch_size: samples per batch (None: all of them).
    shuffle: whether to sample in a random order.
    random_state: the `np.random.RandomState` of that order (RandomState(42) by default).
    epochs: passes over the data before the feed function raises StopIteration (None: no limit).

  Attributes:
    input_shape, output_shape: the batches' shapes (dicts for dict inputs); input_dtype, output_dtype likewise.
    indices, offset, epoch: where the sampling is.
  """

  def __init__(self, x, y, n_classes, batch_size=None, shuffle=True, random_state=None, epochs=None):
    if isinstance(y, list):
      y = np.array(y)
    labels_by_key = isinstance(y, dict)
    self._x = _each(x, lambda array: check_array(array, array.dtype))
    if y is None:
      self._y = None
    elif n_classes is not None and not labels_by_key:
      self._y = check_array(y, np.int64 if n_classes > 1 else np.float32)
    else:
      self._y = _each(y, lambda array: check_array(array, array.dtype))
    self.n_classes = n_classes
    self.max_epochs = epochs

    shape_of = lambda array: array.shape  # noqa: E731
    self.input_shape, self.output_shape, self._batch_size = _in_out_shapes(
        _each(self._x, shape_of), None if y is None else _each(self._y, shape_of), n_classes, batch_size)
    self._input_dtype = _each(self._x, lambda array: _check_dtype(array.dtype))
    if y is None:
      self._output_dtype = np.float32
    else:
      self._output_dtype = _each(self._y, lambda array: _check_dtype(array.dtype))
    if labels_by_key and n_classes is not None:
      # labels converted to one-hot (or given a class count at all) are fed as floats
      self._output_dtype.update({key: np.float32 for key in n_classes if key in self._output_dtype})

    self._shuffle = shuffle
    self.random_state = np.random.RandomState(42) if random_state is None else random_state
    self.indices = self._epoch_order(self._num_samples())
    self.offset = 0
    self.epoch = 0
    self._epoch_placeholder = None

  def _num_samples(self):
    if isinstance(self._x, dict):
      return next(iter(self._x.values())).shape[0]
    if tf.is_tensor(self._x):
      return tf.compat.dimension_value(self._x.shape[0])
    return self._x.shape[0]

  def _epoch_order(self, count):
    if self._shuffle:
      return self.random_state.permutation(count)
    return np.arange(count)

  x = property(lambda self: self._x)
  y = property(lambda self: self._y)
  shuffle = property(lambda self: self._shuffle)
  input_dtype = property(lambda self: self._input_dtype)
  output_dtype = property(lambda self: self._output_dtype)
  batch_size = property(lambda self: self._batch_size)

  def make_epoch_variable(self):
    """Adds the int32 placeholder "epoch" (shape [1]) that each feed dict fills with the current epoch."""
    self._epoch_placeholder = tf.compat.v1.placeholder(tf.int32, [1], name="epoch")
    return self._epoch_placeholder

  def input_builder(self):
    """Builds the placeholders of a batch: ("input" or {key: "input_<key>"}, "output"-named likewise or None)."""
    self._input_placeholder = _placeholders(self.input_shape, self._input_dtype, "input")
    self._output_placeholder = _placeholders(self.output_shape, self._output_dtype, "output")
    return self._input_placeholder, self._output_placeholder

  def set_placeholders(self, input_placeholder, output_placeholder):
    """Uses the given placeholders (of the samples' shapes; `output_placeholder` may be None)."""
    self._input_placeholder = input_placeholder
    self._output_placeholder = output_placeholder

  def _built_placeholders(self):
    if getattr(self, "_input_placeholder", None) is None:
      raise AttributeError("the feeder has no placeholders: call input_builder() or set_placeholders() first")
    return self._input_placeholder, getattr(self, "_output_placeholder", None)

  def get_feed_params(self):
    """{"epoch", "offset", "batch_size"}: where the sampling is."""
    return {"epoch": self.epoch, "offset": self.offset, "batch_size": self._batch_size}

  def _next_rows(self):
    """The sample indices of the next batch; moves on, starting a new epoch (and order) after the last one."""
    count = self._num_samples()
    rows = self.indices[self.offset:min(count, self.offset + self._batch_size)]
    self.offset += self._batch_size
    if self.offset >= count:
      self.indices = self._epoch_order(count)
      self.offset = 0
      self.epoch += 1
    return rows

  def get_feed_dict_fn(self):
    """A function returning the next batch's feed dict {placeholder name: values}; StopIteration after `epochs`."""

    def feed_dict_fn():
      if self.max_epochs is not None and self.epoch + 1 > self.max_epochs:
        raise StopIteration
      inputs, outputs = self._built_placeholders()
      feed = {}
      if self._epoch_placeholder is not None:
        feed[self._epoch_placeholder.name] = [self.epoch]
      rows = self._next_rows()
      if isinstance(self._x, dict):
        feed.update({inputs[key].name: _sample_rows(array, rows) for key, array in self._x.items()})
      else:
        feed[inputs.name] = _sample_rows(self._x, rows)
      if outputs is None:
        return feed
      if isinstance(self._y, dict):
        for key, labels in self._y.items():
          feed[outputs[key].name] = _one_hot_rows(labels, self.output_shape[key], self._output_dtype[key],
                                                  _classes_for(self.n_classes, key), rows)
      else:
        feed[outputs.name] = _one_hot_rows(self._y, self.output_shape, self._output_dtype, self.n_classes, rows)
      return feed

    return feed_dict_fn


def _streamed_label_dtype(sample):
  """The dtype of a streamed label: an array's own, a list's first element's, else its Python type's."""
  if isinstance(sample, np.ndarray):
    return sample.dtype
  if isinstance(sample, list):
    return _streamed_label_dtype(sample[0])
  return _check_dtype(np.dtype(type(sample)))


class StreamingDataFeeder(DataFeeder):
  """Fills mini-batches from iterators of samples (read as they come, from disk or a generator).

  Such iterators usually cycle over the data forever, leaving the trainer to decide how long to learn; a finite
  one ends the feeding with a last, shorter batch, then StopIteration.

  Args:
    x: an iterator of feature samples (arrays, or dicts of arrays).
    y: an iterator of label samples of the same kinds, or None.
    n_classes: classes of one-hot labels (a dict when `y` yields dicts; a missing key: no conversion).
    batch_size: samples per batch.
  """

  def __init__(self, x, y, n_classes, batch_size):  # pylint: disable=super-init-not-called
    first_x = next(x)
    self._x = itertools.chain([first_x], x)
    first_y = None
    self._y = None
    if y is not None:
      first_y = next(y)
      self._y = itertools.chain([first_y], y)
    self.n_classes = n_classes
    labels_by_key = isinstance(first_y, dict)
    if labels_by_key and n_classes is not None:
      assert isinstance(n_classes, dict)

    one_sample = lambda array: [1] + list(array.shape)  # noqa: E731
    if y is None:
      y_shape = None
    elif labels_by_key:
      y_shape = _each(first_y, one_sample)
    else:
      y_shape = one_sample(first_y[0] if isinstance(first_y, list) else first_y)
    self.input_shape, self.output_shape, self._batch_size = _in_out_shapes(
        _each(first_x, one_sample), y_shape, n_classes, batch_size)
    self._input_dtype = _each(first_x, lambda array: _check_dtype(array.dtype))
    # softmax and regression both want float labels: a class count makes the labels floats
    if n_classes is not None and not labels_by_key and n_classes > 0:
      self._output_dtype = np.float32
    elif y is None:
      self._output_dtype = None
    else:
      self._output_dtype = _each(first_y, _streamed_label_dtype)

  def get_feed_params(self):
    """{"batch_size"}: a stream has no position to report."""
    return {"batch_size": self._batch_size}

  def _put(self, batch, position, sample, n_classes):
    """Writes one sample at `position` of an array batch; a None sample cuts the batch to `position` rows."""
    if sample is None:
      return batch[:position]
    if n_classes is not None and n_classes > 1:
      if len(self.output_shape) == 2:  # TF 1.15 looks at the output shape (of a dict: its number of keys)
        batch[position, sample] = 1.0
      else:
        for step, label in enumerate(sample):
          batch[position, step, label] = 1.0
    elif len(batch.shape) > 1:
      batch[position, :] = sample
    else:
      batch[position] = sample[0] if isinstance(sample, list) else sample
    return batch

  def _put_each(self, batch, position, sample=None, n_classes=None):
    """`_put` for an array batch, or for each key of a dict batch."""
    if batch is None:
      return None
    if not isinstance(batch, dict):
      return self._put(batch, position, sample, n_classes)
    if sample is None:
      sample = dict.fromkeys(batch)
    assert isinstance(sample, dict)
    for key in batch:
      batch[key] = self._put(batch[key], position, sample[key], _classes_for(n_classes, key))
    return batch

  def get_feed_dict_fn(self):
    """A function returning the next batch's feed dict {placeholder name: values}; StopIteration at the end."""
    self.stopped = False

    def zeros(shape, dtype):
      if shape is None:
        return None
      if isinstance(shape, dict):
        return {key: np.zeros(shape[key], dtype[key]) for key in shape}
      return np.zeros(shape, dtype=dtype)

    def by_name(placeholders, values):
      if isinstance(values, dict):
        return {placeholders[key].name: values[key] for key in placeholders}
      return {placeholders.name: values}

    def feed_dict_fn():
      if self.stopped:
        raise StopIteration
      inputs = zeros(self.input_shape, self._input_dtype)
      outputs = zeros(self.output_shape, self._output_dtype)
      for position in range(self._batch_size):
        try:
          inputs = self._put_each(inputs, position, next(self._x))
        except StopIteration:
          self.stopped = True
          if position == 0:
            raise
          inputs = self._put_each(inputs, position)
          outputs = self._put_each(outputs, position)
          break
        if self._y is not None:
          outputs = self._put_each(outputs, position, next(self._y), self.n_classes)
      feed = by_name(self._input_placeholder, inputs)
      if self._y is not None:
        feed.update(by_name(self._output_placeholder, outputs))
      return feed

    return feed_dict_fn


class DaskDataFeeder(object):
  """Samples random fractions of a dask DataFrame (features and labels side by side) without loading it whole.

  Args:
    x: a dask DataFrame of features.
    y: a dask DataFrame (one column) of class ids.
    n_classes: classes of the labels.
    batch_size: samples per batch, on average (each batch is a random fraction of the rows).
    shuffle: kept, as TF 1.15 kept it.
    random_state: the seed of the split (66 by default); an int keeps the batches' sizes reproducible.
    epochs: kept as `epochs`.

  Raises:
    ValueError: `x` or `y` is a dict.
  """

  def __init__(self, x, y, n_classes, batch_size, shuffle=True, random_state=None, epochs=None):
    if isinstance(x, dict) or isinstance(y, dict):
      raise ValueError("DaskDataFeeder does not support dictionaries at the moment.")
    import dask.dataframe as dd  # pylint: disable=import-outside-toplevel
    self._x = x
    self._x_columns = list(x.columns)
    if isinstance(y.columns[0], str):
      self._y, self._y_columns = y, list(y.columns)
    else:
      # numeric default column names would collide with the features': give the labels one past them
      self._y_columns = len(self._x_columns) + 1
      self._y = y.rename(columns={y.columns[0]: self._y_columns})
    self.df = dd.multi.concat([self._x, self._y], axis=1)
    self.n_classes = n_classes
    self._shuffle = shuffle
    self.epochs = epochs
    rows = x.count().compute()[0]
    self.input_shape, self.output_shape, self._batch_size = _in_out_shapes(
        (rows, len(self._x.columns)), (rows, len(self._y.columns)), n_classes, batch_size)
    self.sample_fraction = self._batch_size / float(rows)
    self._input_dtype = _check_dtype(self._x.dtypes[0])
    self._output_dtype = _check_dtype(self._y.dtypes[self._y_columns])
    self.random_state = 66 if random_state is None else random_state

  def get_feed_params(self):
    """{"batch_size"}."""
    return {"batch_size": self._batch_size}

  def get_feed_dict_fn(self, input_placeholder, output_placeholder):
    """A function returning a random batch's feed dict: features, and labels one-hot up to the largest label."""

    def feed_dict_fn():
      chosen = self.df.random_split([self.sample_fraction, 1 - self.sample_fraction],
                                    random_state=self.random_state)[0]
      features = pandas_io.extract_pandas_matrix(chosen[self._x_columns].compute()).tolist()
      labels = pandas_io.extract_pandas_matrix(chosen[self._y_columns].compute())
      if pandas_io.HAS_PANDAS and not isinstance(labels, pandas_io.pd.Series):
        labels = labels.flatten()
      width = self._y.max().compute().values[0] + 1
      one_hot = np.zeros((labels.size, width), dtype=self._output_dtype)
      one_hot[np.arange(labels.size), labels] = 1
      return {input_placeholder.name: np.array(features, dtype=self._input_dtype),
              output_placeholder.name: one_hot}

    return feed_dict_fn


__getattr__ = _catalog.module_getattr(__name__)
