"""`tf1clip.contrib.framework.python.framework`: the package TF 1.15 had at `tensorflow.contrib.framework.python.framework`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
