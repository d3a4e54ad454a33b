"""TF 1.15's internal path `tensorflow.contrib.reduce_slice_ops.python`, the only way to its ops in TF 1.15."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
