"""`tf.contrib.learn.utils.gc`: garbage-collection filters over versioned export paths (tensorflow-estimator's).

Place in the data flow (DESIGN.md): tensorflow_estimator's gc <- **contrib.learn.utils.gc** <-
contrib.learn.utils.saved_model_export_utils <- compat <- cli.

TF 1.15's module moved into tensorflow-estimator as `tensorflow_estimator.python.estimator.gc` with the same
code under private names (`_largest_export_versions`, ...); the catalog serves those functions and its `Path`
under TF 1.15's public names, so this module holds nothing but the lookup.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.learn.utils.gc",
                                              lazy=_catalog.served("tf.contrib.learn.utils.gc"))
