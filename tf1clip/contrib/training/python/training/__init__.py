"""`tf1clip.contrib.training.python.training`: the package TF 1.15 had at `tensorflow.contrib.training.python.training`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
