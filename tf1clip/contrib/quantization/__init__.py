"""`tf.contrib.quantization`: TF 1.15's quantize / dequantize / concat ops, on TensorFlow 2.21's raw ops.

TF 1.15's module re-exported three generated ops of gen_array_ops under their op signatures (no `axis`,
`narrow_range` or `ensure_minimum_range`: those attributes came later with defaults that keep TF 1.15's
per-tensor behaviour, including its 1% minimum range). Here they are thin wrappers on `tf.raw_ops` with TF 1.15's
parameters and the same named-tuple outputs (`output, output_min, output_max` for quantize_v2 and
quantized_concat). `quantized_array_ops` (TF 1.15's contrib/quantization/python/array_ops module, which held
the same three ops) is this module. `tf_export` and `deprecated_endpoints` leaked into TF 1.15's module
through its `from gen_math_ops import *`: they are TensorFlow's API-export decorators (imported below).
"""

import tensorflow as tf

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.python.util.deprecation import deprecated_endpoints
from tensorflow.python.util.tf_export import tf_export
from tf1clip.contrib import quantization as quantized_array_ops


def quantize_v2(input, min_range, max_range, T, mode="MIN_COMBINED",  # pylint: disable=redefined-builtin,invalid-name
                round_mode="HALF_AWAY_FROM_ZERO", name=None):
  """Quantizes float `input` over [min_range, max_range] to type `T` (TF 1.15's QuantizeV2 op)."""
  return tf.raw_ops.QuantizeV2(input=input, min_range=min_range, max_range=max_range, T=T, mode=mode,
                               round_mode=round_mode, name=name)


def dequantize(input, min_range, max_range, mode="MIN_COMBINED", name=None):  # pylint: disable=redefined-builtin
  """Float32 values of quantized `input` over [min_range, max_range] (TF 1.15's Dequantize op)."""
  return tf.raw_ops.Dequantize(input=input, min_range=min_range, max_range=max_range, mode=mode, name=name)


def quantized_concat(concat_dim, values, input_mins, input_maxes, name=None):
  """Concatenates quantized `values` along `concat_dim`, requantized to a common range (TF 1.15's op)."""
  return tf.raw_ops.QuantizedConcat(concat_dim=concat_dim, values=values, input_mins=input_mins,
                                    input_maxes=input_maxes, name=name)


__getattr__ = _catalog.module_getattr(__name__)
