"""`tf.contrib.proto`: decode_proto and encode_proto (tf.io's ops).

Place in the data flow (DESIGN.md): TensorFlow <- **contrib.proto** <- compat <- cli. TF 1.15's names are
served as the very objects TensorFlow 2.21 still has (catalog.SERVED); anything else raises
ContribNotProvidedError with a replacement.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.proto", lazy=_catalog.served("tf.contrib.proto"))
