"""`tf.contrib.learn.datasets.base`: the Dataset / Datasets tuples and the CSV loaders, from local files only.

Place in the data flow (DESIGN.md): contrib.learn (our own code, TF 1.15's semantics) <- compat (the
facade, the runner) <- cli. TF 1.15 downloaded missing files (`maybe_download`); tf1clip never uses the
network: a file that is not there is an error saying which file to put where (a file:// source URL is
copied, as TF 1.15's urllib did).
"""

import collections
import csv
import functools
import os
import random
import time

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

Dataset = collections.namedtuple("Dataset", ["data", "target"])
Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


class DatasetFileMissingError(tf.errors.NotFoundError, FileNotFoundError):
  """A data file TF 1.x would have downloaded (or read) is not on disk (tf1clip does not download).

  A tf.errors.NotFoundError, as TF 1.15's gfile raised for a missing CSV, and a FileNotFoundError.
  """

  def __init__(self, message):
    tf.errors.NotFoundError.__init__(self, None, None, message)


def load_csv_with_header(filename, target_dtype, features_dtype, target_column=-1):
  """Loads a CSV whose first row is "<n_samples>,<n_features>,..." (the iris / boston files' format).

  Args:
    filename: path of the CSV file.
    target_dtype: numpy dtype of the target column.
    features_dtype: numpy dtype of the features.
    target_column: index of the target in each row (default: the last).

  Returns:
    Dataset(data=[n_samples, n_features] array, target=[n_samples] array).

  Raises:
    DatasetFileMissingError: no such file.
    ValueError: a row that does not parse.
    IndexError: more rows than the header announces (TF 1.15's error).
  """
  _require(filename)
  with tf.io.gfile.GFile(filename) as csv_file:
    rows = csv.reader(csv_file)
    header = next(rows)
    n_samples, n_features = int(header[0]), int(header[1])
    data = np.zeros((n_samples, n_features), dtype=features_dtype)
    target = np.zeros((n_samples,), dtype=target_dtype)
    for i, row in enumerate(rows):
      if i >= n_samples:
        raise IndexError("%s has more rows than its header's n_samples=%d" % (filename, n_samples))
      target[i] = np.asarray(row.pop(target_column), dtype=target_dtype)
      data[i] = np.asarray(row, dtype=features_dtype)
  return Dataset(data=data, target=target)


def load_csv_without_header(filename, target_dtype, features_dtype, target_column=-1):
  """Loads a CSV of rows "<features...>,<target>" (the target at `target_column`).

  Args:
    filename: path of the CSV file.
    target_dtype: numpy dtype of the target column.
    features_dtype: numpy dtype of the features.
    target_column: index of the target in each row (default: the last).

  Returns:
    Dataset(data=[n_samples, n_features] array, target=[n_samples] array).

  Raises:
    DatasetFileMissingError: no such file.
  """
  _require(filename)
  data, target = [], []
  with tf.io.gfile.GFile(filename) as csv_file:
    for row in csv.reader(csv_file):
      target.append(row.pop(target_column))
      data.append(np.asarray(row, dtype=features_dtype))
  return Dataset(data=np.array(data), target=np.array(target, dtype=target_dtype))


def _require(filename):
  if not tf.io.gfile.exists(filename):
    raise DatasetFileMissingError(
        "%s does not exist; tf1clip reads datasets from local files only (no download)" % filename)


def maybe_download(filename, work_directory, source_url):
  """The path of `filename` in `work_directory` (made if missing), copied there from a file:// `source_url`
  when it is not there yet (TF 1.15 downloaded any URL; tf1clip does not use the network).

  Args:
    filename: the file's name.
    work_directory: the directory it must be in.
    source_url: where TF 1.x would have downloaded it from (a file:// URL is copied; others are named in
      the error).

  Returns:
    os.path.join(work_directory, filename).

  Raises:
    DatasetFileMissingError: the file is not there and `source_url` is not a local file; the message says
      what to download from where.
  """
  if not tf.io.gfile.exists(work_directory):
    tf.io.gfile.makedirs(work_directory)
  path = os.path.join(work_directory, filename)
  if not tf.io.gfile.exists(path):
    if not _is_local_url(source_url):
      raise DatasetFileMissingError(
          "%s is missing: tf1clip does not download datasets. Download %s and put it in %s"
          % (path, source_url, os.path.abspath(work_directory)))
    temp_file_name, _ = urlretrieve_with_retry(source_url)
    tf.io.gfile.copy(temp_file_name, path)
    with tf.io.gfile.GFile(path) as f:
      size = f.size()
    print("Successfully downloaded", filename, size, "bytes.")
  return path


def _is_local_url(url):
  return isinstance(url, str) and url.startswith("file:")


def shrink_csv(filename, ratio):
  """Writes `filename` with "." -> "_small." holding every `ratio`-th CSV row of it (TF 1.15's)."""
  filename_small = filename.replace(".", "_small.")
  with tf.io.gfile.GFile(filename_small, "w") as csv_file_small:
    writer = csv.writer(csv_file_small)
    with tf.io.gfile.GFile(filename) as csv_file:
      for i, row in enumerate(csv.reader(csv_file)):
        if i % ratio == 0:
          writer.writerow(row)


def retry(initial_delay, max_delay, factor=2.0, jitter=0.25, is_retriable=None):
  """A decorator retrying a function on exceptions, with jittered exponentially growing delays (TF 1.15's).

  Args:
    initial_delay: the first delay (seconds).
    max_delay: the largest delay; the retries stop once the delay exceeds it (then one last plain call).
    factor: each delay is the previous one times `factor` (>= 1).
    jitter: each delay is multiplied by a random number in [1 - jitter, 1 + jitter] (< 1).
    is_retriable: optional predicate of the exception: True sleeps and retries, False re-raises. Without
      it every exception is retried at once, without sleeping (as TF 1.15 did).

  Returns:
    The decorator.

  Raises:
    ValueError: factor < 1 or jitter >= 1.
  """
  if factor < 1:
    raise ValueError("factor must be >= 1; was %f" % (factor,))
  if jitter >= 1:
    raise ValueError("jitter must be < 1; was %f" % (jitter,))

  def delays():
    delay = initial_delay
    while delay <= max_delay:
      yield delay * random.uniform(1 - jitter, 1 + jitter)
      delay *= factor

  def wrap(fn):
    @functools.wraps(fn)
    def wrapped_fn(*args, **kwargs):
      for delay in delays():
        try:
          return fn(*args, **kwargs)
        except Exception as e:  # pylint: disable=broad-except
          if is_retriable is None:
            continue
          if is_retriable(e):
            time.sleep(delay)
          else:
            raise
      return fn(*args, **kwargs)
    return wrapped_fn

  return wrap


def urlretrieve_with_retry(url, filename=None):
  """`urllib.request.urlretrieve(url, filename)` of a file:// URL (TF 1.15 fetched any URL, retried on
  timeouts; tf1clip does not use the network).

  Returns:
    (the local file name, the headers), as urlretrieve.

  Raises:
    DatasetFileMissingError: `url` is not a file:// URL; the message names the URL to fetch by hand.
  """
  if not _is_local_url(url):
    raise DatasetFileMissingError(
        "urlretrieve_with_retry(%r): tf1clip does not download; fetch the file yourself%s" % (
            url, " into %s" % filename if filename else ""))
  import urllib.request  # pylint: disable=import-outside-toplevel
  return urllib.request.urlretrieve(url, filename)


# The two small datasets TF 1.15 shipped inside contrib.learn (data/iris.csv, data/boston_house_prices.csv: the
# same files, from TensorFlow 1.15.5's package, Apache 2.0), read without any download.
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def load_iris(data_path=None):
  """Fisher's iris data: 150 rows of 4 float64 features and an int64 class (0, 1, 2), as TF 1.15's.

  Args:
    data_path: a CSV in the same format (first line: count, feature count, class names); default the
      bundled copy.

  Returns:
    Dataset(data, target).
  """
  return load_csv_with_header(data_path or os.path.join(DATA_DIR, "iris.csv"), target_dtype=np.int64,
                              features_dtype=np.float64)


def load_boston(data_path=None):
  """The Boston house-price data TF 1.15 shipped: 506 rows of 13 float64 features and a float64 price.

  Kept for legacy scripts that load it; the dataset is known to encode a racially biased feature (column B),
  which is why scikit-learn removed it; do not use it for new work.
  """
  return load_csv_with_header(data_path or os.path.join(DATA_DIR, "boston_house_prices.csv"),
                              target_dtype=np.float64, features_dtype=np.float64)


__getattr__ = _catalog.module_getattr(__name__)
