"""`tf.contrib.util`: tensor-proto and graph-def helpers, still in TensorFlow 2.21 under other paths.

Mirrors TF 1.15's `tensorflow/contrib/util/__init__.py`. `constant_value` is
`tf.get_static_value` (the same function, renamed), `make_tensor_proto` is `tf.compat.v1`'s,
`make_ndarray` is `tf.make_ndarray`; `loader.load_op_library` loads a custom-op library. The table is `catalog.SERVED`.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.util import loader  # noqa: F401  (tf.contrib.util.loader)

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.util",
                                              lazy=_catalog.served("tf.contrib.util"))
