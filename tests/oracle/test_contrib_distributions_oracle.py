"""tf.contrib.distributions against TF 1.15: densities, moments, entropies, CDFs and KL divergences of the served
classes (TensorFlow's own, tensorflow-probability's, and TF 1.15's softplus/abs variants) at fixed points; the
distribution utilities and sample statistics; the moving statistics' variables and updates; and bijectors'
forward / inverse / log-det-Jacobians. Sampling is not compared: tfp's samplers draw other streams than TF 1.15's.
"""

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
BIJECTORS = ("Exp", "Softplus", "Sigmoid", "Chain", "Invert", "AbsoluteValue", "Square", "Softsign")
ORACLE_TESTED = tuple("tf.contrib.distributions." + n for n in CORE + TFP + NEW) + tuple(
    "tf.contrib.distributions.bijectors." + n for n in BIJECTORS)

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
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for key, value in sorted(out.items()):
        report(key, sess.run(value))
    report("moving_updates", [sess.run([updates, log_update]) for _ in range(3)])
'''


@requires_tf115
def test_contrib_distributions_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert not [k for k in tf115 if k.endswith(":error")], [k for k in tf115 if k.endswith(":error")]
  assert set(tf115["errors"].values()) == {"TypeError"}, tf115["errors"]
  assert_same(tf115, ours, rtol=1e-5, atol=1e-5)
