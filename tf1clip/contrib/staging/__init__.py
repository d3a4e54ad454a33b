"""`tf.contrib.staging`: StagingArea (tensorflow.python.ops.data_flow_ops' class: stage tensors on a device for the next step).

Place in the data flow (DESIGN.md): TensorFlow <- **contrib.staging** <- compat <- cli. TF 1.15's names are
served as the very objects TensorFlow 2.21 still has (catalog.SERVED); anything else raises
ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.staging", lazy=_catalog.served("tf.contrib.staging"))
