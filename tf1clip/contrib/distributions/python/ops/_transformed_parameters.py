"""TF 1.15's distributions whose parameters pass through softplus / floor(abs), on tensorflow-probability's classes.

tfp dropped these convenience subclasses (TF 1.15 itself deprecated them: "use tfd.Normal(loc,
tf.nn.softplus(scale))"). Each is made here the way TF 1.15 wrote them, as a subclass of tfp's class (so it mixes
with tfp's TransformedDistribution, Mixture, ...): its constructor has TF 1.15's parameters and passes the
listed ones through their transform (TF 1.15's InverseGamma `rate` is tfp's `scale`, the same parameter);
`parameters` records the arguments as given. One mechanism (`_variant`) makes all nine.
"""

import inspect

import tensorflow as tf
import tensorflow_probability as tfp

_D = tfp.distributions
_P = inspect.Parameter


def _softplus(value):
  return tf.nn.softplus(value)


def _floor_abs(value):
  return tf.floor(tf.abs(value))


def _variant(class_name, base, params, transforms, event_ndims=None):
  """A subclass of tfp's `base` whose constructor takes `params` (TF 1.15's order) and transforms some of them.

  Args:
    class_name: TF 1.15's class name (also its default `name`).
    base: the tfp distribution class.
    params: the constructor's parameters, before validate_args / allow_nan_stats / name.
    transforms: {param: (function, the base class's keyword)}; other params are passed as they are.
    event_ndims: {param: event rank} for the parameters of a multivariate base.
  """
  event_ndims = event_ndims or {}
  signature = inspect.Signature(
      [_P("self", _P.POSITIONAL_OR_KEYWORD)] + [_P(p, _P.POSITIONAL_OR_KEYWORD) for p in params]
      + [_P("validate_args", _P.POSITIONAL_OR_KEYWORD, default=False),
         _P("allow_nan_stats", _P.POSITIONAL_OR_KEYWORD, default=True),
         _P("name", _P.POSITIONAL_OR_KEYWORD, default=class_name)])

  def __init__(self, *args, **kwargs):  # pylint: disable=invalid-name
    bound = signature.bind(self, *args, **kwargs)
    bound.apply_defaults()
    given = dict(bound.arguments)
    del given["self"]
    with tf.name_scope(given["name"]) as scope:
      arguments = {}
      for p in params:
        function, keyword = transforms.get(p, (None, p))
        arguments[keyword] = function(given[p]) if function else given[p]
      base.__init__(self, validate_args=given["validate_args"], allow_nan_stats=given["allow_nan_stats"],
                    name=scope, **arguments)
    self._parameters = given  # pylint: disable=protected-access

  __init__.__signature__ = signature

  def _parameter_properties(cls, dtype, num_classes=None):  # pylint: disable=unused-argument
    return {p: tfp.util.ParameterProperties(event_ndims=event_ndims.get(p, 0)) for p in params}

  doc = "TF 1.15's %s: tfp's %s with %s." % (class_name, base.__name__, ", ".join(
      "%s through %s" % (p, function.__name__.strip("_")) for p, (function, _) in transforms.items()))
  return type(class_name, (base,), {"__init__": __init__, "_parameter_properties": classmethod(_parameter_properties),
                                    "__doc__": doc, "__module__": __name__})


BetaWithSoftplusConcentration = _variant(
    "BetaWithSoftplusConcentration", _D.Beta, ("concentration1", "concentration0"),
    {"concentration1": (_softplus, "concentration1"), "concentration0": (_softplus, "concentration0")})
ExponentialWithSoftplusRate = _variant(
    "ExponentialWithSoftplusRate", _D.Exponential, ("rate",), {"rate": (_softplus, "rate")})
GammaWithSoftplusConcentrationRate = _variant(
    "GammaWithSoftplusConcentrationRate", _D.Gamma, ("concentration", "rate"),
    {"concentration": (_softplus, "concentration"), "rate": (_softplus, "rate")})
LaplaceWithSoftplusScale = _variant(
    "LaplaceWithSoftplusScale", _D.Laplace, ("loc", "scale"), {"scale": (_softplus, "scale")})
NormalWithSoftplusScale = _variant(
    "NormalWithSoftplusScale", _D.Normal, ("loc", "scale"), {"scale": (_softplus, "scale")})
StudentTWithAbsDfSoftplusScale = _variant(
    "StudentTWithAbsDfSoftplusScale", _D.StudentT, ("df", "loc", "scale"),
    {"df": (_floor_abs, "df"), "scale": (_softplus, "scale")})
Chi2WithAbsDf = _variant("Chi2WithAbsDf", _D.Chi2, ("df",), {"df": (_floor_abs, "df")})
InverseGammaWithSoftplusConcentrationRate = _variant(
    "InverseGammaWithSoftplusConcentrationRate", _D.InverseGamma, ("concentration", "rate"),
    {"concentration": (_softplus, "concentration"), "rate": (_softplus, "scale")})
MultivariateNormalDiagWithSoftplusScale = _variant(
    "MultivariateNormalDiagWithSoftplusScale", _D.MultivariateNormalDiag, ("loc", "scale_diag"),
    {"scale_diag": (_softplus, "scale_diag")}, event_ndims={"loc": 1, "scale_diag": 1})
