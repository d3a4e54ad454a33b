"""The shim that makes tensorflow-estimator 2.15 (tf.estimator, TPUEstimator) import and run on TensorFlow 2.21.

Place in the data flow (DESIGN.md, "Legacy surface"): TensorFlow internals <- (this shim, applied by
shims) <- tensorflow_estimator <- compat.v1 (`tf.estimator`), contrib.tpu, contrib.estimator
<- compat.runner <- cli.

tensorflow-estimator 2.15.0 is the last release of the library TF 1.15 served as `tf.estimator`; it is
pure Python. On TensorFlow 2.21 it fails to import only because it reads a few TensorFlow internals
that were removed with it. `PATCHES` puts each back; `v1_api()` applies them (once, through
`shims.apply("tensorflow_estimator")`) and returns the TF1 `tf.estimator` namespace. Nothing here
runs on `import tf1clip`: the facade calls `v1_api()` the first time a script touches `tf.estimator`,
`tf.contrib.tpu` or the estimator names of `tf.contrib.estimator`.

| where the library looks | what the shim puts there | needed by |
| --- | --- | --- |
| `tf_export.ESTIMATOR_API_NAME` and its `API_ATTRS` entries | the "estimator" API name TF <= 2.15 registered | `estimator_export`, i.e. every module of the library |
| `tensorflow.python.distribute.estimator_training` | standins.estimator_training | `RunConfig`, `Estimator.train/evaluate`, `train_and_evaluate` |
| `tensorflow.python.tpu.tpu_embedding` | standins.tpu_embedding | every TPUEstimator import (`_tpu_estimator_embedding`) |
| `tf.compat.v1.tpu.experimental.{Adagrad,Adam,Ftrl,StochasticGradientDescent}Parameters` | the same classes of standins.tpu_embedding | `_tpu_estimator_embedding` slot names |
| `tensorflow.python.tpu.session_support` | standins.tpu_runtime | `tpu_estimator` import; TPU shutdown hooks |
| `tensorflow.python.tpu.tpu_embedding_gradient` | standins.tpu_runtime | `tpu_estimator` import; TPU embedding gradients |

What each stand-in replaces and what fails if a script really needs it is in its module docstring
(and docs/legacy.md, "Estimator scripts").
"""

import importlib

from tf1clip import shims

_STANDINS = "tf1clip.shims.standins."
_V1_EXPERIMENTAL = "tensorflow._api.v2.compat.v1.tpu.experimental"
_TPU_EMBEDDING_NEEDED_BY = "tensorflow_estimator tpu/_tpu_estimator_embedding.py (TPUEstimator)"


def register_estimator_api_name():
  """Registers the "estimator" API name in TensorFlow's tf_export, as TensorFlow <= 2.15 had it.

  `estimator_export` (every public class and function of the library) exports through
  `tf_export.api_export(api_name=tf_export.ESTIMATOR_API_NAME)`, which reads the attribute names it
  tags symbols with from `API_ATTRS[api_name]` and `API_ATTRS_V1[api_name]`.

  Returns:
    True when this call added the name, False when it was there already.

  Raises:
    AttributeError: tf_export no longer has the tables this function extends (reported by `shims`).
  """
  from tensorflow.python.util import tf_export  # pylint: disable=import-outside-toplevel
  name = "estimator"
  if getattr(tf_export, "ESTIMATOR_API_NAME", None) == name and name in tf_export.API_ATTRS:
    return False
  attributes = tf_export._Attributes  # pylint: disable=protected-access
  tf_export.API_ATTRS[name] = attributes("_estimator_api_names", "_estimator_api_constants")
  tf_export.API_ATTRS_V1[name] = attributes("_estimator_api_names_v1",
                                            "_estimator_api_constants_v1")
  tf_export.ESTIMATOR_API_NAME = name
  return True


PATCHES = (
    shims.Patch(
        target="tensorflow.python.util.tf_export:ESTIMATOR_API_NAME",
        source=__name__ + ":register_estimator_api_name", call=True,
        needed_by="estimator_export.py: every public symbol of tensorflow_estimator"),
    shims.Patch(
        target="tensorflow.python.distribute.estimator_training",
        source=_STANDINS + "estimator_training",
        needed_by="run_config.py, estimator.py, training.py (RunConfig, train, evaluate, "
                  "train_and_evaluate)",
        if_used="multi-worker training through the Distribute Coordinator "
                "(RunConfig(train_distribute=...) with a TF_CONFIG cluster) raises "
                "RemovedInternalError; local and one-machine strategies work"),
    shims.Patch(
        target="tensorflow.python.tpu.tpu_embedding",
        source=_STANDINS + "tpu_embedding",
        needed_by=_TPU_EMBEDDING_NEEDED_BY,
        if_used="TPU embeddings (TPUEstimator(use_tpu=True, embedding_config_spec=...)) raise "
                "RemovedInternalError; with use_tpu=False the embedding columns train on CPU/GPU"),
    *(shims.Patch(
        target=_V1_EXPERIMENTAL + ":" + name,
        source=_STANDINS + "tpu_embedding:" + name,
        needed_by=_TPU_EMBEDDING_NEEDED_BY + " (optimizer slot names)",
        if_used="a stand-in that stores its arguments (only a TPU would use them)")
      for name in ("AdagradParameters", "AdamParameters", "FtrlParameters",
                   "StochasticGradientDescentParameters")),
    shims.Patch(
        target="tensorflow.python.tpu.session_support",
        source=_STANDINS + "tpu_runtime",
        needed_by="tpu/tpu_estimator.py (module import; TPU worker shutdown hooks)",
        if_used="TPUEstimator(use_tpu=True) training on a real TPU raises RemovedInternalError"),
    shims.Patch(
        target="tensorflow.python.tpu.tpu_embedding_gradient",
        source=_STANDINS + "tpu_runtime",
        needed_by="tpu/tpu_estimator.py (module import; TPU embedding gradients)",
        if_used="TPU embeddings on a real TPU raise RemovedInternalError"),
)

LIBRARY = "tensorflow_estimator"


def apply():
  """Applies the shim (once per process) and returns its shims.ShimReport."""
  return shims.apply(LIBRARY)


def v1_api():
  """TF 1.15's `tf.estimator`: tensorflow-estimator 2.15's v1 API, imported after the shim is applied.

  Returns:
    The module `tensorflow_estimator._api.v1.estimator` (Estimator, RunConfig, tpu, export, inputs, ...).

  Raises:
    ImportError: the library does not import even with the shim (the message names what moved and
      what `shims.report()` skipped).
  """
  report = apply()
  try:
    return importlib.import_module("tensorflow_estimator._api.v1.estimator")
  except ImportError as e:
    skipped = "; ".join("%s (%s)" % (patch.target, why) for patch, why in report.skipped)
    raise ImportError(
        "tensorflow-estimator 2.15 does not import on this TensorFlow even with tf1clip's shim: %s%s"
        % (e, ("; patches skipped: " + skipped) if skipped else "")) from e
