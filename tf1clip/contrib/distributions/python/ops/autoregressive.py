"""`tf.contrib.distributions.Autoregressive`: tensorflow-probability's class with TF 1.15's static shapes.

TF 1.15 built `distribution0` (`distribution_fn(sample0)`) once, in the constructor, and read its batch and event
shapes from it; tfp reports both as unknown statically (its `distribution_fn` may read variables). Here the first
distribution tfp's constructor builds is kept and answers `batch_shape` / `event_shape`, as in TF 1.15.
"""

import tensorflow_probability as tfp


class Autoregressive(tfp.distributions.Autoregressive):
  """tfp's Autoregressive; `batch_shape` / `event_shape` are `distribution_fn(sample0)`'s static shapes."""

  def __init__(self, distribution_fn, sample0=None, num_steps=None, validate_args=False, allow_nan_stats=True,
               name="Autoregressive"):
    built = []

    def first_distribution(*args):
      distribution = distribution_fn(*args)
      if not built:
        built.append(distribution)
      return distribution

    super().__init__(first_distribution, sample0=sample0, num_steps=num_steps, validate_args=validate_args,
                     allow_nan_stats=allow_nan_stats, name=name)
    self._distribution_fn = distribution_fn
    self._distribution0_tf115 = built[0]

  def _batch_shape(self):
    return self._distribution0_tf115.batch_shape

  def _event_shape(self):
    return self._distribution0_tf115.event_shape
