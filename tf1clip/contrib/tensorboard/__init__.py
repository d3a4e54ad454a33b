"""`tf.contrib.tensorboard`: the embedding projector's configuration (TF 1.15's `plugins.projector`), on TensorBoard's.

Mirrors TF 1.15's `tensorflow/contrib/tensorboard/__init__.py`.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.tensorboard import plugins  # noqa: F401  (tf.contrib.tensorboard.plugins)

__getattr__ = _catalog.module_getattr(__name__)
