"""Stand-in for `tensorflow.python.tpu.tpu_embedding` (TF <= 2.15): the TF1 TPU embedding API.

Replaces: the module holding `TPUEmbedding` (the TF1 mid-level API that ran embedding lookups on
the TPU's embedding cores), its configuration tuples and the `tf.compat.v1.tpu.experimental.*Parameters`
optimizer settings. TensorFlow 2.16 deleted it (TF2 has `tf.tpu.experimental.embedding`, a different API).

Needed by: `tensorflow_estimator.python.estimator.tpu._tpu_estimator_embedding`, which every
`TPUEstimator` import loads, and `tf.estimator.tpu.experimental.EmbeddingConfigSpec`.

What works: everything a script touches without a TPU: building `EmbeddingConfigSpec` with the
`*Parameters` classes below (same constructor arguments as TF 2.15, stored as attributes),
`TableConfig`, `FeatureConfig`, the slot-name tuples, and `TPUEstimator(use_tpu=False,
embedding_config_spec=...)`, which ignores the spec and trains the TPU embedding columns on CPU/GPU.
What fails: creating a `TPUEmbedding` (TPUEstimator does so only with `use_tpu=True` and a spec):
RemovedInternalError.

Data flow: see tf1clip.shims.standins.
"""

import collections
import inspect

from tf1clip.shims.standins import RemovedInternalError

TRAINING = "training"
INFERENCE = "inference"

_FEATURE = "TPU embeddings (TPUEstimator(use_tpu=True, embedding_config_spec=...))"
_INTERNAL = "tensorflow.python.tpu.tpu_embedding.TPUEmbedding"
_INSTEAD = ("tf.tpu.experimental.embedding.TPUEmbedding with tf.distribute.TPUStrategy, or "
            "TPUEstimator(use_tpu=False), which trains the same embedding columns on CPU/GPU")

TableConfig = collections.namedtuple("TableConfig", [
    "vocabulary_size", "dimension", "initializer", "combiner", "hot_id_replication",
    "learning_rate", "learning_rate_fn", "optimization_parameters"])
TableConfig.__new__.__defaults__ = (None, "mean", False, None, None, None)
FeatureConfig = collections.namedtuple("FeatureConfig",
                                       ["table_id", "max_sequence_length", "weight_key"])
FeatureConfig.__new__.__defaults__ = (0, None)


class EnqueueData(collections.namedtuple(
    "EnqueueData", ["embedding_indices", "sample_indices", "aggregation_weights"])):
  """Data to be enqueued to the TPU embedding cores (only used with a TPU)."""

  def __new__(cls, embedding_indices, sample_indices=None, aggregation_weights=None):
    return super().__new__(cls, embedding_indices, sample_indices, aggregation_weights)

  @staticmethod
  def from_sparse_tensor(sp_tensor, weights=None):
    """The EnqueueData of a SparseTensor of ids (and optional weights), as TF 2.15 built it."""
    return EnqueueData(sp_tensor.values, sp_tensor.indices,
                       aggregation_weights=weights.values if weights is not None else None)


AdamSlotVariableNames = collections.namedtuple("AdamSlotVariableNames", ["m", "v"])
AdagradSlotVariableNames = collections.namedtuple("AdagradSlotVariableNames", ["accumulator"])
MomentumSlotVariableNames = collections.namedtuple("MomentumSlotVariableNames", ["momenta"])
RMSPropSlotVariableNames = collections.namedtuple("RMSPropSlotVariableNames", ["ms", "mom"])
ProximalAdagradSlotVariableNames = collections.namedtuple("ProximalAdagradSlotVariableNames",
                                                          ["accumulator"])
FtrlSlotVariableNames = collections.namedtuple("FtrlSlotVariableNames", ["accumulator", "linear"])
VariablesAndOps = collections.namedtuple("VariablesAndOps", [
    "embedding_variables_by_table", "slot_variables_by_table", "load_ops", "retrieve_ops"])

_COMMON = (("use_gradient_accumulation", True), ("clip_weight_min", None), ("clip_weight_max", None),
           ("weight_decay_factor", None), ("multiply_weight_decay_factor_by_learning_rate", None),
           ("clip_gradient_min", None), ("clip_gradient_max", None))
_REQUIRED = inspect.Parameter.empty


class _OptimizationParameters:
  """Optimizer settings for TPU embedding tables: the constructor's arguments, kept as attributes."""

  def __init__(self, *args, **kwargs):
    bound = inspect.signature(type(self).__init__).bind(self, *args, **kwargs)
    bound.apply_defaults()
    for name, value in list(bound.arguments.items())[1:]:
      setattr(self, name, value)

  def __repr__(self):
    return "%s(%s)" % (type(self).__name__, ", ".join(
        "%s=%r" % item for item in sorted(vars(self).items())))


def _parameters_class(name, specific, common=_COMMON):
  """A `_OptimizationParameters` subclass whose __init__ has TF 2.15's signature for `name`."""
  parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] + [
      inspect.Parameter(arg, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
      for arg, default in (("learning_rate", _REQUIRED),) + specific + common]

  def __init__(self, *args, **kwargs):  # pylint: disable=invalid-name
    _OptimizationParameters.__init__(self, *args, **kwargs)

  __init__.__signature__ = inspect.Signature(parameters)
  doc = ("Optimization parameters for %s with TPU embeddings (TF 2.15's "
         "tf.compat.v1.tpu.experimental.%s; a stand-in that stores its arguments)." % (
             name[:-len("Parameters")], name))
  return type(name, (_OptimizationParameters,), {"__init__": __init__, "__doc__": doc,
                                                 "__module__": __name__})


AdagradParameters = _parameters_class("AdagradParameters", (("initial_accumulator", 0.1),))
ProximalAdagradParameters = _parameters_class("ProximalAdagradParameters", (
    ("initial_accumulator", 0.1), ("l1_regularization_strength", 0.0),
    ("l2_regularization_strength", 0.0)))
AdamParameters = _parameters_class("AdamParameters", (
    ("beta1", 0.9), ("beta2", 0.999), ("epsilon", 1e-08), ("lazy_adam", True),
    ("sum_inside_sqrt", True)))
FtrlParameters = _parameters_class("FtrlParameters", (
    ("learning_rate_power", -0.5), ("initial_accumulator_value", 0.1),
    ("l1_regularization_strength", 0.0), ("l2_regularization_strength", 0.0)) + _COMMON[:5] + (
        ("multiply_linear_by_learning_rate", False), ("beta", 0), ("allow_zero_accumulator", False)),
    common=_COMMON[5:])
MomentumParameters = _parameters_class("MomentumParameters", (
    ("momentum", _REQUIRED), ("use_nesterov", False)))
RMSPropParameters = _parameters_class("RMSPropParameters", (
    ("rho", _REQUIRED), ("momentum", _REQUIRED), ("epsilon", _REQUIRED)))
StochasticGradientDescentParameters = _parameters_class("StochasticGradientDescentParameters", ())

# The names TF 2.15 exported as tf.compat.v1.tpu.experimental.<name>.
V1_EXPORTED_PARAMETERS = ("AdagradParameters", "AdamParameters", "FtrlParameters",
                          "StochasticGradientDescentParameters")


class TPUEmbedding:
  """Stands for TF 2.15's TF1 TPUEmbedding; constructing it raises RemovedInternalError.

  Raises:
    RemovedInternalError: always (TPU embeddings need the removed TF1 implementation and a TPU).
  """

  def __init__(self, *args, **kwargs):
    del args, kwargs
    raise RemovedInternalError(_FEATURE, _INTERNAL, _INSTEAD)
