"""TF 1.15's internal path `tensorflow.contrib.reduce_slice_ops.python.ops`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
