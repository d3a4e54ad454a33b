"""tf.contrib.bayesflow.monte_carlo (TF 1.15's bayesflow/python/ops/monte_carlo{,_impl}.py) against TF 1.15.

monte_carlo's expectation (both gradient estimators), expectation_importance_sampler and
expectation_importance_sampler_logspace on fixed samples (no random draw: random streams differ between
versions; only the drawn shape is compared).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = (
    "tf.contrib.bayesflow.monte_carlo", "tf.contrib.bayesflow.monte_carlo.expectation",
    "tf.contrib.bayesflow.monte_carlo.expectation_importance_sampler",
    "tf.contrib.bayesflow.monte_carlo.expectation_importance_sampler_logspace")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
mc = tf.contrib.bayesflow.monte_carlo
fetch = {}
# monte_carlo, on fixed samples
loc = tf.Variable([0.5, -1.0], dtype=tf.float64, name="loc")
samples = tf.constant(np.linspace(-2.0, 2.0, 12).reshape(6, 2), tf.float64) + loc
p = tf.distributions.Normal(loc=loc, scale=tf.constant([1.0, 2.0], tf.float64))
f = lambda x: x ** 2 + 3.0 * x
e_rep = mc.expectation(f, samples)
e_score = mc.expectation(f, samples, log_prob=p.log_prob, use_reparametrization=False)
e_all = mc.expectation(f, samples, axis=None, keep_dims=True, name="all")
e_axis1 = mc.expectation(f, samples, axis=1, keep_dims=True)
fetch["expectation"] = [e_rep, e_score, e_all, e_axis1]
fetch["expectation_grads"] = [tf.gradients(tf.reduce_sum(e), loc)[0] for e in (e_rep, e_score)]
report("expectation_names", [e.name for e in (e_rep, e_score, e_all, e_axis1)])
q = tf.distributions.Normal(loc=tf.constant([0.0, 0.0], tf.float64), scale=tf.constant([1.5, 1.5], tf.float64))
z = tf.constant(np.linspace(-3.0, 3.0, 16).reshape(8, 2), tf.float64)
log_p = lambda x: -0.5 * (x - 1.0) ** 2 - 0.5 * np.log(2 * np.pi)
isamp = mc.expectation_importance_sampler(lambda x: x - 0.5, log_p, q, z=z)
ilog = mc.expectation_importance_sampler_logspace(lambda x: -x ** 2, log_p, q, z=z)
fetch["importance"] = [isamp, ilog]
report("importance_names", [isamp.name, ilog.name])
drawn = mc.expectation_importance_sampler(lambda x: x, log_p, q, n=5, seed=3)
report("importance_drawn_shape", drawn.shape.as_list())
report_errors("monte_carlo_errors", (
    ("f_not_callable", lambda: mc.expectation(3.0, samples)),
    ("log_prob_missing", lambda: mc.expectation(f, samples, use_reparametrization=False)),
    ("both_z_and_n", lambda: mc.expectation_importance_sampler(f, log_p, q, z=z, n=4)),
    ("neither_z_nor_n", lambda: mc.expectation_importance_sampler_logspace(f, log_p, q)),
))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for key in sorted(fetch):
        report(key, sess.run(fetch[key]))
    report("drawn_finite", bool(np.all(np.isfinite(sess.run(drawn)))))
'''


@requires_tf115
def test_monte_carlo_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-9)
