"""Parity check: train one model in TF1 graph mode and in TF2 eager, compare weights per step.

``check_parity(optimizer="adam", steps=10, clip_norm=5.0, micro_batches=4)`` builds a
`tf1clip.v2.parity_models` model twice from the same seeded initial values: once with
``tf.compat.v1`` variables in a Session, trained by ``tf.compat.v1.train.<Optimizer>``
wrapped by tf1clip (clipping, accumulation), and once with ``tf.Variable``\\ s in a
``tf.function``, trained by the Keras optimizer ``keras_optimizer_like`` maps it to, wrapped
by tf1clip.v2. Both see the same batches. After every applied update it compares each
variable; the `ParityReport` holds the table. ``tf1clip parity`` (`main`) is the CLI.

Place in the data flow (DESIGN.md): optimizer/accumulation (TF1 side) and v2 (TF2 side)
<- **parity** <- cli.
"""

import argparse
import dataclasses
import sys

import numpy as np
import tensorflow as tf

from tf1clip import optimizer as tf1_wrappers
from tf1clip import transforms as transforms_lib
from tf1clip.v2 import accumulation as v2_accumulation
from tf1clip.v2 import mapping
from tf1clip.v2 import optimizer as v2_optimizer
from tf1clip.v2 import parity_models

# name -> (TF1 class, default learning rate, other arguments)
OPTIMIZERS = {
    "sgd": (tf.compat.v1.train.GradientDescentOptimizer, 0.1, {}),
    "momentum": (tf.compat.v1.train.MomentumOptimizer, 0.05, {"momentum": 0.9}),
    "nesterov": (tf.compat.v1.train.MomentumOptimizer, 0.05,
                 {"momentum": 0.9, "use_nesterov": True}),
    "adam": (tf.compat.v1.train.AdamOptimizer, 0.01, {}),
    "rmsprop": (tf.compat.v1.train.RMSPropOptimizer, 0.01, {}),
    "rmsprop_centered": (tf.compat.v1.train.RMSPropOptimizer, 0.01,
                         {"momentum": 0.5, "centered": True}),
    "adagrad": (tf.compat.v1.train.AdagradOptimizer, 0.1, {}),
    "ftrl": (tf.compat.v1.train.FtrlOptimizer, 0.1, {}),
    "adadelta": (tf.compat.v1.train.AdadeltaOptimizer, 1.0, {}),
}


def relative_difference(a, b):
  """Largest element-wise difference of two arrays, relative to their largest magnitude.

  ``max|a - b| / max(max|a|, max|b|)`` (0 when both are all zeros): an error of 1e-5 means
  the arrays agree to about five significant digits of the variable's scale.
  """
  a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
  scale = max(np.max(np.abs(a), initial=0.0), np.max(np.abs(b), initial=0.0))
  diff = np.max(np.abs(a - b), initial=0.0)
  if scale == 0.0:
    return 0.0 if diff == 0.0 else float("inf")
  return float(diff / scale)


@dataclasses.dataclass
class ParityReport:
  """What `check_parity` found.

  Attributes:
    optimizer: the TF1 optimizer's class name.
    keras_optimizer: the Keras optimizer's class name.
    model: the model's name.
    variable_names: the compared variables, in order.
    differences: float array [steps, variables], `relative_difference` after each update.
    tolerance: the largest difference that passes.
    tf1_weights: dict name -> np.ndarray after the last step (TF1 side).
    tf2_weights: dict name -> np.ndarray after the last step (TF2 side).
  """
  optimizer: str
  keras_optimizer: str
  model: str
  variable_names: list
  differences: np.ndarray
  tolerance: float
  tf1_weights: dict
  tf2_weights: dict

  @property
  def max_difference(self):
    """The largest relative difference over all steps and variables."""
    return float(np.max(self.differences, initial=0.0))

  @property
  def passed(self):
    """True when every difference is within the tolerance."""
    return bool(np.all(self.differences <= self.tolerance))

  def format(self):
    """The report as a text table: one row per step, one column per variable."""
    width = max([12] + [len(n) for n in self.variable_names])
    lines = ["parity: %s (TF1, Session) vs %s (TF2, tf.function) on model %r"
             % (self.optimizer, self.keras_optimizer, self.model),
             "max relative difference per variable after each update:",
             "step  " + "  ".join(n.rjust(width) for n in self.variable_names)]
    for step, row in enumerate(self.differences, 1):
      lines.append("%4d  " % step + "  ".join(("%.3e" % d).rjust(width) for d in row))
    verdict = "PASS" if self.passed else "FAIL"
    lines.append("%s: max relative difference %.3e (tolerance %.1e)"
                 % (verdict, self.max_difference, self.tolerance))
    return "\n".join(lines)


def _tf1_optimizer(optimizer, learning_rate):
  if isinstance(optimizer, tf.compat.v1.train.Optimizer):
    return optimizer
  if optimizer not in OPTIMIZERS:
    raise ValueError("optimizer must be one of %s or a tf.compat.v1.train.Optimizer; got %r"
                     % (sorted(OPTIMIZERS), optimizer))
  cls, default_lr, kwargs = OPTIMIZERS[optimizer]
  return cls(default_lr if learning_rate is None else learning_rate, **kwargs)


def _batches(model, steps, micro_batches, batch_size, seed):
  # Step s, micro-batch m: its own seed, so any (steps, micro_batches) sees distinct data.
  return [[model.make_batch(seed * 1_000_003 + s * micro_batches + m, batch_size)
           for m in range(micro_batches)] for s in range(steps)]


def _train_tf1(model, tf1_opt, transforms, micro_batches, skip_non_finite, batches):
  graph = tf.Graph()
  with graph.as_default():
    params = {name: tf.compat.v1.get_variable(name, initializer=tf.constant(value))
              for name, value in model.initial_values.items()}
    feeds = {name: tf.compat.v1.placeholder(dtype, shape, name=name)
             for name, (dtype, shape) in model.batch_spec.items()}
    loss = model.loss_fn(params, feeds)
    opt = tf1_opt
    if micro_batches > 1:
      from tf1clip import accumulation  # pylint: disable=g-import-not-at-top
      opt = accumulation.GradientAccumulationOptimizer(
          opt, micro_batches, transforms=transforms, skip_non_finite=skip_non_finite)
    elif transforms or skip_non_finite:
      opt = tf1_wrappers.WrappedOptimizer(opt, transforms, skip_non_finite=skip_non_finite)
    train_op = opt.minimize(loss, var_list=list(params.values()))
    init = tf.compat.v1.global_variables_initializer()
  history = []
  with tf.compat.v1.Session(graph=graph) as sess:
    sess.run(init)
    for micro in batches:
      for batch in micro:
        sess.run(train_op, {feeds[k]: v for k, v in batch.items()})
      history.append(sess.run(params))
  return history


def _train_tf2(model, keras_opt, transforms, micro_batches, skip_non_finite, batches):
  params = {name: tf.Variable(value, name=name) for name, value in model.initial_values.items()}
  var_list = list(params.values())
  if micro_batches > 1:
    opt = v2_accumulation.GradientAccumulationOptimizer(
        keras_opt, micro_batches, transforms=transforms, skip_non_finite=skip_non_finite)
  else:
    opt = v2_optimizer.WrappedOptimizer(keras_opt, transforms,
                                        skip_non_finite=skip_non_finite)

  @tf.function(autograph=False)
  def step(batch):
    return opt.minimize(lambda: model.loss_fn(params, batch), var_list)

  history = []
  for micro in batches:
    for batch in micro:
      step({k: tf.constant(v) for k, v in batch.items()})
    history.append({name: v.numpy() for name, v in params.items()})
  return history


def _keras_module(keras):
  if keras == "keras":
    import keras as keras3  # pylint: disable=g-import-not-at-top
    return keras3.optimizers
  if keras in ("tf_keras", "tf_keras_legacy"):
    import tf_keras  # pylint: disable=g-import-not-at-top
    return tf_keras.optimizers if keras == "tf_keras" else tf_keras.optimizers.legacy
  raise ValueError("keras must be 'keras' (Keras 3), 'tf_keras' or 'tf_keras_legacy'; got %r"
                   % (keras,))


def check_parity(optimizer="adam", steps=10, clip_norm=None, micro_batches=1, model="mlp",
                 learning_rate=None, batch_size=8, seed=0, tolerance=1e-5, transforms=(),
                 skip_non_finite=False, keras="keras", keras_optimizer=None,
                 **keras_overrides):
  """Trains one model in TF1 graph mode and in TF2, and compares weights after every update.

  Args:
    optimizer: a name in `OPTIMIZERS` ("adam", "sgd", "momentum", "nesterov", "rmsprop",
      "rmsprop_centered", "adagrad", "ftrl", "adadelta") or a ``tf.compat.v1.train``
      optimizer instance.
    steps: applied updates to compare.
    clip_norm: if set, both sides clip by global norm (``tf1clip.transforms.
      clip_by_global_norm``), after accumulation.
    micro_batches: if > 1, both sides accumulate this many micro-batches per update
      (``GradientAccumulationOptimizer``).
    model: "mlp", "embedding" or "lstm" (`tf1clip.v2.parity_models`), or a `ParityModel`.
    learning_rate: overrides the optimizer's default learning rate (named optimizers).
    batch_size: examples per micro-batch.
    seed: seeds initial values and batches (same in both worlds).
    tolerance: largest `relative_difference` that passes.
    transforms: more tf1clip transforms, run on both sides (after clipping).
    skip_non_finite: both sides skip updates with NaN/Inf gradients.
    keras: "keras" (Keras 3), "tf_keras" or "tf_keras_legacy" (``tf_keras.optimizers.
      legacy``).
    keras_optimizer: optional callable (e.g. a Keras optimizer class) called with the
      mapped constructor arguments instead of `keras_optimizer_like`, to measure what its
      adjustments (RMSprop's initial mean square) are worth.
    **keras_overrides: Keras constructor arguments replacing the mapped ones (to show a
      difference, e.g. ``epsilon=1e-7``).

  Returns:
    A `ParityReport`.

  Raises:
    ValueError: unknown optimizer or model, or `steps` / `micro_batches` / `batch_size`
      not positive.
  """
  for name, value in (("steps", steps), ("micro_batches", micro_batches),
                      ("batch_size", batch_size)):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
      raise ValueError("%s must be an int >= 1; got %r" % (name, value))
  parity_model = model if isinstance(model, parity_models.ParityModel) else (
      parity_models.get(model, seed))
  all_transforms = list(transforms)
  if clip_norm is not None:
    all_transforms.insert(0, transforms_lib.clip_by_global_norm(clip_norm))
  tf1_opt = _tf1_optimizer(optimizer, learning_rate)
  if keras_optimizer is None:
    keras_opt = mapping.keras_optimizer_like(tf1_opt, keras_optimizers=_keras_module(keras),
                                             **keras_overrides)
  else:
    keras_opt = keras_optimizer(**mapping.keras_kwargs_like(tf1_opt, **keras_overrides)[1])
  batches = _batches(parity_model, steps, micro_batches, batch_size, seed)
  tf1_history = _train_tf1(parity_model, tf1_opt, all_transforms, micro_batches,
                           skip_non_finite, batches)
  tf2_history = _train_tf2(parity_model, keras_opt, all_transforms, micro_batches,
                           skip_non_finite, batches)
  names = list(parity_model.initial_values)
  differences = np.array([[relative_difference(a[n], b[n]) for n in names]
                          for a, b in zip(tf1_history, tf2_history)])
  return ParityReport(type(tf1_opt).__name__, type(keras_opt).__name__, parity_model.name,
                      names, differences, float(tolerance), tf1_history[-1], tf2_history[-1])


def _parser():
  parser = argparse.ArgumentParser(
      prog="tf1clip parity",
      description="Train one model with a TF1 optimizer (graph mode, Session) and with the "
      "Keras optimizer tf1clip.v2 maps it to (TF2, tf.function), from the same initial "
      "weights and batches; print the per-variable max relative difference after each "
      "update; exit 1 if any exceeds the tolerance.")
  parser.add_argument("--optimizer", default="adam", choices=sorted(OPTIMIZERS))
  parser.add_argument("--steps", type=int, default=10, help="updates to compare")
  parser.add_argument("--clip_norm", type=float, default=None,
                      help="clip by global norm on both sides")
  parser.add_argument("--micro_batches", type=int, default=1,
                      help="accumulate this many micro-batches per update on both sides")
  parser.add_argument("--tolerance", type=float, default=1e-5)
  parser.add_argument("--model", default="mlp", choices=sorted(parity_models.MODELS))
  parser.add_argument("--learning_rate", type=float, default=None)
  parser.add_argument("--batch_size", type=int, default=8)
  parser.add_argument("--seed", type=int, default=0)
  parser.add_argument("--keras", default="keras",
                      choices=["keras", "tf_keras", "tf_keras_legacy"],
                      help="Keras 3 (keras), tf-keras or tf-keras' legacy optimizers on the "
                      "TF2 side")
  return parser


def main(argv):
  """`tf1clip parity [options]`; returns the exit code (0 pass, 1 fail, 2 bad usage)."""
  parser = _parser()
  argv = list(argv)
  if argv[:1] == ["--"]:  # `tf1clip parity -- --optimizer adam`: the separator is not ours
    argv = argv[1:]
  try:
    args = parser.parse_args(argv)
  except SystemExit as e:  # argparse exits on --help and on bad usage
    return int(e.code or 0)
  try:
    report = check_parity(
        optimizer=args.optimizer, steps=args.steps, clip_norm=args.clip_norm,
        micro_batches=args.micro_batches, model=args.model, learning_rate=args.learning_rate,
        batch_size=args.batch_size, seed=args.seed, tolerance=args.tolerance,
        keras=args.keras)
  except ValueError as e:
    print("tf1clip parity: error: %s" % e, file=sys.stderr)
    return 2
  print(report.format())
  return 0 if report.passed else 1
