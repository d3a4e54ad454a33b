"""tf.contrib.distributions against TF 1.15: densities, moments, entropies, CDFs and KL divergences of the served
classes (TensorFlow's own, tensorflow-probability's, and TF 1.15's softplus/abs variants) at fixed points; the
distribution utilities and sample statistics; the moving statistics' variables and updates; and bijectors'
forward / inverse / log-det-Jacobians, TF 1.15's bijectors and distributions tfp dropped (Affine*, Gumbel,
Kumaraswamy, Ordered, ScaleTriL, the Wishart and Vector*Diag classes, the conditional classes). Sampling is not compared: tfp's samplers draw other streams than TF 1.15's.

VectorDiffeomixture (VECTOR_DIFFEOMIXTURE_SNIPPET): log_prob, mean, covariance, variance, grid, shapes, errors,
and the quadrature schemes.
"""

import numpy as np
from harness import assert_same, requires_tf115, run_both

CORE = ("Bernoulli", "Beta", "Categorical", "Dirichlet", "DirichletMultinomial", "Exponential", "Gamma", "Laplace",
        "Multinomial", "Normal", "StudentT", "Uniform", "kl_divergence")
TFP = ("Binomial", "Cauchy", "Chi2", "Deterministic", "Geometric", "HalfNormal", "InverseGamma",
       "Kumaraswamy", "Logistic", "MultivariateNormalDiag", "MultivariateNormalTriL",
       "MultivariateNormalFullCovariance", "NegativeBinomial", "OneHotCategorical", "Poisson", "TransformedDistribution",
       "Independent", "MixtureSameFamily")
NEW = ("BetaWithSoftplusConcentration", "ExponentialWithSoftplusRate", "GammaWithSoftplusConcentrationRate",
       "LaplaceWithSoftplusScale", "NormalWithSoftplusScale", "StudentTWithAbsDfSoftplusScale", "Chi2WithAbsDf",
       "InverseGammaWithSoftplusConcentrationRate", "MultivariateNormalDiagWithSoftplusScale", "matrix_diag_transform",
       "fill_triangular", "fill_triangular_inverse", "tridiag", "reduce_weighted_logsumexp", "auto_correlation",
       "percentile", "quadrature_scheme_lognormal_gauss_hermite", "quadrature_scheme_lognormal_quantiles",
       "assign_moving_mean_variance", "assign_log_moving_mean_exp", "moving_mean_variance", "softplus_inverse")
BIJECTORS = ("Exp", "Softplus", "Sigmoid", "Chain", "Invert", "AbsoluteValue", "Square", "Softsign", "Affine",
             "AffineLinearOperator", "AffineScalar", "Gumbel", "Kumaraswamy", "Ordered", "ScaleTriL",
             "ConditionalBijector")
DROPPED_BY_TFP = ("WishartCholesky", "WishartFull", "VectorLaplaceDiag", "VectorExponentialDiag", "VectorSinhArcsinhDiag",
                  "ConditionalDistribution", "ConditionalTransformedDistribution",
                  "normal_conjugates_known_scale_posterior", "normal_conjugates_known_scale_predictive")
ORACLE_TESTED = tuple("tf.contrib.distributions." + n for n in CORE + TFP + NEW + DROPPED_BY_TFP) + tuple(
    "tf.contrib.distributions.bijectors." + n for n in BIJECTORS)

ORACLE_TESTED = ORACLE_TESTED + tuple("tf.contrib.distributions." + n for n in (
    "VectorDiffeomixture", "quadrature_scheme_softmaxnormal_gauss_hermite",
    "quadrature_scheme_softmaxnormal_quantiles"))

SNIPPET = r'''
import numpy as np
import tensorflow as tf
ds = tf.contrib.distributions
bj = ds.bijectors
out = {}

def stats(name, dist, points, moments=("mean", "stddev", "entropy"), cdf=True):
    with case(name):
        got = {"log_prob": dist.log_prob(points)}
        for m in moments:
            got[m] = getattr(dist, m)()
        if cdf:
            got["cdf"] = dist.cdf(points)
        report(name + ":shapes", [str(dist.batch_shape), str(dist.event_shape)])
        out[name] = got

f = np.float32
stats("bernoulli", ds.Bernoulli(probs=[0.2, 0.7]), [1, 0], cdf=False)
stats("beta", ds.Beta([1.5, 2.0], [2.0, 0.5]), [0.3, 0.6])
stats("categorical", ds.Categorical(logits=[[0.1, 1.0, -1.0]]), [2], moments=("entropy", "mode"), cdf=False)
stats("dirichlet", ds.Dirichlet([1.0, 2.0, 3.0]), [0.2, 0.3, 0.5], moments=("mean", "entropy"), cdf=False)
stats("dirichlet_multinomial", ds.DirichletMultinomial(5.0, [1.0, 2.0, 3.0]), [1.0, 2.0, 2.0], moments=("mean",),
      cdf=False)
stats("exponential", ds.Exponential([0.5, 2.0]), [1.0, 0.3])
stats("gamma", ds.Gamma([2.0, 3.0], [1.0, 0.5]), [1.0, 2.0])
stats("laplace", ds.Laplace([0.0, 1.0], [1.0, 2.0]), [0.5, -1.0])
stats("multinomial", ds.Multinomial(4.0, probs=[0.2, 0.3, 0.5]), [1.0, 1.0, 2.0], moments=("mean",), cdf=False)
stats("normal", ds.Normal([0.0, 1.0], [1.0, 0.5]), [0.3, 1.2])
stats("student_t", ds.StudentT(3.0, [0.0, 1.0], [1.0, 2.0]), [0.5, 0.0], moments=("mean", "entropy"))
stats("uniform", ds.Uniform([0.0, 1.0], [2.0, 3.0]), [0.5, 2.5])
out["kl_normal"] = ds.kl_divergence(ds.Normal(0.0, 1.0), ds.Normal(1.0, 2.0))
stats("binomial", ds.Binomial(5.0, probs=[0.3, 0.6]), [2.0, 4.0], moments=("mean", "variance"), cdf=False)
stats("cauchy", ds.Cauchy([0.0, 1.0], [1.0, 2.0]), [0.5, 3.0], moments=("entropy",))
stats("chi2", ds.Chi2([2.0, 5.0]), [1.0, 4.0])
stats("deterministic", ds.Deterministic([1.0, 2.0]), [1.0, 2.5], moments=("mean",))
stats("geometric", ds.Geometric(probs=[0.3, 0.6]), [2.0, 0.0], moments=("mean", "stddev"))
stats("half_normal", ds.HalfNormal([1.0, 2.0]), [0.5, 1.0])
stats("inverse_gamma", ds.InverseGamma([3.0, 4.0], [1.0, 2.0]), [0.5, 1.0])
stats("kumaraswamy", ds.Kumaraswamy([2.0, 3.0], [2.0, 1.5]), [0.3, 0.6], moments=("mean",))
stats("logistic", ds.Logistic([0.0, 1.0], [1.0, 0.5]), [0.5, 0.0])
stats("mvn_diag", ds.MultivariateNormalDiag([0.0, 1.0], [1.0, 2.0]), [0.5, 0.5], moments=("mean", "stddev", "entropy"),
      cdf=False)
stats("mvn_tril", ds.MultivariateNormalTriL([0.0, 1.0], [[1.0, 0.0], [0.5, 2.0]]), [0.5, 0.5],
      moments=("mean", "covariance", "entropy"), cdf=False)
stats("mvn_full", ds.MultivariateNormalFullCovariance([0.0, 1.0], [[2.0, 0.3], [0.3, 1.0]]), [0.5, 0.5],
      moments=("mean", "covariance"), cdf=False)
stats("negative_binomial", ds.NegativeBinomial(3.0, probs=[0.3, 0.6]), [2.0, 5.0], moments=("mean", "variance"),
      cdf=False)
stats("one_hot_categorical", ds.OneHotCategorical(logits=[0.1, 1.0, -1.0]), [0, 1, 0], moments=("entropy",),
      cdf=False)
stats("poisson", ds.Poisson(rate=[1.5, 4.0]), [1.0, 3.0], moments=("mean", "variance"))
stats("transformed", ds.TransformedDistribution(ds.Normal(0.0, 1.0), bj.Exp()), [0.5, 2.0], moments=())
stats("independent", ds.Independent(ds.Normal([0.0, 1.0], [1.0, 2.0]), reinterpreted_batch_ndims=1), [0.5, 0.5],
      moments=("mean", "entropy"), cdf=False)
stats("mixture_same_family", ds.MixtureSameFamily(ds.Categorical(probs=[0.3, 0.7]), ds.Normal([0.0, 2.0], [1.0, 0.5])),
      [0.5, 1.8], moments=("mean", "variance"))
# the softplus / abs variants
stats("beta_softplus", ds.BetaWithSoftplusConcentration([-1.0, 2.0], [0.5, -0.5]), [0.3, 0.6], moments=("mean",))
stats("exponential_softplus", ds.ExponentialWithSoftplusRate([-0.5, 2.0]), [1.0, 0.3])
stats("gamma_softplus", ds.GammaWithSoftplusConcentrationRate([-1.0, 3.0], [1.0, -0.5]), [1.0, 2.0])
stats("laplace_softplus", ds.LaplaceWithSoftplusScale([0.0, 1.0], [-1.0, 2.0]), [0.5, -1.0])
stats("normal_softplus", ds.NormalWithSoftplusScale([0.0, 1.0], [-1.0, 0.5]), [0.3, 1.2])
stats("student_t_abs_softplus", ds.StudentTWithAbsDfSoftplusScale([-3.5, 4.2], [0.0, 1.0], [-1.0, 2.0]), [0.5, 0.0],
      moments=("mean",))
stats("chi2_abs", ds.Chi2WithAbsDf([-2.5, 3.7]), [1.0, 2.0])
stats("inverse_gamma_softplus", ds.InverseGammaWithSoftplusConcentrationRate([3.0, -1.0], [1.0, 0.5]), [0.5, 1.0],
      moments=("mean",))
stats("mvn_diag_softplus", ds.MultivariateNormalDiagWithSoftplusScale([0.0, 1.0], [0.3, -0.2]), [0.1, 0.2],
      moments=("stddev", "entropy"), cdf=False)
report("variant_parameters", sorted(ds.Chi2WithAbsDf([2.0]).parameters))
# utilities and sample statistics
x = tf.constant(np.random.RandomState(0).randn(3, 4).astype(f))
out["matrix_diag_transform"] = ds.matrix_diag_transform(tf.constant([[1.0, 2.0], [3.0, 4.0]]), transform=tf.exp)
out["fill_triangular"] = ds.fill_triangular(tf.range(6.0))
out["fill_triangular_inverse"] = ds.fill_triangular_inverse(ds.fill_triangular(tf.range(6.0), upper=True), upper=True)
out["tridiag"] = ds.tridiag([1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0])
out["reduce_weighted_logsumexp"] = ds.reduce_weighted_logsumexp(x, w=tf.abs(x), axis=1, return_sign=True)
out["softplus_inverse"] = ds.softplus_inverse([0.5, 2.0])
out["auto_correlation"] = ds.auto_correlation(x, axis=-1, max_lags=2)
out["percentile"] = [ds.percentile(x, 30.0, axis=1), ds.percentile(x, 70.0, interpolation="lower", keep_dims=True),
                     ds.percentile(x, 50.0, interpolation="higher", axis=0)]
out["quadrature_gauss_hermite"] = ds.quadrature_scheme_lognormal_gauss_hermite(tf.constant(0.5), tf.constant(1.2), 4)
out["quadrature_quantiles"] = ds.quadrature_scheme_lognormal_quantiles(tf.constant(0.5), tf.constant(1.2), 4)
# moving statistics: the variables, and three updates
with tf.variable_scope("moving"):
    updates = ds.moving_mean_variance(tf.constant([1.0, 2.0]), 0.9)
log_var = tf.Variable([0.0, -1.0], name="log_mean_exp")
log_update = ds.assign_log_moving_mean_exp(log_var, tf.constant([1.0, 0.5]), 0.8)
report("moving_variables", sorted(v.op.name for v in tf.global_variables()))
report_errors("errors", (("int_mean", lambda: ds.assign_moving_mean_variance(
    tf.Variable([1], name="i"), tf.Variable([1], name="j"), 1, 0.5)),
                         ("int_value", lambda: ds.moving_mean_variance(tf.constant([1]), 0.5)),
                         ("int_log", lambda: ds.assign_log_moving_mean_exp(tf.Variable([1], name="k"), 1, 0.5))))
# bijectors
b_points = tf.constant([0.2, 1.5])
for name, b in (("exp", bj.Exp()), ("softplus", bj.Softplus()), ("sigmoid", bj.Sigmoid()),
                ("chain", bj.Chain([bj.Exp(), bj.Softplus()])), ("invert", bj.Invert(bj.Exp())),
                ("square", bj.Square()), ("softsign", bj.Softsign()),
                ("absolute", bj.AbsoluteValue())):
    with case("bijector_" + name):
        got = {"forward": b.forward(b_points)}
        if name != "absolute":
            got["inverse"] = b.inverse(b_points)
            got["fldj"] = b.forward_log_det_jacobian(b_points, event_ndims=0)
        out["bijector_" + name] = got
# TF 1.15's bijectors tfp dropped or renamed (tf1clip's ports)
v_points = tf.constant([[0.2, 1.5, -0.3], [1.0, -2.0, 0.5]])
tril = tf.constant([[1.0, 0.0, 0.0], [0.5, 2.0, 0.0], [-0.3, 0.2, 1.5]])
for name, b, pts, nd in (
        ("affine_scalar", bj.AffineScalar(shift=1.0, scale=-2.0), b_points, 0),
        ("affine_scalar_shift", bj.AffineScalar(shift=[1.0, 2.0]), b_points, 0),
        ("affine_multiplier", bj.Affine(shift=[1.0, 0.0, -1.0], scale_identity_multiplier=2.0), v_points, 1),
        ("affine_diag_tril", bj.Affine(shift=[1.0, 0.0, -1.0], scale_diag=[1.0, 2.0, 0.5], scale_tril=tril),
         v_points, 1),
        ("affine_perturb", bj.Affine(scale_diag=[1.0, 2.0, 0.5], scale_perturb_factor=[[0.1], [0.2], [0.3]],
                                     scale_perturb_diag=[0.5]), v_points, 1),
        ("affine_linop", bj.AffineLinearOperator(shift=[1.0, 0.0, -1.0],
                                                 scale=tf.linalg.LinearOperatorLowerTriangular(tril)), v_points, 1),
        ("gumbel", bj.Gumbel(loc=0.5, scale=2.0), b_points, 0),
        ("kumaraswamy", bj.Kumaraswamy(concentration1=2.0, concentration0=3.0), tf.constant([0.2, 0.7]), 0),
        ("ordered", bj.Ordered(), tf.constant([[0.2, 1.5, 2.0], [-1.0, 0.0, 3.0]]), 1),
        ("scale_tril", bj.ScaleTriL(), tf.constant([0.2, 1.5, -0.3, 0.7, 0.1, -1.0]), 1)):
    with case("bijector_" + name):
        y = b.forward(pts)
        out["bijector_" + name] = {"forward": y, "inverse": b.inverse(y),
                                   "fldj": b.forward_log_det_jacobian(pts, event_ndims=nd),
                                   "ildj": b.inverse_log_det_jacobian(y, event_ndims=nd + (name == "scale_tril"))}
        report("bijector_%s:properties" % name, [b.forward_min_event_ndims, b.is_constant_jacobian])
report_errors("bijector_errors", (
    ("affine_perturb_diag_only", lambda: bj.Affine(scale_perturb_diag=[1.0])),
    ("affine_linop_not_operator", lambda: bj.AffineLinearOperator(scale=tf.eye(2))),
    ("affine_linop_dtype", lambda: bj.AffineLinearOperator(
        shift=tf.constant([1.0], tf.float64), scale=tf.linalg.LinearOperatorDiag([1.0]))),
    ("kumaraswamy_none", lambda: bj.Kumaraswamy()),
    ("gumbel_dtypes", lambda: bj.Gumbel(loc=tf.constant(0.0, tf.float64), scale=tf.constant(1.0))),
    ("ordered_short", lambda: bj.Ordered().inverse_event_shape(tf.TensorShape([1])))))

class Doubling(bj.ConditionalBijector):
    def __init__(self):
        super(Doubling, self).__init__(forward_min_event_ndims=0, name="doubling")
    def _forward(self, x, factor=2.0):
        return x * factor
    def _inverse(self, y, factor=2.0):
        return y / factor
    def _inverse_log_det_jacobian(self, y, factor=2.0):
        return -tf.math.log(tf.abs(factor)) * tf.ones_like(y)
doubling = Doubling()
conditional = ds.ConditionalTransformedDistribution(ds.Normal(0.0, 1.0), doubling)
out["conditional"] = {"forward": doubling.forward(b_points, factor=3.0), "inverse": doubling.inverse(b_points),
                      "log_prob": conditional.log_prob(b_points, bijector_kwargs={"factor": 4.0})}
report("conditional_distribution", issubclass(ds.ConditionalDistribution, ds.Distribution))
# TF 1.15's distributions tfp dropped or renamed
scale_chol = [[1.0, 0.0], [0.5, 2.0]]
scale_full = [[1.0, 0.5], [0.5, 4.25]]
x_pd = tf.constant([[2.0, 0.3], [0.3, 1.5]])
for name, w in (("wishart_cholesky", ds.WishartCholesky(4.0, scale_chol)),
                ("wishart_full", ds.WishartFull(4.0, scale_full)),
                ("wishart_cholesky_io", ds.WishartCholesky(4.0, scale_chol, cholesky_input_output_matrices=True))):
    with case(name):
        point = tf.linalg.cholesky(x_pd) if name.endswith("_io") else x_pd
        out[name] = {"log_prob": w.log_prob(point), "mean": w.mean(), "mode": w.mode(), "variance": w.variance(),
                     "entropy": w.entropy(), "scale": w.scale(), "scale_operator": w.scale_operator.to_dense(),
                     "mean_log_det": w.mean_log_det(), "log_normalization": w.log_normalization(),
                     "dimension": w.dimension}
        report(name + ":properties", [str(w.batch_shape), str(w.event_shape),
                                      w.cholesky_input_output_matrices])
        if not name.endswith("_io"):
            out[name]["stddev"] = w.stddev()
vec_points = tf.constant([[0.5, -0.5, 1.0], [2.0, 1.0, 0.0]])
for name, dist, moments in (
        ("vector_laplace", ds.VectorLaplaceDiag([1.0, 0.0, -1.0], [1.0, 2.0, 0.5]),
         ("mean", "mode", "stddev", "variance", "covariance")),
        ("vector_laplace_identity", ds.VectorLaplaceDiag([1.0, 0.0, -1.0], scale_identity_multiplier=2.0),
         ("mean", "covariance")),
        ("vector_laplace_batch", ds.VectorLaplaceDiag([[1.0, 0.0, -1.0], [0.0, 0.0, 0.0]], [1.0, 2.0, 0.5]),
         ("mean", "stddev")),
        ("vector_exponential", ds.VectorExponentialDiag([-1.0, -1.0, -2.0], [1.0, 2.0, 0.5]),
         ("mean", "mode", "stddev", "covariance")),
        ("vector_sinh_arcsinh", ds.VectorSinhArcsinhDiag([1.0, 0.0, -1.0], [1.0, 2.0, 0.5], skewness=0.3,
                                                         tailweight=1.5), ())):
    with case(name):
        got = {"log_prob": dist.log_prob(vec_points)}
        for m in moments:
            got[m] = getattr(dist, m)()
        out[name] = got
        report(name + ":properties", [str(dist.batch_shape), str(dist.event_shape)])
prior = ds.Normal(loc=[0.0, 1.0], scale=[1.0, 2.0])
posterior = ds.normal_conjugates_known_scale_posterior(prior, scale=0.5, s=tf.constant([3.0, 1.0]), n=4)
predictive = ds.normal_conjugates_known_scale_predictive(prior, scale=0.5, s=tf.constant([3.0, 1.0]), n=4)
out["normal_conjugates"] = {"posterior": [posterior.loc, posterior.scale],
                            "predictive": [predictive.loc, predictive.scale]}
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    ran = sess.run(out)
    for key, value in sorted(ran.items()):
        report(key, value)
    report("moving_updates", [sess.run([updates, log_update]) for _ in range(3)])
'''


@requires_tf115
def test_contrib_distributions_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert not [k for k in tf115 if k.endswith(":error")], [k for k in tf115 if k.endswith(":error")]
  assert set(tf115["errors"].values()) == {"TypeError"}, tf115["errors"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)


VECTOR_DIFFEOMIXTURE_SNIPPET = r'''
import numpy as np
import tensorflow as tf
# -- distributions.VectorDiffeomixture --------------------------------------------------------------------------
tfd = tf.contrib.distributions
def scales(n=2):
    return [tf.linalg.LinearOperatorScaledIdentity(num_rows=3, multiplier=np.float32(1.1), is_positive_definite=True),
            tf.linalg.LinearOperatorDiag(diag=np.float32([2.5, 3., 3.5]), is_positive_definite=True)][:n]
vdm = tfd.VectorDiffeomixture(mix_loc=[[0.], [1.]], temperature=[1.], distribution=tfd.Normal(0., 1.),
                              loc=[None, np.float32([2.] * 3)], scale=scales(), quadrature_size=4, validate_args=True)
vdm2 = tfd.VectorDiffeomixture(
    mix_loc=[0.5], temperature=[0.7], distribution=tfd.Normal(0., 1.),
    loc=[np.float32([1., -1.]), np.float32([0., 2.])],
    scale=[tf.linalg.LinearOperatorLowerTriangular([[1.5, 0.], [0.3, 1.2]], is_positive_definite=True),
           tf.linalg.LinearOperatorIdentity(num_rows=2, dtype=tf.float32, is_positive_definite=True)],
    quadrature_size=3)
report("vdm_shapes", [vdm.batch_shape.as_list(), vdm.event_shape.as_list(), vdm2.batch_shape.as_list(),
                      vdm2.event_shape.as_list(), vdm.sample(5, seed=1).shape.as_list(),
                      vdm2.sample([2, 3], seed=2).shape.as_list(),
                      vdm.reparameterization_type == tfd.FULLY_REPARAMETERIZED])
report_errors("vdm_errors", [
    ("one_scale", lambda: tfd.VectorDiffeomixture([0.], [1.], tfd.Normal(0., 1.), scale=scales(1))),
    ("three_scales", lambda: tfd.VectorDiffeomixture([0.], [1.], tfd.Normal(0., 1.), scale=scales() + scales(1))),
    ("two_temperatures", lambda: tfd.VectorDiffeomixture([0.], [1., 2.], tfd.Normal(0., 1.), scale=scales())),
    ("dtype", lambda: tfd.VectorDiffeomixture([0.], [1.], tfd.Normal(np.float64(0.), np.float64(1.)),
                                              scale=scales()))])
with case("gauss_hermite"):
    # TF 1.15's raised AttributeError on every call (it read `dt.dtype` of a DType); ours computes the grid
    gauss_hermite = tfd.quadrature_scheme_softmaxnormal_gauss_hermite(
        np.float32([[0.2], [-0.5]]), np.float32([[1.3], [0.4]]), 4)
    with tf.Session() as sess:
        report("gauss_hermite", sess.run(gauss_hermite))
vdm_values = {"lp": vdm.log_prob(np.float32([[[0.5, 1., -0.3]], [[2., 0.1, 1.]]])), "mean": vdm.mean(),
              "cov": vdm.covariance(), "var": vdm.variance(), "std": vdm.stddev(), "grid": vdm.grid,
              "lp2": vdm2.log_prob([[0.1, 0.2], [1., -1.]]), "mean2": vdm2.mean(), "cov2": vdm2.covariance(),
              "var2": vdm2.variance(), "quantiles": tfd.quadrature_scheme_softmaxnormal_quantiles(
                  [[0.2], [-0.5]], [[1.3], [0.4]], 4)}
with tf.Session() as sess:
    report("vdm", sess.run(vdm_values))
'''


@requires_tf115
def test_vector_diffeomixture_matches_tf115():
  tf115, ours = run_both(VECTOR_DIFFEOMIXTURE_SNIPPET)
  assert tf115["gauss_hermite:error"] == "AttributeError"
  grid, probs = np.polynomial.hermite.hermgauss(4)  # what TF 1.15's code meant to compute
  shifted = np.float32([[0.2], [-0.5]])[..., None] + np.sqrt(2.) * np.float32([[1.3], [0.4]])[..., None] * grid
  logits = -np.concatenate([np.zeros_like(shifted), shifted], axis=-2)
  np.testing.assert_allclose(ours["gauss_hermite"][0], np.exp(logits) / np.exp(logits).sum(-2, keepdims=True),
                             rtol=1e-5)
  np.testing.assert_allclose(ours["gauss_hermite"][1], probs / probs.sum(), rtol=1e-6)
  assert_same(tf115, ours, differences={
      "gauss_hermite": "TF 1.15's quadrature_scheme_softmaxnormal_gauss_hermite raised AttributeError on every call "
                       "(its `dt.dtype` of a DType); tf1clip's computes the Gauss-Hermite grid and probabilities",
      "gauss_hermite:error": "the same bug: only TF 1.15 raises"})
