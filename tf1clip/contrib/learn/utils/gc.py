"""`tf.contrib.learn.utils.gc`: garbage-collection filters over versioned export paths (tensorflow-estimator's).

Place in the data flow (DESIGN.md): tensorflow_estimator's gc <- **contrib.learn.utils.gc** <-
contrib.learn.utils.saved_model_export_utils <- compat <- cli.

TF 1.15's module moved into tensorflow-estimator as `tensorflow_estimator.python.estimator.gc` with the same
code under private names (`_largest_export_versions`, ...); this module serves those functions and its `Path`
under TF 1.15's public names, imported on first use.
"""

import importlib

from tf1clip.contrib import catalog as _catalog

# TF 1.15's public name -> the name in tensorflow_estimator.python.estimator.gc
_NAMES = {"Path": "Path", "get_paths": "_get_paths", "largest_export_versions": "_largest_export_versions",
          "mod_export_version": "_mod_export_version", "negation": "_negation",
          "one_of_every_n_export_versions": "_one_of_every_n_export_versions", "union": "_union"}


def _from_estimator(name):
  return lambda: getattr(importlib.import_module("tensorflow_estimator.python.estimator.gc"), name)


__getattr__ = _catalog.module_getattr(__name__, lazy={public: _from_estimator(private)
                                                      for public, private in _NAMES.items()})
