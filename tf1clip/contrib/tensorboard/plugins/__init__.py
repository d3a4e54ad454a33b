"""`tf.contrib.tensorboard.plugins`: holds `projector` (the embedding projector's configuration)."""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.tensorboard.plugins import projector  # noqa: F401  (tf.contrib.tensorboard.plugins.projector)

__getattr__ = _catalog.module_getattr(__name__)
