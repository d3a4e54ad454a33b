"""`tf.contrib.distributions`: probability distributions, on tensorflow-probability.

Place in the data flow (DESIGN.md): **contrib.distributions** <- compat <- cli. TF 1.15's module re-exported
`tf.distributions`' classes (`Normal`, `Bernoulli`, `Categorical`, ..., `kl_divergence`) beside contrib's own
(`MultivariateNormalDiag`, `RelaxedOneHotCategorical`, `Mixture`, ...), which continued in
tensorflow-probability. All are tfp 0.25's classes here (the core ones too: TensorFlow 2.21's tf.compat.v1
classes do not mix with tfp's TransformedDistribution / Mixture), working in graph mode with TF 1.15's
densities and moments. TF 1.15's code where tfp changed or dropped a name: `moving_stats`, `sample_stats`
(percentile), `transformed_parameters` (the *WithSoftplus* / *WithAbsDf* classes). `bijectors` is
tf1clip.contrib.distributions.bijectors. The table is `catalog.SERVED`.
"""

from tf1clip.contrib import catalog as _catalog

__getattr__ = _catalog.missing_attribute_hook("tf.contrib.distributions",
                                              lazy=_catalog.served("tf.contrib.distributions"))
