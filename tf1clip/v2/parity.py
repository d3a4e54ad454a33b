"""Parity check: train one model in TF1 graph mode and in TF2 eager, compare weights per step.

``check_parity(optimizer="adam", steps=10, clip_norm=5.0, micro_batches=4)`` builds a
`tf1clip.v2.parity_models` model twice from the same seeded initial values: once with
``tf.compat.v1`` variables in a Session, trained by ``tf.compat.v1.train.<Optimizer>``
wrapped by tf1clip (clipping, accumulation), and once with ``tf.Variable``\\ s in a
``tf.function``, trained by the Keras optimizer ``keras_optimizer_like`` maps it to, wrapped
by tf1clip.v2. Both see the same batches. After every applied update it compares each
variable with numpy's ``allclose`` convention, ``|tf2 - tf1| <= atol + rtol * |tf1|`` per
element (the TF1 side is the reference); the `ParityReport` holds the table and, on a FAIL,
names the variable, the first step over the tolerance and the known mapping difference
(`tf1clip.v2.mapping`) that explains it. ``tf1clip parity`` (`main`) is the CLI; ``--model``
takes a built-in toy or a user's module (`parity_models.load`).

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
from tf1clip import flag_values
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


def tolerance_ratio(a, b, atol, rtol):
  """How far two arrays are from numpy's ``allclose(a, b, rtol, atol)``, as one number.

  ``max(|a - b| / (atol + rtol * |b|))`` over the elements: <= 1 passes (every element is
  within ``atol + rtol * |b|``), 2 means the worst element is twice its allowance. `b` is the
  reference. A near-zero reference element gets `atol` of slack instead of a relative error
  that blows up. With ``atol = rtol = 0`` any difference is ``inf`` and equality is 0.
  """
  a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
  diff = np.abs(a - b)
  allowance = atol + rtol * np.abs(b)
  with np.errstate(divide="ignore", invalid="ignore"):
    ratio = np.where(diff == 0.0, 0.0, diff / allowance)
  return float(np.max(ratio, initial=0.0))


def max_abs_difference(a, b):
  """``max|a - b|`` (0 for empty arrays)."""
  return float(np.max(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64)),
                      initial=0.0))


def check_tolerance(name, value):
  """Checks an ``atol`` / ``rtol`` value: a finite number >= 0.

  Raises:
    ValueError: naming `name`, when `value` is negative, NaN, inf or not a number.
  """
  if (isinstance(value, bool) or not isinstance(value, (int, float, np.floating))
      or not np.isfinite(value) or value < 0):
    raise ValueError("%s must be a finite number >= 0; got %r" % (name, value))
  return float(value)


def _check_positive_finite(name, value):
  if (isinstance(value, bool) or not isinstance(value, (int, float, np.floating))
      or not np.isfinite(value) or value <= 0):
    raise ValueError("%s must be a finite number > 0; got %r" % (name, value))
  return float(value)


def explain(mapping, sparse):
  """The known mapping difference that explains a variable's divergence, or None.

  Args:
    mapping: the `tf1clip.v2.mapping.Mapping` of the TF1 optimizer (or None).
    sparse: whether the variable's gradient is a ``tf.IndexedSlices``.

  Returns:
    One of ``mapping.differences`` (lazy sparse updates for a sparse variable; the slot form
    of momentum or Adam's bias correction for a dense one), or None when none applies.
  """
  if mapping is None:
    return None
  for text in mapping.differences:
    about_sparse = text.startswith("Sparse gradients") or "only the rows" in text or (
        "only rows" in text)
    # A sparse difference the mapping itself calls harmless ("so they agree") explains nothing.
    if about_sparse and sparse and "agree" not in text:
      return text
    if not about_sparse and not sparse:
      return text
  return None


@dataclasses.dataclass
class ParityReport:
  """What `check_parity` found.

  Attributes:
    optimizer: the TF1 optimizer's class name.
    keras_optimizer: the Keras optimizer's class name.
    model: the model's name.
    variable_names: the compared variables, in order.
    differences: float array [steps, variables], `relative_difference` after each update.
    abs_differences: float array [steps, variables], ``max|tf2 - tf1|`` after each update.
    ratios: float array [steps, variables], `tolerance_ratio` after each update (<= 1 passes).
    atol: absolute tolerance.
    rtol: relative tolerance (of the TF1 value).
    tf1_weights: dict name -> np.ndarray after the last step (TF1 side).
    tf2_weights: dict name -> np.ndarray after the last step (TF2 side).
    sparse: dict name -> bool, whether the variable's gradient is a ``tf.IndexedSlices``.
    explanations: dict name -> the known mapping difference for that variable, or None.
  """
  optimizer: str
  keras_optimizer: str
  model: str
  variable_names: list
  differences: np.ndarray
  abs_differences: np.ndarray
  ratios: np.ndarray
  atol: float
  rtol: float
  tf1_weights: dict
  tf2_weights: dict
  sparse: dict = dataclasses.field(default_factory=dict)
  explanations: dict = dataclasses.field(default_factory=dict)

  @property
  def tolerance(self):
    """The relative tolerance (``rtol``), the CLI's ``--tolerance``."""
    return self.rtol

  @property
  def max_difference(self):
    """The largest relative difference over all steps and variables."""
    return float(np.max(self.differences, initial=0.0))

  @property
  def max_abs_difference(self):
    """The largest absolute difference over all steps and variables."""
    return float(np.max(self.abs_differences, initial=0.0))

  @property
  def passed(self):
    """True when every variable is allclose(tf2, tf1, rtol, atol) after every update."""
    return bool(np.all(self.ratios <= 1.0))

  def failures(self):
    """The variables over the tolerance: list of (name, first step (1-based), explanation).

    A variable that first fails after another one did is explained as following from it
    (the other variable's difference changed the loss, hence every later gradient), not by
    its own mapping difference.
    """
    first = {}
    for j, name in enumerate(self.variable_names):
      over = np.nonzero(self.ratios[:, j] > 1.0)[0]
      if over.size:
        first[name] = int(over[0]) + 1
    if not first:
      return []
    earliest = min(first.values())
    leaders = [n for n in first if first[n] == earliest]
    found = []
    for name, step in first.items():
      why = self.explanations.get(name)
      if step > earliest:
        why = ("follows from %s, over the tolerance since step %d (its difference changes "
               "the loss and so every later gradient)" % (", ".join(leaders), earliest))
      found.append((name, step, why))
    return found

  def format(self):
    """The report as text: per step the worst |tf2 - tf1| per variable, then the verdict."""
    width = max([12] + [len(n) for n in self.variable_names])
    lines = ["parity: %s (TF1, Session) vs %s (TF2, tf.function) on model %r"
             % (self.optimizer, self.keras_optimizer, self.model),
             "max |tf2 - tf1| per variable after each update (* over atol + rtol*|tf1|):",
             "step  " + "  ".join(n.rjust(width) for n in self.variable_names)]
    for step, (row, ratios) in enumerate(zip(self.abs_differences, self.ratios), 1):
      lines.append("%4d  " % step + "  ".join(
          ("%.3e%s" % (d, "*" if r > 1.0 else " ")).rjust(width)
          for d, r in zip(row, ratios)))
    lines.append("tolerance: |tf2 - tf1| <= atol + rtol*|tf1| element-wise, atol=%.1e "
                 "rtol=%.1e; max |tf2 - tf1| %.3e, max relative %.3e, worst ratio to the "
                 "tolerance %.3g" % (self.atol, self.rtol, self.max_abs_difference,
                                     self.max_difference,
                                     float(np.max(self.ratios, initial=0.0))))
    if self.passed:
      lines.append("PASS")
    else:
      for name, step, why in self.failures():
        lines.append("FAIL: %s first exceeded the tolerance at step %d (%s gradient)%s"
                     % (name, step, "sparse" if self.sparse.get(name) else "dense",
                        "; " + why if why and why.startswith("follows") else
                        "; known difference: " + why if why else
                        "; no known mapping difference explains it"))
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


def _train_tf1(model, tf1_opt, transforms, micro_batches, skip_non_finite, batches,
               progress):
  graph = tf.Graph()
  with graph.as_default():
    params = {name: tf.compat.v1.get_variable(name, initializer=tf.constant(value))
              for name, value in model.initial_values.items()}
    feeds = {name: tf.compat.v1.placeholder(dtype, shape, name=name)
             for name, (dtype, shape) in model.batch_spec.items()}
    loss = model.loss_fn(params, feeds)
    # Only inspected (never run): which variables get a sparse gradient, for the explanation.
    sparse = {name: isinstance(g, tf.IndexedSlices) for name, g in
              zip(params, tf.compat.v1.gradients(loss, list(params.values())))}
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
    for step, micro in enumerate(batches, 1):
      for batch in micro:
        sess.run(train_op, {feeds[k]: v for k, v in batch.items()})
      history.append(sess.run(params))
      progress("TF1", step, len(batches))
  return history, sparse


def _train_tf2(model, keras_opt, transforms, micro_batches, skip_non_finite, batches,
               progress):
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
  for index, micro in enumerate(batches, 1):
    for batch in micro:
      step({k: tf.constant(v) for k, v in batch.items()})
    history.append({name: v.numpy() for name, v in params.items()})
    progress("TF2", index, len(batches))
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


def _no_progress(world, step, steps):
  del world, step, steps


def check_parity(optimizer="adam", steps=10, clip_norm=None, micro_batches=1, model="mlp",
                 learning_rate=None, batch_size=8, seed=0, tolerance=1e-5, transforms=(),
                 skip_non_finite=False, keras="keras", keras_optimizer=None, atol=1e-5,
                 progress=None, **keras_overrides):
  """Trains one model in TF1 graph mode and in TF2, and compares weights after every update.

  A variable passes when, after every update, ``|tf2 - tf1| <= atol + rtol * |tf1|``
  element-wise (numpy's ``allclose`` with the TF1 side as reference; `tolerance` is
  ``rtol``). The absolute term keeps near-zero parameters (a bias of 0.005) from failing on
  a relative error of float32 rounding; the relative term scales with large weights.

  Args:
    optimizer: a name in `OPTIMIZERS` ("adam", "sgd", "momentum", "nesterov", "rmsprop",
      "rmsprop_centered", "adagrad", "ftrl", "adadelta") or a ``tf.compat.v1.train``
      optimizer instance.
    steps: applied updates to compare.
    clip_norm: if set, both sides clip by global norm (``tf1clip.transforms.
      clip_by_global_norm``), after accumulation.
    micro_batches: if > 1, both sides accumulate this many micro-batches per update
      (``GradientAccumulationOptimizer``).
    model: "mlp", "embedding" or "lstm" (`tf1clip.v2.parity_models`), a user's module
      (``"my_models.py"``, ``"pkg.my_models:factory"``; see `parity_models.load`), or a
      `ParityModel`.
    learning_rate: overrides the optimizer's default learning rate (named optimizers).
    batch_size: examples per micro-batch.
    seed: seeds initial values and batches (same in both worlds).
    tolerance: ``rtol``, relative to the TF1 value.
    transforms: more tf1clip transforms, run on both sides (after clipping).
    skip_non_finite: both sides skip updates with NaN/Inf gradients.
    keras: "keras" (Keras 3), "tf_keras" or "tf_keras_legacy" (``tf_keras.optimizers.
      legacy``).
    keras_optimizer: optional callable (e.g. a Keras optimizer class) called with the
      mapped constructor arguments instead of `keras_optimizer_like`, to measure what its
      adjustments (RMSprop's initial mean square) are worth.
    atol: absolute tolerance.
    progress: optional callable ``(world, step, steps)`` called after each update on each
      side (world is "TF1" or "TF2"); the CLI prints it.
    **keras_overrides: Keras constructor arguments replacing the mapped ones (to show a
      difference, e.g. ``epsilon=1e-7``).

  Returns:
    A `ParityReport`.

  Raises:
    ValueError: unknown optimizer or model; `steps` / `micro_batches` / `batch_size` not
      positive; `tolerance` / `atol` negative or not finite; `learning_rate` / `clip_norm`
      not a finite number > 0.
  """
  for name, value in (("steps", steps), ("micro_batches", micro_batches),
                      ("batch_size", batch_size)):
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
      raise ValueError("%s must be an int >= 1; got %r" % (name, value))
  rtol = check_tolerance("tolerance", tolerance)
  atol = check_tolerance("atol", atol)
  if learning_rate is not None:
    _check_positive_finite("learning_rate", learning_rate)
  if clip_norm is not None:
    _check_positive_finite("clip_norm", clip_norm)
  progress = progress or _no_progress
  parity_model = parity_models.load(model, seed)
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
  tf1_history, sparse = _train_tf1(parity_model, tf1_opt, all_transforms, micro_batches,
                                   skip_non_finite, batches, progress)
  tf2_history = _train_tf2(parity_model, keras_opt, all_transforms, micro_batches,
                           skip_non_finite, batches, progress)
  names = list(parity_model.initial_values)
  pairs = list(zip(tf1_history, tf2_history))
  differences = np.array([[relative_difference(b[n], a[n]) for n in names] for a, b in pairs])
  abs_differences = np.array([[max_abs_difference(b[n], a[n]) for n in names]
                              for a, b in pairs])
  ratios = np.array([[tolerance_ratio(b[n], a[n], atol, rtol) for n in names]
                     for a, b in pairs])
  try:
    known = mapping.mapping_for(tf1_opt)
  except (TypeError, ValueError):
    known = None
  return ParityReport(type(tf1_opt).__name__, type(keras_opt).__name__, parity_model.name,
                      names, differences, abs_differences, ratios, atol, rtol,
                      tf1_history[-1], tf2_history[-1], sparse,
                      {n: explain(known, sparse.get(n, False)) for n in names})


def _parser():
  parser = argparse.ArgumentParser(
      prog="tf1clip parity",
      description="Train one model with a TF1 optimizer (graph mode, Session) and with the "
      "Keras optimizer tf1clip.v2 maps it to (TF2, tf.function), from the same initial "
      "weights and batches; print the per-variable max |tf2 - tf1| after each update; exit "
      "1 if a variable leaves |tf2 - tf1| <= atol + rtol*|tf1| (numpy's allclose), naming "
      "it, the first step and the known mapping difference that explains it.")
  parser.add_argument("--optimizer", default="adam", choices=sorted(OPTIMIZERS))
  parser.add_argument("--steps", type=flag_values.positive_count, default=10, help="updates to compare")
  parser.add_argument("--clip_norm", type=float, default=None,
                      help="clip by global norm on both sides")
  parser.add_argument("--micro_batches", type=flag_values.positive_count, default=1,
                      help="accumulate this many micro-batches per update on both sides")
  parser.add_argument("--tolerance", "--rtol", dest="tolerance", type=flag_values.tolerance, default=1e-5,
                      help="relative tolerance rtol (of the TF1 value)")
  parser.add_argument("--atol", type=flag_values.tolerance, default=1e-5, help="absolute tolerance")
  parser.add_argument("--model", default="mlp",
                      help="%s, or a user's module (path/to/models.py or pkg.module, "
                      "optionally :factory; see docs/migration.md)"
                      % ", ".join(sorted(parity_models.MODELS)))
  parser.add_argument("--learning_rate", type=float, default=None)
  parser.add_argument("--batch_size", type=flag_values.positive_count, default=8)
  parser.add_argument("--seed", type=flag_values.count, default=0)
  parser.add_argument("--keras", default="keras",
                      choices=["keras", "tf_keras", "tf_keras_legacy"],
                      help="Keras 3 (keras), tf-keras or tf-keras' legacy optimizers on the "
                      "TF2 side")
  parser.add_argument("--quiet", action="store_true", help="no per-step progress on stderr")
  return parser


def _check_flags(args):
  """Checks the numeric flags; returns an error message naming the flag, or None."""
  checks = [("--tolerance", args.tolerance, check_tolerance),
            ("--atol", args.atol, check_tolerance)]
  if args.learning_rate is not None:
    checks.append(("--learning_rate", args.learning_rate, _check_positive_finite))
  if args.clip_norm is not None:
    checks.append(("--clip_norm", args.clip_norm, _check_positive_finite))
  for flag, value in (("--steps", args.steps), ("--micro_batches", args.micro_batches),
                      ("--batch_size", args.batch_size)):
    if value < 1:
      return "%s must be an int >= 1; got %r" % (flag, value)
  for flag, value, check in checks:
    try:
      check(flag, value)
    except ValueError as e:
      return str(e)
  return None


def _printing_progress(stream):
  def progress(world, step, steps):
    # A line per update on a terminal (overwritten); in a log, about ten lines per side.
    if stream.isatty():
      stream.write("\rparity: %s step %d/%d" % (world, step, steps))
      if step == steps:
        stream.write("\n")
    elif step == steps or step % max(1, steps // 10) == 0:
      stream.write("parity: %s step %d/%d\n" % (world, step, steps))
    stream.flush()
  return progress


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
  error = _check_flags(args)
  if error:
    print("tf1clip parity: error: %s" % error, file=sys.stderr)
    return 2
  try:
    model = parity_models.load(args.model, args.seed)
    report = check_parity(
        optimizer=args.optimizer, steps=args.steps, clip_norm=args.clip_norm,
        micro_batches=args.micro_batches, model=model, learning_rate=args.learning_rate,
        batch_size=args.batch_size, seed=args.seed, tolerance=args.tolerance,
        atol=args.atol, keras=args.keras,
        progress=None if args.quiet else _printing_progress(sys.stderr))
  except ValueError as e:
    print("tf1clip parity: error: %s" % e, file=sys.stderr)
    return 2
  print(report.format())
  return 0 if report.passed else 1
