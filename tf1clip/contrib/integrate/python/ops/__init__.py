"""`tf1clip.contrib.integrate.python.ops`: the package TF 1.15 had at `tensorflow.contrib.integrate.python.ops`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
