"""Stand-ins for TensorFlow internals that tensorflow-estimator 2.15 imports and TensorFlow 2.21 removed.

Place in the data flow (DESIGN.md, "Legacy surface"): TensorFlow internals <- (shims.tensorflow_estimator puts
these modules where the library looks) <- tensorflow_estimator <- compat.v1 / contrib.tpu <- cli.

Each module here is registered under the TensorFlow module name it replaces (see
shims.tensorflow_estimator.PATCHES) and says in its docstring what it replaces and what fails if a script
really needs the removed feature. Those paths raise `RemovedInternalError`, naming the feature and what
to use instead, at the call that needs it: never an AttributeError or ImportError.
"""


class RemovedInternalError(NotImplementedError):
  """A feature whose TensorFlow internals TensorFlow 2.21 removed and tf1clip does not re-implement.

  Args:
    feature: what the script asked for, in the user's words (e.g. "TPU embeddings").
    internal: the removed TensorFlow internal (e.g. "tensorflow.python.tpu.tpu_embedding.TPUEmbedding").
    instead: what to use instead.
  """

  def __init__(self, feature, internal, instead):
    self.feature = feature
    self.internal = internal
    super().__init__(
        "%s: not available on TensorFlow 2.21 (it removed %s; tf1clip runs tensorflow-estimator 2.15 "
        "with a stand-in for it). Use instead: %s" % (feature, internal, instead))
