"""`tf.contrib.learn.preprocessing.categorical`: CategoricalProcessor, columns of categories to ids (TF 1.15's).

Place in the data flow (DESIGN.md): contrib.learn.preprocessing.categorical_vocabulary <-
**contrib.learn.preprocessing.categorical** <- contrib.learn.preprocessing <- compat <- cli.

One CategoricalVocabulary per column (or one shared, `share=True`); `fit` adds every value (NaN skipped), trims
below `min_frequency` and freezes; `transform` yields an int64 id row per input row (NaN and unknown: 0).
A pandas DataFrame / Series is read through its `.values`, as TF 1.15's data feeder extracted it.
"""

import math

import numpy as np

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.preprocessing import categorical_vocabulary


def _rows(x):
  if hasattr(x, "values") and hasattr(x, "index") and not isinstance(x, dict):
    return x.values  # pandas, as TF 1.15's setup_processor_data_feeder (extract_pandas_matrix)
  return x


def _is_nan(value):
  return (isinstance(value, float) and math.isnan(value)) or value == np.nan


class CategoricalProcessor(object):
  """Maps each column's categories to ids (NaN values are unknown)."""

  def __init__(self, min_frequency=0, share=False, vocabularies=None):
    self.min_frequency = min_frequency
    self.share = share
    self.vocabularies_ = vocabularies

  def freeze(self, freeze=True):
    for vocab in self.vocabularies_:
      vocab.freeze(freeze)

  def fit(self, x, unused_y=None):
    """Learns the categories of each column of `x`; returns self."""
    for row in _rows(x):
      if self.vocabularies_ is None:
        if not self.share:
          self.vocabularies_ = [categorical_vocabulary.CategoricalVocabulary() for _ in row]
        else:
          vocab = categorical_vocabulary.CategoricalVocabulary()
          self.vocabularies_ = [vocab for _ in row]
      for idx, value in enumerate(row):
        if _is_nan(value):
          continue
        self.vocabularies_[idx].add(value)
    if self.min_frequency > 0:
      for vocab in self.vocabularies_:
        vocab.trim(self.min_frequency)
    self.freeze()
    return self

  def fit_transform(self, x, unused_y=None):
    self.fit(x)
    return self.transform(x)

  def transform(self, x):
    """Yields each row of `x` as an int64 array of category ids."""
    self.freeze()
    for row in _rows(x):
      output_row = []
      for idx, value in enumerate(row):
        if _is_nan(value):
          output_row.append(0)
          continue
        output_row.append(self.vocabularies_[idx].get(value))
      yield np.array(output_row, dtype=np.int64)


__getattr__ = _catalog.module_getattr(__name__)
