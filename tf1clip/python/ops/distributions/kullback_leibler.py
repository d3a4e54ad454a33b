"""`kl_divergence`, one function for `tf.distributions` and `tf.contrib.distributions`, as in TF 1.15.

TF 1.15 served `tf.distributions`' classes as contrib's, with one KL registry. tf1clip serves `tf.distributions`
as TensorFlow 2.21's own classes (TF 1.15's code, so a seeded `Gamma` or `Bernoulli` draws TF 1.15's samples)
and contrib.distributions from tensorflow-probability (its composites work only with tfp's classes), so each
family has its own registry. This function, served under both names, takes either family:

- two of TensorFlow's distributions: TensorFlow's registry (what `tf.distributions.kl_divergence` did);
- any tfp distribution: tfp's registry, with one of TensorFlow's distributions rebuilt as its tfp twin (the
  class of the same name with the same parameters: TF 1.15's shared classes, Normal to Uniform), so a VAE's
  `tf.distributions.kl_divergence(q, p)` of contrib's `MultivariateNormalDiag`s works as it did.
"""

import tensorflow as tf

_CORE = tf.compat.v1.distributions


def kl_divergence(distribution_a, distribution_b, allow_nan_stats=True, name=None):
  """KL(distribution_a || distribution_b), TF 1.15's signature; either may be a tf.distributions or tfp object.

  Args:
    distribution_a: the first distribution.
    distribution_b: the second distribution.
    allow_nan_stats: as TF 1.15: when False, a NaN in the result raises at run time.
    name: the name scope of the ops (default "KullbackLeibler").

  Returns:
    A batch of KL divergences.

  Raises:
    NotImplementedError: no KL is registered for the two classes (TF 1.15's error).
  """
  a_core, b_core = _is_core(distribution_a), _is_core(distribution_b)
  if a_core and b_core:
    return _CORE.kl_divergence(distribution_a, distribution_b, allow_nan_stats=allow_nan_stats, name=name)
  import tensorflow_probability as tfp  # pylint: disable=import-outside-toplevel  (only for a tfp argument)
  if a_core:
    distribution_a = _as_tfp(tfp, distribution_a, distribution_a, distribution_b)
  if b_core:
    distribution_b = _as_tfp(tfp, distribution_b, distribution_a, distribution_b)
  return tfp.distributions.kl_divergence(distribution_a, distribution_b, allow_nan_stats=allow_nan_stats,
                                         name=name)


def _is_core(distribution):
  return isinstance(distribution, _CORE.Distribution)


def _as_tfp(tfp, distribution, distribution_a, distribution_b):
  """`distribution` (one of TensorFlow's classes) as the tfp class of the same name, with its parameters."""
  cls = type(distribution)
  twin = getattr(tfp.distributions, cls.__name__, None)
  if twin is None or getattr(_CORE, cls.__name__, None) is not cls:
    raise NotImplementedError(
        "No KL(distribution_a || distribution_b) registered for distribution_a type %s and distribution_b "
        "type %s" % (type(distribution_a).__name__, type(distribution_b).__name__))
  return twin(**distribution.parameters)
