"""`tf1clip.contrib.solvers.python.ops`: the package TF 1.15 had at `tensorflow.contrib.solvers.python.ops`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
