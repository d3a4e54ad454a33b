"""`tf1clip.contrib.receptive_field.python`: the package TF 1.15 had at `tensorflow.contrib.receptive_field.python`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
