"""`tf.contrib.signal`: `tf.signal`'s functions, which TF 1.15's contrib.signal already re-exported.

Place in the data flow (DESIGN.md): **contrib.signal** <- compat <- cli. The table is `catalog.SERVED`.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.signal",
                                              lazy=_catalog.served("tf.contrib.signal"))
