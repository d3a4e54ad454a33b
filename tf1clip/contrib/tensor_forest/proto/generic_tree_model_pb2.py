"""TF 1.15's tensorflow/contrib/decision_trees/proto/generic_tree_model.proto (the tree a TreeVariable holds).

Place in the data flow (DESIGN.md): contrib.tensor_forest.proto.descriptors <- **generic_tree_model_pb2** <-
contrib.tensor_forest.kernels / tensor_forest.
"""

from tf1clip.contrib.tensor_forest.proto import descriptors

descriptors.fill_module(globals(), "tensorflow/contrib/decision_trees/proto/generic_tree_model.proto")
