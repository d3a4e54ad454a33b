"""`tf.contrib.tensorboard`: the embedding projector's configuration (TF 1.15's `plugins.projector`), on TensorBoard's.

Place in the data flow (DESIGN.md): tensorboard.plugins.projector <- **contrib.tensorboard** <- compat <- cli.
"""

from tf1clip.contrib import catalog
from tf1clip.contrib.tensorboard import plugins  # noqa: F401  (tf.contrib.tensorboard.plugins)

__getattr__ = catalog.missing_attribute_hook("tf.contrib.tensorboard", lazy=catalog.served("tf.contrib.tensorboard"))
