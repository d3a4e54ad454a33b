"""`tensorflow.contrib.reduce_slice_ops.python.ops.reduce_slice_ops`: the module TF 1.15 scripts imported the ops from.

Place in the data flow (DESIGN.md): contrib.reduce_slice_ops <- **this path** <- compat.importer <- cli. The same
functions as `tf.contrib.reduce_slice_ops` (TF 1.15's public module exported none).
"""

from tf1clip.contrib.reduce_slice_ops import reduce_slice_max, reduce_slice_min, reduce_slice_prod, reduce_slice_sum

__all__ = ["reduce_slice_sum", "reduce_slice_prod", "reduce_slice_max", "reduce_slice_min"]
