"""`tf.contrib.distributions`: probability distributions, from tf.compat.v1 and tensorflow-probability.

Place in the data flow (DESIGN.md): **contrib.distributions** <- compat <- cli. TF 1.15's module
re-exported `tf.distributions`' classes (`Normal`, `Bernoulli`, `Categorical`, ..., `kl_divergence`),
which TensorFlow 2.21 still serves as `tf.compat.v1.distributions`: those are the same objects here.
Its other classes (`MultivariateNormalDiag`, `RelaxedOneHotCategorical`, `Mixture`, ...) continued in
tensorflow-probability; they are tfp 0.25's (whose behaviour may have moved on since TF 1.15; its
classes work in graph mode). `bijectors` is tf1clip.contrib.distributions.bijectors. The table is
`catalog.SERVED`.
"""

from tf1clip.contrib import catalog

__getattr__ = catalog.missing_attribute_hook("tf.contrib.distributions",
                                             lazy=catalog.served("tf.contrib.distributions"))
