"""TF 1.15's state_space_models/level_trend.py (AdderStateSpaceModel) against TF 1.15, in float64 with the same
noise variables, with and without level noise: the transition, noise transform and observation model, the closed
forms of the transition powers and of the accumulated noise (and the general power sums they stand for), the prior
mean and covariance, and the variables made."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
if tf.__version__.startswith("1."):  # the modules are internal in TF 1.15's tf.contrib.timeseries
    from tensorflow.contrib.timeseries.python.timeseries.state_space_models import level_trend, state_space_model
else:
    from tf1clip.contrib.timeseries.state_space_models import level_trend, state_space_model
tf1 = tf.compat.v1
steps = tf.constant([0, 1, 2, 5, 9], dtype=tf.int64)
fetch = {}
for level_noise in (True, False):
    for trainable in (False, True):
        name = "level_noise_%s/trainable_start_%s" % (level_noise, trainable)
        config = state_space_model.StateSpaceModelConfiguration(dtype=tf.float64, trainable_start_state=trainable)
        with tf1.variable_scope(name.replace("/", "_")):
            model = level_trend.AdderStateSpaceModel(use_level_noise=level_noise, configuration=config)
        model.initialize_graph()
        fetch[name + "/state_transition"] = tf.convert_to_tensor(model.get_state_transition(), tf.float64)
        fetch[name + "/noise_transform"] = tf.convert_to_tensor(model.get_noise_transform(), tf.float64)
        fetch[name + "/observation_model"] = model.get_broadcasted_observation_model(steps)
        fetch[name + "/transition_to_powers"] = model.transition_to_powers(steps)
        fetch[name + "/power_noise"] = model.transition_power_noise_accumulator(steps)
        fetch[name + "/power_noise_general"] = (
            state_space_model.StateSpaceModel.transition_power_noise_accumulator(model, steps))
        fetch[name + "/prior"] = list(model.get_start_state())
report_variables()
with tf1.Session() as sess:
    init_from_numpy(sess, seed=5)
    for key, value in sorted(sess.run(fetch).items()):
        report(key, value)
'''


@requires_tf115
def test_level_trend_matrices_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert_same(tf115, ours, rtol=1e-9, atol=1e-9)
