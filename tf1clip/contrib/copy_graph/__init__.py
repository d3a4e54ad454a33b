"""`tf.contrib.copy_graph`: copy variables and ops from one graph into another.

tf1clip's code, TF 1.15's `tensorflow/contrib/copy_graph/python/util/copy_elements.py` (python/util/copy_elements.py
here): the copies keep their names, collections and trainability, under a scope of the target graph.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.copy_graph.python.util.copy_elements import (  # noqa: F401
    copy_op_to_graph, copy_variable_to_graph, get_copied_op)

__getattr__ = _catalog.module_getattr(__name__)
