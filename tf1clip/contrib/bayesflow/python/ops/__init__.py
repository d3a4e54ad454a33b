"""`tf1clip.contrib.bayesflow.python.ops`: the package TF 1.15 had at `tensorflow.contrib.bayesflow.python.ops`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
