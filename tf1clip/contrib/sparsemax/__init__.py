"""`tf.contrib.sparsemax`: sparsemax and its loss (Martins & Astudillo, 2016), TF 1.15's code.

`sparsemax(logits)` is the Euclidean projection of each row of logits onto the probability simplex (a softmax
whose outputs can be exactly 0); rows with NaN or no support give NaN, as in TF 1.15. `sparsemax_loss(logits,
sparsemax, labels)` is its convex loss per row. Gradients come from TensorFlow's autodiff of these ops.

References:
  Martins, Astudillo, "From Softmax to Sparsemax: A Sparse Model of Attention and Multi-Label
  Classification", ICML 2016 (arXiv:1602.02068).
"""

import tensorflow as tf
from tf1clip.contrib import catalog as _catalog


def sparsemax(logits, name=None):
  """Sparsemax of each row of `logits` [batch, classes]."""
  with tf.compat.v1.name_scope(name, "sparsemax", [logits]):
    logits = tf.convert_to_tensor(logits, name="logits")
    obs = tf.shape(logits)[0]
    dims = tf.shape(logits)[1]
    z = logits
    z_sorted, _ = tf.nn.top_k(z, k=dims)
    z_cumsum = tf.cumsum(z_sorted, axis=1)
    k = tf.range(1, tf.cast(dims, logits.dtype) + 1, dtype=logits.dtype)
    z_check = 1 + k * z_sorted > z_cumsum
    k_z = tf.reduce_sum(tf.cast(z_check, tf.int32), axis=1)
    k_z_safe = tf.maximum(k_z, 1)
    indices = tf.stack([tf.range(0, obs), k_z_safe - 1], axis=1)
    tau_sum = tf.gather_nd(z_cumsum, indices)
    tau_z = (tau_sum - 1) / tf.cast(k_z, logits.dtype)
    p = tf.maximum(tf.cast(0, logits.dtype), z - tau_z[:, tf.newaxis])
    return tf.where(tf.logical_or(tf.equal(k_z, 0), tf.math.is_nan(z_cumsum[:, -1]))[:, tf.newaxis]
                    & tf.ones_like(p, dtype=tf.bool),
                    tf.fill([obs, dims], tf.cast(float("nan"), logits.dtype)), p)


def sparsemax_loss(logits, sparsemax, labels, name=None):  # pylint: disable=redefined-outer-name
  """The sparsemax loss of each row: sum over the support of s (z - s / 2) + labels (labels / 2 - z)."""
  with tf.compat.v1.name_scope(name, "sparsemax_loss", [logits, sparsemax, labels]):
    logits = tf.convert_to_tensor(logits, name="logits")
    sparsemax = tf.convert_to_tensor(sparsemax, name="sparsemax")
    labels = tf.convert_to_tensor(labels, name="labels")
    z = logits
    sum_s = tf.where(tf.logical_or(sparsemax > 0, tf.math.is_nan(sparsemax)),
                     sparsemax * (z - 0.5 * sparsemax), tf.zeros_like(sparsemax))
    q_part = labels * (0.5 * labels - z)
    q_part_safe = tf.where(tf.logical_and(tf.equal(labels, 0), tf.math.is_inf(z)),
                           tf.zeros_like(z), q_part)
    return tf.reduce_sum(sum_s + q_part_safe, axis=1)


# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = "tensorflow-addons' tfa.activations.sparsemax (archived)"

__getattr__ = _catalog.module_getattr(__name__)
