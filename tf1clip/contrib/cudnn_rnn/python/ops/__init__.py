"""`tf1clip.contrib.cudnn_rnn.python.ops`: the package TF 1.15 had at `tensorflow.contrib.cudnn_rnn.python.ops`."""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
