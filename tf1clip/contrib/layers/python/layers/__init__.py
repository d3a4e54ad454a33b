"""`tf1clip.contrib.layers.python.layers`: the package TF 1.15 had at `tensorflow.contrib.layers.python.layers`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
