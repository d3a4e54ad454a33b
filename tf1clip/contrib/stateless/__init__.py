"""`tf.contrib.stateless`: the stateless random ops, still in TensorFlow 2.21 under tf.random.

Place in the data flow (DESIGN.md): **contrib.stateless** <- compat <- cli. `stateless_random_uniform`,
`stateless_random_normal` and `stateless_truncated_normal` are `tf.random.stateless_uniform`, `stateless_normal`
and `stateless_truncated_normal`; `stateless_multinomial` is `tf.compat.v1.random.stateless_multinomial` (the same
functions, TF 2.21 adds an `alg` argument after TF 1.15's). The table is `catalog.SERVED`.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.stateless", lazy=_catalog.served("tf.contrib.stateless"))
