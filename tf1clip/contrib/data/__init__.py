"""`tf.contrib.data`: the input-pipeline names of TF 1.15, mapped to their exact TF 2.21 equivalents.

TF 1.15's `tf.contrib.data` was a deprecated alias module: most names were already the functions of
`tf.data.experimental`, which TensorFlow 2.21 still has. Those are served as the very same objects
(`tf.compat.v1.data.experimental.<name>`: map_and_batch, parallel_interleave, shuffle_and_repeat,
bucket_by_sequence_length, prefetch_to_device, ...; see SAME_AS_TF). Seven were thin deprecated wrappers
that TF 2.21 dropped; they are written here with TF 1.15's semantics on top of `tf.data`:
`batch_and_drop_remainder`, `padded_batch_and_drop_remainder`, `sloppy_interleave`,
`sliding_window_batch`, `assert_element_shape`, `reduce_dataset` and `read_batch_features`, and the Estimator
hook `CheckpointInputPipelineHook`. `LMDBDataset` lost its kernel in TensorFlow 2: it reads the files with the
lmdb package, a TF2-style dataset of (key, value) strings as it was in TF 1.15. Everything else raises
ContribNotProvidedError naming what to use instead.
"""

import importlib

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
import tf1clip.python.util.nest as framework_nest
from tf1clip.contrib.framework.python.framework.tensor_util import with_shape

SAME_AS_TF = (
    "AUTOTUNE", "Counter", "CsvDataset", "Optional", "RandomDataset", "Reducer", "SqlDataset",
    "TFRecordWriter", "bucket_by_sequence_length", "choose_from_datasets", "copy_to_device",
    "dense_to_sparse_batch", "enumerate_dataset", "get_next_as_optional", "get_single_element",
    "group_by_reducer", "group_by_window", "ignore_errors", "make_batched_features_dataset",
    "make_csv_dataset", "make_saveable_from_iterator", "map_and_batch", "parallel_interleave",
    "parse_example_dataset", "prefetch_to_device", "rejection_resample", "sample_from_datasets",
    "scan", "shuffle_and_repeat", "unbatch", "unique")


def _tf():
  return importlib.import_module("tensorflow").compat.v1


def batch_and_drop_remainder(batch_size):
  """A transformation that batches and drops the last, smaller batch (TF 1.15's deprecated wrapper).

  Args:
    batch_size: a tf.int64 scalar: the number of consecutive elements in a batch.

  Returns:
    A function `Dataset -> Dataset` for `dataset.apply(...)`: `dataset.batch(batch_size,
    drop_remainder=True)`, whose batch dimension is static.
  """
  return lambda dataset: dataset.batch(batch_size, drop_remainder=True)


def padded_batch_and_drop_remainder(batch_size, padded_shapes, padding_values=None):
  """A transformation that padded-batches and drops the last, smaller batch (TF 1.15's wrapper).

  Args:
    batch_size: a tf.int64 scalar.
    padded_shapes: the shape each component is padded to (as for `Dataset.padded_batch`).
    padding_values: optional padding value per component.

  Returns:
    A function `Dataset -> Dataset`: `dataset.padded_batch(batch_size, padded_shapes,
    padding_values, drop_remainder=True)`.
  """
  return lambda dataset: dataset.padded_batch(batch_size, padded_shapes, padding_values,
                                              drop_remainder=True)


def sloppy_interleave(map_func, cycle_length, block_length=1):
  """Parallel interleave that may return elements out of order (TF 1.15's deprecated wrapper).

  Args:
    map_func: element -> Dataset.
    cycle_length: how many input elements are interleaved at once.
    block_length: consecutive elements taken from each before moving to the next.

  Returns:
    A function `Dataset -> Dataset`: `tf.data.experimental.parallel_interleave(map_func,
    cycle_length, block_length, sloppy=True)`.
  """
  return _tf().data.experimental.parallel_interleave(map_func, cycle_length=cycle_length,
                                                     block_length=block_length, sloppy=True)


def sliding_window_batch(window_size, stride=None, window_shift=None, window_stride=1):
  """Batches windows of consecutive elements that slide along the input (TF 1.15's contrib op).

  Element i of the result stacks input elements `i*window_shift + j*window_stride` for
  j = 0..window_size-1; windows that would run past the end are dropped.

  Args:
    window_size: a tf.int64 scalar: elements per window.
    stride: deprecated spelling of `window_shift`.
    window_shift: how far the window moves between results (default 1).
    window_stride: the step between the elements of one window (default 1).

  Returns:
    A function `Dataset -> Dataset`.

  Raises:
    ValueError: both `stride` and `window_shift` are given.
  """
  if stride is not None and window_shift is not None:
    raise ValueError("sliding_window_batch: give `window_shift` or its old name `stride`, not both "
                     "(got stride=%r, window_shift=%r)" % (stride, window_shift))
  shift = window_shift if window_shift is not None else (stride if stride is not None else 1)
  tf = _tf()

  def batch_window(*window):
    structure = window[0] if len(window) == 1 else window
    return tf.data.Dataset.zip(tf.nest.map_structure(
        lambda component: component.batch(window_size, drop_remainder=True), structure))

  def apply_fn(dataset):
    return dataset.window(window_size, shift=shift, stride=window_stride,
                          drop_remainder=True).flat_map(batch_window)

  return apply_fn


def assert_element_shape(expected_shapes):
  """A transformation that checks (and sets) the shapes of a dataset's elements against `expected_shapes`.

  Fully defined shapes are checked when the pipeline is built (ValueError); otherwise an assertion runs with
  each element and the known dimensions are set. An unknown expected shape is not checked.
  """
  def check_shape(*elements):
    tensors = tf.nest.flatten(elements)
    shapes = tf.nest.flatten(expected_shapes)
    checked = [with_shape(shape, tensor) if shape else tensor for shape, tensor in zip(shapes, tensors)]
    return tf.nest.pack_sequence_as(elements, checked)

  def apply_fn(dataset):
    original = tf.compat.v1.data.get_output_shapes(dataset)
    expected = framework_nest.flatten_up_to(original, expected_shapes)
    merged = [tf.TensorShape(o).merge_with(e) for o, e in zip(tf.nest.flatten(original), expected)]
    mapped = dataset.map(check_shape)
    # the element shapes TF 1.15 declared: the original merged with the expected ones
    return mapped.map(lambda *elements: tf.nest.pack_sequence_as(
        elements if len(elements) > 1 else elements[0],
        [tf.ensure_shape(t, shape) for t, shape in zip(tf.nest.flatten(elements), merged)]))

  return apply_fn


def reduce_dataset(dataset, reducer):
  """The result of reducing `dataset` with `reducer` (a tf.data.experimental.Reducer): its init and reduce.

  As in TF 1.15, the reducer's finalize function is not applied.

  Raises:
    TypeError: `dataset` is not a tf.data.Dataset.
  """
  if not isinstance(dataset, tf.data.Dataset):
    raise TypeError("`dataset` must be a `tf.data.Dataset` object.")
  return dataset.reduce(reducer.init_func(np.int64(0)), reducer.reduce_func)


def read_batch_features(file_pattern, batch_size, features, reader=tf.compat.v1.data.TFRecordDataset,
                        reader_args=None, randomize_input=True, num_epochs=None, capacity=10000):
  """The next batch of parsed `Example` features from the files: make_batched_features_dataset's one-shot iterator.

  Returns:
    A dict from feature key to Tensor or SparseTensor.
  """
  dataset = tf.compat.v1.data.experimental.make_batched_features_dataset(
      file_pattern, batch_size, features, reader=reader, reader_args=reader_args, shuffle=randomize_input,
      num_epochs=num_epochs, shuffle_buffer_size=capacity)
  return tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()


class _IteratorSaver(tf.compat.v1.train.Saver):
  """A Saver of iterator states whose `checkpoint` state file has its own name (it shares the model's dir)."""

  def __init__(self, var_list, latest_filename):
    super().__init__(var_list)
    self._latest_filename = latest_filename

  def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
           write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False):
    return super().save(sess, save_path, global_step, latest_filename or self._latest_filename, meta_graph_suffix,
                        write_meta_graph, write_state, strip_default_attrs, save_debug_info)


class CheckpointInputPipelineHook(tf.compat.v1.train.SessionRunHook):
  """Saves the input pipeline's position with the model's checkpoints, and restores it when training resumes.

  TF 1.15's hook (TensorFlow 2.21 dropped it): every iterator of the graph (the "iterators" collection, where
  `make_one_shot_iterator` / `make_initializable_iterator` put theirs) is saved in `<model_dir>/input.ckpt-<step>`
  (`input_<task type>_<task id>` with several workers) on the Estimator's checkpoint schedule, and the latest is
  restored before the first step.
  """

  def __init__(self, estimator):
    config = estimator._config  # pylint: disable=protected-access
    prefix = "input"
    if config.num_worker_replicas > 1:
      prefix += "_{}_{}".format(config.task_type, config.task_id)
    # TF 1.15's hook drove TensorFlow's CheckpointSaverHook through its private state (saver, timer); so does this
    self._saver_hook = tf.compat.v1.train.CheckpointSaverHook(
        estimator.model_dir, save_secs=config.save_checkpoints_secs, save_steps=config.save_checkpoints_steps,
        checkpoint_basename=prefix + ".ckpt")
    self._latest_filename = "checkpoint_" + prefix
    self._first_run = True

  # pylint: disable=protected-access
  def begin(self):
    hook = self._saver_hook
    if hook._saver is None and hook._scaffold is None:
      # the collection holds the iterators' resource handles (what make_saveable_from_iterator reads inside)
      from tensorflow.python.data.ops import iterator_ops  # pylint: disable=g-import-not-at-top,import-outside-toplevel
      resources = tf.compat.v1.get_collection(iterator_ops.GLOBAL_ITERATORS)
      hook._saver = _IteratorSaver([iterator_ops._IteratorSaveable(r, r.name) for r in resources],
                                   self._latest_filename)
    hook.begin()

  def _restore_or_save_initial_ckpt(self, session):
    hook = self._saver_hook
    latest = tf.train.latest_checkpoint(hook._checkpoint_dir, latest_filename=self._latest_filename)
    if latest:
      hook._get_saver().restore(session, latest)
    else:
      global_step = session.run(hook._global_step_tensor)
      hook._save(session, global_step)
      hook._timer.update_last_triggered_step(global_step)

  def before_run(self, run_context):
    if self._first_run:
      self._restore_or_save_initial_ckpt(run_context.session)
      self._first_run = False
    return self._saver_hook.before_run(run_context)

  def after_run(self, run_context, run_values):
    self._saver_hook.after_run(run_context, run_values)

  def end(self, session):
    self._saver_hook.end(session)


def _lmdb_pairs(filenames):
  """Yields each LMDB file's (key, value) pairs in key order, file after file (the lmdb package reads them)."""
  import lmdb  # pylint: disable=g-import-not-at-top  (a dependency only this reader uses)
  if np.ndim(filenames) > 1:
    raise ValueError("`filenames` must be a scalar or a vector.")
  for name in np.reshape(filenames, [-1]):
    try:
      env = lmdb.open(name.decode(), subdir=False, readonly=True, lock=False)
    except lmdb.Error as e:
      raise ValueError("%s: %s" % (name.decode(), e)) from e  # an InvalidArgumentError when run, as in TF 1.15
    try:
      with env.begin() as txn:
        yield from txn.cursor()
    finally:
      env.close()


class LMDBDataset(tf.data.Dataset):
  """TF 1.15's dataset of the (key, value) string pairs of one or more LMDB files (`filenames`), in the files'
  order and each file's key order. A TF2-style dataset as in TF 1.15 (no `make_one_shot_iterator` method: use
  `tf.compat.v1.data.make_one_shot_iterator(dataset)`).

  TensorFlow 2.21 still has the LMDBDataset op, but its kernel only says that LMDB support was removed; the
  files are read with the `lmdb` package (py-lmdb, the maintained binding of the same C library) through
  Dataset.from_generator. A bad file or a filenames tensor of rank 2 or more fails when the dataset is read,
  with InvalidArgumentError, as in TF 1.15.
  """

  def __init__(self, filenames):
    self._filenames = tf.convert_to_tensor(filenames, dtype=tf.string, name="filenames")
    spec = tf.TensorSpec([], tf.string)
    self._pairs = tf.data.Dataset.from_generator(_lmdb_pairs, args=(self._filenames,),
                                                 output_signature=(spec, spec))
    super().__init__(self._pairs._variant_tensor)  # pylint: disable=protected-access

  def _inputs(self):
    return []  # a source: no input datasets

  @property
  def element_spec(self):
    return (tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.string))


# The declaration: served names whose parameters differ from TF 1.15's in a way a TF 1.15 call can notice.
SIGNATURE_DIFFERENCES = {
    "make_batched_features_dataset": (
        "TensorFlow 2.21's function: `reader=None` stands for TFRecordDataset, TF 1.15's default"),
}

# The declaration (catalog.tsv): what replaced the module in TF 2, and the TF 1.15 names not served.
SUCCESSOR = 'tf.data (most functions moved to tf.data.Dataset methods or tf.data.experimental)'
NOT_SERVED = {
    "latency_stats": 'the tf.data service / TensorBoard profiler (stats ops were removed)',
    "set_stats_aggregator": 'the tf.data service / TensorBoard profiler (stats ops were removed)',
    "StatsAggregator": 'the TensorBoard profiler (stats ops were removed)',
}

_hook = _catalog.module_getattr(__name__)


def __getattr__(name):  # pylint: disable=invalid-name
  if name in SAME_AS_TF:
    value = getattr(_tf().data.experimental, name)
    globals()[name] = value
    return value
  return _hook(name)


def __dir__():  # pylint: disable=invalid-name
  return sorted(set(globals()) | set(SAME_AS_TF))
