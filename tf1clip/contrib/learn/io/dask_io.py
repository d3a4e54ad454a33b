"""`tf.contrib.learn.io.dask_io`: extract_dask_data / extract_dask_labels, TF 1.15's code.

Place in the data flow (DESIGN.md): dask (when installed) <- **contrib.learn.io.dask_io** <- contrib.learn.io
(data_feeder) <- contrib.learn <- compat <- cli.

With dask installed, a dask DataFrame or Series becomes one whose index runs on across its partitions (the
divisions TF 1.15 computed); anything else is returned unchanged. Without dask, TF 1.15's module referred to
names it never defined, so both functions raised NameError (`allowed_classes`, `dd`) for any argument; here they
raise that NameError saying dask is missing.
"""

import numpy as np

from tf1clip.contrib import catalog as _catalog

try:
  import dask.dataframe as dd  # pylint: disable=g-import-not-at-top
  allowed_classes = (dd.Series, dd.DataFrame)
  HAS_DASK = True
except ImportError:
  dd = None
  allowed_classes = None
  HAS_DASK = False


def _dask(name):
  if dd is None:
    raise NameError("name %r is not defined (dask is not installed; TF 1.15's contrib.learn needs it here)" % name)
  return dd


def _add_to_index(df, start):
  """New dask.dataframe with values added to index of each subdataframe."""
  df = df.copy()
  df.index += start
  return df


def _get_divisions(df):
  """Number of rows in each sub-dataframe."""
  lengths = df.map_partitions(len).compute()
  divisions = np.cumsum(lengths).tolist()
  divisions.insert(0, 0)
  return divisions


def _construct_dask_df_with_divisions(df):
  """Construct the new task graph and make a new dask.dataframe around it."""
  divisions = _get_divisions(df)
  name = "csv-index" + df._name  # pylint: disable=protected-access
  dsk = {(name, i): (_add_to_index, (df._name, i), divisions[i])  # pylint: disable=protected-access
         for i in range(df.npartitions)}
  from toolz import merge  # pylint: disable=import-outside-toplevel
  if isinstance(df, dd.DataFrame):
    return dd.DataFrame(merge(dsk, df.dask), name, df.columns, divisions)
  if isinstance(df, dd.Series):
    return dd.Series(merge(dsk, df.dask), name, df.name, divisions)
  return None


def extract_dask_data(data):
  """A dask DataFrame / Series indexed across its partitions, for predictors; anything else unchanged."""
  _dask("allowed_classes")
  if isinstance(data, allowed_classes):
    return _construct_dask_df_with_divisions(data)
  return data


def extract_dask_labels(labels):
  """As `extract_dask_data`, for labels of exactly one column or name.

  Raises:
    ValueError: If the dask DataFrame has more than one column or the Series more than one name.
  """
  _dask("dd")
  if isinstance(labels, dd.DataFrame):
    ncol = labels.columns
  elif isinstance(labels, dd.Series):
    ncol = labels.name
  if isinstance(labels, allowed_classes):
    if len(ncol) > 1:
      raise ValueError("Only one column for labels is allowed.")
    return _construct_dask_df_with_divisions(labels)
  return labels


__getattr__ = _catalog.module_getattr(__name__)
