"""`tf.contrib.bayesflow.monte_carlo`: TF 1.15's public face of `monte_carlo_impl` (its three functions only).

TF 1.15's `tensorflow/contrib/bayesflow/python/ops/monte_carlo.py`; the code is in monte_carlo_impl (tf1clip's).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.bayesflow.python.ops.monte_carlo_impl import (  # noqa: F401
    expectation, expectation_importance_sampler, expectation_importance_sampler_logspace)

__getattr__ = _catalog.module_getattr(__name__, symbol="tf.contrib.bayesflow.monte_carlo")
