"""`tf.contrib.linear_optimizer`: TF 1.15's SDCA optimizer for linear models (`SDCAOptimizer`, `SdcaModel`, ...).

The modules mirror TF 1.15's `contrib/linear_optimizer/python`:
- `sdca_ops.SdcaModel`: the solver (minimize, update_weights, predictions, the losses, approximate_duality_gap):
  tensorflow-estimator's `_SDCAModel` (TF 1.15's code, moved there) with TF 1.15's option rules (l2 runs as
  max(l2, 1), l2 = 0 accepted), errors and slot variable names put back;
- `SparseFeatureColumn`: tensorflow-estimator's `_SparseFeatureColumn`, TF 1.15's class unchanged
  (example_indices, feature_indices, feature_values);
- `sdca_optimizer.SDCAOptimizer`: TF 1.15's wrapper that contrib.learn's LinearClassifier, LinearRegressor and
  SVM take as `optimizer=`; its `get_train_step` reads tf.feature_column columns (the ones tf1clip's
  contrib.layers builds).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.linear_optimizer.python.ops import sdca_ops  # noqa: F401
from tf1clip.contrib.linear_optimizer.python import sdca_optimizer  # noqa: F401
from tf1clip.contrib.linear_optimizer.python.ops.sdca_ops import SdcaModel  # noqa: F401
from tf1clip.contrib.linear_optimizer.python.sdca_optimizer import SDCAOptimizer  # noqa: F401

SparseFeatureColumn = sdca_ops._library_sdca_ops._SparseFeatureColumn  # pylint: disable=protected-access

__getattr__ = _catalog.module_getattr(__name__)
