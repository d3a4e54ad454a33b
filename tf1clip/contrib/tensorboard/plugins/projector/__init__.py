"""`tf.contrib.tensorboard.plugins.projector`: TF 1.15's embedding-projector API on TensorBoard's own.

Mirrors TF 1.15's `tensorflow/contrib/tensorboard/plugins/projector/__init__.py`.

`ProjectorConfig`, `EmbeddingInfo`, `SpriteMetadata` and `projector_config_pb2` are TensorBoard's (the same proto,
which TF 1.15 carried a copy of). `visualize_embeddings` keeps TF 1.15's signature: it takes the summary writer
(TensorBoard's own takes a log directory) and writes `projector_config.pbtxt` into the writer's log directory.
"""

from tensorboard.plugins import projector as _tensorboard_projector
from tensorboard.plugins.projector import projector_config_pb2  # noqa: F401  (TF 1.15 exported the module)

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorboard.plugins.projector import EmbeddingInfo, ProjectorConfig, SpriteMetadata

def visualize_embeddings(summary_writer, config):
  """Stores the projector's config file (`projector_config.pbtxt`) in `summary_writer`'s log directory.

  Args:
    summary_writer: the `tf.summary.FileWriter` the embeddings' events go to.
    config: a `ProjectorConfig`; without `model_checkpoint_path` the projector reads the log directory.

  Raises:
    ValueError: the summary writer has no log directory.
  """
  logdir = summary_writer.get_logdir()
  if logdir is None:
    raise ValueError("Summary writer must have a logdir")
  _tensorboard_projector.visualize_embeddings(logdir, config)

__getattr__ = _catalog.module_getattr(__name__)
