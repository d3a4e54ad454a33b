"""`tf.contrib.util`: tensor-proto and graph-def helpers, still in TensorFlow 2.21 under other paths.

Mirrors TF 1.15's `tensorflow/contrib/util/__init__.py`. `constant_value` is
`tf.get_static_value` (the same function, renamed), `make_tensor_proto` is `tf.compat.v1`'s,
`make_ndarray` is `tf.make_ndarray`; `loader.load_op_library` loads a custom-op library.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow import get_static_value as constant_value, make_ndarray
from tensorflow.compat.v1 import make_tensor_proto
from tensorflow.python.framework.meta_graph import ops_used_by_graph_def, stripped_op_list_for_graph
from tf1clip.contrib.util import loader  # noqa: F401  (tf.contrib.util.loader)

__getattr__ = _catalog.module_getattr(__name__)
