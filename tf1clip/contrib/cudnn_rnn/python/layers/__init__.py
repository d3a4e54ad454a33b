"""`tf1clip.contrib.cudnn_rnn.python.layers`: the package TF 1.15 had at
`tensorflow.contrib.cudnn_rnn.python.layers`.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
