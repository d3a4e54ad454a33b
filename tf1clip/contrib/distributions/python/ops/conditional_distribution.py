"""TF 1.15's `ConditionalDistribution` and `ConditionalTransformedDistribution` on tensorflow-probability.

TF 1.15's conditional classes only added `**condition_kwargs` to the public methods; tfp's methods forward those
keywords themselves (TransformedDistribution takes TF 1.15's `bijector_kwargs` / `distribution_kwargs`), so these
are tfp's classes under TF 1.15's constructors. A `batch_shape` / `event_shape` override, which tfp removed, is a
clear NotImplementedError (wrap the distribution in tfp.distributions.Sample / BatchBroadcast instead).
"""

import tensorflow_probability as tfp


class ConditionalDistribution(tfp.distributions.Distribution):
  """A Distribution whose methods forward `**condition_kwargs` to the subclass's `_log_prob`, `_sample_n`, ...."""

  def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats, parameters=None,
               graph_parents=None, name=None):
    super().__init__(dtype=dtype, reparameterization_type=reparameterization_type, validate_args=validate_args,
                     allow_nan_stats=allow_nan_stats, parameters=parameters, graph_parents=graph_parents,
                     name=name)


class ConditionalTransformedDistribution(tfp.distributions.TransformedDistribution):
  """A TransformedDistribution whose methods take `bijector_kwargs` and `distribution_kwargs`."""

  def __init__(self, distribution, bijector=None, batch_shape=None, event_shape=None, validate_args=False,
               name=None):
    if batch_shape is not None or event_shape is not None:
      raise NotImplementedError(
          "ConditionalTransformedDistribution(batch_shape=, event_shape=): tensorflow-probability removed the "
          "shape overrides; wrap `distribution` in tfp.distributions.Sample / BatchBroadcast instead")
    super().__init__(distribution=distribution, bijector=bijector or tfp.bijectors.Identity(),
                     validate_args=validate_args, name=name)
