"""`tf.contrib.bayesflow.monte_carlo`: Monte Carlo expectations and importance sampling, TF 1.15's code.

Mirrors TF 1.15's `tensorflow/contrib/bayesflow/python/ops/monte_carlo_impl.py`.

`expectation(f, samples, log_prob=None, use_reparametrization=True, axis=0, keep_dims=False)` is the sample mean
of f(samples); with `use_reparametrization=False` its gradient is the score-function (REINFORCE) one, as in TF
1.15 (tfp.monte_carlo.expectation continued it with the keyword spelled `use_reparameterization`; TF 1.15's
spelling and keywords are served here). `expectation_importance_sampler(f, log_p, sampling_dist_q, z=None,
n=None, seed=None)` estimates E_p[f(Z)] from samples of q, in log space with max-subtraction, and
`expectation_importance_sampler_logspace(log_f, ...)` gives Log E_p[exp(log_f(Z))]; `sampling_dist_q` is any
distribution with `sample(n, seed=)` and `log_prob` (tf.contrib.distributions / tfp.distributions).
"""

import tensorflow as tf

_v1 = tf.compat.v1

def expectation_importance_sampler(f, log_p, sampling_dist_q, z=None, n=None, seed=None,
                                   name="expectation_importance_sampler"):
  """Monte Carlo estimate of E_p[f(Z)] = E_q[f(Z) p(Z) / q(Z)], with p(z) = exp(log_p(z)).

  Args:
    f: callable mapping samples of `sampling_dist_q` to Tensors broadcastable to q's batch shape.
    log_p: callable mapping samples of `sampling_dist_q` to log p (like `q.log_prob`).
    sampling_dist_q: the sampling distribution (has `sample` and `log_prob`).
    z: Tensor of samples of q; or
    n: the number of samples to draw from q (exactly one of `z` and `n`).
    seed: Python integer seed for the draw.
    name: name scope.

  Returns:
    The importance sampling estimate, of q's batch shape and dtype.
  """
  q = sampling_dist_q
  with _v1.name_scope(name, values=[z, n]):
    z = _get_samples(q, z, n, seed)

    log_p_z = log_p(z)
    q_log_prob_z = q.log_prob(z)

    def _importance_sampler_positive_f(log_f_z):
      # Same as expectation_importance_sampler_logspace, on Tensors (so one sample serves both halves).
      log_values = log_f_z + log_p_z - q_log_prob_z
      return _logspace_mean(log_values)

    # E_p[f] = E_p[max(0, f) + 1] - E_p[max(0, -f) + 1]: the 1s keep zeros out of log space without bias.
    f_z = f(z)
    log_f_plus_z = tf.math.log(tf.nn.relu(f_z) + 1.)
    log_f_minus_z = tf.math.log(tf.nn.relu(-1. * f_z) + 1.)

    log_f_plus_integral = _importance_sampler_positive_f(log_f_plus_z)
    log_f_minus_integral = _importance_sampler_positive_f(log_f_minus_z)

  return tf.exp(log_f_plus_integral) - tf.exp(log_f_minus_integral)

def expectation_importance_sampler_logspace(log_f, log_p, sampling_dist_q, z=None, n=None, seed=None,
                                            name="expectation_importance_sampler_logspace"):
  """Log E_p[f(Z)] = Log E_q[f(Z) p(Z) / q(Z)] for a positive f = exp(log_f), computed in log space.

  Args:
    log_f: callable mapping samples of `sampling_dist_q` to log f.
    log_p: callable mapping samples of `sampling_dist_q` to log p (like `q.log_prob`).
    sampling_dist_q: the sampling distribution (has `sample` and `log_prob`).
    z: Tensor of samples of q; or
    n: the number of samples to draw from q (exactly one of `z` and `n`).
    seed: Python integer seed for the draw.
    name: name scope.

  Returns:
    The logarithm of the importance sampling estimate, of q's batch shape and dtype.
  """
  q = sampling_dist_q
  with _v1.name_scope(name, values=[z, n]):
    z = _get_samples(q, z, n, seed)
    log_values = log_f(z) + log_p(z) - q.log_prob(z)
    return _logspace_mean(log_values)

def _logspace_mean(log_values):
  """Log of the mean over dim 0 of exp(log_values), centered on the (gradient-stopped) max."""
  center = tf.stop_gradient(_sample_max(log_values))
  centered_values = tf.exp(log_values - center)
  log_mean_of_values = tf.math.log(_sample_mean(centered_values)) + center
  return log_mean_of_values

def expectation(f, samples, log_prob=None, use_reparametrization=True, axis=0, keep_dims=False, name=None):
  """The Monte Carlo approximation of E_p[f(X)]: the mean of f(samples) over `axis`.

  Args:
    f: callable returning f(samples).
    samples: Tensor of samples of p, the batch of samples indexed by `axis`.
    log_prob: callable returning log p(samples); used (and required) only if not `use_reparametrization`.
    use_reparametrization: if True, the gradient flows through the samples; if False, the score-function
      gradient (f's gradient plus f * grad log p) is used. The value is the same either way.
    axis: the dimensions to average (None: all).
    keep_dims: keep the averaged dimensions with size 1.
    name: name scope (default "expectation").

  Returns:
    The Monte Carlo approximation of E_p[f(X)].

  Raises:
    ValueError: `f` is not callable, or `use_reparametrization=False` and `log_prob` is not callable.
  """
  with _v1.name_scope(name, "expectation", [samples]):
    if not callable(f):
      raise ValueError("`f` must be a callable function.")
    if use_reparametrization:
      return tf.reduce_mean(f(samples), axis=axis, keepdims=keep_dims)
    if not callable(log_prob):
      raise ValueError("`log_prob` must be a callable function.")
    stop = tf.stop_gradient  # For readability.
    x = stop(samples)
    logpx = log_prob(x)
    fx = f(x)  # Call `f` once in case it has side-effects.
    # grad[f(x)] := grad[f(x)] + f(x) * grad[log p(x)], by adding h - stop(h) == 0 (exactly, in IEEE 754).
    fx += stop(fx) * (logpx - stop(logpx))
    return tf.reduce_mean(fx, axis=axis, keepdims=keep_dims)

def _sample_mean(values):
  """Mean over the sample index (dim 0)."""
  return tf.reduce_mean(values, axis=[0])

def _sample_max(values):
  """Max over the sample index (dim 0)."""
  return tf.reduce_max(values, axis=[0])

def _get_samples(dist, z, n, seed):
  """Checks the arguments and returns the samples."""
  with _v1.name_scope("get_samples", values=[z, n]):
    if (n is None) == (z is None):
      raise ValueError("Must specify exactly one of arguments \"n\" and \"z\".  Found: n = %s, z = %s" % (n, z))
    if n is not None:
      return dist.sample(n, seed=seed)
    return _v1.convert_to_tensor(z, name="z")

