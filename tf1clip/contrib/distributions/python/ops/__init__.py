"""`tf1clip.contrib.distributions.python.ops`: the package TF 1.15 had at
`tensorflow.contrib.distributions.python.ops`.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.mirror_getattr(__name__)
