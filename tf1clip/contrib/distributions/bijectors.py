"""`tf.contrib.distributions.bijectors`: tensorflow-probability 0.25's bijectors of the same names.

Place in the data flow (DESIGN.md): **contrib.distributions** <- compat <- cli. TF 1.15's bijectors
continued in `tfp.bijectors`; the names that still exist there are served as tfp's objects
(`catalog.SERVED`). `Affine`, `AffineScalar` and the others tfp removed fail with their replacement.
"""

from tf1clip.contrib import catalog

__getattr__ = catalog.missing_attribute_hook(
    "tf.contrib.distributions.bijectors", lazy=catalog.served("tf.contrib.distributions.bijectors"))
