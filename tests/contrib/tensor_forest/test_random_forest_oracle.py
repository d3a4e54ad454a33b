"""`tf.contrib.tensor_forest.client.random_forest` against TF 1.15: `TensorForestEstimator` (contrib.learn: fit /
evaluate / predict; classification, weight and keys columns, feature importances, a regression of two outputs with a
real-valued feature column), `CoreTensorForestEstimator` (tf.estimator: train / evaluate / predict; regression, a
forest that cannot grow stopped by its loss hook), and
`MultiForestMultiHeadEstimator`: metrics, predictions, checkpoint keys. `get_model_fn` and
`get_combined_model_fn` (their predictions' keys), `TensorForestLossHook`
step by step and in a MonitoredSession, `TensorForestRunOpAtEndHook`'s log lines, every signature, and a TF
1.15-written forest checkpoint restored and trained on.

Difference: tf1clip refuses to export a SavedModel (its kernels are tf.numpy_function ops, which a SavedModel cannot
take to another process); TF 1.15 exported.
"""

import tempfile

from harness import assert_same, requires_tf115, run_both, run_tf115, run_tf1clip

ORACLE_TESTED = tuple(prefix + n for prefix in (
    "tf.contrib.tensor_forest.client.random_forest.", "tf.contrib.tensor_forest.random_forest.") for n in (
        "TensorForestEstimator", "CoreTensorForestEstimator", "MultiForestMultiHeadEstimator", "TensorForestLossHook",
        "TensorForestRunOpAtEndHook", "get_model_fn", "get_combined_model_fn", "ModelBuilderOutputType"))

SNIPPET = r'''
import time
import numpy as np
import tensorflow as tf
from google.protobuf import text_format
from tensorflow.contrib.tensor_forest.python import tensor_forest
from tensorflow.contrib.tensor_forest.python.ops import data_ops, model_ops, stats_ops, tensor_forest_ops
from tensorflow.contrib.tensor_forest.client import eval_metrics, random_forest
from tensorflow.contrib.tensor_forest.proto import tensor_forest_params_pb2
from tensorflow.contrib import tensor_forest as contrib_tf
tf.logging.set_verbosity(tf.logging.ERROR)
ONE_THREAD = tf.ConfigProto(intra_op_parallelism_threads=1, inter_op_parallelism_threads=1)

rng = np.random.RandomState(3)
N = 60
X = rng.rand(N, 4).astype(np.float32)
Y3 = (X[:, 0] * 2 + X[:, 2]).astype(np.int32).astype(np.float32)  # 0, 1, 2
YR = (X[:, 0] - 2 * X[:, 1] + 0.1 * rng.randn(N)).astype(np.float32)
W = rng.uniform(0.5, 2.0, N).astype(np.float32)

def hparams(**kw):
    base = dict(num_classes=3, num_features=4, num_trees=3, max_nodes=15, split_after_samples=8,
                base_random_seed=11)
    base.update(kw)
    return tensor_forest.ForestHParams(**base).fill()

def main():
    with case("model_fns"):
        with tf.Graph().as_default():
            params = hparams(num_trees=1)
            model_fn = random_forest.get_model_fn(params, tensor_forest.RandomForestGraphs, None,
                                                  early_stopping_rounds=0)
            ops = model_fn({"x": tf.constant(X[:4])}, None, "infer")
            combined = random_forest.get_combined_model_fn([
                random_forest.get_model_fn(hparams(num_trees=1), tensor_forest.RandomForestGraphs, None,
                                           head_scope="h%d" % i) for i in range(2)])
            both = combined({"x": tf.constant(X[:4])}, tf.constant(np.stack([Y3[:4], Y3[:4]], 1)), "infer")
            hook = random_forest.TensorForestLossHook(5, early_stopping_loss_threshold=0.01)
            report("model_fns/keys", [sorted(ops.predictions), sorted(both.predictions),
                                      [hook.early_stopping_rounds, hook.early_stopping_loss_threshold, hook.steps]])
    config = tf.contrib.learn.RunConfig(session_config=ONE_THREAD, save_checkpoints_steps=1000)
    with case("learn_estimator"):
        est = random_forest.TensorForestEstimator(
            hparams(num_trees=2, max_nodes=9), model_dir="learn_forest", config=config, early_stopping_rounds=50)
        start = time.time()
        est.fit(x=X, y=Y3.astype(np.int32), batch_size=20, steps=6)
        print("learn fit", time.time() - start)
        report("learn/evaluate", est.evaluate(x=X, y=Y3.astype(np.int32), batch_size=N, steps=1))
        report("learn/predict", [[p["probabilities"], p["classes"], p["prediction_variance"]]
                                 for p in est.predict(x=X[:6], as_iterable=True)])
        report("learn/checkpoint", sorted(n for n, _ in tf.train.list_variables("learn_forest")))
    with case("learn_weighted"):  # weight and keys columns through input_fns, feature importances at the end
        est = random_forest.TensorForestEstimator(
            hparams(num_classes=2, num_features=3, num_trees=2, max_nodes=11, split_after_samples=5),
            model_dir="learn_weighted", weight_column="w", keys_column="k", report_feature_importances=True,
            config=config)

        def weighted_input(lo, hi, labels=True):
            features = {"x": tf.constant(X[lo:hi, :3]), "w": tf.constant(W[lo:hi]),
                        "k": tf.constant(np.arange(lo, hi, dtype=np.int64))}
            return (features, tf.constant((X[lo:hi, :1] > X[lo:hi, 1:2]).astype(np.int32))) if labels else features
        est.fit(input_fn=lambda: weighted_input(0, 40), steps=3)
        report("learn_weighted/evaluate", est.evaluate(input_fn=lambda: weighted_input(0, N), steps=1))
        report("learn_weighted/predict", [[p["k"], p["probabilities"]] for p in est.predict(
            input_fn=lambda: weighted_input(0, 4, labels=False), as_iterable=True)])
    with case("core_estimator"):
        core_config = tf.estimator.RunConfig(session_config=ONE_THREAD, save_checkpoints_steps=1000)
        est = random_forest.CoreTensorForestEstimator(
            hparams(num_classes=1, regression=True, num_trees=2, max_nodes=9), model_dir="core_forest",
            config=core_config)
        train = tf.estimator.inputs.numpy_input_fn({"x": X}, YR, batch_size=20, num_epochs=None, shuffle=False)
        est.train(train, steps=5)
        whole = tf.estimator.inputs.numpy_input_fn({"x": X}, YR, batch_size=N, shuffle=False)
        report("core/evaluate", est.evaluate(whole, steps=1))
        report("core/predict", [[p["predictions"], p["prediction_variance"]] for p in est.predict(
            tf.estimator.inputs.numpy_input_fn({"x": X[:6]}, batch_size=6, shuffle=False))])
        report("core/checkpoint", sorted(n for n, _ in tf.train.list_variables("core_forest")))
        serving = tf.estimator.export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 4])})
        report_errors("core/export", [("export_saved_model", lambda: est.export_saved_model("exported", serving))])
    with case("multi_forest"):
        est = random_forest.MultiForestMultiHeadEstimator(
            [hparams(num_classes=3, num_trees=1, max_nodes=5), hparams(num_classes=2, num_trees=1, max_nodes=5)],
            model_dir="multi_forest", config=config)
        labels = np.stack([Y3, (X[:, 3] > 0.5).astype(np.float32)], 1).astype(np.int32)
        # each forest's training op adds 1 to the global step; steps=3 is two runs on both sides (TF 1.15's
        # StopAtStepHook read the step after the run's increments, TensorFlow 2.21's before them)
        est.fit(x=X, y=labels, batch_size=30, steps=3)
        report("multi/predict", [[p["probabilities"], p["classes"]] for p in est.predict(x=X[:4], as_iterable=True)])
        report("multi/checkpoint", sorted(n for n, _ in tf.train.list_variables("multi_forest")))
    report("model_builder", [random_forest.ModelBuilderOutputType.MODEL_FN_OPS,
                             random_forest.ModelBuilderOutputType.ESTIMATOR_SPEC])


main()

# the hook that runs ops at the end of a session
import logging
ended = []

class Lines(logging.Handler):
    def emit(self, record):
        ended.append(record.getMessage())

lines = Lines()
logging.getLogger("tensorflow").addHandler(lines)
tf.logging.set_verbosity(tf.logging.INFO)
try:
    with tf.Graph().as_default():
        counter = tf.Variable(3.0)
        hook = random_forest.TensorForestRunOpAtEndHook({"b": counter * 2.0, "a": counter + 1.0})
        with tf.train.MonitoredSession(hooks=[hook]) as session:
            session.run(counter)
finally:
    tf.logging.set_verbosity(tf.logging.ERROR)
    logging.getLogger("tensorflow").removeHandler(lines)
report("run_op_at_end", [line for line in ended if line.startswith(("a:", "b:"))])

def signature(function):
    """Parameter names and defaults (a class default by its name)."""
    import inspect
    out = []
    for p in inspect.signature(function).parameters.values():
        default = p.default
        if default is inspect.Parameter.empty:
            default = "<required>"
        elif not isinstance(default, (bool, int, float, str, tuple, type(None))):
            default = getattr(default, "__name__", None) or type(default).__name__
        out.append([p.name, p.kind.name, default])
    return out


class StopRequests(object):
    """A run context that records request_stop()."""
    def __init__(self):
        self.stopped = False

    def request_stop(self):
        self.stopped = True


class Results(object):
    def __init__(self, loss, step):
        self.results = {"current_loss": loss, "global_step": step}


def new_cases():
    rf = random_forest
    report("signatures", {name: signature(obj) for name, obj in (
        ("get_model_fn", rf.get_model_fn), ("get_combined_model_fn", rf.get_combined_model_fn),
        ("TensorForestEstimator", rf.TensorForestEstimator.__init__),
        ("CoreTensorForestEstimator", rf.CoreTensorForestEstimator.__init__),
        ("MultiForestMultiHeadEstimator", rf.MultiForestMultiHeadEstimator.__init__),
        ("TensorForestLossHook", rf.TensorForestLossHook.__init__),
        ("TensorForestRunOpAtEndHook", rf.TensorForestRunOpAtEndHook.__init__))})
    report("constants", [rf.KEYS_NAME, rf.LOSS_NAME, rf.TREE_PATHS_PREDICTION_KEY, rf.VARIANCE_PREDICTION_KEY,
                         rf.ALL_SERVING_KEY, rf.EPSILON])

    with case("loss_hook"):  # the count of steps without a big enough improvement, the stop, a step going back
        hook = rf.TensorForestLossHook(2, early_stopping_loss_threshold=0.1)
        trace = []
        for step, loss in [(0, 10.0), (1, 9.5), (2, 8.0), (3, 7.9), (4, 7.8), (5, 7.7), (6, 3.0), (7, 3.0), (8, 2.9),
                           (9, 2.8), (4, 1.0), (5, 0.5)]:
            context = StopRequests()
            hook.after_run(context, Results(loss, step))
            trace.append([hook.steps, hook.min_loss, hook.last_step, context.stopped])
        report("loss_hook/trace", trace)
        with tf.Graph().as_default():  # without a loss_op: the graph's rf_training_loss, until it stops falling
            step = tf.train.get_or_create_global_step()
            counter = tf.Variable(0.0)
            tf.negative(tf.minimum(counter, 3.0), name="rf_training_loss")
            train = tf.group(tf.assign_add(counter, 1.0), tf.assign_add(step, 1))
            runs = 0
            with tf.train.MonitoredSession(hooks=[rf.TensorForestLossHook(2, early_stopping_loss_threshold=0.01)]) as s:
                while not s.should_stop() and runs < 20:
                    s.run(train)
                    runs += 1
            report("loss_hook/monitored", runs)

    config = tf.estimator.RunConfig(session_config=ONE_THREAD, save_checkpoints_steps=1000)
    with case("core_early_stop"):  # a forest that cannot grow: the loss stops falling, the hook stops training
        est = rf.CoreTensorForestEstimator(hparams(num_trees=1, max_nodes=3), model_dir="core_stop", config=config,
                                           early_stopping_rounds=2, local_eval=True)
        whole = tf.estimator.inputs.numpy_input_fn({"x": X}, Y3.astype(np.int32), batch_size=N, num_epochs=None,
                                                   shuffle=False)
        est.train(whole, steps=30)
        report("core_early_stop/step", int(est.get_variable_value("global_step")))
        report("core_early_stop/evaluate", est.evaluate(whole, steps=1))
    with case("learn_regression"):  # contrib.learn with a real-valued feature column, two outputs
        est = rf.TensorForestEstimator(
            hparams(num_classes=2, regression=True, num_trees=2, max_nodes=9), model_dir="learn_regression",
            config=tf.contrib.learn.RunConfig(session_config=ONE_THREAD, save_checkpoints_steps=1000),
            feature_columns=[tf.contrib.layers.real_valued_column("x", dimension=4)], early_stopping_rounds=0)
        targets = np.stack([YR, X[:, 3]], 1).astype(np.float32)
        est.fit(input_fn=lambda: ({"x": tf.constant(X[:40])}, tf.constant(targets[:40])), steps=3)
        report("learn_regression/evaluate", est.evaluate(
            input_fn=lambda: ({"x": tf.constant(X)}, tf.constant(targets)), steps=1))
        report("learn_regression/predict", [[p["scores"], p["prediction_variance"]] for p in est.predict(
            input_fn=lambda: {"x": tf.constant(X[:5])}, as_iterable=True)])
        report("learn_regression/checkpoint", sorted(n for n, _ in tf.train.list_variables("learn_regression")))


new_cases()
'''

RESTORE = r'''
import os
import shutil
import numpy as np
import tensorflow as tf
from tensorflow.contrib.tensor_forest.python import tensor_forest
from tensorflow.contrib.tensor_forest.client import random_forest
tf.logging.set_verbosity(tf.logging.ERROR)
rng = np.random.RandomState(4)
X = rng.rand(80, 3).astype(np.float32)
Y = (X[:, 0] + X[:, 1] > 1).astype(np.int32)
config = tf.estimator.RunConfig(session_config=tf.ConfigProto(intra_op_parallelism_threads=1),
                                save_checkpoints_steps=1000)

def forest(model_dir):
    params = tensor_forest.ForestHParams(num_classes=2, num_features=3, num_trees=2, max_nodes=21,
                                         split_after_samples=6, base_random_seed=5, checkpoint_stats=True)
    return random_forest.CoreTensorForestEstimator(params, model_dir=model_dir, config=config)

def batches(start):
    return tf.estimator.inputs.numpy_input_fn({"x": X[start:]}, Y[start:], batch_size=20, num_epochs=None,
                                              shuffle=False)

saved = os.path.join(ORACLE_SHARED, "forest")
if not os.path.exists(saved):  # TF 1.15's side: three batches
    forest(saved).train(batches(0), steps=3)
shutil.copytree(saved, "continued")
estimator = forest("continued")
estimator.train(batches(20), steps=2)
report("evaluation", estimator.evaluate(tf.estimator.inputs.numpy_input_fn({"x": X}, Y, batch_size=80,
                                                                           shuffle=False), steps=1))
path = tf.train.latest_checkpoint("continued")
reader = tf.train.NewCheckpointReader(path)
report("continued", [os.path.basename(path)] + [reader.get_tensor("tree-%d:0" % i) for i in range(2)])
'''


@requires_tf115
def test_a_tf115_forest_checkpoint_restores_and_trains_on_as_on_tf115():
  # the trees, and with checkpoint_stats their leaves' candidate splits and counts, come back from TF 1.15's bytes
  with tempfile.TemporaryDirectory() as shared:
    theirs = run_tf115(RESTORE, shared=shared)
    ours = run_tf1clip(RESTORE, shared=shared)
  assert theirs["continued"][0] == "model.ckpt-5"
  assert_same(theirs, ours)


@requires_tf115
def test_random_forest_matches_tf115():
  tf115, ours = run_both(SNIPPET)
  assert tf115["core/export"] == {"export_saved_model": "no error"}
  assert ours["core/export"] == {"export_saved_model": "NotImplementedError"}
  assert not [k for k in tf115 if k.endswith(":error")], sorted(tf115)  # every case ran to its end on TF 1.15
  assert_same(tf115, ours, rtol=1e-5, atol=1e-6, differences={
      "core/export": "tf1clip refuses to export: its kernels are tf.numpy_function ops, which a SavedModel cannot "
                     "take to another process"})
