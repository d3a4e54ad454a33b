"""`tf.contrib.learn.Trainable`: the interface of objects Experiment can train (TF 1.15's abstract class).

Place in the data flow (DESIGN.md): **contrib.learn.trainable** <- contrib.learn <- compat <- cli.

An abstract base class with the abstract method `fit(x, y, input_fn, steps, batch_size, monitors, max_steps)`.
contrib.learn's `BaseEstimator` is registered as a virtual subclass (TF 1.15's BaseEstimator derived from it).
"""

import abc

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn import estimator as estimator_lib


class Trainable(abc.ABC):
  """Interface for objects that are trainable by, e.g., `Experiment`."""

  @abc.abstractmethod
  def fit(self, x=None, y=None, input_fn=None, steps=None, batch_size=None, monitors=None, max_steps=None):
    """Trains a model given training data `x` predictions and `y` labels; returns self."""
    raise NotImplementedError


Trainable.register(estimator_lib.BaseEstimator)

__getattr__ = _catalog.module_getattr(__name__)
