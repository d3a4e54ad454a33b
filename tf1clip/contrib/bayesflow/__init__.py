"""`tf.contrib.bayesflow`: the `monte_carlo` module (Monte Carlo expectations and importance sampling).

Mirrors TF 1.15's `tensorflow/contrib/bayesflow/__init__.py`.
TF 1.15's bayesflow kept only `monte_carlo` (the rest had moved to tensorflow-probability); it is TF 1.15's code
in tf1clip/contrib/bayesflow/python/ops/monte_carlo_impl.py.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.bayesflow.python.ops import monte_carlo  # noqa: F401

__getattr__ = _catalog.module_getattr(__name__)
