"""TF 1.15's `sparse_feature_cross` (contrib.layers' custom-op wrapper) on TensorFlow's own SparseCross kernels.

TF 1.15 crossed with its contrib-only SparseFeatureCross / SparseFeatureCrossV2 kernels. Their string crosses
("a_X_b") are TensorFlow's SparseCross's, and V2 (a `hash_key` given: FingerprintCat64 of the features'
fingerprints, modulo `num_buckets`) is TensorFlow's SparseCross's hashed output (what tf.sparse.cross_hashed
runs) bit for bit (checked against TF 1.15). The legacy hash (hashed output with `hash_key=None`, TF 1.15's
default) combined TensorFlow's internal Hash64 of each feature, which no TensorFlow 2.21 op computes: that case
raises NotImplementedError and says to pass `hash_key=SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY` (the default TF 1.15
announced; other buckets than before).
"""

import tensorflow.compat.v1 as tf

from tf1clip.contrib import catalog as _catalog

# Default hash key for the FingerprintCat64.
SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def sparse_feature_cross(inputs, hashed_output=False, num_buckets=0, name=None, hash_key=None):
  """Crosses a list of Tensor / SparseTensor features: strings "a_X_b", or int64 hashes of the crosses."""
  if not isinstance(inputs, list):
    raise TypeError("Inputs must be a list")
  if not all(isinstance(i, (tf.SparseTensor, tf.Tensor)) for i in inputs):
    raise TypeError("All inputs must be SparseTensors")
  if hashed_output and not hash_key:
    raise NotImplementedError(
        "sparse_feature_cross(hashed_output=True) with hash_key=None used TF 1.15's legacy contrib hash "
        "(Hash64Combine of TensorFlow's internal Hash64), which no TensorFlow 2.21 op computes; pass "
        "hash_key=tf.contrib.layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY (FingerprintCat64, TF 1.15's "
        "announced default; the crosses land in other buckets than TF 1.15's legacy hash put them)")
  sparse_inputs = [i for i in inputs if isinstance(i, tf.SparseTensor)]
  dense_inputs = [i for i in inputs if not isinstance(i, tf.SparseTensor)]
  indices = [sp_input.indices for sp_input in sparse_inputs]
  values = [sp_input.values for sp_input in sparse_inputs]
  shapes = [sp_input.dense_shape for sp_input in sparse_inputs]
  internal_type = tf.string
  for i in range(len(values)):
    if values[i].dtype != tf.string:
      values[i] = tf.cast(values[i], tf.int64)
      internal_type = tf.int64
  for i in range(len(dense_inputs)):
    if dense_inputs[i].dtype != tf.string:
      dense_inputs[i] = tf.cast(dense_inputs[i], tf.int64)
      internal_type = tf.int64
  out_type = tf.int64 if hashed_output else tf.string
  indices_out, values_out, shape_out = tf.raw_ops.SparseCross(
      indices=indices, values=values, shapes=shapes, dense_inputs=dense_inputs, hashed_output=hashed_output,
      num_buckets=num_buckets, hash_key=hash_key or SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY, out_type=out_type,
      internal_type=internal_type, name=name)
  return tf.SparseTensor(indices_out, values_out, shape_out)


__getattr__ = _catalog.module_getattr(__name__, delegate="tf1clip.contrib.layers")
