"""TF 1.15's tensorflow/contrib/tensor_forest/proto/fertile_stats.proto messages (FertileStats, FertileSlot, ...).

Place in the data flow (DESIGN.md): contrib.tensor_forest.proto.descriptors <- **fertile_stats_pb2** <-
contrib.tensor_forest.kernels.
"""

from tf1clip.contrib.tensor_forest.proto import descriptors

descriptors.fill_module(globals(), "tensorflow/contrib/tensor_forest/proto/fertile_stats.proto")
