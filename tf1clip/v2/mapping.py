"""TF1 optimizers -> the Keras optimizers that take the same steps, and where they cannot.

``keras_optimizer_like(tf.compat.v1.train.AdamOptimizer(1e-3))`` returns
``keras.optimizers.Adam(1e-3, beta_1=0.9, beta_2=0.999, epsilon=1e-8)``: TF1's defaults made
explicit where Keras' differ. `MAPPINGS` holds, per TF1 optimizer, the Keras class, how the
arguments translate, and every numerical difference that remains (docs/migration.md prints
the same table). The parity tests (tests/test_v2_mapping.py) train both sides and compare.

Place in the data flow (DESIGN.md): optimizer <- accumulation <- **v2** (this module only
reads TF1 optimizers' hyperparameters; it builds no graph).
"""

import collections
import numbers

import numpy as np
import tensorflow as tf

from tf1clip import optimizer as optimizer_lib

Mapping = collections.namedtuple(
    "Mapping", ["tf1", "keras", "kwargs", "same_steps", "differences"])
Mapping.__doc__ = """How one TF1 optimizer maps to Keras.

Attributes:
  tf1: TF1 class name (``tf.compat.v1.train.<tf1>``).
  keras: Keras class name (``keras.optimizers.<keras>``), or None when Keras has none.
  kwargs: callable TF1 optimizer -> dict of Keras constructor arguments (None if no class).
  same_steps: when the two take the same steps (up to float32 rounding).
  differences: what differs and cannot be configured away.
"""


def _lr(opt, attr="_learning_rate"):
  return getattr(opt, attr)


def _adam(opt):
  return {"learning_rate": _lr(opt, "_lr"), "beta_1": opt._beta1, "beta_2": opt._beta2,
          "epsilon": opt._epsilon, "amsgrad": False}


def _sgd(opt):
  return {"learning_rate": _lr(opt), "momentum": 0.0}


def _momentum(opt):
  return {"learning_rate": _lr(opt), "momentum": opt._momentum,
          "nesterov": bool(opt._use_nesterov)}


def _rmsprop(opt):
  return {"learning_rate": _lr(opt), "rho": opt._decay, "momentum": opt._momentum,
          "epsilon": opt._epsilon, "centered": bool(opt._centered)}


def _adagrad(opt):
  # TF1's Adagrad has no epsilon: var -= lr * g / sqrt(accum).
  return {"learning_rate": _lr(opt),
          "initial_accumulator_value": opt._initial_accumulator_value, "epsilon": 0.0}


def _ftrl(opt):
  return {"learning_rate": _lr(opt), "learning_rate_power": opt._learning_rate_power,
          "initial_accumulator_value": opt._initial_accumulator_value,
          "l1_regularization_strength": opt._l1_regularization_strength,
          "l2_regularization_strength": opt._l2_regularization_strength,
          "l2_shrinkage_regularization_strength": opt._l2_shrinkage_regularization_strength,
          "beta": opt._beta}


def _adadelta(opt):
  return {"learning_rate": _lr(opt, "_lr"), "rho": opt._rho, "epsilon": opt._epsilon}


_LAZY_SPARSE = (
    "Sparse gradients (tf.IndexedSlices, e.g. embeddings): TF1 updates only the rows "
    "present (its slots of other rows do not decay); Keras densifies the gradient, so rows "
    "absent from a batch still decay their slots and move. Equal on dense gradients; no "
    "Keras setting makes the sparse update lazy.")

MAPPINGS = (
    Mapping(
        "GradientDescentOptimizer", "SGD", _sgd,
        "always (var -= lr * g in both)", ()),
    Mapping(
        "MomentumOptimizer", "SGD", _momentum,
        "with a constant learning rate, dense gradients (use_nesterov -> nesterov=True: "
        "both apply var -= lr * (g + momentum * accum))",
        ("Slot form: TF1 keeps accum = momentum * accum + g and applies var -= lr * accum; "
         "Keras keeps m = momentum * m - lr * g and applies var += m, i.e. m = -lr * accum. "
         "With a learning rate that changes over time (decay, schedule) TF1 rescales the whole "
         "accumulated velocity by the current rate while Keras keeps past rates baked into "
         "m: the trajectories differ and no setting reconciles them.",
         _LAZY_SPARSE)),
    Mapping(
        "AdamOptimizer", "Adam", _adam,
        "always, with epsilon=1e-8 (TF1's default; Keras' is 1e-7); both use the "
        "'epsilon hat' form var -= lr_t * m / (sqrt(v) + epsilon)",
        ("Bias correction: TF1 keeps beta1^t and beta2^t as running float32 products in two "
         "variables (beta1_power, beta2_power); Keras computes beta^t from iterations. They "
         "differ by float32 rounding, which 1 - beta2^t magnifies in early steps (the step "
         "size lr*sqrt(1-beta2^t)/(1-beta1^t) differs by up to ~1e-5 relative): weights "
         "agree to about lr * steps * 1e-5.",
         "Sparse gradients: both are non-lazy (TF1's AdamOptimizer decays every row's m and "
         "v), so they agree, once repeated rows are summed (tf1clip.v2 wrappers do; plain "
         "Keras squares each repeated row separately).")),
    Mapping(
        "RMSPropOptimizer", "RMSprop", _rmsprop,
        "with epsilon=1e-10 (TF1's default; Keras' is 1e-7) and the mean square starting "
        "at 1.0 as in TF1 (keras_optimizer_like builds a Keras RMSprop whose 'velocity' "
        "starts at 1.0); epsilon sits inside the square root in both: "
        "lr * g / sqrt(ms + epsilon) (centered: sqrt(ms - mg^2 + epsilon))",
        ("TF1 starts the mean square slot 'rms' at 1.0, Keras starts 'velocity' at 0.0: "
         "a plain keras.optimizers.RMSprop's first step is lr * sign(g) / sqrt(1 - rho) "
         "(~3.2 lr whatever the gradient's scale), TF1's lr * g / sqrt(rho + (1 - rho) g^2): "
         "3x larger at |g| = 1, 30x at |g| = 0.1 (keras_optimizer_like corrects this).",
         "Old standalone Keras (<= 2.3) put epsilon outside the root (sqrt(ms) + eps); "
         "Keras 3 and tf-keras put it inside, like TF1, and so does tf_keras.optimizers."
         "legacy.RMSprop with momentum > 0; with momentum 0 the legacy one puts it outside. "
         "With TF1's epsilon of 1e-10 and the mean square starting at 1.0 that only shows "
         "once the mean square decays towards epsilon.",
         _LAZY_SPARSE)),
    Mapping(
        "AdagradOptimizer", "Adagrad", _adagrad,
        "with epsilon=0.0 (TF1 has none; Keras adds 1e-7 inside the root); the initial "
        "accumulator is 0.1 in both",
        ("Sparse gradients: TF1 touches only the rows present; Keras densifies, but a zero "
         "gradient adds 0 to the accumulator and moves nothing, so they agree.",
         "tf_keras.optimizers.legacy.Adagrad turns epsilon=0.0 into 1e-7 ('epsilon or "
         "1e-7') and adds it outside the root; keras_optimizer_like sets its epsilon back "
         "to 0.0 after construction, which is TF1's update.")),
    Mapping(
        "FtrlOptimizer", "Ftrl", _ftrl,
        "always on dense gradients (beta folds into l2 as l2 + beta / (2 * lr) in both; "
        "l2_shrinkage as FtrlV2)",
        ("Sparse gradients: TF1 updates only rows present; Keras recomputes every row from "
         "its linear slot, so a row never seen is set to 0 on the first step instead of "
         "keeping its initial value.",)),
    Mapping(
        "AdadeltaOptimizer", "Adadelta", _adadelta,
        "with epsilon=1e-8 (TF1's default; Keras' is 1e-7); learning_rate 0.001 and rho "
        "0.95 are both sides' defaults",
        (_LAZY_SPARSE,)),
    Mapping(
        "LazyAdamOptimizer", "Adam", _adam,
        "dense gradients only, with epsilon=1e-8",
        ("Sparse gradients: tf.contrib.opt.LazyAdamOptimizer updates m, v and the weights only "
         "at the looked-up rows; Keras' Adam decays every row's m and v and moves every row. "
         "No Keras setting makes Adam lazy.",)),
    Mapping(
        "ProximalGradientDescentOptimizer", None, None, "never",
        ("Keras has no proximal optimizer: keep TF1's (graph mode) or write the proximal "
         "step as a tf1clip transform plus SGD.",)),
    Mapping(
        "ProximalAdagradOptimizer", None, None, "never",
        ("Keras has no proximal optimizer: keep TF1's (graph mode).",)),
)

_BY_TF1 = {m.tf1: m for m in MAPPINGS}


def _class_table():
  """Exact TF1 class -> Mapping. A subclass is not its parent: it may change the update (LazyAdam)."""
  from tf1clip.contrib.opt.python.training import lazy_adam_optimizer  # pylint: disable=g-import-not-at-top
  train = tf.compat.v1.train
  table = {getattr(train, m.tf1): m for m in MAPPINGS if hasattr(train, m.tf1)}
  table[lazy_adam_optimizer.LazyAdamOptimizer] = _BY_TF1["LazyAdamOptimizer"]
  return table


def mapping_for(tf1_optimizer):
  """The `Mapping` of a TF1 optimizer (instance or class), looked up by its exact class.

  A tf1clip wrapper (``tf1clip.WrappedOptimizer``, accumulation) maps as its inner optimizer.

  Raises:
    TypeError: `tf1_optimizer` is not a ``tf.compat.v1.train.Optimizer``.
    ValueError: no mapping is known for its exact class (a subclass of a known optimizer may
      change its update, so it is not mapped as its parent).
  """
  tf1_optimizer = _unwrap(tf1_optimizer)
  cls = tf1_optimizer if isinstance(tf1_optimizer, type) else type(tf1_optimizer)
  if not issubclass(cls, tf.compat.v1.train.Optimizer):
    optimizer_lib.check_optimizer(tf1_optimizer, "tf1_optimizer")
  table = _class_table()
  if cls in table:
    return table[cls]
  parents = [k.__name__ for k in cls.__mro__[1:] if k in table]
  hint = (" It subclasses %s, but a subclass may change the update: build the Keras optimizer "
          "yourself (keras_kwargs_like(%s(...)) gives the parent's arguments)."
          % (parents[0], parents[0]) if parents else "")
  raise ValueError("No Keras mapping is known for %s; known: %s.%s"
                   % (cls.__name__, sorted(_BY_TF1), hint))


def _unwrap(opt):
  while hasattr(opt, "inner_optimizer") and isinstance(opt, tf.compat.v1.train.Optimizer):
    opt = opt.inner_optimizer
  return opt


def _plain_number(name, value):
  if isinstance(value, bool):
    return value
  if isinstance(value, (numbers.Real, np.number)):
    return float(value)
  if callable(value) and not isinstance(value, (tf.Tensor, tf.Variable)):
    return value  # Keras accepts a callable learning rate.
  raise ValueError(
      "The TF1 optimizer's %s is a %s (%r), which cannot be carried over to Keras; pass "
      "%s=<number or schedule> to keras_optimizer_like." % (name, type(value).__name__, value,
                                                            name))


def keras_kwargs_like(tf1_optimizer, **overrides):
  """The Keras class name and constructor arguments that reproduce a TF1 optimizer.

  Args:
    tf1_optimizer: a ``tf.compat.v1.train`` optimizer (or a tf1clip wrapper of one).
    **overrides: Keras arguments replacing the translated ones (e.g. a `learning_rate`
      schedule when TF1's was a decayed tensor).

  Returns:
    (class_name, kwargs), e.g. ``("Adam", {"learning_rate": 0.001, "beta_1": 0.9,
    "beta_2": 0.999, "epsilon": 1e-08, "amsgrad": False})``.

  Raises:
    ValueError: the TF1 optimizer has no Keras counterpart, or a hyperparameter is a
      Tensor and no override was given.
  """
  mapping = mapping_for(tf1_optimizer)
  if mapping.keras is None:
    raise ValueError("%s has no Keras counterpart: %s" % (mapping.tf1, mapping.differences[0]))
  raw = mapping.kwargs(_unwrap(tf1_optimizer))
  kwargs = {}
  for name, value in raw.items():
    kwargs[name] = overrides[name] if name in overrides else _plain_number(name, value)
  for name, value in overrides.items():
    kwargs.setdefault(name, value)
  return mapping.keras, kwargs


def keras_optimizer_like(tf1_optimizer, keras_optimizers=None, **overrides):
  """Builds the Keras optimizer that takes the same steps as a TF1 optimizer.

  Example::

    keras_opt = tf1clip.v2.keras_optimizer_like(
        tf.compat.v1.train.RMSPropOptimizer(0.01))
    # keras.optimizers.RMSprop(0.01, rho=0.9, momentum=0.0, epsilon=1e-10, centered=False),
    # with its mean square starting at 1.0 as TF1's does.

  Args:
    tf1_optimizer: a ``tf.compat.v1.train`` optimizer (or a tf1clip wrapper of one; its
      transforms are not carried over: see `tf1clip.v2.migrate_optimizer`).
    keras_optimizers: the module to take classes from; defaults to Keras 3's
      ``keras.optimizers``; ``tf_keras.optimizers`` and ``tf_keras.optimizers.legacy``
      also work.
    **overrides: Keras constructor arguments replacing the translated ones.

  Returns:
    A Keras optimizer. For RMSProp it is a subclass of the Keras RMSprop whose mean-square
    slot starts at 1.0 (TF1's initial value) instead of 0.0.

  Raises:
    ValueError: see `keras_kwargs_like`.
  """
  if keras_optimizers is None:
    import keras  # pylint: disable=g-import-not-at-top
    keras_optimizers = keras.optimizers
  class_name, kwargs = keras_kwargs_like(tf1_optimizer, **overrides)
  cls = getattr(keras_optimizers, class_name)
  if class_name == "RMSprop":
    cls = _rmsprop_starting_at_one(cls)
  keras_opt = cls(**kwargs)
  epsilon = kwargs.get("epsilon")
  if epsilon == 0.0 and getattr(keras_opt, "epsilon", None) != 0.0:
    # tf-keras' legacy optimizers replace a falsy epsilon by 1e-7 (`epsilon or
    # backend_config.epsilon()`); the attribute is read at every step, so set it back.
    keras_opt.epsilon = 0.0
  return keras_opt


_RMSPROP_CLASSES = {}


def _rmsprop_starting_at_one(base):
  """A subclass of a Keras RMSprop class whose 'velocity' slots start at 1.0, as TF1's 'rms'."""
  if base in _RMSPROP_CLASSES:
    return _RMSPROP_CLASSES[base]
  if hasattr(base, "add_optimizer_variables"):

    class TF1RMSprop(base):  # Keras 3: slots come from add_optimizer_variables(initializer=)
      """Keras RMSprop with TF1's initial mean square (1.0)."""

      def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        if name == "velocity":
          initializer = "ones"
        return super().add_optimizer_variables(trainable_variables, name,
                                               initializer=initializer)
  elif hasattr(base, "add_slot"):

    class TF1RMSprop(base):  # tf-keras legacy (OptimizerV2): slots come from add_slot
      """Keras RMSprop with TF1's initial mean square (1.0)."""

      def add_slot(self, var, slot_name, initializer="zeros", shape=None):
        if slot_name == "rms":
          initializer = "ones"
        return super().add_slot(var, slot_name, initializer=initializer, shape=shape)
  else:

    class TF1RMSprop(base):  # tf-keras: slots come from add_variable_from_reference
      """Keras RMSprop with TF1's initial mean square (1.0)."""

      def add_variable_from_reference(self, model_variable, variable_name, shape=None,
                                      initial_value=None):
        if variable_name == "velocity" and initial_value is None:
          initial_value = tf.ones(model_variable.shape if shape is None else shape,
                                  dtype=model_variable.dtype)
        return super().add_variable_from_reference(model_variable, variable_name, shape,
                                                   initial_value)

  TF1RMSprop.__qualname__ = "TF1RMSprop"
  _RMSPROP_CLASSES[base] = TF1RMSprop
  return TF1RMSprop


def migrate_optimizer(tf1_optimizer, keras_optimizers=None, **overrides):
  """The tf1clip.v2 optimizer that does what a (tf1clip-wrapped) TF1 optimizer does.

  ``tf1clip.clip_gradients_by_norm(tf.compat.v1.train.AdamOptimizer(1e-3), 5.0)`` becomes
  ``tf1clip.v2.WrappedOptimizer(keras.optimizers.Adam(1e-3, epsilon=1e-8), [clip 5.0])``;
  ``tf1clip.GradientAccumulationOptimizer`` becomes ``tf1clip.v2.
  GradientAccumulationOptimizer`` with the same window, transforms and guard. Transforms
  are plain callables, so the same objects serve both worlds.

  Args:
    tf1_optimizer: a ``tf.compat.v1.train`` optimizer, possibly wrapped by tf1clip.
    keras_optimizers: see `keras_optimizer_like`.
    **overrides: Keras constructor arguments for the innermost optimizer.

  Returns:
    A Keras optimizer (no wrappers given) or a ``tf1clip.v2`` wrapper around one.

  Raises:
    ValueError: an optimizer or wrapper without a TF2 counterpart, or an option without one
      (``count_micro_steps=True``), named in the message.
  """
  from tf1clip.v2 import accumulation as v2_accumulation  # pylint: disable=g-import-not-at-top
  from tf1clip.v2 import optimizer as v2_optimizer  # pylint: disable=g-import-not-at-top
  layers = []
  opt = tf1_optimizer
  while hasattr(opt, "inner_optimizer") and isinstance(opt, tf.compat.v1.train.Optimizer):
    layers.append(opt)
    opt = opt.inner_optimizer
  result = keras_optimizer_like(opt, keras_optimizers=keras_optimizers, **overrides)
  for layer in reversed(layers):
    result = _WRAPPER_TABLE[_wrapper_class(layer)](layer, result, v2_optimizer, v2_accumulation)
  return result


def _wrapper_class(layer):
  from tf1clip import accumulation  # pylint: disable=g-import-not-at-top
  from tf1clip import optimizer  # pylint: disable=g-import-not-at-top
  for cls in (accumulation.GradientAccumulationOptimizer, optimizer.WrappedOptimizer):
    if type(layer) is cls:  # pylint: disable=unidiomatic-typecheck
      return cls.__name__
  raise ValueError("migrate_optimizer does not know the wrapper %s; known: %s."
                   % (type(layer).__name__, sorted(_WRAPPER_TABLE)))


def _migrate_accumulation(layer, inner, v2_optimizer, v2_accumulation):
  del v2_optimizer
  if layer.count_micro_steps:
    raise ValueError(
        "GradientAccumulationOptimizer(count_micro_steps=True) has no TF2 counterpart: "
        "tf1clip.v2.GradientAccumulationOptimizer's Keras `iterations` counts applied updates. "
        "Rebuild the TF1 optimizer with count_micro_steps=False (and a schedule over updates) "
        "before migrating, or count micro-steps yourself.")
  return v2_accumulation.GradientAccumulationOptimizer(
      inner, layer.num_micro_batches, transforms=list(layer.transforms),
      transform_micro_batches=layer.transform_micro_batches,
      skip_non_finite=layer.skip_non_finite)


def _migrate_wrapped(layer, inner, v2_optimizer, v2_accumulation):
  del v2_accumulation
  return v2_optimizer.WrappedOptimizer(
      inner, transforms=list(layer.transforms), skip_non_finite=layer.skip_non_finite,
      name=layer.get_name())


# TF1 wrapper class name -> builder of its TF2 counterpart (every option carried over or refused).
_WRAPPER_TABLE = {
    "GradientAccumulationOptimizer": _migrate_accumulation,
    "WrappedOptimizer": _migrate_wrapped,
}
