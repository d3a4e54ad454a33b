"""`tf1clip.contrib.estimator.python`: the package TF 1.15 had at `tensorflow.contrib.estimator.python`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
