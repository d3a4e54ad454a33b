"""`tf.contrib.learn.datasets.text_datasets`: the DBpedia text-classification CSVs, from local files only.

Place in the data flow (DESIGN.md): contrib.learn.datasets.base <- **contrib.learn.datasets.text_datasets** <-
contrib.learn.datasets <- compat <- cli.

`load_dbpedia(size, test_with_fake_data)` reads `$TF_EXP_BASE_DIR/dbpedia_data/dbpedia_csv/{train,test}.csv`
(size "small": every 1000th row, written beside them as *_small.csv, as TF 1.15 did) or, with
test_with_fake_data, the two tiny CSVs TF 1.15 shipped (bundled). Rows are "<class>,<title>,<text>": the
target is column 0 (int32), the features the rest (strings). TF 1.15 downloaded and unpacked
dbpedia_csv.tar.gz when the files were missing; tf1clip does not use the network: `maybe_download_dbpedia`
unpacks a dbpedia_csv.tar.gz already in data_dir, else raises DatasetFileMissingError naming DBPEDIA_URL.
"""

import os
import tarfile

import numpy as np
import tensorflow as tf

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.datasets import base

DBPEDIA_URL = "https://github.com/le-scientifique/torchDatasets/raw/master/dbpedia_csv.tar.gz"


def maybe_download_dbpedia(data_dir):
  """Makes sure data_dir/dbpedia_csv/{train,test}.csv exist (unpacking a local dbpedia_csv.tar.gz)."""
  train_path = os.path.join(data_dir, "dbpedia_csv/train.csv")
  test_path = os.path.join(data_dir, "dbpedia_csv/test.csv")
  if not (tf.io.gfile.exists(train_path) and tf.io.gfile.exists(test_path)):
    archive_path = base.maybe_download("dbpedia_csv.tar.gz", data_dir, DBPEDIA_URL)
    with tarfile.open(archive_path, "r:*") as tfile:
      tfile.extractall(data_dir)


def load_dbpedia(size="small", test_with_fake_data=False):
  """Datasets(train, validation=None, test) of the DBpedia CSVs (see the module docstring)."""
  if not test_with_fake_data:
    data_dir = os.path.join(os.getenv("TF_EXP_BASE_DIR", ""), "dbpedia_data")
    maybe_download_dbpedia(data_dir)
    train_path = os.path.join(data_dir, "dbpedia_csv", "train.csv")
    test_path = os.path.join(data_dir, "dbpedia_csv", "test.csv")
    if size == "small":
      base.shrink_csv(train_path, 1000)
      base.shrink_csv(test_path, 1000)
      train_path = train_path.replace("train.csv", "train_small.csv")
      test_path = test_path.replace("test.csv", "test_small.csv")
  else:
    train_path = os.path.join(base.DATA_DIR, "text_train.csv")
    test_path = os.path.join(base.DATA_DIR, "text_test.csv")
  train = base.load_csv_without_header(train_path, target_dtype=np.int32, features_dtype=np.str_, target_column=0)
  test = base.load_csv_without_header(test_path, target_dtype=np.int32, features_dtype=np.str_, target_column=0)
  return base.Datasets(train=train, validation=None, test=test)


__getattr__ = _catalog.module_getattr(__name__)
