"""`tf.contrib.distributions.percentile`: TF 1.15's signature on tensorflow-probability's tfp.stats.percentile.

tfp.stats.percentile is TF 1.15's function continued; it renamed `keep_dims` to `keepdims` and added
`preserve_gradients` (a gradient through linear interpolation that TF 1.15 did not have: off here).
`auto_correlation` kept its signature and is served as tfp's own.
"""

import tensorflow_probability as tfp


def percentile(x, q, axis=None, interpolation=None, keep_dims=False, validate_args=False, name=None):
  """The q-th percentile(s) of x along `axis` ('nearest' interpolation by default; 'lower', 'higher', ...)."""
  return tfp.stats.percentile(x, q, axis=axis, interpolation=interpolation, keepdims=keep_dims,
                              validate_args=validate_args, preserve_gradients=False, name=name)
