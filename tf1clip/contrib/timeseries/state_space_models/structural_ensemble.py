"""Structural time series models: level and trend, a VARMA transient and periodic components, summed.

Place in the data flow (DESIGN.md): contrib.timeseries.state_space_models.{state_space_model, level_trend, periodic,
varma} <- **contrib.timeseries.state_space_models.structural_ensemble** <- StructuralEnsembleRegressor
(contrib.timeseries.estimators).

After Scott and Varian's Bayesian structural time series (point estimates, no spike-and-slab prior):

    value[t] = level[t] + sum of the cycles[t] + transient[t] + noise[t]
    level[t] = level[t-1] + trend[t-1] + noise,  trend[t] = trend[t-1] + noise

`StructuralEnsemble` cycles through `periodicity` seasonal values (a full cycle sums to zero in expectation);
`MultiResolutionStructuralEnsemble` (StructuralEnsembleRegressor's model) cycles a fixed number of latent values
over any, even fractional, period. What is special: with several features every component is replicated once per
feature inside a `StateSpaceCorrelatedFeaturesEnsemble`, which learns the correlations of their transition noise, so
the state grows with num_features * (components' sizes) and some operations are cubic in it. The variable scopes
(`adder/feature0`, `varma`, `cycle0/feature0`, ...) are TF 1.15's, and so the checkpoint keys.

References:
  Scott, S. L. and Varian, H. R. (2014). Predicting the present with Bayesian structural time series.
  International Journal of Mathematical Modelling and Numerical Optimisation 5(1-2), 4-23.
"""

import tensorflow as tf

from tf1clip.contrib.timeseries.state_space_models import level_trend
from tf1clip.contrib.timeseries.state_space_models import periodic
from tf1clip.contrib.timeseries.state_space_models import state_space_model
from tf1clip.contrib.timeseries.state_space_models import varma

tf1 = tf.compat.v1


def _one_per_feature(scope, num_features, make_member, configuration):
  """Under `scope`: `make_member()` once per feature (in scope featureN), joined with correlated noise."""
  with tf1.variable_scope(scope):
    members = []
    for feature in range(num_features):
      with tf1.variable_scope("feature{}".format(feature)):
        members.append(make_member())
    return state_space_model.StateSpaceCorrelatedFeaturesEnsemble(ensemble_members=members,
                                                                   configuration=configuration)


def _components(configuration, autoregressive_order, moving_average_order, cycle_makers):
  """The members of a structural ensemble: level/trend, VARMA, then one component per `cycle_makers` entry (a
  function of the univariate configuration returning one feature's cycle model)."""
  # The components leave observation noise to the ensemble; each feature's copy is univariate.
  components_config = configuration._replace(use_observation_noise=False)
  feature_config = components_config._replace(num_features=1)
  num_features = configuration.num_features
  parts = [_one_per_feature("adder", num_features,
                            lambda: level_trend.AdderStateSpaceModel(configuration=feature_config),
                            components_config)]
  with tf1.variable_scope("varma"):
    parts.append(varma.VARMA(autoregressive_order=autoregressive_order, moving_average_order=moving_average_order,
                             configuration=components_config))
  for number, make_cycle in enumerate(cycle_makers):
    parts.append(_one_per_feature("cycle{}".format(number), num_features,
                                  lambda make_cycle=make_cycle: make_cycle(feature_config), components_config))
  return parts


class StructuralEnsemble(state_space_model.StateSpaceIndependentEnsemble):
  """Level, trend, a VARMA transient and one seasonal cycle per periodicity (see the module docstring).

  A seasonal component with period p has p - 1 state values; a multivariate series gets every component once per
  feature, their noise correlated, so the state dimension is num_features * (sum(periodicities) +
  moving_average_order + 3) or so.
  """

  def __init__(self, periodicities, moving_average_order, autoregressive_order, use_level_noise=True,
               configuration=state_space_model.StateSpaceModelConfiguration()):
    """Builds the ensemble.

    Args:
      periodicities: the period (in steps) of the seasonal component, or a list of them (one component each).
      moving_average_order: the number of moving average coefficients, the number of steps after which a transient
        deviation is gone.
      autoregressive_order: the number of autoregressive coefficients.
      use_level_noise: accepted and unused, as in TF 1.15.
      configuration: a StateSpaceModelConfiguration.
    """
    def seasonal(period):
      return lambda feature_config: periodic.CycleStateSpaceModel(periodicity=period, configuration=feature_config)

    members = _components(configuration, autoregressive_order, moving_average_order,
                          [seasonal(period) for period in tf.nest.flatten(periodicities)])
    super(StructuralEnsemble, self).__init__(ensemble_members=members, configuration=configuration)


class MultiResolutionStructuralEnsemble(state_space_model.StateSpaceIndependentEnsemble):
  """Like StructuralEnsemble, with cycles of a fixed size over any period (periodic.ResolutionCycleModel).

  `cycle_num_latent_values` sets the size, `periodicities` the time a cycle takes; with the two equal this is
  StructuralEnsemble. Long periods with few latent values model smooth seasonality only. The state dimension is
  num_features * (sum(cycle_num_latent_values) + max(moving_average_order + 1, autoregressive_order) + 2).
  """

  def __init__(self, cycle_num_latent_values, moving_average_order, autoregressive_order, periodicities,
               use_level_noise=True, configuration=state_space_model.StateSpaceModelConfiguration()):
    """Builds the ensemble.

    Args:
      cycle_num_latent_values: the number of latent values each cycle moves through: one for all cycles, or a list
        paired with `periodicities`.
      moving_average_order: the number of moving average coefficients (adds to the state).
      autoregressive_order: the number of autoregressive coefficients (they need more, smaller training steps).
      periodicities: the period of each cycle in steps (floats and Tensors too); a value or a list; None for none.
      use_level_noise: accepted and unused, as in TF 1.15.
      configuration: a StateSpaceModelConfiguration.
    Raises:
      ValueError: `cycle_num_latent_values` is a list whose length is not that of `periodicities`.
    """
    periods = tf.nest.flatten([] if periodicities is None else periodicities)
    sizes = tf.nest.flatten(cycle_num_latent_values)
    if len(sizes) != len(periods):
      if len(sizes) != 1:
        raise ValueError(
            "`cycle_num_latent_values` must either be a list with the same size as `periodicity` or a scalar. "
            "Received length {} `cycle_num_latent_values`, while `periodicities` has length {}.".format(
                len(sizes), len(periods)))
      sizes = sizes * len(periods)

    def resolution_cycle(period, size):
      return lambda feature_config: periodic.ResolutionCycleModel(
          num_latent_values=size, periodicity=period, configuration=feature_config)

    members = _components(configuration, autoregressive_order, moving_average_order,
                          [resolution_cycle(period, size) for period, size in zip(periods, sizes)])
    super(MultiResolutionStructuralEnsemble, self).__init__(ensemble_members=members, configuration=configuration)
