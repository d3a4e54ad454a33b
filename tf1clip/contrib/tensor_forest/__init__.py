"""`tf.contrib.tensor_forest`: TF 1.15's online extremely random forests, its Python code on its kernels in NumPy.

Place in the data flow (DESIGN.md): tf.compat.v1, tf-slim, contrib.learn / tensorflow-estimator 2.15 (estimators,
heads) <- **contrib.tensor_forest** <- contrib <- compat <- cli.

One module per TF 1.15 module: `tensor_forest` (ForestHParams, RandomForestGraphs, ...), `data_ops`, `model_ops`,
`stats_ops`, `tensor_forest_ops` (python/ops), `eval_metrics` and `random_forest` (client: TensorForestEstimator,
CoreTensorForestEstimator, MultiForestMultiHeadEstimator, the hooks and model_fns), `proto`
(tensor_forest_params_pb2 built from TF 1.15's descriptors). TF 1.15's C++ kernels are `kernels` (NumPy, run by
tf.numpy_function) with `philox` (TensorFlow's Philox generator, so the random split candidates are TF 1.15's).
`client`, `ops`, `python` and `python.ops` are TF 1.15's package paths to the same modules.

Every name served is a real attribute of these modules (the catalog reads them: catalog.tsv); any other public
name raises ContribNotProvidedError.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.tensor_forest import client  # noqa: F401
from tf1clip.contrib.tensor_forest import data_ops  # noqa: F401
from tf1clip.contrib.tensor_forest import eval_metrics  # noqa: F401
from tf1clip.contrib.tensor_forest import model_ops  # noqa: F401
from tf1clip.contrib.tensor_forest import ops  # noqa: F401
from tf1clip.contrib.tensor_forest import proto  # noqa: F401
from tf1clip.contrib.tensor_forest import python  # noqa: F401
from tf1clip.contrib.tensor_forest import random_forest  # noqa: F401
from tf1clip.contrib.tensor_forest import stats_ops  # noqa: F401
from tf1clip.contrib.tensor_forest import tensor_forest  # noqa: F401
from tf1clip.contrib.tensor_forest import tensor_forest_ops  # noqa: F401
from tf1clip.contrib.tensor_forest.proto import tensor_forest_params_pb2 as _params_pb2

proto.tensor_forest_params_pb2 = _params_pb2

__getattr__ = _catalog.module_getattr(__name__)
