"""`tf.contrib.timeseries`' input pipeline: the readers that bring a series into the graph and the input_fns that
window and batch it.

Place in the data flow (DESIGN.md): tf.compat.v1's readers and queues (TextLineReader, TFRecordReader,
string_input_producer, train.batch / maybe_shuffle_batch), tensorflow-estimator 2.15's numpy_input_fn and
timeseries feature keys <- **contrib.timeseries.input_pipeline** <- a script's Estimator.train / evaluate /
predict, and saved_model_utils (which shares the NumPy shape rules).

A series travels as a dictionary of features: `TrainEvalFeatures.TIMES` (one integer per step),
`TrainEvalFeatures.VALUES` (one or more floats per step) and any exogenous feature, every one with the step as its
leading dimension. Two layers:

* readers (`TimeSeriesReader`): `read()` hands out a chunk of consecutive records (which may wrap around to the
  start of the data), `read_full()` the whole series. `NumpyReader` serves a dictionary of arrays through
  numpy_input_fn's queue; the file readers (`CSVReader`, `TFExampleReader`) sit on a tf.compat.v1 `ReaderBase`
  whose filename queue is guarded by a local counter, so that files without a single record end in
  OutOfRangeError instead of an endless loop.
* input_fns (`TimeSeriesInputFn`, callable as an Estimator input_fn): `WholeDatasetInputFn` gives the whole series
  as a batch of one; `RandomWindowInputFn` cuts windows of `window_size` consecutive records in a FIFO queue and
  shuffles them into batches of `batch_size`, dropping (or, with `discard_out_of_order=False`, re-ordering as TF
  1.15 did) windows whose times go backwards; `predict_continuation_input_fn` starts predictions from the state an
  evaluation ended in.

Everything runs on queue runners, as in TF 1.15: a `MonitoredSession` (or an Estimator) starts them. With
`num_threads=1`, `jitter=False`, a `shuffle_seed` and a shuffling queue that is full at each dequeue
(`queue_capacity_multiplier = shuffle_min_after_dequeue_multiplier + 1`) the batches are the same as TF 1.15's.
"""

import numpy
import tensorflow as tf

from tensorflow_estimator.python.estimator.canned.timeseries import feature_keys
from tensorflow_estimator.python.estimator.canned.timeseries import model_utils
from tensorflow_estimator.python.estimator.inputs import numpy_io

_v1 = tf.compat.v1
_TIMES = feature_keys.TrainEvalFeatures.TIMES
_VALUES = feature_keys.TrainEvalFeatures.VALUES


# --- predictions after an evaluation ----------------------------------------------------------------------------

def predict_continuation_input_fn(evaluation, steps=None, times=None, exogenous_features=None):
  """Builds the input_fn of a `predict()` that carries on from the end of `evaluate()`.

  Args:
    evaluation: what the Estimator's `evaluate` returned (it holds `FilteringResults.STATE_TUPLE` and
      `FilteringResults.TIMES`). A batched evaluation gives a batch of continuations.
    steps: how many steps after the evaluated data to predict. Exactly one of `steps` and `times` is given.
    times: the (integer, NumPy) times to predict, each after its evaluation window: shape [batch, window], or
      [window] for a batch of one.
    exogenous_features: optional dictionary of exogenous features for the predicted steps, each shaped
      [batch, window, ...] with the window of `steps` / `times`.

  Returns:
    A function returning `(features, None)`; each feature is produced once, so `predict()` stops after it.

  Raises:
    ValueError: if `steps` and `times` are both given, neither is, or they do not fit the evaluation.
  """
  predicted_times = model_utils.canonicalize_times_or_steps_from_output(
      times=times, steps=steps, previous_model_output=evaluation)
  features = {
      feature_keys.PredictionFeatures.STATE_TUPLE: evaluation[feature_keys.FilteringResults.STATE_TUPLE],
      feature_keys.PredictionFeatures.TIMES: predicted_times,
  }
  features.update(exogenous_features or {})

  def _once(value):
    return _v1.train.limit_epochs(value, num_epochs=1)

  def input_fn():
    return {name: tf.nest.map_structure(_once, feature) for name, feature in features.items()}, None

  return input_fn


# --- readers ----------------------------------------------------------------------------------------------------

class TimeSeriesReader(object):
  """Where a `TimeSeriesInputFn` gets its records from: `read()` for a chunk, `read_full()` for all of them.

  Both return a dictionary of feature name -> Tensor whose first dimension runs over records (see the module
  docstring for the features). Readers are building blocks of input_fns, not input_fns themselves.
  """

  def check_dataset_size(self, minimum_dataset_size):
    """Raises ValueError when the data is known to hold fewer than `minimum_dataset_size` records.

    Readers that cannot know their size (files) accept any size.
    """
    del minimum_dataset_size

  def read(self):
    """Returns a chunk of consecutive records (its size is the reader's business; it may wrap around)."""
    raise NotImplementedError("%s does not implement read()" % type(self).__name__)

  def read_full(self):
    """Returns every record, the same on every run of the graph (re-read each time)."""
    raise NotImplementedError("%s does not implement read_full()" % type(self).__name__)


class NumpyReader(TimeSeriesReader):
  """Serves a series held in NumPy arrays, fed through a queue rather than baked into the graph as constants."""

  def __init__(self, data, read_num_records_hint=4096):
    """Takes the series.

    Args:
      data: dictionary of feature name -> array with `TrainEvalFeatures.TIMES` ([length]) and
        `TrainEvalFeatures.VALUES` ([length] for one feature, [length, features] for several); every other
        feature's shape also starts with [length].
      read_num_records_hint: how many records one `read()` hands out.

    Raises:
      ValueError: if TIMES or VALUES is missing, a shape does not start with the times' shape, or the arrays
        hold a batch of series.
    """
    self._features = _canonicalize_numpy_data(data, require_single_batch=True)
    self._read_num_records_hint = read_num_records_hint

  def check_dataset_size(self, minimum_dataset_size):
    length = self._features[_TIMES].shape[1]
    if length < minimum_dataset_size:
      raise ValueError(
          "The input_fn wants windows of {} records but the NumpyReader's series has only {}: use a smaller "
          "window_size or a longer series.".format(minimum_dataset_size, length))

  def read(self):
    series = {name: array[0] for name, array in self._features.items()}  # drop the batch of one
    return numpy_io.numpy_input_fn(
        x=series, batch_size=self._read_num_records_hint, num_epochs=None, shuffle=False)()

  def read_full(self):
    # Each queue element is a copy of the whole series; keep two.
    whole = numpy_io.numpy_input_fn(
        x=self._features, batch_size=1, num_epochs=None, queue_capacity=2, shuffle=False)()
    return {name: _v1.squeeze(tensor, axis=0) for name, tensor in whole.items()}


def _local_int64_counter(name):
  """A local (not checkpointed), non-trainable int64 variable starting at 0."""
  return _v1.Variable(initial_value=_v1.constant(0, dtype=tf.int64), name=name, trainable=False,
                      collections=[_v1.GraphKeys.LOCAL_VARIABLES])


def _once_initialized(counter, step):
  """`step()` (an int64 Tensor) once `counter` is initialized, 0 before.

  Queue runners start before local variables are initialized, so a counter cannot be relied on from the first
  run; its limit takes effect as soon as it is initialized.
  """
  return _v1.cond(_v1.is_variable_initialized(counter), step, lambda: _v1.constant(0, dtype=tf.int64))


class ReaderBaseTimeSeriesParser(TimeSeriesReader):
  """A reader of record files through a tf.compat.v1 `ReaderBase`; subclasses say which one and how to parse.

  Subclasses implement `_get_reader()` (a new `ReaderBase`) and `_process_records(lines)` (a 1-D string Tensor of
  records -> feature dictionary with that many rows).
  """

  def __init__(self, filenames, read_num_records_hint=4096):
    """Takes the files.

    Args:
      filenames: a file name or a list of them.
      read_num_records_hint: about how many records one `read()` hands out.
    """
    self._filenames = filenames
    self._read_num_records_hint = read_num_records_hint

  def _get_reader(self):
    raise NotImplementedError("%s does not implement _get_reader()" % type(self).__name__)

  def _process_records(self, lines):
    raise NotImplementedError("%s does not implement _process_records()" % type(self).__name__)

  def _limited_filename_queue(self, epoch_limit):
    """The files as a FIFO queue that stops (OutOfRangeError) after `epoch_limit` passes.

    Returns (queue, counter): the counter of passes, to be reset to 0 before each read so that the limit only
    catches files that hold no record at all.
    """
    passes = _local_int64_counter("epoch_limiter")
    names = _v1.reshape(_v1.convert_to_tensor(self._filenames), [-1])
    with _v1.control_dependencies([_once_initialized(passes, lambda: passes.count_up_to(epoch_limit))]):
      names = _v1.identity(names)
    return _v1.train.string_input_producer(names, shuffle=False, capacity=1), passes

  def read(self):
    # A chunk of `hint` records never needs more than `hint` passes over the files, unless they are empty.
    queue, passes = self._limited_filename_queue(epoch_limit=self._read_num_records_hint)
    reader = self._get_reader()
    with _v1.control_dependencies([_v1.assign(passes, 0)]):
      _, records = reader.read_up_to(queue, self._read_num_records_hint)
    return self._process_records(records)

  def read_full(self):
    # One pass: read until the first record's key comes round again. That takes the first record of a second
    # pass, so the limit is two passes (reached only when the files hold nothing).
    reader = self._get_reader()
    queue, passes = self._limited_filename_queue(epoch_limit=2)
    with _v1.control_dependencies([_v1.assign(passes, 0)]):
      start_key, start_record = reader.read_up_to(queue, 1)
    start_key = _v1.squeeze(start_key, axis=0)

    def not_round_yet(key, record, count, collected):
      del record, count, collected
      return _v1.not_equal(_v1.squeeze(key, axis=0), start_key)

    def keep_and_read_next(key, record, count, collected):
      del key
      next_key, next_record = reader.read_up_to(queue, 1)
      next_key.set_shape([1])
      next_record.set_shape([1])
      return next_key, next_record, count + 1, collected.write(count, record)

    collected = _v1.TensorArray(dtype=tf.string, size=0, dynamic_size=True)
    loop_vars = [_v1.constant([""]), start_record, 0, collected]
    records = _v1.while_loop(not_round_yet, keep_and_read_next, loop_vars)[3].concat()
    # Rewind, so that the next run reads the series from its start again.
    with _v1.control_dependencies([records]):
      rewind = reader.reset()
    with _v1.control_dependencies([rewind]):
      records = _v1.identity(records)
    return self._process_records(records)


def _check_column_names(column_names, column_dtypes):
  for required in (_TIMES, _VALUES):
    if required not in column_names:
      raise ValueError("CSVReader: column_names must name a '{}' column (got {}).".format(required, column_names))
  if column_dtypes is not None and len(column_dtypes) != len(column_names):
    raise ValueError("CSVReader: column_dtypes needs one dtype per column of column_names, got column_dtypes={} "
                     "for column_names={}.".format(column_dtypes, column_names))
  if list(column_names).count(_TIMES) != 1:
    raise ValueError("CSVReader: column_names must name exactly one '{}' column (got {}).".format(
        _TIMES, column_names))


class CSVReader(ReaderBaseTimeSeriesParser):
  """Reads a series from CSV files, one record per line."""

  def __init__(self, filenames, column_names=(_TIMES, _VALUES), column_dtypes=None, skip_header_lines=None,
               read_num_records_hint=4096):
    """Takes the files and their columns.

    Args:
      filenames: a file name or a list of them; each line holds one value per entry of `column_names`.
      column_names: the feature each column goes to: one `TrainEvalFeatures.TIMES`, at least one
        `TrainEvalFeatures.VALUES` (repeated for a multivariate series; repeated names are stacked, in order) and
        any exogenous feature.
      column_dtypes: optional, one dtype per column (then a missing field reads as 0). By default times are
        int64 and every other column a required float32.
      skip_header_lines: lines to skip at the top of each file (tf.compat.v1.TextLineReader's argument).
      read_num_records_hint: about how many lines one `read()` parses.

    Raises:
      ValueError: if TIMES or VALUES is missing, TIMES is repeated, or `column_dtypes` does not match
        `column_names` in length.
    """
    _check_column_names(column_names, column_dtypes)
    self._column_names = column_names
    self._column_dtypes = column_dtypes
    self._skip_header_lines = skip_header_lines
    super(CSVReader, self).__init__(filenames=filenames, read_num_records_hint=read_num_records_hint)

  def _get_reader(self):
    return _v1.TextLineReader(skip_header_lines=self._skip_header_lines)

  def _record_defaults(self):
    if self._column_dtypes is not None:
      return [(_v1.zeros([], dtype),) for dtype in self._column_dtypes]
    # times default to 0; the other columns have no default (a required float32)
    return [(_v1.zeros([], tf.int64),) if name == _TIMES else () for name in self._column_names]

  def _process_records(self, lines):
    fields = _v1.decode_csv(lines, self._record_defaults())
    by_feature = {}
    for name, field in zip(self._column_names, fields):
      by_feature.setdefault(name, []).append(field)
    return {name: group[0] if name == _TIMES else _v1.stack(group, axis=1) for name, group in by_feature.items()}


class TFExampleReader(ReaderBaseTimeSeriesParser):
  """Reads a series from TFRecord files of `tf.Example`s, one record per example."""

  def __init__(self, filenames, features):
    """Takes the files and how to parse their examples.

    Args:
      filenames: a file name or a list of them.
      features: dictionary of feature name -> `tf.io.FixedLenFeature`, including `TrainEvalFeatures.TIMES` (an
        integer scalar) and `TrainEvalFeatures.VALUES` (a float vector).

    Raises:
      ValueError: if TIMES or VALUES is missing from `features`.
    """
    for required in (_TIMES, _VALUES):
      if required not in features:
        raise ValueError("TFExampleReader: features must describe a '{}' feature (got {}).".format(
            required, sorted(features)))
    self._features = features
    super(TFExampleReader, self).__init__(filenames=filenames)

  def _get_reader(self):
    return _v1.TFRecordReader()

  def _process_records(self, examples):
    return _v1.parse_example(serialized=examples, features=self._features)


# --- input_fns --------------------------------------------------------------------------------------------------

class TimeSeriesInputFn(object):
  """An Estimator input_fn that turns a reader's records into batches: call it, or its `create_batch()`.

  `create_batch()` returns `(features, None)`: TIMES shaped [batch, window], VALUES [batch, window, features],
  every other feature [batch, window, ...]; time series Estimators take no labels.
  """

  def create_batch(self):
    raise NotImplementedError("%s does not implement create_batch()" % type(self).__name__)

  def __call__(self):
    return self.create_batch()


class WholeDatasetInputFn(TimeSeriesInputFn):
  """The whole series as one batch of one window, for evaluation, plots and `predict_continuation_input_fn`.

  Reads everything on each run; not meant for training (use `RandomWindowInputFn`).
  """

  def __init__(self, time_series_reader):
    """Takes the `TimeSeriesReader` to read from."""
    self._reader = time_series_reader
    super(WholeDatasetInputFn, self).__init__()

  def create_batch(self):
    whole = self._reader.read_full()
    return {name: tensor[None, ...] for name, tensor in whole.items()}, None


class RandomWindowInputFn(TimeSeriesInputFn):
  """Batches of random windows of consecutive records, for training and quantitative evaluation.

  Two queues: a FIFO queue (tf.compat.v1.train.batch) cuts the reader's records, in their order, into windows of
  `window_size`; a RandomShuffleQueue then mixes the windows into batches of `batch_size`. Shapes start with
  [batch_size, window_size]. For sequential models (StructuralEnsembleRegressor) evaluate over several passes, so
  that state left from training is flushed, or use `WholeDatasetInputFn`.
  """

  def __init__(self, time_series_reader, window_size, batch_size, queue_capacity_multiplier=1000,
               shuffle_min_after_dequeue_multiplier=2, discard_out_of_order=True,
               discard_consecutive_batches_limit=1000, jitter=True, num_threads=2, shuffle_seed=None):
    """Configures the windows and batches.

    Args:
      time_series_reader: the `TimeSeriesReader` to read from.
      window_size: records per window (the length of truncated backpropagation).
      batch_size: windows per batch.
      queue_capacity_multiplier: the shuffling queue holds this many batches of windows, the windowing queue this
        many batches' worth of records; keep it above `shuffle_min_after_dequeue_multiplier`.
      shuffle_min_after_dequeue_multiplier: batches of windows left in the shuffling queue after a dequeue (how
        well windows mix).
      discard_out_of_order: drop windows whose times go backwards (where the data wraps around); False keeps them
        and re-orders by time as TF 1.15 did (a gather of the whole batch by the time order, which adds a window
        dimension to every feature).
      discard_consecutive_batches_limit: OutOfRangeError after this many consecutive passes without a single
        kept window (a series too short for the window).
      jitter: now and then skip a record between windows, so that windows do not always start at the same
        offsets (matters for AR models).
      num_threads: threads of each queue (None: `batch_size`); 1 removes one source of non-determinism.
      shuffle_seed: seed of the shuffling queue (None: random).

    Raises:
      ValueError: from the reader's `check_dataset_size` when the data is shorter than `window_size`.
    """
    self._reader = time_series_reader
    self._window_size = window_size
    self._reader.check_dataset_size(minimum_dataset_size=window_size)
    self._batch_size = batch_size
    self._queue_capacity_multiplier = queue_capacity_multiplier
    self._shuffle_min_after_dequeue_multiplier = shuffle_min_after_dequeue_multiplier
    self._discard_out_of_order = discard_out_of_order
    self._discard_limit = discard_consecutive_batches_limit
    self._jitter = jitter
    self._num_threads = batch_size if num_threads is None else num_threads
    self._shuffle_seed = shuffle_seed
    super(RandomWindowInputFn, self).__init__()

  def create_batch(self):
    windows = self._cut_windows(self._reader.read())
    windows, keep = self._handle_backward_times(windows)
    batch = _v1.train.maybe_shuffle_batch(
        windows, batch_size=self._batch_size, capacity=self._queue_capacity_multiplier * self._batch_size,
        min_after_dequeue=self._shuffle_min_after_dequeue_multiplier * self._batch_size, keep_input=keep,
        num_threads=self._num_threads, seed=self._shuffle_seed, enqueue_many=True)
    return batch, None

  def _cut_windows(self, records):
    """Records -> [windows, window_size, ...]; `batch_size` windows move to the shuffling queue at a time."""
    windows_per_pass = self._batch_size
    records_per_pass = windows_per_pass * self._window_size
    skip = _v1.random_uniform(shape=[], maxval=2, dtype=tf.int32) if self._jitter else 0
    run = _v1.train.batch(records, batch_size=records_per_pass + skip, enqueue_many=True,
                          capacity=self._queue_capacity_multiplier * records_per_pass,
                          num_threads=self._num_threads)
    windows = {}
    for name, column in run.items():
      column_tail = column.get_shape()[1:]
      if self._jitter:
        column = column[skip:]
      shape = _v1.concat([[windows_per_pass, self._window_size], _v1.shape(column)[1:]], axis=0)
      window = _v1.reshape(column, shape)
      window.set_shape(tf.TensorShape([windows_per_pass, self._window_size]).concatenate(column_tail))
      windows[name] = window
    return windows

  def _handle_backward_times(self, windows):
    """Windows that straddle the end and start of the data have times going backwards.

    Returns (windows, keep): `keep` a boolean per window (discarding), or True with the windows re-ordered.
    """
    times = windows[_TIMES]
    if not self._discard_out_of_order:
      # TF 1.15's re-ordering: the per-window time order, reversed over the batch axis, gathers whole windows.
      _, latest_first = _v1.nn.top_k(times, k=_v1.shape(times)[-1], sorted=True)
      order = _v1.reverse(latest_first, axis=[0])
      return {name: _v1.gather(params=window, indices=order) for name, window in windows.items()}, True
    in_order = _v1.reduce_all(times[:, 1:] >= times[:, :-1], axis=1)
    # Count passes in a row that keep nothing; one kept window resets the count.
    fruitless = _local_int64_counter("discarded_windows_limiter")

    def count_or_reset():
      return _v1.cond(_v1.reduce_any(in_order), lambda: _v1.assign(fruitless, 0),
                      lambda: fruitless.count_up_to(self._discard_limit))

    with _v1.control_dependencies([_once_initialized(fruitless, count_or_reset)]):
      return windows, _v1.identity(in_order)


# --- NumPy series -----------------------------------------------------------------------------------------------

def _canonicalize_numpy_data(data, require_single_batch):
  """Checks a dictionary of NumPy features and gives every one a [batch, length] prefix.

  Accepted by the rank of `TrainEvalFeatures.TIMES`: 0 (one step; VALUES a scalar or a [features] vector), 1 (one
  series; VALUES [length] or [length, features]) or 2 ([batch, length]; left as given). A missing batch or time
  dimension becomes 1, and an unbatched univariate VALUES gets a features dimension of 1. Every feature's shape
  must start with the times' shape.

  Raises:
    ValueError: if TIMES or VALUES is missing, a shape does not fit, or `require_single_batch` and the batch is
      not 1.
  """
  features = {name: numpy.array(value) for name, value in data.items()}
  if _TIMES not in features or _VALUES not in features:
    raise ValueError("{} and {} are required features.".format(_TIMES, _VALUES))
  times_shape = features[_TIMES].shape
  for name, array in features.items():
    if array.shape[:len(times_shape)] != times_shape:
      raise ValueError("Every feature's shape must start with the shape {} of '{}', but '{}' has shape {}.".format(
          times_shape, _TIMES, name, array.shape))
  missing_dims = 2 - len(times_shape)  # batch and time dimensions to add
  if missing_dims < 0:
    raise ValueError("'{}' must have at most two dimensions ([batch size, series length]); got shape {}.".format(
        _TIMES, times_shape))
  if missing_dims:
    values = features[_VALUES]
    most_value_dims = len(times_shape) + 1  # the times' dimensions and one of features
    if values.ndim > most_value_dims:
      expected = "[number of features]" if most_value_dims == 1 else "[series length, number of features]"
      raise ValueError("'{}' must be shaped {} at most when '{}' has shape {} (no batch dimension); got shape {}."
                       .format(_VALUES, expected, _TIMES, times_shape, values.shape))
    if values.ndim == len(times_shape):  # univariate: one feature
      features[_VALUES] = values[..., None]
    prefix = (None,) * missing_dims
    features = {name: array[prefix] for name, array in features.items()}
  if require_single_batch and features[_TIMES].shape[0] != 1:
    raise ValueError("Got batch input, was expecting unbatched input: '{}' has shape {}.".format(
        _TIMES, features[_TIMES].shape))
  return features
