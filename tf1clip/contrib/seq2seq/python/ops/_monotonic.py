"""Monotonic attention's arithmetic: `safe_cumprod` and `monotonic_attention` (TF 1.15's contrib).

Place in the data flow (DESIGN.md): **monotonic** <- attention_mechanisms (the monotonic
mechanisms' probability function) <- attention_wrapper. Pure tensor functions, no variables.
"""

import numpy as np
import tensorflow as tf


def safe_cumprod(x, *args, **kwargs):
  """Cumulative product computed as exp(cumsum(log(x))), safe from underflow for long sequences.

  `x` is clipped to [tiny, 1] first, so it is meant for probabilities.

  Args:
    x: float Tensor of values in [0, 1].
    *args: passed to `tf.cumsum` (axis).
    **kwargs: passed to `tf.cumsum` (axis, exclusive, reverse).

  Returns:
    The cumulative product of `x` along the axis.
  """
  with tf.compat.v1.name_scope(None, "SafeCumprod", [x]):
    x = tf.convert_to_tensor(x, name="x")
    tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
    return tf.exp(tf.cumsum(tf.math.log(tf.clip_by_value(x, tiny, 1)), *args, **kwargs))


def monotonic_attention(p_choose_i, previous_attention, mode):
  """The expected (or hard) monotonic alignment given choosing probabilities and the last alignment.

  With q[i] = (1 - p[i-1]) q[i-1] + previous_attention[i], attention[i] = p[i] q[i]
  (Raffel et al., eq. 9-10). Modes:
    "recursive": that recursion, with a `tf.scan` over memory (exact, slower);
    "parallel": the closed form p[i] * cumprod(1 - p)[i] * cumsum(prev / cumprod(1 - p))[i] with
      an exclusive `safe_cumprod` and the divisor clipped to [1e-10, 1] (fast, can be inexact when
      the cumulative product underflows);
    "hard": for 0/1 `p_choose_i` and a one-hot `previous_attention`: one-hot at the first index at
      or after the previously attended one where p is 1 (all zeros when there is none).

  Args:
    p_choose_i: float Tensor [batch_size, memory_length], probability of stopping at each entry.
    previous_attention: float Tensor [batch_size, memory_length], the previous alignment (a
      one-hot on index 0 at the first step).
    mode: "recursive", "parallel" or "hard".

  Returns:
    A [batch_size, memory_length] Tensor: the new alignment (it may sum to less than 1: the
    remaining mass is the chance of attending to nothing).

  Raises:
    ValueError: if `mode` is not one of the three.

  References:
    Raffel, Luong, Liu, Weiss, Eck, "Online and Linear-Time Attention by Enforcing Monotonic
    Alignments", ICML 2017 (arXiv:1704.00784).
  """
  p_choose_i = tf.convert_to_tensor(p_choose_i, name="p_choose_i")
  previous_attention = tf.convert_to_tensor(previous_attention, name="previous_attention")
  if mode == "recursive":
    batch_size = tf.compat.dimension_value(p_choose_i.shape[0]) or tf.shape(p_choose_i)[0]
    # [1, 1 - p[0], ..., 1 - p[-2]]: the chance of having moved past each previous entry.
    shifted_1mp_choose_i = tf.concat(
        [tf.ones((batch_size, 1), p_choose_i.dtype), 1 - p_choose_i[:, :-1]], 1)
    q = tf.scan(lambda x, yz: tf.reshape(yz[0] * x + yz[1], (batch_size,)),
                [tf.transpose(shifted_1mp_choose_i), tf.transpose(previous_attention)],
                tf.zeros((batch_size,), p_choose_i.dtype))
    return p_choose_i * tf.transpose(q)
  if mode == "parallel":
    cumprod_1mp_choose_i = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
    return p_choose_i * cumprod_1mp_choose_i * tf.cumsum(
        previous_attention / tf.clip_by_value(cumprod_1mp_choose_i, 1e-10, 1.), axis=1)
  if mode == "hard":
    # Entries before the previously attended index cannot be chosen ...
    p_choose_i *= tf.cumsum(previous_attention, axis=1)
    # ... and the exclusive cumprod keeps only the first chosen one: [0,1,1,0,1] -> [0,1,0,0,0].
    return p_choose_i * tf.math.cumprod(1 - p_choose_i, axis=1, exclusive=True)
  raise ValueError("mode must be 'recursive', 'parallel', or 'hard'; got %r." % (mode,))
