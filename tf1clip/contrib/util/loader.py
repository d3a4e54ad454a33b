"""`tf.contrib.util.loader`: `load_op_library`, TF 1.15's loader of a compiled custom-op library.

Mirrors TF 1.15's `tensorflow/contrib/util/loader.py`.

A library compiled against TF 1.15 does not load into TensorFlow 2.21 (its ABI changed): rebuild the op
against TensorFlow 2.21 first, then this loads it as TF 1.15's did. A relative path is taken relative to
TF 1.15's contrib/util folder there; a script passes an absolute path.
"""

import os

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

def load_op_library(path):
  """Loads a custom-op library from `path` (an absolute path to a shared object); returns its op module."""
  if os.name == "nt" and not os.path.exists(path):
    path = path[:-len(".so")] + ".dll" if path.endswith(".so") else path
    if not os.path.exists(path):
      return None
  library = tf.load_op_library(path)
  assert library, "Could not load %s" % path
  return library

__getattr__ = _catalog.module_getattr(__name__)
