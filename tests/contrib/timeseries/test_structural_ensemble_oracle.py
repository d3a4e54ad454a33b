"""TF 1.15's state_space_models/structural_ensemble.py against TF 1.15: StructuralEnsemble and
MultiResolutionStructuralEnsemble on two features (periodicities as a list, latent value counts as a list or
broadcast from one, no periodicity at all), their variable names (TF 1.15's checkpoint keys), the combined
transition, noise transform, observation model and prior, the accumulated noise of a few gaps, and the filtered
loss of one window, all from the same variable values; the error for counts that do not pair with the periods."""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries.TrainEvalFeatures",)

SNIPPET = r'''
import numpy as np
import tensorflow as tf
if tf.__version__.startswith("1."):  # the modules are internal in TF 1.15's tf.contrib.timeseries
    from tensorflow.contrib.timeseries.python.timeseries.state_space_models import (
        state_space_model as ssm, structural_ensemble as se)
else:
    from tf1clip.contrib.timeseries.state_space_models import state_space_model as ssm, structural_ensemble as se
tf1 = tf.compat.v1
ts = tf.contrib.timeseries
TIMES, VALUES = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES
times = np.array([[0, 1, 2, 4, 5, 8]], dtype=np.int64)
values = np.stack([np.sin(times[0] / 2.0), np.cos(times[0] / 3.0)], axis=1)[None]
builders = {
    "structural": lambda config: se.StructuralEnsemble(periodicities=[3, 4], moving_average_order=1,
                                                       autoregressive_order=2, configuration=config),
    "multiresolution_lists": lambda config: se.MultiResolutionStructuralEnsemble(
        cycle_num_latent_values=[3, 5], moving_average_order=2, autoregressive_order=1, periodicities=[6, 2.5],
        configuration=config),
    "multiresolution_broadcast": lambda config: se.MultiResolutionStructuralEnsemble(
        cycle_num_latent_values=3, moving_average_order=0, autoregressive_order=0, periodicities=[4, 10],
        configuration=config),
    "multiresolution_no_cycle": lambda config: se.MultiResolutionStructuralEnsemble(
        cycle_num_latent_values=3, moving_average_order=1, autoregressive_order=1, periodicities=None,
        configuration=config),
}
for name, build in sorted(builders.items()):
    with tf.Graph().as_default():
        config = ssm.StateSpaceModelConfiguration(num_features=2, dtype=tf.float64)
        model = build(config)
        model.initialize_graph()
        mean, covariance, start = model.get_start_state()
        outputs = model.get_batch_loss(
            features={TIMES: tf.constant(times), VALUES: tf.constant(values)}, mode=tf.estimator.ModeKeys.TRAIN,
            state=(mean[None], covariance[None], tf.reshape(start, [1])))
        fetch = {"state_transition": model.get_state_transition(), "noise_transform": model.get_noise_transform(),
                 "observation_model": model.get_broadcasted_observation_model(tf.constant([0, 5])),
                 "prior": [mean, covariance], "loss": outputs.loss,
                 "power_noise": model.transition_power_noise_accumulator(tf.constant([1, 2, 7], tf.int64))}
        report_variables(name + "/variables")
        with tf1.Session() as sess:
            init_from_numpy(sess, seed=11)
            report(name, sess.run(fetch))
with case("error/latent_values_do_not_pair"):
    se.MultiResolutionStructuralEnsemble(cycle_num_latent_values=[3, 5, 7], moving_average_order=1,
                                         autoregressive_order=1, periodicities=[4, 6])
'''


@requires_tf115
def test_structural_ensembles_match_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["error/latent_values_do_not_pair:error"] == "ValueError"
  assert_same(tf115, ours, rtol=1e-7, atol=1e-8)
