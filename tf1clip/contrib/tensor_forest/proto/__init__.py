"""`tf.contrib.tensor_forest.proto`: TF 1.15's tensor_forest_params_pb2 (and fertile_stats_pb2), built from descriptors.

Place in the data flow (DESIGN.md): protobuf <- **contrib.tensor_forest.proto** <- contrib.tensor_forest <- compat.
"""
