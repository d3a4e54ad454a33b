"""`tf.contrib.cluster_resolver`: TensorFlow 2.21's `tf.distribute.cluster_resolver`, with a clearer TPU error.

Every name is the same object as `tf.distribute.cluster_resolver.<name>` (ClusterResolver,
SimpleClusterResolver, UnionResolver as UnionClusterResolver too, TFConfigClusterResolver,
GCEClusterResolver, KubernetesClusterResolver, SlurmClusterResolver), except `TPUClusterResolver`: a
subclass of TF's whose constructor, when no TPU can be reached (the name does not resolve, no GCE
metadata server, ...), raises an error that says so and how to run without a TPU, chained to TF's
own error, and which keeps TF 1.15's `rpc_layer` attribute ('grpc'). Scripts build it only when asked to use a TPU, so CPU/GPU runs never touch it.
"""

import importlib

from tf1clip.contrib import catalog as _catalog

SAME_AS_TF = ("ClusterResolver", "SimpleClusterResolver", "UnionResolver", "TFConfigClusterResolver",
              "GCEClusterResolver", "KubernetesClusterResolver", "SlurmClusterResolver")
# TF 1.15 spelling -> TF 2.21 name.
RENAMED = {"UnionClusterResolver": "UnionResolver"}


class NoTPUReachableError(RuntimeError):
  """TPUClusterResolver could not find the TPU it was asked for."""


def _make_tpu_cluster_resolver():
  base = importlib.import_module("tensorflow").distribute.cluster_resolver.TPUClusterResolver

  class TPUClusterResolver(base):  # pylint: disable=missing-class-docstring
    __doc__ = base.__doc__

    # pylint: disable-next=keyword-arg-before-vararg
    def __init__(self, tpu=None, zone=None, project=None, *args, **kwargs):
      try:
        super().__init__(tpu, zone, project, *args, **kwargs)
      except (OSError, ValueError, RuntimeError) as e:  # URLError is an OSError
        raise NoTPUReachableError(
            "no TPU is reachable: TPUClusterResolver(tpu=%r, zone=%r, project=%r) failed with "
            "%s: %s. To train on CPU/GPU, run with use_tpu=False (and no TPU name)."
            % (tpu, zone, project, type(e).__name__, e)) from e
      if not hasattr(self, "rpc_layer"):
        # TF 1.15's attribute (TF 2.21's class dropped it): 'grpc' outside Google's own environment.
        self.rpc_layer = "grpc"

  TPUClusterResolver.__module__ = __name__
  TPUClusterResolver.__qualname__ = "TPUClusterResolver"
  return TPUClusterResolver


# The declaration: served names whose parameters differ from TF 1.15's in a way a TF 1.15 call can notice.
SIGNATURE_DIFFERENCES = {
    "SlurmClusterResolver": (
        "TensorFlow 2.21's class (TF 1.15 re-exported the same one): `jobs` became optional and the GPU "
        "counts default to auto-detection (None) instead of 1"),
}

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = 'tf.distribute.cluster_resolver'

_hook = _catalog.module_getattr(__name__)


def __getattr__(name):  # pylint: disable=invalid-name
  if name == "TPUClusterResolver":
    value = _make_tpu_cluster_resolver()
  elif name in SAME_AS_TF or name in RENAMED:
    resolvers = importlib.import_module("tensorflow").distribute.cluster_resolver
    value = getattr(resolvers, RENAMED.get(name, name))
  else:
    return _hook(name)
  globals()[name] = value
  return value


def __dir__():  # pylint: disable=invalid-name
  return sorted(set(globals()) | set(SAME_AS_TF) | set(RENAMED) | {"TPUClusterResolver"})
