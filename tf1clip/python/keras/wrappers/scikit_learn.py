"""`tf.keras.wrappers.scikit_learn` (also `tf.contrib.keras.wrappers.scikit_learn`): TF 1.15's scikit-learn wrappers.

tf-keras dropped the module (TF 2.12), and its maintained successor (scikeras) has another API (parameters
routed by prefix, a `model=` argument); this is TF 1.15's API with TF 1.15's behaviour, for scripts that hand a
`KerasClassifier(build_fn=..., epochs=..., batch_size=...)` to scikit-learn's `cross_val_score` or
`GridSearchCV`:
- `sk_params` mix the `build_fn`'s arguments with `fit` / `predict` / `evaluate` arguments; each call takes the
  ones its function accepts (call arguments override them), and a name no function accepts is a ValueError.
- `KerasClassifier` maps labels to class indices (`classes_`) and back, one-hot encodes them for a
  categorical-crossentropy model, returns two columns from `predict_proba` for a single sigmoid output, and
  `score` is the model's accuracy metric; `KerasRegressor.score` is the negative loss.
- `predict_classes` / `predict_proba` are TF 1.15's Sequential methods (tf-keras removed them), done here on the
  model's `predict`: argmax over several outputs, `> 0.5` for one.
"""

import copy
import inspect
import types

import numpy as np
import tf_keras
from absl import logging

_Sequential = tf_keras.Sequential


def _predict_classes(model, x, batch_size=32, verbose=0):
  """TF 1.15's `Sequential.predict_classes`: argmax of the outputs, or `> 0.5` of a single one."""
  proba = model.predict(x, batch_size=batch_size, verbose=verbose)
  if proba.shape[-1] > 1:
    return proba.argmax(axis=-1)
  return (proba > 0.5).astype("int32")


def _predict_proba(model, x, batch_size=32, verbose=0):
  """TF 1.15's `Sequential.predict_proba`: the outputs, with a warning when they are not in [0, 1]."""
  preds = model.predict(x, batch_size=batch_size, verbose=verbose)
  if preds.min() < 0.0 or preds.max() > 1.0:
    logging.warning("Network returning invalid probability values. The last layer might not normalize "
                    "predictions into probabilities (like softmax or sigmoid would).")
  return preds


def _has_arg(fn, name):
  """Whether `fn` takes an argument called `name` (a named parameter, not only **kwargs)."""
  try:
    parameters = inspect.signature(fn).parameters
  except (TypeError, ValueError):
    return False
  parameter = parameters.get(name)
  return parameter is not None and parameter.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                      inspect.Parameter.KEYWORD_ONLY)


def _is_categorical_crossentropy(loss):
  return (isinstance(loss, tf_keras.losses.CategoricalCrossentropy)
          or getattr(loss, "fn", None) is tf_keras.losses.categorical_crossentropy
          or getattr(loss, "__name__", None) == "categorical_crossentropy"
          or loss == "categorical_crossentropy")


class BaseWrapper(object):
  """Base class of the scikit-learn wrappers: `build_fn` builds and compiles a Keras model.

  Args:
    build_fn: a function or callable object returning a compiled model, or None for a subclass whose
      `__call__` builds it.
    **sk_params: the build_fn's arguments and the fit / predict / predict_proba / score arguments.
  """

  def __init__(self, build_fn=None, **sk_params):
    self.build_fn = build_fn
    self.sk_params = sk_params
    self.check_params(sk_params)

  def _builder(self):
    if self.build_fn is None:
      return self.__call__
    if not isinstance(self.build_fn, (types.FunctionType, types.MethodType)):
      return self.build_fn.__call__
    return self.build_fn

  def check_params(self, params):
    """Raises ValueError for a name in `params` that neither build_fn nor fit/predict/evaluate take."""
    legal = (_Sequential.fit, _Sequential.predict, _predict_classes, _Sequential.evaluate, self._builder())
    for name in params:
      if name != "nb_epoch" and not any(_has_arg(fn, name) for fn in legal):
        raise ValueError("{} is not a legal parameter".format(name))

  def get_params(self, **params):  # pylint: disable=unused-argument
    """The sk_params and build_fn (scikit-learn's clone reads them)."""
    res = copy.deepcopy(self.sk_params)
    res.update({"build_fn": self.build_fn})
    return res

  def set_params(self, **params):
    """Updates the sk_params (checked as the constructor checks them); returns self."""
    self.check_params(params)
    self.sk_params.update(params)
    return self

  def fit(self, x, y, **kwargs):
    """Builds a new model with build_fn and fits it to (x, y); returns the History."""
    builder = self._builder()
    self.model = builder(**self.filter_sk_params(builder))
    if _is_categorical_crossentropy(self.model.loss) and len(y.shape) != 2:
      y = tf_keras.utils.to_categorical(y)
    fit_args = copy.deepcopy(self.filter_sk_params(_Sequential.fit))
    fit_args.update(kwargs)
    return self.model.fit(x, y, **fit_args)

  def filter_sk_params(self, fn, override=None):
    """The sk_params `fn` takes, updated with `override`."""
    res = {name: value for name, value in self.sk_params.items() if _has_arg(fn, name)}
    res.update(override or {})
    return res


class KerasClassifier(BaseWrapper):
  """The scikit-learn classifier API for a Keras model (TF 1.15's)."""

  def fit(self, x, y, **kwargs):
    """Fits on labels of any values: `classes_` keeps them, the model sees their indices."""
    y = np.array(y)
    if len(y.shape) == 2 and y.shape[1] > 1:
      self.classes_ = np.arange(y.shape[1])
    elif (len(y.shape) == 2 and y.shape[1] == 1) or len(y.shape) == 1:
      self.classes_ = np.unique(y)
      y = np.searchsorted(self.classes_, y)
    else:
      raise ValueError("Invalid shape for y: " + str(y.shape))
    self.n_classes_ = len(self.classes_)
    return super().fit(x, y, **kwargs)

  def predict(self, x, **kwargs):
    """The predicted labels (values of `classes_`)."""
    kwargs = self.filter_sk_params(_predict_classes, kwargs)
    return self.classes_[_predict_classes(self.model, x, **kwargs)]

  def predict_proba(self, x, **kwargs):
    """Class probabilities, two columns for a single-output (sigmoid) model."""
    kwargs = self.filter_sk_params(_predict_proba, kwargs)
    probs = _predict_proba(self.model, x, **kwargs)
    if probs.shape[1] == 1:
      probs = np.hstack([1 - probs, probs])
    return probs

  def score(self, x, y, **kwargs):
    """The model's accuracy on (x, y); ValueError when the model does not compute accuracy."""
    y = np.searchsorted(self.classes_, y)
    kwargs = self.filter_sk_params(_Sequential.evaluate, kwargs)
    loss_name = self.model.loss
    if hasattr(loss_name, "__name__"):
      loss_name = loss_name.__name__
    if loss_name == "categorical_crossentropy" and len(y.shape) != 2:
      y = tf_keras.utils.to_categorical(y)
    outputs = self.model.evaluate(x, y, **kwargs)
    if not isinstance(outputs, list):
      outputs = [outputs]
    for name, output in zip(self.model.metrics_names, outputs):
      if name in ("accuracy", "acc"):
        return output
    raise ValueError("The model is not configured to compute accuracy. You should pass "
                     "`metrics=[\"accuracy\"]` to the `model.compile()` method.")


class KerasRegressor(BaseWrapper):
  """The scikit-learn regressor API for a Keras model (TF 1.15's)."""

  def predict(self, x, **kwargs):
    """The predictions, squeezed."""
    kwargs = self.filter_sk_params(_Sequential.predict, kwargs)
    return np.squeeze(self.model.predict(x, **kwargs))

  def score(self, x, y, **kwargs):
    """The negative loss on (x, y) (greater is better, as scikit-learn expects)."""
    kwargs = self.filter_sk_params(_Sequential.evaluate, kwargs)
    loss = self.model.evaluate(x, y, **kwargs)
    if isinstance(loss, list):
      return -loss[0]
    return -loss
