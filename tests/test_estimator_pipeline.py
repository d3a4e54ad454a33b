"""tf1clip's gradient pipeline inside `tf.estimator.Estimator.train`: checkpoints resume exactly.

For clip_gradients_by_norm, WrappedOptimizer(skip_non_finite=True) and GradientAccumulationOptimizer,
one Estimator trains straight to `max_steps`; another stops half-way, and a new Estimator on the same
model_dir resumes from the checkpoint. Every checkpointed variable (weights, Adam slots, global_step,
the skip counter, the accumulators) must end up equal. The input repeats with a period that divides
the stopping point, so both runs see the same batches (a restarted input_fn starts from the top).
The same subprocess checks that TPUEstimator(use_tpu=False) and train_and_evaluate train exactly like
Estimator.train, that tf.train.init_from_checkpoint (in a model_fn) and WarmStartSettings load only the
mapped variables, and that tf.contrib.estimator.forward_features returns features with predictions.
With `count_micro_steps=True` a stop falls inside an accumulation window; the input_fn skips what the
checkpoint's global_step says was consumed, and the resumed run still ends equal.
One subprocess (Estimator graphs in TF1 mode), all cases in it.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DRIVER = textwrap.dedent("""
    import json, os, sys, tempfile
    import numpy as np
    import tf1clip
    import tf1clip.compat.v1 as tf

    rng = np.random.RandomState(0)
    x = rng.randn(2, 4, 3).astype(np.float32)  # two batches of 4 examples
    y = x.sum(axis=2, keepdims=True) + 1.0
    ids = np.arange(8, dtype=np.int64).reshape(2, 4, 1)
    # p = 0 makes the gradient of sqrt(p * |w|^2) NaN (inf * 0) while the loss stays finite (the
    # Estimator's own NanTensorHook stops training on a NaN loss, whatever the optimizer does).
    p_ones = np.ones([2, 4, 1], np.float32)
    p_poison = p_ones.copy()
    p_poison[0] = 0.0  # batch 0's gradient is not finite

    def make_optimizer(case):
      if case == "init_from_checkpoint":
        return tf.train.GradientDescentOptimizer(0.0)
      adam = tf.train.AdamOptimizer(0.1)
      if case == "clip_gradients_by_norm":
        return tf.contrib.estimator.clip_gradients_by_norm(adam, 0.05)
      if case == "skip_non_finite":
        return tf1clip.WrappedOptimizer(adam, skip_non_finite=True)
      return tf1clip.GradientAccumulationOptimizer(
          adam, num_micro_batches=2, count_micro_steps=(case == "accumulation_micro_steps"))

    def model_fn(features, labels, mode, params):
      hidden = tf.layers.dense(features["x"], 5, activation=tf.tanh, name="hidden")
      prediction = tf.layers.dense(hidden, 1, name="out")
      if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": prediction})
      (out_kernel,) = tf.trainable_variables("out/kernel")
      loss = tf.reduce_mean(tf.square(prediction - labels)) + 0.01 * tf.sqrt(
          tf.reduce_mean(features["p"]) * tf.reduce_sum(tf.square(out_kernel)))
      if "init_from" in params:
        tf.train.init_from_checkpoint(params["init_from"], {"hidden/": "hidden/"})
      train_op = make_optimizer(params["case"]).minimize(loss, tf.train.get_global_step())
      if params.get("tpu"):
        return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)
      return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn(case, model_dir=None):
      p = p_poison if case == "skip_non_finite" else p_ones
      start = 0
      if case == "accumulation_micro_steps" and tf.train.latest_checkpoint(model_dir):
        # global_step counts micro-batches here: resume the input where the checkpoint stopped.
        start = int(tf.train.load_checkpoint(model_dir).get_tensor("global_step"))
      # Each element is a batch of 4; the dataset is built in the graph the Estimator calls this in.
      return lambda params=None: tf.data.Dataset.from_tensor_slices(
          ({"x": x, "p": p, "id": ids}, y)).repeat().skip(start)

    def checkpoint(model_dir):
      reader = tf.train.load_checkpoint(model_dir)
      return {name: reader.get_tensor(name).tolist()
              for name, _ in tf.train.list_variables(model_dir)}

    def estimator(case, model_dir, **params):
      params["case"] = case
      if params.get("tpu"):
        config = tf.contrib.tpu.RunConfig(
            model_dir=model_dir, tf_random_seed=3, save_checkpoints_steps=100,
            tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=1))
        return tf.contrib.tpu.TPUEstimator(model_fn, config=config, use_tpu=False,
                                           train_batch_size=4, params=params)
      config = tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=3,
                                      save_checkpoints_steps=100, log_step_count_steps=None)
      return tf.estimator.Estimator(model_fn, config=config, params=params)

    def train(case, model_dir, max_steps, **params):
      estimator(case, model_dir, **params).train(input_fn(case, model_dir), max_steps=max_steps)
      return checkpoint(model_dir)

    tf.logging.set_verbosity(tf.logging.ERROR)
    results = {}
    straight_dirs = {}
    for case, params in [("clip_gradients_by_norm", {}), ("skip_non_finite", {}),
                         ("accumulation", {}), ("tpu_accumulation", {"tpu": True})]:
      straight_dir = straight_dirs[case] = tempfile.mkdtemp()
      straight = train(case, straight_dir, max_steps=4, **params)
      resumed_dir = tempfile.mkdtemp()
      halfway = train(case, resumed_dir, max_steps=2, **params)
      resumed = train(case, resumed_dir, max_steps=4, **params)
      results[case] = {"straight": straight, "halfway": halfway, "resumed": resumed}
    # count_micro_steps=True: max_steps counts micro-batches, and stopping at 3 of 6 stops mid-window.
    case = "accumulation_micro_steps"
    straight = train(case, tempfile.mkdtemp(), max_steps=6)
    resumed_dir = tempfile.mkdtemp()
    halfway = train(case, resumed_dir, max_steps=3)
    resumed = train(case, resumed_dir, max_steps=6)
    results[case] = {"straight": straight, "halfway": halfway, "resumed": resumed}

    # train_and_evaluate drives the same training loop.
    evaluated_dir = tempfile.mkdtemp()
    metrics, _ = tf.estimator.train_and_evaluate(
        estimator("accumulation", evaluated_dir),
        tf.estimator.TrainSpec(input_fn("accumulation"), max_steps=4),
        tf.estimator.EvalSpec(input_fn("accumulation"), steps=1, throttle_secs=0))
    results["train_and_evaluate"] = {"variables": checkpoint(evaluated_dir),
                                     "global_step": int(metrics["global_step"])}

    # init_from_checkpoint in a model_fn warm-starts "hidden/" (learning rate 0 keeps it as loaded).
    source_dir = straight_dirs["accumulation"]
    results["init_from_checkpoint"] = train("init_from_checkpoint", tempfile.mkdtemp(), max_steps=1,
                                            init_from=source_dir)
    # WarmStartSettings does the same from outside the model_fn.
    warm = tf.estimator.Estimator(
        model_fn, config=tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), tf_random_seed=3),
        params={"case": "init_from_checkpoint"},
        warm_start_from=tf.estimator.WarmStartSettings(source_dir, vars_to_warm_start="hidden.*"))
    warm.train(input_fn("accumulation"), max_steps=1)
    results["warm_start"] = checkpoint(warm.model_dir)

    # forward_features: the example ids come back with the predictions.
    forwarded = tf.contrib.estimator.forward_features(estimator("accumulation", source_dir), "id")
    predictions = list(forwarded.predict(lambda: input_fn("accumulation")().take(2)))
    results["forward_features"] = [[int(p["id"][0]), sorted(p)] for p in predictions]
    try:
      tf.contrib.estimator.forward_features(forwarded, keys=3)
    except TypeError as e:
      results["forward_features_error"] = str(e)
    print("RESULTS " + json.dumps(results))
""")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
  # This checkout's tf1clip first, whichever tf1clip the environment has installed.
  path = os.pathsep.join(filter(None, [REPO, os.environ.get("PYTHONPATH")]))
  env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", PYTHONPATH=path)
  proc = subprocess.run([sys.executable, "-c", DRIVER], capture_output=True, text=True, env=env,
                        timeout=600, cwd=str(tmp_path_factory.mktemp("cwd")))
  assert proc.returncode == 0, proc.stderr[-4000:]
  (line,) = [l for l in proc.stdout.splitlines() if l.startswith("RESULTS ")]
  return json.loads(line[len("RESULTS "):])


def _assert_same_variables(a, b):
  assert sorted(a) == sorted(b)
  for name in a:
    np.testing.assert_allclose(a[name], b[name], rtol=1e-6, atol=1e-7, err_msg=name)


@pytest.mark.parametrize("case", ["clip_gradients_by_norm", "skip_non_finite", "accumulation",
                                  "tpu_accumulation"])
def test_resumed_estimator_training_equals_uninterrupted(results, case):
  run = results[case]
  _assert_same_variables(run["resumed"], run["straight"])
  assert run["straight"]["global_step"] == 4
  assert run["halfway"]["global_step"] == 2
  assert run["halfway"]["hidden/kernel"] != run["straight"]["hidden/kernel"]  # it did stop half-way


def test_inner_optimizer_owns_the_slots_under_its_names(results):
  for case in ("clip_gradients_by_norm", "skip_non_finite", "accumulation", "tpu_accumulation"):
    names = set(results[case]["straight"])
    assert {"hidden/kernel/Adam", "hidden/kernel/Adam_1", "beta1_power", "beta2_power"} <= names


def test_skip_counter_is_checkpointed_and_counts_every_nan_batch(results):
  run = results["skip_non_finite"]
  (counter,) = [name for name in run["straight"] if name.endswith("skipped_steps")]
  # Batches alternate non-finite, finite gradient: 4 applied updates skipped 4 batches, 2 before the stop.
  assert run["halfway"][counter] == 2
  assert run["straight"][counter] == run["resumed"][counter] == 4


@pytest.mark.parametrize("case", ["accumulation", "tpu_accumulation"])
def test_accumulation_max_steps_counts_applied_updates(results, case):
  run = results[case]
  # global_step counts applied updates (each = 2 micro-batches), so Adam's beta powers advanced 4 times.
  assert run["straight"]["beta1_power"] == pytest.approx(0.9 ** 5, rel=1e-6)
  accumulators = [name for name in run["straight"] if "GradientAccumulation" in name]
  assert accumulators, sorted(run["straight"])


def test_accumulation_resumes_mid_window_when_max_steps_counts_micro_batches(results):
  run = results["accumulation_micro_steps"]
  _assert_same_variables(run["resumed"], run["straight"])
  assert run["halfway"]["global_step"] == 3 and run["straight"]["global_step"] == 6
  # 3 micro-batches: one window applied, one micro-batch's gradient waiting in the accumulators.
  assert run["halfway"]["beta1_power"] == pytest.approx(0.9 ** 2, rel=1e-6)
  assert run["straight"]["beta1_power"] == pytest.approx(0.9 ** 4, rel=1e-6)
  accumulators = [name for name in run["halfway"]
                  if "GradientAccumulation" in name and "kernel" in name]
  assert accumulators and any(np.any(run["halfway"][name]) for name in accumulators)


def test_tpu_estimator_on_cpu_trains_like_the_estimator(results):
  _assert_same_variables(results["tpu_accumulation"]["straight"],
                         results["accumulation"]["straight"])


def test_train_and_evaluate_trains_like_train(results):
  run = results["train_and_evaluate"]
  assert run["global_step"] == 4
  _assert_same_variables(run["variables"], results["accumulation"]["straight"])


@pytest.mark.parametrize("how", ["init_from_checkpoint", "warm_start"])
def test_warm_start_loads_the_mapped_variables_only(results, how):
  warm = results[how]
  source = results["accumulation"]["straight"]
  for name in ("hidden/kernel", "hidden/bias"):
    np.testing.assert_array_equal(warm[name], source[name], err_msg=name)
  assert not np.allclose(warm["out/kernel"], source["out/kernel"])  # not mapped: fresh values


def test_forward_features_returns_the_ids_with_the_predictions(results):
  # The input's first batch holds ids 0..3; predict yields one dict per example.
  assert results["forward_features"][:4] == [[i, ["id", "y"]] for i in range(4)]
  assert "keys must be a string or a list of strings" in results["forward_features_error"]
