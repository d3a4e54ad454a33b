"""`tf.contrib.keras`: TF 1.15's second name for its Keras API, served as tf-keras' TF1 Keras API.

Each submodule (`layers`, `models`, `backend`, `optimizers`, `datasets`, `applications`, ...) is the module tf1clip
serves as `tf.keras.<name>` (`tf_keras.api._v1.keras.<name>`), so `tf.contrib.keras.layers.Dense` is
`tf.keras.layers.Dense`; `tf.contrib.keras.api.keras` is this module again. `wrappers.scikit_learn`, which tf-keras
dropped, is TF 1.15's (tf1clip.python.keras.wrappers.scikit_learn), the same module tf1clip serves as
`tf.keras.wrappers.scikit_learn`.
"""

import importlib
import types

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tf_keras.api._v1.keras import (
    activations, applications, backend, callbacks, constraints, datasets, initializers, layers, losses, metrics,
    models, optimizers, preprocessing, regularizers, utils)

class _Api(types.ModuleType):
  """`tf.contrib.keras.api`: its one member, `keras`, is this module again (TF 1.15's was the same API)."""

  @property
  def keras(self):
    return importlib.import_module(__name__)


api = _Api("tf.contrib.keras.api")


class _Wrappers(types.ModuleType):
  """`tf.contrib.keras.wrappers`: its one member, `scikit_learn`, is TF 1.15's (imported on first use)."""

  @property
  def scikit_learn(self):
    return importlib.import_module("tf1clip.python.keras.wrappers.scikit_learn")


wrappers = _Wrappers("tf.contrib.keras.wrappers")

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf_keras (Keras 2) or keras (Keras 3)'

__getattr__ = _catalog.module_getattr(__name__)
