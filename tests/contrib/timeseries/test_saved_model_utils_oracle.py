"""tf.contrib.timeseries.saved_model_utils against TF 1.15: Estimators trained from the same weights, exported with
export_saved_model (build_raw_serving_input_receiver_fn), loaded back in a Session, and every number of
predict_continuation / cold_start_filter / filter_continuation on them.

An ARRegressor with an exogenous feature column: predictions from an evaluation (steps, times, exogenous
features), a cold start on one series and on a batch of two, filtering on from an evaluation and from a filter's
state, predictions from a batched state; a small StructuralEnsembleRegressor (a state space model: its state is
several tensors, carried by ChainingStateManager): cold start, filter, predict. The errors TF 1.15 raised (class
names): steps and times together or neither, observations without values or with a feature the signature lacks.
"""

from harness import assert_same, requires_tf115, run_both

ORACLE_TESTED = ("tf.contrib.timeseries.saved_model_utils.predict_continuation",
                 "tf.contrib.timeseries.saved_model_utils.cold_start_filter",
                 "tf.contrib.timeseries.saved_model_utils.filter_continuation")

SNIPPET = r'''
import os
import numpy as np
import tensorflow as tf
tf.logging.set_verbosity(tf.logging.ERROR)
ts = tf.contrib.timeseries
sm = ts.saved_model_utils
TIMES, VALUES = ts.TrainEvalFeatures.TIMES, ts.TrainEvalFeatures.VALUES


def signature(function):
    """Parameter names and defaults (a class or dtype default by its name)."""
    import inspect
    out = []
    for p in inspect.signature(function).parameters.values():
        default = p.default
        if default is inspect.Parameter.empty:
            default = "<required>"
        elif not isinstance(default, (bool, int, float, str, tuple, type(None))):
            default = getattr(default, "__name__", None) or getattr(default, "name", None) or type(default).__name__
        out.append([p.name, default])
    return out



report("signatures", {name: signature(getattr(sm, name))
                      for name in ("predict_continuation", "cold_start_filter", "filter_continuation")})
times = np.arange(30, dtype=np.int64)
values = (np.sin(times / 2.5) + 0.05 * times).astype(np.float32)
load = (times % 4).astype(np.float32)
config = tf.estimator.RunConfig(tf_random_seed=1)


class SeededStart(tf.train.SessionRunHook):
    """Both TensorFlows start from the same weights (their random initializers draw different numbers)."""
    def after_create_session(self, session, coord):
        if session.run(tf.train.get_global_step()) == 0:
            init_from_numpy(session, seed=3, var_list=tf.trainable_variables() + [
                v for v in tf.global_variables() if v.op.name.endswith("prior_state_mean")])


def fixed_windows(window_size, starts=(0, 6, 13, 21), with_load=False):
    def input_fn():
        index = np.array([range(s, s + window_size) for s in starts])
        features = {TIMES: tf.constant(times[index]), VALUES: tf.constant(values[index][..., None])}
        if with_load:
            features["load"] = tf.constant(load[index][..., None])
        return features, None
    return input_fn


def exported(estimator, name):
    return estimator.export_saved_model(os.path.abspath(name), estimator.build_raw_serving_input_receiver_fn())


# --- ARRegressor with an exogenous feature --------------------------------------------------------------------
ar = ts.ARRegressor(periodicities=6, input_window_size=4, output_window_size=2, num_features=1,
                    exogenous_feature_columns=[tf.feature_column.numeric_column("load")],
                    model_dir=os.path.abspath("ar"), config=config)
ar.train(input_fn=fixed_windows(6, with_load=True), steps=3, hooks=[SeededStart()])
evaluation = ar.evaluate(input_fn=ts.WholeDatasetInputFn(ts.NumpyReader(
    {TIMES: times[:20], VALUES: values[:20], "load": load[:20]})), steps=1)
export_dir = exported(ar, "export_ar")
with tf.Graph().as_default():
    with tf.Session() as session:
        signatures = tf.saved_model.loader.load(session, [tf.saved_model.tag_constants.SERVING], export_dir)
        report("ar/signatures", {k: [sorted(v.inputs), sorted(v.outputs)] for k, v in signatures.signature_def.items()})
        kw = dict(signatures=signatures, session=session)
        report("ar/predict_steps", sm.predict_continuation(
            continue_from=evaluation, steps=3, exogenous_features={"load": load[None, 20:23, None]}, **kw))
        report("ar/predict_times", sm.predict_continuation(
            continue_from=evaluation, times=[21, 22, 24], exogenous_features={"load": load[None, [21, 22, 24], None]},
            **kw))
        cold = sm.cold_start_filter(features={TIMES: times[:8], VALUES: values[:8], "load": load[:8, None]}, **kw)
        report("ar/cold_start", cold)
        cold_batch = sm.cold_start_filter(features={
            TIMES: np.stack([times[:6], times[10:16]]), VALUES: np.stack([values[:6], values[10:16]])[..., None],
            "load": np.stack([load[:6], load[10:16]])[..., None]}, **kw)
        report("ar/cold_start_batch", cold_batch)
        report("ar/filter_from_evaluation", sm.filter_continuation(
            continue_from=evaluation, features={TIMES: times[20:24], VALUES: values[20:24], "load": load[20:24, None]},
            **kw))
        state = sm.filter_continuation(continue_from=cold, features={TIMES: times[8:12], VALUES: values[8:12],
                                                                     "load": load[8:12, None]}, **kw)
        report("ar/filter_from_filter", state)
        report("ar/predict_from_filter", sm.predict_continuation(
            continue_from=state, steps=2, exogenous_features={"load": load[None, 12:14, None]}, **kw))
        report("ar/predict_from_batch", sm.predict_continuation(
            continue_from=cold_batch, times=[[6, 7], [16, 17]],
            exogenous_features={"load": np.array([[[1.0], [2.0]], [[0.0], [3.0]]], np.float32)}, **kw))
        with case("ar/steps_and_times"):
            sm.predict_continuation(continue_from=state, steps=2, times=[[12, 13]], **kw)
        with case("ar/neither_steps_nor_times"):
            sm.predict_continuation(continue_from=state, **kw)
        with case("ar/filter_without_values"):
            sm.cold_start_filter(features={TIMES: times[:8]}, **kw)
        with case("ar/filter_unknown_feature"):
            sm.cold_start_filter(features={TIMES: times[:8], VALUES: values[:8], "load": load[:8, None],
                                           "unknown": load[:8, None]}, **kw)

# --- a small StructuralEnsembleRegressor (a state space model) ------------------------------------------------
ensemble = ts.StructuralEnsembleRegressor(periodicities=4, num_features=1, cycle_num_latent_values=3,
                                          moving_average_order=1, model_dir=os.path.abspath("ensemble"),
                                          config=config)
ensemble.train(input_fn=fixed_windows(5), steps=1, hooks=[SeededStart()])
export_dir = exported(ensemble, "export_ensemble")
with tf.Graph().as_default():
    with tf.Session() as session:
        signatures = tf.saved_model.loader.load(session, [tf.saved_model.tag_constants.SERVING], export_dir)
        kw = dict(signatures=signatures, session=session)
        report("ensemble/signatures", sorted(signatures.signature_def))
        cold = sm.cold_start_filter(features={TIMES: times[:10], VALUES: values[:10]}, **kw)
        report("ensemble/cold_start", cold)
        state = sm.filter_continuation(continue_from=cold, features={TIMES: times[10:13], VALUES: values[10:13]},
                                       **kw)
        report("ensemble/filter", state)
        report("ensemble/predict", sm.predict_continuation(continue_from=state, steps=3, **kw))
        report("ensemble/one_step", sm.filter_continuation(continue_from=state, features={TIMES: 13,
                                                                                          VALUES: values[13]},
                                                           **kw))
'''


@requires_tf115
def test_saved_model_utils_on_exported_estimators_give_tf115s_numbers():
  tf115, ours = run_both(SNIPPET)
  assert "mean" in tf115["ar/predict_steps"] and "mean" in tf115["ensemble/predict"]
  assert tf115["ar/steps_and_times:error"] == "ValueError"
  assert tf115["ensemble/signatures"] == ["cold_start_filter", "filter", "serving_default"]
  assert_same(tf115, ours, rtol=2e-5, atol=2e-5)
