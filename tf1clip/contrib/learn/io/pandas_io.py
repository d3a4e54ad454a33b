"""`tf.contrib.learn.io.pandas_io`: pandas_input_fn and the extract_pandas_* helpers, TF 1.15's code.

Place in the data flow (DESIGN.md): tensorflow_estimator (through shims.tensorflow_estimator) <-
**contrib.learn.io.pandas_io** <- contrib.learn.io (data_feeder) <- contrib.learn <- compat <- cli.

`pandas_input_fn` is tf.estimator's (tensorflow-estimator 2.15) with TF 1.15's contrib default `shuffle=True`;
without pandas it raises the library's TypeError, as TF 1.15's did. The extract_* helpers need pandas too:
TF 1.15's module referred to a `pd` it never imported when pandas was missing, so they raised
`NameError: name 'pd' is not defined`; here they raise that NameError saying pandas is missing. With pandas
installed they behave as TF 1.15's (`extract_pandas_matrix` reads `DataFrame.values`: pandas 1.0 removed the
`as_matrix()` TF 1.15 called).
"""

from tf1clip.contrib import catalog as _catalog

try:
  import pandas as pd  # pylint: disable=g-import-not-at-top
  HAS_PANDAS = True
except (IOError, ImportError):  # pandas writes a temporary file during import; if that fails, no pandas
  pd = None
  HAS_PANDAS = False

PANDAS_DTYPES = {
    "int8": "int", "int16": "int", "int32": "int", "int64": "int", "uint8": "int", "uint16": "int",
    "uint32": "int", "uint64": "int", "float16": "float", "float32": "float", "float64": "float", "bool": "i"}


def _pandas():
  if pd is None:
    raise NameError("name 'pd' is not defined (pandas is not installed; TF 1.15's contrib.learn needs it here)")
  return pd


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=True, queue_capacity=1000, num_threads=1,
                    target_column="target"):
  """An input_fn feeding the DataFrame `x` (and Series `y`) through a queue; this one shuffles by default."""
  from tf1clip.shims import tensorflow_estimator as estimator_shim  # pylint: disable=import-outside-toplevel
  return estimator_shim.v1_api().inputs.pandas_input_fn(
      x=x, y=y, batch_size=batch_size, shuffle=shuffle, num_epochs=num_epochs, queue_capacity=queue_capacity,
      num_threads=num_threads, target_column=target_column)


def extract_pandas_data(data):
  """The values of a DataFrame of int, float or bool columns as a float ndarray; anything else unchanged.

  Raises:
    ValueError: if data contains types other than int, float or bool.
  """
  if not isinstance(data, _pandas().DataFrame):
    return data
  bad_data = [column for column in data if data[column].dtype.name not in PANDAS_DTYPES]
  if not bad_data:
    return data.values.astype("float")
  error_report = [("'" + str(column) + "' type='" + data[column].dtype.name + "'") for column in bad_data]
  raise ValueError("Data types for extracting pandas data must be int, float, or bool. Found: " +
                   ", ".join(error_report))


def extract_pandas_matrix(data):
  """The values of a DataFrame as an ndarray; anything else unchanged."""
  if not isinstance(data, _pandas().DataFrame):
    return data
  return data.values


def extract_pandas_labels(labels):
  """The values of a one-column DataFrame of int, float or bool; anything else unchanged.

  Raises:
    ValueError: if more than one column is found or type is not int, float or bool.
  """
  if isinstance(labels, _pandas().DataFrame):
    if len(labels.columns) > 1:
      raise ValueError("Only one column for labels is allowed.")
    bad_data = [column for column in labels if labels[column].dtype.name not in PANDAS_DTYPES]
    if not bad_data:
      return labels.values
    error_report = ["'" + str(column) + "' type=" + str(labels[column].dtype.name) for column in bad_data]
    raise ValueError("Data types for extracting labels must be int, float, or bool. Found: " +
                     ", ".join(error_report))
  return labels


__getattr__ = _catalog.module_getattr(__name__)
