"""`tf.contrib.distributions`: probability distributions, on tensorflow-probability.

TF 1.15's module re-exported `tf.distributions`' classes (`Normal`, `Bernoulli`, `Categorical`, ...,
`kl_divergence`) beside contrib's own (`MultivariateNormalDiag`, `RelaxedOneHotCategorical`, `Mixture`, ...), which
continued in tensorflow-probability. All are tfp 0.25's classes here (the core ones too: TensorFlow 2.21's
tf.compat.v1 classes do not mix with tfp's TransformedDistribution / Mixture), working in graph mode with TF 1.15's
densities and moments. TF 1.15's code where tfp changed or dropped a name: `moving_stats`, `sample_stats`
(percentile), `_transformed_parameters` (the *WithSoftplus* / *WithAbsDf* classes). `bijectors` is
tf1clip.contrib.distributions.python.ops.bijectors.
"""

from tf1clip.contrib import catalog as _catalog

# Served as the very objects of the libraries TF 1.15's names moved to (their origin is in catalog.tsv):
from tensorflow.python.ops.distributions.util import (
    fill_triangular_inverse, matrix_diag_transform, reduce_weighted_logsumexp, tridiag)
from tensorflow_probability import distributions as _distributions, math as _math, stats as _stats, util as _util
from tf1clip.contrib.distributions.python.ops import bijectors
from tf1clip.contrib.distributions.python.ops.autoregressive import Autoregressive
from tf1clip.contrib.distributions.python.ops.conditional_distribution import (
    ConditionalDistribution, ConditionalTransformedDistribution)
from tf1clip.contrib.distributions.python.ops.estimator import estimator_head_distribution_regression
from tf1clip.python.ops.distributions.kullback_leibler import kl_divergence
from tf1clip.contrib.distributions.python.ops.moving_stats import (
    assign_log_moving_mean_exp, assign_moving_mean_variance, moving_mean_variance)
from tf1clip.contrib.distributions.python.ops.sample_stats import percentile
from tf1clip.contrib.distributions.python.ops._transformed_parameters import (
    BetaWithSoftplusConcentration, Chi2WithAbsDf, ExponentialWithSoftplusRate, GammaWithSoftplusConcentrationRate,
    InverseGammaWithSoftplusConcentrationRate, LaplaceWithSoftplusScale, MultivariateNormalDiagWithSoftplusScale,
    NormalWithSoftplusScale, StudentTWithAbsDfSoftplusScale)
from tf1clip.contrib.distributions.python.ops.vector_diffeomixture import (
    quadrature_scheme_softmaxnormal_gauss_hermite, quadrature_scheme_softmaxnormal_quantiles, VectorDiffeomixture)
from tf1clip.contrib.distributions.python.ops.vector_laplace_diag import (
    VectorExponentialDiag, VectorLaplaceDiag, VectorSinhArcsinhDiag)
from tf1clip.contrib.distributions.python.ops.wishart import WishartCholesky, WishartFull
BatchReshape = _distributions.BatchReshape
Bernoulli = _distributions.Bernoulli
Beta = _distributions.Beta
Binomial = _distributions.Binomial
Categorical = _distributions.Categorical
Cauchy = _distributions.Cauchy
Chi2 = _distributions.Chi2
Deterministic = _distributions.Deterministic
Dirichlet = _distributions.Dirichlet
DirichletMultinomial = _distributions.DirichletMultinomial
Distribution = _distributions.Distribution
ExpRelaxedOneHotCategorical = _distributions.ExpRelaxedOneHotCategorical
Exponential = _distributions.Exponential
FULLY_REPARAMETERIZED = _distributions.FULLY_REPARAMETERIZED
Gamma = _distributions.Gamma
Geometric = _distributions.Geometric
Gumbel = _distributions.Gumbel
HalfNormal = _distributions.HalfNormal
Independent = _distributions.Independent
InverseGamma = _distributions.InverseGamma
Kumaraswamy = _distributions.Kumaraswamy
Laplace = _distributions.Laplace
Logistic = _distributions.Logistic
Mixture = _distributions.Mixture
MixtureSameFamily = _distributions.MixtureSameFamily
Multinomial = _distributions.Multinomial
MultivariateNormalDiag = _distributions.MultivariateNormalDiag
MultivariateNormalDiagPlusLowRank = _distributions.MultivariateNormalDiagPlusLowRank
MultivariateNormalFullCovariance = _distributions.MultivariateNormalFullCovariance
MultivariateNormalLinearOperator = _distributions.MultivariateNormalLinearOperator
MultivariateNormalTriL = _distributions.MultivariateNormalTriL
NOT_REPARAMETERIZED = _distributions.NOT_REPARAMETERIZED
NegativeBinomial = _distributions.NegativeBinomial
Normal = _distributions.Normal
OneHotCategorical = _distributions.OneHotCategorical
Poisson = _distributions.Poisson
PoissonLogNormalQuadratureCompound = _distributions.PoissonLogNormalQuadratureCompound
QuantizedDistribution = _distributions.QuantizedDistribution
RegisterKL = _distributions.RegisterKL
RelaxedBernoulli = _distributions.RelaxedBernoulli
RelaxedOneHotCategorical = _distributions.RelaxedOneHotCategorical
ReparameterizationType = _distributions.ReparameterizationType
SeedStream = _util.SeedStream
SinhArcsinh = _distributions.SinhArcsinh
StudentT = _distributions.StudentT
TransformedDistribution = _distributions.TransformedDistribution
Uniform = _distributions.Uniform
VectorDeterministic = _distributions.VectorDeterministic
auto_correlation = _stats.auto_correlation
fill_triangular = _math.fill_triangular
normal_conjugates_known_scale_posterior = _distributions.normal_conjugates_known_scale_posterior
normal_conjugates_known_scale_predictive = _distributions.normal_conjugates_known_scale_predictive
quadrature_scheme_lognormal_gauss_hermite = _distributions.quadrature_scheme_lognormal_gauss_hermite
quadrature_scheme_lognormal_quantiles = _distributions.quadrature_scheme_lognormal_quantiles
softplus_inverse = _math.softplus_inverse

# The declaration (catalog.tsv): what replaced the module in TF 2.
SUCCESSOR = "tensorflow-probability 0.25's tfp.distributions"

__getattr__ = _catalog.module_getattr(__name__)
