"""`tf.contrib.stateless`: the stateless random ops, still in TensorFlow 2.21 under tf.random.

`stateless_random_uniform`, `stateless_random_normal` and `stateless_truncated_normal` are
`tf.random.stateless_uniform`, `stateless_normal` and `stateless_truncated_normal`; `stateless_multinomial` is
`tf.compat.v1.random.stateless_multinomial` (the same functions, TF 2.21 adds an `alg` argument after TF 1.15's).
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.compat.v1.random import stateless_multinomial
from tensorflow.random import (
    stateless_normal as stateless_random_normal, stateless_truncated_normal, stateless_uniform as
    stateless_random_uniform)

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.random.stateless_uniform / stateless_normal'

__getattr__ = _catalog.module_getattr(__name__)
