"""MNIST from the four idx gzip files: `tf.contrib.learn.datasets.mnist` and the tutorials' `input_data`.

Place in the data flow (DESIGN.md): contrib.learn.datasets (our own code, TF 1.15's semantics) <-
compat (the facade serves this module as `tensorflow.examples.tutorials.mnist.input_data` too) <- cli.

`read_data_sets(train_dir, one_hot=..., validation_size=..., reshape=..., dtype=...)` reads
train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz and
t10k-labels-idx1-ubyte.gz from `train_dir`, as TF 1.x did; where TF 1.x downloaded a missing file,
tf1clip raises `DatasetFileMissingError` listing the missing files, where to get them and where to put
them. `DataSet.next_batch` has TF 1.x's epochs and shuffling: the first call of an epoch-0 pass
shuffles; a batch crossing an epoch end takes the rest of the epoch, reshuffles, and completes from
the new order. Like TF 1.x, constructing a DataSet reseeds numpy's global generator from the graph
seed (`tf.compat.v1.set_random_seed`) and the `seed` argument.
"""

import gzip
import os

import numpy as np
import tensorflow as tf

from tf1clip.contrib.learn.datasets import base

DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"
FILES = (TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)

_IMAGES_MAGIC, _LABELS_MAGIC = 2051, 2049


def _read32(bytestream):
  dt = np.dtype(np.uint32).newbyteorder(">")
  return int(np.frombuffer(bytestream.read(4), dtype=dt)[0])


def extract_images(f):
  """The images of an idx3 gzip file object, as a uint8 array [num_images, rows, cols, 1].

  Raises:
    ValueError: the magic number is not 2051, or the file is shorter than its header says.
  """
  name = getattr(f, "name", "<stream>")
  print("Extracting", name)
  with gzip.GzipFile(fileobj=f) as bytestream:
    magic = _read32(bytestream)
    if magic != _IMAGES_MAGIC:
      raise ValueError("Invalid magic number %d in MNIST image file: %s" % (magic, name))
    num_images, rows, cols = _read32(bytestream), _read32(bytestream), _read32(bytestream)
    buf = bytestream.read(rows * cols * num_images)
    if len(buf) != rows * cols * num_images:
      raise ValueError("MNIST image file %s is truncated: %d of %d pixel bytes"
                       % (name, len(buf), rows * cols * num_images))
    return np.frombuffer(buf, dtype=np.uint8).reshape(num_images, rows, cols, 1)


def dense_to_one_hot(labels_dense, num_classes):
  """Class labels [n] -> one-hot float64 rows [n, num_classes] (TF 1.x's dtype)."""
  num_labels = labels_dense.shape[0]
  index_offset = np.arange(num_labels) * num_classes
  labels_one_hot = np.zeros((num_labels, num_classes))
  labels_one_hot.flat[index_offset + labels_dense.ravel()] = 1
  return labels_one_hot


def extract_labels(f, one_hot=False, num_classes=10):
  """The labels of an idx1 gzip file object: uint8 [n], or one-hot [n, num_classes].

  Raises:
    ValueError: the magic number is not 2049, or the file is shorter than its header says.
  """
  name = getattr(f, "name", "<stream>")
  print("Extracting", name)
  with gzip.GzipFile(fileobj=f) as bytestream:
    magic = _read32(bytestream)
    if magic != _LABELS_MAGIC:
      raise ValueError("Invalid magic number %d in MNIST label file: %s" % (magic, name))
    num_items = _read32(bytestream)
    buf = bytestream.read(num_items)
    if len(buf) != num_items:
      raise ValueError("MNIST label file %s is truncated: %d of %d labels" % (name, len(buf), num_items))
    labels = np.frombuffer(buf, dtype=np.uint8)
    return dense_to_one_hot(labels, num_classes) if one_hot else labels


class DataSet:
  """Images and labels with TF 1.x's `next_batch` (epochs, shuffling).

  Args:
    images: uint8 array [n, rows, cols, 1].
    labels: array [n] or [n, num_classes].
    fake_data: 10000 fake examples instead (TF 1.x's unit-test mode).
    one_hot: for fake data: labels are one-hot.
    dtype: tf.float32 (images scaled to [0, 1]) or tf.uint8 (kept as is).
    reshape: flatten images to [n, rows * cols].
    seed: numpy's global generator is reseeded from this and the graph seed, as in TF 1.x.

  Raises:
    TypeError: a dtype other than uint8 or float32.
    AssertionError: images and labels of different lengths, or reshape of images deeper than 1 (TF 1.15's
      asserts).
  """

  def __init__(self, images, labels, fake_data=False, one_hot=False, dtype=tf.float32,
               reshape=True, seed=None):
    seed1, seed2 = tf.compat.v1.random.get_seed(seed)
    np.random.seed(seed1 if seed is None else seed2)
    dtype = tf.as_dtype(dtype).base_dtype
    if dtype not in (tf.uint8, tf.float32):
      raise TypeError("Invalid image dtype %r, expected uint8 or float32" % dtype)
    if fake_data:
      self._num_examples = 10000
      self.one_hot = one_hot
    else:
      if images.shape[0] != labels.shape[0]:
        raise AssertionError("images.shape: %s labels.shape: %s" % (images.shape, labels.shape))
      self._num_examples = images.shape[0]
      if reshape:
        if images.shape[3] != 1:
          raise AssertionError("reshape=True needs images of depth 1, got shape %s" % (images.shape,))
        images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
      if dtype == tf.float32:
        images = np.multiply(images.astype(np.float32), 1.0 / 255.0)
    self._images = images
    self._labels = labels
    self._epochs_completed = 0
    self._index_in_epoch = 0

  @property
  def images(self):
    """The images, in the current shuffled order."""
    return self._images

  @property
  def labels(self):
    """The labels, in the current shuffled order."""
    return self._labels

  @property
  def num_examples(self):
    """The number of examples."""
    return self._num_examples

  @property
  def epochs_completed(self):
    """How many times `next_batch` went past the end of the data."""
    return self._epochs_completed

  def next_batch(self, batch_size, fake_data=False, shuffle=True):
    """The next `batch_size` examples (images, labels), as TF 1.x returned them.

    Args:
      batch_size: examples per batch (at most num_examples).
      fake_data: return fake examples (see the constructor).
      shuffle: shuffle at the start of the first epoch and at each epoch end.

    Returns:
      (images, labels) numpy arrays.
    """
    if fake_data:
      fake_image = [1] * 784
      fake_label = [1] + [0] * 9 if self.one_hot else 0
      return [fake_image] * batch_size, [fake_label] * batch_size
    start = self._index_in_epoch
    if self._epochs_completed == 0 and start == 0 and shuffle:
      self._shuffle()
    if start + batch_size > self._num_examples:
      self._epochs_completed += 1
      rest_num_examples = self._num_examples - start
      images_rest = self._images[start:self._num_examples]
      labels_rest = self._labels[start:self._num_examples]
      if shuffle:
        self._shuffle()
      self._index_in_epoch = batch_size - rest_num_examples
      end = self._index_in_epoch
      return (np.concatenate((images_rest, self._images[:end]), axis=0),
              np.concatenate((labels_rest, self._labels[:end]), axis=0))
    self._index_in_epoch += batch_size
    end = self._index_in_epoch
    return self._images[start:end], self._labels[start:end]

  def _shuffle(self):
    perm = np.arange(self._num_examples)
    np.random.shuffle(perm)
    self._images = self._images[perm]
    self._labels = self._labels[perm]


def _missing_files_error(train_dir, missing, source_url):
  return base.DatasetFileMissingError(
      "MNIST files missing in %s: %s. tf1clip does not download datasets (TF 1.x fetched them from "
      "%s). Download them (e.g. %s) and put the four .gz files, unchanged, in that directory."
      % (os.path.abspath(train_dir), ", ".join(missing), source_url, source_url + missing[0]))


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=tf.float32, reshape=True,
                   validation_size=5000, seed=None, source_url=DEFAULT_SOURCE_URL):
  """The MNIST train / validation / test DataSets from the four idx gzip files in `train_dir`.

  Args:
    train_dir: the directory holding train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz,
      t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz.
    fake_data: fake DataSets instead (nothing is read).
    one_hot: labels as one-hot float64 rows.
    dtype: tf.float32 (images in [0, 1]) or tf.uint8.
    reshape: flatten images to [n, 784].
    validation_size: the first `validation_size` training examples become the validation set.
    seed: see DataSet.
    source_url: where the files come from (named in the error when they are missing).

  Returns:
    base.Datasets(train, validation, test).

  Raises:
    DatasetFileMissingError: some of the four files are not in `train_dir` (the message names them).
    ValueError: validation_size not in [0, number of training images], or a malformed file.
  """
  if fake_data:
    fake = lambda: DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
    return base.Datasets(train=fake(), validation=fake(), test=fake())
  source_url = source_url or DEFAULT_SOURCE_URL
  missing = [name for name in FILES if not tf.io.gfile.exists(os.path.join(train_dir, name))]
  if missing:
    raise _missing_files_error(train_dir, missing, source_url)

  def read(name, extract, **kwargs):
    with tf.io.gfile.GFile(os.path.join(train_dir, name), "rb") as f:
      return extract(f, **kwargs)

  train_images = read(TRAIN_IMAGES, extract_images)
  train_labels = read(TRAIN_LABELS, extract_labels, one_hot=one_hot)
  test_images = read(TEST_IMAGES, extract_images)
  test_labels = read(TEST_LABELS, extract_labels, one_hot=one_hot)
  if not 0 <= validation_size <= len(train_images):
    raise ValueError("Validation size should be between 0 and %d. Received: %s."
                     % (len(train_images), validation_size))
  options = dict(dtype=dtype, reshape=reshape, seed=seed)
  train = DataSet(train_images[validation_size:], train_labels[validation_size:], **options)
  validation = DataSet(train_images[:validation_size], train_labels[:validation_size], **options)
  test = DataSet(test_images, test_labels, **options)
  return base.Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir="MNIST-data"):
  """`read_data_sets(train_dir)` (TF 1.x's shortcut)."""
  return read_data_sets(train_dir)
