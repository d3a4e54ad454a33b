"""`tf.contrib.labeled_tensor`: tensors whose axes have names and tick labels, as TF 1.15 had them.

tf1clip's own code (nothing maintained continued labeled_tensor), module for module TF 1.15's
`tensorflow/contrib/labeled_tensor/python/ops/`: `core` (Axis, Axes, LabeledTensor, align and the axis-order scope,
the elementwise ops), `ops` (select, concat, pack, reshape, reductions, matmul, batching, ...), `io_ops` (parsing,
placeholder), `nn` (served as `labeled_tensor.nn`), `sugar` (ReshapeCoder) and `_typecheck` (the argument checks:
a wrong argument type is a `tc.Error`, a TypeError). Graph mode on TensorFlow 2.21's tf.compat.v1; names, axis
semantics, `lt_<op>` name scopes and errors are TF 1.15's. One difference a script can see: parsed tensors come
from TensorFlow 2.21's ParseExampleV2 op, so their op names differ (values do not).
"""

# pylint: disable=redefined-builtin

from tf1clip.contrib import catalog as _catalog
from tf1clip.contrib.labeled_tensor.python.ops import nn
from tf1clip.contrib.labeled_tensor.python.ops.core import (
    acos, add, align, as_axis, asin, atan, Axes, Axis, axis_order_scope, AxisOrderError, ceil, check_axis_order,
    convert_to_labeled_tensor, cos, define_binary_op, define_unary_op, digamma, div, equal, erf, erfc, exp,
    expand_dims, floor, greater, greater_equal, identity, igamma, igammac, impose_axis_order, LabeledTensor, less,
    less_equal, lgamma, log, logical_and, logical_not, logical_or, logical_xor, maximum, minimum, mod, mul, neg,
    not_equal, polygamma, reciprocal, rsqrt, sigmoid, sign, sin, sqrt, square, squared_difference, sub, tan, tanh,
    transpose, zeta)
from tf1clip.contrib.labeled_tensor.python.ops.core import abs_function as abs
from tf1clip.contrib.labeled_tensor.python.ops.core import pow_function as pow
from tf1clip.contrib.labeled_tensor.python.ops.core import round_function as round
from tf1clip.contrib.labeled_tensor.python.ops.core import slice_function as slice
from tf1clip.contrib.labeled_tensor.python.ops.io_ops import (
    FixedLenFeature, parse_example, parse_single_example, placeholder)
from tf1clip.contrib.labeled_tensor.python.ops.ops import (
    batch, boolean_mask, cast, concat, constant, define_reduce_op, foldl, map_fn, matmul, ones_like, pack, pad,
    random_crop, reduce_all, reduce_any, reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod,
    reduce_sum, rename_axis, reshape, select, shuffle_batch, squeeze, tile, unpack, verify_tensor_all_finite,
    where, zeros_like)
from tf1clip.contrib.labeled_tensor.python.ops.sugar import ReshapeCoder

__getattr__ = _catalog.module_getattr(__name__)
