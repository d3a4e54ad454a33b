"""`tf.contrib.learn.Evaluable`: the interface of objects Experiment can evaluate (TF 1.15's abstract class).

Place in the data flow (DESIGN.md): **contrib.learn.evaluable** <- contrib.learn <- compat <- cli.

An abstract base class with the abstract property `model_dir` and the abstract method `evaluate(x, y, input_fn,
feed_fn, batch_size, steps, metrics, name, checkpoint_path, hooks)`. contrib.learn's `BaseEstimator` is
registered as a virtual subclass (TF 1.15's BaseEstimator derived from it).
"""

import abc

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.learn import estimator as estimator_lib


class Evaluable(abc.ABC):
  """Interface for objects that are evaluatable by, e.g., `Experiment`."""

  @property
  @abc.abstractmethod
  def model_dir(self):
    """Returns a path in which the eval process will look for checkpoints."""
    raise NotImplementedError

  @abc.abstractmethod
  def evaluate(self, x=None, y=None, input_fn=None, feed_fn=None, batch_size=None, steps=None, metrics=None,
               name=None, checkpoint_path=None, hooks=None):
    """Evaluates the model on the given data; a dict of metric values and `global_step`."""
    raise NotImplementedError


Evaluable.register(estimator_lib.BaseEstimator)

__getattr__ = _catalog.module_getattr(__name__)
