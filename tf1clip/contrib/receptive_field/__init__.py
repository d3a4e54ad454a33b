"""`tf.contrib.receptive_field`: the receptive field (size, effective stride, padding) of a CNN, and the order and
feature-map sizes of a graph's nodes.

tf1clip's code, TF 1.15's three modules `tensorflow/contrib/receptive_field/python/util/{parse_layer_parameters,
graph_compute_order,receptive_field}.py` (python/util/ here); TF 1.15 served the two functions through its
receptive_field_api module. The results and errors are TF 1.15's, TensorFlow 2.21's dropout (a SelectV2 where TF
1.15 multiplied) included; the ops TF 1.15 did not know stay unknown (a ValueError, or None sizes in
get_compute_order): FusedBatchNormV3 (slim's / tf.layers' batch norm on both), ReadVariableOp weights (resource
variables), EXPLICIT padding, dilated convolutions (SpaceToBatchND).
"""

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.receptive_field.python.util.graph_compute_order import get_compute_order  # noqa: F401
from tf1clip.contrib.receptive_field.python.util.receptive_field import (  # noqa: F401
    compute_receptive_field_from_graph_def)

__getattr__ = _catalog.module_getattr(__name__)
