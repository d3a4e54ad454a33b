"""tf.contrib.tensorboard.plugins.projector (TF 1.15's tensorboard/plugins/projector/) against TF 1.15:
visualize_embeddings writes the same projector_config.pbtxt; the config protos have the same fields; the plugins
module's contents.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.tensorboard.plugins", "tf.contrib.tensorboard.plugins.projector.visualize_embeddings",
    "tf.contrib.tensorboard.plugins.projector.ProjectorConfig", "tf.contrib.tensorboard.plugins.projector.EmbeddingInfo",
    "tf.contrib.tensorboard.plugins.projector.SpriteMetadata",
    "tf.contrib.tensorboard.plugins.projector.projector_config_pb2")

SNIPPET = r'''
import os
import tensorflow as tf
# tensorboard's projector config
import os
from tensorflow.contrib.tensorboard.plugins import projector
logdir = os.path.join(ORACLE_SHARED, "projector_" + tf.__version__)
writer = tf.summary.FileWriter(logdir)
config = projector.ProjectorConfig()
embedding = config.embeddings.add()
embedding.tensor_name = "embedding/weights"
embedding.metadata_path = "metadata.tsv"
embedding.sprite.image_path = "sprite.png"
embedding.sprite.single_image_dim.extend([28, 28])
projector.visualize_embeddings(writer, config)
with open(os.path.join(logdir, "projector_config.pbtxt")) as handle:
    report("projector_config", handle.read())
report("projector_fields", {cls.__name__: [f.name for f in cls.DESCRIPTOR.fields] for cls in (
    projector.ProjectorConfig, projector.EmbeddingInfo, projector.SpriteMetadata)})
report("projector_pb2", projector.projector_config_pb2.ProjectorConfig is projector.ProjectorConfig)

# ---- tf.contrib.tensorboard.plugins ----
plugins = tf.contrib.tensorboard.plugins
report("tensorboard_plugins", sorted(n for n in dir(plugins) if not n.startswith("_") and n not in (
    "absolute_import", "division", "print_function")))  # TF 1.15's __future__ imports left aside
projector_config = plugins.projector.ProjectorConfig()
embedding = projector_config.embeddings.add(tensor_name="emb", metadata_path="meta.tsv")
plugins.projector.visualize_embeddings(tf.summary.FileWriter(os.path.abspath("projector")), projector_config)
with open(os.path.join("projector", "projector_config.pbtxt")) as f:
    report("plugins_projector_config", f.read())
'''


@requires_tf115
def test_projector_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours)
