"""`tf.contrib.eager.metrics` (`tfe.metrics`): TF 1.15's object metrics, for eager and graph code.

Mirrors TF 1.15's `tensorflow/contrib/eager/python/metrics.py`.

A metric is called on each batch (`m(values)`, `m(labels, predictions)`) and accumulates into its variables;
`m.result()` is the value (a Mean also writes it as a scalar summary when a default summary writer is set);
`init_variables()` resets. TF 1.15's code: the variables are resource variables named `<metric scope>/numer`
and `.../denom` (float64 by default), in LOCAL_VARIABLES and METRIC_VARIABLES in graph mode (GLOBAL_VARIABLES
with `use_global_variables=True`); in graph mode `call` runs as a tf.function, as TF 1.15's defun did.
`tf.keras.metrics` is their successor (another API: update_state / result / reset_states).
"""

import re

import tensorflow as tf

import tf1clip.contrib.summary as contrib_summary

V1 = tf.compat.v1
_TO_REPLACE = re.compile("[^A-Za-z0-9.]")

class Metric(tf.__internal__.tracking.Trackable):
  """A metric: `build` makes its variables on the first call, `call` updates them, `result` reads them."""

  def __init__(self, name=None, use_global_variables=False):
    self._built = False
    self._vars = []
    self._initial_values = {}
    self._updates = []
    self._use_global_variables = use_global_variables
    name = name or self.__class__.__name__
    scope_name = _TO_REPLACE.sub("_", name)
    with V1.variable_scope(scope_name, use_resource=True, reuse=False) as scope:
      # a second metric of the same name gets the scope's suffix (`mean_1`) in its name too
      pos = scope.name.rfind(scope_name)
      self._name = name + scope.name[pos + len(scope_name):]
      self._scope = scope
    self._build = self.build

    def actual_build(*args, **kwargs):
      self._build(*args, **kwargs)
      self._built = True

    self.build = actual_build
    self.build.__doc__ = self._build.__doc__
    if tf.executing_eagerly():
      self._construction_scope = tf.init_scope
    else:
      self._construction_scope = V1.get_default_graph().as_default
      self.call = tf.function(self.call, autograph=False)

  def __call__(self, *args, **kwargs):
    """Updates the metric with a batch; returns what `call` returns (its inputs, for chaining)."""
    if not self._built:
      with V1.variable_scope(self._scope), self._construction_scope():
        self.build(*args, **kwargs)
      self._built = True
    return self.call(*args, **kwargs)

  @property
  def name(self):
    return self._name

  @property
  def variables(self):
    return self._vars

  def init_variables(self):
    """Resets the variables: assigns the initial values (eager), or returns the group of initializers (graph)."""
    if tf.executing_eagerly():
      for v in self._vars:
        v.assign(self._initial_values[v])
      return None
    return tf.group([v.initializer for v in self._vars])

  def build(self, *args, **kwargs):
    """Creates the variables with `add_variable` (on the first call, with its arguments)."""
    raise NotImplementedError("Metrics must define a build() member function")

  def call(self, *args, **kwargs):
    """Accumulates one batch into the variables."""
    raise NotImplementedError("Metrics must define a call() member function")

  def result(self):
    """The metric's value."""
    raise NotImplementedError("Metrics must define a result() member function")

  def value(self):
    """TF 1.15's spelling: the `result` method when eager, its value in a graph."""
    if tf.executing_eagerly():
      return self.result
    return self.result()

  def aggregate(self, metrics):
    """Adds the variables of other metrics of the same type into this one's (e.g. one per replica)."""
    for m in metrics:
      if type(self) != type(m):  # pylint: disable=unidiomatic-typecheck
        raise TypeError("All metrics must be the same type, '%s' != '%s'." % (type(self), type(m)))
    for i, v in enumerate(self._vars):
      if any(m._vars[i].name != v.name for m in metrics):  # pylint: disable=protected-access
        raise ValueError("All metrics must have variables in the same order.")
      v.assign_add(tf.add_n([m._vars[i] for m in metrics]))  # pylint: disable=protected-access

  def add_variable(self, name, shape=None, dtype=None, initializer=None):
    """A non-trainable resource variable of the metric (only inside `build`)."""
    if self._built:
      raise RuntimeError("Can't call add_variable() except in build().")
    if tf.executing_eagerly():
      collections = None
    else:
      collections = [V1.GraphKeys.GLOBAL_VARIABLES if self._use_global_variables
                     else V1.GraphKeys.LOCAL_VARIABLES, V1.GraphKeys.METRIC_VARIABLES]
    v = self._add_variable_with_custom_getter(
        name=name, shape=shape, dtype=dtype, initializer=initializer, trainable=False, collections=collections,
        use_resource=True, getter=V1.get_variable, overwrite=True)
    self._vars.append(v)
    if tf.executing_eagerly():
      self._initial_values[v] = v.value()
    return v

class Mean(Metric):
  """The (weighted) mean of every value it was called with."""

  def __init__(self, name=None, dtype=tf.float64, use_global_variables=False):
    super().__init__(name=name, use_global_variables=use_global_variables)
    self.dtype = dtype

  def build(self, *args, **kwargs):
    del args, kwargs  # the variables do not depend on the inputs
    self.numer = self.add_variable(name="numer", shape=(), dtype=self.dtype, initializer=V1.zeros_initializer)
    self.denom = self.add_variable(name="denom", shape=(), dtype=self.dtype, initializer=V1.zeros_initializer)

  def call(self, values, weights=None):
    """Adds sum(values * weights) and sum(weights) (or the number of values)."""
    if weights is None:
      self.denom.assign_add(tf.cast(tf.identity(tf.size(values)), self.dtype))
      values = tf.reduce_sum(values)
      self.numer.assign_add(tf.cast(values, self.dtype))
      return values
    weights = tf.cast(weights, self.dtype)
    self.denom.assign_add(tf.reduce_sum(weights))
    values = tf.cast(values, self.dtype) * weights
    self.numer.assign_add(tf.reduce_sum(values))
    return values, weights

  def result(self, write_summary=True):
    """numer / denom; also a scalar summary named after the metric when `write_summary` (and a writer is set)."""
    t = self.numer / self.denom

    def write_summary_f():
      contrib_summary.scalar(name=self.name, tensor=t)  # a no-op without a default writer, as in TF 1.15
      return t

    decided = tf.get_static_value(tf.convert_to_tensor(write_summary))
    if decided is None:  # a Tensor decides at run time (TF 1.15's smart_cond)
      tf.cond(write_summary, write_summary_f, lambda: t)
    elif decided:
      write_summary_f()
    return t

def _check_shapes(labels, predictions, message, first_axis=False):
  shape = tf.shape(predictions)[0] if first_axis else tf.shape(predictions)
  V1.assert_equal(tf.shape(labels), shape, message=message)

class Accuracy(Mean):
  """The fraction of labels equal to the predictions."""

  def __init__(self, name=None, dtype=tf.float64):
    super().__init__(name=name, dtype=dtype)

  def call(self, labels, predictions, weights=None):  # pylint: disable=arguments-differ
    _check_shapes(labels, predictions, "Shapes of labels and predictions are unequal")
    super().call(tf.cast(tf.equal(labels, predictions), self.dtype), weights=weights)
    return (labels, predictions) if weights is None else (labels, predictions, weights)

class CategoricalAccuracy(Mean):
  """The fraction of rows whose one-hot label's argmax is the predictions' argmax."""

  def __init__(self, name=None, dtype=tf.float64):
    super().__init__(name=name, dtype=dtype)

  def call(self, labels, predictions, weights=None):  # pylint: disable=arguments-differ
    _check_shapes(labels, predictions, "Shapes of labels and predictions are unequal")
    labels = tf.argmax(labels, axis=-1)
    predictions = tf.argmax(predictions, axis=-1)
    super().call(tf.cast(tf.equal(labels, predictions), self.dtype), weights=weights)
    return (labels, predictions) if weights is None else (labels, predictions, weights)

class BinaryAccuracy(Mean):
  """The fraction of boolean labels equal to `predictions > threshold`."""

  def __init__(self, threshold, name=None, dtype=tf.float64):
    super().__init__(name=name, dtype=dtype)
    self.threshold = threshold

  def call(self, labels, predictions, weights=None):  # pylint: disable=arguments-differ
    _check_shapes(labels, predictions, "Shapes of labels and predictions are unequal")
    predictions = tf.convert_to_tensor(predictions) > self.threshold
    labels = tf.cast(labels, tf.bool)
    super().call(tf.cast(tf.equal(labels, predictions), self.dtype), weights=weights)
    return (labels, predictions) if weights is None else (labels, predictions, weights)

class SparseAccuracy(Mean):
  """The fraction of integer labels equal to the predictions' argmax."""

  def __init__(self, name=None, dtype=tf.float64):
    super().__init__(name=name, dtype=dtype)

  def call(self, labels, predictions, weights=None):  # pylint: disable=arguments-differ
    _check_shapes(labels, predictions, "First axis of labels and predictions is unequal", first_axis=True)
    predictions = tf.argmax(predictions, axis=-1)
    labels = tf.cast(labels, tf.int64)
    super().call(tf.cast(tf.equal(labels, predictions), self.dtype), weights=weights)
    return (labels, predictions) if weights is None else (labels, predictions, weights)
