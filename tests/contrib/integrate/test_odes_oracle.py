"""tf.contrib.integrate (TF 1.15's integrate/python/ops/odes.py) against TF 1.15.

odeint (adaptive Dormand-Prince) on a scalar float64, a vector float32 and a complex128 ODE, with `full_output`'s
info dict (num_func_evals, integrate_points, error_ratio) and `options`; odeint_fixed with 'midpoint' and 'rk4'
(dt None / scalar / per interval) and its gradients; the errors TF 1.15 raises on bad input (at graph building
and at run time).
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.integrate.odeint", "tf.contrib.integrate.odeint_fixed")

SNIPPET = r'''
import numpy as np
import tensorflow as tf
I = tf.contrib.integrate
fetch = {}
# odeint: exponential decay, float64, with the info dict (t and max_num_steps fed in the error cases below)
decay_t = tf.placeholder_with_default(np.array([0.0, 0.5, 1.0, 2.0]), [4])
decay_steps = tf.placeholder_with_default(1000, [])
decay, decay_info = I.odeint(lambda y, _: -y, tf.constant(1.0, tf.float64), decay_t, method="dopri5",
                             options={"max_num_steps": decay_steps}, full_output=True)
fetch["decay"] = [decay, decay_info]
report("decay_static", [decay.name, str(decay.dtype), decay.shape.as_list(), sorted(decay_info),
                        str(decay_info["integrate_points"].dtype), str(decay_info["error_ratio"].dtype)])
# a harmonic oscillator, float32, with explicit method and options
t32 = tf.constant(np.linspace(0.0, 3.0, 5), tf.float32)
osc, osc_info = I.odeint(lambda y, t: tf.stack([y[1], -y[0] + 0.1 * t]), tf.constant([1.0, 0.0]), t32,
                         rtol=1e-4, atol=1e-6, method="dopri5", full_output=True, name="osc",
                         options=dict(first_step=0.05, safety=0.8, ifactor=5.0, dfactor=0.3, max_num_steps=50))
fetch["osc"] = [osc, osc_info]
report("osc_static", [osc.name, str(osc.dtype), osc.shape.as_list()])
# complex state: dy/dt = i y
spiral = I.odeint(lambda y, _: 1j * y, tf.constant([1.0 + 0.0j, 0.5j], tf.complex128), [0.0, 1.0, 2.5])
fetch["spiral"] = tf.stack([tf.real(spiral), tf.imag(spiral)])
report("spiral_dtype", str(spiral.dtype))
# odeint_fixed
a = tf.Variable(0.7, dtype=tf.float64, name="rate")
y0 = tf.constant([1.0, 2.0], tf.float64)
tgrid = tf.placeholder_with_default(np.array([0.0, 0.3, 1.0, 1.5]), [4])
func = lambda y, t: -a * y + tf.sin(t)
for method in ("midpoint", "rk4"):
    for label, dt in (("none", None), ("scalar", 0.1), ("per_interval", [0.1, 0.25, 0.5])):
        fetch["fixed_%s_%s" % (method, label)] = I.odeint_fixed(func, y0, tgrid, dt=dt, method=method)
fixed = I.odeint_fixed(func, y0, tgrid, dt=0.05)
fetch["fixed_grads"] = tf.gradients(tf.reduce_sum(fixed[-1] * [1.0, 3.0]), [a, y0])
report("fixed_static", [fixed.name, fixed.shape.as_list()])
fixed32 = I.odeint_fixed(lambda y, t: -y * t, tf.constant([[1.0, 2.0]]), tf.constant([0.0, 1.0, 2.0]),
                         dt=tf.constant(0.3), method="midpoint", name="fixed32")
fetch["fixed32"] = fixed32
report("fixed32_static", [fixed32.name, str(fixed32.dtype), fixed32.shape.as_list()])
negative_dt = I.odeint_fixed(lambda y, _: -y, 1.0, [0.0, 1.0, 2.0], dt=-0.5)
report_errors("integrate_errors", (
    ("odeint_unknown_method", lambda: I.odeint(lambda y, _: -y, 1.0, [0.0, 1.0], method="adams")),
    ("odeint_options_without_method", lambda: I.odeint(lambda y, _: -y, 1.0, [0.0, 1.0], options={"safety": 0.5})),
    ("odeint_unknown_option", lambda: I.odeint(lambda y, _: -y, 1.0, [0.0, 1.0], method="dopri5",
                                               options={"order": 4})),
    ("odeint_int_y0", lambda: I.odeint(lambda y, _: -y, tf.constant(1), [0.0, 1.0])),
    ("odeint_int_t", lambda: I.odeint(lambda y, _: -y, 1.0, tf.constant([0, 1]))),
    ("fixed_euler", lambda: I.odeint_fixed(lambda y, _: -y, 1.0, [0.0, 1.0], method="euler")),
    ("fixed_2d_t", lambda: I.odeint_fixed(lambda y, _: -y, 1.0, [[0.0, 1.0], [2.0, 3.0]])),
    ("fixed_dt_length", lambda: I.odeint_fixed(lambda y, _: -y, 1.0, [0.0, 1.0, 2.0], dt=[0.1, 0.1, 0.1])),
    ("fixed_float64_dt_float32_t", lambda: I.odeint_fixed(lambda y, _: -y, 1.0, tf.constant([0.0, 1.0]), dt=0.3)),
    ("fixed_int_y0", lambda: I.odeint_fixed(lambda y, _: -y, tf.constant(1), [0.0, 1.0])),
))
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for key in sorted(fetch):
        report(key, sess.run(fetch[key]))
    # errors at run time: too few steps, a decreasing t; a negative dt (no error: no steps taken)
    for key, tensor, feed in (("few_steps", decay, {decay_steps: 2, decay_t: [0.0, 0.5, 1.0, 6.0]}),
                              ("decreasing", decay, {decay_t: [0.0, 2.0, 1.0, 3.0]}),
                              ("fixed_decreasing", fixed, {tgrid: [0.0, 2.0, 1.0, 3.0]}),
                              ("negative_dt", negative_dt, {})):
        with case(key):
            report(key, sess.run(tensor, feed))
'''


@requires_tf115
def test_integrate_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-6, atol=1e-9)
