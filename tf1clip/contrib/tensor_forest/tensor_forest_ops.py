"""`tf.contrib.tensor_forest.tensor_forest_ops`: TF 1.15's two custom ops, ReinterpretStringToFloat and ScatterAddNdim.

Place in the data flow (DESIGN.md): contrib.tensor_forest.kernels <- **contrib.tensor_forest.tensor_forest_ops** <-
contrib.tensor_forest.data_ops.

`reinterpret_string_to_float` hashes each string with libstdc++'s std::hash (MurmurHash2, 64 bits) into a float, as
TF 1.15's kernel; `scatter_add_ndim` adds `deltas` at `indices` of a variable.
"""

from tf1clip.contrib.tensor_forest.kernels import reinterpret_string_to_float  # noqa: F401
from tf1clip.contrib.tensor_forest.kernels import scatter_add_ndim  # noqa: F401
