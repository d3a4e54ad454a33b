"""`tf1clip.contrib.kernel_methods.python.mappers`: the package TF 1.15 had at `tensorflow.contrib.kernel_methods.python.mappers`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
