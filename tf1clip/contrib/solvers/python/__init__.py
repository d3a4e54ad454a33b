"""`tf1clip.contrib.solvers.python`: the package TF 1.15 had at `tensorflow.contrib.solvers.python`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
