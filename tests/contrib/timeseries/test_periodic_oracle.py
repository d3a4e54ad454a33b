"""TF 1.15's state_space_models/periodic.py against TF 1.15, in float64 with the same noise variables: the
transition, noise transform, observation model, transition powers and accumulated transition noise of
CycleStateSpaceModel (closed forms, and the general StateSpaceModel power sums they stand for) and of
ResolutionCycleModel with an integer period folded into whole periods, a period shorter than the cycle and a
fractional one; the error for an even number of latent values."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
if tf.__version__.startswith("1."):  # the modules are internal in TF 1.15's tf.contrib.timeseries
    from tensorflow.contrib.timeseries.python.timeseries.state_space_models import periodic, state_space_model
else:
    from tf1clip.contrib.timeseries.state_space_models import periodic, state_space_model
tf1 = tf.compat.v1
config = state_space_model.StateSpaceModelConfiguration(dtype=tf.float64)
steps = tf.constant([0, 1, 2, 3, 4, 5, 6, 7, 11, 13], dtype=tf.int64)
models = {}
with tf1.variable_scope("cycle5"):
    models["cycle5"] = periodic.CycleStateSpaceModel(periodicity=5, configuration=config)
with tf1.variable_scope("cycle2"):
    models["cycle2"] = periodic.CycleStateSpaceModel(periodicity=2, configuration=config)
for name, latent, period in (("resolution3_period6", 3, 6), ("resolution5_period3", 5, 3),
                             ("resolution5_period7.5", 5, 7.5), ("resolution3_period3", 3, 3)):
    with tf1.variable_scope(name):
        models[name] = periodic.ResolutionCycleModel(num_latent_values=latent, periodicity=period,
                                                     configuration=config)
fetch = {}
for name, model in sorted(models.items()):
    model.initialize_graph()
    fetch[name + "/state_transition"] = tf.convert_to_tensor(model.get_state_transition())
    fetch[name + "/noise_transform"] = model.get_noise_transform()
    fetch[name + "/observation_model"] = model.get_broadcasted_observation_model(steps[:2])
    fetch[name + "/transition_to_powers"] = model.transition_to_powers(steps)
    fetch[name + "/power_noise"] = model.transition_power_noise_accumulator(steps)
    fetch[name + "/power_noise_general"] = state_space_model.StateSpaceModel.transition_power_noise_accumulator(
        model, steps)
fetch["resolution5_period7.5/fractional_powers"] = models["resolution5_period7.5"].transition_to_powers(
    tf.constant([0.5, 1.25, 2.0], tf.float64))
with case("error/even_latent_values"):
    periodic.ResolutionCycleModel(num_latent_values=4, periodicity=3, configuration=config)
report_variables()
with tf1.Session() as sess:
    init_from_numpy(sess, seed=2)
    for key, value in sorted(sess.run(fetch).items()):
        report(key, value)
'''


@requires_tf115
def test_cycle_and_resolution_cycle_matrices_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/even_latent_values:error"] == "ValueError"
  assert_same(tf115, ours, rtol=1e-7, atol=1e-9)
