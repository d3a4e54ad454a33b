"""TF 1.15's tensorflow/contrib/tensor_forest/proto/tensor_forest_params.proto messages and enums.

Place in the data flow (DESIGN.md): contrib.tensor_forest.proto.descriptors <- **tensor_forest_params_pb2** <-
contrib.tensor_forest.tensor_forest / kernels.

TensorForestParams, DepthDependentParam (constant / linear / exponential / threshold), SplitPruningConfig,
SplitFinishConfig and the enum values (MODEL_DENSE_CLASSIFICATION, STATS_DENSE_GINI, SPLIT_FINISH_BASIC, ...), as
TF 1.15's generated module had them.
"""

from tf1clip.contrib.tensor_forest.proto import descriptors

descriptors.fill_module(globals(), "tensorflow/contrib/tensor_forest/proto/tensor_forest_params.proto")
