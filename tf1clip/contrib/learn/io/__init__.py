"""`tf.contrib.learn.io`: TF 1.15's input layer of contrib.learn (queue readers, input_fns, data feeders).

Place in the data flow (DESIGN.md): tf.compat.v1 queues, tensorflow_estimator's inputs <- **contrib.learn.io**
<- contrib.learn <- compat <- cli.

One module per TF 1.15 module (contrib/learn/python/learn/learn_io):
- `graph_io`: read_batch_examples / read_batch_features / read_batch_record_features, their keyed and
  shared-queue variants and queue_parsed_features, on TensorFlow 2.21's v1 queues and QueueRunners;
- `numpy_io.numpy_input_fn`, `pandas_io.pandas_input_fn`: tf.estimator's input_fns with `shuffle=True`;
- `generator_io.generator_input_fn`: dicts of arrays from a generator through the estimator library's queue;
- `pandas_io.extract_pandas_*`, `dask_io.extract_dask_*`: need pandas / dask (NameError without, as TF 1.15);
- `data_feeder`: DataFeeder, StreamingDataFeeder, DaskDataFeeder and the setup_* functions.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn.io import dask_io
from tf1clip.contrib.learn.io import data_feeder
from tf1clip.contrib.learn.io import generator_io
from tf1clip.contrib.learn.io import graph_io
from tf1clip.contrib.learn.io import numpy_io
from tf1clip.contrib.learn.io import pandas_io
from tf1clip.contrib.learn.io.dask_io import HAS_DASK
from tf1clip.contrib.learn.io.dask_io import extract_dask_data
from tf1clip.contrib.learn.io.dask_io import extract_dask_labels
from tf1clip.contrib.learn.io.generator_io import generator_input_fn
from tf1clip.contrib.learn.io.graph_io import queue_parsed_features
from tf1clip.contrib.learn.io.graph_io import read_batch_examples
from tf1clip.contrib.learn.io.graph_io import read_batch_features
from tf1clip.contrib.learn.io.graph_io import read_batch_record_features
from tf1clip.contrib.learn.io.graph_io import read_keyed_batch_examples
from tf1clip.contrib.learn.io.graph_io import read_keyed_batch_examples_shared_queue
from tf1clip.contrib.learn.io.graph_io import read_keyed_batch_features
from tf1clip.contrib.learn.io.graph_io import read_keyed_batch_features_shared_queue
from tf1clip.contrib.learn.io.numpy_io import numpy_input_fn
from tf1clip.contrib.learn.io.pandas_io import HAS_PANDAS
from tf1clip.contrib.learn.io.pandas_io import extract_pandas_data
from tf1clip.contrib.learn.io.pandas_io import extract_pandas_labels
from tf1clip.contrib.learn.io.pandas_io import extract_pandas_matrix
from tf1clip.contrib.learn.io.pandas_io import pandas_input_fn

__getattr__ = _catalog.module_getattr(__name__)
