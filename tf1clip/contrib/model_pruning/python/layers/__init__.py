"""`tf1clip.contrib.model_pruning.python.layers`: the package TF 1.15 had at `tensorflow.contrib.model_pruning.python.layers`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
