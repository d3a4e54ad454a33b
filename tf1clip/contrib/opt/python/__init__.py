"""`tf1clip.contrib.opt.python`: the package TF 1.15 had at `tensorflow.contrib.opt.python`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
