"""`tf.contrib.tensorboard`: the embedding projector's configuration (TF 1.15's `plugins.projector`), on TensorBoard's.

Mirrors TF 1.15's `tensorflow/contrib/tensorboard/__init__.py`.
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.tensorboard import plugins  # noqa: F401  (tf.contrib.tensorboard.plugins)

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.tensorboard", lazy=_catalog.served("tf.contrib.tensorboard"))
