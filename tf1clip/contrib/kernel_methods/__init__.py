"""`tf.contrib.kernel_methods`: explicit kernel maps (random Fourier features), the multiclass hinge loss, and
`KernelLinearClassifier`, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/kernel_methods/__init__.py`.

- `RandomFourierFeatureMapper(input_dim, output_dim, stddev, seed, name)`: `map(x)` is
  sqrt(2 / D) * cos(x Omega + b), Omega ~ N(0, 1 / stddev^2) [d, D] and b ~ U[0, 2 pi) [D] drawn by numpy
  exactly as TF 1.15 drew them (`np.random.seed(seed)`, then `np.random.normal` and `np.random.uniform`, so
  the values are TF 1.15's and, as in TF 1.15, numpy's global generator is left reseeded), stored as float32
  constants. A rank other than 2 or a known feature dimension other than `input_dim` raises
  `InvalidShapeError` (subclasses of `DenseKernelMapper`, the abstract base, are what the classifier takes).
- `sparse_multiclass_hinge_loss(labels, logits, ...)`: Crammer-Singer's max_c (logits_c - logits_label +
  [c != label])^+ per example, weighted and reduced by `tf.compat.v1.losses.compute_weighted_loss`.
- `KernelLinearClassifier`: tf1clip's contrib.learn `LinearClassifier` (same head, default Ftrl rate
  min(0.2, 1 / sqrt(#columns)), metric names) whose model first adds, for each real-valued column with kernel
  mappers, the concatenated mapped features as a real-valued column `<name>_MAPPED`, as TF 1.15's
  `_kernel_model_fn` did. Its `predict` yields TF 1.15's contrib Estimator dicts (`classes`, `probabilities`,
  `logits`, and `logistic` for two classes); `predict_classes` / `predict_proba` take `input_fn` only.
  The variables are TF 1.15's (`linear/<column>_MAPPED/weight`, `linear/bias_weight`), as contrib.learn's
  LinearClassifier's.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.kernel_methods.python.kernel_estimators import KernelLinearClassifier  # noqa: F401
from tf1clip.contrib.kernel_methods.python.losses import sparse_multiclass_hinge_loss  # noqa: F401
from tf1clip.contrib.kernel_methods.python.mappers.random_fourier_features import (  # noqa: F401
    RandomFourierFeatureMapper)

__getattr__ = _catalog.module_getattr(__name__)
